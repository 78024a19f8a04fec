"""Pages of the sheets app: home, the sheet with its live carga, the history, the account
(drafts, their import and "e sem a perícia?" are in ``sheets.draft_views``).

Views read the request, call a service, render. With htmx the play region re-renders alone
(``sheets/sheet.html#play``); without JavaScript the same forms post and redirect.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from campaigns import auth
from campaigns.errors import ServiceError
from campaigns.http import HtmxHttpRequest
from campaigns.models import ApiToken, Membership
from sheets import access, data_sheet, history, live
from sheets import possessions as possession_services
from sheets.computed import sheet_view
from sheets.diff import version_changes
from sheets.forms import LootForm, QuantityForm
from sheets.models import Character, Possession, SheetVersion
from sheets.reads import (
    characters_visible_to,
    possessions_of,
    sheet_revision,
    sheet_versions,
    state_of,
)
from sheets.table import table

_get_character = access.character_for_member


def _can_change_state(character: Character, membership: Membership, user) -> bool:
    return membership.runs_the_table or character.is_owned_by(user)


@login_required
def home(request: HtmxHttpRequest) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user).select_related("campaign")
    campaigns = []
    for membership in memberships:
        characters = characters_visible_to(request.user, membership.campaign)
        campaign_table = table().campaign_table
        scenes, week = campaign_table(membership.campaign) if campaign_table else ([], None)
        submitted = SheetVersion.objects.filter(
            character__campaign=membership.campaign, status=SheetVersion.Status.SUBMITTED
        )
        if not membership.runs_the_table:  # a jogador's queue is his own versions
            submitted = submitted.filter(character__owner=request.user)
        queue_count = submitted.count()
        campaigns.append(
            {
                "membership": membership,
                "characters": characters,
                "scenes": scenes,
                "queue_count": queue_count,
                "week": week,
            }
        )
    return render(request, "sheets/home.html", {"campaigns": campaigns})


def _sheet_context(
    request, character, membership, *, loot_form=None, errors=None, answer_error=""
) -> dict:
    """What the sheet page draws. Warm, it costs one query beyond the character's: the
    fingerprint (``sheets.reads.sheet_revision``) keys the page's blocks, and the versions,
    possessions and the numbers are read and computed only for a block the cache lacks."""
    state = state_of(character)
    is_owner = character.is_owned_by(request.user)
    can_change = _can_change_state(character, membership, request.user)
    # The owner's name is in the head; the character came with it (sheets.access).
    revision = sheet_revision(character, state, getattr(character, "owner_username", ""))
    versions = SimpleLazyObject(lambda: sheet_versions(character))
    homologated = SimpleLazyObject(lambda: versions[0])
    possessions = SimpleLazyObject(
        lambda: possessions_of(character, with_items=False) if versions[0] else []
    )
    sees_pending = is_owner or membership.role != Membership.Role.JOGADOR
    fight = live.sheet_fight(character, answers=is_owner)
    context = {
        "character": character,
        "membership": membership,
        "version": homologated,
        # Computed only if a block below is drawn, not when every block comes from the cache.
        "view": SimpleLazyObject(
            lambda: (
                sheet_view(character, versions[0], state=state, possessions=list(possessions))
                if versions[0]
                else None
            )
        ),
        "can_change_state": can_change,
        "is_owner": is_owner,
        "loot_form": loot_form or SimpleLazyObject(lambda: LootForm(initial={"quantity": 1})),
        # A new one-time key per render: a second post of the same form adds nothing.
        "loot_request_key": uuid.uuid4().hex,
        "pending_versions": SimpleLazyObject(lambda: versions[1] if sees_pending else []),
        "errors": errors or {},
        "rules_url": reverse("rules"),  # once, not once per §-link
        # An attack waiting for this character's defence (§4.6): one query (sheets.live).
        "sheet_pending": fight.pending,
        "sheet_fight": fight,
        "live_token": live.live_token(revision.key if revision else "", fight),
        "answer_error": answer_error,
    }
    if revision is None:
        context["has_version"] = bool(homologated)
        return context
    context.update(
        # The play block's key holds the CSRF secret too, as its forms carry this session's
        # token; the head's, who asks (the owner's offer, the pending versions he sees).
        has_version=revision.homologated is not None,
        head_cache_key=f"{revision.key}:{is_owner}:{sees_pending}",
        play_cache_key=(
            f"{revision.key}:{request.META.get('CSRF_COOKIE', '')}"
            if not errors and not (loot_form and loot_form.is_bound)
            else None
        ),
        tail_cache_key=f"{revision.key}:{membership.role}",
    )
    if context["play_cache_key"] and not fight.combatants:  # in a fight: drawn fresh
        context["page_cache_key"] = (
            f"{context['play_cache_key']}:{is_owner}:{sees_pending}:{membership.role}:{can_change}"
        )
        context["loot_request_key"] = LOOT_KEY_SLOT
    return context


# Where the page kept whole in the cache takes its one-time loot key (a fresh one per render).
LOOT_KEY_SLOT = "loot-request-key-slot"


@login_required
def sheet_detail(request: HtmxHttpRequest, code) -> HttpResponse:
    character, membership = _get_character(request, code)
    if data_sheet.keeps_json(character):  # the Xuleta's own page (sheets.data_sheet)
        return data_sheet.data_sheet_page(request, character, membership)
    context = _sheet_context(request, character, membership)
    response = render(request, "sheets/sheet.html", context)
    if context["loot_request_key"] == LOOT_KEY_SLOT:
        response.content = response.content.replace(
            LOOT_KEY_SLOT.encode(), uuid.uuid4().hex.encode(), 1
        )
    return response


def _with_loot_key(response, context) -> HttpResponse:
    if context["loot_request_key"] == LOOT_KEY_SLOT:
        response.content = response.content.replace(
            LOOT_KEY_SLOT.encode(), uuid.uuid4().hex.encode(), 1
        )
    return response


@login_required
def sheet_live(request: HtmxHttpRequest, code) -> HttpResponse:
    """The sheet page's live region (PV, fatigue, conditions, Carga and defences, an attack
    waiting for the defence, §4.6), asked on the character's doorbell or by the fallback poll:
    204 while it is drawn from what the page has (``?r=`` its token). Without htmx, the whole
    sheet page (a region is only ever drawn inside its page)."""
    character, membership = _get_character(request, code)
    if data_sheet.keeps_json(character):  # no live region on a JSON sheet's page: the page
        if request.htmx:
            return HttpResponse(status=204)
        return data_sheet.data_sheet_page(request, character, membership)
    context = _sheet_context(request, character, membership)
    if request.GET.get("r") == context["live_token"]:
        return HttpResponse(status=204)
    template = "sheets/sheet.html#live" if request.htmx else "sheets/sheet.html"
    return _with_loot_key(render(request, template, context), context)


def sheet_live_response(request, character, *, answer_error: str = "") -> HttpResponse:
    """The live region after the jogador answered from his sheet page (the combat's answer
    view calls it); without htmx, the sheet page."""
    character, membership = _get_character(request, character.code)
    if not request.htmx:
        return redirect("sheet", code=character.code)
    context = _sheet_context(request, character, membership, answer_error=answer_error)
    return _with_loot_key(render(request, "sheets/sheet.html#live", context), context)


def _play_response(request, character, membership, **extra) -> HttpResponse:
    if request.htmx:
        context = _sheet_context(request, character, membership, **extra)
        return render(request, "sheets/sheet.html#play", context)
    if extra.get("errors") or (extra.get("loot_form") and extra["loot_form"].errors):
        context = _sheet_context(request, character, membership, **extra)
        return render(request, "sheets/sheet.html", context, status=422)
    return redirect("sheet", code=character.code)


def _get_possession(request, code, possession_code) -> tuple[Character, Membership, Possession]:
    character, membership = _get_character(request, code)
    if not _can_change_state(character, membership, request.user):
        raise PermissionDenied
    possession = get_object_or_404(
        Possession.objects.select_related("item", "character"),
        code=possession_code,
        character=character,
    )
    return character, membership, possession


@require_POST
@login_required
def possession_carry(request: HtmxHttpRequest, code, possession_code) -> HttpResponse:
    character, membership, possession = _get_possession(request, code, possession_code)
    carried = request.POST.get("carried") == "1"
    try:
        possession_services.possession_set_carried(possession=possession, carried=carried)
    except ServiceError as error:
        errors = {f"{possession.code}-carried": error.message}
        return _play_response(request, character, membership, errors=errors)
    return _play_response(request, character, membership)


@require_POST
@login_required
def possession_quantity(request: HtmxHttpRequest, code, possession_code) -> HttpResponse:
    character, membership, possession = _get_possession(request, code, possession_code)
    form = QuantityForm(request.POST)
    if not form.is_valid():
        errors = {str(possession.code): form.errors["quantity"][0]}
        return _play_response(request, character, membership, errors=errors)
    try:
        possession_services.possession_set_quantity(
            possession=possession, quantity=form.cleaned_data["quantity"]
        )
    except ServiceError as error:
        errors = {str(possession.code): error.message}
        return _play_response(request, character, membership, errors=errors)
    return _play_response(request, character, membership)


@require_POST
@login_required
def loot_remove(request: HtmxHttpRequest, code, possession_code) -> HttpResponse:
    character, membership, possession = _get_possession(request, code, possession_code)
    try:
        possession_services.loot_remove(possession=possession)
    except ServiceError as error:
        return _play_response(
            request, character, membership, errors={str(possession.code): error.message}
        )
    return _play_response(request, character, membership)


@require_POST
@login_required
def loot_add(request: HtmxHttpRequest, code) -> HttpResponse:
    character, membership = _get_character(request, code)
    if not _can_change_state(character, membership, request.user):
        raise PermissionDenied
    form = LootForm(request.POST)
    if not form.is_valid():
        return _play_response(request, character, membership, loot_form=form)
    try:
        possession_services.loot_add(character=character, user=request.user, **form.cleaned_data)
    except ServiceError as error:
        form.add_error(error.field or None, error.message)
        return _play_response(request, character, membership, loot_form=form)
    return _play_response(request, character, membership)


def _picked(versions: dict[int, SheetVersion], value: str | None) -> SheetVersion | None:
    try:
        return versions.get(int(value or ""))
    except ValueError:
        return None


def _version_label(version: SheetVersion | None) -> str:
    if version is None:
        return ""
    return f"Versão {version.number} ({version.get_status_display()})"


@login_required
def sheet_history(request: HtmxHttpRequest, code) -> HttpResponse:
    """Every version of a sheet with who moved it and when, and the differences between any
    two (``?de=N&para=M``; by default the two newest)."""
    character, membership = _get_character(request, code)
    versions = history.versions_visible(character, request.user, membership)
    by_number = {v.number: v for v in versions}
    errors: dict[str, str] = {}
    before = after = None
    if "de" in request.GET or "para" in request.GET:
        before = _picked(by_number, request.GET.get("de"))
        after = _picked(by_number, request.GET.get("para"))
        if before is None:
            errors["de"] = history.HISTORY_PICK_VERSION
        if after is None:
            errors["para"] = history.HISTORY_PICK_VERSION
        if before is not None and before == after:
            errors["para"] = history.HISTORY_PICK_TWO
    elif len(versions) >= 2:
        before, after = versions[-2], versions[-1]
    changes = None
    if before is not None and after is not None and not errors:
        changes = version_changes(before, after)
    context = {
        "character": character,
        "membership": membership,
        "versions": list(reversed(versions)),
        "events": history.sheet_history(versions),
        "before": before,
        "after": after,
        "changes": changes,
        "before_label": _version_label(before),
        "after_label": _version_label(after),
        "errors": errors,
        "is_arbitro": membership.role == Membership.Role.ARBITRO,
        "sees_drafts": membership.runs_the_table or character.is_owned_by(request.user),
    }
    return render(request, "sheets/history.html", context)


# --- the account page: the user's own API tokens ---------------------------------------------


def _account_response(request, *, new_token="", notice="", status=200) -> HttpResponse:
    """The account page, or with htmx its tokens region alone. A fresh ``request_key`` each time:
    the create form posted twice with the same one makes one token."""
    context = {
        "tokens": ApiToken.objects.filter(user=request.user).order_by("-created_at", "-pk"),
        "new_token": new_token,
        "notice": notice,
        "request_key": uuid.uuid4().hex,
    }
    template = "sheets/account.html#tokens" if request.htmx else "sheets/account.html"
    return render(request, template, context, status=status)


@never_cache
@login_required
def account(request: HtmxHttpRequest) -> HttpResponse:
    return _account_response(request)


@never_cache  # the answer carries the token itself: no cache may keep it
@require_http_methods(["GET", "POST"])
@login_required
def account_token_create(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "GET":  # the address a no-JS create left in the bar, opened again
        return redirect("account")
    try:
        token = auth.api_token_create(
            user=request.user, request_key=request.POST.get("request_key", "")
        )
    except ServiceError as error:
        # The second post of the same form: with htmx a 409 is not swapped in, so the page
        # still shows the token from the first answer; without it, this page says what happened.
        return _account_response(request, notice=error.message, status=409)
    return _account_response(request, new_token=token, status=201)


def _own_token(request, code) -> ApiToken:
    """The user's own token; anybody else's is a 404, as if it did not exist."""
    return get_object_or_404(ApiToken, code=code, user=request.user)


@require_POST
@login_required
def account_token_revoke(request: HtmxHttpRequest, code) -> HttpResponse:
    token = _own_token(request, code)
    done = auth.api_token_revoke(token=token)
    notice = (
        f"Token {token.prefix}… revogado: não abre mais a API."
        if done
        else f"O token {token.prefix}… já estava revogado."
    )
    if request.htmx:
        return _account_response(request, notice=notice)
    messages.success(request, notice)
    return redirect("account")


@require_POST
@login_required
def account_tokens_revoke_all(request: HtmxHttpRequest) -> HttpResponse:
    count = auth.api_tokens_revoke(user=request.user)
    notice = f"{count} token(s) revogado(s)." if count else "Nenhum token ativo para revogar."
    if request.htmx:
        return _account_response(request, notice=notice)
    messages.success(request, notice)
    return redirect("account")
