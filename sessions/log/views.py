"""The scene page: its timeline and the forms that add to it (declarations, announced
modifiers, the server's rolls, narration), the scene's exports and the verification of the
roll chain.

Everyone on a scene page sees new entries without a reload: the log region polls every second
and the server answers 204 (no swap) when nothing is new.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from garganta_site.errors import ServiceError
from garganta_site.http import HtmxHttpRequest, region_response
from gurps.errors import GurpsError
from sessions.access import get_scene, get_scene_for_table
from sessions.exports import as_json, download, tidy_markdown
from sessions.log import chain, services, timeline
from sessions.log.forms import (
    AnnouncementForm,
    ContestForm,
    DamageRollForm,
    DeclarationForm,
    NarrationForm,
    RollForm,
    TableRollForm,
)
from sessions.log.scene_forms import StateChangeForm
from sessions.log.targets import UNKNOWN_TARGET, roll_target, roll_targets
from sessions.models import Declaration, ModifierAnnouncement, Roll, Scene
from sessions.procedure.forms import procedure_form
from sheets.models import Character, Membership

# --- the scene page ---------------------------------------------------------------------------

# The Mestre's forms with a "responde à declaração" list, in the page's order.
DECLARATION_FORMS = ("announcement_form", "roll_form", "damage_form", "table_form", "contest_form")


class _SceneTable:
    """What the Mestre's forms offer, read once per request: the scene's characters, the
    lines of their homologated sheets and the latest declarations."""

    def __init__(self, scene: Scene):
        self.characters = list(scene.characters.all())
        self.targets = [(c, roll_targets(c)) for c in self.characters]
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
                (f"{character.code}|{t.key}", t.option)
                for t in targets
                if not tests_only or t.kind != "defence"
            ]
            if options:
                groups.append((character.name, options))
        return groups

    def has_sheet(self, character: Character) -> bool:
        return any(targets for c, targets in self.targets if c.pk == character.pk)

    def character(self, code: str) -> Character | None:
        return next((c for c in self.characters if str(c.code) == code), None)

    def target(self, value: str):
        """``<character code>|<key>`` → (character, RollTarget); ServiceError if not offered."""
        character_code, _, key = value.partition("|")
        character = self.character(character_code)
        if character is None:
            raise ServiceError(UNKNOWN_TARGET, field="target")
        return character, roll_target(character, key)


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


def _context(request, scene, membership, *, forms=None, panel="", error="", close_error=""):
    own = [c for c in scene.characters.all() if c.is_owned_by(request.user)]
    entries = timeline.scene_log_entries(scene, membership=membership, user=request.user)
    open_for_entries = scene.is_open and scene.week.accepts_entries
    context = {
        "scene": scene,
        "week": scene.week,
        "membership": membership,
        "entries": entries,
        "log_token": timeline.scene_log_token(scene, entries),
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
            context["procedure_form"] = procedure_form(scene.week.campaign)
        _scene_as_a_whole(context, table, close_error)
    return context


def _scene_as_a_whole(context: dict, table: _SceneTable, close_error: str) -> None:
    """The Mestre's forms for the scene as a whole (sessions.log.scene_views)."""
    if "state_change_form" not in context:
        context["state_change_form"] = StateChangeForm(characters=table.characters)
    context["can_close"] = True
    context["close_error"] = close_error


