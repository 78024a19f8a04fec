"""The chain of rolls (docs/DESIGN.md, invariant 2 (Rolls are append-only)): every roll numbered per
campaign without gaps, storing the SHA-256 of the previous roll's hash plus its own canonical
content, so anyone can verify the log (``manage.py verify_rolls``, ``GET /api/v1/rolls/verify``).

Every capability that rolls appends through ``append_roll`` (or ``append_with_retries``), inside
the campaign's lock.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns import doorbell
from campaigns.errors import ServiceError
from campaigns.models import Campaign, Membership
from rulesets.registry import GURPS3E
from sessions.entries import ensure_week_accepts_entries
from sessions.models import (
    Roll,
    Scene,
)
from sheets.models import Character

GENESIS_HASH = "0" * 64
CAMPAIGN_REQUIRED = "Você participa de mais de uma campanha: diga qual (campaign)."


# --- the chain --------------------------------------------------------------------------------


def roll_canonical_content(roll: Roll) -> str:
    """The roll's content as canonical JSON (sorted keys, no spaces): what its hash covers.

    The keys of the first rolls are always there; ``announcement`` and ``details`` (what a
    damage, table or contest roll adds) only when the roll has them, and ``ruleset`` only for
    a roll not of GURPS (``gurps3e``), so a chain written before they existed still verifies.
    """
    content = {
        "campaign": roll.campaign.slug,
        "sequence": roll.sequence,
        "scene": str(roll.scene.code),
        "character": str(roll.character.code) if roll.character_id else None,
        "declaration": roll.declaration_id,
        "label": roll.label,
        "kind": roll.kind,
        "base_level": roll.base_level,
        "modifiers": roll.modifiers,
        "effective_level": roll.effective_level,
        "dice": roll.dice,
        "total": roll.total,
        "outcome": roll.outcome,
        "margin": roll.margin,
        "hidden": roll.hidden,
        "name": roll.name,
        "rolled_by": roll.rolled_by.get_username(),
        "created_at": roll.created_at.isoformat(),
        "salt": roll.salt,
    }
    if roll.announcement_id is not None:
        content["announcement"] = str(roll.announcement.code)
    if roll.details:
        content["details"] = roll.details
    if roll.ruleset != GURPS3E:
        content["ruleset"] = roll.ruleset
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def roll_hash(previous_hash: str, canonical_content: str) -> str:
    return hashlib.sha256((previous_hash + canonical_content).encode("utf-8")).hexdigest()


def _hidden_roll_name(scene: Scene, character: Character | None) -> str:
    week = scene.week
    earlier = Roll.objects.filter(scene__week=week, hidden=True)
    if character is not None and character.owner_id:
        earlier = earlier.filter(character__owner_id=character.owner_id)
    else:
        earlier = earlier.filter(character=character)
    return f"semana-{week.number:02d}-rolagem-{earlier.count() + 1:02d}"


def append_with_retries(
    campaign: Campaign, request_key: str, fields: dict, same: Callable[[Roll], Roll]
) -> Roll:
    """Append a roll, taking the next sequence number; a lost race takes the one after."""
    for attempt in range(5):
        if request_key:
            existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
            if existing is not None:
                return same(existing)
        try:
            return append_roll(campaign=campaign, request_key=request_key, **fields)
        except IntegrityError:
            # Another writer took the same sequence number first; take the next one.
            if attempt == 4:
                raise
    raise AssertionError("unreachable")


@transaction.atomic
def append_roll(*, campaign: Campaign, **fields) -> Roll:
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    # Under the campaign's lock, which report_submit takes too: no roll slips into a week
    # whose report went to the Árbitro while it was being rolled.
    ensure_week_accepts_entries(fields["scene"].week)
    last = Roll.objects.filter(campaign=campaign).order_by("-sequence").first()
    hidden = fields.pop("hidden", False)
    roll = Roll(
        campaign=campaign,
        ruleset=campaign.ruleset,
        sequence=(last.sequence + 1) if last else 1,
        hidden=hidden,
        name=_hidden_roll_name(fields["scene"], fields.get("character")) if hidden else "",
        created_at=timezone.now(),
        previous_hash=last.hash if last else GENESIS_HASH,
        salt=secrets.token_hex(16),
        **fields,
    )
    roll.hash = roll_hash(roll.previous_hash, roll_canonical_content(roll))
    roll.save()
    doorbell.ring_scene(roll.scene)
    return roll


# --- verifying the chain ----------------------------------------------------------------------


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    count: int
    first_broken: int | None


def rolls_verify(campaign: Campaign) -> ChainReport:
    """Recompute the chain of a campaign's rolls: gaps, links and hashes."""
    previous = GENESIS_HASH
    count = 0
    rolls = Roll.objects.filter(campaign=campaign).select_related(
        "campaign", "scene", "character", "rolled_by", "announcement"
    )
    for expected, roll in enumerate(rolls.order_by("sequence").iterator(), start=1):
        count += 1
        if (
            roll.sequence != expected
            or roll.previous_hash != previous
            or roll.hash != roll_hash(previous, roll_canonical_content(roll))
        ):
            return ChainReport(ok=False, count=count, first_broken=roll.sequence)
        previous = roll.hash
    return ChainReport(ok=True, count=count, first_broken=None)


def campaign_for_verify(user, slug: str | None) -> Campaign:
    """The campaign whose chain a member asks to verify: the one named, or their only one."""
    memberships = Membership.objects.filter(user=user).select_related("campaign")
    if slug:
        membership = memberships.filter(campaign__slug=slug).first()
        if membership is None:
            raise ServiceError("Campanha não encontrada.", field="campaign", code="not_found")
        return membership.campaign
    campaigns = [m.campaign for m in memberships]
    if len(campaigns) != 1:
        raise ServiceError(CAMPAIGN_REQUIRED, field="campaign")
    return campaigns[0]
