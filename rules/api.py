"""The rules as API operations: odds, damage by ST, the derived block, the closed vocabularies;
each for one ruleset (``?ruleset=``, default ``gurps3e``): an unknown key, or a system without
the part an operation needs, is refused (422, in Portuguese)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from ninja import Field, Query, Router, Schema

from campaigns.api_errors import errors
from campaigns.errors import ServiceError
from gurps import checks, damage, derived
from rulesets.base import Ruleset, RulesetError
from rulesets.registry import GURPS3E, ruleset_choices, ruleset_for
from sessions import vocabularies as game_vocabularies
from sheets.schemas import (
    DerivedOut,
    ReadingOut,
    derived_out,
    reading_pairs,
    readings_out,
)

router = Router()

RULESET_HELP = "O sistema de regras (a chave de campaign_overview/`/me`); omitido: gurps3e"
# An operation whose numbers only the canon's engine gives here, asked for another system that
# has the part: its adapter does not answer through this API yet.
NOT_ANSWERED = "O sistema de regras «{label}» não responde a esta consulta pela API."


class _RulesetKeys:
    """The registered keys as a field's enum in the schema, read when the schema is made (the
    value is checked by ``ruleset_named``, which says the allowed keys in Portuguese)."""

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict:
        schema = handler(core_schema)
        schema["enum"] = [key for key, _ in ruleset_choices()]
        return schema


# The ``?ruleset=`` parameter (and the MCP tools' ``ruleset``): one of the registered keys.
RulesetKey = Annotated[str, _RulesetKeys()]
RulesetQuery = Annotated[RulesetKey, Query(GURPS3E, description=RULESET_HELP)]


def ruleset_named(key: str, part: str | None = None) -> Ruleset:
    """The ruleset ``key`` names, with ``part`` if given; a ``ServiceError`` (422, Portuguese)
    naming the known keys, or saying the system lacks the part, otherwise."""
    try:
        ruleset = ruleset_for(key)
        if part is not None:
            ruleset.part(part)
    except RulesetError as error:
        raise ServiceError(str(error), field="ruleset") from error
    return ruleset


def _canon_engine(key: str, part: str) -> None:
    """Refuse (422) unless ``key`` is the canon's ruleset, whose engine answers below."""
    ruleset = ruleset_named(key)
    if ruleset.key != GURPS3E:
        ruleset_named(key, part)
        raise ServiceError(NOT_ANSWERED.format(label=ruleset.label), field="ruleset")


ParryKindIn = Literal["normal", "fencing", "staff", "knife", "thrown", "thrown_knife", "flail"]


class OddsOut(Schema):
    level: int
    success: float
    critical_success: float
    critical_failure: float
    success_exact: str = Field(description="a/216, exact (canon §1.1)")


class DamageOut(Schema):
    st: int
    thrust: str
    swing: str


class ShieldIn(Schema, extra="forbid"):
    skill: int
    pd: int


class WeaponIn(Schema, extra="forbid"):
    name: str
    skill: int
    parry: ParryKindIn = "normal"


class DerivedIn(Schema, extra="forbid"):
    st: int
    dx: int
    iq: int
    ht: int
    carried_kg: float = 0.0
    hp_lost: int = 0
    fatigue_lost: int = 0
    combat_reflexes: bool = False
    stunned: bool = False
    armour_pd: int = 0
    shield: ShieldIn | None = None
    weapons: list[WeaponIn] = []


class DerivedRulesOut(DerivedOut):
    readings: list[ReadingOut] = Field(
        description="Os números que dependem de uma leitura provisória (as mesmas que "
        "GET /sheets/{id} e a ficha dão para o mesmo caso); sem campanha aqui, a pendência "
        "de cada uma está no registro do Árbitro de cada campanha (divergence null)"
    )


@router.get(
    "/odds",
    response={200: OddsOut, **errors(422, database=False)},
    summary="Chance de passar num teste de 3d6 (§1.1–1.2)",
)
def odds(
    request,
    level: int = Query(..., ge=-100, le=100),
    ruleset: RulesetQuery = GURPS3E,
):
    _canon_engine(ruleset, "checks")
    success = checks.success_probability(level)
    return {
        "level": level,
        "success": float(success),
        "critical_success": float(checks.critical_success_probability(level)),
        "critical_failure": float(checks.critical_failure_probability(level)),
        "success_exact": f"{success * 216}/216",
    }


@router.get(
    "/damage",
    response={200: DamageOut, **errors(422, database=False)},
    summary="Dano básico por ST (§4.9)",
)
def basic_damage(
    request,
    st: int = Query(..., ge=1, le=1000),
    ruleset: RulesetQuery = GURPS3E,
):
    _canon_engine(ruleset, "combat")
    row = damage.basic_damage(st)
    return {"st": st, "thrust": str(row.thrust), "swing": str(row.swing)}


@router.post(
    "/derived",
    response={200: DerivedRulesOut, **errors(400, 422, database=False)},
    summary="Derivados, Carga e defesas (§2, §4.6–4.7)",
)
def derived_stats(request, payload: DerivedIn, ruleset: RulesetQuery = GURPS3E):
    _canon_engine(ruleset, "sheets")
    result = derived.derive(
        st=payload.st,
        dx=payload.dx,
        iq=payload.iq,
        ht=payload.ht,
        carried_kg=str(payload.carried_kg),
        hp_lost=payload.hp_lost,
        fatigue_lost=payload.fatigue_lost,
        combat_reflexes=payload.combat_reflexes,
        stunned=payload.stunned,
        armour_pd=payload.armour_pd,
        shield=derived.Shield(skill=payload.shield.skill, pd=payload.shield.pd)
        if payload.shield
        else None,
        weapons=[
            derived.Weapon(name=w.name, skill=w.skill, parry=w.parry) for w in payload.weapons
        ],
    )
    return {**derived_out(result), "readings": readings_out(reading_pairs(result))}


class TermOut(Schema):
    key: str
    label: str
    details: dict[str, Any]


class VocabularyOut(Schema):
    """A closed set the API takes: the keys (what a body sends), their Portuguese labels
    (accepted too) and what a client needs to choose one."""

    name: str
    title: str
    section: str
    terms: list[TermOut]


@router.get(
    "/vocabularies",
    response={200: list[VocabularyOut], **errors(422, database=False)},
    summary="Todo vocabulário fechado que a API aceita: manobras, terrenos, locais, tabelas…",
)
def vocabulary_list(request, ruleset: RulesetQuery = GURPS3E):
    """The closed sets of one ruleset (``?ruleset=``, default gurps3e), from its pages part:
    for GURPS, maneuvers with the defences each leaves (§4.3), All-Out options, terrains (§5d),
    hit locations with their NH penalty (§5.5), the canon's tables with their dice and options,
    the kinds of roll, and every other set a field of the API or of the MCP tools takes; then
    the session procedure's. A system without a pages part: 422."""
    found = game_vocabularies.vocabularies(ruleset_named(ruleset, "pages").key)
    return [
        {
            "name": v.name,
            "title": v.title,
            "section": v.section,
            "terms": [{"key": t.key, "label": t.label, "details": t.details} for t in v.terms],
        }
        for v in found.values()
    ]
