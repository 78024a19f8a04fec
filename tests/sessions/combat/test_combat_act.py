"""One call runs a combatant's turn (sessions.combat.acting): the turn passed in the order of
§4.2, the maneuver, the attack through §4.10, every die listed in the chain's order; the dry
run, which rolls and writes nothing and says the level the attack then rolls against; the
maneuver changed until its first die; the combatant marked fled; and the refusals, before any
die."""

from __future__ import annotations

import pytest

from campaigns.access import membership_for
from campaigns.errors import ServiceError
from gurps.errors import InvalidValue
from sessions.combat import acting
from sessions.combat import cards as combat_cards
from sessions.combat import defending as combat_defending
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import messages as combat_messages
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import state as combat_state
from sessions.combat import turns as combat_turns
from sessions.log import chain
from sessions.models import Combat, Combatant, CombatEvent, Roll
from sheets.reads import state_of
from tests.sessions.combat.helpers import B_WOUNDS_JURADO, HOPLITA_FELLS_A, cavador

MOVE = combat_specs.ManeuverSpec(maneuver="move")
MOVE_AND_ATTACK = combat_specs.ManeuverSpec(maneuver="move_and_attack")
SPEAR_IN_THE_DARK = combat_specs.AttackSpec(weapon=0, lighting=-2)
DODGE = combat_specs.DefenceSpec(defences=("dodge",))


@pytest.fixture
def fight(scene, mestre, jurado, hoplita):
    """Order (§4.2): Cavador A, Cavador B (Move 6), the hoplita, the jurado."""
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado, hoplita])
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador A"))
    combat_services.combatant_add(combat=combat, user=mestre, creature=cavador("Cavador B"))
    return combat


def named(combat, name) -> Combatant:
    return Combatant.objects.select_related("character").get(combat=combat, name=name)


def act(combat, user, name, **kwargs):
    return acting.combat_act(combat=combat, combatant=named(combat, name), user=user, **kwargs)


def up_to_the_hoplita(fight, mestre) -> None:
    """Cavador A's turn (the first) and Cavador B's, each a one-call Deslocamento."""
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    act(fight, mestre, "Cavador B", maneuver=MOVE)


def counts() -> tuple[int, int, int]:
    return Roll.objects.count(), CombatEvent.objects.count(), Combat.objects.get().revision


# --- the one-call turn ------------------------------------------------------------------------


def test_a_pc_attacks_a_creature_that_defends_in_one_call(fight, mestre, server_dice, scene):
    up_to_the_hoplita(fight, mestre)
    server_dice(*HOPLITA_FELLS_A)
    done = act(
        fight,
        mestre,
        "Hoplita de Ônfalos",
        maneuver=MOVE_AND_ATTACK,
        attack=SPEAR_IN_THE_DARK,
        defender=named(fight, "Cavador A"),
        defence_choice=DODGE,
    )
    assert [e.kind for e in done.events] == ["turn", "maneuver", "attack"]
    # Attack 3+4+4 = 11 against 17 − 2 = 15; Cavador A's dodge 17 fails; 1d → 6 (§4.10).
    assert [(r.kind, r.details["step"], r.total) for r in done.rolls] == [
        ("skill", 3, 11),
        ("defence", 5, 17),
        ("damage", 6, 6),
    ]
    assert [r.sequence for r in done.rolls] == sorted(r.sequence for r in done.rolls)
    assert done.attack.hit and done.attack.effective_level == 15
    assert named(fight, "Cavador A").status == Combatant.Status.FLED  # 0 HP, a fleeing species
    assert chain.rolls_verify(scene.week.campaign).ok


def test_a_creature_attacks_a_pc_who_defends_with_his_own_standing_choice(
    fight, mestre, jogador, server_dice
):
    combat_defending.defence_choose(
        combat=fight, combatant=named(fight, "Jurado de Gapheim"), user=jogador, first="dodge"
    )
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    server_dice(2, 3, 4, 1, 1, 1)  # the bite 9 against 12 hits; the jurado's dodge 3 passes
    done = act(
        fight,
        mestre,
        "Cavador B",
        maneuver=MOVE_AND_ATTACK,
        attack=combat_specs.AttackSpec(weapon=0),
        defender=named(fight, "Jurado de Gapheim"),
    )
    defence = done.rolls[1]
    assert (defence.kind, defence.label) == ("defence", "Esquiva de Jurado de Gapheim")
    assert any("a escolha do jogador" in line for line in done.attack.event.lines)
    assert not done.attack.hit


