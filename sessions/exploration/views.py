"""The exploration tracker's pages: the tracker region of the scene page (and its own page, for
a browser without JavaScript), and the Mestre's actions on it.

The scene page loads the region with htmx; jogadores' copies poll it (204 while nothing has
changed), the Mestre's is swapped by each of his actions, and the scene log refreshes with it
(every die is a roll of the log).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.confirm import confirmation_step
from campaigns.errors import ServiceError
from campaigns.forms import one_time_key
from campaigns.http import HtmxHttpRequest, region_response
from sessions.access import get_scene
from sessions.exploration import journey, services, supplies
from sessions.exploration.forms import (
    ConsequenceForm,
    DeclareForm,
    EndForm,
    JourneyForm,
    JourneyTestForm,
    LootForm,
    MarchingForm,
    SleepForm,
    StartForm,
    SupplyForm,
    SurpriseForm,
    TimerForm,
    TravelForm,
    TurnEndForm,
    TurnStartForm,
)
from sessions.models import Exploration, Scene
from sheets.access import character_for_member

FORMS = {
    "start": StartForm,
    "declare": DeclareForm,
    "marching": MarchingForm,
    "timer": TimerForm,
    "turn_start": TurnStartForm,
    "turn_end": TurnEndForm,
    "surprise": SurpriseForm,
    "sleep": SleepForm,
    "journey": JourneyForm,
    "travel": TravelForm,
    "journey_test": JourneyTestForm,
    "supply": SupplyForm,
    "consequence": ConsequenceForm,
    "loot": LootForm,
    "end": EndForm,
}


def _forms(scene: Scene, exploration: Exploration | None, data=None, only: str = "") -> dict:
    """The Mestre's forms, fresh, except ``only`` bound to ``data``."""
    names = [c.name for c in scene.characters.all()]
    order = exploration.marching_order if exploration else names
    initial = {
        "start": {"marching_order": "\n".join(names)},
        "marching": {"marching_order": "\n".join(order)},
        "declare": {
            "danger": exploration.danger if exploration else "",
            "total_darkness": exploration.total_darkness if exploration else False,
        },
    }
    forms = {}
    for key, form in FORMS.items():
        takes_party = key in ("travel", "supply") and exploration
        extra = {"party": exploration.party_names} if takes_party else {}
        forms[key] = form(data if key == only else None, initial=initial.get(key), **extra)
    return forms


def _context(request, scene: Scene, membership, *, forms=None) -> dict:
    exploration = services.exploration_current(scene)
    open_for_entries = scene.is_open and scene.week.accepts_entries
    context = {
        "scene": scene,
        "exploration": exploration,
        "view": services.exploration_view(exploration) if exploration else None,
        "membership": membership,
        "can_run": membership.runs_the_table and open_for_entries,
        # with a test's id, each test's form gets a key of its own (campaigns.forms)
        "render_key": one_time_key(),
    }
    if context["can_run"]:
        fresh = _forms(scene, exploration)
        fresh.update(forms or {})
        context["forms"] = fresh
    return context


def _version(exploration: Exploration | None) -> str:
    return f"{exploration.code}.{exploration.revision}" if exploration else "none"


@login_required
def exploration_panel(request: HtmxHttpRequest, code) -> HttpResponse:
    """The tracker: the region alone for htmx (204 when the poller already has this
    revision), the whole page otherwise."""
    scene, membership = get_scene(request, code)
    if request.htmx:
        seen = request.GET.get("v")
        if seen and seen == _version(services.exploration_current(scene)):
            return HttpResponse(status=204)
        context = _context(request, scene, membership)
        return render(request, "exploration/exploration.html#tracker", context)
    return render(request, "exploration/exploration.html", _context(request, scene, membership))


def _respond(request, scene, membership, *, forms=None, failed=False) -> HttpResponse:
    # A refused form comes back 200 with its errors in the region.
    return region_response(
        request,
        template="exploration/exploration.html",
        region="tracker",
        context=lambda: _context(request, scene, membership, forms=forms),
        redirect_to=reverse("exploration", kwargs={"code": scene.code}),
        failed=failed,
        htmx_failed_status=200,
    )


def _action(request, code, key: str, act: Callable, confirm: str = "") -> HttpResponse:
    """Bind the Mestre's form ``key``, run ``act``; errors go next to the field."""
    scene, membership = get_scene(request, code)
    if not membership.runs_the_table:
        raise PermissionDenied
    exploration = services.exploration_current(scene)
    form = _forms(scene, exploration, request.POST, only=key)[key]
    if not form.is_valid():
        return _respond(request, scene, membership, forms={key: form}, failed=True)
    if confirm and (step := confirmation_step(request, confirm, back=scene.get_absolute_url())):
        return step
    try:
        if key != "start" and exploration is None:
            raise ServiceError(services.EXPLORATION_ENDED, code="exploration_ended")
        act(scene, exploration, form.cleaned_data)
    except ServiceError as error:
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return _respond(request, scene, membership, forms={key: form}, failed=True)
    return _respond(request, scene, membership)


