"""The Árbitro's console through the API, under /api/v1/console/: divergences, decisions,
corrections, the history of every sheet and the diff between two versions.

Every member of a campaign reads; the Mestre de Cena also opens divergences; the Árbitro
writes. Another role gets 403 ``{"code": "forbidden"}``; an object of another campaign, 404.
A write with the same ``Idempotency-Key`` header twice makes one row.

(The rules router lives in ``rules.api``; this one is mounted beside it as ``/console``.)
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any, Literal
from uuid import UUID

from django.shortcuts import get_object_or_404
from ninja import Field, Header, Query, Router, Schema, Status

from campaigns.access import ARBITRO, membership_for, memberships_of, require_role
from campaigns.api_errors import errors
from campaigns.auth import arbitrates, gated, runs_a_table
from campaigns.errors import ServiceError
from campaigns.models import Campaign
from canon import services
from canon.models import Decision, Divergence
from console import services as console_services
from sheets.diff import version_changes
from sheets.history import HISTORY_PICK_VERSION, versions_visible
from sheets.models import Character, SheetVersion

# Permission first (issue 27): every write's access is checked in its authentication,
# before its body is validated or its Idempotency-Key replayed.
router = Router(auth=gated(lambda request, user: _role_first(request, user)))

UNKNOWN_CAMPAIGN = "Campanha desconhecida: use o slug de uma campanha sua."


# --- schemas --------------------------------------------------------------------------------


class DivergenceOut(Schema):
    id: UUID
    campaign: str
    title: str
    description: str
    document: str
    section: str
    page: str
    side_a_label: str
    side_a: str
    side_b_label: str
    side_b: str
    reading: str
    status: Literal["open", "resolved"]
    opened_on: date
    opened_by: str | None
    resolved_on: date | None
    resolved_by: str | None
    resolution: str
    decision: UUID | None
    source_key: str
    corrected_fields: list[str]


class DivergenceIn(Schema, extra="forbid"):
    campaign: str | None = Field(None, description="slug; só se você está em mais de uma")
    title: str = Field(..., max_length=200)
    description: str
    section: str = Field("", max_length=40)
    page: str = Field("", max_length=300)
    side_a_label: str = Field("", max_length=120)
    side_a: str = ""
    side_b_label: str = Field("", max_length=120)
    side_b: str = ""
    reading: str = ""


class ResolveIn(Schema, extra="forbid"):
    resolution: str
    decision: UUID | None = None


class DecisionOut(Schema):
    id: UUID
    campaign: str
    number: int | None
    label: str
    decided_on: date | None
    title: str
    text: str
    section: str
    source: str
    fixes: str
    replaces: UUID | None
    replaced_by: list[UUID]
    house_key: str
    rules_url: str
    source_key: str
    corrected_fields: list[str]
    original_text: str


class DecisionIn(Schema, extra="forbid"):
    campaign: str | None = Field(None, description="slug; só se você está em mais de uma")
    number: int | None = Field(
        None, ge=1, le=2_147_483_647, description="só se a decisão tem número"
    )
    decided_on: date | None = Field(None, description="em branco: hoje")
    title: str = Field(..., max_length=200)
    text: str
    section: str = Field("", max_length=40)
    source: str = Field("", max_length=200)
    fixes: str = ""
    replaces: UUID | None = None
    house_key: str = Field(
        "",
        max_length=60,
        description="a regra da casa que a decisão fixa: uma das do sistema de regras da "
        "campanha (/regras/casa/?campanha=…); no Sistema 001, as respostas às regras que "
        "aguardam o Árbitro (o combate as lista em «arbitro»)",
    )
    resolves: list[UUID] = []


class CorrectionOut(Schema):
    id: UUID
    campaign: str
    target: Literal["sheet", "report", "decision", "divergence"]
    target_id: UUID
    target_label: str
    field: str
    line: str
    before: str
    after: str
    reason: str
    corrected_on: date
    created_by: str | None
    created_at: datetime
    version_before: int | None
    version_after: int | None


class CorrectionIn(Schema, extra="forbid"):
    target: Literal["decision", "divergence"]
    target_id: UUID
    field: str = Field(..., description="title, text, fixes, section (decisão); ou description, …")
    after: str
    reason: str


class AttributesIn(Schema, extra="forbid"):
    st: int = Field(..., ge=1, le=30)
    dx: int = Field(..., ge=1, le=30)
    iq: int = Field(..., ge=1, le=30)
    ht: int = Field(..., ge=1, le=30)


class SkillLineIn(Schema, extra="forbid"):
    name: str = Field(..., min_length=1, max_length=200)
    attribute: Literal["st", "dx", "iq", "ht"]
    difficulty: Literal["E", "A", "H", "VH"]
    level: int = Field(..., ge=-10, le=40)
    points: float = Field(..., ge=0, le=9999)


class SheetCorrectionIn(Schema, extra="forbid"):
    reason: str
    attributes: AttributesIn | None = None
    skills: list[SkillLineIn] | None = Field(None, description="a lista inteira; null mantém")
    notes: str | None = None
    data: dict[str, Any] | None = Field(
        None,
        description="Uma ficha guardada como documento (a Xuleta): a ficha inteira corrigida, "
        "como POST /sheets/{id}/draft a recebe; null mantém. Numa ficha de GURPS, recusado "
        "(use attributes, skills e notes)",
    )


class VersionOut(Schema):
    number: int
    status: Literal["draft", "submitted", "homologated", "returned"]
    created_by: str | None
    created_at: datetime
    submitted_at: datetime | None
    decided_by: str | None
    decided_at: datetime | None
    return_reason: str
    correction: UUID | None
    correction_reason: str
    decision_note: str = Field(..., description="as palavras do Árbitro ao homologar")
    decision_warnings: list[str] = Field(
        ..., description="os avisos da conferência que a versão tinha quando foi homologada"
    )


class HistoryOut(Schema):
    character: UUID
    name: str
    versions: list[VersionOut]


class ChangeOut(Schema):
    group: str
    what: str
    before: str
    after: str


class DiffOut(Schema):
    character: UUID
    from_version: int
    to_version: int
    changes: list[ChangeOut]


class WaitingOut(Schema):
    kind: Literal["sheet", "report", "divergence"]
    title: str
    detail: str
    when: datetime
    url: str
    campaign: str


class SummaryOut(Schema):
    sheets: int
    reports: int | None
    divergences: int
    items: list[WaitingOut]


# --- helpers --------------------------------------------------------------------------------


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _divergence_out(d: Divergence) -> dict:
    now = d.now
    return {
        "id": d.code,
        "campaign": d.campaign.slug,
        "title": now["title"],
        "description": now["description"],
        "document": d.document,
        "section": now["section"],
        "page": d.page,
        "side_a_label": d.side_a_label,
        "side_a": now["side_a"],
        "side_b_label": d.side_b_label,
        "side_b": now["side_b"],
        "reading": now["reading"],
        "status": d.status,
        "opened_on": d.opened_on,
        "opened_by": _username(d.opened_by),
        "resolved_on": d.resolved_on,
        "resolved_by": _username(d.resolved_by),
        "resolution": now["resolution"],
        "decision": d.decision.code if d.decision_id else None,
        "source_key": d.source_key,
        "corrected_fields": sorted(d.corrected_fields),
    }


def _decision_out(d: Decision) -> dict:
    now = d.now
    return {
        "id": d.code,
        "campaign": d.campaign.slug,
        "number": d.number,
        "label": d.label,
        "decided_on": d.decided_on,
        "title": now["title"],
        "text": now["text"],
        "section": now["section"],
        "source": d.source,
        "fixes": now["fixes"],
        "replaces": d.replaces.code if d.replaces_id else None,
        "replaced_by": [newer.code for newer in d.replaced_by.all()],
        "house_key": d.house_key,
        "rules_url": d.rules_url,
        "source_key": d.source_key,
        "corrected_fields": sorted(d.corrected_fields),
        "original_text": d.text,
    }


def _correction_out(c) -> dict:
    """A Correction, or a weekly report's correction (services.ReportCorrectionRow)."""
    target_id = {
        "sheet": lambda: c.character.code,
        "decision": lambda: c.decision.code,
        "divergence": lambda: c.divergence.code,
        "report": lambda: c.target_id,
    }[c.target]()
    return {
        "id": c.code,
        "campaign": c.campaign.slug,
        "target": c.target,
        "target_id": target_id,
        "target_label": c.target_label,
        "field": c.field,
        "line": c.line,
        "before": c.before,
        "after": c.after,
        "reason": c.reason,
        "corrected_on": c.corrected_on,
        "created_by": _username(c.created_by),
        "created_at": c.created_at,
        "version_before": c.version_before.number if c.version_before else None,
        "version_after": c.version_after.number if c.version_after else None,
    }


