"""The combat tracker's pages: the tracker region of the scene page (and its own page, for a
browser without JavaScript), and the Mestre's actions on it.

The scene page loads the region with htmx; jogadores' copies poll it (204 while nothing has
changed), the Mestre's refreshes after each of his actions, and the scene log refreshes with it
(every die is a roll of the log).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.confirm import confirmation_step
from campaigns.errors import ServiceError
from campaigns.http import HtmxHttpRequest, region_response
from gurps.errors import GurpsError
from sessions.access import get_scene
from sessions.combat import acting as combat_acting
from sessions.combat import attack as combat_attack
from sessions.combat import cards as combat_cards
from sessions.combat import defending as combat_defending
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import messages as combat_messages
from sessions.combat import pending as combat_pending
from sessions.combat import services
from sessions.combat import specs as combat_specs
from sessions.combat import turns as combat_turns
from sessions.combat.forms import (
    AdjustForm,
    AttackForm,
    CreatureForm,
    DeclareForm,
    DefenceChoiceForm,
    EndForm,
    FledForm,
    ManeuverForm,
    StartForm,
    TurnActForm,
    TurnForm,
    attack_input,
    creature_input,
    maneuver_input,
)
from sessions.combat.state import why_not_acting
from sessions.models import Combat, Combatant, Scene
from sessions.native_combat import services as native_services
from sessions.native_combat import views as native_views

FORMS = (
    "start",
    "creature",
    "declare",
    "turn",
    "maneuver",
    "attack",
    "act",
    "fled",
    "adjust",
    "end",
)

# Fields a service names that live elsewhere in a form.
FIELD_ALIASES = {
    "defences": "defence",
    "retreat": "retreat",
    "dagger": "dagger",
    "combatant": None,
    "characters": None,
    "attack.location": "location",
    "arm_side": "location",
    "side": "location",
    "attack.skill": "weapon",
    "attack.damage": "weapon",
    "modifiers": "mod_label",
    "weight_kg": "weapon_weight",
    "attack.defender": "defender",
}


FIGHTING_OR_DOWN = (Combatant.Status.FIGHTING, Combatant.Status.UNCONSCIOUS)


def _weapon_choices(now: Combatant | None, waiting: list[Combatant]) -> list[tuple[int, str]]:
    """The attack form's weapons: the current combatant's lines, and, when someone waits
    (Aguardar), each line index with whose weapon it is."""
    if not waiting:
        return [(i, w.name) for i, w in enumerate(now.weapon_lines())] if now else []
    who = [c for c in (now, *waiting) if c is not None]
    return [
        (i, " / ".join(f"{c.weapon_lines()[i].name} ({c.name})" for c in who if len(c.weapons) > i))
        for i in range(max(len(c.weapons) for c in who))
    ]


def _parry_choices(combatants: list[Combatant]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each combatant's own weapons, grouped under his name (``<code>:<line index>``): the
    defender parries with his, never with another's (static/garganta.js shows only the
    chosen defender's group)."""
    return [
        (c.name, lines)
        for c in combatants
        if (
            lines := [
                (f"{c.code}:{i}", w.name) for i, w in enumerate(c.weapon_lines()) if w.parries
            ]
        )
    ]


def _attack_form(data, now, combatants: list[Combatant], targets) -> AttackForm:
    waiting = [c for c in combatants if c.waiting and (now is None or c.pk != now.pk)]
    attackers = ([(str(now.code), now.name)] if now else []) + [
        (str(c.code), f"{c.name} (Aguardar)") for c in waiting
    ]
    everyone = [(str(c.code), c.name) for c in combatants if c.status in FIGHTING_OR_DOWN]
    return AttackForm(
        data,
        weapon_choices=[(str(i), w) for i, w in _weapon_choices(now, waiting)],
        defender_choices=everyone if waiting else targets,
        parry_choices=_parry_choices(combatants),
        attacker_choices=attackers,
    )


