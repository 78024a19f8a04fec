"""Pages of the Árbitro's skill tables: the cost table (/console/custo-de-pericias/) and the
skill catalogue (/console/catalogo-de-pericias/). Every member reads; the Árbitro changes a row
or an entry, and each change stays in the history with what it said and why."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.errors import ServiceError
from campaigns.http import HtmxHttpRequest
from canon import services, skills
from canon.models import (
    SkillCatalogueChange,
    SkillCatalogueEntry,
    SkillCostRowChange,
    SkillCostTable,
)
from console.skills_forms import CatalogueEntryForm, CostRowForm


def _chosen_membership(request):
    """The membership whose campaign the page shows: ``?campanha=slug`` or the first."""
    memberships = sorted(services.memberships_of(request.user), key=lambda m: m.campaign.name)
    if not memberships:
        raise Http404
    slug = request.GET.get("campanha") or request.POST.get("campanha")
    return next((m for m in memberships if m.campaign.slug == slug), memberships[0]), memberships


def _form_error(form, error: ServiceError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


# --- the cost table -------------------------------------------------------------------------------


def _costs_context(membership, memberships, *, bound=None) -> dict:
    campaign = membership.campaign
    tables = skills.skill_cost_tables(campaign)
    is_arbitro = services.may_write(membership)
    shown = []
    for table in tables:
        rows = []
        for row in table.rows.all():
            form = None
            if is_arbitro:
                key = (table.pk, row.position)
                form = (bound or {}).get(key) or CostRowForm(table=table, row=row)
            rows.append((row, form))
        shown.append((table, rows))
    changes = (
        SkillCostRowChange.objects.filter(row__table__campaign=campaign)
        .select_related("by", "row__table")
        .order_by("-at", "-pk")
    )
    return {
        "campaign": campaign,
        "memberships": memberships,
        "tables": shown,
        "changes": list(changes),
        "is_arbitro": is_arbitro,
    }


@login_required
def skill_costs_page(request: HtmxHttpRequest) -> HttpResponse:
    membership, memberships = _chosen_membership(request)
    context = _costs_context(membership, memberships)
    return render(request, "canon/skill_costs.html", context)


@require_POST
@login_required
def skill_cost_row_edit(request: HtmxHttpRequest, code, position: int) -> HttpResponse:
    table = get_object_or_404(SkillCostTable.objects.select_related("campaign"), code=code)
    membership = services.membership_for(request.user, table.campaign)
    if membership is None:
        raise Http404
    if not services.may_write(membership):
        raise PermissionDenied
    row = get_object_or_404(table.rows, position=position)
    form = CostRowForm(request.POST, table=table, row=row)
    if form.is_valid():
        try:
            skills.skill_cost_row_edit(
                row=row, user=request.user, cells=form.cells(), reason=form.cleaned_data["reason"]
            )
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, f"{table.name}, linha «{row.label}»: mudança registrada.")
            url = reverse("skill-costs") + f"?campanha={table.campaign.slug}#t-{table.kind}"
            return redirect(url)
    memberships = services.memberships_of(request.user)
    context = _costs_context(membership, memberships, bound={(table.pk, row.position): form})
    return render(request, "canon/skill_costs.html", context, status=422)


# --- the catalogue --------------------------------------------------------------------------------


def _catalogue_context(membership, memberships, *, bound=None, new_form=None) -> dict:
    campaign = membership.campaign
    entries = skills.skill_catalogue(campaign)
    is_arbitro = services.may_write(membership)
    rows = []
    for entry in entries:
        form = None
        if is_arbitro:
            form = (bound or {}).get(entry.pk) or CatalogueEntryForm.for_entry(entry)
        rows.append((entry, form))
    changes = list(
        SkillCatalogueChange.objects.filter(entry__campaign=campaign)
        .select_related("by", "entry")
        .order_by("-at", "-pk")
    )
    for change in changes:
        change.before_text = skills.entry_text(change.before)
        change.after_text = skills.entry_text(change.after)
    return {
        "campaign": campaign,
        "memberships": memberships,
        "rows": rows,
        "changes": changes,
        "is_arbitro": is_arbitro,
        "new_form": new_form
        or (
            CatalogueEntryForm(prefix="nova", initial={"defaults_rule": "general"})
            if is_arbitro
            else None
        ),
    }


@login_required
def skill_catalogue_page(request: HtmxHttpRequest) -> HttpResponse:
    membership, memberships = _chosen_membership(request)
    return render(
        request, "canon/skill_catalogue.html", _catalogue_context(membership, memberships)
    )


def _catalogue_url(campaign) -> str:
    return reverse("skill-catalogue") + f"?campanha={campaign.slug}"


@require_POST
@login_required
def skill_catalogue_add(request: HtmxHttpRequest) -> HttpResponse:
    membership, memberships = _chosen_membership(request)
    if not services.may_write(membership):
        raise PermissionDenied
    form = CatalogueEntryForm(request.POST, prefix="nova")
    if form.is_valid():
        try:
            entry = skills.skill_catalogue_entry_add(
                campaign=membership.campaign,
                user=request.user,
                reason=form.cleaned_data["reason"],
                **form.fields_for_service(),
            )
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, f"«{entry.name}» entrou no catálogo.")
            return redirect(_catalogue_url(membership.campaign) + f"#e-{entry.code}")
    context = _catalogue_context(membership, memberships, new_form=form)
    return render(request, "canon/skill_catalogue.html", context, status=422)


@require_POST
@login_required
def skill_catalogue_edit(request: HtmxHttpRequest, code) -> HttpResponse:
    entry = get_object_or_404(SkillCatalogueEntry.objects.select_related("campaign"), code=code)
    membership = services.membership_for(request.user, entry.campaign)
    if membership is None:
        raise Http404
    if not services.may_write(membership):
        raise PermissionDenied
    form = CatalogueEntryForm.for_entry(entry, request.POST)
    if form.is_valid():
        try:
            skills.skill_catalogue_entry_edit(
                entry=entry,
                user=request.user,
                reason=form.cleaned_data["reason"],
                **form.fields_for_service(),
            )
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, f"«{entry.name}»: mudança registrada.")
            return redirect(_catalogue_url(entry.campaign) + f"#e-{entry.code}")
    memberships = services.memberships_of(request.user)
    context = _catalogue_context(membership, memberships, bound={entry.pk: form})
    return render(request, "canon/skill_catalogue.html", context, status=422)