def _campaign_ids(user) -> list[int]:
    return [m.campaign_id for m in memberships_of(user)]


def _campaign_for_write(user, slug: str | None, roles, message: str) -> Campaign:
    """The campaign a write goes to: the one named, or the only one where the role may."""
    memberships = memberships_of(user)
    if slug:
        membership = next((m for m in memberships if m.campaign.slug == slug), None)
        if membership is None:
            raise ServiceError(UNKNOWN_CAMPAIGN, field="campaign")
        return membership.campaign
    allowed = [m.campaign for m in memberships if m.role in roles]
    if not allowed:
        raise ServiceError(message, code="forbidden")
    if len({c.pk for c in allowed}) > 1:
        raise ServiceError(services.CAMPAIGN_REQUIRED, field="campaign")
    return allowed[0]


def _role_first(request, user) -> None:
    """The Mestre or the Árbitro opens a pendência; the Árbitro alone writes the rest. A write
    about an object of the path asks its campaign (404 outside it); one whose campaign is in
    the body asks whether the user holds the role anywhere."""
    path = request.path.rstrip("/")
    code = request.resolver_match.kwargs.get("code")
    if path.endswith("/divergences"):
        if not runs_a_table(user):
            raise ServiceError(services.ONLY_TABLE_OPENS, code="forbidden")
        return
    if code is None:
        if not arbitrates(user):
            raise ServiceError(services.ONLY_ARBITRO, code="forbidden")
        return
    if path.endswith("/resolve"):
        membership = membership_for(user, _get(Divergence, user, code).campaign)
    else:
        _, membership = _character(user, code)
    require_role(membership, ARBITRO, message=services.ONLY_ARBITRO)


