"""The Xuleta's sheets part: the sheet's data (its INPUTS only, never a derived number) and the
character's state as JSON, each a pydantic model; what derives from them (``xuleta.sheet``),
the Árbitro's checks, the diff between versions (issue 22, item 1).

``SheetData`` is what a ``SheetVersion.data`` holds; ``StateData`` what
``CharacterState.data`` holds (every key with a default; fights and rests write it with
``sheets.ruleset_data.data_state_write``). Refusals are ``RulesetError`` (Portuguese, naming
the field — ``abilities.str``, ``attacks.0.damage_type`` — and the allowed values).
Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError

from rulesets.base import RulesetError, SheetCheck
from xuleta import conditions as conds
from xuleta import sheet as engine
from xuleta.abilities import (
    ABILITIES,
    ABILITY_LABELS,
    DIFFICULTY_CLASSES,
    SKILLS,
    ability_key,
    ability_modifier,
    skill_name,
)
from xuleta.damage_types import DAMAGE_TYPES, damage_type
from xuleta.errors import XuletaError
from xuleta.proficiency import SPELLCASTING_ABILITY, spellcasting_ability
from xuleta.readings import all_readings
from xuleta.rolls import CHECK, EDGE_LABELS, SAVE, success_chance
from xuleta.text import cite

BAD_SHEET = "Ficha inválida em «{field}»: {message}"
BAD_STATE = "Estado inválido em «{field}»: {message}"
NO_FATIGUE = (
    "A Xuleta não tem fadiga: o cansaço é o esgotamento (níveis de 0 a 6), que se muda no "
    "estado (exhaustion)."
)


def _xuleta(error: XuletaError) -> PydanticCustomError:
    return PydanticCustomError("xuleta", "{message}", {"message": error.message})


def _engine(check, *args):
    """Run an engine check inside a validator: its ``XuletaError`` becomes the field's error."""
    try:
        return check(*args)
    except XuletaError as error:
        raise _xuleta(error) from None


def _not_bool(value: Any) -> Any:
    """JSON's true/false are not numbers here (Python would take them as 1 and 0)."""
    if isinstance(value, bool):
        raise PydanticCustomError(
            "xuleta", "deve ser um número, não verdadeiro/falso; veio {value}.", {"value": value}
        )
    return value


def _no_nul(value: str) -> str:
    """A NUL character is no text (PostgreSQL's JSON refuses it: it would be a 500)."""
    if "\x00" in value:
        raise PydanticCustomError("xuleta", "caracteres nulos não são permitidos.")
    return value


Text = Annotated[str, AfterValidator(_no_nul)]

# A number of the sheet or the state: an int (or a float) but never a JSON true/false.
Int = Annotated[int, BeforeValidator(_not_bool)]
Float = Annotated[float, BeforeValidator(_not_bool)]

DamageType = Annotated[str, AfterValidator(lambda v: _engine(damage_type, v))]
DamageTypes = Annotated[list[DamageType], AfterValidator(lambda v: list(dict.fromkeys(v)))]


def _dice(text: str) -> str:
    found = engine.DAMAGE_DICE.match(text or "")
    if found is None:
        raise PydanticCustomError(
            "xuleta",
            "os daus de dany se escrevem NdM (1d8, 2d6) ou um número fixo (1); veio «{text}».",
            {"text": text},
        )
    if found[3] is not None:
        return str(int(found[3]))
    count, faces = int(found[1]), int(found[2])
    if count < 1 or faces < 2:
        raise PydanticCustomError(
            "xuleta", "pelo menos 1 dau de 2 cares ou més; veio «{text}».", {"text": text}
        )
    return f"{count}d{faces}"


def _slots(values: dict[str, int]) -> dict[str, int]:
    clean = {}
    for key, count in values.items():
        level = str(key).strip()
        if level not in engine.SPELL_LEVELS:
            raise PydanticCustomError(
                "xuleta",
                "os espais d'encanteri são dos níveis 1 a 9 («Els encanteris de nivell 1 a 9»); "
                "veio o nível «{key}».",
                {"key": key},
            )
        if count < 0:
            raise PydanticCustomError(
                "xuleta", "o número de espais não pode ser negativo; veio {n}.", {"n": count}
            )
        clean[level] = count
    return {k: clean[k] for k in engine.SPELL_LEVELS if k in clean}


