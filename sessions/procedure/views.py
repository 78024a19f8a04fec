"""Pages of the procedure's tables: the Mestre's roll from the scene page, the list every
member reads (/mesa/tabelas/), a table's page, and the Árbitro's change of a row."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from campaigns.access import membership_for
from campaigns.errors import ServiceError
from campaigns.http import HtmxHttpRequest
from campaigns.models import Membership
from procedure import tables as procedure_data
from sessions.access import get_scene_for_table
from sessions.log.views import scene_respond
from sessions.models import RandomTable, RandomTableRowChange
from sessions.procedure import services
from sessions.procedure.forms import RowAddForm, RowEditForm, TableAddForm, procedure_form


@require_POST
@login_required
def procedure_roll_add(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = get_scene_for_table(request, code)
    form = procedure_form(scene.week.campaign, request.POST)
    forms = {"procedure_form": form}
    if not form.is_valid():
        return scene_respond(request, scene, membership, status=422, forms=forms, panel="procedure")
    data = form.cleaned_data
    try:
        if data["row_label"]:
            services.procedure_chance(
                scene=scene,
                user=request.user,
                key=data["key"],
                row_label=data["row_label"],
                column=data["column"] or None,
                request_key=data["request_key"],
            )
        else:
            services.procedure_roll(
                scene=scene,
                user=request.user,
                key=data["key"],
                column=data["column"] or None,
                modifier=data["modifier"],
                die=data["die"] or None,
                request_key=data["request_key"],
            )
    except ServiceError as error:
        form.add_error("modifier" if error.field == "modifier" else "choice", error.message)
        return scene_respond(request, scene, membership, status=422, forms=forms, panel="procedure")
    return scene_respond(request, scene, membership, panel="procedure")


def _memberships(request) -> list[Membership]:
    return list(
        Membership.objects.filter(user=request.user)
        .select_related("campaign")
        .order_by("campaign__name")
    )


@login_required
def procedure_tables_page(request: HtmxHttpRequest) -> HttpResponse:
    """Every table of the procedure, with its source, for every member of the campaign."""
    memberships = _memberships(request)
    if not memberships:
        raise Http404
    slug = request.GET.get("campanha")
    membership = next((m for m in memberships if m.campaign.slug == slug), memberships[0])
    return _tables_render(request, membership, memberships)


def _tables_render(request, membership, memberships, *, form=None, status=200) -> HttpResponse:
    is_arbitro = membership.role == Membership.Role.ARBITRO
    return render(
        request,
        "procedure/procedure_tables.html",
        {
            "campaign": membership.campaign,
            "membership": membership,
            "memberships": memberships,
            "tables": services.procedure_tables(membership.campaign),
            "is_arbitro": is_arbitro,
            "table_form": (form or TableAddForm()) if is_arbitro else None,
        },
        status=status,
    )


@require_POST
@login_required
def procedure_table_add(request: HtmxHttpRequest) -> HttpResponse:
    """The Árbitro adds a table (a region's Tabela de Encontros, or another)."""
    memberships = _memberships(request)
    if not memberships:
        raise Http404
    slug = request.POST.get("campanha") or request.GET.get("campanha")
    membership = next((m for m in memberships if m.campaign.slug == slug), memberships[0])
    if membership.role != Membership.Role.ARBITRO:
        raise PermissionDenied
    form = TableAddForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            table = services.random_table_add(
                campaign=membership.campaign,
                user=request.user,
                name=data["name"],
                die=data["die"],
                region=data["region"],
                note=data["note"],
            )
        except ServiceError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            return redirect("procedure-table", code=table.code)
    return _tables_render(request, membership, memberships, form=form, status=422)


def _get_table(request, code) -> tuple[RandomTable, Membership]:
    table = get_object_or_404(RandomTable.objects.select_related("campaign"), code=code)
    membership = membership_for(request.user, table.campaign)
    if membership is None:
        raise Http404
    return table, membership


def _table_context(table, membership, *, bound=None, row_form=None):
    rows = list(table.rows.all())
    changes = list(
        RandomTableRowChange.objects.filter(row__table=table)
        .select_related("by", "row")
        .order_by("-at", "-pk")
    )
    is_arbitro = membership.role == Membership.Role.ARBITRO
    own = table.document == procedure_data.ARBITRO_DOCUMENT
    forms = {}
    if is_arbitro:
        for row in rows:
            forms[row.pk] = (
                bound if bound is not None and bound.prefix == f"row-{row.position}" else None
            ) or RowEditForm(table=table, row=row)
    return {
        "table": table,
        "campaign": table.campaign,
        "membership": membership,
        "is_arbitro": is_arbitro,
        "rows": [(row, forms.get(row.pk)) for row in rows],
        "changes": changes,
        "row_add_form": (row_form or RowAddForm()) if is_arbitro and own else None,
        "complete": services.table_complete(table) if own else True,
    }


@login_required
def procedure_table_page(request: HtmxHttpRequest, code) -> HttpResponse:
    table, membership = _get_table(request, code)
    return render(request, "procedure/procedure_table.html", _table_context(table, membership))


@require_POST
@login_required
def procedure_row_edit(request: HtmxHttpRequest, code, position: int) -> HttpResponse:
    table, membership = _get_table(request, code)
    if membership.role != Membership.Role.ARBITRO:
        raise PermissionDenied
    row = get_object_or_404(table.rows, position=position)
    form = RowEditForm(request.POST, table=table, row=row)
    if form.is_valid():
        try:
            services.random_table_row_edit(
                row=row, user=request.user, cells=form.cells(), reason=form.cleaned_data["reason"]
            )
        except ServiceError as error:
            name = "reason" if error.field == "reason" else None
            form.add_error(name, error.message)
        else:
            return redirect("procedure-table", code=table.code)
    context = _table_context(table, membership, bound=form)
    return render(request, "procedure/procedure_table.html", context, status=422)


@require_POST
@login_required
def procedure_row_add(request: HtmxHttpRequest, code) -> HttpResponse:
    """The Árbitro adds a row to a table he made; the history keeps it."""
    table, membership = _get_table(request, code)
    if membership.role != Membership.Role.ARBITRO:
        raise PermissionDenied
    form = RowAddForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.random_table_row_add(
                table=table,
                user=request.user,
                label=data["label"],
                text=data["text"],
                reason=data["reason"],
            )
        except ServiceError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            return redirect("procedure-table", code=table.code)
    context = _table_context(table, membership, row_form=form)
    return render(request, "procedure/procedure_table.html", context, status=422)
