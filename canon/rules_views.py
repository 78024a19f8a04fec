"""The rules pages (/regras/): the canon's tables, the house settings, the open readings and a
small calculator.

Rules are not campaign data: anyone logged in reads them. Every number shown comes from
``gurps`` (``gurps.rulebook.all_tables()``, ``gurps.house``, ``gurps.readings`` and the
calculator's forms); this module only arranges it by the canon's chapters and sections.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from campaigns.http import HtmxHttpRequest
from gurps.house import HOUSE_SETTINGS
from gurps.readings import READINGS
from gurps.rulebook import all_tables
from gurps.tabular import CanonTable
from rules.forms import CALCULATORS
from sheets.templatetags.rules import section_anchor

# The canon's chapters and sections, by their headings in *Como se joga*: the page groups the
# tables under them and gives every section an anchor, with or without a table.
CHAPTERS: tuple[tuple[str, str], ...] = (
    ("1", "A rolagem"),
    ("2", "Os quatro atributos e o que sai deles"),
    ("3", "Perícias"),
    ("4", "Combate"),
    ("5", "Ferimento, incapacitação e morte"),
    ("6", "Fadiga"),
    ("7", "Testes de resistência"),
    ("8", "O que esta campanha faz diferente do livro"),
)
SECTION_TITLES: dict[str, str] = {
    "1.1": "Como se rola",
    "1.2": "Sucesso decisivo e falha crítica",
    "1.3": "Margem",
    "1.4": "Modificadores, e quando eles são ditos",
    "1.5": "Disputas",
    "1.6": "Quando o Mestre rola escondido",
    "2.1": "Os derivados",
    "2.2": "Carga",
    "3.1": "Como se lê uma linha de ficha",
    "3.2": "Dificuldade",
    "3.3": "Perícia que você não tem",
    "4.1": "O turno",
    "4.2": "Sequência",
    "4.3": "Manobras",
    "4.4": "O ataque: três rolagens",
    "4.5": "Modificadores de ataque",
    "4.6": "Defesa: passiva mais ativa",
    "4.7": "As três defesas ativas",
    "4.8": "Golpe fulminante e erro crítico",
    "4.9": "Dano",
    "4.10": "A sequência de combate — tabela do Mestre",
    "4.11": "Distância: o que o alcance cobra",
    "4.12": "Quedas",
    "4.13": "Os tetos de trespassar",
    "4.14": "Esgrimista com adaga — três aparadas por rodada",
    "4.15": "Falha crítica em operação mágica",
    "5.1": "Choque",
    "5.2": "Prostração e atordoamento",
    "5.3": "Nocaute",
    "5.4": "Os limiares de PV",
    "5.4.1": "Quem morre quando — regra de casa",
    "5.5": "Lesões incapacitantes",
    "5.6": "Recuperação",
    "5b": "Verificação de Pânico",
    "5c": "Combate de perto",
    "5d": "Terreno e o que ele cobra",
    "5e": "Surpresa",
    "5f": "Atacar coisa que não se defende",
    "5g": "Fogo, veneno e doença",
    "5h": "Calor e frio",
    "6.1": "O que gasta",
    "6.2": "O que a fadiga cobra",
    "6.3": "Recuperação",
    "6.4": "Por que isso é decisivo para o mago",
    "6.5": "Asfixia e fôlego",
    "7.1": "Vontade",
    "7.2": "HT",
    "7.3": "Resistir a magia",
    "8": "O que esta campanha faz diferente do livro",
}
OTHER_CHAPTER = ("", "Outras tabelas")


def section_order(section: str) -> tuple:
    """A sort key in the canon's order: "4.9" < "4.10" < "5.4" < "5.4.1" < "5b" < "6.1"."""
    first = section.split(",")[0].strip()
    return tuple(
        (int(digits or 0), letters)
        for digits, letters in re.findall(r"(\d*)([a-z]*)", first)
        if digits or letters
    )


