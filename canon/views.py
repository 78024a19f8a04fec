"""The Árbitro's homologation queue: submitted sheet versions, homologate or return."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sheets import services
from sheets.forms import ReturnForm
from sheets.models import Membership, SheetVersion
from sheets.views import HtmxHttpRequest


def _get_version_for_arbitro(request, code) -> SheetVersion:
    version = get_object_or_404(
        SheetVersion.objects.select_related("character__campaign"), code=code
    )
    membership = services.membership_for(request.user, version.character.campaign)
    if membership is None:
        raise Http404
    if membership.role != Membership.Role.ARBITRO:
        raise PermissionDenied
    return version


@login_required
def queue(request: HtmxHttpRequest) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user)
    campaign_ids = [m.campaign_id for m in memberships]
    is_arbitro = any(m.role == Membership.Role.ARBITRO for m in memberships)
    # A jogador sees their own versions in the queue; the table's roles see all of them.
    visible = SheetVersion.objects.filter(character__campaign_id__in=campaign_ids)
    if not any(m.runs_the_table for m in memberships):
        visible = visible.filter(character__owner=request.user)
    pending = (
        visible.filter(status=SheetVersion.Status.SUBMITTED)
        .select_related("character", "created_by")
        .prefetch_related("skills", "traits", "items")
        .order_by("submitted_at")
    )
    rows = []
    for version in pending:
        current = services.homologated_version(version.character)
        rows.append(
            {
                "version": version,
                "current": current,
                "changes": services.version_changes(current, version),
                "form": ReturnForm(prefix=str(version.code)),
            }
        )
    recent = (
        visible.filter(
            status__in=[SheetVersion.Status.HOMOLOGATED, SheetVersion.Status.RETURNED],
            decided_at__isnull=False,
        )
        .select_related("character", "decided_by")
        .order_by("-decided_at")[:10]
    )
    return render(
        request,
        "canon/queue.html",
        {"rows": rows, "recent": recent, "is_arbitro": is_arbitro},
    )


@require_POST
@login_required
def homologate(request: HtmxHttpRequest, code) -> HttpResponse:
    version = _get_version_for_arbitro(request, code)
    try:
        services.sheet_homologate(version=version, user=request.user)
    except services.ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"{version.character.name}: versão {version.number} homologada.")
    return redirect("queue")


@require_POST
@login_required
def return_version(request: HtmxHttpRequest, code) -> HttpResponse:
    version = _get_version_for_arbitro(request, code)
    form = ReturnForm(request.POST, prefix=str(version.code))
    if not form.is_valid():
        messages.error(request, services.RETURN_NEEDS_REASON)
        return redirect("queue")
    try:
        services.sheet_return(
            version=version, user=request.user, reason=form.cleaned_data["reason"]
        )
    except services.ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, f"{version.character.name}: versão {version.number} devolvida ao jogador."
        )
    return redirect("queue")
