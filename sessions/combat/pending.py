"""The defence chosen at the moment of the attack (canon §4.1, §4.6, §4.10 rows 3–5; docs/DESIGN.md,
invariant 11 (The defender chooses)).

An attack on a jogador's character that hits (no critical) stops before the defence roll: the
attack roll is in the chain, and the defender keeps the attack as rolled
(``Combatant.pending_defence``) until his jogador answers — Esquiva, Aparar with one of his
weapons, Bloquear, with a retreat where he may, or «não me defendo» (the PD alone: an aim is
kept, §4.3). His answer resolves the attack (``answer.pending_resolve``). Meanwhile the Mestre
sees «aguardando a defesa de …» and goes on with other combatants' turns; the defender's own
turn waits. A jogador who opted in to a standing choice («decidir por mim») is not asked.

The Mestre may give the answer a time (``Combat.defence_wait_minutes``); once it has run out,
the standing choice or the best total stands for him, said in the log. No background job: it is
applied when the combat is next read or acted on (``defences_overdue_apply``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaigns.errors import ServiceError
from gurps import defence as rules
from gurps.checks import percent_truncated
from gurps.hit_locations import HitLocation
from sessions.combat.answer import pending_resolve
from sessions.combat.defending import defence_options, has_a_player
from sessions.combat.messages import (
    ANSWERED,
    BAD_WAIT,
    COMBAT_ENDED,
    DEADLINE_PASSED,
    DEFENCE_NAMES,
    NO_DEFENCE_PENDING,
    NOT_DEFENDING,
    ONLY_THE_PLAYER_ANSWERS,
    UNKNOWN_ANSWER,
)
from sessions.combat.numbers import combatant_numbers
from sessions.combat.specs import DefenceSpec
from sessions.models import Combat, Combatant, CombatEvent
from sessions.tracker import tracker_begin, tracker_event, tracker_lock

# The closed set of answers (published as an enum in the API and the MCP tools).
ANSWERS = {
    "dodge": DEFENCE_NAMES["dodge"],
    "parry": DEFENCE_NAMES["parry"],
    "block": DEFENCE_NAMES["block"],
    "none": "Não me defendo",
}
MAX_WAIT_MINUTES = 1440


@dataclass(frozen=True)
class AnswerOption:
    """One answer the defender may give now: ``answer`` (a key of ANSWERS), ``parry_weapon``
    the weapon line for Aparar, ``retreat`` with the retreat's +3 (§4.7), ``total`` what the
    defence roll is against (PD + active, levels; the PD alone for «não me defendo»),
    ``chance`` the percentage of 3d6 at or under it (§1.1: 3 or 4 always passes, 17 or 18
    always fails, §4.6), ``why_not`` what keeps it from being used, or ""."""

    answer: str
    name: str
    total: int
    chance: int
    parry_weapon: int | None = None
    retreat: bool = False
    why_not: str = ""


@dataclass(frozen=True)
class PendingDefence:
    """An attack waiting for ``defender``'s answer: who attacks with what, where, the attack
    roll (its sequence in the chain), since when, until when (None: no time set), and the
    answers he has. ``event``: the attack's event, which keys the answer (the same answer
    twice, from two pages or a double tap, resolves once)."""

    defender: Combatant
    event: str
    attacker_name: str
    weapon: str
    location: str
    attack_total: int
    effective_level: int
    roll_sequence: int | None
    since: datetime
    until: datetime | None
    options: tuple[AnswerOption, ...]

    @property
    def location_label(self) -> str:
        return HitLocation(self.location).label


def _chance(total: int) -> int:
    """Percent (truncated, §1.1) of 3d6 that pass a defence roll against ``total`` (§4.6)."""
    return percent_truncated(rules.defence_chance(total))


def _until(combat: Combat, since: datetime) -> datetime | None:
    if combat.defence_wait_minutes is None:
        return None
    return since + timedelta(minutes=combat.defence_wait_minutes)


def pending_of(combat: Combat, d: Combatant, *, numbers=None) -> PendingDefence | None:
    """What waits for ``d``'s answer, with each answer's total and chance, or None.
    ``numbers``: his numbers now when the caller has them."""
    p = d.pending_defence
    if not p:
        return None
    numbers = numbers or combatant_numbers(d, terrain=combat.terrain)
    pd = numbers.passive_defense
    retreat_ok = not d.retreated and rules.can_retreat(
        sitting=d.posture == Combatant.Posture.SITTING,
        kneeling=d.posture == Combatant.Posture.KNEELING,
        stunned=d.stunned,
    )
    options: list[AnswerOption] = []
    lines = d.weapon_lines()
    for index in [None, *range(len(lines))]:
        for o in defence_options(d, numbers, attack_kind=p["attack_kind"], parry_weapon=index):
            if (o.defence == "parry") != (index is not None) or (
                o.defence == "parry" and o.parry_line != index
            ):
                continue
            options.append(
                AnswerOption(
                    o.defence,
                    o.name,
                    o.total,
                    _chance(o.total),
                    (o.parry_line if o.defence == "parry" else None),
                    False,
                    o.why_not,
                )
            )
            if retreat_ok and o.usable:
                bonus = rules.retreat_bonus(
                    sitting=d.posture == Combatant.Posture.SITTING,
                    kneeling=d.posture == Combatant.Posture.KNEELING,
                    stunned=d.stunned,
                )
                total = o.total + bonus
                options.append(
                    AnswerOption(
                        o.defence,
                        f"{o.name}, recuando",
                        total,
                        _chance(total),
                        (o.parry_line if o.defence == "parry" else None),
                        True,
                    )
                )
    options.append(AnswerOption("none", ANSWERS["none"], pd, _chance(pd)))
    since = datetime.fromisoformat(p["since"])
    return PendingDefence(
        defender=d,
        event=p["event"],
        attacker_name=p["attacker_name"],
        weapon=p["weapon"],
        location=p["location"],
        attack_total=p["roll"]["total"],
        effective_level=p["effective_level"],
        roll_sequence=p.get("roll_sequence"),
        since=since,
        until=_until(combat, since),
        options=tuple(options),
    )


def pending_in(combat: Combat, combatants) -> list[PendingDefence]:
    """Every attack of ``combat`` waiting for a defence, in the order of the combatants."""
    return [found for c in combatants if (found := pending_of(combat, c)) is not None]


def _authorize_answer(combatant: Combatant):
    def check(user) -> None:
        character = combatant.character
        if not has_a_player(combatant) or not character.is_owned_by(user):
            raise ServiceError(
                ONLY_THE_PLAYER_ANSWERS.format(name=combatant.name), code="forbidden"
            )

    return check


@transaction.atomic
def defence_answer(
    *,
    combat: Combat,
    combatant: Combatant,
    user,
    answer: str,
    parry_weapon: int | None = None,
    retreat: bool = False,
    request_key: str = "",
) -> CombatEvent:
    """The jogador's answer to the attack that waits for his character's defence (§4.6):
    ``answer`` one of ANSWERS ("dodge", "parry" with ``parry_weapon`` the weapon line,
    "block", or "none" — «não me defendo», the PD alone), ``retreat`` +3 once a round where he
    may (§4.7). It resolves the attack (defence roll, damage, injury: §4.10 rows 5–10).

    Only the character's jogador answers (ServiceError "forbidden"); the same ``request_key``
    again returns the first answer's event; nothing pending is ServiceError
    "no_pending_defence"; an answer he cannot give now names its field, and nothing is
    rolled."""
    combat, replay = tracker_begin(
        combat,
        user=user,
        request_key=request_key,
        kind=CombatEvent.Kind.DEFENCE,
        ended=COMBAT_ENDED,
        code="combat_ended",
        authorize=_authorize_answer(combatant),
    )
    if replay is not None:
        return replay
    d = Combatant.objects.select_related("character").get(pk=combatant.pk, combat=combat)
    if answer not in ANSWERS:
        raise ServiceError(UNKNOWN_ANSWER, field="answer")
    if not d.pending_defence:
        raise ServiceError(
            NO_DEFENCE_PENDING.format(name=d.name), field="answer", code="no_pending_defence"
        )
    attacker = d.pending_defence["attacker_name"]
    if answer == "none":
        spec, said = DefenceSpec(), NOT_DEFENDING.format(name=d.name)
    else:
        spec = DefenceSpec(defences=(answer,), parry_weapon=parry_weapon, retreat=bool(retreat))
        said = ANSWERED.format(
            name=d.name,
            defence=ANSWERS[answer],
            retreat=", recuando" if retreat else "",
            attacker=attacker,
        )
    return pending_resolve(combat, user, d, spec, [said], request_key=request_key[:64])


def _overdue(combat: Combat, d: Combatant, now: datetime) -> bool:
    if not d.pending_defence or combat.defence_wait_minutes is None:
        return False
    until = _until(combat, datetime.fromisoformat(d.pending_defence["since"]))
    return until is not None and until <= now


def defences_overdue_apply(combat: Combat) -> int:
    """Apply the standing choice (or the best total) for every defence whose time ran out
    (§4.6), saying so in the log; called when the combat is read or acted on — there is no
    background job. Returns how many were applied. Locks the combat only when one is due."""
    if combat.defence_wait_minutes is None or not combat.is_active:
        return 0
    now = timezone.now()
    waiting = Combatant.objects.filter(combat=combat).exclude(pending_defence={})
    if not any(_overdue(combat, c, now) for c in waiting):
        return 0
    done = 0
    with transaction.atomic():
        fresh = tracker_lock(combat, "first_roll")
        for d in Combatant.objects.select_related("character").filter(combat=fresh):
            if not _overdue(fresh, d, now):
                continue
            since = datetime.fromisoformat(d.pending_defence["since"])
            line = DEADLINE_PASSED.format(
                name=d.name,
                minutes=fresh.defence_wait_minutes,
                since=timezone.localtime(since).strftime("%H:%M"),
            )
            asked_by = get_user_model().objects.get(pk=d.pending_defence["by"])
            pending_resolve(fresh, asked_by, d, None, [line])
            done += 1
    combat.refresh_from_db()
    return done


@transaction.atomic
def defence_wait_set(
    *, combat: Combat, user, minutes: int | None, request_key: str = ""
) -> CombatEvent:
    """The Mestre's time for a jogador's answer (§4.6), in minutes (0–1440; None: the fight
    waits). Only the Mestre or the Árbitro."""
    combat, replay = tracker_begin(
        combat,
        user=user,
        request_key=request_key,
        kind=CombatEvent.Kind.ADJUSTMENT,
        ended=COMBAT_ENDED,
        code="combat_ended",
    )
    if replay is not None:
        return replay
    if minutes is not None and (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not 0 <= minutes <= MAX_WAIT_MINUTES
    ):
        raise ServiceError(BAD_WAIT, field="minutes")
    combat.defence_wait_minutes = minutes
    text = (
        "O combate espera a defesa de cada jogador, sem prazo (§4.6)."
        if minutes is None
        else f"Prazo para a defesa de um jogador: {minutes} min; depois vale a escolha que ele "
        "deixou, ou a de maior total (§4.6)."
    )
    return tracker_event(
        combat,
        user=user,
        kind=CombatEvent.Kind.ADJUSTMENT,
        text=text,
        data={"defence_wait_minutes": minutes},
        request_key=request_key,
        update_fields=["defence_wait_minutes"],
        round=combat.round,
        turn=combat.turn,
    )


def answer_of(option: str) -> tuple[str, int | None, bool]:
    """A page's answer button (``"parry:0:1"``: answer, parry weapon line, retreat) as the
    service takes it. Raises ServiceError("answer") for anything else."""
    parts = (option or "").split(":")
    if len(parts) != 3 or parts[0] not in ANSWERS or parts[2] not in ("0", "1"):
        raise ServiceError(UNKNOWN_ANSWER, field="answer")
    weapon = None
    if parts[1]:
        if not parts[1].isdigit():
            raise ServiceError(UNKNOWN_ANSWER, field="answer")
        weapon = int(parts[1])
    return parts[0], weapon, parts[2] == "1"
