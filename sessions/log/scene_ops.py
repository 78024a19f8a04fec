"""What the table does to a scene as a whole, beside its log's entries: the trackers that ran in
it (its combats and descents), closing it, and the PV and fatigue its characters lose or recover
outside a fight (``StateChange``: the Pânico's −1 PV, §5b; a journey's fatigue, §6.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction

from campaigns import doorbell
from campaigns.errors import ServiceError
from campaigns.models import Campaign
from rulesets.base import RulesetError
from rulesets.registry import UnknownRuleset, ruleset_for
from sessions import entries
from sessions.models import Combat, Combatant, Exploration, Roll, Scene, StateChange
from sheets import ruleset_data
from sheets.models import Character
from sheets.reads import homologated_version, state_of

# Messages are constants so tests import them instead of repeating them.
COMBAT_RUNNING = (
    "O combate desta cena ainda está em andamento (rodada {round}): encerre-o antes de encerrar "
    "a cena."
)
EXPLORATION_RUNNING = (
    "A exploração desta cena ainda está em andamento (turno {turn}): encerre-a antes de encerrar "
    "a cena."
)
CHANGE_NOTHING = "Diga quantos PV ou quanta fadiga a personagem perde ou recupera: os dois são 0."
CHANGE_NOT_AN_INTEGER = "Um número inteiro de pontos, sem casas decimais."
CHANGE_OUT_OF_RANGE = "Entre −{limit} e {limit} pontos."
REASON_NEEDED = "Diga o motivo da mudança (p.ex. «Pânico», «marcha de 4 horas»)."
CHARACTER_NOT_IN_SCENE = "Esta personagem não está na cena."
CHARACTER_IN_COMBAT = (
    "{name} está num combate em andamento: o que o combate faz aos PV é o ajuste do Mestre no "
    "combate."
)
CHARACTER_DEAD = "{name} está morto (§5.4): o estado não muda mais."
NO_SHEET = "{name} ainda não tem ficha homologada: sem ST não há conta de fadiga (§6.2)."
HP_RECOVERY_TOO_MUCH = "{name} perdeu {lost} PV: não recupera {asked} (§5.6)."
FATIGUE_RECOVERY_TOO_MUCH = "{name} tem {lost} de fadiga: não recupera {asked} (§6.3)."
ROLL_OTHER_SCENE = "Esta rolagem não é desta cena."

CHANGE_LIMIT = 100


# --- the trackers of a scene ------------------------------------------------------------------


@dataclass(frozen=True)
class TrackerRow:
    """One combat or descent of a scene: ``kind`` "combat" (a GURPS-shaped tracker's,
    ``combat_read``), "fight" (a fight its ruleset plays whole — the sistema001's,
    ``fight_read``) or "exploration", ``state`` "running" or "ended"; ``round`` the combat's
    round (None for a descent), ``turn`` the descent's exploration turns, or the fight's turn
    (the 1-based place in its order of whose turn it is; None for a GURPS combat)."""

    kind: str
    code: object
    state: str
    round: int | None
    turn: int | None
    started_at: datetime
    ended_at: datetime | None


def _plays_whole(ruleset_key: str) -> bool:
    """Whether the ruleset's combat part plays a fight whole (``native``: the sistema001's)."""
    try:
        part = ruleset_for(ruleset_key).combat
    except UnknownRuleset:  # a GURPS-shaped combat, as the column's default
        return False
    return part is not None and bool(getattr(part, "native", False))


def scene_trackers(scene: Scene) -> list[TrackerRow]:
    """The scene's combats and descents, oldest first (2 queries). A combat its ruleset plays
    whole is a "fight" with its turn: its id is for ``fight_read`` (/fights), not
    ``combat_read``."""
    rows = [
        TrackerRow(
            "fight" if _plays_whole(c.ruleset) else "combat",
            c.code,
            "running" if c.is_active else "ended",
            c.round,
            c.turn if _plays_whole(c.ruleset) else None,
            c.created_at,
            c.ended_at,
        )
        for c in Combat.objects.filter(scene=scene)
    ]
    rows += [
        TrackerRow(
            "exploration",
            e.code,
            "running" if e.is_active else "ended",
            None,
            e.turn,
            e.created_at,
            e.ended_at,
        )
        for e in Exploration.objects.filter(scene=scene)
    ]
    rows.sort(key=lambda r: r.started_at)
    return rows


# --- closing a scene ----------------------------------------------------------------------------


@transaction.atomic
def scene_close(*, scene: Scene, user) -> Scene:
    """The Mestre (or the Árbitro) closes the scene: nothing more enters its log (declarations,
    announcements, rolls, narration, state changes: ``entries.SCENE_CLOSED``). Refused while a
    combat or a descent of the scene is running (COMBAT_RUNNING, EXPLORATION_RUNNING, code
    "tracker_running"). Closing a closed scene changes nothing."""
    entries.require_table(user, scene.week.campaign, what=entries.CLOSES_SCENE)
    # The chain's lock: a combat started at the same moment either sees the scene closed or
    # is seen running here.
    Campaign.objects.select_for_update().get(pk=scene.week.campaign_id)
    fresh = Scene.objects.select_related("week__campaign").get(pk=scene.pk)
    if not fresh.is_open:
        return fresh
    combat = Combat.objects.filter(scene=fresh, status=Combat.Status.ACTIVE).first()
    if combat is not None:
        raise ServiceError(COMBAT_RUNNING.format(round=combat.round), code="tracker_running")
    exploration = Exploration.objects.filter(scene=fresh, status=Exploration.Status.ACTIVE).first()
    if exploration is not None:
        raise ServiceError(
            EXPLORATION_RUNNING.format(turn=exploration.turn), code="tracker_running"
        )
    fresh.status = Scene.Status.CLOSED
    fresh.save(update_fields=["status"])
    doorbell.ring_scene(fresh)
    return fresh


# --- PV and fatigue outside a fight -------------------------------------------------------------


def _points(value, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ServiceError(CHANGE_NOT_AN_INTEGER, field=field)
    if not -CHANGE_LIMIT <= value <= CHANGE_LIMIT:
        raise ServiceError(CHANGE_OUT_OF_RANGE.format(limit=CHANGE_LIMIT), field=field)
    return value


def _check_character(scene: Scene, character: Character) -> None:
    if not scene.characters.filter(pk=character.pk).exists():
        raise ServiceError(CHARACTER_NOT_IN_SCENE, field="character")
    fighting = Combatant.objects.filter(
        character=character, combat__status=Combat.Status.ACTIVE
    ).exists()
    if fighting:
        raise ServiceError(CHARACTER_IN_COMBAT.format(name=character.name), field="character")


def _apply(character: Character, hp: int, fatigue: int) -> None:
    """Write the change into the character's state (docs/DESIGN.md,
    invariant 12 (The state is live)), through the engine: a recovery never past what was lost
    (refused), fatigue never past ST (§6.2). A ruleset that keeps the state as JSON (the
    Xuleta) changes it by its sheets part's ``state_change``."""
    state = state_of(character)
    sheets = ruleset_for(character.campaign.ruleset).part("sheets")
    if sheets.state_model is not None:
        _apply_data(character, sheets, state, hp, fatigue)
        return
    if state.dead:
        raise ServiceError(CHARACTER_DEAD.format(name=character.name), field="character")
    if hp > 0 and hp > state.hp_lost:
        raise ServiceError(
            HP_RECOVERY_TOO_MUCH.format(name=character.name, lost=state.hp_lost, asked=hp),
            field="hp",
        )
    if fatigue > 0 and fatigue > state.fatigue_lost:
        raise ServiceError(
            FATIGUE_RECOVERY_TOO_MUCH.format(
                name=character.name, lost=state.fatigue_lost, asked=fatigue
            ),
            field="fatigue",
        )
    sheet = None
    if fatigue < 0:
        version = homologated_version(character)
        if version is None:
            raise ServiceError(NO_SHEET.format(name=character.name), field="character")
        sheet = version.check_data(state)
    changed = (
        ruleset_for(character.campaign.ruleset)
        .part("sheets")
        .state_change(
            sheet, {"hp_lost": state.hp_lost, "fatigue_lost": state.fatigue_lost}, hp, fatigue
        )
    )
    state.hp_lost, state.fatigue_lost = changed["hp_lost"], changed["fatigue_lost"]
    state.save(update_fields=["hp_lost", "fatigue_lost", "updated_at"])


