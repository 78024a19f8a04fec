"""The rules as API operations: odds, damage by ST, the derived block, the closed vocabularies;
each for one ruleset (``?ruleset=``, default ``gurps3e``): an unknown key, or a system without
the part an operation needs, is refused (422, in Portuguese).

The Xuleta (``xuleta5e``, issue 22) answers two of them from its engine (``xuleta/``): the odds
of a d20 roll (``bonus``, ``dc``, ``edge``, ``roll``: «Proves i tirades») and the derived numbers
of a set of abilities (``xuleta.derived.derive``), its body naming the ruleset itself."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any, Literal

from ninja import Body, Field, Query, Router, Schema
from ninja.errors import ValidationError
from pydantic import PlainValidator, StrictFloat, StrictInt, create_model
from pydantic import ValidationError as PydanticValidationError

from campaigns.api_errors import errors
from campaigns.errors import ServiceError
from gurps import checks, damage, derived
from rulesets.base import Ruleset, RulesetError
from rulesets.registry import GURPS3E, XULETA5E, ruleset_choices, ruleset_for
from sessions import vocabularies as game_vocabularies
from sheets.schemas import (
    DerivedOut,
    ReadingOut,
    derived_out,
    reading_pairs,
    readings_out,
)
from xuleta import rolls as xuleta_rolls
from xuleta.abilities import ABILITIES, ABILITY_LABELS, MAX_SCORE, MIN_SCORE, SKILLS
from xuleta.conditions import CONDITIONS, MAX_EXHAUSTION
from xuleta.derived import DEFAULT_SPEED_M
from xuleta.derived import derive as xuleta_derive
from xuleta.errors import XuletaError
from xuleta.readings import all_readings as xuleta_readings

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


# --- the Xuleta's closed sets, as the schema's enums (the engine's keys, in its order) -------

XuletaEdgeIn = Literal["none", "advantage", "disadvantage"]
XuletaRollIn = Literal["check", "save", "attack"]
XuletaAbilityIn = Literal["str", "dex", "con", "int", "wis", "cha"]
XuletaSkillIn = Literal[tuple(SKILLS)]  # the text's 18 names, as printed
XuletaConditionIn = Literal[tuple(CONDITIONS)]  # the 15 «Estats» by key
# The Literals above are the engine's sets; a test holds them equal.
XULETA_ENUMS = {
    "edge": xuleta_rolls.EDGES,
    "roll": xuleta_rolls.ROLL_KINDS,
    "ability": ABILITIES,
    "skill": tuple(SKILLS),
    "condition": tuple(CONDITIONS),
}
MISSING_FOR_RULESET = "Para o sistema «{label}», mande {field}."
XULETA_HELP = "Só para ruleset=xuleta5e (a Xuleta, «Proves i tirades»)"


def _fraction(value: Fraction) -> str:
    """The exact chance, always ``a/b`` (``1/1``, ``0/1`` at the ends)."""
    return f"{value.numerator}/{value.denominator}"


def _require(ruleset: Ruleset, **given: Any) -> None:
    """Refuse (422, Portuguese, the field named) the first parameter ``ruleset`` needs that
    the request left out."""
    for name, value in given.items():
        if value is None:
            raise ServiceError(
                MISSING_FOR_RULESET.format(label=ruleset.label, field=name), field=name
            )


class XuletaOddsOut(Schema):
    """The exact odds of a Xuleta d20 roll: d20 (two with an edge) + ``bonus`` against ``dc``
    (a DC, or the target's AC for an attack), equal or more succeeds; a natural 20 and 1 count
    on attacks only (Xuleta §4.5 «20 natural i 1 natural»)."""

    ruleset: Literal["xuleta5e"]
    roll: XuletaRollIn
    bonus: int
    dc: int = Field(description="A CD (ou a CA do alvo, num ataque)")
    edge: XuletaEdgeIn
    success: float
    success_exact: str = Field(description="a/b, a fração exata (d20, ou 400 pares com vantagem)")
    critical: float | None = Field(description="Só num ataque: a chance do 20 natural")
    critical_exact: str | None = Field(description="Só num ataque: o 20 natural, a/b exato")
    fumble_exact: str | None = Field(description="Só num ataque: o 1 natural, a/b exato")


@router.get(
    "/odds",
    # Left to right: a GURPS answer is OddsOut, checked first and alone (smart mode tried both).
    response={
        200: Annotated[OddsOut | XuletaOddsOut, Field(union_mode="left_to_right")],
        **errors(422, database=False),
    },
    summary="Chance de passar num teste: 3d6 por NH (GURPS §1.1–1.2) ou d20 + bônus contra CD (Xuleta)",
)
def odds(
    request,
    level: int | None = Query(
        None, ge=-100, le=100, description="GURPS (e o padrão): o NH; obrigatório para ele"
    ),
    ruleset: RulesetQuery = GURPS3E,
    bonus: int | None = Query(
        None, ge=-30, le=60, description=f"{XULETA_HELP}: o bônus somado ao d20"
    ),
    dc: int | None = Query(None, ge=-30, le=60, description=f"{XULETA_HELP}: a CD ou a CA"),
    edge: Annotated[
        XuletaEdgeIn, Query(description=f"{XULETA_HELP}: vantagem, desvantagem ou nenhuma")
    ] = "none",
    roll: Annotated[
        XuletaRollIn,
        Query(description=f"{XULETA_HELP}: teste, salvação ou ataque (só este conta o 20 e o 1)"),
    ] = "check",
):
    if ruleset_named(ruleset).key == XULETA5E:
        _require(ruleset_named(ruleset), bonus=bonus, dc=dc)
        success = xuleta_rolls.success_chance(bonus, dc, edge, roll)
        attack = roll == xuleta_rolls.ATTACK
        critical = xuleta_rolls.critical_chance(edge)
        fumble = xuleta_rolls.kept_distribution(edge)[1]
        return {
            "ruleset": XULETA5E,
            "roll": roll,
            "bonus": bonus,
            "dc": dc,
            "edge": edge,
            "success": float(success),
            "success_exact": _fraction(success),
            "critical": float(critical) if attack else None,
            "critical_exact": _fraction(critical) if attack else None,
            "fumble_exact": _fraction(fumble) if attack else None,
        }
    _canon_engine(ruleset, "checks")
    _require(ruleset_named(ruleset), level=level)
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


# --- POST /rules/derived for the Xuleta ---------------------------------------------------

# The six scores, each 1–30 (the modifier table's rows); a model made with ``create_model`` so
# its fields can be the abilities' keys (``str``, ``int`` …).
XuletaRulesAbilitiesIn = create_model(
    "XuletaRulesAbilitiesIn",
    __config__={"extra": "forbid"},
    **{
        key: (StrictInt, Field(..., ge=MIN_SCORE, le=MAX_SCORE, description=ABILITY_LABELS[key]))
        for key in ABILITIES
    },
)


class XuletaRulesProficienciesIn(Schema, extra="forbid"):
    skills: list[XuletaSkillIn] = Field(
        [], description="As perícias em que é competente, pelo nome da Xuleta (§4.11 Habilitats)"
    )
    saves: list[XuletaAbilityIn] = Field(
        [], description="As salvações em que é competente, pela chave da característica"
    )


class XuletaRulesDerivedIn(Schema, extra="forbid"):
    """A Xuleta character's abilities, level and proficiencies, under exhaustion and
    conditions: what ``xuleta.derived.derive`` takes."""

    ruleset: Literal["xuleta5e"] = Field(XULETA5E, description="O sistema: xuleta5e (ou ?ruleset=)")
    abilities: XuletaRulesAbilitiesIn  # type: ignore[valid-type]
    level: StrictInt = Field(..., ge=1, le=20, description="O nível do personagem, 1–20")
    proficiencies: XuletaRulesProficienciesIn = Field(default_factory=XuletaRulesProficienciesIn)
    exhaustion: StrictInt = Field(0, ge=0, le=MAX_EXHAUSTION, description="Esgotament, 0–6")
    conditions: list[XuletaConditionIn] = Field([], description="Os estats, pela chave")
    speed_m: StrictFloat | None = Field(
        None,
        ge=0,
        le=1000,
        description=f"A velocidade da ficha, em metros (omitida: {DEFAULT_SPEED_M:g} m)",
    )


class XuletaRulesReadingOut(Schema):
    """A number that rests on an open reading of the Xuleta (``xuleta.readings``)."""

    value: str
    reading: str
    section: str
    question: str
    answer: str


class XuletaRulesDerivedOut(Schema):
    """The derived numbers (``xuleta.derived.Derived``): ``edges`` is roll kind → edge under
    the exhaustion and conditions given; ``explanations`` field → formula in the text's words."""

    ruleset: Literal["xuleta5e"]
    modifiers: dict[XuletaAbilityIn, int]
    proficiency_bonus: int
    skills: dict[str, int] = Field(description="O nome da perícia na Xuleta → bônus (as 18)")
    saves: dict[XuletaAbilityIn, int]
    passive_perception: int
    speed: float = Field(description="Metros, depois dos estats e do esgotament")
    edges: dict[XuletaRollIn, XuletaEdgeIn]
    save_edges: dict[XuletaAbilityIn, XuletaEdgeIn]
    auto_fail: list[XuletaAbilityIn] = Field(description="Salvações que falham sem rolar")
    attacked_edge: XuletaEdgeIn = Field(description="Um ataque contra ele (distância não dita)")
    explanations: dict[str, str]
    reasons: dict[str, list[str]]
    readings: list[XuletaRulesReadingOut]


def _keep(value: Any) -> Any:
    """The body as sent; ``derived_stats`` validates it by the ruleset it names."""
    if not isinstance(value, dict):
        raise ValueError("Use um objeto.")
    return value


# What the schema publishes (either body) while the body is validated by its ruleset below.
DerivedBody = Annotated[
    dict,
    PlainValidator(_keep, json_schema_input_type=DerivedIn | XuletaRulesDerivedIn),
]


def _validated(model: type[Schema], body: dict) -> Any:
    """``body`` validated by ``model``; its errors as the API's 422 (each field by its path)."""
    try:
        return model.model_validate(body)
    except PydanticValidationError as error:
        raise ValidationError(
            [{**e, "loc": ("body", "payload", *e["loc"])} for e in error.errors()]
        ) from None


XULETA_FIELDS = {
    "skill": "proficiencies.skills",
    "ability": "proficiencies.saves",
}


def xuleta_derived(body: XuletaRulesDerivedIn) -> dict:
    """``xuleta.derived.derive`` on a validated body, as ``XuletaRulesDerivedOut``."""
    try:
        result = xuleta_derive(
            body.abilities.model_dump(),
            body.level,
            skills=body.proficiencies.skills,
            saves=body.proficiencies.saves,
            exhaustion=body.exhaustion,
            conditions=body.conditions,
            speed_m=body.speed_m,
        )
    except XuletaError as error:
        raise ServiceError(
            error.message, field=XULETA_FIELDS.get(error.field, error.field)
        ) from None
    readings = {r.key: r for r in xuleta_readings()}
    used = [("speed", "speed_default")] if body.speed_m is None else []
    return {
        "ruleset": XULETA5E,
        "modifiers": result.modifiers,
        "proficiency_bonus": result.proficiency_bonus,
        "skills": result.skills,
        "saves": result.saves,
        "passive_perception": result.passive_perception,
        "speed": result.speed,
        "edges": result.edges,
        "save_edges": result.save_edges,
        "auto_fail": list(result.auto_fail),
        "attacked_edge": result.attacked_edge,
        "explanations": result.explanations,
        "reasons": {k: list(v) for k, v in result.reasons.items()},
        "readings": [
            {
                "value": value,
                "reading": key,
                "section": readings[key].section,
                "question": readings[key].question,
                "answer": readings[key].answer,
            }
            for value, key in used
        ],
    }


RULESET_DIFFERS = "O corpo diz ruleset «{body}» e a consulta ?ruleset={query}: mande um só."


@router.post(
    "/derived",
    response={200: DerivedRulesOut | XuletaRulesDerivedOut, **errors(400, 422, database=False)},
    summary="Derivados: GURPS (§2, §4.6–4.7) ou Xuleta (modificadores, competência, vantagens)",
)
def derived_stats(
    request,
    payload: Annotated[DerivedBody, Body()],
    ruleset: Annotated[RulesetKey, Query(None, description=RULESET_HELP)] = None,
):
    """GURPS's body (``DerivedIn``) or the Xuleta's (``XuletaRulesDerivedIn``, with
    ``"ruleset": "xuleta5e"``): the ruleset is the body's ``ruleset``, else ``?ruleset=``, else
    gurps3e; the two differing is refused (422, field ``ruleset``)."""
    said = payload.get("ruleset")
    if said is not None and ruleset is not None and said != ruleset:
        raise ServiceError(RULESET_DIFFERS.format(body=said, query=ruleset), field="ruleset")
    key = ruleset_named(str(said or ruleset or GURPS3E)).key
    if key == XULETA5E:
        return xuleta_derived(_validated(XuletaRulesDerivedIn, {**payload, "ruleset": XULETA5E}))
    _canon_engine(key, "sheets")
    body = {k: v for k, v in payload.items() if k != "ruleset"}
    return gurps_derived(_validated(DerivedIn, body))


def gurps_derived(payload: DerivedIn) -> dict:
    """GURPS's derived block (``gurps.derived.derive``) with the readings it rests on."""
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