def _forms(scene: Scene, combat: Combat | None, view, data=None, only: str = "") -> dict:
    """The Mestre's forms, fresh, except ``only`` bound to ``data``."""

    def bound(key):
        return data if key == only else None

    present = [(str(c.code), c.name) for c in scene.characters.all()]
    forms = {
        "start": StartForm(bound("start"), character_choices=present),
        "end": EndForm(bound("end")),
    }
    if combat is None:
        return forms
    combatants = [card.combatant for card in view.cards]
    now = view.current
    targets = [
        (str(c.code), c.name)
        for c in combatants
        if (now is None or c.pk != now.pk) and c.status in FIGHTING_OR_DOWN
    ]
    bosses = [
        (str(c.code), c.name) for c in combatants if c.kind != Combatant.Kind.PLAYER_CHARACTER
    ]
    forms["creature"] = CreatureForm(bound("creature"))
    forms["turn"] = TurnForm(bound("turn"))
    forms["declare"] = DeclareForm(
        bound("declare"), boss_choices=bosses, initial={"terrain": combat.terrain}
    )
    forms["maneuver"] = ManeuverForm(
        bound("maneuver"),
        weapon_choices=[(i, w.name) for i, w in enumerate(now.weapon_lines())] if now else [],
        target_choices=targets,
    )
    forms["adjust"] = AdjustForm(
        bound("adjust"), combatant_choices=[(str(c.code), c.name) for c in combatants]
    )
    forms["attack"] = _attack_form(bound("attack"), now, combatants, targets)
    forms["act"] = _act_form(bound("act"), combat, now, combatants)
    forms["fled"] = FledForm(
        bound("fled"),
        combatant_choices=[(str(c.code), c.name) for c in combatants if c.in_the_fight],
    )
    return forms


def _act_form(data, combat: Combat, now, combatants: list[Combatant]) -> TurnActForm:
    """The one-call turn's form: who may act now — the one whose turn it is, the next in the
    order (§4.2), whoever waits with an Aguardar — with the next one chosen once the one whose
    turn it is has declared his maneuver."""
    upcoming = combat_turns.turn_upcoming(combat) if combat.is_active else None
    who = [now] if now is not None and now.in_the_fight else []
    if upcoming is not None and all(c.pk != upcoming.pk for c in who):
        who.append(next(c for c in combatants if c.pk == upcoming.pk))
    who += [c for c in combatants if c.waiting and all(c.pk != w.pk for w in who)]
    labels = {
        c.pk: c.name
        + (" (turno atual)" if now is not None and c.pk == now.pk else "")
        + (" (próximo)" if upcoming is not None and c.pk == upcoming.pk else "")
        + (" (Aguardar)" if c.waiting else "")
        for c in who
    }
    initial = {}
    if who:
        # The next step is the obvious one: once the one whose turn it is has declared (or
        # cannot, §4.1), the form is for the next in the order.
        done = now is not None and (
            (now.maneuver_round == combat.round and bool(now.maneuver))
            or bool(why_not_acting(combat, now))
        )
        initial["combatant"] = str((who[1] if done and len(who) > 1 else who[0]).code)
    return TurnActForm(
        data,
        initial=initial,
        combatant_choices=[(str(c.code), labels[c.pk]) for c in who],
        weapon_choices=_weapon_choices(who[0] if who else None, who[1:]),
        target_choices=[(str(c.code), c.name) for c in combatants if c.status in FIGHTING_OR_DOWN],
        parry_choices=_parry_choices(combatants),
    )


def _context(request, scene: Scene, membership, *, forms=None, answer_error="") -> dict:
    combat = services.combat_current(scene)
    if combat is not None and combat_pending.defences_overdue_apply(combat):
        combat.refresh_from_db()  # no background job: a defence's time is applied when read
    view = (
        combat_cards.combat_view(combat, membership=membership, user=request.user)
        if combat
        else None
    )
    open_for_entries = scene.is_open and scene.week.accepts_entries
    context = {
        "scene": scene,
        "combat": combat,
        "view": view,
        "membership": membership,
        "can_run": membership.runs_the_table and open_for_entries,
        "terrain_names": [combat_messages.TERRAIN_NAMES[t] for t in combat.terrain]
        if combat
        else [],
        "answer_error": answer_error,
    }
    if context["can_run"]:
        fresh = _forms(scene, combat, view)
        fresh.update(forms or {})
        context["forms"] = fresh
    if view is not None and open_for_entries and combat.is_active:
        view.cards[:] = [_with_defence_form(card, forms) for card in view.cards]
    return context


def _parries_of(c: Combatant) -> list[tuple[int, str]]:
    """The lines ``c`` may parry with, for his own defence's form (the service checks)."""
    return [(i, w.name) for i, w in enumerate(c.weapon_lines()) if w.parries]


