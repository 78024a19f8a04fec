"""The turn (canon §4.1, §4.2): passing to the next combatant, in the stored order that never
reshuffles, and the rolls the canon asks at the start of a turn — HT to leave a stun (§5.2),
IQ under total surprise (§5e), HT at 0 HP or less (§5.4).

Passing is cut in two so the one-call turn (``sessions.combat.acting``) can rehearse it: the
pass in memory (``turn_advance``, ``turn_start_effects``: no die, nothing saved) and the pass
written (``turn_pass``: the same two, then the start's dice, the rows saved and the event).
"""

from __future__ import annotations

import uuid

from django.db import transaction

from campaigns.errors import ServiceError
from gurps import combat as engine
from gurps import injury
from gurps.errors import GurpsError
from sessions.combat.begin import combat_begin
from sessions.combat.messages import (
    NO_COMBATANTS,
    NOBODY_FIGHTING,
    PARTIAL_SURPRISE_LOSES_TURN,
    TURN_WAITS_FOR_DEFENCE,
    UNBALANCED_TURN,
)
from sessions.combat.numbers import CombatantNumbers, combatant_numbers
from sessions.combat.rolls import attribute_roll, combat_source, log_success
from sessions.combat.state import combat_event, combatant_save, current, why_not_acting
from sessions.models import Combat, Combatant, CombatEvent

# What passing a turn may change on a combatant that is not the one whose turn begins.
ROUND_FIELDS = ("dodges_used", "blocks_used", "parries_used", "dagger_parries_used", "retreated")


@transaction.atomic
def combat_next_turn(*, combat: Combat, user, request_key: str = "") -> CombatEvent:
    """Pass to the next turn (the first: the order of §4.2 is worked out and stored, and never
    reshuffles). At the start of the turn the rolls the canon asks are made: HT to leave a
    stun (§5.2), IQ under total surprise (§5e), HT at 0 HP or less (§5.4). Returns the turn's
    event (its dice are the rolls that name it); the same ``request_key`` again returns the
    earlier one."""
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.TURN)
    if replay is not None:
        return replay
    return turn_pass(combat, user, request_key=request_key)


def turn_pass(
    combat: Combat, user, *, request_key: str = "", data: dict | None = None
) -> CombatEvent:
    """Pass the turn of ``combat`` (read afresh under the lock by the caller), roll what the
    start of the turn asks, save and write the turn's event with ``data``. The event says
    whose turn it is (``data["combatant"]``) and what keeps him from a maneuver this turn
    (``data["why_not"]``, "" when he may choose one: ``state.why_not_acting``)."""
    everyone = list(combat.combatants.select_related("character"))
    lines: list[str] = []
    now, touched = turn_advance(combat, everyone, lines)
    for c, fields in touched:
        c.save(update_fields=sorted(fields))
    code = uuid.uuid4()
    turn_start_effects(combat, now, lines)
    _turn_start_rolls(combat, user, code, now, lines)
    return combat_event(
        combat,
        user,
        CombatEvent.Kind.TURN,
        f"Rodada {combat.round}, turno de {now.name}.",
        lines=lines,
        data={
            "combatant": str(now.code),
            "why_not": why_not_acting(combat, now),
            **(data or {}),
        },
        request_key=request_key,
        code=code,
    )


def turn_advance(
    combat: Combat, everyone: list[Combatant], lines: list[str]
) -> tuple[Combatant, list[tuple[Combatant, set[str]]]]:
    """Pass the turn in memory: ``combat.round`` and ``combat.turn`` move on (the first turn:
    the order of §4.2 is worked out onto the combatants' positions), the leaving combatant's
    shock ends (§5.1), a new round gives back everyone's defences (§4.7). No die, nothing
    saved. Returns whose turn begins and the combatants changed with the fields changed."""
    touched: dict[int, tuple[Combatant, set[str]]] = {}

    def touch(c: Combatant, *fields: str) -> None:
        touched.setdefault(c.pk, (c, set()))[1].update(fields)

    if combat.round == 0:
        if not everyone:
            raise ServiceError(NO_COMBATANTS, code="no_combatants")
        order = engine.turn_order(_in_order(c, combatant_numbers(c)) for c in everyone)
        by_name = {c.name: c for c in everyone}
        for position, entry in enumerate(order):
            by_name[entry.name].position = position
            touch(by_name[entry.name], "position")
        everyone.sort(key=lambda c: c.position)
        combat.round, combat.turn = 1, everyone[0].position
        lines.append(
            "Ordem do turno (§4.2): " + ", ".join(c.name for c in everyone) + ". Não muda mais."
        )
        if not everyone[0].in_the_fight:
            combat.turn = _next_position(everyone, combat.turn, lines, combat, touch)
    else:
        leaving = current(combat, everyone)
        if leaving is not None and leaving.shock and not leaving.shock_pending:
            leaving.shock = 0  # shock lasts the victim's next turn only (§5.1)
            touch(leaving, "shock")
        combat.turn = _next_position(everyone, combat.turn, lines, combat, touch)
    now = current(combat, everyone)
    if now is not None and now.pending_defence:
        # His defence against the attack that hit him comes before his own turn (§4.6).
        raise ServiceError(
            TURN_WAITS_FOR_DEFENCE.format(name=now.name), field="combatant", code="defence_pending"
        )
    return now, list(touched.values())