@require_POST
@login_required
def exploration_start(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        started = services.exploration_start(
            scene=scene,
            user=request.user,
            danger=data["danger"],
            total_darkness=data["total_darkness"],
            region=data["region"],
            marching_order=data["marching_order"],
            request_key=data["request_key"],
        )
        if data["season"] and not started.journey_started:
            journey.exploration_journey_start(
                exploration=started,
                user=request.user,
                season=data["season"],
                request_key=f"{data['request_key'][:55]}-jornada",
            )

    return _action(request, code, "start", act)


@require_POST
@login_required
def exploration_declare(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        services.exploration_declare(
            exploration=exploration,
            user=request.user,
            danger=data["danger"],
            total_darkness=data["total_darkness"],
            request_key=data["request_key"],
        )

    return _action(request, code, "declare", act)


@require_POST
@login_required
def exploration_marching(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        services.exploration_marching_order(
            exploration=exploration,
            user=request.user,
            names=data["marching_order"],
            request_key=data["request_key"],
        )

    return _action(request, code, "marching", act)


@require_POST
@login_required
def exploration_timer(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        services.exploration_timer_add(
            exploration=exploration,
            user=request.user,
            name=data["name"],
            kind=data["kind"],
            turns=data["turns"],
            request_key=data["request_key"],
        )

    return _action(request, code, "timer", act)


@require_POST
@login_required
def exploration_turn_start(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        services.exploration_turn_start(
            exploration=exploration, user=request.user, request_key=data["request_key"]
        )

    return _action(request, code, "turn_start", act)


@require_POST
@login_required
def exploration_turn_end(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        services.exploration_turn_end(
            exploration=exploration,
            user=request.user,
            rested=data["rested"],
            note=data["note"],
            request_key=data["request_key"],
        )

    return _action(request, code, "turn_end", act)


@require_POST
@login_required
def exploration_surprise(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        services.exploration_surprise(
            exploration=exploration, user=request.user, request_key=data["request_key"]
        )

    return _action(request, code, "surprise", act)


@require_POST
@login_required
def exploration_sleep(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        services.exploration_sleep(
            exploration=exploration,
            user=request.user,
            hours=data["hours"],
            request_key=data["request_key"],
        )

    return _action(request, code, "sleep", act)


@require_POST
@login_required
def exploration_journey(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        journey.exploration_journey_start(
            exploration=exploration,
            user=request.user,
            season=data["season"],
            region=data["region"],
            request_key=data["request_key"],
        )

    return _action(request, code, "journey", act)


@require_POST
@login_required
def exploration_travel(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        journey.exploration_travel(
            exploration=exploration,
            user=request.user,
            activity=data["activity"],
            region=data["region"],
            mode=data["mode"],
            per_character=data["per_character"],
            request_key=data["request_key"],
        )

    return _action(request, code, "travel", act)


@require_POST
@login_required
def exploration_journey_test(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        journey.exploration_journey_test(
            exploration=exploration,
            user=request.user,
            test=data["test"],
            roll=data["roll"],
            request_key=data["request_key"],
        )

    return _action(request, code, "journey_test", act)


@require_POST
@login_required
def exploration_supply(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        supplies.exploration_supply_adjust(
            exploration=exploration,
            user=request.user,
            holder=data["holder"],
            kind=data["kind"],
            delta=data["delta"],
            reason=data["reason"],
            request_key=data["request_key"],
        )

    return _action(request, code, "supply", act)


@require_POST
@login_required
def exploration_consequence(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        services.exploration_consequence(
            exploration=exploration,
            user=request.user,
            text=data["text"],
            request_key=data["request_key"],
        )

    return _action(request, code, "consequence", act)


@require_POST
@login_required
def exploration_loot(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        services.exploration_loot(
            exploration=exploration,
            user=request.user,
            category=data["category"],
            kind=data["kind"],
            quantity=data["quantity"],
            request_key=data["request_key"],
        )

    return _action(request, code, "loot", act)


@require_POST
@login_required
def exploration_end(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, exploration, data):
        services.exploration_end(
            exploration=exploration, user=request.user, request_key=data["request_key"]
        )

    return _action(request, code, "end", act, confirm="exploration_end")


@login_required
def character_journey(request: HtmxHttpRequest, code) -> HttpResponse:
    """The sheet's view of the journey a character is on: his food, water and ammunition, the
    party's common stock, his exhaustion and Tabela I's row (the region alone for htmx)."""
    character, membership = character_for_member(request, code)
    running = Exploration.objects.filter(
        scene__week__campaign_id=character.campaign_id, status=Exploration.Status.ACTIVE
    ).select_related("scene__week__campaign")
    exploration = next((e for e in running if character.name in e.party_names), None)
    context = {"character": character, "exploration": exploration}
    if exploration is not None:
        books = supplies.supply_counts(exploration)
        level = next(x for x in services.exhaustion_levels(exploration) if x.name == character.name)
        context.update(
            mine=books.get(character.name, {}),
            common=books.get(supplies.COMMON, {}),
            exhaustion=level,
        )
    template = "exploration/character_journey.html"
    return render(request, template + ("#books" if request.htmx else ""), context)
