"""§6 Descansar: the short rest's hit dice and the long rest, each line quoted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xuleta import rest
from xuleta.errors import XuletaError
from xuleta.readings import all_readings


class Dice:
    """A source that hands out the faces given, in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        return self.faces.pop(0)


def sheet(level: int = 4, hit_die: int = 10, con: int = 2, max_hp: int = 38) -> dict:
    return {
        "level": level,
        "hit_dice": level,
        "hit_die": hit_die,
        "max_hp": max_hp,
        "modifiers": {"str": 0, "dex": 0, "con": con, "int": 0, "wis": 0, "cha": 0},
    }


def state(**kw) -> dict:
    base = {
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
    base.update(kw)
    return base


def test_short_rest_spends_one_hit_die_plus_con(quote):
    quote(
        "Pots gastar daus de cop: tira cadascun, suma el teu mod. de Constitució i recuperes "
        "aquests PC."
    )
    quote("Els pots gastar d'un en un i decidir després de cada tirada.")
    source = Dice(7)
    before = state(hp_lost=20)
    after, roll = rest.spend_hit_die(source, sheet(hit_die=10, con=2), before)
    assert source.asked == [(1, 10)]
    assert (roll.face, roll.modifier, roll.total, roll.healed) == (7, 2, 9, 9)
    assert after["hp_lost"] == 11 and after["hit_dice_spent"] == 1
    assert before["hp_lost"] == 20  # the state given is never changed


def test_short_rest_never_above_the_maximum(quote):
    quote("El dany els fa baixar i la curació els fa pujar, mai per sobre del teu màxim.")
    after, roll = rest.spend_hit_die(Dice(10), sheet(con=3), state(hp_lost=4))
    assert roll.total == 13 and roll.healed == 4 and after["hp_lost"] == 0


def test_hit_die_minimum_is_a_reading():
    after, roll = rest.spend_hit_die(Dice(1), sheet(hit_die=6, con=-2), state(hp_lost=5))
    assert roll.total == rest.HIT_DIE_MINIMUM == 0 and after["hp_lost"] == 5
    assert after["hit_dice_spent"] == 1
    keys = {r.key for r in all_readings()}
    assert {"short_rest_hit_die_minimum", "long_rest_half_rounding"} <= keys


def test_no_hit_die_left_is_refused():
    with pytest.raises(XuletaError) as refused:
        rest.spend_hit_die(Dice(3), sheet(level=2), state(hit_dice_spent=2, hp_lost=3))
    assert refused.value.field == "hit_dice"


def test_healing_at_zero_wakes_and_resets_death_saves(quote):
    quote("Si estàs a 0 PC, qualsevol curació et torna la consciència.")
    quote("Si et curen o t'estabilitzen, el comptador torna a zero.")
    down = state(
        hp_lost=38, conditions=["unconscious"], death_saves={"successes": 1, "failures": 2}
    )
    after, roll = rest.spend_hit_die(Dice(2), sheet(), down)
    assert roll.woke and after["conditions"] == [] and after["hp_lost"] == 34
    assert after["death_saves"] == {"successes": 0, "failures": 0}


def test_the_dead_are_not_healed(quote):
    quote("Qui ha mort no es pot curar: cal màgia que el torni a la vida.")
    with pytest.raises(XuletaError):
        rest.spend_hit_die(Dice(3), sheet(), state(dead=True, hp_lost=38))
    with pytest.raises(XuletaError):
        rest.long_rest(sheet(), state(dead=True), ends_at=600)


def test_long_rest_every_line(quote):
    quote("Recuperes tots els PC.")
    quote("Recuperes daus de cop gastats fins a la meitat del teu total (almenys 1).")
    quote("Recuperes els espais d'encanteri.")
    quote("Se'n van en acabar un descans llarg, si no diuen el contrari.")
    quote("En acabar un descans llarg baixes un nivell, si has menjat i begut.")
    before = state(
        hp_lost=30,
        hit_dice_spent=4,
        slots_spent={"1": 2, "2": 1},
        temp_hp=5,
        exhaustion=2,
        ate_and_drank=True,
    )
    after, done = rest.long_rest(sheet(level=5), before, ends_at=8 * 60)
    assert done.completed
    assert after["hp_lost"] == 0 and done.healed == 30
    assert after["hit_dice_spent"] == 2 and done.hit_dice_regained == 2  # 5 // 2
    assert after["slots_spent"] == {} and done.slots_regained == 3
    assert after["temp_hp"] == 0 and done.temp_hp_lost == 5
    assert after["exhaustion"] == 1 and done.exhaustion == (2, 1)
    assert after["last_long_rest"] == "480" and after["ate_and_drank"] is False


def test_long_rest_without_food_keeps_exhaustion():
    after, done = rest.long_rest(sheet(), state(exhaustion=3), ends_at=480)
    assert after["exhaustion"] == 3 and done.exhaustion == (3, 3)


def test_long_rest_at_least_one_die_back():
    assert rest.hit_dice_regained(total=1, spent=1) == 1
    assert rest.hit_dice_regained(total=3, spent=3) == 1
    assert rest.hit_dice_regained(total=10, spent=2) == 2


@given(st.integers(1, 20), st.integers(0, 20))
def test_hit_dice_regained_bounds(total, spent):
    spent = min(spent, total)
    back = rest.hit_dice_regained(total, spent)
    assert 0 <= back <= spent
    if spent:
        assert back == min(spent, max(1, total // 2))


def test_long_rest_interrupted_by_an_hour_of_fighting(quote):
    quote(
        "Si et poses a lluitar, caminar o llançar encanteris una hora o més, cal tornar a començar."
    )
    before = state(hp_lost=10)
    after, done = rest.long_rest(sheet(), before, ends_at=480, strenuous_minutes=60)
    assert not done.completed and after == before
    after, done = rest.long_rest(sheet(), before, ends_at=480, strenuous_minutes=59)
    assert done.completed and after["hp_lost"] == 0


def test_long_rest_once_in_24_hours_and_needs_1_hp(quote):
    quote("Només un cada 24 hores, i has de tenir almenys 1 PC en començar.")
    rested = state(last_long_rest="480")
    with pytest.raises(XuletaError) as refused:
        rest.long_rest(sheet(), rested, ends_at=480 + 24 * 60 - 1)
    assert refused.value.field == "ends_at"
    _, done = rest.long_rest(sheet(), rested, ends_at=480 + 24 * 60)
    assert done.completed
    with pytest.raises(XuletaError) as refused:
        rest.long_rest(sheet(max_hp=38), state(hp_lost=38), ends_at=480)
    assert refused.value.field == "state.hp_lost"


def test_long_rest_is_about_8_hours_sleeping_6(quote):
    quote("Unes 8 hores: dormir-ne almenys 6 i la resta coses tranquil·les, com fer guàrdia.")
    with pytest.raises(XuletaError):
        rest.long_rest(sheet(), state(), ends_at=480, minutes=7 * 60)
    with pytest.raises(XuletaError):
        rest.long_rest(sheet(), state(), ends_at=480, sleep_minutes=5 * 60)


def test_short_rest_is_an_hour(quote):
    quote("Almenys una hora tranquil·la: menjar, beure, curar ferides, llegir.")
    assert rest.SHORT_REST_MINUTES == 60


def test_exhaustion_4_caps_the_healing(quote):
    quote("4	Punts de cop màxims a la meitat")
    worn = state(exhaustion=4, hp_lost=30)  # max 38 → 19 now; 8 PC
    assert rest.maximum_hp(sheet(), worn) == 19 and rest.current_hp(sheet(), worn) == 8
    after, roll = rest.spend_hit_die(Dice(10), sheet(con=2), worn)
    assert roll.total == 12 and roll.healed == 11 and rest.current_hp(sheet(), after) == 19
    assert after["hp_lost"] == 19
    after, done = rest.long_rest(sheet(), worn, ends_at=480)
    assert done.healed == 11 and rest.current_hp(sheet(), after) == 19
    assert {r.key for r in all_readings()} >= {"exhaustion_caps_current_hp"}
