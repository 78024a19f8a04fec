"""The server's roll (sessions.log.services.roll_create): numbered, chained, never from a client."""

from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from gurps.errors import NoRollAtThreeOrLess
from sessions.entries import SCENE_CLOSED
from sessions.log import chain
from sessions.log import services as log_services
from sessions.log.chain import GENESIS_HASH
from sessions.log.services import (
    CHARACTER_NOT_IN_SCENE,
    HIDDEN_NEEDS_CHARACTER,
    IDEMPOTENCY_CONFLICT,
    LABEL_EMPTY,
    LEVEL_OUT_OF_RANGE,
    MODIFIER_LABEL_EMPTY,
    Modifier,
)
from sessions.models import Roll, Scene
from sheets.models import Character
from tests.gurps.helpers import ScriptedSource


def _roll(scene, user, *, dice=None, **kwargs) -> Roll:
    # A character's level comes from its sheet (Observação 13 for the rastreador).
    fields = {"label": "Observação", "kind": "skill", **kwargs}
    if kwargs.get("character") is None:
        fields.setdefault("base_level", 13)
    source = ScriptedSource(dice) if dice is not None else None
    return log_services.roll_create(scene=scene, user=user, source=source, **fields)


def test_it_rolls_three_dice_and_stores_them(scene, mestre, rastreador):
    roll = _roll(
        scene,
        mestre,
        dice=(3, 4, 2),
        character=rastreador,
        modifiers=[Modifier("penumbra", -2)],
    )
    roll = Roll.objects.get(pk=roll.pk)
    assert roll.dice == [3, 4, 2]
    assert roll.total == 9
    assert (roll.base_level, roll.effective_level) == (13, 11)
    assert roll.modifiers == [{"label": "penumbra", "value": -2}]
    assert (roll.outcome, roll.margin) == ("success", 2)
    assert roll.rolled_by == mestre
    assert roll.character == rastreador
    assert roll.campaign == scene.week.campaign


@pytest.mark.parametrize(
    ("dice", "level", "kind", "outcome", "margin"),
    [
        ((1, 1, 2), 2, "defence", "critical_success", -2),
        ((6, 6, 5), 15, "skill", "critical_failure", -2),
        ((6, 6, 5), 16, "skill", "failure", -1),
        ((6, 6, 6), 20, "skill", "critical_failure", 2),
        ((1, 2, 2), 15, "skill", "critical_success", 10),
        ((4, 4, 4), 12, "attribute", "success", 0),
        ((4, 4, 5), 12, "attribute", "failure", -1),
    ],
)
def test_it_judges_the_dice_by_the_canon(scene, mestre, dice, level, kind, outcome, margin):
    roll = _roll(scene, mestre, dice=dice, base_level=level, kind=kind)
    assert (roll.total, roll.outcome, roll.margin) == (sum(dice), outcome, margin)


def test_it_numbers_the_rolls_of_a_campaign_without_gaps_and_chains_them(scene, mestre):
    rolls = [_roll(scene, mestre) for _ in range(3)]
    assert [r.sequence for r in rolls] == [1, 2, 3]
    assert rolls[0].previous_hash == GENESIS_HASH == "0" * 64
    assert rolls[1].previous_hash == rolls[0].hash
    assert rolls[2].previous_hash == rolls[1].hash
    for roll in rolls:
        expected = chain.roll_hash(roll.previous_hash, chain.roll_canonical_content(roll))
        assert roll.hash == expected


def test_a_refused_roll_takes_no_number(scene, mestre):
    _roll(scene, mestre)
    with pytest.raises(NoRollAtThreeOrLess):
        _roll(scene, mestre, base_level=3)
    assert _roll(scene, mestre).sequence == 2


def test_it_refuses_a_skill_at_effective_level_3_or_less(scene, mestre):
    with pytest.raises(NoRollAtThreeOrLess) as refused:
        _roll(scene, mestre, base_level=5, modifiers=[Modifier("escuridão", -2)])
    assert refused.value.effective_level == 3
    assert not Roll.objects.exists()


def test_it_refuses_an_attribute_at_effective_level_3_or_less(scene, mestre):
    with pytest.raises(NoRollAtThreeOrLess):
        _roll(scene, mestre, base_level=1, kind="attribute")
    assert not Roll.objects.exists()