def _get(model, user, code: UUID, *related):
    return get_object_or_404(
        model.objects.select_related("campaign", *related).prefetch_related("corrections"),
        code=code,
        campaign_id__in=_campaign_ids(user),
    )


def _character(user, code: UUID) -> tuple[Character, object]:
    character = get_object_or_404(
        Character.objects.select_related("campaign"), code=code, campaign_id__in=_campaign_ids(user)
    )
    return character, membership_for(user, character.campaign)


# --- the console ----------------------------------------------------------------------------


@router.get(
    "/summary",
    response={200: SummaryOut, **errors(401)},
    summary="O que espera o Árbitro, com contagens",
)
def summary(request):
    found = console_services.console_summary(request.user)
    return {
        "sheets": len(found.sheets),
        "reports": None if found.reports is None else len(found.reports),
        "divergences": len(found.divergences),
        "items": [
            {
                "kind": i.kind,
                "title": i.title,
                "detail": i.detail,
                "when": i.when,
                "url": i.url,
                "campaign": i.campaign.slug,
            }
            for i in found.items
        ],
    }


# --- divergences ----------------------------------------------------------------------------


@router.get(
    "/divergences",
    response={200: list[DivergenceOut], **errors(401, 422)},
    summary="Pendências (abertas e resolvidas)",
)
def divergence_list(request, status: Literal["open", "resolved"] | None = None):
    return [_divergence_out(d) for d in services.divergences_for(request.user, status=status)]


@router.get(
    "/divergences/{uuid:code}",
    response={200: DivergenceOut, **errors(401, 404)},
    summary="Uma pendência",
)
def divergence_detail(request, code: UUID):
    return _divergence_out(
        _get(Divergence, request.user, code, "opened_by", "resolved_by", "decision")
    )


