"""Where a roll's level comes from (docs/DESIGN.md, invariant 10 (Levels from the sheet)): a
character's homologated sheet and state, read here and handed to the campaign's ruleset
(``ChecksPart``: ``gurps.levels`` for GURPS), which computes the level and says whence; or the
Mestre's number, for a creature or NPC without a sheet.

The scene's API, forms and MCP tools all ask ``level_for``; none computes a level itself.
"""

from __future__ import annotations

from campaigns.errors import ServiceError
from canon import skills as catalogue_data
from rulesets.base import CheckRequest, LevelChoice, LevelResult
from rulesets.registry import rule_errors, ruleset_for
from sheets.models import Character
from sheets.reads import homologated_version, state_of

NAME_THE_LINE = (
    "{name} tem ficha homologada: diga a perícia (skill) ou o atributo (attribute), e o nível "
    "vem da ficha."
)
LEVEL_DISAGREES = "O nível {given} não confere com a ficha de {name}: {text}."
LEVEL_NEEDED = "Diga o nível (base_level): {who} não tem ficha homologada."
LEVEL_NEEDED_NO_CHARACTER = "Diga o nível (base_level) contra o qual se rola."
KIND_DISAGREES = "{text} é {what}: o tipo do teste é {kind}."
KIND_NEEDED = "Diga o tipo do teste (kind): perícia, atributo ou defesa."
KIND_WORDS = {"skill": "perícia", "attribute": "atributo", "defence": "defesa"}


def sheet_levels(character: Character, *, version=None, state=None) -> dict | None:
    """The homologated sheet and state of ``character`` as its ruleset's checks read them
    (``SheetsPart.check_data``); None when it has no homologated version (a bestiary
    creature, an NPC without a sheet). ``version`` and ``state``, when the caller has read
    them already, are not read again."""
    version = version or homologated_version(character)
    if version is None:
        return None
    state = state if state is not None else state_of(character)
    return version.check_data(state, name=character.name)


# What a request names to roll against (the interface's ``CheckRequest``).
Asked = CheckRequest


def _field(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def level_for(
    character: Character | None,
    asked: Asked,
    *,
    prefix: str = "",
    default_kind: str = "",
    sheet=None,
    campaign=None,
) -> LevelResult:
    """The level to roll against, and where it came from.

    A character with a homologated sheet: the named skill or attribute, read by
    ``gurps.levels`` from the sheet and the state (§3.1, §3.3, §6.2, §7.1); a ``base_level``
    that disagrees is refused, as is a request naming neither (a ``label`` that is exactly the
    name of a skill or attribute of the sheet names it). Without a sheet (or without a
    character): the Mestre's ``base_level``, named by the skill, the attribute or nothing.
    ServiceError names the field (``prefix``.skill, .base_level, .kind …) otherwise.
    ``default_kind``: the kind of a Mestre's level that names nothing (a contest's "skill").
    ``campaign``: whose ruleset reads the level when there is no character.
    """
    checks = _checks(character, campaign)
    sheet = sheet if sheet is not None else (sheet_levels(character) if character else None)
    if sheet is not None and checks.uses_sheet(asked):
        return _from_sheet(checks, character, sheet, asked, prefix)
    if asked.base_level is None:
        who = character.name if character is not None else None
        message = LEVEL_NEEDED.format(who=who) if who else LEVEL_NEEDED_NO_CHARACTER
        raise ServiceError(message, field=_field(prefix, "base_level"))
    try:
        level = checks.given_level(asked, default_kind)
    except rule_errors() as error:
        raise _refused(error, prefix) from None
    if level is None:
        raise ServiceError(KIND_NEEDED, field=_field(prefix, "kind"))
    return level


def _checks(character: Character | None, campaign=None):
    """The checks part of the campaign's ruleset (the character's, or ``campaign``'s)."""
    campaign = campaign if campaign is not None else character.campaign
    return ruleset_for(campaign.ruleset).part("checks")


def _refused(error: Exception, prefix: str) -> ServiceError:
    """A ruleset's refusal naming a ``field`` as the service's own, the field prefixed. The
    rest (a skill without a default …) reach the edges as the ruleset's errors, as always."""
    if not getattr(error, "field", ""):
        raise error
    return ServiceError(error.message, field=_field(prefix, error.field))


def _from_sheet(checks, character, sheet: dict, asked: Asked, prefix: str) -> LevelResult:
    try:
        level = checks.sheet_level(
            sheet,
            asked,
            lambda: catalogue_data.engine_catalogue(
                catalogue_data.skill_catalogue(character.campaign)
            ),
        )
    except rule_errors() as error:
        raise _refused(error, prefix) from None
    if level is None:
        raise ServiceError(NAME_THE_LINE.format(name=character.name), field=_field(prefix, "skill"))
    if asked.base_level is not None and asked.base_level != level.level:
        raise ServiceError(
            LEVEL_DISAGREES.format(given=asked.base_level, name=character.name, text=level.text),
            field=_field(prefix, "base_level"),
        )
    if asked.kind and asked.kind != level.kind:
        raise ServiceError(
            KIND_DISAGREES.format(
                text=level.name, what=KIND_WORDS.get(level.kind, level.kind), kind=level.kind
            ),
            field=_field(prefix, "kind"),
        )
    return level


def level_choices(character: Character, *, version=None, state=None) -> list[LevelChoice]:
    """The lines of a character's homologated sheet a roll form offers (GURPS: the attributes,
    Vontade and skills), each with its level now (fatigue counted) and the chance to pass at
    it; [] without a sheet."""
    version = version or homologated_version(character)
    if version is None:
        return []
    sheet = sheet_levels(character, version=version, state=state)
    return ruleset_for(version.ruleset).part("checks").choices(sheet)


def chance_percent(level: int, ruleset: str) -> int:
    """The chance to pass at ``level`` in whole percent, as the ruleset ``ruleset`` (a key)
    shows it (GURPS: truncated as the canon's table, §1.1)."""
    return ruleset_for(ruleset).part("checks").percent(level)