def _own_parries(combat: Combat | None, posted) -> list[tuple[int, str]]:
    """The posted combatant's lines that parry: a refused form comes back with them."""
    try:
        wanted = uuid.UUID(posted.get("combatant", ""))
    except ValueError:
        return []
    found = combat.combatants.filter(code=wanted).first() if combat is not None else None
    return _parries_of(found) if found is not None else []


def _with_defence_form(card, forms) -> object:
    """A jogador's own card carries the form of his defence (§4.1, §4.6)."""
    if not card.chooser:
        return card
    c = card.combatant
    bound = (forms or {}).get(f"defence-{c.code}")
    chosen = c.standing_defence or {}
    form = bound or DefenceChoiceForm(
        initial={"combatant": str(c.code), **chosen},
        auto_id=f"defence-{c.code}-%s",
        parry_choices=_parries_of(c),
    )
    return replace(card, defence_form=form)


def _fleeing(request, context: dict):
    """The combatant a «Fugiu…» link asks to confirm (``?fugir=<code>``), for the table."""
    wanted, combat = request.GET.get("fugir", ""), context.get("combat")
    if not wanted or combat is None or not context.get("can_run") or not combat.is_active:
        return None
    return next(
        (card.combatant for card in context["view"].cards if str(card.combatant.code) == wanted),
        None,
    )


@login_required
def combat_panel(request: HtmxHttpRequest, code) -> HttpResponse:
    """The tracker: the region alone for htmx (204 when the poller already has this
    revision), the whole page otherwise. ``?fugir=<combatant>``: the table is asked to
    confirm that he fled (a step that works without JavaScript)."""
    scene, membership = get_scene(request, code)
    if native_services.plays_whole(scene.week.campaign.ruleset):
        return native_views.fight_panel(request, scene, membership)
    if request.htmx:
        seen = request.GET.get("v")
        if seen:
            combat = services.combat_current(scene)
            if seen == f"{combat.code}.{combat.revision}" if combat else seen == "none":
                return HttpResponse(status=204)
    context = _context(request, scene, membership)
    context["fleeing"] = _fleeing(request, context)
    template = "combat/combat.html#tracker" if request.htmx else "combat/combat.html"
    return render(request, template, context)


def _respond(
    request, scene, membership, *, forms=None, failed=False, answer_error=""
) -> HttpResponse:
    # A refused form comes back 200 with its errors in the region.
    return region_response(
        request,
        template="combat/combat.html",
        region="tracker",
        context=lambda: _context(
            request, scene, membership, forms=forms, answer_error=answer_error
        ),
        redirect_to=reverse("combat", kwargs={"code": scene.code}),
        failed=failed,
        htmx_failed_status=200,
    )


def _attach(form, error) -> None:
    name = getattr(error, "field", "") or ""
    name = FIELD_ALIASES.get(name, name) or ""
    if name.startswith("weapons.") and name not in form.fields:
        name = "weapon_" + name.rsplit(".", 1)[-1]
    elif "." in name and name not in form.fields:
        name = name.rsplit(".", 1)[-1]
    form.add_error(name if name in form.fields else None, error.message)


def _action(request, code, key: str, act: Callable, confirm: str = "") -> HttpResponse:
    """A Mestre's form ``key`` posted: checked, confirmed if ``confirm`` names a step, then
    ``act(scene, combat, view, data)``. Without a running combat only the start and end forms
    exist (``_forms``): any other key is refused before ``act``, so no act checks for it."""
    scene, membership = get_scene(request, code)
    if not membership.runs_the_table:
        raise PermissionDenied
    combat = services.combat_current(scene)
    view = (
        combat_cards.combat_view(combat, membership=membership, user=request.user)
        if combat
        else None
    )
    form = _forms(scene, combat, view, request.POST, only=key).get(key)
    if form is None:
        raise PermissionDenied
    if not form.is_valid():
        return _respond(request, scene, membership, forms={key: form}, failed=True)
    if confirm and (step := confirmation_step(request, confirm, back=scene.get_absolute_url())):
        return step
    try:
        act(scene, combat, view, form.cleaned_data)
    except (ServiceError, GurpsError) as error:
        _attach(form, error)
        return _respond(request, scene, membership, forms={key: form}, failed=True)
    return _respond(request, scene, membership)


def _combatant(combat: Combat, code: str) -> Combatant:
    return get_object_or_404(Combatant, combat=combat, code=code)


@require_POST
@login_required
def combat_start(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, combat, view, data):
        chosen = [c for c in scene.characters.all() if str(c.code) in data["characters"]]
        services.combat_start(
            scene=scene, user=request.user, characters=chosen, request_key=data["request_key"]
        )

    return _action(request, code, "start", act)


