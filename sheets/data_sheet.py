"""The sheet page of a character whose ruleset keeps its sheet as JSON (the Xuleta): the same
URL as GURPS's sheet page (``sheets.views.sheet_detail`` branches here), a template of the
ruleset's own (``sheets/sheet_<ruleset>.html``), the numbers from the ruleset's ``SheetsPart``
(its ``page``: every number with its formula and section, the exact chance beside each check
and save). Nothing here knows a rule.
"""

from __future__ import annotations

import hashlib
import json

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.functional import SimpleLazyObject

from campaigns.http import HtmxHttpRequest
from campaigns.models import Membership
from canon.services import readings_resolved
from rulesets.base import RulesetError
from rulesets.registry import GURPS3E, ruleset_for
from sheets import ruleset_data
from sheets.models import Character, CharacterState, SheetVersion


def keeps_json(character: Character) -> bool:
    """Whether the character's ruleset keeps its sheet as JSON and draws its own page (a
    ``SheetsPart`` with a ``data_model``, a ``page`` and its ``dcs``); GURPS keeps tables. No query when
    the character came with ``campaign_ruleset`` (``sheets.access``)."""
    key = getattr(character, "campaign_ruleset", None) or character.campaign.ruleset
    if key == GURPS3E:
        return False
    sheets = ruleset_for(key).sheets
    return (
        sheets is not None
        and sheets.data_model is not None
        and hasattr(sheets, "page")
        and hasattr(sheets, "dcs")
    )


def data_sheet_context(request: HtmxHttpRequest, character: Character, membership) -> dict:
    """The page's context: the newest homologated version and its numbers (``page``: None
    without one), the versions waiting (for the owner and who runs the table), the DC the
    reader asked (``?cd=``) or its error, and the readings whose pendência the Árbitro
    resolved (``readings_resolved``)."""
    key = getattr(character, "campaign_ruleset", None) or character.campaign.ruleset
    ruleset = ruleset_for(key)
    versions = list(
        SheetVersion.objects.filter(character=character)
        .select_related("decided_by")
        .order_by("-number")
    )
    homologated = next((v for v in versions if v.status == SheetVersion.Status.HOMOLOGATED), None)
    is_owner = character.is_owned_by(request.user)
    sees_pending = is_owner or membership.role != Membership.Role.JOGADOR
    state = _state(character, ruleset)
    dc_error = ""
    asked = request.GET.get("cd", "")
    page = page_key = None
    resolved: list[str] = []
    if homologated is not None:
        resolved = sorted(readings_resolved(character.campaign_id, key))
        sheets = ruleset.sheets
        try:
            dcs = sheets.dcs(asked)
        except RulesetError as error:
            if error.field != "cd":
                raise
            dc_error, dcs = error.message, sheets.dcs(None)
        chosen = None if dc_error else asked
        # Computed only when the cache lacks the block drawn from it (a homologated version
        # never changes; the state and the DCs are in the key).
        page = SimpleLazyObject(lambda: sheets.page(homologated.data, state, chosen))
        page_key = hashlib.sha256(
            json.dumps(
                [str(homologated.code), state, list(dcs), asked, dc_error, resolved],
                sort_keys=True,
            ).encode()
        ).hexdigest()
    return {
        "character": character,
        "membership": membership,
        "ruleset": ruleset,
        "version": homologated,
        "page": page,
        "page_key": page_key,
        "readings_resolved": resolved,
        "state": state,
        "is_owner": is_owner,
        "pending_versions": [v for v in versions if v.status != SheetVersion.Status.HOMOLOGATED]
        if sees_pending
        else [],
        "dc_asked": request.GET.get("cd", ""),
        "dc_error": dc_error,
    }


def _state(character: Character, ruleset) -> dict:
    """The character's state as ``sheets.ruleset_data.data_state`` reads it, from the row that
    came with the character (``sheets.access``: no query), its defaults when there is none."""
    if not Character.state.is_cached(character):
        return ruleset_data.data_state(character)
    try:
        stored = character.state.data
    except CharacterState.DoesNotExist:
        stored = {}
    return ruleset.sheets.state_model.model_validate(stored or {}).model_dump(mode="json")


def data_sheet_page(request: HtmxHttpRequest, character: Character, membership) -> HttpResponse:
    context = data_sheet_context(request, character, membership)
    template = f"sheets/sheet_{context['ruleset'].key}.html"
    return render(request, template, context, status=422 if context["dc_error"] else 200)
