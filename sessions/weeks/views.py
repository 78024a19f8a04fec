"""The week's pages: the weeks of a campaign, a week (its scenes, world actions and Boletim),
the weekly report with its homologation and corrections, the week's exports and a player's
folder of hidden rolls.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.access import membership_for
from campaigns.confirm import confirmation_step
from campaigns.errors import ServiceError
from campaigns.http import HtmxHttpRequest
from campaigns.models import Membership
from sessions.access import deny_unless_arbitro, deny_unless_table, get_campaign, get_week
from sessions.exports import as_json, download, tidy_markdown
from sessions.log import services as log_services
from sessions.models import Week
from sessions.weeks import services
from sessions.weeks.forms import (
    BulletinForm,
    ReportCorrectionForm,
    ReportForm,
    ReportReturnForm,
    SceneForm,
    WorldActionForm,
)
from sheets.models import Character


def _week_filename(week: Week, ext: str) -> str:
    return f"{week.campaign.slug}-semana-{week.number:02d}.{ext}"


@login_required
def week_export_json(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = get_week(request, campaign, number)
    data = services.week_export(week, membership=membership, user=request.user)
    return download(as_json(data), _week_filename(week, "json"), "application/json")


@login_required
def week_export_markdown(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = get_week(request, campaign, number)
    data = services.week_export(week, membership=membership, user=request.user)
    text = render_to_string(
        "log/export.md",
        {"scenes": data["scenes"], "week": data, "state_label": week.get_state_display()},
    )
    return download(tidy_markdown(text), _week_filename(week, "md"), "text/markdown; charset=utf-8")


# --- weeks ------------------------------------------------------------------------------------


def _weeks_context(campaign, membership, *, error=""):
    weeks = list(
        Week.objects.filter(campaign=campaign).select_related("report").order_by("-number")
    )
    last = weeks[0] if weeks else None
    return {
        "campaign": campaign,
        "membership": membership,
        "weeks": weeks,
        "can_open": membership.runs_the_table
        and (last is None or last.bulletin_published_at is not None),
        "next_number": (last.number + 1) if last else 1,
        "last": last,
        "error": error,
    }


@login_required
def weeks(request: HtmxHttpRequest, campaign) -> HttpResponse:
    campaign, membership = get_campaign(request, campaign)
    return render(request, "weeks/weeks.html", _weeks_context(campaign, membership))


@require_POST
@login_required
def week_open(request: HtmxHttpRequest, campaign) -> HttpResponse:
    campaign, membership = get_campaign(request, campaign)
    deny_unless_table(membership)
    number = request.POST.get("number", "")
    try:
        week = services.week_open(
            campaign=campaign,
            user=request.user,
            number=int(number) if number.isdigit() else None,
        )
    except ServiceError as error:
        context = _weeks_context(campaign, membership, error=error.message)
        return render(request, "weeks/weeks.html", context, status=422)
    return redirect(week)


def _week_context(request, week: Week, membership: Membership, **forms) -> dict:
    user = request.user
    report = week.report_or_none()
    rows = services.week_world_actions(week)
    own_rows = [row for row in rows if row.character.is_owned_by(user)]
    accepts = week.accepts_entries
    context = {
        "campaign": week.campaign,
        "week": week,
        "membership": membership,
        "states": Week.State.choices,
        "scenes": services.week_scenes(week, membership=membership, user=user),
        "action_rows": rows,
        "report": report,
        "report_visible": services.report_visible_to(membership, report),
        "previous_week": Week.objects.filter(campaign=week.campaign, number=week.number - 1)
        .only("number")
        .first(),
        "next_week": Week.objects.filter(campaign=week.campaign, number=week.number + 1)
        .only("number")
        .first(),
    }
    if membership.runs_the_table:
        context["players"] = [
            m.user
            for m in Membership.objects.filter(
                campaign=week.campaign, role=Membership.Role.JOGADOR
            ).select_related("user")
        ]
    if accepts and any(row.left for row in own_rows):
        context["world_action_form"] = forms.get("world_action_form") or WorldActionForm(
            characters=[row.character for row in own_rows if row.left]
        )
    if accepts and membership.runs_the_table:
        context["scene_form"] = forms.get("scene_form") or SceneForm(
            characters=Character.objects.filter(campaign=week.campaign)
        )
    if (
        membership.runs_the_table
        and report is not None
        and report.is_homologated
        and week.bulletin_published_at is None
    ):
        context["bulletin_form"] = forms.get("bulletin_form") or BulletinForm()
    context["can_open_next"] = (
        membership.runs_the_table
        and week.bulletin_published_at is not None
        and context["next_week"] is None
    )
    return context


@login_required
def week_detail(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = get_week(request, campaign, number)
    return render(request, "weeks/week.html", _week_context(request, week, membership))


@require_POST
@login_required
def world_action_add(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = get_week(request, campaign, number)
    own = list(Character.objects.filter(campaign=week.campaign, owner=request.user))
    if not own:
        raise PermissionDenied
    form = WorldActionForm(request.POST, characters=own)
    if form.is_valid():
        character = next(c for c in own if str(c.code) == form.cleaned_data["character"])
        try:
            services.world_action_create(
                week=week,
                character=character,
                user=request.user,
                text=form.cleaned_data["text"],
                request_key=form.cleaned_data["request_key"],
            )
        except ServiceError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            return redirect(week)
    context = _week_context(request, week, membership, world_action_form=form)
    # The refused form shows even when no action is left: the message is next to it.
    context["world_action_form"] = form
    return render(request, "weeks/week.html", context, status=422)


@require_POST
@login_required
def scene_add(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = get_week(request, campaign, number)
    deny_unless_table(membership)
    characters = list(Character.objects.filter(campaign=week.campaign))
    form = SceneForm(request.POST, characters=characters)
    if form.is_valid():
        data = form.cleaned_data
        try:
            scene = log_services.scene_create(
                week=week,
                user=request.user,
                title=data["title"],
                floor=data["floor"],
                terrain=data["terrain"],
                boss=data["boss"],
                characters=[c for c in characters if str(c.code) in data["characters"]],
                request_key=data["request_key"],
            )
        except ServiceError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            return redirect(scene)
    context = _week_context(request, week, membership, scene_form=form)
    context["scene_form"] = form
    return render(request, "weeks/week.html", context, status=422)


@require_POST
@login_required
def bulletin_publish(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = get_week(request, campaign, number)
    deny_unless_table(membership)
    form = BulletinForm(request.POST)
    if form.is_valid():
        if step := confirmation_step(request, "bulletin_publish", back=week.get_absolute_url()):
            return step
        try:
            services.week_publish_bulletin(
                week=week, user=request.user, text=form.cleaned_data["text"]
            )
        except ServiceError as error:
            form.add_error("text" if error.field else None, error.message)
        else:
            return redirect(week)
    context = _week_context(request, week, membership, bulletin_form=form)
    context["bulletin_form"] = form
    return render(request, "weeks/week.html", context, status=422)


# --- the weekly report ------------------------------------------------------------------------


def _report_context(week: Week, membership: Membership, **forms) -> dict:
    report = week.report_or_none()
    visible = services.report_visible_to(membership, report)
    corrections = list(report.corrections.select_related("by")) if report and visible else []
    context = {
        "campaign": week.campaign,
        "week": week,
        "membership": membership,
        "report": report,
        "report_visible": visible,
        "corrections": corrections,
        "current_text": services.report_current_text(report, corrections) if visible else "",
        "hidden_rolls": services.week_hidden_rolls(week)
        if membership.runs_the_table or week.hidden_rolls_revealed
        else [],
    }
    editable = report is None or report.is_editable
    if membership.runs_the_table and editable and week.bulletin_published_at is None:
        context["report_form"] = forms.get("report_form") or ReportForm(
            initial={"text": report.text if report else ""}
        )
    if membership.role == Membership.Role.ARBITRO and report is not None:
        if report.status == report.Status.SUBMITTED:
            context["return_form"] = forms.get("return_form") or ReportReturnForm()
        if report.is_homologated:
            context["correction_form"] = forms.get("correction_form") or ReportCorrectionForm(
                initial={"new_text": context["current_text"]}
            )
    context["error"] = forms.get("error", "")
    return context


@login_required
def week_report(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    """The report page; a POST from the table writes (or rewrites) the report's text."""
    week, membership = get_week(request, campaign, number)
    if request.method == "POST":
        deny_unless_table(membership)
        form = ReportForm(request.POST)
        if form.is_valid():
            try:
                services.report_write(week=week, user=request.user, text=form.cleaned_data["text"])
            except ServiceError as error:
                form.add_error("text" if error.field else None, error.message)
            else:
                return redirect("week-report", campaign=week.campaign.slug, number=week.number)
        context = _report_context(week, membership, report_form=form)
        context["report_form"] = form
        return render(request, "weeks/report.html", context, status=422)
    return render(request, "weeks/report.html", _report_context(week, membership))