@require_POST
@login_required
def combatant_add(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, combat, view, data):
        spec = combat_specs.creature_spec(creature_input(data))
        services.combatant_add(
            combat=combat,
            user=request.user,
            creature=spec,
            surprise=data["surprise"] or "",
            request_key=data["request_key"],
        )

    return _action(request, code, "creature", act)


@require_POST
@login_required
def combat_declare(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, combat, view, data):
        boss = _combatant(combat, data["boss"]) if data["boss"] else None
        services.combat_declare(
            combat=combat,
            user=request.user,
            terrain=data["terrain"],
            boss=boss,
            request_key=data["request_key"],
        )

    return _action(request, code, "declare", act)


@require_POST
@login_required
def combat_turn(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, combat, view, data):
        combat_turns.combat_next_turn(
            combat=combat, user=request.user, request_key=data["request_key"]
        )

    return _action(request, code, "turn", act)


@require_POST
@login_required
def maneuver_declare(request: HtmxHttpRequest, code) -> HttpResponse:
    """The maneuver of the one whose turn it is; declared again in the same turn, it is
    changed, until its first die (``maneuvers.maneuver_change``)."""

    def act(scene, combat, view, data):
        if view.current is None:
            raise ServiceError(combat_messages.NOT_STARTED, field="maneuver")
        now = view.current
        declared = now.maneuver and now.maneuver_round == combat.round
        declare = (
            combat_maneuvers.maneuver_change if declared else combat_maneuvers.maneuver_declare
        )
        target = _combatant(combat, data["target"]) if data["target"] else None
        spec = combat_specs.maneuver_spec(maneuver_input(data), target)
        declare(
            combat=combat,
            combatant=view.current,
            user=request.user,
            request_key=data["request_key"],
            **spec.as_kwargs(),
        )

    return _action(request, code, "maneuver", act)


@require_POST
@login_required
def attack_resolve(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, combat, view, data):
        if view.current is None:
            raise ServiceError(combat_messages.NOT_STARTED, field="weapon")
        attacker = _combatant(combat, data["attacker"]) if data["attacker"] else view.current
        given = attack_input(data)
        combat_attack.attack_resolve(
            combat=combat,
            attacker=attacker,
            defender=_combatant(combat, data["defender"]),
            user=request.user,
            attack=combat_specs.attack_spec(given),
            defence_choice=combat_specs.defence_spec(given),
            request_key=data["request_key"],
        )

    return _action(request, code, "attack", act)


def _turn_specs(combat: Combat, data: dict) -> dict:
    """The one-call turn's arguments from its form's cleaned data, through the mappers of
    ``sessions.combat.specs`` (the service refuses an option without its maneuver)."""
    target = _combatant(combat, data["target"]) if data["target"] else None
    maneuver = combat_specs.maneuver_spec(maneuver_input(data), target)
    if not data["defender"]:
        return {"maneuver": maneuver}
    given = attack_input(data, weapon="attack_weapon")
    return {
        "maneuver": maneuver,
        "attack": combat_specs.attack_spec(given),
        "defender": _combatant(combat, data["defender"]),
        "defence_choice": combat_specs.defence_spec(given),
    }


@require_POST
@login_required
def combat_act(request: HtmxHttpRequest, code) -> HttpResponse:
    """A combatant's whole turn in one form (§4.1, §4.3, §4.10): the server rolls; with
    «Prévia» nothing is rolled nor written and the page shows the attack's level, each
    modifier and the defences the defender has."""
    scene, membership = get_scene(request, code)
    if not membership.runs_the_table:
        raise PermissionDenied
    combat = services.combat_current(scene)
    view = (
        combat_cards.combat_view(combat, membership=membership, user=request.user)
        if combat
        else None
    )
    form = _forms(scene, combat, view, request.POST, only="act").get("act")
    if form is None:
        raise PermissionDenied
    if not form.is_valid():
        return _respond(request, scene, membership, forms={"act": form}, failed=True)
    data = form.cleaned_data
    try:
        done = combat_acting.combat_act(
            combat=combat,
            combatant=_combatant(combat, data["combatant"]),
            user=request.user,
            dry_run=data["dry_run"],
            request_key=data["request_key"],
            **_turn_specs(combat, data),
        )
    except (ServiceError, GurpsError) as error:
        _attach(form, error)
        return _respond(request, scene, membership, forms={"act": form}, failed=True)
    if not data["dry_run"]:
        return _respond(request, scene, membership)
    context = _context(request, scene, membership, forms={"act": form})
    context["preview"] = done
    template = "combat/combat.html#tracker" if request.htmx else "combat/combat.html"
    return render(request, template, context)


