"""The Xuleta sheet's derived numbers (``xuleta.sheet``): each with its formula and section, on
top of ``xuleta.derived`` and ``xuleta.proficiency``; and the Árbitro's checks (``audit``)."""

from __future__ import annotations

import copy

from hypothesis import given
from hypothesis import strategies as st

from rulesets.xuleta5e.sheets import SHEETS
from tests.xuleta.test_sheet_data import AINA
from xuleta import sheet
from xuleta.abilities import ABILITIES, SKILLS
from xuleta.readings import all_readings

scores = st.integers(min_value=1, max_value=30)
levels = st.integers(min_value=1, max_value=20)
ability_sets = st.fixed_dictionaries({a: scores for a in ABILITIES})


def mod(score: int) -> int:
    return (score - 10) // 2  # «(puntuació − 10) ÷ 2, arrodonint cap avall»


def prof(level: int) -> int:
    return 2 + (level - 1) // 4  # the table: 1–4 +2 … 17–20 +6


def numbers(data=AINA, state=None):
    return sheet.sheet_numbers(SHEETS.validate(data), SHEETS.validate_state(state))


def audit(data) -> list[tuple[str, str]]:
    return [(c.field, c.message) for c in SHEETS.audit(data)]


# --- attacks ------------------------------------------------------------------------------------


@given(ability_sets, levels, st.booleans(), st.booleans(), st.booleans())
def test_attack_to_hit_and_damage(abilities, level, ranged, finesse, proficient):
    # «d20 + modificador + bonificació per competència (si ets competent amb l'arma)»; «Cos a cos
    # fa servir Força; a distància, Destresa. Les armes subtils et deixen triar Força o Destresa.»
    attack = {
        "name": "Arma",
        "damage": "1d8",
        "damage_type": "slashing",
        "ranged": ranged,
        "finesse": finesse,
        "proficient": proficient,
    }
    found = sheet.attack_numbers(abilities, level, attack)
    if finesse:
        expected = max(mod(abilities["str"]), mod(abilities["dex"]))
    else:
        expected = mod(abilities["dex" if ranged else "str"])
    assert mod(abilities[found["ability"]]) == expected
    assert found["bonus"].value == expected + (prof(level) if proficient else 0)
    # «hi sumes el mateix modificador que has fet servir per atacar»
    assert found["damage_modifier"] == expected
    assert found["bonus"].section == "§4.2 Tirada d'atac"
    assert found["damage"].section == "§5.1 Tirades de dany"


def test_the_texts_attack_lines(quote):
    quote("Cos a cos fa servir Força; a distància, Destresa.")
    quote("Les armes subtils et deixen triar Força o Destresa.")
    quote(
        "Si encertes, tires els daus de dany de l'arma o de l'encanteri i hi sumes el mateix modificador que has fet servir per atacar."
    )
    quote("El dany mai no baixa de 0 per un modificador negatiu.")
    weak = {**AINA, "abilities": {**AINA["abilities"], "str": 8}}
    sword = numbers(weak).attacks[0]
    assert sword["bonus"].value == -1 + 2
    assert sword["bonus"].formula == "mod. de Força −1 (cos a cos: Força) + competència +2 = +1"
    assert sword["damage"].value == "1d8−1"
    assert "el mateix modificador que has fet servir per atacar" in sword["damage"].formula
    assert "mai no baixa de 0" in sword["damage"].formula
    assert "tallant" in sword["damage"].formula


def test_not_proficient_adds_no_bonus():
    data = copy.deepcopy(AINA)
    data["attacks"][0]["proficient"] = False
    sword = numbers(data).attacks[0]
    assert sword["bonus"].value == 2
    assert "competència" not in sword["bonus"].formula


# --- spellcasting -------------------------------------------------------------------------------


@given(
    ability_sets,
    levels,
    st.sampled_from(
        ["mag", "clergue", "druida", "explorador", "bard", "bruixot", "fetiller", "paladí"]
    ),
)
def test_spell_save_dc_and_attack(abilities, level, casting_class):
    ability = {
        "mag": "int",
        "bard": "cha",
        "bruixot": "cha",
        "fetiller": "cha",
        "paladí": "cha",
    }.get(casting_class, "wis")
    found = sheet.spellcasting_numbers(abilities, level, {"class": casting_class, "slots": {}})
    assert found["ability"] == ability
    assert found["save_dc"].value == 8 + prof(level) + mod(abilities[ability])
    assert found["attack_bonus"].value == prof(level) + mod(abilities[ability])
    assert found["save_dc"].section == "§7.7 CD i atac d'encanteri"


