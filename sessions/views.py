"""The table's pages: the scene (its timeline and the forms that add to it), the week (scenes,
world actions, report, Boletim), the weekly report, exports, a player's folder of hidden rolls
and the verification of the roll chain.

Everyone on a scene page sees new entries without a reload: the log region polls every second
and the server answers 204 (no swap) when nothing is new.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST
from django_htmx.http import trigger_client_event

from garganta_site.errors import ServiceError
from garganta_site.http import HtmxHttpRequest
from gurps.errors import GurpsError
from sessions import services
from sessions.forms import (
    AnnouncementForm,
    BulletinForm,
    ContestForm,
    DamageRollForm,
    DeclarationForm,
    NarrationForm,
    ReportCorrectionForm,
    ReportForm,
    ReportReturnForm,
    RollForm,
    SceneForm,
    TableRollForm,
    WorldActionForm,
)
from sessions.models import Declaration, ModifierAnnouncement, Roll, Scene, Week
from sheets.models import Campaign, Character, Membership
from sheets.services import membership_for

# --- access -----------------------------------------------------------------------------------


def _get_scene(request, code) -> tuple[Scene, Membership]:
    scene = get_object_or_404(
        Scene.objects.select_related("week__campaign", "week__report").prefetch_related(
            "characters"
        ),
        code=code,
    )
    membership = membership_for(request.user, scene.week.campaign)
    if membership is None:
        raise Http404
    return scene, membership


def _get_scene_for_table(request, code) -> tuple[Scene, Membership]:
    scene, membership = _get_scene(request, code)
    if not membership.runs_the_table:
        raise PermissionDenied
    return scene, membership


def _get_campaign(request, slug) -> tuple[Campaign, Membership]:
    campaign = get_object_or_404(Campaign, slug=slug)
    membership = membership_for(request.user, campaign)
    if membership is None:
        raise Http404
    return campaign, membership


def _get_week(request, slug, number) -> tuple[Week, Membership]:
    campaign, membership = _get_campaign(request, slug)
    week = get_object_or_404(
        Week.objects.select_related("campaign", "report"), campaign=campaign, number=number
    )
    return week, membership


def _require_table(membership: Membership) -> None:
    if not membership.runs_the_table:
        raise PermissionDenied


def _require_arbitro(membership: Membership) -> None:
    if membership.role != Membership.Role.ARBITRO:
        raise PermissionDenied


# --- the scene page ---------------------------------------------------------------------------

# The Mestre's forms with a "responde à declaração" list, in the page's order.
DECLARATION_FORMS = ("announcement_form", "roll_form", "damage_form", "table_form", "contest_form")


class _SceneTable:
    """What the Mestre's forms offer, read once per request: the scene's characters, the
    lines of their homologated sheets and the latest declarations."""

    def __init__(self, scene: Scene):
        self.characters = list(scene.characters.all())
        self.targets = [(c, services.roll_targets(c)) for c in self.characters]
        declarations = (
            Declaration.objects.filter(scene=scene)
            .select_related("character")
            .order_by("-created_at")[:20]
        )
        latest = {}
        for announcement in ModifierAnnouncement.objects.filter(scene=scene).order_by(
            "created_at", "pk"
        ):
            latest[announcement.declaration_id] = announcement
        self.declaration_choices = [
            (str(d.pk), _declaration_text(d, latest.get(d.pk))) for d in declarations
        ]
        self.character_choices = [(str(c.code), c.name) for c in self.characters]

    def target_choices(self, *, tests_only=False):
        groups = []
        for character, targets in self.targets:
            options = [
                (f"{character.code}|{t.key}", f"{t.label} ({t.level})")
                for t in targets
                if not tests_only or t.kind != "defence"
            ]
            if options:
                groups.append((character.name, options))
        return groups

    def character(self, code: str) -> Character | None:
        return next((c for c in self.characters if str(c.code) == code), None)

    def target(self, value: str):
        """``<character code>|<key>`` → (character, RollTarget); ServiceError if not offered."""
        character_code, _, key = value.partition("|")
        character = self.character(character_code)
        if character is None:
            raise ServiceError(services.UNKNOWN_TARGET, field="target")
        return character, services.roll_target(character, key)


def _declaration_text(declaration: Declaration, announcement) -> str:
    """The option a declaration gets in the Mestre's lists, with what was announced for it."""
    text = f"{declaration.character.name}: {declaration.text[:60]}"
    if announcement is None:
        return f"{text} · sem anúncio"
    modifiers = announcement.modifiers
    said = ", ".join(f"{m['label']} {m['value']:+d}".replace("-", "−") for m in modifiers)
    return f"{text} · anunciado: {said or 'sem modificadores'}"


