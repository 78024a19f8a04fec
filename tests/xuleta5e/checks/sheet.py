"""A homologated Xuleta sheet as ``check_data`` gives it (the contract of issue 22), built by
hand from the engine until the sheets part lands: the issue's fighter at level 3."""

from __future__ import annotations

from xuleta.derived import derive

ABILITIES = {"str": 15, "dex": 12, "con": 14, "int": 8, "wis": 13, "cha": 10}


def state(**changes) -> dict:
    found = {
        "hp_lost": 0,
        "temp_hp": 0,
        "exhaustion": 0,
        "conditions": [],
        "hit_dice_spent": 0,
        "slots_spent": {},
        "death_saves": {"successes": 0, "failures": 0},
        "stable": False,
        "dead": False,
        "concentration": "",
        "last_long_rest": "",
        "ate_and_drank": False,
    }
    found.update(changes)
    return found


def check_data(name: str = "Aina", **state_changes) -> dict:
    numbers = derive(ABILITIES, 3, skills=["Percepció", "Atletisme"], saves=["str", "con"])
    return {
        "name": name,
        "level": 3,
        "abilities": dict(ABILITIES),
        "modifiers": numbers.modifiers,
        "proficiency_bonus": numbers.proficiency_bonus,
        "checks": dict(numbers.modifiers),
        "skills": numbers.skills,
        "saves": numbers.saves,
        "passive_perception": numbers.passive_perception,
        "ac": 16,
        "max_hp": 28,
        "hit_die": 10,
        "hit_dice": 3,
        "speed_m": 9,
        "darkvision_m": 0,
        "attacks": [
            {
                "name": "Espasa llarga",
                "ability": "str",
                "bonus": 4,
                "damage": "1d8",
                "damage_modifier": 2,
                "damage_type": "slashing",
                "ranged": False,
                "finesse": False,
                "light": False,
                "thrown": False,
                "reach_m": 1.5,
                "range_m": None,
            }
        ],
        "spellcasting": None,
        "resistances": [],
        "vulnerabilities": [],
        "immunities": [],
        "state": state(**state_changes),
    }