def test_the_casting_ability_by_class(quote):
    quote(
        "La teva característica de llançament depèn de la classe: Intel·ligència (mag), Saviesa (clergue, druida, explorador) o Carisma (bard, bruixot, fetiller, paladí)."
    )
    data = {**AINA, "spellcasting": {"class": "bard", "slots": {"1": 3, "2": 1}}}
    found = numbers(data, {"slots_spent": {"1": 1}})
    assert found.numbers["spell_save_dc"].formula == "8 + competència +2 + mod. de Carisma +0 = 10"
    assert found.numbers["slots.1"].value == 2
    assert found.numbers["slots.2"].value == 1
    assert found.numbers["slots.1"].section == "§7.1 Espais d'encanteri"


def test_no_spellcasting_no_spell_numbers():
    found = numbers()
    assert "spell_save_dc" not in found.numbers
    assert sheet.spellcasting_numbers(AINA["abilities"], 3, None) is None


# --- passive Perception, speed, maximum PC ------------------------------------------------------


@given(ability_sets, levels, st.booleans(), st.sampled_from([[], ["poisoned"]]))
def test_passive_perception(abilities, level, proficient, conditions):
    # «No es tira: és 10 + tots els teus modificadors.» «Amb desavantatge, resta'n 5.»
    data = {**AINA, "abilities": abilities, "level": level}
    data["proficiencies"] = {"skills": ["Percepció"] if proficient else [], "saves": []}
    found = numbers(data, {"conditions": conditions}).numbers["passive_perception"]
    bonus = mod(abilities["wis"]) + (prof(level) if proficient else 0)
    assert found.value == 10 + bonus - (5 if conditions else 0)
    assert found.section == "§4.8 Proves passives"


def test_passive_perception_quotes(quote):
    quote("No es tira: és 10 + tots els teus modificadors.")
    quote("Amb avantatge, suma'n 5. Amb desavantatge, resta'n 5.")
    found = numbers(AINA, {"exhaustion": 1}).numbers["passive_perception"]
    assert found.value == 13 - 5
    assert found.formula == "10 + Percepció +3 − 5 (desavantatge) = 8"


def test_speed_under_exhaustion_and_conditions(quote):
    quote("Et pots moure fins a la teva velocitat (gairebé sempre 9 m, 6 caselles d'1,5 m).")
    quote("La teva velocitat és 0 i res no la pot pujar.")
    assert numbers().numbers["speed"].value == 9
    assert numbers().numbers["speed"].section == "§2.3 Moviment"
    half = numbers(AINA, {"exhaustion": 2}).numbers["speed"]
    assert half.value == 4.5
    assert half.formula == "9 m → 4,5 m (esgotament 2: Velocitat a la meitat)"
    assert half.section == "§1.16 Nivells d'esgotament"
    assert numbers(AINA, {"exhaustion": 5}).numbers["speed"].value == 0
    held = numbers(AINA, {"conditions": ["grappled"]}).numbers["speed"]
    assert held.value == 0
    assert held.formula == "9 m → 0 m (Agafat: velocitat 0)"
    assert held.section == "§1.6 Agafat"