def _declaration_select(form, name: str) -> dict:
    field = form[name]
    return {
        "name": field.html_name,
        "id": field.auto_id,
        "choices": form.fields[name].choices,
        "value": str(field.value() or ""),
    }


def _table_forms(table: _SceneTable, data=None, *, only=None) -> dict:
    """The Mestre's forms, fresh, except ``only`` (a key) which is bound to ``data``."""
    makers = {
        "announcement_form": lambda d: AnnouncementForm(
            d, declaration_choices=table.declaration_choices
        ),
        "roll_form": lambda d: RollForm(
            d,
            target_choices=table.target_choices(),
            declaration_choices=table.declaration_choices,
            character_choices=table.character_choices,
        ),
        "narration_form": lambda d: NarrationForm(d),
        "damage_form": lambda d: DamageRollForm(
            d,
            character_choices=table.character_choices,
            declaration_choices=table.declaration_choices,
        ),
        "table_form": lambda d: TableRollForm(
            d,
            character_choices=table.character_choices,
            declaration_choices=table.declaration_choices,
        ),
        "contest_form": lambda d: ContestForm(
            d,
            target_choices=table.target_choices(tests_only=True),
            declaration_choices=table.declaration_choices,
        ),
    }
    return {key: make(data if key == only else None) for key, make in makers.items()}


def _context(request, scene, membership, *, forms=None, panel="", error=""):
    own = [c for c in scene.characters.all() if c.is_owned_by(request.user)]
    entries = services.scene_log_entries(scene, membership=membership, user=request.user)
    open_for_entries = scene.is_open and scene.week.accepts_entries
    context = {
        "scene": scene,
        "week": scene.week,
        "membership": membership,
        "entries": entries,
        "log_token": services.scene_log_token(scene, entries),
        "own_characters": own,
        "open_for_entries": open_for_entries,
        "panel": panel,
        "error": error,
    }
    forms = forms or {}
    if own and open_for_entries:
        context["declaration_form"] = forms.get("declaration_form") or DeclarationForm(
            characters=own
        )
    if membership.runs_the_table and open_for_entries:
        table = _SceneTable(scene)
        fresh = _table_forms(table)
        fresh.update({k: v for k, v in forms.items() if k != "declaration_form"})
        context.update(fresh)
        context["declaration_selects"] = [
            _declaration_select(context[key], "declaration") for key in DECLARATION_FORMS
        ]
        if "procedure_form" not in context:
            # The procedure's tables panel (sessions.procedure_views); imported here because
            # that module builds on this one.
            from sessions.procedure_views import procedure_form

            context["procedure_form"] = procedure_form(scene.week.campaign)
    return context


