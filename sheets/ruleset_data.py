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
from sheets.models import Character, CharacterState, SheetVersion

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


def data_validated(character: Character, data: dict) -> dict:
    """``data`` validated by ``character``'s ruleset (the Árbitro's correction reads it so
    too); ServiceError naming ``data.<field>``, or ``data`` for a GURPS character."""
    return _validated(character, data)


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


def data_state(character: Character) -> dict:
    """The character's state as its ruleset's ``SheetsPart.state_model`` reads it (its defaults
    where nothing was written yet): plain JSON. Refused for a GURPS campaign (its state is in
    ``CharacterState``'s columns)."""
    if character.campaign.ruleset == GURPS3E:
        raise ServiceError(GURPS_KEEPS_TABLES, field="state")
    stored = CharacterState.objects.filter(character=character).values_list("data", flat=True)
    sheets = ruleset_for(character.campaign.ruleset).part("sheets")
    return sheets.state_model.model_validate(stored.first() or {}).model_dump(mode="json")


@transaction.atomic
def data_state_write(*, character: Character, data: dict) -> CharacterState:
    """Store ``data`` as the character's state, validated by the ruleset's ``state_model``
    (``ServiceError`` naming ``state.<field>`` otherwise). The caller holds the right to write
    it (a fight, a rest, the Mestre): this checks the data, not who sends it."""
    if character.campaign.ruleset == GURPS3E:
        raise ServiceError(GURPS_KEEPS_TABLES, field="state")
    sheets = ruleset_for(character.campaign.ruleset).part("sheets")
    try:
        clean = sheets.state_model.model_validate(data).model_dump(mode="json")
    except ValueError as error:  # pydantic's ValidationError
        raise ServiceError(f"Estado inválido: {error}", field="state") from None
    state, _ = CharacterState.objects.select_for_update().get_or_create(character=character)
    state.data = clean
    state.save(update_fields=["data", "updated_at"])
    return state