@router.post(
    "/divergences",
    response={201: DivergenceOut, **errors(400, 401, 403, 422)},
    summary="Abrir uma pendência (Mestre ou Árbitro)",
)
def divergence_create(
    request, payload: DivergenceIn, idempotency_key: str = Header("", alias="Idempotency-Key")
):
    data = payload.dict()
    campaign = _campaign_for_write(
        request.user, data.pop("campaign"), services.TABLE_ROLES, services.ONLY_TABLE_OPENS
    )
    divergence = services.divergence_create(
        campaign=campaign,
        user=request.user,
        document=services.seed.CANON if data["section"] else "",
        request_key=idempotency_key,
        **data,
    )
    return Status(201, _divergence_out(_get(Divergence, request.user, divergence.code)))


@router.post(
    "/divergences/{uuid:code}/resolve",
    response={200: DivergenceOut, **errors(400, 401, 403, 404, 422)},
    summary="Resolver uma pendência (Árbitro)",
)
def divergence_resolve(request, code: UUID, payload: ResolveIn):
    divergence = _get(Divergence, request.user, code)
    decision = None
    if payload.decision is not None:
        decision = Decision.objects.filter(
            code=payload.decision, campaign=divergence.campaign
        ).first()
        if decision is None:
            raise ServiceError(services.OTHER_CAMPAIGN, field="decision")
    services.divergence_resolve(
        divergence=divergence, user=request.user, resolution=payload.resolution, decision=decision
    )
    return _divergence_out(
        _get(Divergence, request.user, code, "opened_by", "resolved_by", "decision")
    )


# --- decisions ------------------------------------------------------------------------------


@router.get(
    "/decisions", response={200: list[DecisionOut], **errors(401)}, summary="Decisões do Árbitro"
)
def decision_list(request):
    return [_decision_out(d) for d in services.decisions_for(request.user)]


@router.get(
    "/decisions/{uuid:code}", response={200: DecisionOut, **errors(401, 404)}, summary="Uma decisão"
)
def decision_detail(request, code: UUID):
    decision = _get(Decision, request.user, code, "replaces")
    return _decision_out(decision)


@router.post(
    "/decisions",
    response={201: DecisionOut, **errors(400, 401, 403, 422)},
    summary="Registrar uma decisão (Árbitro)",
)
def decision_create(
    request, payload: DecisionIn, idempotency_key: str = Header("", alias="Idempotency-Key")
):
    campaign = _campaign_for_write(
        request.user, payload.campaign, services.ARBITRO_ONLY, services.ONLY_ARBITRO
    )
    replaces = None
    if payload.replaces is not None:
        replaces = Decision.objects.filter(code=payload.replaces, campaign=campaign).first()
        if replaces is None:
            raise ServiceError(services.OTHER_CAMPAIGN, field="replaces")
    resolves = list(Divergence.objects.filter(code__in=payload.resolves, campaign=campaign))
    if len(resolves) != len(set(payload.resolves)):
        raise ServiceError(services.OTHER_CAMPAIGN, field="resolves")
    decision = services.decision_create(
        campaign=campaign,
        user=request.user,
        title=payload.title,
        text=payload.text,
        number=payload.number,
        decided_on=payload.decided_on,
        section=payload.section,
        source=payload.source,
        fixes=payload.fixes,
        replaces=replaces,
        house_key=payload.house_key,
        resolves=resolves,
        request_key=idempotency_key,
    )
    return Status(201, _decision_out(_get(Decision, request.user, decision.code, "replaces")))


# --- corrections ----------------------------------------------------------------------------

CORRECTION_RELATED = ("character", "version_before", "version_after", "decision", "divergence")


@router.get(
    "/corrections",
    response={200: list[CorrectionOut], **errors(401, 422)},
    summary="Correções, da mais nova (fichas, relatórios da semana, decisões, pendências)",
)
def correction_list(
    request, target: Literal["sheet", "report", "decision", "divergence"] | None = None
):
    return [_correction_out(c) for c in services.corrections_listed(request.user, target=target)]


