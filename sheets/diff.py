"""What changed between two versions of a sheet, line by line, as a player reads it: the
homologation queue, the sheet's history and the Árbitro's correction show it. It reads the
GURPS sheet's lines (attributes, traits, skills, items), so it is the ruleset's, not the
homologation envelope's.
"""

from __future__ import annotations

from dataclasses import dataclass

from gurps import derived
from rulesets.registry import GURPS3E, ruleset_for
from sheets.models import Item, SheetVersion, Skill, Trait


@dataclass(frozen=True)
class Change:
    """One line that differs between two versions, as a player reads it. ``before`` is ""
    for a line added, ``after`` is "" for a line removed."""

    what: str
    before: str
    after: str
    group: str = ""


ATTRIBUTES_GROUP = "Atributos"
TRAITS_GROUP = "Vantagens, desvantagens e peculiaridades"
SKILLS_GROUP = "Perícias"
ITEMS_GROUP = "Itens"
NOTES_GROUP = "Notas"


def _trait_text(trait: Trait) -> str:
    parts = [trait.get_kind_display().lower()]
    if trait.level is not None:
        parts.append(f"nível {trait.level}")
    if trait.points:
        parts.append(f"{derived.format_number(trait.points)} pts")
    if trait.key:
        parts.append(f"o motor lê: {trait.get_key_display()}")
    return ", ".join(parts)


def _skill_text(skill: Skill, *, with_kind: bool) -> str:
    text = f"{skill.level} ({derived.format_number(skill.points)})"
    if with_kind:
        kind = f"{skill.get_attribute_display()}/{skill.get_difficulty_display()}"
        text = f"{kind} {text}"
    return text


def _item_text(item: Item) -> str:
    parts = [f"{derived.format_number(item.weight_kg)} kg"]
    if item.quantity != 1:
        parts.append(f"×{item.quantity}")
    if item.passive_defense or item.damage_resistance:
        parts.append(f"PD {item.passive_defense}/RD {item.damage_resistance}")
    if item.is_shield:
        parts.append("escudo")
    if item.damage:
        parts.append(item.damage)
    if item.skill_name:
        parts.append(f"perícia {item.skill_name}")
    if item.parry:
        parts.append(f"apara {item.get_parry_display()}")
    if item.ranged_snap_shot is not None:
        parts.append(f"TR {item.ranged_snap_shot}")
    if item.ranged_accuracy is not None:
        parts.append(f"Prec {derived.format_number(item.ranged_accuracy)}")
    if item.ranged_half_damage_m is not None:
        parts.append(f"½D {item.ranged_half_damage_m} m")
    if item.ranged_max_m is not None:
        parts.append(f"Máx {item.ranged_max_m} m")
    if not item.carried_by_default:
        parts.append("guardado")
    return ", ".join(parts)


def _keyed(lines, name) -> dict[str, object]:
    """Lines by name (case-insensitive); a repeated name gets " (2)", " (3)"…"""
    found: dict[str, object] = {}
    for line in lines:
        key, n = name(line), 1
        while key.casefold() in {k.casefold() for k in found}:
            n += 1
            key = f"{name(line)} ({n})"
        found[key] = line
    return found


def _line_changes(group, old_lines, new_lines, text) -> list[Change]:
    old = _keyed(old_lines, lambda line: line.name)
    new = _keyed(new_lines, lambda line: line.name)
    old_by_fold = {k.casefold(): v for k, v in old.items()}
    names = {k.casefold(): k for k in old} | {k.casefold(): k for k in new}
    changes = []
    for fold in sorted(names):
        before = old_by_fold.get(fold)
        after = next((v for k, v in new.items() if k.casefold() == fold), None)
        before_text = text(before, after) if before is not None else ""
        after_text = text(after, before) if after is not None else ""
        if before_text != after_text:
            changes.append(Change(names[fold], before_text, after_text, group))
    return changes


def version_changes(before: SheetVersion | None, after: SheetVersion) -> list[Change]:
    """What changed between two versions, line by line, grouped as the sheet shows them:
    attributes, traits, skills, items, notes. ``before`` None: everything is new. A version of
    a ruleset that keeps its sheet as JSON: its ``SheetsPart``'s ``changes`` of the data."""
    sheets = ruleset_for(after.ruleset).sheets if after.ruleset != GURPS3E else None
    if sheets is not None and hasattr(sheets, "changes"):
        return [
            Change(what, old, new, group)
            for group, what, old, new in sheets.changes(before.data if before else None, after.data)
        ]
    changes = []
    for key in ("st", "dx", "iq", "ht"):
        old = getattr(before, key) if before else None
        new = getattr(after, key)
        if old != new:
            changes.append(
                Change(key.upper(), "" if old is None else str(old), str(new), ATTRIBUTES_GROUP)
            )
    changes += _line_changes(
        TRAITS_GROUP,
        before.traits.all() if before else [],
        after.traits.all(),
        lambda line, other: _trait_text(line),
    )
    changes += _line_changes(
        SKILLS_GROUP,
        before.skills.all() if before else [],
        after.skills.all(),
        # Attribute and difficulty are shown when they change, or the line is new or gone.
        lambda line, other: _skill_text(
            line,
            with_kind=other is None
            or (other.attribute, other.difficulty) != (line.attribute, line.difficulty),
        ),
    )
    changes += _line_changes(
        ITEMS_GROUP,
        before.items.all() if before else [],
        after.items.all(),
        lambda line, other: _item_text(line),
    )
    if (before.notes if before else "") != after.notes:
        changes.append(Change("Notas", before.notes if before else "", after.notes, NOTES_GROUP))
    return changes
