"""The scene page: its timeline and the forms that add to it (declarations, announced
modifiers, the server's rolls, narration), the scene's exports and the verification of the
roll chain.

The log opens at its newest entries, newest first ("ver anteriores" loads older pages, a plain
link without JavaScript). Everyone on a scene page sees new entries without a reload: the page
holds the scene's event stream (sessions.log.live); on its ``log`` event — or every
``GARGANTA_FALLBACK_POLL_SECONDS`` when the stream is down — the page asks only for the entries
after the newest one it has and inserts them. The cost of every answer does not grow with the
log (timeline.log_page).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from campaigns.errors import ServiceError
from campaigns.http import HtmxHttpRequest, region_response
from campaigns.models import Membership
from rulesets.registry import rule_errors, ruleset_for
from sessions.access import get_scene, get_scene_for_table
from sessions.exports import json_with_list, stream_download, tidy_markdown_stream
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
from sheets.models import Character

# --- the scene page ---------------------------------------------------------------------------

# The Mestre's forms with a "responde à declaração" list, in the page's order.
DECLARATION_FORMS = ("announcement_form", "roll_form", "damage_form", "table_form", "contest_form")
# The Mestre's forms that roll a check: a campaign whose ruleset has no checks part (the
# sistema001: combat only) is not offered them.
CHECK_FORMS = ("roll_form", "contest_form")
NO_CHECKS = (
    "O sistema de regras desta campanha ({label}) não tem testes fora do combate: os dados "
    "dele rolam no combate (o painel de combate, a API /fights e as ferramentas fight_*)."
)


NO_SHEETS = (
    "O sistema de regras desta campanha ({label}) não tem fichas de personagem: os PV mudam "
    "só no combate (o painel de combate, a API /fights e as ferramentas fight_*)."
)


def _no_checks(scene: Scene) -> str:
    """What the scene says in place of the check forms when its campaign's ruleset has no
    checks part; "" when it has one."""
    ruleset = ruleset_for(scene.week.campaign.ruleset)
    return NO_CHECKS.format(label=ruleset.label) if ruleset.checks is None else ""


class _SceneTable:
    """What the Mestre's forms offer, read once per request: the scene's characters, the
    lines of their homologated sheets and the latest declarations."""

    def __init__(self, scene: Scene):
        self.ruleset = ruleset_for(scene.week.campaign.ruleset)
        self.d20 = services.rolls_d20(scene.week.campaign)
        self.characters = list(scene.characters.all())
        self.targets = [(c, roll_targets(c)) for c in self.characters]
        offered = Declaration.objects.filter(scene=scene).order_by("-created_at", "-pk")[:20]
        declarations = offered.select_related("character")
        latest = {}
        # Only the offered declarations' announcements (one query, a subquery, even with no
        # declaration): the cost stays flat as the log grows.
        for announcement in ModifierAnnouncement.objects.filter(
            declaration__in=offered.values("pk")
        ).order_by("created_at", "pk"):
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
    """The Mestre's forms, fresh, except ``only`` (a key) which is bound to ``data``; in a d20
    campaign (``table.d20``) they say the d20's words."""
    makers = {
        "announcement_form": lambda d: AnnouncementForm(
            d, declaration_choices=table.declaration_choices
        ),
        "roll_form": lambda d: RollForm(
            d,
            target_choices=table.target_choices(),
            declaration_choices=table.declaration_choices,
            character_choices=table.character_choices,
            d20=table.d20,
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
            d20=table.d20,
        ),
    }
    return {key: make(data if key == only else None) for key, make in makers.items()}


LOG_PAGE = 50  # entries the page opens with, and per "ver anteriores"
NEW_ENTRIES_MAX = 200  # more new entries than this at once: the region is drawn again


# An entry's time is taken inside its transaction, before the commit: one that commits after
# a later one would be behind the newest cursor a page already has. The tail asks again for the
# last SETTLE seconds and names the entries of that window it has ("tem"), so none is lost.
SETTLE = timedelta(seconds=5)


def _tail(keys, newest) -> dict:
    """What the log's tail asks next: after ``newest``, knowing ``keys`` of its window."""
    if newest is None:
        return {"newest_cursor": "", "recent_cursors": ""}
    since = newest.created_at - SETTLE
    recent = sorted({k for k in keys if k.created_at >= since})
    return {"newest_cursor": str(newest), "recent_cursors": ",".join(map(str, recent))}