def turn_upcoming(combat: Combat) -> Combatant | None:
    """Whose turn the next pass begins (§4.2: the stored order, nobody out of the fight), or
    None when nobody is fighting. Worked out on copies read afresh, so nothing is changed:
    the answer is a copy (read its ``code`` and ``name``)."""
    ghost = Combat.objects.get(pk=combat.pk)
    everyone = list(ghost.combatants.select_related("character"))
    try:
        now, _ = turn_advance(ghost, everyone, [])
    except (ServiceError, GurpsError):
        return None
    return now


def _in_order(c: Combatant, numbers: CombatantNumbers) -> engine.Combatant:
    """What the turn order reads (§4.2): Move, then Basic Speed whole, then DX, then the order
    of declaration — Move and Basic Speed as the sheet's numbers give them now."""
    return engine.Combatant(
        name=c.name,
        move=numbers.derived.move,
        basic_speed=numbers.derived.basic_speed,
        dx=c.dx,
        declared=c.declared,
    )


def _next_position(everyone: list[Combatant], position: int, lines: list[str], combat, touch):
    fighting = [c for c in everyone if c.in_the_fight]
    if not fighting:
        raise ServiceError(NOBODY_FIGHTING, code="nobody_fighting")
    later = [c for c in fighting if c.position > position]
    if later:
        return later[0].position
    combat.round += 1
    for c in everyone:
        c.dodges_used = c.blocks_used = c.parries_used = c.dagger_parries_used = 0
        c.retreated = False
        touch(c, *ROUND_FIELDS)
    lines.append(f"Rodada {combat.round}: as defesas da rodada recomeçam (§4.7).")
    return fighting[0].position


def turn_start_effects(combat: Combat, c: Combatant, lines: list[str]) -> None:
    """What the start of ``c``'s turn changes without a die (§4.1, §4.3, §4.8, §5.1): the
    shock of the last blow now counts, the lost balance and an unused Aguardar end, a feint
    older than a round is gone, the head table's 8 takes this turn. In memory."""
    c.shock_pending = False
    if c.off_balance:
        c.off_balance = False
        lines.append(f"{c.name} recupera o equilíbrio: as defesas voltam ao normal (§4.8).")
    if c.waiting:
        c.waiting = False
        lines.append(f"{c.name} não usou o Aguardar: o ataque fora do turno acaba aqui (§4.3).")
    if c.feint and int(c.feint.get("round", 0)) < combat.round - 1:
        c.feint = {}
        lines.append(f"A finta de {c.name} passou sem ataque: vale por uma rodada (§4.3).")
    if c.unbalanced:
        c.unbalanced = False
        c.turn_lost_round = combat.round
        c.maneuver, c.all_out_option = "", ""
        lines.append(UNBALANCED_TURN.format(name=c.name))


def turn_start_rolls_needed(c: Combatant) -> tuple[str, ...]:
    """The rolls the start of ``c``'s turn will ask (§5.4, §5.2, §5e), each said with what a
    failure does: their dice decide whether he acts this turn."""
    found = []
    if c.hp_now <= 0:
        found.append("HT a 0 PV ou menos (§5.4): falhando, desmaia")
    if c.stunned:
        found.append("HT para sair do atordoamento (§5.2): falhando, fica sem manobra")
    if c.surprise == "total" and not c.acting:
        found.append("IQ sob surpresa total (§5e): falhando, fica parado, sem defesa ativa")
    return tuple(found)


def _turn_start_rolls(combat, user, event, c: Combatant, lines: list[str]) -> None:
    """The rolls at the start of ``c``'s turn, logged under the turn's event code; then ``c``
    is saved with what the start of its turn changed."""
    source = combat_source()
    if c.hp_now <= 0:
        level = injury.turn_start_ht_roll(
            c.ht, c.hp_now, strong_will=c.strong_will, weak_will=c.weak_will
        )
        result = attribute_roll(
            combat, user, event, source, c, level=level, label="HT a 0 PV ou menos", rule="5.4"
        )
        if not result.outcome.is_success:
            c.status = Combatant.Status.UNCONSCIOUS
            lines.append(f"{c.name} falhou o teste de HT a 0 PV ou menos: desmaia (§5.4).")
    if c.in_the_fight and c.stunned:
        level = injury.stun_recovery_level("physical", ht=c.ht)
        result = attribute_roll(
            combat,
            user,
            event,
            source,
            c,
            level=level,
            label="HT para sair do atordoamento",
            rule="5.2",
        )
        if result.outcome.is_success:
            c.stunned = False
            lines.append(f"{c.name} passa no HT: sai do atordoamento e age neste turno (§5.2).")
        else:
            # No maneuver this turn (§5.2): last turn's no longer stands, nor shows.
            c.maneuver, c.all_out_option = "", ""
            lines.append(f"{c.name} continua atordoado, sem manobra neste turno (§5.2).")
    if c.in_the_fight and c.surprise == "total" and not c.acting:
        found = engine.total_surprise_roll(source, c.iq, combat_reflexes=c.combat_reflexes)
        log_success(combat, user, event, c, found.roll, label="IQ sob surpresa total", rule="5e")
        c.acting = found.acts
        did = "começa a agir" if found.acts else "fica parado, sem defesa ativa"
        lines.append(f"{c.name} {did} (§5e).")
    if c.in_the_fight and c.surprise == "partial" and combat.round == 1:
        lines.append(PARTIAL_SURPRISE_LOSES_TURN.format(name=c.name))
    combatant_save(c)
