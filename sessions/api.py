"""Scenes and rolls through the API: the Mestre's AI client asks the server to roll."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from django.shortcuts import get_object_or_404
from ninja import Field, Header, Router, Schema, Status
from ninja.errors import HttpError
from pydantic import StrictBool

from garganta_site.api import AUTH
from sessions import services
from sessions.models import Roll, Scene
from sheets.models import Membership
from sheets.services import ServiceError, membership_for

router = Router(auth=AUTH)


class CharacterRef(Schema):
    id: UUID
    name: str


class SceneOut(Schema):
    id: UUID
    title: str
    week: int
    status: str
    characters: list[CharacterRef]


class ModifierIn(Schema, extra="forbid"):
    label: str = Field(min_length=1, max_length=200)
    value: int = Field(ge=-50, le=50)


class RollIn(Schema, extra="forbid"):
    character: UUID | None = None
    label: str = Field(min_length=1, max_length=200)
    base_level: int = Field(ge=-50, le=50)
    kind: Literal["skill", "attribute", "defence"]
    modifiers: list[ModifierIn] = Field(default=[], max_length=20)
    hidden: StrictBool = False


class ModifierOut(Schema):
    label: str
    value: int


class RollOut(Schema):
    id: UUID
    sequence: int
    name: str
    label: str
    kind: str
    character: UUID | None
    hidden: bool
    base_level: int | None
    modifiers: list[ModifierOut] | None
    dice: list[int] | None
    total: int | None
    effective_level: int | None
    outcome: str | None
    margin: int | None
    hash: str
    previous_hash: str
    rolled_by: str
    created_at: datetime


def _roll_out(roll: Roll, *, masked: bool) -> dict:
    out = {
        "id": roll.code,
        "sequence": roll.sequence,
        "name": roll.name,
        "label": roll.label,
        "kind": roll.kind,
        "character": roll.character.code if roll.character_id else None,
        "hidden": roll.hidden,
        "base_level": roll.base_level,
        "modifiers": roll.modifiers,
        "dice": roll.dice,
        "total": roll.total,
        "effective_level": roll.effective_level,
        "outcome": roll.outcome,
        "margin": roll.margin,
        "hash": roll.hash,
        "previous_hash": roll.previous_hash,
        "rolled_by": roll.rolled_by.get_username(),
        "created_at": roll.created_at,
    }
    if masked:
        # A hidden roll's values show only after the weekly report is homologated (§1.6).
        for key in (
            "label",
            "kind",
            "base_level",
            "modifiers",
            "dice",
            "total",
            "effective_level",
            "outcome",
            "margin",
        ):
            out[key] = "" if key in ("label", "kind") else None
    return out


def _get_scene(request, code: UUID) -> tuple[Scene, Membership]:
    scene = get_object_or_404(Scene.objects.select_related("week__campaign"), code=code)
    membership = membership_for(request.user, scene.week.campaign)
    if membership is None:
        raise HttpError(404, "Cena não encontrada.")
    return scene, membership


@router.get("", response=list[SceneOut], summary="As cenas das campanhas de quem pergunta")
def scene_list(request):
    campaign_ids = Membership.objects.filter(user=request.user).values("campaign_id")
    scenes = (
        Scene.objects.filter(week__campaign_id__in=campaign_ids)
        .select_related("week")
        .prefetch_related("characters")
    )
    return [
        {
            "id": s.code,
            "title": s.title,
            "week": s.week.number,
            "status": s.status,
            "characters": [{"id": c.code, "name": c.name} for c in s.characters.all()],
        }
        for s in scenes
    ]


@router.get("/{uuid:code}/rolls", response=list[RollOut], summary="As rolagens da cena, em ordem")
def roll_list(request, code: UUID):
    scene, membership = _get_scene(request, code)
    entries = services.scene_log_entries(scene, membership=membership, user=request.user)
    rolls = [e for e in entries if e.kind == "roll"]
    rolls.sort(key=lambda e: e.roll.sequence)
    return [_roll_out(e.roll, masked=e.masked) for e in rolls]


@router.post(
    "/{uuid:code}/rolls",
    response={201: RollOut},
    summary="O servidor rola 3d6 (só Mestre ou Árbitro)",
)
def roll_create(
    request,
    code: UUID,
    payload: RollIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    scene, membership = _get_scene(request, code)
    if not membership.runs_the_table:
        raise HttpError(403, "Só o Mestre de Cena ou o Árbitro pedem rolagem.")
    character = None
    if payload.character is not None:
        character = scene.characters.filter(code=payload.character).first()
        if character is None:
            raise ServiceError(services.CHARACTER_NOT_IN_SCENE, field="character")
    roll = services.roll_create(
        scene=scene,
        user=request.user,
        label=payload.label,
        base_level=payload.base_level,
        kind=payload.kind,
        modifiers=[services.Modifier(label=m.label, value=m.value) for m in payload.modifiers],
        character=character,
        hidden=payload.hidden,
        request_key=idempotency_key,
    )
    return Status(201, _roll_out(roll, masked=False))
