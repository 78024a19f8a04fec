"""The Xuleta sheet's data model and state model (``rulesets.xuleta5e.sheets``): inputs only,
refusals that name the field and the allowed values, the contract's ``check_data``, the
state's defaults, the Mestre's PC change outside a fight, and the diff between versions."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.base import RulesetError
from rulesets.xuleta5e.sheets import SHEETS, SheetData, StateData
from xuleta.abilities import ABILITIES, SKILLS

AINA = {
    "name": "Aina",
    "level": 3,
    "abilities": {"str": 15, "dex": 12, "con": 14, "int": 8, "wis": 13, "cha": 10},
    "proficiencies": {"skills": ["Percepció", "Atletisme"], "saves": ["str", "con"]},
    "ac": 16,
    "max_hp": 28,
    "hit_die": 10,
    "attacks": [
        {"name": "Espasa llarga", "damage": "1d8", "damage_type": "slashing"},
        {
            "name": "Arc curt",
            "damage": "1d6",
            "damage_type": "piercing",
            "ranged": True,
            "range_m": [24, 96],
        },
        {
            "name": "Daga",
            "damage": "1d4",
            "damage_type": "perforant",
            "finesse": True,
            "light": True,
            "thrown": True,
            "range_m": [6, 18],
        },
    ],
}

CONTRACT_KEYS = {
    "name",
    "level",
    "abilities",
    "modifiers",
    "proficiency_bonus",
    "checks",
    "skills",
    "saves",
    "passive_perception",
    "ac",
    "max_hp",
    "hit_die",
    "hit_dice",
    "speed_m",
    "darkvision_m",
    "attacks",
    "spellcasting",
    "resistances",
    "vulnerabilities",
    "immunities",
    "state",
}
STATE_KEYS = {
    "hp_lost",
    "temp_hp",
    "exhaustion",
    "conditions",
    "hit_dice_spent",
    "slots_spent",
    "death_saves",
    "stable",
    "dead",
    "concentration",
    "last_long_rest",
    "ate_and_drank",
}


def aina(**changes):
    data = copy.deepcopy(AINA)
    data.update(changes)
    return data


def refusal(data) -> RulesetError:
    with pytest.raises(RulesetError) as caught:
        SHEETS.validate(data)
    return caught.value


# --- the data model -----------------------------------------------------------------------------


def test_the_part_has_pydantic_models():
    assert SHEETS.data_model is SheetData
    assert SHEETS.state_model is StateData


def test_validate_gives_plain_json_with_the_defaults_and_the_texts_spellings():
    data = SHEETS.validate(
        aina(proficiencies={"skills": ["percepció", " Tracte  amb animals"], "saves": ["Força"]})
    )
    assert data["proficiencies"] == {
        "skills": ["Percepció", "Tracte amb animals"],
        "saves": ["str"],
    }
    assert data["speed_m"] == 9.0  # «gairebé sempre 9 m»
    assert data["darkvision_m"] == 0.0
    assert data["spellcasting"] is None
    assert data["attacks"][2]["damage_type"] == "piercing"  # the label «perforant» gives its key
    assert data["attacks"][0]["reach_m"] == 1.5
    assert data["attacks"][0]["proficient"] is True
    assert SHEETS.validate(data) == data  # a stored version reads back the same


def test_no_derived_number_is_an_input():
    for derived in ("modifiers", "proficiency_bonus", "skills", "saves", "passive_perception"):
        error = refusal(aina(**{derived: 1}))
        assert error.field == derived
        assert "campo desconhecido" in error.message and "abilities" in error.message


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"abilities": {**AINA["abilities"], "str": 31}}, "abilities.str", "de 1 a 30"),
        ({"abilities": {**AINA["abilities"], "cha": 0}}, "abilities.cha", "Carisma vai de 1 a 30"),
        ({"abilities": {"str": 10}}, "abilities.dex", "falta"),
        ({"level": 21}, "level", "de 1 a 20"),
        ({"hit_die": 7}, "hit_die", "d6, d8, d10, d12"),
        ({"proficiencies": {"skills": ["Voar"]}}, "proficiencies.skills.0", "Acrobàcies"),
        ({"proficiencies": {"saves": ["luck"]}}, "proficiencies.saves.0", "str (Força)"),
        ({"resistances": ["aire"]}, "resistances.0", "fire (foc)"),
        ({"spellcasting": {"class": "guerrer"}}, "spellcasting.class", "mag, clergue"),
        (
            {"spellcasting": {"class": "mag", "slots": {"10": 1}}},
            "spellcasting.slots",
            "1 a 9",
        ),
        (
            {"attacks": [{"name": "Arc", "damage": "d6", "damage_type": "piercing"}]},
            "attacks.0.damage",
            "NdM",
        ),
        (
            {"attacks": [{"name": "Arc", "damage": "1d6", "damage_type": "arrow"}]},
            "attacks.0.damage_type",
            "piercing (perforant)",
        ),
    ],
)
def test_a_refusal_names_the_field_and_the_allowed_values(change, field, words):
    error = refusal(aina(**change))
    assert error.field == field
    assert words in error.message
    assert error.message.startswith(f"Ficha inválida em «{field}»")


def test_the_spellcasting_class_is_the_texts_and_dumps_as_class():
    data = SHEETS.validate(
        aina(spellcasting={"class": "Clergue", "slots": {"2": 2, "1": 4}, "cantrips": ["Llum"]})
    )
    assert data["spellcasting"] == {
        "class": "clergue",
        "slots": {"1": 4, "2": 2},
        "cantrips": ["Llum"],
        "spells": [],
    }


def test_two_of_the_same_count_once(quote):
    quote("Si en tens dos d'iguals, compten com un de sol.")
    state = SHEETS.validate_state({"conditions": ["prone", "Tombat", "blinded", "exhaustion"]})
    # The text's order, each once; Esgotament's level is apart (``exhaustion``).
    assert state["conditions"] == ["blinded", "prone"]
    data = SHEETS.validate(aina(resistances=["fire", "foc"]))
    assert data["resistances"] == ["fire"]


# --- the state ----------------------------------------------------------------------------------


def test_every_state_key_has_a_default():
    state = StateData.model_validate({}).model_dump(mode="json")
    assert set(state) == STATE_KEYS
    assert state == {
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


@pytest.mark.parametrize(
    ("state", "field", "words"),
    [
        ({"exhaustion": 7}, "exhaustion", "de 0 a 6"),
        ({"hp_lost": -1}, "hp_lost", "pelo menos 0"),
        ({"death_saves": {"failures": 4}}, "death_saves.failures", "de 0 a 3"),
        ({"conditions": ["dazed"]}, "conditions", "prone (Tombat)"),
        ({"slots_spent": {"0": 1}}, "slots_spent", "1 a 9"),
        ({"fatigue_lost": 1}, "fatigue_lost", "campo desconhecido"),
    ],
)
def test_a_bad_state_is_refused_naming_the_field(state, field, words):
    with pytest.raises(RulesetError) as caught:
        SHEETS.validate_state(state)
    assert caught.value.field == field
    assert words in caught.value.message


# --- check_data: the contract -------------------------------------------------------------------


def test_check_data_has_the_contracts_shape():
    sheet = SHEETS.check_data(AINA, {})
    assert set(sheet) == CONTRACT_KEYS
    assert set(sheet["state"]) == STATE_KEYS
    assert list(sheet["abilities"]) == list(ABILITIES)
    assert sheet["modifiers"] == {"str": 2, "dex": 1, "con": 2, "int": -1, "wis": 1, "cha": 0}
    assert sheet["checks"] == sheet["modifiers"]
    assert list(sheet["skills"]) == list(SKILLS)  # all eighteen
    assert sheet["skills"]["Percepció"] == 3 and sheet["skills"]["Atletisme"] == 4
    assert sheet["saves"] == {"str": 4, "dex": 1, "con": 4, "int": -1, "wis": 1, "cha": 0}
    assert sheet["proficiency_bonus"] == 2
    assert sheet["passive_perception"] == 13
    assert (sheet["ac"], sheet["max_hp"], sheet["hit_die"], sheet["hit_dice"]) == (16, 28, 10, 3)
    assert (sheet["speed_m"], sheet["darkvision_m"]) == (9.0, 0.0)
    assert sheet["spellcasting"] is None
    sword, bow, dagger = sheet["attacks"]
    assert sword == {
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
    assert (bow["ability"], bow["bonus"], bow["damage_modifier"]) == ("dex", 3, 1)
    assert bow["range_m"] == [24.0, 96.0]
    # Finesse: the better of Força (+2) and Destresa (+1).
    assert (dagger["ability"], dagger["bonus"], dagger["thrown"]) == ("str", 4, True)


def test_check_data_spellcasting_follows_the_class(quote):
    quote(
        "CD de salvació = 8 + bonificació per competència + mod. de la teva característica de llançament."
    )
    quote(
        "Atac d'encanteri = bonificació per competència + mod. de la teva característica de llançament."
    )
    sheet = SHEETS.check_data(
        aina(spellcasting={"class": "clergue", "slots": {"1": 4, "2": 2}, "spells": ["Beneir"]}),
        {},
    )
    assert sheet["spellcasting"] == {
        "class": "clergue",
        "ability": "wis",
        "save_dc": 8 + 2 + 1,
        "attack_bonus": 2 + 1,
        "slots": {"1": 4, "2": 2},
        "cantrips": [],
        "spells": ["Beneir"],
    }


def test_check_data_carries_the_state():
    sheet = SHEETS.check_data(AINA, {"hp_lost": 5, "conditions": ["poisoned"], "exhaustion": 1})
    assert sheet["state"]["hp_lost"] == 5
    assert sheet["state"]["conditions"] == ["poisoned"]
    assert sheet["max_hp"] == 28  # before exhaustion
    assert sheet["skills"]["Percepció"] == 3  # the bonus; the edge is the roll's


# --- the Mestre's PC change outside a fight -----------------------------------------------------


def test_temporary_hp_go_first(quote):
    quote("Un matalàs de PC que es gasta abans que els de veritat.")
    sheet = SHEETS.check_data(AINA, {})
    state = SHEETS.state_change(sheet, {"temp_hp": 5}, -8, 0)
    assert (state["temp_hp"], state["hp_lost"]) == (0, 3)


def test_at_zero_the_rest_is_lost_and_one_falls_unconscious(quote):
    quote("El dany que sobra es perd: estàs a 0, no en negatiu.")
    quote("Quedes inconscient i comences a fer salvacions contra la mort.")
    sheet = SHEETS.check_data(AINA, {})
    state = SHEETS.state_change(sheet, {"hp_lost": 20}, -10, 0)
    assert state["hp_lost"] == 28
    assert state["conditions"] == ["unconscious"]
    assert state["dead"] is False


def test_instant_death(quote):
    quote(
        "Si un cop et deixa a 0 PC i el dany que sobra és igual o més gran que el teu màxim de PC, mors a l'acte."
    )
    quote("Exemple: màxim de 12 PC, te'n queden 6 i en reps 18. Baixes a 0, en sobren 12: mors.")
    sheet = {**SHEETS.check_data(AINA, {}), "max_hp": 12}
    assert SHEETS.state_change(sheet, {"hp_lost": 6}, -18, 0)["dead"] is True
    assert SHEETS.state_change(sheet, {"hp_lost": 6}, -17, 0)["dead"] is False


def test_damage_at_zero_is_a_failed_death_save(quote):
    quote("Si et fan mal a 0 PC, sumes un fracàs (dos si és crític).")
    quote("Si et tornen a fer mal, deixes d'estar estable.")
    sheet = SHEETS.check_data(AINA, {})
    down = {"hp_lost": 28, "conditions": ["unconscious"], "stable": True}
    state = SHEETS.state_change(sheet, down, -1, 0)
    assert state["death_saves"]["failures"] == 1 and state["stable"] is False
    state = SHEETS.state_change(sheet, {**down, "death_saves": {"failures": 2}}, -1, 0)
    assert state["dead"] is True


def test_healing_wakes_and_resets_the_count_never_past_the_maximum(quote):
    quote("Si estàs a 0 PC, qualsevol curació et torna la consciència.")
    quote("Si et curen o t'estabilitzen, el comptador torna a zero.")
    sheet = SHEETS.check_data(AINA, {})
    down = {"hp_lost": 28, "conditions": ["unconscious"], "death_saves": {"failures": 2}}
    state = SHEETS.state_change(sheet, down, 3, 0)
    assert state["hp_lost"] == 25
    assert state["conditions"] == []
    assert state["death_saves"] == {"successes": 0, "failures": 0}
    assert SHEETS.state_change(sheet, {"hp_lost": 2}, 3, 0)["hp_lost"] == 0  # never past it


def test_exhaustion_4_caps_the_pc_without_losing_them(quote):
    quote("El dany els fa baixar i la curació els fa pujar, mai per sobre del teu màxim.")
    sheet = SHEETS.check_data(AINA, {})  # 28 PC
    tired = {"exhaustion": 4, "hp_lost": 3}  # 25 of 28, capped at 14
    assert SHEETS.derive(AINA, tired)["numbers"]["hp"]["value"] == 14
    state = SHEETS.state_change(sheet, tired, -4, 0)
    assert state["hp_lost"] == 28 - 10
    assert SHEETS.state_change(sheet, state, 20, 0)["hp_lost"] == 28 - 14  # up to 14 only


def test_the_dead_are_not_healed(quote):
    quote("Qui ha mort no es pot curar: cal màgia que el torni a la vida.")
    sheet = SHEETS.check_data(AINA, {})
    with pytest.raises(RulesetError):
        SHEETS.state_change(sheet, {"hp_lost": 28, "dead": True}, 1, 0)


def test_the_xuleta_has_no_fatigue():
    with pytest.raises(RulesetError) as caught:
        SHEETS.state_change(None, {}, 0, -1)
    assert caught.value.field == "fatigue"
    assert "esgotamento" in caught.value.message


# --- diff ---------------------------------------------------------------------------------------


def test_diff_one_portuguese_line_per_change():
    before = SHEETS.validate(AINA)
    after = SHEETS.validate(
        aina(
            level=4,
            abilities={**AINA["abilities"], "str": 16},
            proficiencies={"skills": ["Percepció", "Sigil"], "saves": ["str", "con"]},
            attacks=[
                {"name": "Espasa llarga", "damage": "1d10", "damage_type": "slashing"},
                {"name": "Javelina", "damage": "1d6", "damage_type": "piercing", "thrown": True},
            ],
            spellcasting={"class": "mag", "slots": {"1": 2}, "cantrips": ["Llum"]},
            resistances=["fire"],
        )
    )
    assert SHEETS.diff(before, after) == [
        "Nivell: 3 → 4",
        "Força: 15 → 16",
        "Atletisme (retirado): competent",
        "Sigil (novo): competent",
        "Espasa llarga: 1d8 tallant → 1d10 tallant",
        "Javelina (novo): 1d6 perforant, llancívola",
        "Arc curt (retirado): 1d6 perforant, a distància, abast 24 m/96 m",
        "Daga (retirado): 1d4 perforant, subtil, lleugera, llancívola, abast 6 m/18 m",
        "Classe (novo): mag",
        "Espais de nivell 1 (novo): 2",
        "Trucs (novo): Llum",
        "Resistència (novo): foc",
    ]
    assert SHEETS.changes(before, after)[0] == ("Fitxa", "Nivell", "3", "4")
    assert SHEETS.diff(before, before) == []


# --- bad input never breaks the model -----------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-50, 50)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
sheet_keys = st.sampled_from(
    [
        "name",
        "level",
        "abilities",
        "proficiencies",
        "ac",
        "max_hp",
        "hit_die",
        "speed_m",
        "darkvision_m",
        "attacks",
        "spellcasting",
        "resistances",
        "notes",
        "x",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(sheet_keys, json_values, max_size=8))
def test_any_json_is_refused_in_portuguese_or_taken(changes):
    data = {**copy.deepcopy(AINA), **changes}
    try:
        SHEETS.validate(data)
    except RulesetError as error:
        assert error.message.startswith("Ficha inválida em «")
    for check in SHEETS.audit(data):
        assert check.message


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(STATE_KEYS | {"x"})), json_values, max_size=5))
def test_any_state_is_refused_in_portuguese_or_taken(state):
    try:
        SHEETS.validate_state(state)
    except RulesetError as error:
        assert error.message.startswith("Estado inválido em «")
