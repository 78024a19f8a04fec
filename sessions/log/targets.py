"""What the Mestre may roll for a character: the lines of its homologated sheet (attributes,
skills, defences), each with the level the sheet gives it.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.errors import ServiceError
from rulesets.registry import GURPS3E
from sessions.log.levels import chance_percent, level_choices
from sheets.computed import sheet_view
from sheets.models import Character
from sheets.reads import homologated_version

# --- what the Mestre can roll against, from the homologated sheet ----------------------------

UNKNOWN_TARGET = "Esta personagem não tem essa perícia, atributo ou defesa na ficha homologada."


@dataclass(frozen=True)
class RollTarget:
    """One line the Mestre's forms offer: ``skill`` or ``attribute`` for a test whose level the
    server reads from the sheet (``sessions.log.levels``), or a defence with its level;
    ``level`` and ``percent`` (the chance to pass, §1.1) are shown next to it."""

    key: str
    label: str
    kind: str
    level: int
    percent: int | None = None
    skill: str = ""
    attribute: str = ""
    text: str = ""

    @property
    def option(self) -> str:
        chance = f" · {self.percent}%" if self.percent is not None else ""
        return f"{self.label} {minus(self.level)}{chance}"


def minus(value: int) -> str:
    return f"\u2212{-value}" if value < 0 else str(value)


def _target(c) -> RollTarget:
    # A d20 ruleset's save of an ability is a line of its own beside the ability's check.
    prefix = "save" if str(c.level.kind) == "save" else "attr"
    return RollTarget(
        f"{prefix}:{c.attribute}" if c.attribute else f"skill:{c.skill}",
        c.level.name,
        str(c.level.kind),
        c.level.level,
        c.percent,
        c.skill,
        c.attribute,
        c.level.text,
    )


def roll_targets(character: Character) -> list[RollTarget]:
    """The attributes, Vontade and skills of a character's homologated sheet, each at its level
    now (fatigue counted, §6.2) with its chance to pass, and its defences (with PD)."""
    version = homologated_version(character)
    if version is None:
        return []
    if version.ruleset != GURPS3E:
        # Another ruleset's sheet: its own lines only (the defences below are GURPS's sheet
        # view's).
        return [_target(c) for c in level_choices(character, version=version)]
    view = sheet_view(character, version)
    targets = [_target(c) for c in level_choices(character, version=view.version, state=view.state)]
    d = view.derived
    targets.append(
        RollTarget(
            "def:dodge",
            "Esquiva (com PD)",
            "defence",
            d.dodge_total,
            chance_percent(d.dodge_total, GURPS3E),
        )
    )
    if d.block_total is not None:
        targets.append(
            RollTarget(
                "def:block",
                "Bloquear (com PD)",
                "defence",
                d.block_total,
                chance_percent(d.block_total, GURPS3E),
            )
        )
    for index, parry in enumerate(d.parries_total):
        targets.append(
            RollTarget(
                f"def:parry:{index}",
                f"Aparar — {parry.name} (com PD)",
                "defence",
                parry.value,
                chance_percent(parry.value, GURPS3E),
            )
        )
    return targets


def roll_target(character: Character, key: str) -> RollTarget:
    for target in roll_targets(character):
        if target.key == key:
            return target
    raise ServiceError(UNKNOWN_TARGET, field="target")