@router.get(
    "/corrections/{uuid:code}",
    response={200: CorrectionOut, **errors(401, 404)},
    summary="Uma correção",
)
def correction_detail(request, code: UUID):
    correction = get_object_or_404(services.corrections_for(request.user), code=code)
    return _correction_out(correction)


@router.post(
    "/corrections",
    response={201: CorrectionOut, **errors(400, 401, 403, 404, 422)},
    summary="Corrigir uma linha de uma decisão ou pendência (Árbitro)",
)
def correction_create(
    request, payload: CorrectionIn, idempotency_key: str = Header("", alias="Idempotency-Key")
):
    model = Decision if payload.target == "decision" else Divergence
    entry = _get(model, request.user, payload.target_id)
    correction = services.correction_create(
        entry=entry,
        user=request.user,
        field=payload.field,
        after=payload.after,
        reason=payload.reason,
        request_key=idempotency_key,
    )
    return Status(
        201,
        _correction_out(
            get_object_or_404(services.corrections_for(request.user), pk=correction.pk)
        ),
    )


# --- sheets: history, diff, correction --------------------------------------------------------


def _version_out(v: SheetVersion) -> dict:
    correction = getattr(v, "issued_by_correction", None)
    return {
        "number": v.number,
        "status": v.status,
        "created_by": _username(v.created_by),
        "created_at": v.created_at,
        "submitted_at": v.submitted_at,
        "decided_by": _username(v.decided_by),
        "decided_at": v.decided_at,
        "return_reason": v.return_reason,
        "correction": correction.code if correction else None,
        "correction_reason": correction.reason if correction else "",
        "decision_note": v.decision_note,
        "decision_warnings": list(v.decision_warnings),
    }


@router.get(
    "/sheets/{uuid:code}/history",
    response={200: HistoryOut, **errors(401, 404)},
    summary="As versões de uma ficha, com quem as moveu e quando",
)
def sheet_history(request, code: UUID):
    character, membership = _character(request.user, code)
    versions = versions_visible(character, request.user, membership)
    return {
        "character": character.code,
        "name": character.name,
        "versions": [_version_out(v) for v in versions],
    }


@router.get(
    "/sheets/{uuid:code}/diff",
    response={200: DiffOut, **errors(401, 404, 422)},
    summary="O que muda entre duas versões (atributos, vantagens, perícias, itens, notas)",
)
def sheet_diff(
    request,
    code: UUID,
    from_version: int = Query(..., alias="from", ge=1),
    to_version: int = Query(..., alias="to", ge=1),
):
    character, membership = _character(request.user, code)
    versions = {v.number: v for v in versions_visible(character, request.user, membership)}
    if from_version not in versions:
        raise ServiceError(HISTORY_PICK_VERSION, field="from")
    if to_version not in versions:
        raise ServiceError(HISTORY_PICK_VERSION, field="to")
    changes = version_changes(versions[from_version], versions[to_version])
    return {
        "character": character.code,
        "from_version": from_version,
        "to_version": to_version,
        "changes": [
            {"group": c.group, "what": c.what, "before": c.before, "after": c.after}
            for c in changes
        ],
    }


@router.post(
    "/sheets/{uuid:code}/corrections",
    response={201: CorrectionOut, **errors(400, 401, 403, 404, 422)},
    summary="Corrigir uma ficha homologada: nova versão homologada, com o motivo (Árbitro)",
)
def sheet_correct(
    request,
    code: UUID,
    payload: SheetCorrectionIn,
    idempotency_key: str = Header("", alias="Idempotency-Key"),
):
    character, _ = _character(request.user, code)
    correction = console_services.sheet_correct(
        character=character,
        user=request.user,
        reason=payload.reason,
        attributes=payload.attributes.dict() if payload.attributes else None,
        notes=payload.notes,
        skills=[{**line.dict(), "points": Decimal(str(line.points))} for line in payload.skills]
        if payload.skills is not None
        else None,
        data=payload.data,
        request_key=idempotency_key,
    )
    found = get_object_or_404(services.corrections_for(request.user), pk=correction.pk)
    return Status(201, _correction_out(found))