def _apply_data(character: Character, sheets, state, hp: int, fatigue: int) -> None:
    data = ruleset_data.data_state(character)
    if data.get("dead"):
        raise ServiceError(CHARACTER_DEAD.format(name=character.name), field="character")
    version = homologated_version(character)
    sheet = version.check_data(state, name=character.name) if version else None
    try:
        changed = sheets.state_change(sheet, data, hp, fatigue)
    except RulesetError as error:
        raise ServiceError(error.message, field=error.field or "hp") from None
    ruleset_data.data_state_write(character=character, data=changed)


def state_change_create(
    *,
    scene: Scene,
    user,
    character: Character,
    hp: int = 0,
    fatigue: int = 0,
    reason: str,
    roll: Roll | None = None,
    request_key: str = "",
) -> StateChange:
    """The Mestre says a character of the scene loses or recovers PV or fatigue outside a fight
    (``hp``, ``fatigue``: signed points, negative lost; at most ±100 each, not both 0), and
    why. Written into the state at once and into the scene log. Refused: a character not in
    the scene, in a running combat (its PV are the combat's), dead, or without a homologated
    sheet for fatigue (ST); a recovery of more than was lost. The same ``request_key`` twice
    changes once."""
    request_key = (request_key or "")[:64]
    entries.require_table(user, scene.week.campaign, what=entries.CLOSES_SCENE)
    hp = _points(hp, "hp")
    fatigue = _points(fatigue, "fatigue")
    reason = (reason or "").strip()[:300]
    same = {"character_id": character.pk, "hp": hp, "fatigue": fatigue, "reason": reason}
    queryset = StateChange.objects.filter(scene=scene)
    existing = entries.entry_replayed(queryset, request_key, user, **same)
    if existing is not None:
        return existing
    entries.ensure_scene_accepts_entries(scene)
    if hp == 0 and fatigue == 0:
        raise ServiceError(CHANGE_NOTHING, field="hp")
    if not reason:
        raise ServiceError(REASON_NEEDED, field="reason")
    if roll is not None and roll.scene_id != scene.pk:
        raise ServiceError(ROLL_OTHER_SCENE, field="roll")
    _check_character(scene, character)
    try:
        with transaction.atomic():
            Campaign.objects.select_for_update().get(pk=scene.week.campaign_id)
            _apply(character, hp, fatigue)
            doorbell.ring_scene(scene)
            return StateChange.objects.create(
                scene=scene,
                character=character,
                hp=hp,
                fatigue=fatigue,
                reason=reason,
                roll=roll,
                author=user,
                request_key=request_key,
            )
    except IntegrityError:
        # The same request twice at once: the other one wrote it.
        return entries.entry_replayed(queryset, request_key, user, **same)