@require_POST
@login_required
def combatant_flee(request: HtmxHttpRequest, code) -> HttpResponse:
    """The table confirms that a combatant fled (the «Fugiu…» link asked first)."""

    def act(scene, combat, view, data):
        services.combatant_flee(
            combat=combat,
            combatant=_combatant(combat, data["combatant"]),
            user=request.user,
            request_key=data["request_key"],
        )

    return _action(request, code, "fled", act)


@require_POST
@login_required
def defence_choose(request: HtmxHttpRequest, code) -> HttpResponse:
    """A jogador's own defence for his character (§4.1, §4.6); the refusal by its field."""
    scene, membership = get_scene(request, code)
    combat = services.combat_current(scene)
    form = DefenceChoiceForm(request.POST, parry_choices=_own_parries(combat, request.POST))
    if combat is None or not form.is_valid():
        key = f"defence-{request.POST.get('combatant', '')}"
        return _respond(request, scene, membership, forms={key: form}, failed=True)
    data = form.cleaned_data
    key = f"defence-{data['combatant']}"
    try:
        if not data["first"]:
            combat_defending.defence_standing_clear(
                combat=combat,
                combatant=_combatant(combat, data["combatant"]),
                user=request.user,
                request_key=data["request_key"],
            )
            return _respond(request, scene, membership)
        combat_defending.defence_choose(
            combat=combat,
            combatant=_combatant(combat, data["combatant"]),
            user=request.user,
            first=data["first"],
            then=data["then"],
            retreat=data["retreat"],
            parry_weapon=data["parry_weapon"],
            request_key=data["request_key"],
        )
    except ServiceError as error:
        _attach(form, error)
        return _respond(request, scene, membership, forms={key: form}, failed=True)
    return _respond(request, scene, membership)


@require_POST
@login_required
def defence_answer(request: HtmxHttpRequest, code) -> HttpResponse:
    """The jogador answers the attack that waits for his character's defence (§4.6), from the
    scene page or from his sheet page (``from=sheet``: that page's live region comes back).
    A refusal is said by the buttons, and nothing is rolled."""
    scene, membership = get_scene(request, code)
    combat = services.combat_current(scene)
    if combat is None:
        raise PermissionDenied
    try:
        defender = _combatant(combat, str(uuid.UUID(request.POST.get("combatant", ""))))
    except ValueError:
        error = combat_messages.COMBATANT_NOT_FOUND
        return _respond(request, scene, membership, failed=True, answer_error=error)
    from_sheet = request.POST.get("from") == "sheet" and defender.character_id is not None
    error = ""
    try:
        answer, weapon, retreat = combat_pending.answer_of(request.POST.get("option", ""))
        combat_pending.defence_answer(
            combat=combat,
            combatant=defender,
            user=request.user,
            answer=answer,
            parry_weapon=weapon,
            retreat=retreat,
            request_key=request.POST.get("request_key", "")[:64],
        )
    except (ServiceError, GurpsError) as refused:
        if getattr(refused, "code", "") == "forbidden":
            raise PermissionDenied from None
        error = refused.message
    if from_sheet:
        from sheets.views import sheet_live_response

        return sheet_live_response(request, defender.character, answer_error=error)
    return _respond(request, scene, membership, failed=bool(error), answer_error=error)


@require_POST
@login_required
def combatant_adjust(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, combat, view, data):
        services.combatant_adjust(
            combat=combat,
            combatant=_combatant(combat, data["combatant"]),
            user=request.user,
            hp_lost=data["hp_lost"],
            reason=data["reason"],
            request_key=data["request_key"],
        )

    return _action(request, code, "adjust", act, confirm="combat_adjust")


@require_POST
@login_required
def combat_end(request: HtmxHttpRequest, code) -> HttpResponse:
    def act(scene, combat, view, data):
        if combat is None:
            raise ServiceError(combat_messages.COMBAT_ENDED, code="combat_ended")
        services.combat_end(
            combat=combat, user=request.user, spoils=data["spoils"], request_key=data["request_key"]
        )

    return _action(request, code, "end", act, confirm="combat_end")
