"""A Xuleta character's rests, asked by the Mestre in an exploration (issue 22, item 5; Xuleta
«§6 Descansar»): the short rest's hit dice, one at a time, each rolled by the server into the
scene's chain (kind ``hit_die``), and the long rest with every line of its section
(``xuleta.rest``), the result written to the character's state
(``sheets.ruleset_data.data_state_write``) and told in the scene's log (a narration).

``exploration_rest(exploration=, user=, character=, kind=, hit_dice=, strenuous_minutes=,
ends_at=, request_key=)`` → ``Rested``. ``kind``: ``short`` or ``long`` (``REST_KINDS``);
``ends_at``: the minute of the campaign's clock the long rest ends at (default: the
exploration's clock, ``native.clock_minutes``, plus the 8 hours). Errors: ``ServiceError``
(Portuguese, naming the field). The same ``request_key`` twice rests once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from campaigns.errors import ServiceError
from rulesets.registry import rule_errors
from sessions import entries
from sessions.exploration import native
from sessions.log import chain
from sessions.log import services as log_services
from sessions.models import Exploration, Narration, Roll

SHORT, LONG = "short", "long"
REST_KINDS = {SHORT: "Descans curt", LONG: "Descans llarg"}
HIT_DIE_KIND = "hit_die"
MAX_HIT_DICE = 20
# How far past the exploration's clock a long rest may be said to end (the Mestre records
# rests ahead of the clock; an absurd minute would refuse every later one for 24 h of it).
MAX_AHEAD_MINUTES = 30 * 24 * 60
ENDS_TOO_LATE = (
    "O descanso longo acaba no máximo no minuto {latest} (o relógio da exploração, {now}, "
    "mais 30 dias); veio {got}."
)

NOT_XULETA = (
    "Os descansos da Xuleta (dados de vida, descanso longo) são de uma campanha da Xuleta; esta "
    "campanha joga outro sistema."
)
KIND_UNKNOWN = "Tipo de descanso: short (Descans curt) ou long (Descans llarg); veio «{kind}»."
NO_CHARACTER = "«{name}» não está na cena com uma ficha homologada."
HIT_DICE_BAD = "«hit_dice»: quantos dados de vida gastar, de 1 a {most}, um de cada vez."


@dataclass
class Rested:
    """What a rest did: the character, the kind, the log's lines, the hit-die rolls, the state
    after, and whether it was a replay of the same request."""

    character: str
    kind: str
    lines: list[str]
    rolls: list[Roll] = field(default_factory=list)
    state: dict = field(default_factory=dict)
    replayed: bool = False


def _earlier(exploration: Exploration, request_key: str, name: str, kind: str) -> Rested | None:
    if not request_key:
        return None
    told = Narration.objects.filter(scene=exploration.scene, request_key=request_key).first()
    if told is None:
        return None
    rolls = list(
        Roll.objects.filter(
            campaign=exploration.scene.week.campaign, request_key__startswith=f"{request_key}:"
        ).order_by("sequence")
    )
    sheet = native.sheet_of(exploration, name)
    state = sheet.state if sheet else {}
    return Rested(name, kind, told.text.splitlines(), rolls, state, replayed=True)


@transaction.atomic
def exploration_rest(
    *,
    exploration: Exploration,
    user,
    character: str,
    kind: str,
    hit_dice: int = 1,
    strenuous_minutes: int = 0,
    ends_at: int | None = None,
    ate_and_drank: bool | None = None,
    request_key: str = "",
) -> Rested:
    """Rest ``character`` (a name of the scene with a homologated Xuleta sheet).

    - ``short``: spend ``hit_dice`` hit dice, one at a time: «tira cadascun, suma el teu mod. de
      Constitució i recuperes aquests PC» (§6.1); each die a roll in the chain.
    - ``long``: §6.2 — every PC, the hit dice up to half, the spell slots, exhaustion −1 if he
      ate and drank (``ate_and_drank`` in his state), temporary PC gone; refused under 1 PC or
      within 24 h of the last; ``strenuous_minutes`` ≥ 60 of fighting, walking or casting: it
      does not count. ``ate_and_drank``: the Mestre says whether he ate and drank (None: the
      state's flag, which the journey's Descansar sets)."""
    request_key = (request_key or "")[:50]
    campaign = exploration.scene.week.campaign
    entries.require_table(user, campaign)
    if not native.is_native(campaign):
        raise ServiceError(NOT_XULETA, field="exploration")
    if kind not in REST_KINDS:
        raise ServiceError(KIND_UNKNOWN.format(kind=kind), field="kind")
    earlier = _earlier(exploration, request_key, character, kind)
    if earlier is not None:
        return earlier
    sheet = native.sheet_of(exploration, character)
    if sheet is None:
        raise ServiceError(NO_CHARACTER.format(name=character), field="character")
    entries.ensure_scene_accepts_entries(exploration.scene)
    numbers = sheet.numbers
    rules = native.part(campaign)
    lines: list[str] = []
    rolls: list[Roll] = []
    try:
        if kind == SHORT:
            if isinstance(hit_dice, bool) or not isinstance(hit_dice, int):
                raise ServiceError(HIT_DICE_BAD.format(most=MAX_HIT_DICE), field="hit_dice")
            if not 1 <= hit_dice <= MAX_HIT_DICE:
                raise ServiceError(HIT_DICE_BAD.format(most=MAX_HIT_DICE), field="hit_dice")
            left = rules.hit_dice_left(numbers, sheet.state)
            if hit_dice > left:
                raise ServiceError(
                    rules.no_hit_dice.format(
                        spent=sheet.state.get("hit_dice_spent", 0), total=numbers["hit_dice"]
                    )
                    + f" Pedidos {hit_dice}, restam {left}.",
                    field="hit_dice",
                )
            source = entries.dice_source()
            lines.append(
                f"Descans curt de {character} (§6.1): gasta {hit_dice} dado(s) de vida, um de "
                "cada vez."
            )
            state = sheet.state
            full = rules.current_hp(numbers, {**state, "hp_lost": 0})
            for n in range(1, hit_dice + 1):
                before = rules.current_hp(numbers, state)
                if before >= full:
                    # «tira cadascun»: one at a time, so one stops when the PC are full.
                    lines.append(
                        f"{character} já está com os PC no máximo ({before} de {full}): para "
                        f"aqui, sem gastar {hit_dice - n + 1} dado(s) de vida."
                    )
                    break
                state, die = rules.spend_hit_die(source, numbers, state)
                after = rules.current_hp(numbers, state)
                roll = chain.append_roll(
                    campaign=campaign,
                    scene=exploration.scene,
                    character=sheet.character,
                    label=f"Dau de cop (d{die.sides}) + Constitució",
                    kind=HIT_DIE_KIND,
                    dice=[die.face],
                    total=die.total,
                    details={
                        "ruleset": "xuleta5e",
                        "rest": SHORT,
                        "sides": die.sides,
                        "modifier": die.modifier,
                        "healed": die.healed,
                        "hp": [before, after],
                    },
                    rolled_by=user,
                    request_key=f"{request_key}:{n}" if request_key else "",
                )
                rolls.append(roll)
                lines.append(
                    f"#{roll.sequence}: d{die.sides} {die.face} "
                    f"{'+' if die.modifier >= 0 else '−'} {abs(die.modifier)} = {die.total} → "
                    f"recupera {die.healed} PC ({before} → {after} de {numbers['max_hp']})."
                    + (" Torna en si." if die.woke else "")
                )
            sheet.state = state
        else:
            now = native.clock_minutes(exploration)
            if ends_at is None:
                ends_at = now + rules.rest_minutes
            elif ends_at > now + MAX_AHEAD_MINUTES:  # it would lock every later rest out
                raise ServiceError(
                    ENDS_TOO_LATE.format(latest=now + MAX_AHEAD_MINUTES, now=now, got=ends_at),
                    field="ends_at",
                )
            before = dict(sheet.state)
            if ate_and_drank is not None:
                before["ate_and_drank"] = bool(ate_and_drank)
            state, done = rules.long_rest(
                numbers, before, ends_at=ends_at, strenuous_minutes=strenuous_minutes
            )
            lines.append(f"Descans llarg de {character} (§6.2), acaba no minuto {ends_at}.")
            lines += list(done.lines) if done.completed else [done.why]
            sheet.state = state
    except rule_errors() as refused:
        raise ServiceError(refused.message, field=refused.field or "kind") from None
    sheet.write()
    log_services.narration_create(
        scene=exploration.scene, user=user, text="\n".join(lines), request_key=request_key
    )
    return Rested(character, kind, lines, rolls, sheet.state)