@given(st.integers(min_value=1, max_value=999), st.integers(min_value=0, max_value=6))
def test_max_hp_under_exhaustion(base, exhaustion):
    # «4 Punts de cop màxims a la meitat» (rounded down: reading exhaustion_max_hp_rounding)
    data = {**AINA, "max_hp": base}
    found = numbers(data, {"exhaustion": exhaustion}).numbers["max_hp"]
    assert found.value == (base // 2 if exhaustion >= 4 else base)


def test_max_hp_quote_and_formula(quote):
    quote("4	Punts de cop màxims a la meitat")
    found = numbers(AINA, {"exhaustion": 4, "hp_lost": 3})
    assert found.numbers["max_hp"].formula == (
        "28 PC màxims de la fitxa ÷ 2 (esgotament 4: punts de cop màxims a la meitat) = 14"
    )
    # 25 of 28 before exhaustion, never above the halved maximum.
    assert found.numbers["hp"].value == 14
    assert found.numbers["hp"].formula == "28 − 3 perduts = 25, mai per sobre del màxim (14) = 14"
    assert "exhaustion_max_hp_rounding" in found.readings


def test_every_number_has_a_formula_and_a_section():
    found = numbers({**AINA, "spellcasting": {"class": "mag", "slots": {"1": 2}}})
    assert all(n.formula and n.section.startswith("§") for n in found.numbers.values())
    assert {f"skills.{s}" for s in SKILLS} <= set(found.numbers)
    assert {f"saves.{a}" for a in ABILITIES} <= set(found.numbers)
    assert found.numbers["hit_dice"].formula == "3d10 (un per nivell) − 0 gastats = 3"
    plain = found.as_dict()
    assert plain["numbers"]["ac"] == {
        "value": 16,
        "formula": "CA de la fitxa (llegida: sheet_ac_input)",
        "section": "§4.2 Tirada d'atac",
    }


def test_conditions_and_edges_from_the_state():
    found = numbers(AINA, {"conditions": ["unconscious"], "exhaustion": 3})
    assert found.conditions == ("incapacitated", "prone", "unconscious")
    assert found.auto_fail == ("str", "dex")
    assert found.edges["attack"] == "disadvantage"
    assert found.attacked_edge == "advantage"
    assert found.exhaustion_effects[-1] == "Desavantatge en tirades d'atac i salvacions"


def test_the_sheets_readings_are_published():
    keys = {r.key for r in all_readings()}
    assert {r.key for r in sheet.READINGS} <= keys
    assert all(r.section for r in sheet.READINGS)


# --- the Árbitro's checks -----------------------------------------------------------------------


def test_a_sheet_that_adds_up_has_no_findings():
    assert audit(AINA) == []


def test_audit_lists_every_refusal_not_only_the_first():
    bad = {
        **AINA,
        "abilities": {**AINA["abilities"], "str": 31, "dex": 0},
        "proficiencies": {"skills": ["Voar"], "saves": []},
        "spellcasting": {"class": "guerrer", "slots": {"10": 1}},
    }
    fields = [field for field, _ in audit(bad)]
    assert fields == [
        "abilities.str",
        "abilities.dex",
        "proficiencies.skills.0",
        "spellcasting.class",
        "spellcasting.slots",
    ]


def test_audit_finesse_ranged_and_ranges():
    data = copy.deepcopy(AINA)
    data["attacks"][1]["finesse"] = True
    data["attacks"][0]["range_m"] = [6, 18]
    data["attacks"].append(
        {"name": "Javelina", "damage": "1d6", "damage_type": "piercing", "thrown": True}
    )
    found = audit(data)
    assert [f for f, _ in found] == ["attacks.0.range_m", "attacks.1.finesse", "attacks.3.range_m"]
    # A range whose normal passes its long is not a sheet at all: the data model refuses it,
    # and the audit lists that refusal alone.
    data["attacks"][1]["range_m"] = [100, 20]
    assert [f for f, _ in audit(data)] == ["attacks.1.range_m"]


def test_audit_max_hp_against_the_hit_dice():
    # 3 daus d10 with CON +2: from 3 × (1 + 2) = 9 to 3 × (10 + 2) = 36.
    assert audit({**AINA, "max_hp": 36}) == []
    assert audit({**AINA, "max_hp": 9}) == []
    ((field, message),) = audit({**AINA, "max_hp": 37})
    assert field == "max_hp" and "de 9 a 36" in message


def test_audit_speed_darkvision_and_slots(quote):
    quote(
        "Dins del seu abast (normalment 18 m) hi veus amb llum tènue com si fos brillant, i a les fosques com si fos tènue."
    )
    data = {
        **AINA,
        "speed_m": 10,
        "darkvision_m": 36,
        "spellcasting": {"class": "mag", "slots": {"2": 1}, "spells": ["Boira"]},
        "resistances": ["fire"],
        "immunities": ["fire"],
    }
    assert [f for f, _ in audit(data)] == [
        "speed_m",
        "speed_m",
        "darkvision_m",
        "spellcasting.slots.2",
        "immunities",
    ]
    no_slots = {**AINA, "spellcasting": {"class": "mag", "spells": ["Escut"]}}
    assert [f for f, _ in audit(no_slots)] == ["spellcasting.slots"]