def table_anchor(key: str) -> str:
    return f"tabela-{key}"


def book_pages(page: str) -> str:
    """The book's pages as the page prints them: "73–74" → "MB pág. 73–74", "MAGIA 11" →
    "MAGIA pág. 11", "86, 202" → "MB pág. 86, 202"; "" → "" (the canon cites none). A part
    that names a canon document by its section ("17 §6.5") is a document, not a page."""
    books: list[tuple[str, list[str]]] = []
    for part in (p.strip() for p in page.split(",")):
        if not part:
            continue
        if part.startswith("MAGIA"):
            book, number = "MAGIA pág.", part.removeprefix("MAGIA").strip()
        elif "§" in part:
            book, number = "documento", part
        else:
            book, number = "MB pág.", part
        if books and books[-1][0] == book:
            books[-1][1].append(number)
        else:
            books.append((book, [number]))
    return " · ".join(f"{book} {', '.join(numbers)}" for book, numbers in books)


def inline_code(text: str) -> SafeString:
    """The canon's `backticks` (document names, file names) as <code>, the rest escaped."""
    return mark_safe(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text))))


def _parts(sections: str) -> list[str]:
    """ "7.1, 7.2" → ["7.1", "7.2"]."""
    return [part.strip() for part in sections.split(",") if part.strip()]


def _chapter_of(section: str) -> str:
    parts = _parts(section)
    return re.match(r"\d*", parts[0]).group(0) if parts else ""


def _section_title(section: str) -> str:
    """The canon's heading of ``section`` ("4.11" → "Distância: o que o alcance cobra"); ""
    for a bare chapter number ("2"), whose heading is the chapter's own, already shown."""
    return " · ".join(filter(None, (SECTION_TITLES.get(part, "") for part in _parts(section))))


@dataclass(frozen=True)
class ShownTable:
    table: CanonTable
    anchor: str
    pages: str
    notes: tuple[SafeString, ...]
    house_anchor: str  # the house setting of the same section, for a decided table


@dataclass
class ShownSection:
    section: str
    title: str
    anchor: str
    tables: list[ShownTable] = field(default_factory=list)
    # "7.1, 7.2" also answers to #secao-7-1 and #secao-7-2.
    extra_anchors: list[str] = field(default_factory=list)


@dataclass
class ShownChapter:
    number: str
    title: str
    anchor: str
    sections: list[ShownSection] = field(default_factory=list)
    without_tables: list[ShownSection] = field(default_factory=list)


def _house_anchors() -> dict[str, str]:
    """Canon section → the anchor of the first house setting that cites it."""
    anchors: dict[str, str] = {}
    for setting in HOUSE_SETTINGS.values():
        for part in _parts(setting.section):
            anchors.setdefault(part, f"casa-{setting.key}")
    return anchors


def rulebook_chapters(tables: tuple[CanonTable, ...]) -> list[ShownChapter]:
    """The tables grouped by canon chapter, then section, in the canon's order (``tables``
    is already sorted by section). Every canon section gets an anchor: a section with tables
    its heading, one without them a line at the end of its chapter."""
    chapters = {
        number: ShownChapter(number, title, f"capitulo-{number}") for number, title in CHAPTERS
    }
    house = _house_anchors()
    sections: dict[str, ShownSection] = {}
    for table in tables:
        number = _chapter_of(table.section)
        if number not in chapters:
            chapters[number] = ShownChapter(
                number, OTHER_CHAPTER[1], f"capitulo-{number or 'outras'}"
            )
        if table.section not in sections:
            shown = ShownSection(
                table.section, _section_title(table.section), section_anchor(table.section)
            )
            sections[table.section] = shown
            chapters[number].sections.append(shown)
        notes = tuple(
            inline_code(note) for note in ((table.note,) if table.note else ()) + table.notes
        )
        first = (_parts(table.section) or [""])[0]
        sections[table.section].tables.append(
            ShownTable(
                table,
                table_anchor(table.key),
                book_pages(table.page),
                notes,
                house.get(first, "") if table.decided else "",
            )
        )
    anchors = {shown.anchor for shown in sections.values()}
    for shown in sections.values():
        for part in _parts(shown.section):
            anchor = section_anchor(part)
            if anchor not in anchors:
                shown.extra_anchors.append(anchor)
                anchors.add(anchor)
    for section, title in SECTION_TITLES.items():
        anchor = section_anchor(section)
        if anchor not in anchors:
            chapters[_chapter_of(section)].without_tables.append(
                ShownSection(section, title, anchor)
            )
    return [chapter for chapter in chapters.values() if chapter.sections or chapter.without_tables]