def test_the_mestre_cannot_name_a_pcs_defence_and_nothing_is_written(fight, mestre, server_dice):
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    before = counts()
    server_dice()  # any die drawn would fail the test
    with pytest.raises(ServiceError) as refused:
        act(
            fight,
            mestre,
            "Cavador B",
            maneuver=MOVE_AND_ATTACK,
            attack=combat_specs.AttackSpec(weapon=0),
            defender=named(fight, "Jurado de Gapheim"),
            defence_choice=DODGE,
        )
    assert refused.value.field == "defences"
    assert counts() == before
    fight.refresh_from_db()
    assert combat_state.current(fight).name == "Cavador A"  # the turn did not pass


def test_a_turn_that_stuns_lists_the_ht_roll_and_the_next_lists_the_stun_roll(
    fight, mestre, jogador, server_dice
):
    combat_defending.defence_choose(
        combat=fight, combatant=named(fight, "Jurado de Gapheim"), user=jogador, first="block"
    )
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    server_dice(*B_WOUNDS_JURADO)
    bite = act(
        fight,
        mestre,
        "Cavador B",
        maneuver=MOVE_AND_ATTACK,
        attack=combat_specs.AttackSpec(weapon=0),
        defender=named(fight, "Jurado de Gapheim"),
    )
    # 10 HP lost, more than HT/2: the major wound's HT roll, 17 against 12, fails (§5.2).
    assert [(r.kind, r.details["step"]) for r in bite.rolls] == [
        ("skill", 3),
        ("defence", 5),
        ("damage", 6),
        ("attribute", 10),
    ]
    assert bite.rolls[-1].total == 17 and named(fight, "Jurado de Gapheim").stunned

    act(fight, mestre, "Hoplita de Ônfalos", maneuver=MOVE)
    server_dice(6, 6, 5)  # HT 12 to leave the stun: 17 fails
    still = act(
        fight,
        mestre,
        "Jurado de Gapheim",
        maneuver=combat_specs.ManeuverSpec(maneuver="all_out_defense"),
    )
    assert [e.kind for e in still.events] == ["turn"]
    assert still.stopped == combat_messages.STUNNED_NO_MANEUVER.format(name="Jurado de Gapheim")
    [stun] = still.rolls
    assert (stun.details["rule"], stun.details["step"], stun.total) == ("5.2", 1, 17)
    assert named(fight, "Jurado de Gapheim").maneuver == ""


def test_the_same_key_twice_is_one_turn(fight, mestre, server_dice):
    up_to_the_hoplita(fight, mestre)
    server_dice(*HOPLITA_FELLS_A)
    kwargs = dict(
        maneuver=MOVE_AND_ATTACK,
        attack=SPEAR_IN_THE_DARK,
        defender=named(fight, "Cavador A"),
        defence_choice=DODGE,
        request_key="turno-hoplita",
    )
    first = act(fight, mestre, "Hoplita de Ônfalos", **kwargs)
    again = act(fight, mestre, "Hoplita de Ônfalos", **kwargs)
    assert again.replayed and not first.replayed
    assert [r.pk for r in again.rolls] == [r.pk for r in first.rolls]
    assert [e.pk for e in again.events] == [e.pk for e in first.events]
    assert again.attack.hp_lost == first.attack.hp_lost
    assert Roll.objects.count() == 3


def test_a_key_another_action_took_is_a_conflict(fight, mestre):
    combat_turns.combat_next_turn(combat=fight, user=mestre, request_key="k-1")
    with pytest.raises(ServiceError) as refused:
        act(fight, mestre, "Cavador A", maneuver=MOVE, request_key="k-1")
    assert refused.value.code == "idempotency_conflict"


# --- the order ---------------------------------------------------------------------------------


def test_the_call_does_not_pass_over_one_who_has_not_chosen(fight, mestre):
    combat_turns.combat_next_turn(combat=fight, user=mestre)  # Cavador A's turn, nothing chosen
    with pytest.raises(ServiceError) as refused:
        act(fight, mestre, "Cavador B", maneuver=MOVE)
    assert refused.value.message == combat_messages.CURRENT_HAS_NOT_ACTED.format(
        current="Cavador A", name="Cavador B"
    )


def test_the_call_does_not_skip_anyone_in_the_order(fight, mestre):
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    before = counts()
    with pytest.raises(ServiceError) as refused:
        act(fight, mestre, "Jurado de Gapheim", maneuver=MOVE)
    assert refused.value.message == combat_messages.TURN_SKIPS_THE_ORDER.format(
        next="Cavador B", name="Jurado de Gapheim"
    )
    assert refused.value.code == "not_its_turn"
    assert counts() == before


