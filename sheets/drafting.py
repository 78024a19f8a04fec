"""A draft's skill lines made whole: the level derived from the points, or the points from the
level, by the Árbitro's cost table (``gurps.skill_costs``), before the draft is saved.

The player gives attribute, difficulty and points and the level comes out (or the level, and
what it costs); a line the table cannot explain says why, next to the field at fault, and is not
saved until he fixes it. Both given: kept as typed, and the audit says whether they agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from gurps import skill_costs
from gurps.audit import CatalogueSkill
from gurps.errors import InvalidValue
from gurps.skill_costs import ATTRIBUTE_NAMES, CostRow
from gurps.skills import best_default

NEEDS_POINTS_OR_LEVEL = "Diga os pontos (o NH sai da tabela) ou o NH (os pontos saem dela)."
ZERO_POINTS_NEEDS_A_DEFAULT = (
    "Com 0 ponto vale o pré-definido (§3.3), e esta perícia não tem um que a ficha alcance: "
    "ponha pontos, diga o NH ou tire a linha."
)


def as_decimal(points) -> Decimal:
    """Exact points as the sheet stores them (halves: one decimal place)."""
    value = Fraction(points)
    return Decimal(value.numerator) / Decimal(value.denominator)


def _default_level(line, attributes, levels, catalogue) -> int | None:
    entry = next((e for e in catalogue if e.name.casefold() == line["name"].casefold()), None)
    defaults = entry.default_list() if entry is not None else None
    if defaults is None:
        return None
    used = best_default(defaults=defaults, attributes=attributes, skills=levels)
    return used.level if used is not None else None


def _resolve(line: dict, attributes, levels, table, catalogue) -> tuple[dict, dict[str, str]]:
    """One line with its missing side filled, or the errors by field."""
    attribute = line["attribute"]
    common = {
        "attribute": attributes[attribute],
        "kind": skill_costs.skill_kind_for(attribute),
        "difficulty": line["difficulty"],
        "table": table,
        "attribute_name": ATTRIBUTE_NAMES[attribute],
    }
    points, level = line.get("points"), line.get("level")
    try:
        # A column the table lacks is refused even with both given (a physical Very Hard).
        skill_costs.check_column(table, common["kind"], line["difficulty"])
        if points is not None and level is None and points == 0:
            level = _default_level(line, attributes, levels, catalogue)
            if level is None:
                return line, {"points": ZERO_POINTS_NEEDS_A_DEFAULT}
        elif points is not None and level is None:
            level = skill_costs.level_bought(points=points, **common).level
        elif level is not None and points is None:
            points = skill_costs.points_for_level(level=level, **common).points
        elif points is None and level is None:
            return line, {"points": NEEDS_POINTS_OR_LEVEL}
    except InvalidValue as error:
        field = error.field if error.field in ("difficulty", "level", "points") else "points"
        return line, {field: error.message}
    return {**line, "level": level, "points": as_decimal(points)}, {}


def resolve_skill_lines(
    *,
    attributes: dict[str, int],
    lines: Sequence[dict],
    table: Sequence[CostRow],
    catalogue: Sequence[CatalogueSkill] = (),
) -> tuple[list[dict], dict[int, dict[str, str]]]:
    """Each line (name, attribute, difficulty, level or None, points or None) with both level
    and points, and the errors by line index and field where the table cannot give the missing
    one (a level below the table, points that reach no row, a column the table lacks; 0 points
    where no default applies)."""
    levels = {line["name"]: line["level"] for line in lines if line.get("level") is not None}
    resolved, errors = [], {}
    for index, line in enumerate(lines):
        whole, said = _resolve(line, attributes, levels, table, catalogue)
        resolved.append(whole)
        if said:
            errors[index] = said
    return resolved, errors


LEVEL_FOLLOWED = (
    "{name}: NH {old} → {new}, porque {attribute} foi de {before} para {after}; os {points} "
    "ponto(s) ficam, e o NH sai deles pela tabela de custo (§3.2)."
)


def _bought_at(line: dict, value: int, table, attribute: str) -> int | None:
    try:
        return skill_costs.level_bought(
            points=line["points"],
            attribute=value,
            kind=skill_costs.skill_kind_for(attribute),
            difficulty=line["difficulty"],
            table=table,
            attribute_name=ATTRIBUTE_NAMES[attribute],
        ).level
    except InvalidValue:
        return None


def follow_attributes(
    *,
    lines: Sequence[dict],
    before: dict[str, int],
    after: dict[str, int],
    table: Sequence[CostRow],
) -> tuple[list[dict], list[str]]:
    """The skill lines after an attribute changed (DX 12 → 13): the points bought stay, and a
    line whose NH was what its points bought at the old value gets the NH they buy at the new
    one (§3.2, the Árbitro's cost table); a line that did not add up before is left as typed
    (the audit says so). Returns the lines and one sentence per level that moved."""
    followed, said = [], []
    for line in lines:
        attribute = line.get("attribute")
        points, level = line.get("points"), line.get("level")
        if (
            attribute not in after
            or before.get(attribute) == after[attribute]
            or points is None
            or level is None
            or Fraction(points) == 0
            or _bought_at(line, before[attribute], table, attribute) != level
        ):
            followed.append(line)
            continue
        new = _bought_at(line, after[attribute], table, attribute)
        if new is None or new == level:
            followed.append(line)
            continue
        followed.append({**line, "level": new})
        said.append(
            LEVEL_FOLLOWED.format(
                name=line["name"],
                old=level,
                new=new,
                attribute=ATTRIBUTE_NAMES[attribute],
                before=before[attribute],
                after=after[attribute],
                points=skill_costs.format_points(Fraction(points)),
            )
        )
    return followed, said