def test_a_defence_may_roll_at_effective_level_2(scene, mestre):
    roll = _roll(
        scene,
        mestre,
        dice=(1, 1, 2),
        base_level=4,
        kind="defence",
        modifiers=[Modifier("atordoado", -2)],
    )
    assert roll.effective_level == 2
    assert (roll.total, roll.outcome) == (4, "critical_success")


def test_it_refuses_a_character_who_is_not_in_the_scene(demo, scene, mestre, jogador):
    stranger = Character.objects.create(campaign=demo, owner=jogador, name="Outro")
    with pytest.raises(ServiceError) as refused:
        _roll(scene, mestre, character=stranger)
    assert (refused.value.field, refused.value.message) == ("character", CHARACTER_NOT_IN_SCENE)
    assert not Roll.objects.exists()


def test_it_refuses_a_closed_scene(scene, mestre):
    Scene.objects.filter(pk=scene.pk).update(status=Scene.Status.CLOSED)
    scene.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        _roll(scene, mestre)
    assert refused.value.message == SCENE_CLOSED
    assert not Roll.objects.exists()


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"label": "  "}, "label", LABEL_EMPTY),
        ({"base_level": 51}, "base_level", LEVEL_OUT_OF_RANGE),
        ({"base_level": -51}, "base_level", LEVEL_OUT_OF_RANGE),
        ({"modifiers": [Modifier(" ", -2)]}, "modifiers", MODIFIER_LABEL_EMPTY),
        ({"modifiers": [Modifier("chuva", -51)]}, "modifiers", LEVEL_OUT_OF_RANGE),
    ],
)
def test_it_refuses_bad_input_and_stores_nothing(scene, mestre, kwargs, field, message):
    with pytest.raises(ServiceError) as refused:
        _roll(scene, mestre, **kwargs)
    assert (refused.value.field, refused.value.message) == (field, message)
    assert not Roll.objects.exists()


def test_it_refuses_more_than_20_modifiers(scene, mestre):
    with pytest.raises(ServiceError):
        _roll(scene, mestre, modifiers=[Modifier(f"m{n}", 0) for n in range(21)])
    assert not Roll.objects.exists()


def test_the_same_request_key_twice_rolls_once(scene, mestre):
    first = _roll(scene, mestre, dice=(1, 2, 3), request_key="form-1")
    again = _roll(scene, mestre, dice=(6, 6, 6), request_key="form-1")
    assert again.pk == first.pk
    assert again.dice == [1, 2, 3]
    assert Roll.objects.count() == 1


def test_the_same_request_key_for_another_request_is_refused(scene, mestre):
    _roll(scene, mestre, request_key="form-1")
    with pytest.raises(ServiceError) as refused:
        _roll(scene, mestre, base_level=14, request_key="form-1")
    assert (refused.value.code, refused.value.message) == (
        "idempotency_conflict",
        IDEMPOTENCY_CONFLICT,
    )
    assert Roll.objects.count() == 1


def test_a_hidden_roll_needs_a_character(scene, mestre):
    with pytest.raises(ServiceError) as refused:
        _roll(scene, mestre, hidden=True)
    assert (refused.value.field, refused.value.message) == ("hidden", HIDDEN_NEEDS_CHARACTER)
    assert not Roll.objects.exists()


def test_it_takes_no_dice_value(scene, mestre):
    with pytest.raises(TypeError):
        log_services.roll_create(
            scene=scene, user=mestre, label="x", base_level=12, kind="skill", dice=[6, 6, 6]
        )
    with pytest.raises(TypeError):
        log_services.roll_create(
            scene=scene, user=mestre, label="x", base_level=12, kind="skill", total=18
        )


def test_a_hidden_roll_is_named_by_week_and_player(scene, mestre, jurado, rastreador):
    first = _roll(scene, mestre, hidden=True, character=rastreador)
    _roll(scene, mestre, hidden=True, character=jurado)
    _roll(scene, mestre, character=rastreador)
    second = _roll(scene, mestre, hidden=True, character=rastreador)
    assert first.name == "semana-01-rolagem-01"
    assert second.name == "semana-01-rolagem-02"
    assert Roll.objects.get(character=jurado).name == "semana-01-rolagem-01"
    assert Roll.objects.filter(hidden=False).get().name == ""