@login_required
def rules_index(request: HtmxHttpRequest) -> HttpResponse:
    tables = all_tables()
    context = {"chapters": rulebook_chapters(tables), "table_count": len(tables)}
    return render(request, "canon/regras/index.html", context)


@dataclass(frozen=True)
class SectionLink:
    """One canon section a setting or reading cites, and its anchor on /regras/."""

    section: str
    anchor: str


def section_links(sections: str) -> list[SectionLink]:
    """ "5.4, 6.2" → §5.4 (#secao-5-4) and §6.2 (#secao-6-2)."""
    parts = [part.strip() for part in sections.split(",") if part.strip()]
    return [SectionLink(part, section_anchor(part)) for part in parts]


def decision_label(decision: str | None, decided: str | None) -> str:
    """ "Decisão 27" and "13/09/2026" → "Decisão 27, de 13/09/2026"; a decision that already
    names its date stays as it is; neither → ""."""
    if decision and decided and decided not in decision:
        return f"{decision}, de {decided}"
    if decision:
        return decision if decided else f"{decision}, sem data no cânone"
    return f"decidida em {decided}" if decided else ""


@dataclass(frozen=True)
class ShownSetting:
    key: str
    title: SafeString
    book: SafeString
    table: SafeString
    decision: str
    where: SafeString
    sections: list[SectionLink]


@login_required
def house_rules(request: HtmxHttpRequest) -> HttpResponse:
    settings = [
        ShownSetting(
            key=setting.key,
            title=inline_code(setting.title),
            book=inline_code(setting.book),
            table=inline_code(setting.table),
            decision=decision_label(setting.decision, setting.decided),
            where=inline_code(setting.where or ""),
            sections=section_links(setting.section),
        )
        for setting in HOUSE_SETTINGS.values()
    ]
    return render(request, "canon/regras/casa.html", {"settings": settings})


@login_required
def readings(request: HtmxHttpRequest) -> HttpResponse:
    ordered = sorted(READINGS, key=lambda reading: section_order(reading.section))
    shown = [(reading, section_links(reading.section)) for reading in ordered]
    return render(request, "canon/regras/leituras.html", {"readings": shown})


@login_required
def calculator(request: HtmxHttpRequest) -> HttpResponse:
    """GET: the four calculators. POST: the one named by ``calculadora`` answers; with htmx
    only its panel (``#<name>`` partial) comes back, without JavaScript the whole page."""
    forms = {name: form_class() for name, form_class in CALCULATORS.items()}
    asked = None
    if request.method == "POST":
        asked = request.POST.get("calculadora")
        if asked not in CALCULATORS:
            return HttpResponseBadRequest("Calculadora desconhecida.")
        forms[asked] = CALCULATORS[asked](request.POST)
        forms[asked].is_valid()
    # An OutsideCanon answer offers a divergence through canon/_offer_divergence.html, which
    # shows the link to the Mestre and the Árbitro only.
    context = {"forms": forms, "asked": asked}
    if request.htmx and asked:
        return render(request, f"canon/regras/calculadora.html#{asked}", context)
    return render(request, "canon/regras/calculadora.html", context)
