"""The week through the API (``/weeks``): weeks, world actions, new scenes, the weekly report
with its homologation and corrections, the Boletim, the week's export.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Field, Header, Router, Schema, Status

from campaigns.access import membership_for
from campaigns.api_errors import errors
from campaigns.auth import gated
from campaigns.errors import ServiceError
from campaigns.models import Campaign, Membership
from sessions import entries
from sessions.log import services as log_services
from sessions.log.api import CharacterRef, SceneOut
from sessions.models import Week, WorldAction
from sessions.weeks import services
from sheets.models import Character

# Permission first (issue 27): every write's access is checked in its authentication,
# before its body is validated or its Idempotency-Key replayed.
router = Router(auth=gated(lambda request, user: _table_first(request)))

ARBITRO_WRITES = ("/report/homologate", "/report/return", "/report/corrections")
WHAT_BY_END = {
    "/scenes": entries.OPENS_SCENES,
    "/resolve": entries.RESOLVES_WORLD_ACTIONS,
    "/report": entries.WRITES_REPORT,
    "/report/submit": entries.WRITES_REPORT,
}


class WorldActionIn(Schema, extra="forbid"):
    character: UUID
    text: str = Field(min_length=1, max_length=4000)


class WorldActionOut(Schema):
    id: UUID
    character: CharacterRef
    ordinal: int
    text: str
    author: str
    created_at: datetime
    resolution: str = Field(description="O que veio da ação, dito pela mesa; vazio até então")
    resolved_by: str | None
    resolved_at: datetime | None


class WorldActionResolveIn(Schema, extra="forbid"):
    resolution: str = Field(
        min_length=1, max_length=4000, description="O que veio da ação de mundo"
    )


class SceneIn(Schema, extra="forbid"):
    title: str = Field(min_length=1, max_length=200)
    floor: int | None = Field(default=None, ge=1, le=999)
    terrain: str = Field(default="", max_length=200)
    boss: str = Field(default="", max_length=200)
    characters: list[UUID] = Field(default=[], max_length=50)


class ReportCorrectionOut(Schema):
    old_text: str
    new_text: str
    reason: str
    by: str
    at: datetime


class ReportOut(Schema):
    status: str
    text: str | None = None
    current_text: str | None = None
    decided_at: datetime | None = None
    corrections: list[ReportCorrectionOut] | None = None


class WeekOut(Schema):
    campaign: str
    week: int
    state: str
    opened_at: datetime | None
    bulletin: str | None
    bulletin_published_at: datetime | None


class WeekSceneOut(Schema):
    id: UUID
    title: str
    status: str


class WeekDetailOut(WeekOut):
    world_actions: list[WorldActionOut]
    report: ReportOut | None
    scenes: list[WeekSceneOut]


class ReportIn(Schema, extra="forbid"):
    text: str = Field(min_length=1, max_length=50_000)


class ReasonIn(Schema, extra="forbid"):
    reason: str = Field(min_length=1, max_length=4000)


class ReportCorrectionIn(Schema, extra="forbid"):
    new_text: str = Field(min_length=1, max_length=50_000)
    reason: str = Field(min_length=1, max_length=4000)


class BulletinIn(Schema, extra="forbid"):
    text: str = Field(min_length=1, max_length=50_000)


def _table_first(request) -> None:
    """The week's writes are the table's — a world action its character's owner's (its
    service says so), the report's homologation, return and corrections the Árbitro's."""
    kwargs = request.resolver_match.kwargs
    path = request.path.rstrip("/")
    if path.endswith("/world-actions"):
        return
    if "number" not in kwargs:  # opening the next week
        membership = membership_for(
            request.user, get_object_or_404(Campaign, slug=kwargs["campaign"])
        )
        if membership is None:
            raise Http404
    else:
        _, membership = _get_week(request, kwargs["campaign"], kwargs["number"])
    if path.endswith(ARBITRO_WRITES):
        if membership.role != Membership.Role.ARBITRO:
            raise ServiceError(entries.ONLY_THE_ARBITRO, code="forbidden")
        return
    if not membership.runs_the_table:
        what = next(
            (w for end, w in WHAT_BY_END.items() if path.endswith(end)), entries.OPENS_WEEKS
        )
        raise ServiceError(entries.ONLY_THE_TABLE.format(what=what), code="forbidden")


def _get_week(request, slug: str, number: int) -> tuple[Week, Membership]:
    campaign = get_object_or_404(Campaign, slug=slug)
    membership = membership_for(request.user, campaign)
    if membership is None:
        raise Http404  # as for an id that does not exist: it confirms nothing
    week = get_object_or_404(
        Week.objects.select_related("campaign", "report"), campaign=campaign, number=number
    )
    return week, membership


# --- /weeks -----------------------------------------------------------------------------------


def _week_out(week: Week) -> dict:
    return {
        "campaign": week.campaign.slug,
        "week": week.number,
        "state": week.state,
        "opened_at": week.opened_at,
        "bulletin": week.bulletin if week.bulletin_published_at else None,
        "bulletin_published_at": week.bulletin_published_at,
    }


def _week_detail(request, week: Week, membership: Membership) -> dict:
    data = services.week_export(week, membership=membership, user=request.user)
    return {
        **_week_out(week),
        "world_actions": data["world_actions"],
        "report": data["report"],
        "scenes": [
            {"id": s["scene"]["id"], "title": s["scene"]["title"], "status": s["scene"]["status"]}
            for s in data["scenes"]
        ],
    }


@router.get(
    "",
    response={200: list[WeekOut], **errors(401)},
    summary="As semanas das campanhas de quem pergunta",
)
def week_list(request):
    campaign_ids = Membership.objects.filter(user=request.user).values("campaign_id")
    weeks = Week.objects.filter(campaign_id__in=campaign_ids).select_related("campaign", "report")
    return [_week_out(w) for w in weeks.order_by("campaign__slug", "number")]


@router.post(
    "/{slug:campaign}",
    response={201: WeekOut, **errors(401, 403, 404, 422)},
    summary="Abre a próxima semana (só depois do Boletim da anterior)",
)
def week_open(request, campaign: str, number: int | None = None):
    """``?number=N`` names the week meant: asked twice, it is opened once."""
    found = get_object_or_404(Campaign, slug=campaign)
    if membership_for(request.user, found) is None:
        raise Http404  # as for an id that does not exist: it confirms nothing
    week = services.week_open(campaign=found, user=request.user, number=number)
    return Status(201, _week_out(week))


@router.get(
    "/{slug:campaign}/{int:number}",
    response={200: WeekDetailOut, **errors(401, 404)},
    summary="A semana: estado, ações de mundo, relatório (quando visível), Boletim, cenas",
)
def week_detail(request, campaign: str, number: int):
    week, membership = _get_week(request, campaign, number)
    return _week_detail(request, week, membership)


@router.get(
    "/{slug:campaign}/{int:number}/export",
    response={200: dict[str, Any], **errors(401, 404)},
    summary="A semana inteira em JSON, com toda cena e toda rolagem que quem pergunta pode ver",
)
def week_export(request, campaign: str, number: int):
    week, membership = _get_week(request, campaign, number)
    return services.week_export(week, membership=membership, user=request.user)


@router.post(
    "/{slug:campaign}/{int:number}/world-actions",
    response={201: WorldActionOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="O jogador gasta uma ação de mundo da sua personagem (três por semana)",
)
def world_action_create(
    request,
    campaign: str,
    number: int,
    payload: WorldActionIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    week, _ = _get_week(request, campaign, number)
    character = Character.objects.filter(campaign=week.campaign, code=payload.character).first()
    if character is None:
        raise ServiceError(services.NOT_YOUR_CHARACTER_WORLD, field="character", code="forbidden")
    action = services.world_action_create(
        week=week,
        character=character,
        user=request.user,
        text=payload.text,
        request_key=idempotency_key,
    )
    return Status(201, services.world_action_data(action))


@router.get(
    "/{slug:campaign}/{int:number}/world-actions",
    response={200: list[WorldActionOut], **errors(401, 404)},
    summary="As ações de mundo da semana, com o que veio de cada uma",
)
def world_action_list(request, campaign: str, number: int):
    week, _ = _get_week(request, campaign, number)
    return [
        services.world_action_data(action)
        for row in services.week_world_actions(week)
        for action in row.actions
    ]


@router.post(
    "/{slug:campaign}/{int:number}/world-actions/{uuid:code}/resolve",
    response={200: WorldActionOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="O Mestre diz o que veio de uma ação de mundo (uma vez)",
)
def world_action_resolve(
    request, campaign: str, number: int, code: UUID, payload: WorldActionResolveIn
):
    week, _ = _get_week(request, campaign, number)
    action = get_object_or_404(
        WorldAction.objects.select_related("week__campaign", "character", "author"),
        week=week,
        code=code,
    )
    action = services.world_action_resolve(
        action=action, user=request.user, resolution=payload.resolution
    )
    return services.world_action_data(action)


@router.post(
    "/{slug:campaign}/{int:number}/scenes",
    response={201: SceneOut, **errors(400, 401, 403, 404, 409, 422)},
    summary="Abre uma cena na semana (cenas livres são ilimitadas)",
)
def scene_create(
    request,
    campaign: str,
    number: int,
    payload: SceneIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    week, _ = _get_week(request, campaign, number)
    characters = list(Character.objects.filter(code__in=payload.characters))
    if len(characters) != len(set(payload.characters)):
        raise ServiceError(log_services.SCENE_CHARACTER_OUTSIDE, field="characters")
    scene = log_services.scene_create(
        week=week,
        user=request.user,
        title=payload.title,
        floor=payload.floor,
        terrain=payload.terrain,
        boss=payload.boss,
        characters=characters,
        request_key=idempotency_key,
    )
    return Status(
        201,
        {
            "id": scene.code,
            "title": scene.title,
            "campaign": week.campaign.slug,
            "week": week.number,
            "status": scene.status,
            "characters": [{"id": c.code, "name": c.name} for c in scene.characters.all()],
        },
    )


def _report_answer(request, week: Week):
    week = Week.objects.select_related("campaign", "report").get(pk=week.pk)
    membership = membership_for(request.user, week.campaign)
    return _week_detail(request, week, membership)


@router.put(
    "/{slug:campaign}/{int:number}/report",
    response={200: WeekDetailOut, **errors(400, 401, 403, 404, 422)},
    summary="O Mestre escreve (ou reescreve) o relatório da semana",
)
def report_write(request, campaign: str, number: int, payload: ReportIn):
    week, _ = _get_week(request, campaign, number)
    services.report_write(week=week, user=request.user, text=payload.text)
    return _report_answer(request, week)


@router.post(
    "/{slug:campaign}/{int:number}/report/submit",
    response={200: WeekDetailOut, **errors(401, 403, 404, 422)},
    summary="O Mestre envia o relatório ao Árbitro",
)
def report_submit(request, campaign: str, number: int):
    week, _ = _get_week(request, campaign, number)
    services.report_submit(week=week, user=request.user)
    return _report_answer(request, week)


@router.post(
    "/{slug:campaign}/{int:number}/report/homologate",
    response={200: WeekDetailOut, **errors(401, 403, 404, 422)},
    summary="O Árbitro homologa o relatório: as rolagens escondidas da semana aparecem",
)
def report_homologate(request, campaign: str, number: int):
    week, _ = _get_week(request, campaign, number)
    services.report_homologate(week=week, user=request.user)
    return _report_answer(request, week)


@router.post(
    "/{slug:campaign}/{int:number}/report/return",
    response={200: WeekDetailOut, **errors(400, 401, 403, 404, 422)},
    summary="O Árbitro devolve o relatório, com o motivo",
)
def report_return(request, campaign: str, number: int, payload: ReasonIn):
    week, _ = _get_week(request, campaign, number)
    services.report_return(week=week, user=request.user, reason=payload.reason)
    return _report_answer(request, week)


@router.post(
    "/{slug:campaign}/{int:number}/report/corrections",
    response={201: ReportCorrectionOut, **errors(400, 401, 403, 404, 422)},
    summary="O Árbitro corrige um relatório homologado (nova entrada; o texto antigo fica)",
)
def report_correct(request, campaign: str, number: int, payload: ReportCorrectionIn):
    week, _ = _get_week(request, campaign, number)
    correction = services.report_correct(
        week=week, user=request.user, new_text=payload.new_text, reason=payload.reason
    )
    return Status(
        201,
        {
            "old_text": correction.old_text,
            "new_text": correction.new_text,
            "reason": correction.reason,
            "by": correction.by.get_username(),
            "at": correction.at,
        },
    )


@router.post(
    "/{slug:campaign}/{int:number}/bulletin",
    response={200: WeekOut, **errors(400, 401, 403, 404, 422)},
    summary="Publica o Boletim da semana (depois da homologação do relatório)",
)
def bulletin_publish(request, campaign: str, number: int, payload: BulletinIn):
    week, _ = _get_week(request, campaign, number)
    return _week_out(
        services.week_publish_bulletin(week=week, user=request.user, text=payload.text)
    )