def _log_context(scene, membership, user, *, before=None) -> dict:
    """The log region: the newest ``LOG_PAGE`` entries (or those just before ``before``),
    newest first, with the cursors of its two ends."""
    page = timeline.log_page(
        scene, membership=membership, user=user, before=before, limit=LOG_PAGE, newest=True
    )
    return {
        "scene": scene,
        "membership": membership,
        "entries": page.entries[::-1],
        "older_cursor": str(page.first) if page.more_before else "",
        **_tail([timeline.entry_key(e) for e in page.entries], page.last),
        "revealed": page.revealed,
        "browsing_older": before is not None,
    }


def _context(
    request, scene, membership, *, forms=None, panel="", error="", close_error="", before=None
):
    own = [c for c in scene.characters.all() if c.is_owned_by(request.user)]
    open_for_entries = scene.is_open and scene.week.accepts_entries
    context = {
        **_log_context(scene, membership, request.user, before=before),
        "scene": scene,
        "week": scene.week,
        "membership": membership,
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
        context["no_checks"] = _no_checks(scene)
        context["d20"] = table.d20
        if context["no_checks"]:  # a form just posted stays, with its refusal
            context.update({key: None for key in CHECK_FORMS if key not in forms})
        context["declaration_selects"] = [
            _declaration_select(context[key], "declaration") if context[key] else None
            for key in DECLARATION_FORMS
        ]
        if "procedure_form" not in context:
            context["procedure_form"] = procedure_form(scene.week.campaign)
        _scene_as_a_whole(context, table, close_error)
    return context


def _scene_as_a_whole(context: dict, table: _SceneTable, close_error: str) -> None:
    """The Mestre's forms for the scene as a whole (sessions.log.scene_views)."""
    if table.ruleset.sheets is None:  # no sheet, no state outside a fight (the sistema001)
        context["state_change_form"] = None
        context["no_sheets"] = NO_SHEETS.format(label=table.ruleset.label)
    elif "state_change_form" not in context:
        context["state_change_form"] = StateChangeForm(characters=table.characters, d20=table.d20)
    context["can_close"] = True
    context["close_error"] = close_error


def _cursor(request, name: str) -> timeline.Cursor | None:
    raw = request.GET.get(name, "")
    return timeline.Cursor.parse(raw, field=name) if raw else None


def _bad_cursor(error: ServiceError) -> HttpResponse:
    return HttpResponseBadRequest(error.message, content_type="text/plain; charset=utf-8")


@login_required
def scene_detail(request: HtmxHttpRequest, code) -> HttpResponse:
    """The scene page; ``?antes=<cursor>`` opens its log at the entries before the cursor
    (the "ver anteriores" link, without JavaScript)."""
    scene, membership = get_scene(request, code)
    try:
        before = _cursor(request, "antes")
    except ServiceError as error:
        return _bad_cursor(error)
    return render(request, "log/scene.html", _context(request, scene, membership, before=before))


@login_required
def scene_log(request: HtmxHttpRequest, code) -> HttpResponse:
    """The log region's fragments, per viewer (hidden rolls filtered as on the page):

    - ``?depois=<cursor>&tem=<cursors>&r=<0|1>``: the entries after the newest one the page
      has, newest first, to insert at the top, with the next tail; 204 when there is none.
      ``tem``: the entries of the last ``SETTLE`` seconds the page has, so one that committed
      late, behind the newest, still comes. The whole
      region instead (retargeted to ``#log``) when the hidden rolls were revealed since (``r``),
      when the page had no entry, or when more than ``NEW_ENTRIES_MAX`` are new.
    - ``?antes=<cursor>``: the ``LOG_PAGE`` entries before it, and the next "ver anteriores".
    - neither: the whole region.

    400 for a cursor this site did not give."""
    scene, membership = get_scene(request, code)
    try:
        after, before = _cursor(request, "depois"), _cursor(request, "antes")
    except ServiceError as error:
        return _bad_cursor(error)
    if before is not None:
        context = _log_context(scene, membership, request.user, before=before)
        return render(request, "log/scene.html#log-older", context)
    if "depois" not in request.GET:
        return render(request, "log/scene.html#log", _log_context(scene, membership, request.user))
    try:
        known = {
            timeline.Cursor.parse(k, field="tem")
            for k in request.GET.get("tem", "").split(",")
            if k
        }
    except ServiceError as error:
        return _bad_cursor(error)
    revealed = scene.week.hidden_rolls_revealed
    page = None
    if after is not None and (request.GET.get("r") == "1") == revealed:
        settled = timeline.Cursor(after.created_at - SETTLE, -1, 0)
        page = timeline.log_page(
            scene, membership=membership, user=request.user, after=settled, limit=NEW_ENTRIES_MAX
        )
        new = [e for e in page.entries if timeline.entry_key(e) not in known]
        if not new:
            return HttpResponse(status=204)
    if page is None or page.more_after:
        context = _log_context(scene, membership, request.user)
        if page is None and not context["entries"] and (request.GET.get("r") == "1") == revealed:
            return HttpResponse(status=204)
        response = render(request, "log/scene.html#log", context)
        return _with_declaration_selects(
            request, reswap(retarget(response, "#log"), "outerHTML"), scene, membership
        )
    keys = [timeline.entry_key(e) for e in new]
    context = {
        "scene": scene,
        "membership": membership,
        "entries": new[::-1],
        "revealed": page.revealed,
        **_tail(known | set(keys), max([after, *keys])),
    }
    response = render(request, "log/scene.html#log-new", context)
    return _with_declaration_selects(request, response, scene, membership)


def _with_declaration_selects(request, response, scene, membership) -> HttpResponse:
    """New declarations reach the Mestre's "responde à declaração" lists too (out of band);
    the page keeps what is chosen in them (keepChoice in the template)."""
    if membership.runs_the_table and scene.is_open and scene.week.accepts_entries:
        forms = _table_forms(_SceneTable(scene))
        hidden = CHECK_FORMS if _no_checks(scene) else ()
        for key in DECLARATION_FORMS:
            if key in hidden:
                continue
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
    """The scene's workspace after a form of it was posted (``campaigns.http``)."""
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
    except (ServiceError, *rule_errors()) as error:
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
        d20 = table.d20
        if d20:
            asked = {
                "dc": data.get("dc"),
                "edge": data.get("edge") or "",
                "light": data.get("light") or "",
            }
        if data["target"] == "custom" and d20:
            character = table.character(data.get("custom_character") or "")
            if character is None and declaration is not None:
                character = declaration.character
            label, kind = data["label"], data.get("roll") or "check"
            if character is not None and table.has_sheet(character):
                # The sheet's attack by its name, or its skill: the bonus is the server's.
                asked.update({"skill": label, "kind": kind})
            else:
                asked.update({"base_level": data["base_level"], "kind": kind})
        elif data["target"] == "custom":
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
                    "new_skill": data["new_skill"],
                    "base_level": data["base_level"],
                }
            else:
                asked = {"base_level": data["base_level"], "kind": kind}
        else:
            character, target = table.target(data["target"])
            label = target.label
            if target.kind == "defence":
                asked = {"base_level": target.level, "kind": "defence"}
            elif d20:
                asked.update(
                    {"skill": target.skill, "attribute": target.attribute, "kind": target.kind}
                )
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


