"""Where a roll's level comes from (DESIGN.md invariant 10): a character's homologated sheet and
state, read here and handed to ``gurps.levels``, which computes the level and says whence; or
the Mestre's number, for a creature or NPC without a sheet.

The scene's API, forms and MCP tools all ask ``level_for``; none computes a level itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.errors import ServiceError
from canon import skills as catalogue_data
from gurps import checks, levels
from gurps.errors import InvalidValue
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


def sheet_levels(character: Character, *, version=None, state=None) -> levels.SheetLevels | None:
    """The homologated sheet and state of ``character`` as the engine reads them; None when
    it has no homologated version (a bestiary creature, an NPC without a sheet). ``version``
    and ``state``, when the caller has read them already, are not read again."""
    version = version or homologated_version(character)
    if version is None:
        return None
    state = state if state is not None else state_of(character)
    traits = list(version.traits.all())
    return levels.SheetLevels(
        name=character.name,
        st=version.st,
        dx=version.dx,
        iq=version.iq,
        ht=version.ht,
        skills={s.name: levels.SheetSkillLevel(s.level, s.attribute) for s in version.skills.all()},
        strong_will=sum(t.level or 1 for t in traits if t.key == "strong_will"),
        weak_will=sum(t.level or 1 for t in traits if t.key == "weak_will"),
        fatigue_lost=state.fatigue_lost,
    )


@dataclass(frozen=True)
class Asked:
    """What a request names to roll against: a ``skill`` (with the ``attribute`` and
    ``difficulty`` of the book's general rule, for a skill the catalogue lacks) or an
    ``attribute``; ``base_level`` only for who has no sheet; ``kind`` of test, if said;
    ``new_skill`` when the caller says the skill is new (not a misspelling: the general rule
    then applies to a name the sheet and the catalogue do not know)."""

    skill: str = ""
    attribute: str = ""
    difficulty: str = ""
    base_level: int | None = None
    kind: str = ""
    label: str = ""
    new_skill: bool = False

    def as_dict(self) -> dict:
        return {
            key: value
            for key, value in (
                ("skill", " ".join(self.skill.split())),
                ("attribute", self.attribute),
                ("difficulty", self.difficulty),
                ("new_skill", self.new_skill),
            )
            if value
        }


def _field(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def level_for(
    character: Character | None,
    asked: Asked,
    *,
    prefix: str = "",
    default_kind: str = "",
    sheet=None,
) -> levels.Level:
    """The level to roll against, and where it came from.

    A character with a homologated sheet: the named skill or attribute, read by
    ``gurps.levels`` from the sheet and the state (§3.1, §3.3, §6.2, §7.1); a ``base_level``
    that disagrees is refused, as is a request naming neither (a ``label`` that is exactly the
    name of a skill or attribute of the sheet names it). Without a sheet (or without a
    character): the Mestre's ``base_level``, named by the skill, the attribute or nothing.
    ServiceError names the field (``prefix``.skill, .base_level, .kind …) otherwise.
    ``default_kind``: the kind of a Mestre's level that names nothing (a contest's "skill").
    """
    sheet = sheet if sheet is not None else (sheet_levels(character) if character else None)
    if sheet is not None and asked.kind != checks.RollKind.DEFENCE:
        return _from_sheet(character, sheet, asked, prefix)
    if asked.base_level is None:
        who = character.name if character is not None else None
        message = LEVEL_NEEDED.format(who=who) if who else LEVEL_NEEDED_NO_CHARACTER
        raise ServiceError(message, field=_field(prefix, "base_level"))
    kind = asked.kind or ("attribute" if asked.attribute and not asked.skill else "")
    kind = kind or ("skill" if asked.skill else default_kind)
    if not kind:
        raise ServiceError(KIND_NEEDED, field=_field(prefix, "kind"))
    name = asked.skill
    if not name and asked.attribute:
        name = levels.ATTRIBUTE_NAMES[_attribute(asked.attribute, prefix)]
    return levels.given_level(name or asked.label, asked.base_level, kind)


def _attribute(value: str, prefix: str) -> levels.CheckAttribute:
    try:
        return levels.read_attribute(value)
    except InvalidValue as error:
        raise ServiceError(error.message, field=_field(prefix, "attribute")) from None


def _from_sheet(character, sheet: levels.SheetLevels, asked: Asked, prefix: str) -> levels.Level:
    try:
        if asked.skill:
            level = levels.skill_level(
                sheet,
                asked.skill,
                catalogue=catalogue_data.engine_catalogue(
                    catalogue_data.skill_catalogue(character.campaign)
                ),
                attribute=asked.attribute or None,
                difficulty=asked.difficulty or None,
                new_skill=asked.new_skill,
            )
        elif asked.attribute:
            level = levels.attribute_level(sheet, asked.attribute)
        else:
            level = levels.sheet_line(sheet, asked.label, kind=asked.kind or None)
            if level is None:
                raise ServiceError(
                    NAME_THE_LINE.format(name=character.name), field=_field(prefix, "skill")
                )
    except InvalidValue as error:
        raise ServiceError(error.message, field=_field(prefix, error.field)) from None
    if asked.base_level is not None and asked.base_level != level.level:
        raise ServiceError(
            LEVEL_DISAGREES.format(given=asked.base_level, name=character.name, text=level.text),
            field=_field(prefix, "base_level"),
        )
    if asked.kind and asked.kind != level.kind:
        raise ServiceError(
            KIND_DISAGREES.format(
                text=level.name, what=KIND_WORDS[str(level.kind)], kind=str(level.kind)
            ),
            field=_field(prefix, "kind"),
        )
    return level


@dataclass(frozen=True)
class LevelChoice:
    """One line the Mestre's roll form offers for a character: what to send, the level, the
    text and the chance to pass (§1.1, truncated as the canon's table)."""

    skill: str
    attribute: str
    level: levels.Level
    percent: int


def level_choices(character: Character, *, version=None, state=None) -> list[LevelChoice]:
    """The attributes, Vontade and skills of a character's homologated sheet, each with its
    level now (fatigue counted) and the chance to pass at it; [] without a sheet."""
    sheet = sheet_levels(character, version=version, state=state)
    if sheet is None:
        return []
    choices = []
    for attribute in levels.CheckAttribute:
        level = levels.attribute_level(sheet, attribute)
        choices.append(LevelChoice("", attribute.value, level, chance_percent(level.level)))
    for name in sorted(sheet.skills, key=levels.folded):
        level = levels.skill_level(sheet, name)
        choices.append(LevelChoice(name, "", level, chance_percent(level.level)))
    return choices


def chance_percent(level: int) -> int:
    """The chance to pass at ``level``, in whole percent truncated as the canon's table (§1.1)."""
    return checks.percent_truncated(checks.success_probability(level))
