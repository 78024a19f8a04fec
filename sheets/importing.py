"""An existing 3e character pasted as text, read into a draft: every line it reads, and every
line it could not (with why), for the player to fix before submitting. Importing never
homologates: the draft goes through the same audit and the same queue as any other.

Lines it reads (one thing a line, any order; blank lines and headings such as "Perícias:" are
skipped):

- attributes: "ST 12 DX 14 IQ 10 HT 12" (one or more on a line);
- skills: "Lança 17 (16)", with attribute and difficulty from the Árbitro's catalogue, or
  written on the line: "Lança DX/Média 17 (16)", "Lança (DX/M) 17 (16)"; the points may be
  half ones, "(½)";
- advantages, disadvantages and quirks: "Reflexos em Combate [15]", "Honestidade [−10]",
  "Fala sozinho [−1]" (reading ``imported_trait_kind_by_points``);
- items: "Cota de malha 11,5 kg PD 3 RD 4", "Flechas 0,05 kg ×20", "Lança 2,5 kg GDP+1 perf",
  "Escudo médio 7 kg PD 2 escudo".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.db import transaction

from campaigns.errors import ServiceError
from gurps import damage
from gurps.audit import CatalogueSkill
from gurps.errors import InvalidValue
from gurps.skill_costs import CostRow
from gurps.skills import parse_points
from sheets import services
from sheets.drafting import resolve_skill_lines
from sheets.models import Character, SheetVersion, Trait

MAX_LINES = 400

UNREAD_UNKNOWN = "linha que não parece atributo, perícia, vantagem nem item"
UNREAD_ATTRIBUTE_RANGE = "{name} {value}: um atributo vai de 1 a 30"
UNREAD_SKILL_NOT_IN_CATALOGUE = (
    "«{name}» não está no catálogo com atributo e dificuldade: escreva-os na linha, p.ex. "
    "«{name} DX/Média {level} (pontos)»"
)
UNREAD_BAD_POINTS = "os pontos entre parênteses não se leem (vão de ½ em ½)"
UNREAD_ITEM_REST = "item lido até o peso; «{rest}» não se lê (PD, RD, ×quantidade, dano, escudo)"
UNREAD_DUPLICATE = "«{name}» já foi lida acima"
UNREAD_TOO_MANY = "o texto passa de 400 linhas: o resto não foi lido"

HEADINGS = {
    "atributos",
    "perícias",
    "pericias",
    "vantagens",
    "desvantagens",
    "peculiaridades",
    "equipamento",
    "itens",
    "armas",
    "armadura",
}
ATTRIBUTES = ("st", "dx", "iq", "ht")

_ATTRIBUTE_PAIR = re.compile(r"\b(ST|DX|IQ|HT)\s*[:=]?\s*(-?[0-9]+)\b", re.IGNORECASE)
_ATTRIBUTE_LINE = re.compile(
    r"^(?:\s*[,;|]?\s*(?:ST|DX|IQ|HT)\s*[:=]?\s*-?[0-9]+)+\s*[,;.]?\s*$", re.IGNORECASE
)
_TRAIT = re.compile(r"^(?P<name>\S.*?)\s*\[\s*(?P<points>[+\-\u2212]?\s*[0-9]+)\s*\]\s*$")
_DIFFICULTY_WORDS = {
    "fácil": "E",
    "facil": "E",
    "f": "E",
    "e": "E",
    "média": "A",
    "media": "A",
    "m": "A",
    "a": "A",
    "difícil": "H",
    "dificil": "H",
    "d": "H",
    "h": "H",
    "muito difícil": "VH",
    "muito dificil": "VH",
    "md": "VH",
    "vh": "VH",
}
_KIND = r"\(?\s*(?P<attr>ST|DX|IQ|HT)\s*/\s*(?P<diff>muito\s+dif[ií]cil|[A-Za-zÀ-ú]+)\s*\)?"
_SKILL = re.compile(
    rf"^(?P<name>\S.*?)(?:\s+{_KIND})?\s+(?P<level>[0-9]+)(?:\s*\((?P<points>[^()]*)\))?\s*$",
    re.IGNORECASE,
)
_ITEM = re.compile(
    r"^(?P<name>\S.*?)\s+(?P<kg>[0-9]+(?:[.,][0-9]+)?)\s*kg\b(?P<rest>.*)$", re.IGNORECASE
)
_QUANTITY = re.compile(r"(?:^|\s)[×x]\s*(?P<q>[0-9]+)\b|\b(?P<q2>[0-9]+)\s*[×x](?:\s|$)")
_PD = re.compile(r"\bPD\s*(?P<v>[0-9]+)\b", re.IGNORECASE)
_RD = re.compile(r"\bRD\s*(?P<v>[0-9]+)\b", re.IGNORECASE)
_SHIELD = re.compile(r"\bescudo\b", re.IGNORECASE)


@dataclass
class ImportResult:
    """What a pasted text held: the attributes found (only those written), the lines read
    (as the draft stores them) and the lines not read, each "the line — why"."""

    attributes: dict[str, int] = field(default_factory=dict)
    skills: list[dict] = field(default_factory=list)
    traits: list[dict] = field(default_factory=list)
    items: list[dict] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)

    @property
    def read_count(self) -> int:
        return len(self.attributes) + len(self.skills) + len(self.traits) + len(self.items)


def _attributes(line: str, result: ImportResult) -> bool:
    if not _ATTRIBUTE_LINE.match(line):
        return False
    for name, value in _ATTRIBUTE_PAIR.findall(line):
        number = int(value)
        if not 1 <= number <= 30:
            result.unread.append(
                f"{line} — {UNREAD_ATTRIBUTE_RANGE.format(name=name.upper(), value=number)}"
            )
            continue
        result.attributes[name.lower()] = number
    return True


_KEYS = {label.casefold(): key for key, label in Trait.Key.choices if key}


def _trait(line: str, result: ImportResult) -> bool:
    match = _TRAIT.match(line)
    if match is None:
        return False
    points = int(match["points"].replace("\u2212", "-").replace(" ", ""))
    kind = "advantage" if points >= 0 else "quirk" if points == -1 else "disadvantage"
    name = match["name"].strip()
    result.traits.append(
        {"name": name, "kind": kind, "key": _KEYS.get(name.casefold(), ""), "level": None,
         "points": points}
    )  # fmt: skip
    return True


def _skill(line: str, result: ImportResult, catalogue: dict[str, CatalogueSkill]) -> bool:
    match = _SKILL.match(line)
    if match is None:
        return False
    name, level = match["name"].strip(), int(match["level"])
    attribute = (match["attr"] or "").lower()
    difficulty = _DIFFICULTY_WORDS.get(" ".join((match["diff"] or "").lower().split()), "")
    entry = catalogue.get(name.casefold())
    if not (attribute and difficulty) and entry is not None:
        attribute = attribute or entry.attribute or ""
        difficulty = difficulty or (entry.difficulty.value if entry.difficulty else "")
    if not (attribute and difficulty):
        result.unread.append(
            f"{line} — {UNREAD_SKILL_NOT_IN_CATALOGUE.format(name=name, level=level)}"
        )
        return True
    points = None
    if match["points"] is not None:
        try:
            points = parse_points(match["points"])
        except InvalidValue:
            result.unread.append(f"{line} — {UNREAD_BAD_POINTS}")
            return True
    result.skills.append(
        {"name": name, "attribute": attribute, "difficulty": difficulty, "level": level,
         "points": points}
    )  # fmt: skip
    return True


def _item_extras(rest: str) -> tuple[dict, str]:
    extras: dict = {}
    for pattern, key in ((_PD, "passive_defense"), (_RD, "damage_resistance")):
        found = pattern.search(rest)
        if found:
            extras[key] = int(found["v"])
            rest = pattern.sub(" ", rest, count=1)
    found = _QUANTITY.search(rest)
    if found:
        extras["quantity"] = max(1, int(found["q"] or found["q2"]))
        rest = _QUANTITY.sub(" ", rest, count=1)
    if _SHIELD.search(rest):
        extras["is_shield"] = True
        rest = _SHIELD.sub(" ", rest, count=1)
    rest = " ".join(rest.replace(",", " ").split())
    if rest:
        try:
            damage.weapon_damage(rest, 10)
        except InvalidValue:
            return extras, rest
        extras["damage"] = rest
        rest = ""
    return extras, rest


def _item(line: str, result: ImportResult) -> bool:
    match = _ITEM.match(line)
    if match is None or not any(ch.isalpha() for ch in match["name"]):
        return False
    try:
        weight = Decimal(match["kg"].replace(",", "."))
    except InvalidOperation:
        return False
    extras, rest = _item_extras(match["rest"])
    if rest:
        result.unread.append(f"{line} — {UNREAD_ITEM_REST.format(rest=rest)}")
        return True
    result.items.append(
        {
            "name": match["name"].strip(),
            "weight_kg": weight,
            "quantity": 1,
            "passive_defense": 0,
            "damage_resistance": 0,
            "is_shield": False,
            "damage": "",
            "skill_name": "",
            "parry": "",
            "carried_by_default": True,
            **extras,
        }
    )
    return True


def _heading(line: str) -> bool:
    word = line.strip().rstrip(":").strip().casefold()
    return word in HEADINGS or (line.strip().endswith(":") and len(word) < 40)


def _drop_repeats(result: ImportResult) -> None:
    for part in (result.skills, result.traits, result.items):
        seen, kept = set(), []
        for line in part:
            name = line["name"].casefold()
            if name in seen:
                result.unread.append(
                    f"{line['name']} — {UNREAD_DUPLICATE.format(name=line['name'])}"
                )
                continue
            seen.add(name)
            kept.append(line)
        part[:] = kept


def sheet_text_read(text: str, *, catalogue: Sequence[CatalogueSkill] = ()) -> ImportResult:
    """Read a pasted sheet (see the module's docstring). Skill names are matched in the
    Árbitro's ``catalogue`` (any case) for their attribute and difficulty. Nothing raises: a
    line not understood goes to ``unread`` with the reason."""
    by_name = {entry.name.casefold(): entry for entry in catalogue}
    result = ImportResult()
    lines = [line.strip() for line in (text or "").splitlines()]
    lines = [line for line in lines if line]
    if len(lines) > MAX_LINES:
        result.unread.append(f"(linha {MAX_LINES + 1} em diante) — {UNREAD_TOO_MANY}")
        lines = lines[:MAX_LINES]
    for line in lines:
        line = line[:300]
        if _heading(line):
            continue
        if _attributes(line, result) or _trait(line, result) or _item(line, result):
            continue
        if _skill(line, result, by_name):
            continue
        result.unread.append(f"{line} — {UNREAD_UNKNOWN}")
    _drop_repeats(result)
    return result


NOTHING_READ = (
    "Nenhuma linha lida: o texto não parece uma ficha de GURPS (atributos «ST 12 DX 14 IQ 10 "
    "HT 12», perícias «Lança 17 (16)», vantagens «Reflexos em Combate [15]», itens «Lança 2,5 kg "
    "GDP+1 perf»). O rascunho ficou como estava."
)


@transaction.atomic
def sheet_import(
    *,
    character: Character,
    user,
    text: str,
    table: Sequence[CostRow],
    catalogue: Sequence[CatalogueSkill] = (),
) -> tuple[SheetVersion, ImportResult]:
    """Read ``text`` into the owner's draft (made from the newest version if there is none).

    The parts the text has lines of replace the draft's (its skills, its traits, its items);
    attributes not written keep the draft's; notes are kept. A skill line the cost table cannot
    complete (a level below the table, a physical Very Hard) joins the unread lines, with the
    reason; the unread lines are kept on the draft (``unread_lines``) for the player to fix.
    Raises ServiceError(NOTHING_READ) when nothing was read: then nothing changes, not even a
    new draft. Never homologates, never submits."""
    result = sheet_text_read(text, catalogue=catalogue)
    if result.read_count == 0:
        raise ServiceError(NOTHING_READ, field="text")
    draft = SheetVersion.objects.filter(
        character=character, status=SheetVersion.Status.DRAFT
    ).first() or services.sheet_draft_create(character=character, user=user)
    attributes = {**draft.attributes(), **result.attributes}
    resolved, errors = resolve_skill_lines(
        attributes=attributes, lines=result.skills, table=table, catalogue=catalogue
    )
    skills = []
    for index, line in enumerate(resolved):
        if index in errors:
            why = "; ".join(errors[index].values())
            result.unread.append(f"{line['name']} {line.get('level') or ''} — {why}".strip())
        else:
            skills.append(line)
    draft = services.sheet_draft_update(
        version=draft,
        attributes=attributes,
        notes=draft.notes,
        skills=skills if result.skills else None,
        traits=result.traits or None,
        items=result.items or None,
        unread_lines="\n".join(result.unread),
    )
    return draft, result


PART_NAMES = {"skills": "perícia", "traits": "vantagem ou desvantagem", "items": "item"}


def import_losses(
    *, character: Character, text: str, catalogue: Sequence[CatalogueSkill] = ()
) -> list[str]:
    """What importing ``text`` would drop, before anything is written: each line of the draft
    (or of the newest version, which a new draft copies) in a part the text has lines of
    (skills, traits, items: that part is replaced whole) whose name the text does not have —
    "item Cota de malha". Empty when nothing would be lost (or nothing is read: the import
    then refuses on its own)."""
    result = sheet_text_read(text, catalogue=catalogue)
    if result.read_count == 0:
        return []
    versions = SheetVersion.objects.filter(character=character)
    source = versions.filter(status=SheetVersion.Status.DRAFT).first()
    if source is None and versions.filter(status=SheetVersion.Status.SUBMITTED).exists():
        return []  # no draft can be made: the import refuses on its own
    source = source or versions.order_by("-number").first()
    if source is None:
        return []
    lost = []
    for part, lines in (
        ("skills", result.skills),
        ("traits", result.traits),
        ("items", result.items),
    ):
        if not lines:
            continue
        kept = {line["name"].casefold() for line in lines}
        lost += [
            f"{PART_NAMES[part]} {row.name}"
            for row in getattr(source, part).all()
            if row.name.casefold() not in kept
        ]
    return lost