def test_the_first_turn_goes_to_the_first_of_the_order(fight, mestre):
    with pytest.raises(ServiceError) as refused:
        act(fight, mestre, "Hoplita de Ônfalos", maneuver=MOVE)
    assert "passa a Cavador A" in refused.value.message
    done = act(fight, mestre, "Cavador A", maneuver=MOVE)
    assert done.events[0].lines[0].startswith("Ordem do turno (§4.2): Cavador A, Cavador B")


# --- bad input, before any die ----------------------------------------------------------------


def test_an_attack_with_a_maneuver_that_does_not_attack_is_refused_before_any_die(
    fight, mestre, server_dice
):
    up_to_the_hoplita(fight, mestre)
    before = counts()
    server_dice()
    with pytest.raises(ServiceError) as refused:
        act(
            fight,
            mestre,
            "Hoplita de Ônfalos",
            maneuver=combat_specs.ManeuverSpec(maneuver="all_out_defense"),
            attack=SPEAR_IN_THE_DARK,
            defender=named(fight, "Cavador A"),
        )
    assert refused.value.message == combat_messages.NOT_AN_ATTACK_MANEUVER.format(
        name="Hoplita de Ônfalos", maneuver="Defesa Total"
    )
    assert counts() == before
    assert named(fight, "Hoplita de Ônfalos").maneuver == ""


def test_an_unknown_target_is_refused(fight, mestre):
    stranger = Combatant(pk=10**9, name="Ninguém")  # of no fight: not this one's
    with pytest.raises(ServiceError) as refused:
        act(
            fight,
            mestre,
            "Cavador A",
            maneuver=MOVE_AND_ATTACK,
            attack=combat_specs.AttackSpec(weapon=0),
            defender=stranger,
        )
    assert (refused.value.field, refused.value.message) == (
        "defender",
        combat_messages.COMBATANT_NOT_FOUND,
    )
    assert not Roll.objects.exists() and not CombatEvent.objects.filter(kind="turn").exists()


def test_an_attack_without_a_target_is_refused(fight, mestre):
    with pytest.raises(ServiceError) as refused:
        act(fight, mestre, "Cavador A", maneuver=MOVE_AND_ATTACK, attack=SPEAR_IN_THE_DARK)
    assert (refused.value.field, refused.value.message) == (
        "defender",
        combat_messages.DEFENDER_NEEDED,
    )


def test_a_bad_announced_modifier_is_refused_and_the_turn_is_not_passed(fight, mestre):
    with pytest.raises(InvalidValue):
        act(
            fight,
            mestre,
            "Cavador A",
            maneuver=MOVE_AND_ATTACK,
            attack=combat_specs.AttackSpec(weapon=0, lighting=-12),
            defender=named(fight, "Jurado de Gapheim"),
        )
    fight.refresh_from_db()
    assert fight.round == 0 and not fight.events.filter(kind="turn").exists()


def test_a_jogador_cannot_run_a_creatures_turn(fight, jogador):
    with pytest.raises(ServiceError) as refused:
        act(fight, jogador, "Cavador A", maneuver=MOVE)
    assert refused.value.code == "forbidden"
    assert not CombatEvent.objects.filter(kind="turn").exists()
    with pytest.raises(ServiceError):
        act(fight, jogador, "Cavador A", maneuver=MOVE, dry_run=True)


# --- the dry run -------------------------------------------------------------------------------


def test_the_dry_run_writes_nothing_and_its_level_is_what_the_attack_rolls_against(
    fight, mestre, server_dice
):
    up_to_the_hoplita(fight, mestre)
    before = counts()
    server_dice()  # no die may be drawn
    kwargs = dict(
        maneuver=MOVE_AND_ATTACK,
        attack=SPEAR_IN_THE_DARK,
        defender=named(fight, "Cavador A"),
        defence_choice=DODGE,
    )
    preview = act(fight, mestre, "Hoplita de Ônfalos", dry_run=True, **kwargs)
    assert counts() == before
    fight.refresh_from_db()
    assert combat_state.current(fight).name == "Cavador B"  # the turn is not passed
    assert preview.passes_turn and preview.maneuver.row.name == "Avançar e Atacar"
    attack = preview.attack
    assert attack.skill == 17 and attack.effective_level == 15
    assert [(m.name, m.value, m.section) for m in attack.modifiers] == [
        ("Iluminação ruim", -2, "4.5")
    ]
    dodge = next(o for o in attack.defences if o.defence == "dodge")
    assert (dodge.level, dodge.total, attack.passive_defense) == (5, 6, 1)
    assert attack.rolled == (("dodge", 5),)

    server_dice(*HOPLITA_FELLS_A)
    done = act(fight, mestre, "Hoplita de Ônfalos", **kwargs)
    assert done.rolls[0].effective_level == attack.effective_level
    assert done.rolls[0].modifiers == [{"label": "Iluminação ruim", "value": -2}]


