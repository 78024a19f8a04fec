"""What the Mestre may roll for a character: the lines of its homologated sheet (attributes,
skills, defences), each with the level the sheet gives it.
"""

from __future__ import annotations

from dataclasses import dataclass

from garganta_site.errors import ServiceError
from sheets.models import Character
from sheets.services import sheet_view

# --- what the Mestre can roll against, from the homologated sheet ----------------------------

UNKNOWN_TARGET = "Esta personagem não tem essa perícia, atributo ou defesa na ficha homologada."


@dataclass(frozen=True)
class RollTarget:
    key: str
    label: str
    kind: str
    level: int


ATTRIBUTE_LABELS = {"st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT"}


def roll_targets(character: Character) -> list[RollTarget]:
    """The attributes, skills and defences (with PD) of a character's homologated sheet."""
    view = sheet_view(character)
    if view is None:
        return []
    targets = [
        RollTarget(f"attr:{key}", label, "attribute", getattr(view.version, key))
        for key, label in ATTRIBUTE_LABELS.items()
    ]
    targets += [
        RollTarget(f"skill:{line.skill.pk}", line.skill.name, "skill", line.skill.level)
        for line in view.skills
    ]
    d = view.derived
    targets.append(RollTarget("def:dodge", "Esquiva (com PD)", "defence", d.dodge_total))
    if d.block_total is not None:
        targets.append(RollTarget("def:block", "Bloquear (com PD)", "defence", d.block_total))
    for index, parry in enumerate(d.parries_total):
        targets.append(
            RollTarget(
                f"def:parry:{index}", f"Aparar — {parry.name} (com PD)", "defence", parry.value
            )
        )
    return targets


def roll_target(character: Character, key: str) -> RollTarget:
    for target in roll_targets(character):
        if target.key == key:
            return target
    raise ServiceError(UNKNOWN_TARGET, field="target")
