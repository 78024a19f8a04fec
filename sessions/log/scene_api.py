"""A scene as a whole through the API: its combats and descents, closing it, and the PV and
fatigue its characters lose or recover outside a fight. Mounted in garganta_site.api beside
``sessions.log.api`` under ``/scenes``; the services are ``sessions.log.scene_ops``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from ninja import Field, Header, Router, Schema, Status
from pydantic import StrictInt

from campaigns.api_errors import errors
from campaigns.auth import gated
from campaigns.errors import ServiceError
from sessions.access import get_scene
from sessions.log import scene_ops, timeline
from sessions.log.api import CharacterRef, SceneOut
from sessions.models import Roll
from sheets.reads import state_of

# Permission first (issue 27): every write's access is checked in its authentication,
# before its body is validated or its Idempotency-Key replayed.
router = Router(
    auth=gated(lambda request, user: _for_table(request, request.resolver_match.kwargs["code"]))
)

ONLY_THE_TABLE_CLOSES = "Só o Mestre de Cena ou o Árbitro encerram a cena ou mudam PV e fadiga."


class TrackerOut(Schema):
    """A combat or a descent of the scene (read it at /combats/{id}, /fights/{id} or
    /explorations/{id})."""

    kind: Literal["combat", "fight", "exploration"] = Field(
        description="combat: combate (GURPS: /combats, combat_read); fight: combate que o "
        "sistema da campanha conduz inteiro (Xuleta, Sistema 001: /fights, fight_read); "
        "exploration: exploração"
    )
    id: UUID
    state: Literal["running", "ended"] = Field(
        description="running: em andamento; ended: encerrado(a)"
    )
    round: int | None = Field(
        description="A rodada do combate (0: ainda sendo montado); null numa exploração"
    )
    turn: int | None = Field(
        description="Os turnos de exploração (10 min cada); num fight, o turno da rodada (a "
        "posição na ordem de quem age); null num combate GURPS"
    )
    started_at: datetime
    ended_at: datetime | None


class StateChangeIn(Schema, extra="forbid"):
    character: UUID = Field(description="A personagem da cena")
    hp: StrictInt = Field(
        default=0,
        ge=-100,
        le=100,
        description="PV: negativo perdido, positivo recuperado (§5.6). Na Xuleta, PC: o dano "
        "gasta antes os PC temporais e a cura não passa do máximo (Xuleta §5.5, §5.6)",
    )
    fatigue: StrictInt = Field(
        default=0,
        ge=-100,
        le=100,
        description="Fadiga (PF): negativo perdido, positivo recuperado (§6.1–6.3). Na Xuleta, "
        "sempre 0 (o esgotamento é um estado, não pontos)",
    )
    reason: str = Field(min_length=1, max_length=300, description="O motivo: «Pânico», «marcha»")
    roll: UUID | None = Field(
        default=None, description="A rolagem desta cena a que a mudança responde, se há uma"
    )


class StateNowOut(Schema):
    hp_lost: int
    fatigue_lost: int


class StateChangeOut(Schema):
    id: UUID
    type: Literal["state_change"]
    created_at: datetime
    character: CharacterRef
    author: str
    text: str = Field(description="A linha do registro: «Jurado: −1 PV (Pânico)»")
    hp: int
    fatigue: int
    reason: str
    answers_roll: UUID | None
    state: StateNowOut = Field(description="O estado da personagem logo depois da mudança")


def _for_table(request, code: UUID):
    scene, membership = get_scene(request, code)
    if not membership.runs_the_table:
        raise ServiceError(ONLY_THE_TABLE_CLOSES, code="forbidden")
    return scene


@router.get(
    "/{uuid:code}/trackers",
    response={200: list[TrackerOut], **errors(401, 404)},
    summary="Os combates e as explorações da cena, em andamento ou encerrados",
)
def scene_trackers(request, code: UUID):
    scene, _ = get_scene(request, code)
    return [
        {
            "kind": row.kind,
            "id": row.code,
            "state": row.state,
            "round": row.round,
            "turn": row.turn,
            "started_at": row.started_at,
            "ended_at": row.ended_at,
        }
        for row in scene_ops.scene_trackers(scene)
    ]


@router.post(
    "/{uuid:code}/close",
    response={200: SceneOut, **errors(401, 403, 404, 422)},
    summary="Encerra a cena (só Mestre ou Árbitro); recusado com combate ou exploração em andamento",
)
def scene_close(request, code: UUID):
    scene = scene_ops.scene_close(scene=_for_table(request, code), user=request.user)
    return {
        "id": scene.code,
        "title": scene.title,
        "campaign": scene.week.campaign.slug,
        "week": scene.week.number,
        "status": scene.status,
        "characters": [{"id": c.code, "name": c.name} for c in scene.characters.all()],
    }


@router.post(
    "/{uuid:code}/state-changes",
    response={201: StateChangeOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="PV e fadiga perdidos ou recuperados fora de combate (só Mestre ou Árbitro)",
)
def state_change_create(
    request,
    code: UUID,
    payload: StateChangeIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    """A personagem da cena perde ou recupera PV ou fadiga fora de um combate (o −1 PV do
    Pânico, §5b; a fadiga de uma marcha, §6.1): entra no estado na hora (a ficha e
    /sheets/{id} já mostram) e no registro da cena. Recusado: personagem fora da cena, num
    combate em andamento (use o ajuste do combate), morta, ou recuperando mais do que perdeu."""
    scene = _for_table(request, code)
    character = scene.characters.filter(code=payload.character).first()
    if character is None:
        raise ServiceError(scene_ops.CHARACTER_NOT_IN_SCENE, field="character")
    roll = None
    if payload.roll is not None:
        roll = Roll.objects.filter(scene=scene, code=payload.roll).first()
        if roll is None:
            raise ServiceError(scene_ops.ROLL_OTHER_SCENE, field="roll")
    change = scene_ops.state_change_create(
        scene=scene,
        user=request.user,
        character=character,
        hp=payload.hp,
        fatigue=payload.fatigue,
        reason=payload.reason,
        roll=roll,
        request_key=idempotency_key,
    )
    state = state_of(change.character)
    entry = timeline.LogEntry(
        "state_change", change.created_at, state_change=change, answers=change.roll
    )
    return Status(
        201,
        {
            **timeline.state_change_data(entry),
            "state": {"hp_lost": state.hp_lost, "fatigue_lost": state.fatigue_lost},
        },
    )