def test_the_dry_run_names_each_modifier_with_its_section(fight, mestre):
    up_to_the_hoplita(fight, mestre)
    Combatant.objects.filter(name="Hoplita de Ônfalos").update(posture="crouching")
    preview = act(
        fight,
        mestre,
        "Hoplita de Ônfalos",
        dry_run=True,
        maneuver=combat_specs.ManeuverSpec(maneuver="all_out_attack", all_out_option="determined"),
        attack=combat_specs.AttackSpec(
            weapon=0,
            location="vitals",
            modifiers=(combat_specs.log_services.Modifier("poeira nos olhos", -1),),
        ),
        defender=named(fight, "Cavador A"),
    )
    found = {(m.name, m.value, m.section) for m in preview.attack.modifiers}
    assert found == {
        ("Agachado ou sentado", -2, "4.5"),
        ("poeira nos olhos", -1, "1.4"),
        ("alvo: órgãos vitais", -3, "5.5"),
        ("Ataque Total (c)", 4, "4.3"),
    }
    assert preview.attack.effective_level == 17 - 2 - 1 - 3 + 4


def test_the_dry_run_of_a_jogadors_defender_says_which_defence_stands(fight, mestre, jogador):
    combat_defending.defence_choose(
        combat=fight, combatant=named(fight, "Jurado de Gapheim"), user=jogador, first="dodge"
    )
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    preview = act(
        fight,
        mestre,
        "Cavador B",
        dry_run=True,
        maneuver=MOVE_AND_ATTACK,
        attack=combat_specs.AttackSpec(weapon=0),
        defender=named(fight, "Jurado de Gapheim"),
    )
    assert [kind for kind, _ in preview.attack.rolled] == ["dodge"]
    assert "a escolha do jogador" in preview.attack.defence_lines[0]
    assert {o.defence for o in preview.attack.defences} >= {"dodge", "block"}


def test_the_dry_run_says_the_start_rolls_it_supposes_pass(fight, mestre):
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    Combatant.objects.filter(name="Cavador B").update(stunned=True)
    before = counts()
    preview = act(fight, mestre, "Cavador B", dry_run=True, maneuver=MOVE)
    assert preview.start_rolls == (
        "HT para sair do atordoamento (§5.2): falhando, fica sem manobra",
    )
    assert counts() == before


# --- the maneuver changed until its first die --------------------------------------------------


def test_a_maneuver_changes_until_its_first_die_and_not_after(fight, mestre, server_dice):
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    act(
        fight,
        mestre,
        "Cavador B",
        maneuver=combat_specs.ManeuverSpec(maneuver="change_position", posture="lying"),
    )
    assert named(fight, "Cavador B").posture == "lying"
    event = combat_maneuvers.maneuver_change(
        combat=fight, combatant=named(fight, "Cavador B"), user=mestre, maneuver="move_and_attack"
    )
    b = named(fight, "Cavador B")
    # The change of position is undone: nothing of it stays (§4.1).
    assert (b.maneuver, b.posture) == ("move_and_attack", "standing")
    assert "muda a manobra antes do primeiro dado" in event.lines[0]

    server_dice(2, 3, 4, 1, 1, 1)
    act(
        fight,
        mestre,
        "Cavador B",
        attack=combat_specs.AttackSpec(weapon=0),
        defender=named(fight, "Jurado de Gapheim"),
    )
    with pytest.raises(ServiceError) as refused:
        combat_maneuvers.maneuver_change(
            combat=fight,
            combatant=named(fight, "Cavador B"),
            user=mestre,
            maneuver="all_out_defense",
        )
    first = Roll.objects.order_by("sequence").first()
    assert refused.value.code == "maneuver_locked"
    assert refused.value.message == combat_messages.MANEUVER_LOCKED.format(
        name="Cavador B", sequence=first.sequence, label=first.label
    )