def _report_url(week: Week) -> str:
    return reverse("week-report", kwargs={"campaign": week.campaign.slug, "number": week.number})


def _report_decision(
    request, campaign, number, check: Callable[[Membership], None], act: Callable, confirm: str
) -> HttpResponse:
    week, membership = get_week(request, campaign, number)
    check(membership)
    if step := confirmation_step(request, confirm, back=_report_url(week)):
        return step
    try:
        act(week)
    except ServiceError as error:
        context = _report_context(week, membership, error=error.message)
        return render(request, "weeks/report.html", context, status=422)
    return redirect("week-report", campaign=week.campaign.slug, number=week.number)


@require_POST
@login_required
def report_submit(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    return _report_decision(
        request,
        campaign,
        number,
        deny_unless_table,
        lambda week: services.report_submit(week=week, user=request.user),
        "report_submit",
    )


@require_POST
@login_required
def report_homologate(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    return _report_decision(
        request,
        campaign,
        number,
        deny_unless_arbitro,
        lambda week: services.report_homologate(week=week, user=request.user),
        "report_homologate",
    )


@require_POST
@login_required
def report_return(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = get_week(request, campaign, number)
    deny_unless_arbitro(membership)
    form = ReportReturnForm(request.POST)
    if form.is_valid():
        if step := confirmation_step(request, "report_return", back=_report_url(week)):
            return step
        try:
            services.report_return(week=week, user=request.user, reason=form.cleaned_data["reason"])
        except ServiceError as error:
            form.add_error("reason" if error.field else None, error.message)
        else:
            return redirect("week-report", campaign=week.campaign.slug, number=week.number)
    context = _report_context(week, membership, return_form=form)
    context["return_form"] = form
    return render(request, "weeks/report.html", context, status=422)


@require_POST
@login_required
def report_correct(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = get_week(request, campaign, number)
    deny_unless_arbitro(membership)
    form = ReportCorrectionForm(request.POST)
    if form.is_valid():
        if step := confirmation_step(request, "report_correct", back=_report_url(week)):
            return step
        try:
            services.report_correct(
                week=week,
                user=request.user,
                new_text=form.cleaned_data["new_text"],
                reason=form.cleaned_data["reason"],
            )
        except ServiceError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            return redirect("week-report", campaign=week.campaign.slug, number=week.number)
    context = _report_context(week, membership, correction_form=form)
    context["correction_form"] = form
    return render(request, "weeks/report.html", context, status=422)


# --- a player's folder, the chain -------------------------------------------------------------


@login_required
def folder_download(request: HtmxHttpRequest, campaign, username=None) -> HttpResponse:
    """A player's hidden rolls as a ZIP, one ``semana-NN-rolagem-NN.json`` per roll. Your own
    folder; the Mestre and the Árbitro may download anyone's."""
    campaign, membership = get_campaign(request, campaign)
    if username is None or username == request.user.get_username():
        player = request.user
    else:
        deny_unless_table(membership)
        player = get_object_or_404(get_user_model(), username=username)
        if membership_for(player, campaign) is None:
            raise Http404
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in services.player_folder(campaign, player):
            archive.writestr(name, content)
    filename = f"pasta-{player.get_username()}-{campaign.slug}.zip"
    return download(buffer.getvalue(), filename, "application/zip")