@login_required
def scene_detail(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = _get_scene(request, code)
    return render(request, "sessions/scene.html", _context(request, scene, membership))


@login_required
def scene_log(request: HtmxHttpRequest, code) -> HttpResponse:
    """The log region alone, for polling: 204 when the client already has every entry."""
    scene, membership = _get_scene(request, code)
    entries = services.scene_log_entries(scene, membership=membership, user=request.user)
    token = services.scene_log_token(scene, entries)
    if request.GET.get("n") == token:
        return HttpResponse(status=204)
    context = {"scene": scene, "entries": entries, "log_token": token, "membership": membership}
    response = render(request, "sessions/scene.html#log", context)
    if membership.runs_the_table and scene.is_open and scene.week.accepts_entries:
        # New declarations reach the Mestre's "responde à declaração" lists too; the page
        # keeps what is chosen in them (keepChoice in the template).
        forms = _table_forms(_SceneTable(scene))
        for key in DECLARATION_FORMS:
            select = _declaration_select(forms[key], "declaration")
            fragment = render(
                request,
                "sessions/scene.html#declaration-select",
                {"select": select, "oob": True},
            )
            response.content += fragment.content
    return response


def _respond(request, scene, membership, *, status=200, forms=None, panel="") -> HttpResponse:
    if request.htmx:
        context = _context(request, scene, membership, forms=forms, panel=panel)
        response = render(request, "sessions/scene.html#workspace", context, status=status)
        if status == 200:
            # The log refreshes at once for the one who wrote; others see it on their poll.
            trigger_client_event(response, "log-changed")
        return response
    if status != 200:
        context = _context(request, scene, membership, forms=forms, panel=panel)
        return render(request, "sessions/scene.html", context, status=status)
    return redirect("scene", code=scene.code)


# Fields a service names that live elsewhere in a form.
FIELD_ALIASES = {
    "modifiers": "mod_label_0",
    "a.modifiers": "a_mod_label_0",
    "b.modifiers": "b_mod_label_0",
    "a.character": "a_target",
    "b.character": "b_target",
    "a.label": "a_target",
    "b.label": "b_target",
    "a.base_level": "a_target",
    "b.base_level": "b_target",
    "a.kind": "a_target",
    "b.kind": "b_target",
    "hidden": "hidden",
}


def _attach_error(form, error) -> None:
    name = getattr(error, "field", "") or ""
    name = FIELD_ALIASES.get(name, name)
    form.add_error(name if name in form.fields else None, error.message)


def _table_action(
    request, code, key: str, panel: str, act: Callable[[Scene, _SceneTable, dict], object]
) -> HttpResponse:
    """Bind the Mestre's form ``key``, run ``act`` on its data; errors go next to fields."""
    scene, membership = _get_scene_for_table(request, code)
    table = _SceneTable(scene)
    form = _table_forms(table, request.POST, only=key)[key]
    if not form.is_valid():
        return _respond(request, scene, membership, status=422, forms={key: form}, panel=panel)
    try:
        act(scene, table, form.cleaned_data)
    except (ServiceError, GurpsError) as error:
        _attach_error(form, error)
        return _respond(request, scene, membership, status=422, forms={key: form}, panel=panel)
    return _respond(request, scene, membership, panel=panel)


def _declaration(scene: Scene, value: str) -> Declaration | None:
    if not value:
        return None
    return Declaration.objects.filter(scene=scene, pk=value).select_related("character").first()


@require_POST
@login_required
def declaration_add(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = _get_scene(request, code)
    own = [c for c in scene.characters.all() if c.is_owned_by(request.user)]
    if not own:
        raise PermissionDenied
    form = DeclarationForm(request.POST, characters=own)
    forms = {"declaration_form": form}
    if not form.is_valid():
        return _respond(request, scene, membership, status=422, forms=forms)
    character = next(c for c in own if str(c.code) == form.cleaned_data["character"])
    try:
        services.declaration_create(
            scene=scene,
            character=character,
            user=request.user,
            text=form.cleaned_data["text"],
            request_key=form.cleaned_data["request_key"],
        )
    except ServiceError as error:
        form.add_error(error.field or None, error.message)
        return _respond(request, scene, membership, status=422, forms=forms)
    return _respond(request, scene, membership)


@require_POST
@login_required
def announcement_add(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, table, data):
        services.announcement_create(
            scene=scene,
            user=request.user,
            declaration=_declaration(scene, data["declaration"]),
            modifiers=data["modifiers"],
            note=data["note"],
            request_key=data["request_key"],
        )

    return _table_action(request, code, "announcement_form", "announce", act)


@require_POST
@login_required
def roll_add(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, table, data):
        declaration = _declaration(scene, data.get("declaration"))
        if data["target"] == "custom":
            label, level, kind = data["label"], data["base_level"], data["kind"]
            character = table.character(data.get("custom_character") or "")
            if character is None and declaration is not None:
                character = declaration.character
        else:
            character, target = table.target(data["target"])
            label, level, kind = target.label, target.level, target.kind
        services.roll_create(
            scene=scene,
            user=request.user,
            label=label,
            base_level=level,
            kind=kind,
            modifiers=data["modifiers"],
            character=character,
            declaration=declaration,
            hidden=data["hidden"],
            request_key=data["request_key"],
        )

    return _table_action(request, code, "roll_form", "roll", act)


@require_POST
@login_required
def narration_add(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, table, data):
        services.narration_create(
            scene=scene, user=request.user, text=data["text"], request_key=data["request_key"]
        )

    return _table_action(request, code, "narration_form", "narrate", act)


@require_POST
@login_required
def damage_roll_add(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, table, data):
        services.damage_roll_create(
            scene=scene,
            user=request.user,
            expression=data["expression"],
            label=data["label"],
            character=table.character(data["character"]),
            declaration=_declaration(scene, data["declaration"]),
            request_key=data["request_key"],
        )

    return _table_action(request, code, "damage_form", "damage", act)


@require_POST
@login_required
def table_roll_add(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, table, data):
        services.table_roll_create(
            scene=scene,
            user=request.user,
            table_key=data["table"],
            options=data["options"],
            character=table.character(data["character"]),
            declaration=_declaration(scene, data["declaration"]),
            request_key=data["request_key"],
        )

    return _table_action(request, code, "table_form", "table", act)


@require_POST
@login_required
def contest_add(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, table, data):
        sides = []
        for prefix in ("a", "b"):
            character, target = table.target(data[f"{prefix}_target"])
            sides.append(
                services.ContestSide(
                    character=character,
                    label=target.label,
                    base_level=target.level,
                    kind=target.kind,
                    modifiers=tuple(data[f"{prefix}_modifiers"]),
                )
            )
        services.contest_create(
            scene=scene,
            user=request.user,
            a=sides[0],
            b=sides[1],
            declaration=_declaration(scene, data["declaration"]),
            request_key=data["request_key"],
        )

    return _table_action(request, code, "contest_form", "contest", act)


# --- exports ----------------------------------------------------------------------------------


def _download(content: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _json(data) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)


def _tidy(markdown: str) -> str:
    """The template's Markdown without its blank-line runs."""
    lines = markdown.strip().splitlines()
    tidy = [line for i, line in enumerate(lines) if line.strip() or (i and lines[i - 1].strip())]
    return "\n".join(line.rstrip() for line in tidy) + "\n"


def _scene_filename(scene: Scene, ext: str) -> str:
    return f"{scene.week.campaign.slug}-semana-{scene.week.number:02d}-cena-{str(scene.code)[:8]}.{ext}"


@login_required
def scene_export_json(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = _get_scene(request, code)
    data = services.scene_export(scene, membership=membership, user=request.user)
    return _download(_json(data), _scene_filename(scene, "json"), "application/json")


@login_required
def scene_export_markdown(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = _get_scene(request, code)
    data = services.scene_export(scene, membership=membership, user=request.user)
    text = render_to_string("sessions/export.md", {"scenes": [data], "week": None})
    return _download(_tidy(text), _scene_filename(scene, "md"), "text/markdown; charset=utf-8")


def _week_filename(week: Week, ext: str) -> str:
    return f"{week.campaign.slug}-semana-{week.number:02d}.{ext}"


@login_required
def week_export_json(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = _get_week(request, campaign, number)
    data = services.week_export(week, membership=membership, user=request.user)
    return _download(_json(data), _week_filename(week, "json"), "application/json")


@login_required
def week_export_markdown(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = _get_week(request, campaign, number)
    data = services.week_export(week, membership=membership, user=request.user)
    text = render_to_string(
        "sessions/export.md",
        {"scenes": data["scenes"], "week": data, "state_label": week.get_state_display()},
    )
    return _download(_tidy(text), _week_filename(week, "md"), "text/markdown; charset=utf-8")


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
    campaign, membership = _get_campaign(request, campaign)
    return render(request, "sessions/weeks.html", _weeks_context(campaign, membership))


@require_POST
@login_required
def week_open(request: HtmxHttpRequest, campaign) -> HttpResponse:
    campaign, membership = _get_campaign(request, campaign)
    _require_table(membership)
    number = request.POST.get("number", "")
    try:
        week = services.week_open(
            campaign=campaign,
            user=request.user,
            number=int(number) if number.isdigit() else None,
        )
    except ServiceError as error:
        context = _weeks_context(campaign, membership, error=error.message)
        return render(request, "sessions/weeks.html", context, status=422)
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
    week, membership = _get_week(request, campaign, number)
    return render(request, "sessions/week.html", _week_context(request, week, membership))


@require_POST
@login_required
def world_action_add(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = _get_week(request, campaign, number)
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
    return render(request, "sessions/week.html", context, status=422)


@require_POST
@login_required
def scene_add(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = _get_week(request, campaign, number)
    _require_table(membership)
    characters = list(Character.objects.filter(campaign=week.campaign))
    form = SceneForm(request.POST, characters=characters)
    if form.is_valid():
        data = form.cleaned_data
        try:
            scene = services.scene_create(
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
    return render(request, "sessions/week.html", context, status=422)


@require_POST
@login_required
def bulletin_publish(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = _get_week(request, campaign, number)
    _require_table(membership)
    form = BulletinForm(request.POST)
    if form.is_valid():
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
    return render(request, "sessions/week.html", context, status=422)


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
    week, membership = _get_week(request, campaign, number)
    if request.method == "POST":
        _require_table(membership)
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
        return render(request, "sessions/report.html", context, status=422)
    return render(request, "sessions/report.html", _report_context(week, membership))


def _report_decision(
    request, campaign, number, check: Callable[[Membership], None], act: Callable
) -> HttpResponse:
    week, membership = _get_week(request, campaign, number)
    check(membership)
    try:
        act(week)
    except ServiceError as error:
        context = _report_context(week, membership, error=error.message)
        return render(request, "sessions/report.html", context, status=422)
    return redirect("week-report", campaign=week.campaign.slug, number=week.number)


@require_POST
@login_required
def report_submit(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    return _report_decision(
        request,
        campaign,
        number,
        _require_table,
        lambda week: services.report_submit(week=week, user=request.user),
    )


@require_POST
@login_required
def report_homologate(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    return _report_decision(
        request,
        campaign,
        number,
        _require_arbitro,
        lambda week: services.report_homologate(week=week, user=request.user),
    )


@require_POST
@login_required
def report_return(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = _get_week(request, campaign, number)
    _require_arbitro(membership)
    form = ReportReturnForm(request.POST)
    if form.is_valid():
        try:
            services.report_return(week=week, user=request.user, reason=form.cleaned_data["reason"])
        except ServiceError as error:
            form.add_error("reason" if error.field else None, error.message)
        else:
            return redirect("week-report", campaign=week.campaign.slug, number=week.number)
    context = _report_context(week, membership, return_form=form)
    context["return_form"] = form
    return render(request, "sessions/report.html", context, status=422)


@require_POST
@login_required
def report_correct(request: HtmxHttpRequest, campaign, number) -> HttpResponse:
    week, membership = _get_week(request, campaign, number)
    _require_arbitro(membership)
    form = ReportCorrectionForm(request.POST)
    if form.is_valid():
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
    return render(request, "sessions/report.html", context, status=422)


# --- a player's folder, the chain -------------------------------------------------------------


@login_required
def folder_download(request: HtmxHttpRequest, campaign, username=None) -> HttpResponse:
    """A player's hidden rolls as a ZIP, one ``semana-NN-rolagem-NN.json`` per roll. Your own
    folder; the Mestre and the Árbitro may download anyone's."""
    campaign, membership = _get_campaign(request, campaign)
    if username is None or username == request.user.get_username():
        player = request.user
    else:
        _require_table(membership)
        player = get_object_or_404(get_user_model(), username=username)
        if membership_for(player, campaign) is None:
            raise Http404
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in services.player_folder(campaign, player):
            archive.writestr(name, content)
    filename = f"pasta-{player.get_username()}-{campaign.slug}.zip"
    return _download(buffer.getvalue(), filename, "application/zip")


@login_required
def rolls_verify_page(request: HtmxHttpRequest) -> HttpResponse:
    """The chain of each campaign of the user, recomputed now: intact, or the first broken
    link. Read-only and open to every member: the promise is that anyone can check."""
    memberships = Membership.objects.filter(user=request.user).select_related("campaign")
    reports = []
    for membership in memberships:
        report = services.rolls_verify(membership.campaign)
        broken = None
        if not report.ok:
            broken = (
                Roll.objects.filter(campaign=membership.campaign, sequence=report.first_broken)
                .select_related("scene")
                .first()
            )
        reports.append((membership.campaign, report, broken))
    if not reports:
        raise Http404
    return render(request, "sessions/verify.html", {"reports": reports})