@login_required
def scene_detail(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = get_scene(request, code)
    return render(request, "log/scene.html", _context(request, scene, membership))


@login_required
def scene_log(request: HtmxHttpRequest, code) -> HttpResponse:
    """The log region alone, for polling: 204 when the client already has every entry."""
    scene, membership = get_scene(request, code)
    entries = timeline.scene_log_entries(scene, membership=membership, user=request.user)
    token = timeline.scene_log_token(scene, entries)
    if request.GET.get("n") == token:
        return HttpResponse(status=204)
    context = {"scene": scene, "entries": entries, "log_token": token, "membership": membership}
    response = render(request, "log/scene.html#log", context)
    if membership.runs_the_table and scene.is_open and scene.week.accepts_entries:
        # New declarations reach the Mestre's "responde à declaração" lists too; the page
        # keeps what is chosen in them (keepChoice in the template).
        forms = _table_forms(_SceneTable(scene))
        for key in DECLARATION_FORMS:
            select = _declaration_select(forms[key], "declaration")
            fragment = render(
                request,
                "log/scene.html#declaration-select",
                {"select": select, "oob": True},
            )
            response.content += fragment.content
    return response


def scene_respond(
    request, scene, membership, *, status=200, forms=None, panel="", close_error=""
) -> HttpResponse:
    """The scene's workspace after a form of it was posted (``garganta_site.http``)."""
    return region_response(
        request,
        template="log/scene.html",
        region="workspace",
        context=lambda: _context(
            request, scene, membership, forms=forms, panel=panel, close_error=close_error
        ),
        redirect_to=scene.get_absolute_url(),
        failed=status != 200,
    )


# Fields a service names that live elsewhere in a form.
FIELD_ALIASES = {
    "modifiers": "mod_label_0",
    "a.modifiers": "a_mod_label_0",
    "b.modifiers": "b_mod_label_0",
    "a.character": "a_target",
    "b.character": "b_target",
    "a.label": "a_target",
    "b.label": "b_target",
    "a.base_level": "a_base_level",
    "b.base_level": "b_base_level",
    "a.name": "a_name",
    "b.name": "b_name",
    "a.skill": "a_target",
    "b.skill": "b_target",
    "skill": "label",
    "attribute": "default_attribute",
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
    scene, membership = get_scene_for_table(request, code)
    table = _SceneTable(scene)
    form = _table_forms(table, request.POST, only=key)[key]
    if not form.is_valid():
        return scene_respond(request, scene, membership, status=422, forms={key: form}, panel=panel)
    try:
        act(scene, table, form.cleaned_data)
    except (ServiceError, GurpsError) as error:
        _attach_error(form, error)
        return scene_respond(request, scene, membership, status=422, forms={key: form}, panel=panel)
    return scene_respond(request, scene, membership, panel=panel)


def _declaration(scene: Scene, value: str) -> Declaration | None:
    if not value:
        return None
    return Declaration.objects.filter(scene=scene, pk=value).select_related("character").first()


@require_POST
@login_required
def declaration_add(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = get_scene(request, code)
    own = [c for c in scene.characters.all() if c.is_owned_by(request.user)]
    if not own:
        raise PermissionDenied
    form = DeclarationForm(request.POST, characters=own)
    forms = {"declaration_form": form}
    if not form.is_valid():
        return scene_respond(request, scene, membership, status=422, forms=forms)
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
        return scene_respond(request, scene, membership, status=422, forms=forms)
    return scene_respond(request, scene, membership)


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
        asked = {}
        if data["target"] == "custom":
            character = table.character(data.get("custom_character") or "")
            if character is None and declaration is not None:
                character = declaration.character
            label, kind = data["label"], data["kind"]
            if character is not None and kind != "defence" and table.has_sheet(character):
                # A skill the sheet lacks: its default (§3.3); the level is the server's.
                asked = {
                    "skill": label,
                    "attribute": data["default_attribute"],
                    "difficulty": data["difficulty"],
                    "base_level": data["base_level"],
                }
            else:
                asked = {"base_level": data["base_level"], "kind": kind}
        else:
            character, target = table.target(data["target"])
            label = target.label
            if target.kind == "defence":
                asked = {"base_level": target.level, "kind": "defence"}
            else:
                asked = {"skill": target.skill, "attribute": target.attribute}
        services.roll_create(
            scene=scene,
            user=request.user,
            label=label,
            modifiers=data["modifiers"],
            character=character,
            declaration=declaration,
            hidden=data["hidden"],
            request_key=data["request_key"],
            **asked,
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
            modifiers = tuple(data[f"{prefix}_modifiers"])
            if data[f"{prefix}_target"] == "custom":
                sides.append(
                    services.ContestSide(
                        character=None,
                        name=data[f"{prefix}_name"],
                        label=data[f"{prefix}_label"],
                        base_level=data[f"{prefix}_base_level"],
                        modifiers=modifiers,
                    )
                )
                continue
            character, target = table.target(data[f"{prefix}_target"])
            sides.append(
                services.ContestSide(
                    character=character,
                    label=target.label,
                    skill=target.skill,
                    attribute=target.attribute,
                    modifiers=modifiers,
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


def _scene_filename(scene: Scene, ext: str) -> str:
    return f"{scene.week.campaign.slug}-semana-{scene.week.number:02d}-cena-{str(scene.code)[:8]}.{ext}"


@login_required
def scene_export_json(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = get_scene(request, code)
    data = timeline.scene_export(scene, membership=membership, user=request.user)
    return download(as_json(data), _scene_filename(scene, "json"), "application/json")


@login_required
def scene_export_markdown(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = get_scene(request, code)
    data = timeline.scene_export(scene, membership=membership, user=request.user)
    text = render_to_string("log/export.md", {"scenes": [data], "week": None})
    return download(
        tidy_markdown(text), _scene_filename(scene, "md"), "text/markdown; charset=utf-8"
    )


@login_required
def rolls_verify_page(request: HtmxHttpRequest) -> HttpResponse:
    """The chain of each campaign of the user, recomputed now: intact, or the first broken
    link. Read-only and open to every member: the promise is that anyone can check."""
    memberships = Membership.objects.filter(user=request.user).select_related("campaign")
    reports = []
    for membership in memberships:
        report = chain.rolls_verify(membership.campaign)
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
    return render(request, "log/verify.html", {"reports": reports})