def test_the_one_call_changes_a_maneuver_declared_without_a_die(fight, mestre):
    act(
        fight,
        mestre,
        "Cavador A",
        maneuver=combat_specs.ManeuverSpec(maneuver="all_out_attack", all_out_option="strong"),
    )
    done = act(fight, mestre, "Cavador A", maneuver=combat_specs.ManeuverSpec(maneuver="move"))
    a = named(fight, "Cavador A")
    assert (a.maneuver, a.all_out_option) == ("move", "")
    assert [e.kind for e in done.events] == ["maneuver"]
    assert done.events[0].data["replaces"]


def test_a_second_declaration_is_refused_and_points_to_the_change(fight, mestre):
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    with pytest.raises(ServiceError) as refused:
        combat_maneuvers.maneuver_declare(
            combat=fight, combatant=named(fight, "Cavador A"), user=mestre, maneuver="move"
        )
    assert "Mudar a manobra" in refused.value.message


def test_nothing_to_change_without_a_maneuver(fight, mestre):
    combat_turns.combat_next_turn(combat=fight, user=mestre)
    with pytest.raises(ServiceError) as refused:
        combat_maneuvers.maneuver_change(
            combat=fight, combatant=named(fight, "Cavador A"), user=mestre, maneuver="move"
        )
    assert refused.value.message == combat_messages.NOTHING_TO_CHANGE.format(name="Cavador A")


# --- fled ---------------------------------------------------------------------------------------


def test_a_fled_combatant_leaves_the_order_and_keeps_his_state(fight, mestre, jurado):
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    Combatant.objects.filter(name="Jurado de Gapheim").update(hp_lost=3)
    event = combat_services.combatant_flee(
        combat=fight, combatant=named(fight, "Jurado de Gapheim"), user=mestre
    )
    j = named(fight, "Jurado de Gapheim")
    assert (j.status, j.fled_round, j.hp_lost) == ("fled", 1, 3)
    assert event.kind == "fled" and "fugiu na rodada 1" in event.text
    assert state_of(jurado).hp_lost == 3
    fight.refresh_from_db()
    membership = membership_for(mestre, fight.scene.week.campaign)
    view = combat_cards.combat_view(fight, membership=membership, user=mestre)
    card = next(c for c in view.cards if c.combatant.name == "Jurado de Gapheim")
    assert "Fugiu na rodada 1: fora da ordem do turno" in card.effects
    seen = []
    for _ in range(6):
        combat_turns.combat_next_turn(combat=fight, user=mestre)
        fight.refresh_from_db()
        seen.append(combat_state.current(fight).name)
    assert "Jurado de Gapheim" not in seen


def test_a_fled_combatant_cannot_flee_again_nor_act(fight, mestre):
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    combat_services.combatant_flee(combat=fight, combatant=named(fight, "Cavador B"), user=mestre)
    with pytest.raises(ServiceError) as refused:
        combat_services.combatant_flee(
            combat=fight, combatant=named(fight, "Cavador B"), user=mestre
        )
    assert refused.value.message == combat_messages.FLEE_ONLY_FIGHTING.format(
        name="Cavador B", status="em fuga"
    )
    with pytest.raises(ServiceError) as out:
        act(fight, mestre, "Cavador B", maneuver=MOVE)
    assert out.value.field == "combatant"


def test_the_end_charges_the_fled_by_the_seconds_he_fought_once(
    fight, mestre, jurado, hoplita, server_dice
):
    act(fight, mestre, "Cavador A", maneuver=MOVE)
    Combatant.objects.filter(name__in=["Jurado de Gapheim", "Hoplita de Ônfalos"]).update(
        fought=True
    )
    combat_services.combatant_flee(
        combat=fight, combatant=named(fight, "Jurado de Gapheim"), user=mestre
    )
    Combat.objects.filter(pk=fight.pk).update(round=12)  # twelve seconds later (§4.1)
    before = state_of(jurado).fatigue_lost, state_of(hoplita).fatigue_lost
    ended = combat_services.combat_end(combat=fight, user=mestre)
    end = ended.events.get(kind="end")
    # The hoplita fought 12 s: more than 10, he pays (§6.1). The jurado fled in round 1: 1 s.
    assert state_of(jurado).fatigue_lost == before[0]
    assert state_of(hoplita).fatigue_lost > before[1]
    line = next(x for x in end.lines if x.startswith("Jurado de Gapheim"))
    assert "fugiu na rodada 1" in line and "pelos 1 segundo(s)" in line
    assert "Em fuga na rodada 1" in state_of(jurado).conditions
    with pytest.raises(ServiceError):
        combat_services.combat_end(combat=fight, user=mestre)
    assert (
        state_of(hoplita).fatigue_lost
        == fight.combatants.get(name="Hoplita de Ônfalos").fatigue_before
    )
