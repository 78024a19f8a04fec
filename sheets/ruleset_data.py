"""A sheet of a ruleset that does not keep its own tables (any but GURPS): its version's data and
its state's data as JSON, validated by the ruleset's ``SheetsPart.data_model`` (and
``state_model``). Submitted, homologated and returned through the same services as a GURPS
sheet (``sheets.homologation.sheet_submit``, ``sheets.homologation.sheet_homologate``).
"""

from __future__ import annotations

from django.db import transaction

from campaigns.access import membership_for
from campaigns.errors import ServiceError
from campaigns.models import Membership
from rulesets.base import RulesetError
from rulesets.registry import GURPS3E, ruleset_for
from sheets.models import Character, SheetVersion

GURPS_KEEPS_TABLES = "Uma ficha de GURPS se escreve nas tabelas da ficha (atributos e linhas)."
NOT_YOURS = "Só o jogador da personagem ou o Árbitro escrevem a ficha dela."
DRAFT_OR_PENDING = "Esta personagem já tem um rascunho ou uma versão à espera do Árbitro."


def _validated(character: Character, data: dict) -> dict:
    if character.campaign.ruleset == GURPS3E:
        raise ServiceError(GURPS_KEEPS_TABLES, field="data")
    try:
        return ruleset_for(character.campaign.ruleset).part("sheets").validate(data)
    except RulesetError as error:
        field = f"data.{error.field}" if error.field else "data"
        raise ServiceError(error.message, field=field) from None


@transaction.atomic
def data_draft_create(*, character: Character, user, data: dict, notes: str = "") -> SheetVersion:
    """A new draft version of ``character`` holding ``data`` (validated by its ruleset's
    ``data_model``; ServiceError naming ``data.<field>`` otherwise), numbered after the last.
    Refused for a GURPS campaign, for anyone but the character's jogador and the Árbitro, and
    while a draft or a submitted version waits."""
    membership = membership_for(user, character.campaign)
    arbitro = membership is not None and membership.role == Membership.Role.ARBITRO
    if not (character.is_owned_by(user) or arbitro):
        raise ServiceError(NOT_YOURS, code="forbidden")
    Character.objects.select_for_update().get(pk=character.pk)
    data = _validated(character, data)
    versions = SheetVersion.objects.filter(character=character)
    waiting = (SheetVersion.Status.DRAFT, SheetVersion.Status.SUBMITTED)
    if versions.filter(status__in=waiting).exists():
        raise ServiceError(DRAFT_OR_PENDING, code="draft_exists")
    last = versions.order_by("-number").first()
    return SheetVersion.objects.create(
        character=character,
        number=(last.number + 1) if last else 1,
        status=SheetVersion.Status.DRAFT,
        data=data,
        notes=(notes or "").strip(),
        created_by=user,
    )
