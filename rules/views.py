"""The rules pages (/regras/): the canon's tables, the house settings, the open readings and a
small calculator.

Rules are not campaign data: anyone logged in reads them. The pages show one ruleset's
(``PagesPart``: its chapters, section titles, tables, house settings and readings): a campaign's
with ``?campanha=<slug>`` (one of yours), the canon's (``gurps3e``: ``gurps.rulebook``,
``gurps.house``, ``gurps.readings`` through ``rulesets.gurps3e.pages``) without it. The
calculator is the canon's. This module only arranges what the part gives by chapter and section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from campaigns.http import HtmxHttpRequest
from campaigns.models import Campaign, Membership
from canon.services import house_decisions_in_order
from gurps.tabular import CanonTable
from rules.forms import CALCULATORS
from rulesets.base import PagesPart
from rulesets.registry import GURPS3E, XULETA5E, ruleset_for
from sheets.templatetags.rules import section_anchor
from xuleta import rolls as xuleta_rolls

NOT_YOUR_CAMPAIGN = "Campanha não encontrada entre as suas."
WITHOUT_PAGES = "O sistema de regras «{label}» desta campanha não tem páginas de regras."

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


def _section_title(titles: dict[str, str], section: str) -> str:
    """The heading of ``section`` in ``titles`` ("4.11" → "Distância: o que o alcance cobra");
    "" for a bare chapter number ("2"), whose heading is the chapter's own, already shown."""
    return " · ".join(filter(None, (titles.get(part, "") for part in _parts(section))))


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


def _house_anchors(pages: PagesPart) -> dict[str, str]:
    """Canon section → the anchor of the first house setting that cites it."""
    anchors: dict[str, str] = {}
    for setting in pages.house_settings():
        for part in _parts(setting.section):
            anchors.setdefault(part, f"casa-{setting.key}")
    return anchors


