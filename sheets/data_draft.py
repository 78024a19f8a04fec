"""The jogador's draft of a sheet kept as JSON (the Xuleta): a page of simple fields at the same
URL as GURPS's draft (``sheets.draft_views.draft_edit`` branches here), saved through the
ruleset's ``data_model`` (``sheets.ruleset_data``); sent to the Árbitro by the same
``draft-submit`` as GURPS's. Bad input loses nothing: the page comes back with what was typed
and the refusal beside it, naming the field and the allowed values.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render

from campaigns.errors import ServiceError
from campaigns.http import HtmxHttpRequest
from rulesets.base import RulesetError
from rulesets.registry import ruleset_for
from sheets import ruleset_data
from sheets.models import Character, SheetVersion

SAVED = "Rascunho salvo."
FIX_BELOW = "Há o que corrigir: nada foi salvo."
BLANK_ATTACK_ROWS = 2
MAX_ATTACKS = 30


def data_draft_update(*, version: SheetVersion, data: dict, notes: str = "") -> SheetVersion:
    """Replace a draft's ``data`` (validated by the ruleset's ``data_model``: ``ServiceError``
    naming ``data.<field>`` otherwise); a version not a draft is refused."""
    with transaction.atomic():
        locked = SheetVersion.objects.select_for_update().get(pk=version.pk)
        if locked.status != SheetVersion.Status.DRAFT:
            raise ServiceError(
                "Só um rascunho pode ser alterado; versão enviada ou homologada não muda.",
                code="not_a_draft",
            )
        try:
            clean = ruleset_for(locked.ruleset).part("sheets").validate(data)
        except RulesetError as error:
            raise ServiceError(
                error.message, field=f"data.{error.field}" if error.field else "data"
            ) from None
        locked.data = clean
        locked.notes = (notes or "").strip()
        locked.save(update_fields=["data", "notes"])
    return locked


def _number(post, key: str, *, kind=int, default=None):
    """The field ``key`` as a number; "" gives ``default``; text that is not a number is kept
    as typed, for the data model to refuse naming the field (nothing typed is lost)."""
    raw = (post.get(key) or "").strip().replace(",", ".")
    if raw == "":
        return default
    try:
        return kind(raw)
    except ValueError:
        return raw


def data_from_post(post, choices: dict[str, Any]) -> dict:
    """The sheet's data as the page's fields give it (blank attack rows skipped)."""
    data: dict[str, Any] = {
        "name": (post.get("name") or "").strip(),
        "level": _number(post, "level"),
        "abilities": {key: _number(post, f"abilities.{key}") for key, _ in choices["abilities"]},
        "proficiencies": {
            "skills": [name for name, _ in choices["skills"] if post.get(f"skill.{name}")],
            "saves": [key for key, _ in choices["abilities"] if post.get(f"save.{key}")],
        },
        "ac": _number(post, "ac"),
        "max_hp": _number(post, "max_hp"),
        "hit_die": _number(post, "hit_die"),
        "speed_m": _number(post, "speed_m", kind=float, default=9.0),
        "darkvision_m": _number(post, "darkvision_m", kind=float, default=0.0),
        "attacks": [],
        "notes": post.get("notes") or "",
    }
    for key in ("resistances", "vulnerabilities", "immunities"):
        data[key] = [k for k, _ in choices["damage_types"] if post.get(f"{key}.{k}")]
    rows = _number(post, "attack_rows", default=0)
    for i in range(min(rows if isinstance(rows, int) else 0, MAX_ATTACKS)):
        prefix = f"attacks.{i}."
        name = (post.get(prefix + "name") or "").strip()
        if not name:
            continue
        normal = _number(post, prefix + "range_normal", kind=float)
        long = _number(post, prefix + "range_long", kind=float)
        data["attacks"].append(
            {
                "name": name,
                "damage": (post.get(prefix + "damage") or "").strip(),
                "damage_type": post.get(prefix + "damage_type") or "",
                "finesse": bool(post.get(prefix + "finesse")),
                "light": bool(post.get(prefix + "light")),
                "thrown": bool(post.get(prefix + "thrown")),
                "ranged": bool(post.get(prefix + "ranged")),
                "reach_m": _number(post, prefix + "reach_m", kind=float, default=1.5),
                "range_m": [normal, long] if normal is not None or long is not None else None,
                "proficient": bool(post.get(prefix + "proficient")),
            }
        )
    casting_class = (post.get("spellcasting.class") or "").strip()
    if casting_class:
        split = [s.strip() for s in (post.get("spellcasting.cantrips") or "").split(",")]
        spells = [s.strip() for s in (post.get("spellcasting.spells") or "").split(",")]
        data["spellcasting"] = {
            "class": casting_class,
            "slots": {
                lvl: n
                for lvl in choices["spell_levels"]
                if (n := _number(post, f"slots.{lvl}", default=0))
            },
            "cantrips": [s for s in split if s],
            "spells": [s for s in spells if s],
        }
    return data


def _blank(choices) -> dict:
    return {
        "name": "",
        "level": 1,
        "abilities": {key: 10 for key, _ in choices["abilities"]},
        "proficiencies": {"skills": [], "saves": []},
        "ac": 10,
        "max_hp": "",
        "hit_die": 8,
        "speed_m": 9.0,
        "darkvision_m": 0.0,
        "attacks": [],
        "spellcasting": None,
        "resistances": [],
        "vulnerabilities": [],
        "immunities": [],
        "notes": "",
    }


def _render(request, character, draft, data, *, error=None, status=200) -> HttpResponse:
    sheets = ruleset_for(character.campaign.ruleset).sheets
    choices = sheets.choices
    attacks = list(data.get("attacks") or [])
    rows = attacks + [None] * BLANK_ATTACK_ROWS
    casting = data.get("spellcasting") or {}
    context = {
        "character": character,
        "draft": draft,
        "data": data,
        "choices": choices,
        "attack_rows": [(i, a or {}) for i, a in enumerate(rows)],
        "attack_count": len(rows),
        "casting": casting,
        "slots": [
            (lvl, (casting.get("slots") or {}).get(lvl, "")) for lvl in choices["spell_levels"]
        ],
        "error": error,
    }
    return render(
        request, f"sheets/draft_{character.campaign.ruleset}.html", context, status=status
    )


def _source_data(character: Character) -> dict | None:
    newest = SheetVersion.objects.filter(character=character).order_by("-number").first()
    return dict(newest.data) if newest is not None and newest.data else None


def data_draft_page(request: HtmxHttpRequest, character: Character) -> HttpResponse:
    """The owner's draft of a JSON sheet: GET shows it (the draft, or a copy of the newest
    version, or a blank sheet); POST saves it (a new draft when none is open)."""
    character.campaign  # noqa: B018 - read once for the template and the ruleset
    draft = SheetVersion.objects.filter(
        character=character, status=SheetVersion.Status.DRAFT
    ).first()
    sheets = ruleset_for(character.campaign.ruleset).sheets
    if request.method != "POST":
        data = (draft.data if draft else None) or _source_data(character) or _blank(sheets.choices)
        data["name"] = data.get("name") or character.name
        return _render(request, character, draft, data)
    data = data_from_post(request.POST, sheets.choices)
    try:
        if draft is None:
            draft = ruleset_data.data_draft_create(
                character=character, user=request.user, data=data, notes=data.get("notes", "")
            )
        else:
            data_draft_update(version=draft, data=data, notes=data.get("notes", ""))
    except ServiceError as error:
        return _render(request, character, draft, data, error=error, status=422)
    messages.success(request, SAVED)
    return redirect("draft", code=character.code)
