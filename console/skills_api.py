"""The audit of sheet versions and the Árbitro's two skill tables through the API, under
/api/v1/console/ beside the rest of the console (``console.api``): the checks of a version
(what does not add up, with the computation), the skill cost table and the skill catalogue.
Every member of a campaign reads them; a version is read by those who may read it on the pages.
"""

from __future__ import annotations

from typing import Literal
from uuid import UUID

from django.shortcuts import get_object_or_404
from ninja import Field, Query, Router, Schema

from campaigns.access import membership_for, memberships_of
from campaigns.api_errors import errors
from campaigns.auth import AUTH
from campaigns.errors import ServiceError
from campaigns.models import Campaign
from canon import skills
from canon.models import SkillCatalogueEntry, SkillCostTable
from gurps.audit import FindingCode
from sheets.history import HISTORY_PICK_VERSION, versions_visible
from sheets.homologation import DATA_FINDING, version_audit
from sheets.models import Character

router = Router(auth=AUTH)

UNKNOWN_CAMPAIGN = "Campanha desconhecida: use o slug de uma campanha sua."


def _character(user, code: UUID):
    campaign_ids = [m.campaign_id for m in memberships_of(user)]
    character = get_object_or_404(
        Character.objects.select_related("campaign"), code=code, campaign_id__in=campaign_ids
    )
    return character, membership_for(user, character.campaign)


# --- the audit of a version, and the Árbitro's skill tables -------------------------------------

FindingCodeLiteral = Literal[tuple(code.value for code in FindingCode)]
# A check of a sheet kept as JSON (the Xuleta's) has the one code "sheet_data".
DataFindingLiteral = Literal[DATA_FINDING]


class FindingOut(Schema):
    code: FindingCodeLiteral | DataFindingLiteral
    severity: Literal["warning", "note"]
    group: str
    what: str
    message: str


class SkillCheckOut(Schema):
    name: str
    attribute: Literal["st", "dx", "iq", "ht"]
    difficulty: Literal["E", "A", "H", "VH"]
    level: int | None = Field(None, description="o NH da linha")
    points: float | None = Field(None, description="os pontos da linha")
    bought_level: int | None = Field(None, description="o NH que os pontos compram")
    bought_computation: str
    price_points: float | None = Field(None, description="o que o NH da linha custa")
    price_computation: str
    error: str = Field(..., description="por que a tabela não dá resposta, quando não dá")


class VersionChecksOut(Schema):
    character: UUID
    version: int
    status: Literal["draft", "submitted", "homologated", "returned"]
    warnings: int
    digest: str = Field(..., description="a impressão dos avisos, que a homologação confere")
    total_points: float = Field(
        ..., description="perícias, vantagens, desvantagens e peculiaridades"
    )
    findings: list[FindingOut]
    skills: list[SkillCheckOut]


def _skill_check_out(audit) -> dict:
    line = audit.line
    return {
        "name": line.name,
        "attribute": line.attribute,
        "difficulty": line.difficulty,
        "level": line.level,
        "points": None if line.points is None else float(line.points),
        "bought_level": audit.bought.level if audit.bought else None,
        "bought_computation": audit.bought.computation if audit.bought else "",
        "price_points": float(audit.price.points) if audit.price else None,
        "price_computation": audit.price.computation if audit.price else "",
        "error": audit.bought_error or audit.price_error,
    }


@router.get(
    "/sheets/{uuid:code}/versions/{number}/checks",
    response={200: VersionChecksOut, **errors(401, 404, 422)},
    summary="A conferência de uma versão da ficha pela tabela de custo e pelo catálogo do Árbitro",
)
def version_checks(request, code: UUID, number: int):
    """Linha por linha, o que não fecha, com a conta: NH que os pontos não compram, pontos que
    não compram linha, perícia física Muito Difícil, atributo acima de 20, perícia com 0 ponto
    onde vale o pré-definido, linhas da importação não lidas; e os pontos da ficha."""
    character, membership = _character(request.user, code)
    versions = {v.number: v for v in versions_visible(character, request.user, membership)}
    if number not in versions:
        raise ServiceError(HISTORY_PICK_VERSION, field="number", code="not_found")
    version = versions[number]
    audit = version_audit(version)
    return {
        "character": character.code,
        "version": version.number,
        "status": version.status,
        "warnings": len(audit.warnings),
        "digest": audit.digest,
        "total_points": float(audit.totals.total),
        "findings": [
            {
                "code": getattr(f.code, "value", f.code),
                "severity": getattr(f.severity, "value", f.severity),
                "group": f.group,
                "what": f.what,
                "message": f.message,
            }
            for f in audit.findings
        ],
        "skills": [_skill_check_out(s) for s in audit.skills],
    }


class CostRowOut(Schema):
    label: str
    relative: int | None = Field(
        None, description="o nível relativo ao atributo; null: cada +1 a mais"
    )
    cells: list[str]


class CostTableOut(Schema):
    id: UUID
    campaign: str
    kind: Literal["physical", "mental"]
    name: str
    columns: list[str]
    document: str
    source: str
    rows: list[CostRowOut]


class CatalogueEntryOut(Schema):
    id: UUID
    campaign: str
    name: str
    attribute: Literal["", "st", "dx", "iq", "ht"]
    difficulty: Literal["", "E", "A", "H", "VH"]
    defaults_rule: Literal["general", "listed", "none"]
    defaults: list[str]
    source: str


def _campaigns(user, slug: str | None) -> list[Campaign]:
    campaigns = [m.campaign for m in memberships_of(user)]
    if slug is None:
        return campaigns
    chosen = [c for c in campaigns if c.slug == slug]
    if not chosen:
        raise ServiceError(UNKNOWN_CAMPAIGN, field="campaign")
    return chosen


@router.get(
    "/skill-costs",
    response={200: list[CostTableOut], **errors(401, 422)},
    summary="A tabela de custo de perícias do Árbitro (física e mental; MB pág. 43–44)",
)
def skill_cost_tables(request, campaign: str | None = Query(None, max_length=50)):
    found = []
    for chosen in _campaigns(request.user, campaign):
        table: SkillCostTable
        for table in skills.skill_cost_tables(chosen):
            found.append(
                {
                    "id": table.code,
                    "campaign": chosen.slug,
                    "kind": table.kind,
                    "name": table.name,
                    "columns": list(table.columns),
                    "document": table.document,
                    "source": table.source,
                    "rows": [
                        {"label": r.label, "relative": r.relative, "cells": list(r.cells)}
                        for r in table.rows.all()
                    ],
                }
            )
    return found


@router.get(
    "/skill-catalogue",
    response={200: list[CatalogueEntryOut], **errors(401, 422)},
    summary="O catálogo de perícias do Árbitro: atributo, dificuldade e pré-definidos (§3.3)",
)
def skill_catalogue(request, campaign: str | None = Query(None, max_length=50)):
    found = []
    for chosen in _campaigns(request.user, campaign):
        entry: SkillCatalogueEntry
        for entry in skills.skill_catalogue(chosen):
            found.append(
                {
                    "id": entry.code,
                    "campaign": chosen.slug,
                    "name": entry.name,
                    "attribute": entry.attribute,
                    "difficulty": entry.difficulty,
                    "defaults_rule": entry.defaults_rule,
                    "defaults": list(entry.defaults),
                    "source": entry.source,
                }
            )
    return found