SpellSlots = Annotated[dict[str, Int], AfterValidator(_slots)]
Names = list[Annotated[Text, Field(min_length=1, max_length=100)]]


class Abilities(BaseModel):
    """The six scores (1–30), by the API's keys."""

    model_config = ConfigDict(extra="forbid")

    str: Int
    dex: Int
    con: Int
    int: Int
    wis: Int
    cha: Int

    @field_validator(*ABILITIES)
    @classmethod
    def _score(cls, value: int, info: ValidationInfo) -> int:
        _engine(ability_modifier, value, info.field_name)
        return value


class Proficiencies(BaseModel):
    """The skills (the text's names, «Habilitats i la seva característica») and saves (ability
    keys) the character is proficient in."""

    model_config = ConfigDict(extra="forbid")

    skills: list[Annotated[str, AfterValidator(lambda v: _engine(skill_name, v))]] = Field(
        default_factory=list
    )
    saves: list[Annotated[str, AfterValidator(lambda v: _engine(ability_key, v))]] = Field(
        default_factory=list
    )

    @field_validator("skills", "saves")
    @classmethod
    def _once(cls, values: list[str]) -> list[str]:
        return list(dict.fromkeys(values))


class Attack(BaseModel):
    """A weapon (or an attack): its damage dice and type, its properties, its reach or range
    and whether the character is proficient with it («si ets competent amb l'arma»)."""

    model_config = ConfigDict(extra="forbid")

    name: Text = Field(min_length=1, max_length=100)
    damage: Annotated[str, AfterValidator(_dice)]
    damage_type: DamageType
    finesse: bool = False
    light: bool = False
    thrown: bool = False
    ranged: bool = False
    reach_m: Float = Field(default=engine.DEFAULT_REACH_M, ge=0, le=30)
    range_m: (
        tuple[Annotated[Float, Field(gt=0, le=2000)], Annotated[Float, Field(gt=0, le=2000)]] | None
    ) = None
    proficient: bool = True

    @field_validator("range_m")
    @classmethod
    def _range_order(cls, value: tuple[float, float] | None) -> tuple[float, float] | None:
        if value is not None and value[0] > value[1]:
            raise PydanticCustomError(
                "xuleta",
                "o alcance é [normal, longo], o normal até o longo; veio [{normal}, {long}].",
                {"normal": f"{value[0]:g}", "long": f"{value[1]:g}"},
            )
        return value