def rulebook_chapters(pages: PagesPart) -> list[ShownChapter]:
    """The ruleset's tables grouped by chapter, then section, in the text's order (``tables()``
    is already sorted by section). Every section gets an anchor: a section with tables its
    heading, one without them a line at the end of its chapter."""
    titles = dict(pages.section_titles())
    chapters = {
        number: ShownChapter(number, title, f"capitulo-{number}")
        for number, title in pages.chapters()
    }
    house = _house_anchors(pages)
    sections: dict[str, ShownSection] = {}
    for table in pages.tables():
        number = _chapter_of(table.section)
        if number not in chapters:
            chapters[number] = ShownChapter(
                number, OTHER_CHAPTER[1], f"capitulo-{number or 'outras'}"
            )
        if table.section not in sections:
            shown = ShownSection(
                table.section,
                _section_title(titles, table.section),
                section_anchor(table.section),
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
    for section, title in titles.items():
        anchor = section_anchor(section)
        if anchor not in anchors:
            number = _chapter_of(section)
            if number not in chapters:
                chapters[number] = ShownChapter(number, OTHER_CHAPTER[1], f"capitulo-{number}")
            chapters[number].without_tables.append(ShownSection(section, title, anchor))
    return [chapter for chapter in chapters.values() if chapter.sections or chapter.without_tables]


def pages_for(request: HtmxHttpRequest) -> PagesPart:
    """The pages part of the ruleset asked: ``?campanha=<slug>``, a campaign of the user's
    (404 otherwise, as for one that does not exist), or the canon's without it. A ruleset
    without pages: 404, saying so in Portuguese."""
    slug = request.GET.get("campanha", "")
    key = GURPS3E
    if slug:
        membership = (
            Membership.objects.filter(user=request.user, campaign__slug=slug)
            .select_related("campaign")
            .first()
        )
        if membership is None:
            raise Http404(NOT_YOUR_CAMPAIGN)
        key = membership.campaign.ruleset
    ruleset = ruleset_for(key)
    if ruleset.pages is None:
        raise Http404(WITHOUT_PAGES.format(label=ruleset.label))
    return ruleset.pages


@login_required
def rules_index(request: HtmxHttpRequest) -> HttpResponse:
    pages = pages_for(request)
    context = {
        "chapters": rulebook_chapters(pages),
        "table_count": len(pages.tables()),
        # Another system's text (the Xuleta's, the sistema001's) names itself; "" the canon.
        "document": getattr(pages, "document", ""),
    }
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
    # For a house question the campaign's ruleset answers (the Xuleta's procedure settings):
    # "in_force" (its answer now), "alternative" (the other one), "" for a plain setting;
    # ``by_default``: in force only because the Árbitro has not decided yet.
    status: str = ""
    by_default: bool = False
    chosen: str = ""  # the Árbitro's decision that put it in force


@login_required
def house_rules(request: HtmxHttpRequest) -> HttpResponse:
    pages = pages_for(request)
    answers = _house_answers(request)
    settings = []
    for setting in pages.house_settings():
        status, by_default, chosen = "", False, ""
        question = getattr(setting, "reading", None)
        if question in answers:
            answer = answers[question]
            status = "in_force" if answer.value == setting.answer else "alternative"
            by_default = answer.setting is None
            chosen = "" if by_default or status != "in_force" else answer.decision
        settings.append(
            ShownSetting(
                key=setting.key,
                title=inline_code(setting.title),
                book=inline_code(setting.book),
                table=inline_code(setting.table),
                decision=decision_label(setting.decision, setting.decided),
                where=inline_code(setting.where or ""),
                sections=section_links(setting.section),
                status=status,
                by_default=by_default,
                chosen=chosen,
            )
        )
    return render(request, "canon/regras/casa.html", {"settings": settings})


def _house_answers(request: HtmxHttpRequest) -> dict:
    """The asked campaign's house questions and the answer in force for each (its procedure
    part's ``house_answers`` over the Árbitro's decisions), {} without a campaign or such
    questions (``pages_for`` has already refused a campaign not the user's)."""
    slug = request.GET.get("campanha", "")
    if not slug:
        return {}
    campaign = Campaign.objects.filter(slug=slug).first()
    procedure = ruleset_for(campaign.ruleset).procedure if campaign else None
    if procedure is None or not hasattr(procedure, "house_answers"):
        return {}
    decided = house_decisions_in_order(campaign)
    return procedure.house_answers({"key": d.house_key, "decision": d.label} for d in decided)


@login_required
def readings(request: HtmxHttpRequest) -> HttpResponse:
    ordered = sorted(
        pages_for(request).readings(), key=lambda reading: section_order(reading.section)
    )
    shown = [(reading, section_links(reading.section)) for reading in ordered]
    return render(request, "canon/regras/leituras.html", {"readings": shown})


class D20Form(forms.Form):
    """The d20 calculator (Xuleta §4.3–4.5): d20 (two with an edge) + bonus against a DC."""

    bonus = forms.IntegerField(label="Bônus", min_value=-30, max_value=60, initial=0)
    dc = forms.IntegerField(label="CD (ou CA)", min_value=-30, max_value=60, initial=15)
    edge = forms.ChoiceField(
        label="Vantagem", choices=list(xuleta_rolls.EDGE_LABELS.items()), initial="none"
    )
    roll = forms.ChoiceField(
        label="Tirada", choices=list(xuleta_rolls.ROLL_KIND_LABELS.items()), initial="check"
    )

    def result(self) -> dict | None:
        if not self.is_bound or not self.is_valid():
            return None
        d = self.cleaned_data
        success = xuleta_rolls.success_chance(d["bonus"], d["dc"], d["edge"], d["roll"])
        found = {**d, "exact": f"{success.numerator}/{success.denominator}"}
        found["percent"] = f"{float(success) * 100:.2f}".rstrip("0").rstrip(".")
        if d["roll"] == xuleta_rolls.ATTACK:
            critical = xuleta_rolls.critical_chance(d["edge"])
            found["critical_exact"] = f"{critical.numerator}/{critical.denominator}"
        return found


def d20_calculator(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The Xuleta's calculator: GET with the four fields answers the exact chance (the same
    ``xuleta.rolls.success_chance`` as ``/api/v1/rules/odds``); htmx: only the panel."""
    asked = any(name in request.GET for name in ("bonus", "dc"))
    form = D20Form(request.GET if asked else None)
    context = {"form": form, "r": form.result(), "campanha": slug}
    if request.htmx and asked:
        return render(request, "canon/regras/calculadora_d20.html#d20", context)
    return render(request, "canon/regras/calculadora_d20.html", context)


@login_required
def calculator(request: HtmxHttpRequest) -> HttpResponse:
    """A d20 ruleset's campaign (``?campanha=``, the Xuleta): its d20 calculator. Otherwise
    GET: the four calculators. POST: the one named by ``calculadora`` answers; with htmx
    only its panel (``#<name>`` partial) comes back, without JavaScript the whole page."""
    slug = request.GET.get("campanha", "")
    if slug and pages_for(request) is ruleset_for(XULETA5E).pages:
        return d20_calculator(request, slug)
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
