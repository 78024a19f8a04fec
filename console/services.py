"""The Árbitro's console over canon's registers and the sheets: what waits for the Árbitro (the
summary) and his correction of a homologated sheet (a new homologated version, recorded as a
canon Correction).

Moved from canon.services: canon's data stays below the sheets it registers corrections of.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.apps import apps
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaigns.access import ARBITRO, campaign_role_required, memberships_of
from campaigns.errors import ServiceError
from campaigns.models import Campaign
from canon import services
from canon.models import Correction, Decision, Divergence
from sheets.diff import Change, version_changes
from sheets.history import sheet_correction_issue
from sheets.models import Character, SheetVersion

# --- the console's summary ------------------------------------------------------------------


@dataclass(frozen=True)
class WaitingItem:
    """Something that waits for the Árbitro: a sheet version, a weekly report, a divergence."""

    kind: str  # "sheet" | "report" | "divergence"
    kind_label: str
    title: str
    detail: str
    when: dt.datetime
    url: str
    campaign: Campaign


@dataclass(frozen=True)
class ConsoleSummary:
    """Each kind newest first; ``reports`` is None while the site has no weekly reports."""

    sheets: list[WaitingItem]
    reports: list[WaitingItem] | None
    divergences: list[WaitingItem]
    recent_decisions: list[Decision]
    recent_corrections: list  # Correction | ReportCorrectionRow

    @property
    def items(self) -> list[WaitingItem]:
        """Everything that waits, newest first."""
        found = [*self.sheets, *(self.reports or []), *self.divergences]
        return sorted(found, key=lambda item: item.when, reverse=True)


def weekly_report_model():
    """``mesa.WeeklyReport``, or None while the sessions app has no weekly reports."""
    try:
        return apps.get_model("mesa", "WeeklyReport")
    except LookupError:
        return None


def _as_datetime(day: dt.date | None, fallback: dt.datetime) -> dt.datetime:
    """A register date as a moment to sort by: the row's own time if written that day."""
    if day is None or timezone.localdate(fallback) == day:
        return fallback
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def console_summary(user) -> ConsoleSummary:
    """What waits for the Árbitro in the user's campaigns, newest first, with counts.

    A jogador sees only their own sheet versions waiting (as in the queue)."""
    memberships = memberships_of(user)
    campaign_ids = [m.campaign_id for m in memberships]
    runs_the_table = any(m.runs_the_table for m in memberships)
    items: list[WaitingItem] = []

    versions = SheetVersion.objects.filter(
        character__campaign_id__in=campaign_ids, status=SheetVersion.Status.SUBMITTED
    ).select_related("character__campaign", "created_by")
    if not runs_the_table:
        versions = versions.filter(character__owner=user)
    for version in versions:
        items.append(
            WaitingItem(
                "sheet",
                "Ficha",
                f"{version.character.name} — versão {version.number}",
                f"enviada por {version.created_by.get_username() if version.created_by else '—'}",
                version.submitted_at or version.created_at,
                reverse("queue") + f"#v-{version.code}",
                version.character.campaign,
            )
        )

    report_model = weekly_report_model()
    if report_model is not None:
        submitted = report_model.objects.filter(
            week__campaign_id__in=campaign_ids, status="submitted"
        ).select_related("week__campaign")
        for report in submitted:
            items.append(
                WaitingItem(
                    "report",
                    "Relatório",
                    f"Relatório da Semana {report.week.number}",
                    "enviado para homologação",
                    report.submitted_at or report.written_at,
                    services.report_url(report),
                    report.week.campaign,
                )
            )

    open_divergences = (
        Divergence.objects.filter(campaign_id__in=campaign_ids, status=Divergence.Status.OPEN)
        .select_related("campaign", "opened_by")
        .prefetch_related("corrections")
    )
    for divergence in open_divergences:
        where = f"§{divergence.section}" if divergence.section else divergence.page
        if divergence.opened_by is not None:
            where += f" · aberta por {divergence.opened_by.get_username()}"
        items.append(
            WaitingItem(
                "divergence",
                "Pendência",
                divergence.now["title"],
                where,
                _as_datetime(divergence.opened_on, divergence.created_at),
                reverse("divergence", kwargs={"code": divergence.code}),
                divergence.campaign,
            )
        )

    def newest_first(kind: str) -> list[WaitingItem]:
        return sorted((i for i in items if i.kind == kind), key=lambda i: i.when, reverse=True)

    return ConsoleSummary(
        sheets=newest_first("sheet"),
        reports=None if report_model is None else newest_first("report"),
        divergences=newest_first("divergence"),
        recent_decisions=list(services.decisions_for(user)[:5]),
        recent_corrections=services.corrections_listed(user)[:5],
    )


# --- writes: corrections of homologated sheets ------------------------------------------------


def _changes_text(changes: list[Change], side: str) -> str:
    lines = []
    for change in changes:
        value = getattr(change, side) or ("(não havia)" if side == "before" else "(saiu da ficha)")
        what = change.what if change.what == change.group else f"{change.group} · {change.what}"
        lines.append(f"{what}: {value}")
    return "\n".join(lines)


@transaction.atomic
def sheet_correct(
    *,
    character: Character,
    user,
    reason: str,
    attributes: dict[str, int] | None = None,
    notes: str | None = None,
    skills: list[dict] | None = None,
    data: dict | None = None,
    request_key: str = "",
) -> Correction:
    """The Árbitro corrects a homologated sheet: a new homologated version, with the reason.

    The old version stays exactly as it was; the Correction row points at both and keeps the
    changed lines as they read before and after. ``None`` keeps a part as it is. A sheet kept
    as JSON (the Xuleta) is corrected whole in ``data`` (``sheet_correction_issue``)."""
    campaign = character.campaign
    campaign_role_required(user, campaign, ARBITRO, message=services.ONLY_ARBITRO)
    request_key = services.text_cleaned(request_key, 64)
    existing = services.existing_by_key(Correction, campaign, request_key)
    if existing is not None:
        return existing
    reason = services.text_cleaned(reason)
    if not reason:
        raise ServiceError(services.REASON_REQUIRED, field="reason")
    if skills is not None:
        seen = set()
        for line in skills:
            name = line["name"].strip().casefold()
            if name in seen:
                raise ServiceError(
                    services.SKILL_REPEATED.format(name=line["name"]), field="skills"
                )
            seen.add(name)
    before, after = sheet_correction_issue(
        character=character,
        user=user,
        attributes=attributes,
        notes=notes,
        skills=skills,
        data=data,
    )
    changes = version_changes(before, after)
    return services.create_once(
        Correction,
        campaign,
        request_key,
        target=Correction.Target.SHEET,
        character=character,
        version_before=before,
        version_after=after,
        field="sheet",
        line=f"Ficha — versão {before.number} → versão {after.number}",
        before=_changes_text(changes, "before"),
        after=_changes_text(changes, "after"),
        reason=reason,
        corrected_on=timezone.localdate(),
        created_by=user,
    )