class Spellcasting(BaseModel):
    """The class that gives the spellcasting ability (one the text names), the spell slots
    per level 1–9 (the class's table is not in the text: inputs), cantrips and spells."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    casting_class: Text = Field(alias="class")
    slots: SpellSlots = Field(default_factory=dict)
    cantrips: Names = Field(default_factory=list)
    spells: Names = Field(default_factory=list)

    @field_validator("casting_class")
    @classmethod
    def _class(cls, value: str) -> str:
        _engine(spellcasting_ability, value)
        wanted = value.strip().casefold()
        return next(name for name in SPELLCASTING_ABILITY if name.casefold() == wanted)


class SheetData(BaseModel):
    """A Xuleta sheet's inputs. ``ac``, ``max_hp`` and ``hit_die`` are inputs: the text has no
    armour or class table (readings ``sheet_ac_input``, ``sheet_hp_hit_die_input``);
    ``speed_m`` «gairebé sempre 9 m»; ``darkvision_m`` 0 without (normally 18 m)."""

    model_config = ConfigDict(extra="forbid")

    name: Text = Field(min_length=1, max_length=200)
    level: Int = Field(ge=1, le=20)
    abilities: Abilities
    proficiencies: Proficiencies = Field(default_factory=Proficiencies)
    ac: Int = Field(ge=1, le=40)
    max_hp: Int = Field(ge=1, le=999)
    hit_die: Int
    speed_m: Float = Field(default=9.0, ge=0, le=60)
    darkvision_m: Float = Field(default=0.0, ge=0, le=300)
    attacks: list[Attack] = Field(default_factory=list, max_length=30)
    spellcasting: Spellcasting | None = None
    resistances: DamageTypes = Field(default_factory=list)
    vulnerabilities: DamageTypes = Field(default_factory=list)
    immunities: DamageTypes = Field(default_factory=list)
    notes: Text = Field(default="", max_length=4000)

    @field_validator("hit_die")
    @classmethod
    def _hit_die(cls, value: int) -> int:
        if value not in engine.HIT_DICE:
            raise PydanticCustomError(
                "xuleta",
                "o dau de cop é um de d6, d8, d10, d12 (6, 8, 10, 12); veio {value}.",
                {"value": value},
            )
        return value


class DeathSaves(BaseModel):
    model_config = ConfigDict(extra="forbid")

    successes: Int = Field(default=0, ge=0, le=3)
    failures: Int = Field(default=0, ge=0, le=3)


class StateData(BaseModel):
    """A Xuleta character's state (the issue's contract): PC lost and temporary, exhaustion
    0–6, conditions (keys, each once: «Si en tens dos d'iguals, compten com un de sol»;
    Esgotament named among them is dropped, its level being ``exhaustion``), hit dice and spell
    slots spent, death saves, stable, dead, the spell concentrated on ("" none), the end of the
    last long rest (the procedure clock's mark, "" none) and whether the character ate and
    drank (a long rest lowers exhaustion only then)."""

    model_config = ConfigDict(extra="forbid")

    # Counted from the sheet's max_hp before exhaustion: PC now = min(the maximum under
    # exhaustion, max_hp − hp_lost) (``xuleta.sheet.current_hp``).
    hp_lost: Int = Field(default=0, ge=0)
    temp_hp: Int = Field(default=0, ge=0)
    exhaustion: Int = Field(default=0, ge=0, le=conds.MAX_EXHAUSTION)
    conditions: list[str] = Field(default_factory=list)
    hit_dice_spent: Int = Field(default=0, ge=0)
    slots_spent: SpellSlots = Field(default_factory=dict)
    death_saves: DeathSaves = Field(default_factory=DeathSaves)
    stable: bool = False
    dead: bool = False
    concentration: Text = Field(default="", max_length=100)
    last_long_rest: Text = Field(default="", max_length=100)
    ate_and_drank: bool = False

    @field_validator("conditions")
    @classmethod
    def _conditions(cls, values: list[str]) -> list[str]:
        # Esgotament is one of the fifteen, but its level is ``exhaustion``: the list keeps the
        # others (a writer that names it loses nothing, its level is apart).
        keys = _engine(conds.condition_keys, values)
        return [key for key in conds.CONDITIONS if key in keys and key != conds.EXHAUSTION]


# --- errors in Portuguese -----------------------------------------------------------------------


def _field(loc: tuple) -> str:
    return ".".join(str(part) for part in loc if part != "casting_class") or "data"


def _allowed(model: type[BaseModel], loc: tuple) -> str:
    """The fields the model at ``loc`` takes (for an unknown key's error)."""
    current: Any = model
    for part in loc[:-1]:
        if isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(str(part))
            if info is None:
                return ""
            annotation = info.annotation
            args = getattr(annotation, "__args__", ())
            found = [
                a for a in (annotation, *args) if isinstance(a, type) and issubclass(a, BaseModel)
            ]
            current = found[0] if found else None
        else:
            continue
    if isinstance(current, type) and issubclass(current, BaseModel):
        return ", ".join(info.alias or name for name, info in current.model_fields.items())
    return ""


def portuguese(error: Mapping[str, Any], model: type[BaseModel]) -> str:
    """One pydantic error as a Portuguese sentence that names the allowed values."""
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "xuleta":
        return error["msg"]
    if kind == "missing":
        return "falta este campo."
    if kind == "extra_forbidden":
        known = _allowed(model, tuple(error["loc"]))
        return f"campo desconhecido; os da ficha aqui: {known}." if known else "campo desconhecido."
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "deve ser um número inteiro."
    if kind in ("float_type", "float_parsing"):
        return "deve ser um número (metros)."
    if kind in ("bool_type", "bool_parsing"):
        return "deve ser verdadeiro ou falso (true/false)."
    if kind in ("string_type",):
        return "deve ser um texto."
    if kind == "string_too_short":
        return "não pode ficar vazio."
    if kind == "string_too_long":
        return f"tem no máximo {ctx.get('max_length')} caracteres."
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        return _range(error["loc"], model, kind, ctx, error.get("input"))
    if kind in ("list_type", "tuple_type"):
        return "deve ser uma lista."
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "deve ser um objeto (chave: valor)."
    if kind == "too_long":
        return f"tem no máximo {ctx.get('max_length')} itens."
    if kind == "too_short":
        return f"precisa de pelo menos {ctx.get('min_length')} itens."
    return error["msg"]


def _range(loc, model, kind, ctx, error_input=None) -> str:
    bounds = {}
    current: Any = model
    for part in loc:
        if isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(str(part))
            if info is None:
                break
            for meta in info.metadata:
                for name in ("ge", "gt", "le", "lt"):
                    if getattr(meta, name, None) is not None:
                        bounds[name] = getattr(meta, name)
            args = getattr(info.annotation, "__args__", ())
            found = [
                a
                for a in (info.annotation, *args)
                if isinstance(a, type) and issubclass(a, BaseModel)
            ]
            current = found[0] if found else None
    low = bounds.get("ge", bounds.get("gt"))
    high = bounds.get("le", bounds.get("lt"))
    limit = next(iter(ctx.values()), "")
    came = f"; veio {error_input}" if error_input is not None else ""
    if low is not None and high is not None:
        if "gt" in bounds:
            return f"deve ser maior que {low:g} e no máximo {high:g}{came}."
        return f"vai de {low:g} a {high:g}{came}."
    if kind in ("greater_than_equal", "greater_than"):
        word = "pelo menos" if kind == "greater_than_equal" else "maior que"
        return f"deve ser {word} {limit}{came}."
    word = "no máximo" if kind == "less_than_equal" else "menor que"
    return f"deve ser {word} {limit}{came}."


def _refusal(error: ValidationError, model: type[BaseModel], template: str) -> RulesetError:
    first = error.errors()[0]
    field = _field(tuple(first["loc"]))
    return RulesetError(template.format(field=field, message=portuguese(first, model)), field)


def problems(data: Any, model: type[BaseModel] = None) -> list[tuple[str, str]]:
    """Every (field, Portuguese message) pydantic finds in ``data`` (not only the first)."""
    model = model or SheetData
    try:
        model.model_validate(data)
    except ValidationError as error:
        return [(_field(tuple(e["loc"])), portuguese(e, model)) for e in error.errors()]
    return []


# --- the part ---------------------------------------------------------------------------------


class XuletaSheets:
    """``SheetsPart`` for the Xuleta.

    ``validate(data)``: ``SheetData`` as plain JSON (``RulesetError`` naming the field);
    ``check_data(data, state)``: the contract's dict (``xuleta.sheet.check_data``);
    ``derive(data, state)``: every number with its formula and section
    (``xuleta.sheet.sheet_numbers(...).as_dict()``); ``audit(data)``: the Árbitro's checks
    (``xuleta.sheet.audit``); ``diff(before, after)``: one Portuguese line per change;
    ``state_change(sheet, state, hp, fatigue)``: the state after the Mestre's change of PC."""

    data_model = SheetData
    state_model = StateData

    def validate(self, data: Mapping[str, Any]) -> dict:
        try:
            return SheetData.model_validate(dict(data)).model_dump(mode="json", by_alias=True)
        except ValidationError as error:
            raise _refusal(error, SheetData, BAD_SHEET) from None

    def validate_state(self, state: Mapping[str, Any] | None) -> dict:
        """``state`` (None or {} for the defaults) validated by ``StateData``, plain JSON."""
        try:
            return StateData.model_validate(dict(state or {})).model_dump(mode="json")
        except ValidationError as error:
            raise _refusal(error, StateData, BAD_STATE) from None

    def check_data(self, data: Mapping[str, Any], state: Mapping[str, Any]) -> dict:
        return engine.check_data(self.validate(data), self.validate_state(state))

    def derive(self, data: Mapping[str, Any], state: Mapping[str, Any]) -> dict:
        return engine.sheet_numbers(self.validate(data), self.validate_state(state)).as_dict()

    def audit(self, data: Mapping[str, Any]) -> list[SheetCheck]:
        found = problems(data)
        if found:
            return [SheetCheck(message, field) for field, message in found]
        clean = SheetData.model_validate(dict(data)).model_dump(mode="json", by_alias=True)
        return [SheetCheck(message, field) for field, message in engine.audit(clean)]

    def diff(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
        return engine.diff(before or {}, after or {})

    @property
    def choices(self) -> dict[str, Any]:
        """The closed sets a draft form offers: ``abilities`` and ``damage_types`` as (key,
        label), ``skills`` (the text's names, with their ability's label), ``classes`` (the
        text's spellcasting classes), ``hit_dice`` and ``spell_levels``."""
        return {
            "abilities": list(ABILITY_LABELS.items()),
            "skills": [(name, ABILITY_LABELS[a]) for name, a in SKILLS.items()],
            "damage_types": list(DAMAGE_TYPES.items()),
            "classes": list(SPELLCASTING_ABILITY),
            "hit_dice": list(engine.HIT_DICE),
            "spell_levels": list(engine.SPELL_LEVELS),
        }

    def reading(self, key: str):
        """The stated reading ``key`` (``xuleta.readings``: section, question, answer)."""
        return {r.key: r for r in all_readings()}[key]

    def changes(
        self, before: Mapping[str, Any] | None, after: Mapping[str, Any]
    ) -> list[tuple[str, str, str, str]]:
        """``(group, what, before, after)`` per changed line (``xuleta.sheet.changes``)."""
        return engine.changes(before or {}, after or {})

    def dcs(self, dc: str | None = None) -> tuple[int, ...]:
        """The DCs the page's chances are against (``page_dcs``)."""
        return page_dcs(dc)

    def page(
        self, data: Mapping[str, Any], state: Mapping[str, Any], dc: str | None = None
    ) -> dict:
        """What the sheet page draws (``page_rows``) with the chances against the usual DCs
        and the reader's ``dc`` (``page_dcs``: ``RulesetError`` field ``cd`` for a bad one)."""
        return page_rows(data, state, page_dcs(dc))

    def state_change(
        self, sheet: Mapping[str, Any] | None, state: Mapping[str, Any], hp: int, fatigue: int
    ) -> dict:
        """The state after ``hp`` (signed PC: negative lost) outside a fight, as a full
        ``StateData`` dict. Damage spends the temporary PC first («Un matalàs de PC que es gasta
        abans que els de veritat») and what passes the current PC is lost («El dany que sobra
        es perd: estàs a 0, no en negatiu»); healing never past the maximum («Mai no passes del
        teu màxim»: more is not refused, it is not had) and wakes one at 0 PC («qualsevol
        curació et torna la consciència», resetting the death saves and the stable mark); the
        dead are not healed («Qui ha mort no es pot curar»). ``hp_lost`` counts from the
        sheet's ``max_hp`` (``xuleta.sheet.current_hp``). ``fatigue`` must be 0: the Xuleta has exhaustion instead
        (``RulesetError`` field ``fatigue``)."""
        if fatigue:
            raise RulesetError(NO_FATIGUE, "fatigue")
        new = self.validate_state(state)
        if new["dead"] and hp > 0:
            raise RulesetError(
                "Qui ha mort no es pot curar: cal màgia que el torni a la vida.", "hp"
            )
        if sheet is None:  # no sheet, no maximum: the PC lost only
            new["hp_lost"] = max(0, new["hp_lost"] - hp)
            return self.validate_state(new)
        if hp < 0:
            new = _damaged(new, -hp, sheet["max_hp"])
        elif hp > 0:
            new = _healed(new, hp, sheet["max_hp"])
        return self.validate_state(new)


def _damaged(state: dict, damage: int, base: int) -> dict:
    """``state`` after ``damage`` PC outside a fight (not a critical), ``base`` the sheet's
    maximum: the temporary PC first, then the PC down to 0 — «Quedes inconscient» at 0, «Mort
    instantània» when what is left over is the maximum or more; at 0 PC already, «Si et fan
    mal a 0 PC, sumes un fracàs» (3: dead) and «Si et tornen a fer mal, deixes d'estar
    estable»."""
    absorbed = min(state["temp_hp"], damage)
    state["temp_hp"] -= absorbed
    damage -= absorbed
    if not damage:
        return state
    top = conds.max_hp(base, state["exhaustion"])
    now = engine.current_hp(base, state["hp_lost"], state["exhaustion"])
    if now == 0:
        saves = dict(state["death_saves"])
        saves["failures"] = min(3, saves["failures"] + 1)
        state["death_saves"] = saves
        state["stable"] = False
        state["dead"] = state["dead"] or saves["failures"] >= 3
        return state
    left = max(0, now - damage)
    state["hp_lost"] = base - left
    if left == 0:
        state["conditions"] = [*state["conditions"], conds.UNCONSCIOUS]
        state["dead"] = damage - now >= top
    return state


def _healed(state: dict, healing: int, base: int) -> dict:
    """``state`` after ``healing`` PC: «Mai no passes del teu màxim» (the maximum under
    exhaustion); at 0 PC «qualsevol curació et torna la consciència» and «Si et curen o
    t'estabilitzen, el comptador torna a zero»."""
    now = engine.current_hp(base, state["hp_lost"], state["exhaustion"])
    top = conds.max_hp(base, state["exhaustion"])
    state["hp_lost"] = base - min(top, now + healing)
    if now == 0:
        state["death_saves"] = {"successes": 0, "failures": 0}
        state["stable"] = False
        state["conditions"] = [c for c in state["conditions"] if c != conds.UNCONSCIOUS]
    return state


SHEETS = XuletaSheets()


# --- the sheet page's rows (numbers with their exact chances) ------------------------------------

DEFAULT_DCS: tuple[int, ...] = (10, 15, 20)
BAD_DC = "A CD vai de 1 a 40; veio «{value}»."


def percent_text(chance: Fraction) -> str:
    """An exact chance as the page shows it: «55 %», «79,75 %» (d20 odds have at most two
    decimals: their denominators are 20 and 400)."""
    value = chance * 100
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") + " %"


def _chances(kind: str, bonus: int, edge: str, auto_fail: bool, dcs) -> list[dict]:
    rows = []
    for dc in dcs:
        chance = Fraction(0) if auto_fail else success_chance(bonus, dc, edge, kind)
        rows.append(
            {
                "dc": dc,
                "exact": f"{chance.numerator}/{chance.denominator}",
                "percent": percent_text(chance),
            }
        )
    return rows


def page_rows(data: Mapping[str, Any], state: Mapping[str, Any], dcs=DEFAULT_DCS) -> dict:
    """What the sheet page draws of a valid sheet and its state: ``numbers`` (every number with
    its formula and section, ``xuleta.sheet.sheet_numbers``), ``checks``, ``saves`` and
    ``skills`` (each row: ``label``, ``bonus``, ``formula``, ``section``, the ``edge`` and its
    label, ``auto_fail``, and ``chances`` — per DC in ``dcs``, the exact fraction and the %:
    ``xuleta.rolls.success_chance`` under the state's edge), ``attacks``, ``spellcasting``,
    ``conditions`` (each with its text's lines), ``exhaustion`` (its level and the effects in
    force), ``readings`` (the stated readings the numbers rest on) and ``usual_dcs`` (the
    text's «CD habituals»)."""
    clean = SHEETS.validate(data)
    st = SHEETS.validate_state(state)
    found = engine.sheet_numbers(clean, st)
    numbers = found.numbers
    check_edge = found.edges["check"]

    def row(key: str, label: str, kind: str, edge: str, auto_fail: bool, sub: str = "") -> dict:
        number = numbers[key]
        return {
            "key": key,
            "label": label,
            "sub": sub,
            "bonus": number.value,
            "formula": number.formula,
            "section": number.section,
            "edge": edge,
            "edge_label": EDGE_LABELS[edge],
            "auto_fail": auto_fail,
            "chances": _chances(kind, number.value, edge, auto_fail, dcs),
        }

    checks = [
        {
            **row(f"checks.{a}", ABILITY_LABELS[a], CHECK, check_edge, False),
            "ability": a,
            "score": clean["abilities"][a],
            "modifier": numbers[f"modifiers.{a}"].as_dict(),
        }
        for a in ABILITIES
    ]
    saves = [
        row(
            f"saves.{a}",
            ABILITY_LABELS[a],
            SAVE,
            found.save_edges[a],
            a in found.auto_fail,
            "competent" if a in clean["proficiencies"]["saves"] else "",
        )
        for a in ABILITIES
    ]
    skills = [
        row(
            f"skills.{s}",
            s,
            CHECK,
            check_edge,
            False,
            ABILITY_LABELS[ability]
            + (" · competent" if s in clean["proficiencies"]["skills"] else ""),
        )
        for s, ability in SKILLS.items()
    ]
    attacks = [
        {
            **a,
            "damage_type_label": DAMAGE_TYPES[a["damage_type"]],
            "ability_label": ABILITY_LABELS[a["ability"]],
            "edge": found.edges["attack"],
            "edge_label": EDGE_LABELS[found.edges["attack"]],
        }
        for a in found.attacks
    ]
    casting = engine.spellcasting_numbers(clean["abilities"], clean["level"], clean["spellcasting"])
    marks = set(found.conditions)
    conditions = [
        {
            "key": c.key,
            "label": c.label,
            "summary": c.summary,
            "effects": c.effects,
            "section": cite(c.label),
            "implied": c.key not in st["conditions"],
        }
        for c in conds.CONDITIONS.values()
        if c.key in marks
    ]
    readings = {r.key: r for r in all_readings()}
    return {
        "data": clean,
        "state": st,
        "numbers": {k: n.as_dict() for k, n in numbers.items()},
        "checks": checks,
        "saves": saves,
        "skills": skills,
        "attacks": attacks,
        "spellcasting": None
        if casting is None
        else {
            **casting,
            "ability_label": ABILITY_LABELS[casting["ability"]],
            "save_dc": casting["save_dc"].as_dict(),
            "attack_bonus": casting["attack_bonus"].as_dict(),
            "slots_left": {lvl: numbers[f"slots.{lvl}"].as_dict() for lvl in casting["slots"]},
        },
        "conditions": conditions,
        "exhaustion": {
            "level": st["exhaustion"],
            "effects": found.exhaustion_effects,
            "section": cite("Nivells d'esgotament"),
        },
        "reasons": {k: list(v) for k, v in found.reasons.items()},
        "attacked_edge_label": EDGE_LABELS[found.attacked_edge],
        "readings": [readings[k] for k in found.readings if k in readings],
        "dcs": list(dcs),
        "usual_dcs": [{"label": label, "dc": dc} for label, dc in DIFFICULTY_CLASSES],
        "damage_sets": [
            (label, [DAMAGE_TYPES[k] for k in clean[key]])
            for key, label in (
                ("resistances", "Resistència"),
                ("vulnerabilities", "Vulnerabilitat"),
                ("immunities", "Immunitat"),
            )
            if clean[key]
        ],
    }


def page_dcs(value: str | None) -> tuple[int, ...]:
    """The DCs the page's chances are against: the usual three, plus the one the reader asks
    (``?cd=``, 1–40); ``RulesetError`` (field ``cd``) for another value."""
    if value in (None, ""):
        return DEFAULT_DCS
    try:
        dc = int(value)
    except (TypeError, ValueError):
        raise RulesetError(BAD_DC.format(value=value), "cd") from None
    if not 1 <= dc <= 40:
        raise RulesetError(BAD_DC.format(value=value), "cd")
    return tuple(sorted({*DEFAULT_DCS, dc}))