def _scene_export_chunks(request, scene, membership):
    """The scene's header, then its entries one by one (timeline.log_entries_paged)."""
    entries = timeline.log_entries_paged(scene, membership=membership, user=request.user)
    return timeline.scene_header(scene), (timeline.entry_data(e) for e in entries)


@login_required
def scene_export_json(request: HtmxHttpRequest, code) -> HttpResponse:
    """The scene as JSON (timeline.scene_export's shape), streamed a page of entries at a time."""
    scene, membership = get_scene(request, code)
    header, entries = _scene_export_chunks(request, scene, membership)
    chunks = json_with_list(
        header,
        "entries",
        entries,
        tail=lambda: timeline.trackers_export(scene, membership=membership, user=request.user),
    )
    return stream_download(chunks, _scene_filename(scene, "json"), "application/json")


@login_required
def scene_export_markdown(request: HtmxHttpRequest, code) -> HttpResponse:
    """The scene as Markdown (log/export.md), streamed a page of entries at a time."""
    scene, membership = get_scene(request, code)
    header, entries = _scene_export_chunks(request, scene, membership)

    def chunks():
        yield render_to_string("log/export.md#md-scene", {"data": header, "week": None})
        for entry in entries:
            yield render_to_string("log/export.md#md-entry", {"e": entry})
        trackers = timeline.trackers_export(scene, membership=membership, user=request.user)
        yield render_to_string("log/export.md#md-trackers", {"data": trackers, "week": None})
        yield "\n"

    return stream_download(
        tidy_markdown_stream(chunks()),
        _scene_filename(scene, "md"),
        "text/markdown; charset=utf-8",
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
