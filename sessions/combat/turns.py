"""The turn (canon §4.1, §4.2): passing to the next combatant, in the stored order that never
reshuffles, and the rolls the canon asks at the start of a turn — HT to leave a stun (§5.2),
IQ under total surprise (§5e), HT at 0 HP or less (§5.4).
"""

from __future__ import annotations

import uuid

from django.db import transaction

from garganta_site.errors import ServiceError
from gurps import combat as engine
from gurps import injury
from sessions.combat.messages import (
    NO_COMBATANTS,
    NOBODY_FIGHTING,
    PARTIAL_SURPRISE_LOSES_TURN,
    UNBALANCED_TURN,
)
from sessions.combat.numbers import CombatantNumbers, combatant_numbers
from sessions.combat.rolls import attribute_roll, combat_source, log_success
from sessions.combat.state import combat_begin, combat_event, combatant_save, current
from sessions.models import Combat, Combatant, CombatEvent


@transaction.atomic
def combat_next_turn(*, combat: Combat, user, request_key: str = "") -> Combat:
    """Pass to the next turn (the first: the order of §4.2 is worked out and stored, and never
    reshuffles). At the start of the turn the rolls the canon asks are made: HT to leave a
    stun (§5.2), IQ under total surprise (§5e), HT at 0 HP or less (§5.4)."""
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.TURN)
    if replay is not None:
        return combat
    everyone = list(combat.combatants.all())
    lines: list[str] = []
    if combat.round == 0:
        if not everyone:
            raise ServiceError(NO_COMBATANTS, code="no_combatants")
        order = engine.turn_order(_in_order(c, combatant_numbers(c)) for c in everyone)
        by_name = {c.name: c for c in everyone}
        for position, entry in enumerate(order):
            by_name[entry.name].position = position
            by_name[entry.name].save(update_fields=["position"])
        everyone.sort(key=lambda c: c.position)
        combat.round, combat.turn = 1, everyone[0].position
        lines.append(
            "Ordem do turno (§4.2): " + ", ".join(c.name for c in everyone) + ". Não muda mais."
        )
        if not everyone[0].in_the_fight:
            combat.turn = _next_position(everyone, combat.turn, lines, combat)
    else:
        leaving = current(combat, everyone)
        if leaving is not None and leaving.shock and not leaving.shock_pending:
            leaving.shock = 0  # shock lasts the victim's next turn only (§5.1)
            leaving.save(update_fields=["shock"])
        combat.turn = _next_position(everyone, combat.turn, lines, combat)
    now = current(combat, everyone)
    code = uuid.uuid4()
    _turn_start(combat, user, code, now, lines)
    combat_event(
        combat,
        user,
        CombatEvent.Kind.TURN,
        f"Rodada {combat.round}, turno de {now.name}.",
        lines=lines,
        request_key=request_key,
        code=code,
    )
    return combat


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


def _next_position(everyone: list[Combatant], position: int, lines: list[str], combat) -> int:
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
        c.save(
            update_fields=[
                "dodges_used",
                "blocks_used",
                "parries_used",
                "dagger_parries_used",
                "retreated",
            ]
        )
    lines.append(f"Rodada {combat.round}: as defesas da rodada recomeçam (§4.7).")
    return fighting[0].position


def _turn_start(combat, user, event, c: Combatant, lines: list[str]) -> None:
    """The rolls at the start of ``c``'s turn, logged under the turn's event code."""
    source = combat_source()
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
