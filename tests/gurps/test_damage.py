"""Damage (gurps.damage, canon §4.9, §4.13, §5.5 and §5f)."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps import damage as damage_module
from gurps.damage import (
    BASIC_DAMAGE_TABLE,
    DAMAGE_TYPE_NAMES,
    LOCATION_MULTIPLIERS,
    OBJECTS,
    OBJECTS_DEFEND,
    OVERPENETRATION_DECIDED,
    OVERPENETRATION_RULES,
    WEAPON_IN_HAND_TO_HIT,
    WOUND_MULTIPLIERS,
    DamageType,
    ObjectKind,
    WeaponDamage,
    basic_damage,
    injury,
    location_multiplier,
    object_row,
    overpenetration_cap,
    weapon_damage,
    weapon_in_hand_dr,
    wound,
)
from gurps.dice import DiceExpression, parse_dice
from gurps.errors import (
    BAD_DAMAGE,
    HT_TOO_LOW,
    MASTERWORK_DR_NOT_IN_CANON,
    NEGATIVE_DR,
    NOT_AN_INTEGER,
    ST_ABOVE_DAMAGE_TABLE,
    ST_TOO_LOW,
    UNKNOWN_DAMAGE_TYPE,
    UNKNOWN_HIT_LOCATION,
    UNKNOWN_OBJECT,
    WEAPON_IN_HAND_DR_NOT_IN_CANON,
    InvalidValue,
    OutsideCanon,
)
from gurps.injury import HitLocation
from gurps.readings import READINGS_BY_KEY
from tests.gurps.helpers import canon_cases, canon_section, canon_table

PROPERTY = settings(database=None, deadline=None)
CAPS_HEADING = "## 4.13 Os tetos de trespassar"
OBJECTS_HEADING = "# 5f. Atacar coisa que não se defende"


def test_the_damage_table_is_the_canons_table_row_by_row() -> None:
    rows = canon_table("### Dano básico por ST")
    assert len(rows) == len(BASIC_DAMAGE_TABLE)
    for (st_label, thrust, swing), row in zip(rows, BASIC_DAMAGE_TABLE, strict=True):
        assert st_label == row.st_label
        assert (parse_dice(thrust), parse_dice(swing)) == (row.thrust, row.swing), st_label
        assert (row.section, row.page) == ("4.9", "73–74")


def test_the_wound_multipliers_are_the_canons_table() -> None:
    words = {
        "Contusão": DamageType.CRUSHING,
        "Corte": DamageType.CUTTING,
        "Perfuração": DamageType.IMPALING,
    }
    read = {}
    for kind, rule in canon_table("### Da rolagem ao PV perdido"):
        damage_type = words[kind.split()[0]]
        if match := re.match(r"× (\d+)", rule):
            read[damage_type] = Fraction(int(match[1]))
        else:
            percent = int(re.match(r"\+(\d+)%, arredondando para baixo", rule)[1])
            read[damage_type] = 1 + Fraction(percent, 100)
    assert read == {row.damage_type: row.multiplier for row in WOUND_MULTIPLIERS}
    assert all((row.section, row.page) == ("4.9", "100") for row in WOUND_MULTIPLIERS)


@pytest.mark.parametrize("st", [1, 3, 4])
def test_st_4_or_less_does_no_basic_damage(st: int) -> None:
    row = basic_damage(st)
    assert (str(row.thrust), str(row.swing), row.st_label) == ("0", "0", "4 ou menos")


def test_st_above_20_is_outside_the_canon() -> None:
    with pytest.raises(OutsideCanon) as caught:
        basic_damage(21)
    assert (caught.value.rule, caught.value.message) == ("4.9", ST_ABOVE_DAMAGE_TABLE)


def test_st_0_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        basic_damage(0)
    assert (caught.value.field, caught.value.message) == ("st", ST_TOO_LOW)


def test_a_thrusting_spear_at_st_12_does_1d_impaling() -> None:
    assert weapon_damage("GDP+1 perf", 12) == WeaponDamage(
        "GDP+1 perf", "thrust", DiceExpression(1), DamageType.IMPALING
    )
    assert str(weapon_damage("GDP+1 perf", 12).expression) == "1d"


@pytest.mark.parametrize(
    ("written", "st", "attack", "expression", "damage_type"),
    [
        ("GDP perf", 12, "thrust", "1d-1", DamageType.IMPALING),
        ("Bal+2 corte", 12, "swing", "1d+4", DamageType.CUTTING),
        ("Bal cort", 13, "swing", "2d-1", DamageType.CUTTING),
        ("GDP-1 cont", 10, "thrust", "1d-3", DamageType.CRUSHING),
        ("gdp − 1 contusão", 10, "thrust", "1d-3", DamageType.CRUSHING),
        ("Balanço+1", 14, "swing", "2d+1", None),
        ("bal imp", 11, "swing", "1d+1", DamageType.IMPALING),
        ("1d+2 cont", 25, None, "1d+2", DamageType.CRUSHING),
        ("2d perf", 3, None, "2d", DamageType.IMPALING),
        ("1d−1 cut", 12, None, "1d-1", DamageType.CUTTING),
    ],
)
def test_it_reads_damage_as_a_sheet_writes_it(
    written: str, st: int, attack: str | None, expression: str, damage_type: DamageType | None
) -> None:
    result = weapon_damage(written, st)
    assert (result.written, result.attack, str(result.expression), result.damage_type) == (
        written,
        attack,
        expression,
        damage_type,
    )


def test_a_swing_or_thrust_above_st_20_is_outside_the_canon() -> None:
    with pytest.raises(OutsideCanon):
        weapon_damage("Bal+1 corte", 21)


@pytest.mark.parametrize(
    "written", ["", "perf", "GDP+ perf", "Golpe perf", "1d8 cont", "GDP+1 fogo"]
)
def test_it_refuses_unreadable_damage(written: str) -> None:
    with pytest.raises(InvalidValue) as caught:
        weapon_damage(written, 12)
    assert (caught.value.field, caught.value.message) == ("damage", BAD_DAMAGE)


@pytest.mark.parametrize(
    ("basic", "dr", "damage_type", "hp_lost"),
    [
        (7, 3, "imp", 8),
        (6, 3, "cut", 4),
        (5, 3, "cr", 2),
        (3, 3, "cr", 0),
        (-2, 0, "cr", 0),  # crushing may do 0
        (-2, 0, "cut", 1),  # cutting never below 1 basic
        (0, 0, "imp", 2),  # impaling never below 1 basic, then ×2
        (2, 5, "imp", 0),  # nothing passes the DR
    ],
)
def test_injury_subtracts_dr_then_multiplies_by_type(
    basic: int, dr: int, damage_type: str, hp_lost: int
) -> None:
    assert injury(basic, dr, damage_type) == hp_lost


def test_injury_refuses_negative_dr_and_unknown_types() -> None:
    with pytest.raises(InvalidValue) as caught:
        injury(5, -1, DamageType.CRUSHING)
    assert (caught.value.field, caught.value.message) == ("dr", NEGATIVE_DR)
    with pytest.raises(InvalidValue) as caught:
        injury(5, 0, "fire")
    assert (caught.value.field, caught.value.message) == ("damage_type", UNKNOWN_DAMAGE_TYPE)


def test_every_damage_type_has_a_portuguese_name() -> None:
    assert DAMAGE_TYPE_NAMES == {
        DamageType.CRUSHING: "contusão",
        DamageType.CUTTING: "corte",
        DamageType.IMPALING: "perfuração",
    }


def test_the_wound_multiplier_rows_keep_the_canons_words() -> None:
    rows = canon_table("### Da rolagem ao PV perdido")
    for (kind, rule), row in zip(rows, WOUND_MULTIPLIERS, strict=True):
        name = DAMAGE_TYPE_NAMES[row.damage_type].capitalize()
        assert kind == f"{name} ({row.examples})"
        assert rule == row.multiplier_words


# --- wound(): the canon's examples and the vitals (§4.9, §5.5) -----------------------------------


@pytest.mark.parametrize("case_id", ["lanca-vs-dr3", "gladio-vs-dr3"])
def test_the_hoplites_examples_lose_the_canons_hp(case_id: str) -> None:
    case = canon_cases()[case_id]
    given_ = case["given"]
    thrust = given_["type"] == "imp"  # the spear is thrust, the gládio swung
    result = wound(given_["basic"], given_["dr"], given_["type"], ht=12, thrust=thrust)
    assert result.hp_lost == case["expect"]["hp_lost"]
    assert (result.lost_to_cap, result.penetrating) == (0, given_["basic"] - given_["dr"])


def test_the_spear_example_reads_step_by_step() -> None:
    assert wound(7, 3, "imp", ht=12, thrust=True).steps == (
        "Dano rolado: 7",
        "RD 3: passam 4",
        "Perfuração × 2: 8",
        "Teto de trespassar (§4.13, HT 12): 12",
        "PV perdidos: 8",
    )
    assert wound(-2, 0, "cut", ht=10).steps == (
        "Dano rolado: −2",
        "Corte nunca faz menos de 1 de dano básico",
        "RD 0: passam 1",
        "Corte +50%, arredondando para baixo: 1",
        "PV perdidos: 1",
    )


def test_the_vitals_take_triple_damage_from_impaling() -> None:
    text = canon_section("## 5.5 Lesões incapacitantes").replace("**", "")
    assert "Órgãos vitais recebem dano triplo de perfurante." in text
    assert [(row.location, row.damage_type, row.multiplier) for row in LOCATION_MULTIPLIERS] == [
        (HitLocation.VITALS, DamageType.IMPALING, 3)
    ]
    vitals = wound(7, 3, "imp", location=HitLocation.VITALS, ht=12)
    assert (vitals.multiplier, vitals.hp_lost) == (3, 12)
    assert "vitals_triple_replaces_double" in vitals.readings
    assert "Perfuração em órgãos vitais × 3: 12" in vitals.steps
    # the other types keep their own multiplier in the vitals
    assert wound(7, 3, "cut", location="vitals", ht=12).hp_lost == 6
    assert wound(7, 3, "cr", location="vitals", ht=12).hp_lost == 4
    assert location_multiplier("vitals", "imp") == 3
    assert location_multiplier("torso", "imp") == 2


def test_wound_defaults_to_the_torso() -> None:
    assert wound(5, 0, "cr", ht=10).location is HitLocation.TORSO


# --- §4.13 the caps of overpenetration ----------------------------------------------------------

_MULTIPLES = {"da Vitalidade do alvo": 1, "do triplo da Vitalidade": 3}
_LOCATION_WORDS = {
    "tronco": {HitLocation.TORSO},
    "Cabeça ou órgãos vitais": {HitLocation.HEAD, HitLocation.VITALS},
    "Cérebro": {HitLocation.BRAIN},
}


def test_the_caps_table_is_read_as_the_canon_writes_it() -> None:
    text = canon_section(CAPS_HEADING).replace("**", "")
    assert "Decisão 29, aplicada em 13/09/2026." in text
    assert OVERPENETRATION_DECIDED == "13/09/2026"
    rows = canon_table(CAPS_HEADING)
    assert [(rule.where, rule.what_is_lost) for rule in OVERPENETRATION_RULES] == [
        tuple(row) for row in rows
    ]
    for rule in OVERPENETRATION_RULES:
        if found := re.fullmatch(r"dano acima (.+) é (?:perdido|desperdiçado)", rule.what_is_lost):
            assert rule.ht_multiple == _MULTIPLES[found[1]]
        elif rule.what_is_lost == "dobram os dois tetos":
            assert (rule.beam_multiplier, rule.locations) == (2, frozenset())
        else:
            assert rule.what_is_lost.startswith("não há teto")
            assert rule.ht_multiple is None
        if rule.locations:
            words = "tronco" if rule.where.endswith("no tronco") else rule.where
            assert rule.locations == _LOCATION_WORDS[words]
        assert rule.thrust_only == rule.where.startswith("Golpe de ponta")


@pytest.mark.parametrize(
    ("location", "thrust", "beam", "multiple"),
    [
        (HitLocation.TORSO, True, False, 1),
        (HitLocation.TORSO, False, False, None),  # a swing through the torso: no cap
        (HitLocation.TORSO, False, True, 2),  # reading overpenetration_rows_scope
        (HitLocation.TORSO, True, True, 2),
        (HitLocation.HEAD, False, False, 3),
        (HitLocation.VITALS, True, False, 3),
        (HitLocation.HEAD, False, True, 6),
        (HitLocation.VITALS, True, True, 6),
        (HitLocation.BRAIN, True, True, None),
        (HitLocation.EYES, True, False, None),
        (HitLocation.ARM, True, True, None),  # the limb's cap is gurps.injury's
        (HitLocation.FOOT, False, False, None),
    ],
)
def test_the_cap_of_each_location(
    location: HitLocation, thrust: bool, beam: bool, multiple: int | None
) -> None:
    expected = None if multiple is None else multiple * 7
    assert overpenetration_cap(location, 7, thrust=thrust, beam=beam) == expected


def test_a_thrust_to_the_torso_wastes_what_is_above_ht() -> None:
    result = wound(20, 0, "imp", ht=10, thrust=True)
    assert (result.multiplied, result.cap, result.hp_lost, result.lost_to_cap) == (40, 10, 10, 30)
    assert "overpenetration_cap_on_hp_lost" in result.readings
    swung = wound(20, 0, "cut", ht=10)
    assert (swung.cap, swung.hp_lost, swung.lost_to_cap) == (None, 30, 0)


def test_the_brain_has_no_cap_and_a_beam_doubles_the_head_cap() -> None:
    assert wound(40, 0, "imp", location="brain", ht=10, thrust=True).hp_lost == 80
    assert wound(40, 0, "cr", location="head", ht=5).hp_lost == 15
    assert wound(40, 0, "cr", location="head", ht=5, beam=True).hp_lost == 30


locations = st.sampled_from(list(HitLocation))
types = st.sampled_from(list(DamageType))


def _expected_cap(location: HitLocation, ht: int, thrust: bool, beam: bool) -> int | None:
    """The cap as the canon's table says it, from the rows' words."""
    for row in canon_table(CAPS_HEADING):
        where, lost = row
        if where.startswith("Feixe") or location not in _LOCATION_WORDS.get(
            "tronco" if where.endswith("no tronco") else where, set()
        ):
            continue
        found = re.fullmatch(r"dano acima (.+) é (?:perdido|desperdiçado)", lost)
        if found is None:
            return None
        if where.startswith("Golpe de ponta") and not (thrust or beam):
            return None
        return _MULTIPLES[found[1]] * ht * (2 if beam else 1)
    return None


@PROPERTY
@given(
    st.integers(min_value=-20, max_value=200),
    st.integers(min_value=0, max_value=40),
    types,
    locations,
    st.integers(min_value=1, max_value=25),
    st.booleans(),
    st.booleans(),
)
def test_hp_lost_is_never_negative_nor_above_the_cap(
    basic: int, dr: int, kind: DamageType, location: HitLocation, ht: int, thrust: bool, beam: bool
) -> None:
    result = wound(basic, dr, kind, location=location, ht=ht, thrust=thrust, beam=beam)
    cap = _expected_cap(location, ht, thrust, beam)
    assert result.cap == cap
    assert result.hp_lost >= 0 and result.lost_to_cap >= 0
    if cap is not None:
        assert result.hp_lost <= cap
    assert result.hp_lost + result.lost_to_cap == result.multiplied
    assert set(result.readings) <= READINGS_BY_KEY.keys()


@PROPERTY
@given(
    st.integers(min_value=-20, max_value=200),
    st.integers(min_value=0, max_value=40),
    types,
    st.integers(min_value=1, max_value=25),
)
def test_a_swing_to_the_torso_loses_what_injury_says(
    basic: int, dr: int, kind: DamageType, ht: int
) -> None:
    assert wound(basic, dr, kind, ht=ht).hp_lost == injury(basic, dr, kind)


@PROPERTY
@given(st.integers(min_value=-50, max_value=200), st.integers(min_value=0, max_value=60), types)
def test_damage_is_never_negative(basic: int, dr: int, kind: DamageType) -> None:
    assert injury(basic, dr, kind) >= 0


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"location": "tail"}, "location", UNKNOWN_HIT_LOCATION),
        ({"ht": 0}, "ht", HT_TOO_LOW),
        ({"dr": -1}, "dr", NEGATIVE_DR),
        ({"basic": 2.5}, "basic", NOT_AN_INTEGER),
        ({"damage_type": "fire"}, "damage_type", UNKNOWN_DAMAGE_TYPE),
    ],
)
def test_wound_refuses_bad_input(kwargs: dict, field: str, message: str) -> None:
    arguments = {"basic": 5, "dr": 0, "damage_type": "cut", "ht": 10} | kwargs
    basic, dr, kind = arguments.pop("basic"), arguments.pop("dr"), arguments.pop("damage_type")
    with pytest.raises(InvalidValue) as caught:
        wound(basic, dr, kind, **arguments)
    assert (caught.value.field, caught.value.message) == (field, message)


# --- §5f things that do not defend themselves ----------------------------------------------------


def _hp_range(cell: str) -> tuple[int, int | None]:
    if cell.endswith("+"):
        return int(cell[:-1]), None
    low, _, high = cell.partition(" a ")
    return int(low), int(high or low)


def test_the_objects_are_the_canons_table() -> None:
    rows = canon_table(OBJECTS_HEADING)
    assert len(rows) == len(OBJECTS)
    for (name, dr, hp), row in zip(rows, OBJECTS, strict=True):
        assert (row.name, row.dr, (row.hp_min, row.hp_max)) == (name, int(dr), _hp_range(hp))
        assert row.hp_words == hp and row.section == "5f"
    assert object_row("stone_wall").hp_words == "50+"
    assert object_row(ObjectKind.ROPE).hp_words == "1 a 3"


def test_an_unknown_object_is_refused() -> None:
    with pytest.raises(InvalidValue) as caught:
        object_row("boulder")
    assert (caught.value.field, caught.value.message) == ("object", UNKNOWN_OBJECT)


def test_objects_do_not_dodge_and_a_weapon_in_hand_is_hit_at_minus_5() -> None:
    text = " ".join(canon_section(OBJECTS_HEADING).replace("**", "").split())
    assert "Objeto não esquiva: acerta-se sem rolagem de defesa" in text
    assert OBJECTS_DEFEND is False
    found = re.search(
        r"para quebrá-la é preciso mirá-la, a (−\d+), e ela tem a RD da própria", text
    )
    assert int(found[1].replace("−", "-")) == WEAPON_IN_HAND_TO_HIT
    assert "Arma de obra-prima praticamente não quebra." in text


@pytest.mark.parametrize(
    ("masterwork", "message"),
    [(False, WEAPON_IN_HAND_DR_NOT_IN_CANON), (True, MASTERWORK_DR_NOT_IN_CANON)],
)
def test_the_dr_of_a_weapon_in_hand_is_not_in_the_canon(masterwork: bool, message: str) -> None:
    with pytest.raises(OutsideCanon) as caught:
        weapon_in_hand_dr(masterwork=masterwork)
    assert (caught.value.rule, caught.value.message) == ("5f", message)


# --- the readings, the tables, the import order -------------------------------------------------


def test_every_reading_the_module_names_exists() -> None:
    named = set(re.findall(r"reading\s+``(\w+)``", inspect.getsource(damage_module)))
    assert named >= {
        "vitals_triple_replaces_double",
        "overpenetration_cap_on_hp_lost",
        "golpe_de_ponta_is_gdp",
        "overpenetration_rows_scope",
    }
    assert named <= READINGS_BY_KEY.keys()


def test_the_damage_tables_are_shown() -> None:
    keys = {table.key for table in damage_module.CANON_TABLES}
    assert keys == {
        "basic_damage",
        "wound_multipliers",
        "overpenetration_caps",
        "objects",
        "weapon_in_hand",
    }


@pytest.mark.parametrize(
    "modules", ["gurps.damage, gurps.injury", "gurps.injury, gurps.damage", "gurps.house"]
)
def test_damage_and_injury_import_in_either_order(modules: str) -> None:
    code = (
        f"import {modules}; from gurps.damage import wound; "
        "assert wound(9, 0, 'cut', location='head', ht=2).hp_lost == 6"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
