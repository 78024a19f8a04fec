"""The scene page's forms for the scene as a whole: closing it (with a confirmation step that
needs no JavaScript; ``hx-confirm`` asks in the browser when htmx runs), and PV and fatigue
changed outside a fight (asked first: the change cannot be undone). The services are ``sessions.log.scene_ops``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns.confirm import confirmation_step
from campaigns.errors import ServiceError
from campaigns.http import HtmxHttpRequest
from rulesets.registry import rule_errors
from sessions.access import get_scene_for_table
from sessions.log import scene_ops
from sessions.log import services as log_services
from sessions.log.scene_forms import StateChangeForm
from sessions.log.views import scene_respond


@require_POST
@login_required
def scene_close(request: HtmxHttpRequest, code) -> HttpResponse:
    """POST without ``confirmar``: the question, on its own page. With it: the scene closes and
    the page reloads; refused (a combat or a descent running), the reason next to the button."""
    scene, membership = get_scene_for_table(request, code)
    if request.POST.get("confirmar") != "1":
        return render(request, "log/scene_close.html", {"scene": scene})
    try:
        scene_ops.scene_close(scene=scene, user=request.user)
    except ServiceError as error:
        if not request.htmx:
            context = {"scene": scene, "error": error.message}
            return render(request, "log/scene_close.html", context, status=422)
        return scene_respond(request, scene, membership, status=422, close_error=error.message)
    if request.htmx:
        return HttpResponseClientRedirect(scene.get_absolute_url())
    return redirect(scene.get_absolute_url())


@require_POST
@login_required
def state_change_add(request: HtmxHttpRequest, code) -> HttpResponse:
    scene, membership = get_scene_for_table(request, code)
    characters = list(scene.characters.all())
    form = StateChangeForm(
        request.POST, characters=characters, d20=log_services.rolls_d20(scene.week.campaign)
    )
    forms = {"state_change_form": form}
    if not form.is_valid():
        return scene_respond(request, scene, membership, status=422, forms=forms, panel="state")
    data = form.cleaned_data
    character = next(c for c in characters if str(c.code) == data["character"])
    if step := confirmation_step(request, "state_change", back=scene.get_absolute_url()):
        return step
    try:
        scene_ops.state_change_create(
            scene=scene,
            user=request.user,
            character=character,
            hp=data["hp"] or 0,
            fatigue=data.get("fatigue") or 0,
            reason=data["reason"],
            request_key=data["request_key"],
        )
    except (ServiceError, *rule_errors()) as error:
        name = getattr(error, "field", "") or ""
        form.add_error(name if name in form.fields else None, error.message)
        return scene_respond(request, scene, membership, status=422, forms=forms, panel="state")
    return scene_respond(request, scene, membership, panel="state")
