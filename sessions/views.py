"""The scene page: the log in order, a jogador's declaration, the Mestre's roll.

Everyone on the page sees new entries without a reload: the log region polls every two
seconds and the server answers 204 (no swap) when nothing is new.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from django_htmx.http import trigger_client_event

from gurps.errors import GurpsError
from sessions import services
from sessions.forms import DeclarationForm, RollForm
from sessions.models import Declaration, Scene
from sheets.models import Membership
from sheets.services import ServiceError, membership_for
from sheets.views import HtmxHttpRequest


def _get_scene(request, code) -> tuple[Scene, Membership]:
    scene = get_object_or_404(Scene.objects.select_related("week__campaign"), code=code)
    membership = membership_for(request.user, scene.week.campaign)
    if membership is None:
        raise Http404
    return scene, membership


def _own_characters(scene: Scene, user) -> list:
    return [c for c in scene.characters.all() if c.is_owned_by(user)]


def _roll_form(scene: Scene, data=None, initial=None) -> RollForm:
    target_choices = []
    for character in scene.characters.all():
        options = [
            (f"{character.code}|{t.key}", f"{t.label} ({t.level})")
            for t in services.roll_targets(character)
        ]
        if options:
            target_choices.append((character.name, options))
    declaration_choices = [
        (str(d.pk), f"{d.character.name}: {d.text[:60]}")
        for d in scene.declarations.select_related("character").order_by("-created_at")[:20]
    ]
    return RollForm(
        data,
        initial=initial,
        target_choices=target_choices,
        declaration_choices=declaration_choices,
    )


def _context(request, scene, membership, *, declaration_form=None, roll_form=None, error=""):
    own = _own_characters(scene, request.user)
    entries = services.scene_log_entries(scene, membership=membership, user=request.user)
    context = {
        "scene": scene,
        "membership": membership,
        "entries": entries,
        "entry_count": len(entries),
        "own_characters": own,
        "error": error,
    }
    if own:
        context["declaration_form"] = declaration_form or DeclarationForm(characters=own)
    if membership.runs_the_table:
        context["roll_form"] = roll_form or _roll_form(scene)
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
    if request.GET.get("n") == str(len(entries)):
        return HttpResponse(status=204)
    context = {"scene": scene, "entries": entries, "entry_count": len(entries)}
    response = render(request, "sessions/scene.html#log", context)
    if membership.runs_the_table:
        # New declarations reach the Mestre's "responde à declaração" list too, keeping
        # the one already chosen.
        form = _roll_form(scene, initial={"declaration": request.GET.get("declaration", "")})
        select = render(
            request, "sessions/scene.html#declaration-select", {"roll_form": form, "oob": True}
        )
        response.content += select.content
    return response


def _respond(request, scene, membership, *, status=200, **forms) -> HttpResponse:
    if request.htmx:
        context = _context(request, scene, membership, **forms)
        response = render(request, "sessions/scene.html#workspace", context, status=status)
        if status == 200:
            # The log refreshes at once for the one who wrote; others see it on their poll.
            trigger_client_event(response, "log-changed")
        return response
    if status != 200:
        return render(
            request,
            "sessions/scene.html",
            _context(request, scene, membership, **forms),
            status=status,
        )
    return redirect("scene", code=scene.code)


@require_POST
@login_required
def declaration_add(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = _get_scene(request, code)
    own = _own_characters(scene, request.user)
    if not own:
        raise PermissionDenied
    form = DeclarationForm(request.POST, characters=own)
    if not form.is_valid():
        return _respond(request, scene, membership, status=422, declaration_form=form)
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
        return _respond(request, scene, membership, status=422, declaration_form=form)
    return _respond(request, scene, membership)


@require_POST
@login_required
def roll_add(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = _get_scene(request, code)
    if not membership.runs_the_table:
        raise PermissionDenied
    form = _roll_form(scene, request.POST)
    if not form.is_valid():
        return _respond(request, scene, membership, status=422, roll_form=form)
    data = form.cleaned_data
    characters = {str(c.code): c for c in scene.characters.all()}
    character = None
    try:
        if data["target"] == "custom":
            label, level, kind = data["label"], data["base_level"], data["kind"]
        else:
            character_code, key = data["target"].split("|", 1)
            character = characters[character_code]
            target = services.roll_target(character, key)
            label, level, kind = f"{target.label}", target.level, target.kind
        declaration = None
        if data.get("declaration"):
            declaration = Declaration.objects.filter(scene=scene, pk=data["declaration"]).first()
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
    except (ServiceError, GurpsError) as error:
        field = getattr(error, "field", "") or None
        form.add_error(field if field in form.fields else None, error.message)
        return _respond(request, scene, membership, status=422, roll_form=form)
    return _respond(request, scene, membership)
