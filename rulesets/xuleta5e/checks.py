"""The Xuleta's checks part (``rulesets.base.ChecksPart``, issue 22 item 2): a check, a save or
an attack in the scene's log, d20 + the sheet's bonus against a DC or an AC (Xuleta §4 «Proves
i tirades»), under the edge the character's state gives (``xuleta.conditions.roll_edge``: its
conditions and exhaustion, each reason said) and the one the Mestre says; contests (the higher
total wins, a tie leaves things as they were). Pure Python: the engine ``xuleta`` does the rules.

A request names (``rulesets.base.CheckRequest``): ``kind`` one of ``check``, ``save``,
``attack`` (default ``check``); a check's ``skill`` (the text's name) or ``attribute`` (an
ability key or label; with a skill, the DM's other ability, «El DM pot canviar la
característica si té sentit»); a save's ``attribute``; an attack's name (``skill``, one of the
sheet's ``attacks``); ``dc`` (the DC, or the AC for an attack) and ``edge`` (the Mestre's
advantage or disadvantage: cover, help, a ranged attack with an enemy within 1,5 m …).

The level of a ``LevelResult`` is the d20's bonus; its ``record`` keeps the bonus's source, the
edge and its reasons, the DC and whether the roll fails without a die («Falles sense tirar»).
A ``CheckResult``'s ``target`` is the DC, ``total`` the kept die plus the bonus and modifiers,
``margin`` the total minus the DC (None when it failed without a roll).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, Literal

from dice import RandomSource
from rulesets.base import CheckRequest, CheckResult, LevelChoice, LevelResult, TableResult
from xuleta import environment, rolls
from xuleta.abilities import ABILITY_LABELS, SKILLS, ability_key, skill_name
from xuleta.conditions import BLINDED, roll_edge
from xuleta.errors import XuletaError

KINDS = {
    rolls.CHECK: "Teste de característica (prova)",
    rolls.SAVE: "Salvação",
    rolls.ATTACK: "Ataque",
}
OUTCOMES = {
    "critical_success": "Acerto crítico (20 natural)",
    "success": "Sucesso",
    "failure": "Falha",
    "critical_failure": "Erro (1 natural)",
}
SHEET, GIVEN = "sheet", "given"
SOURCE_WORDS = {SHEET: "ficha", GIVEN: "dito pelo Mestre"}
# The DC the roll forms show a chance against where none is said: «Normal 15» (§4.10).
SHOWN_DC = 15
MESTRE_EDGE = {
    rolls.ADVANTAGE: "o Mestre: avantatge",
    rolls.DISADVANTAGE: "o Mestre: desavantatge",
}

UNKNOWN_ATTACK = "{name} não tem o ataque «{attack}» na ficha. Os da ficha: {known}."
NO_ATTACKS = "{name} não tem ataques na ficha homologada."
DEAD_ROLLS_NOTHING = (
    "{name} está morto (estado dead): «Qui ha mort no es pot curar» — não faz ataque, teste nem "
    "salvação."
)
UNCONSCIOUS_SAVES_ONLY = (
    "{name} está inconsciente (a 0 PC ou Inconscient): «Estàs incapacitat i no et pots moure "
    "ni parlar» — não ataca nem faz testes; só salvações (roll: save; as de Força e Destresa "
    "falham sem rolar)."
)
SAVE_NEEDS_ABILITY = "Uma salvação diz a característica (attribute): {known}."
NO_TABLES = "A Xuleta não tem tabelas de rolagem."
DC_RANGE = "A CD (dc) vai de −30 a 60; veio {dc}."


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _able(sheet: Mapping[str, Any], state: Mapping[str, Any], kind: str, who: str) -> None:
    """Refuse what a dead character or an unconscious one cannot roll: the dead nothing; at 0
    PC or Inconscient only saves («Falles sense tirar les salvacions de Força i Destresa»: the
    others it makes). ``XuletaError`` naming ``character``."""
    if state.get("dead"):
        raise XuletaError(DEAD_ROLLS_NOTHING.format(name=who or "A personagem"), "character")
    max_hp = int(sheet.get("max_hp") or 0)
    at_zero = max_hp > 0 and int(state.get("hp_lost") or 0) >= max_hp
    unconscious = at_zero or "unconscious" in (state.get("conditions") or ())
    if unconscious and kind != rolls.SAVE:
        raise XuletaError(UNCONSCIOUS_SAVES_ONLY.format(name=who or "A personagem"), "character")


def _kind(request: CheckRequest, default: str = rolls.CHECK) -> str:
    return rolls.roll_kind(request.kind or default or rolls.CHECK)


def _edge(request: CheckRequest) -> str:
    return rolls.edge_key(getattr(request, "edge", "") or rolls.NONE)


def _dc(request: CheckRequest) -> int | None:
    dc = getattr(request, "dc", None)
    if dc is not None and not -30 <= dc <= 60:
        raise XuletaError(DC_RANGE.format(dc=dc), "dc")
    return dc


PERCEPTION = "Percepció"
LIGHT_SOURCES = {"mestre": "dita pelo Mestre", "scene": "da cena (escuridão total)"}
DIM_PERCEPTION = "Llum tènue: desavantatge en Percepció amb la vista"
DARK_BLIND = "Foscor: a efectes pràctics estàs encegat"


def _light(request: CheckRequest, kind: str, skill: str, darkvision_m) -> dict | None:
    """What the light does to a check (§8.6 «Llum», §8.7 «Visió a les fosques»), as the
    request's ``light`` (the Mestre's: the check depends on sight) or, for a Percepció check
    only, the scene's: ``{"light", "seen", "source", "line", "sight"}`` with ``sight`` the
    effect (``dim``: disadvantage on Percepció; ``blind``: «A efectes pràctics estàs encegat»,
    the check failing without a die by Encegat's line); None when no light applies (another
    kind of roll, or the scene's light on a check that is not Percepció)."""
    said = getattr(request, "light", "") or ""
    scene = getattr(request, "scene_light", "") or ""
    if kind != rolls.CHECK or not (said or (scene and skill == PERCEPTION)):
        return None
    light = environment.light_key(said or scene)
    seen = environment.sight(light, int(darkvision_m or 0))
    effect = ""
    if seen.blinded:
        effect = "blind"
    elif seen.perception_disadvantage and skill == PERCEPTION:
        effect = "dim"
    return {
        "light": light,
        "seen": seen.seen,
        "source": "mestre" if said else "scene",
        "line": seen.line,
        "sight": effect,
    }


def _edge_reading(
    kind: str, ability: str, state: Mapping[str, Any], asked: str, light: dict | None = None
):
    """The roll's edge under the state's conditions and exhaustion, the Mestre's ``asked``
    edge and the ``light`` (``_light``): each a source, they never stack and cancel (§4.4)."""
    conditions = list(state.get("conditions", ()))
    senses: tuple[str, ...] = ()
    disadvantages = [MESTRE_EDGE[asked]] if asked == rolls.DISADVANTAGE else []
    if light and light["sight"] == "dim":
        disadvantages.append(DIM_PERCEPTION)
    if light and light["sight"] == "blind":
        conditions.append(BLINDED)
        senses = ("sight",)
    reading = roll_edge(
        kind,
        ability=ability,
        conditions=conditions,
        exhaustion=int(state.get("exhaustion", 0) or 0),
        senses=senses,
        advantages=[MESTRE_EDGE[asked]] if asked == rolls.ADVANTAGE else [],
        disadvantages=disadvantages,
    )
    if light and light["sight"] == "blind":
        reading = replace(
            reading,
            failures=(DARK_BLIND, *reading.failures),
            reasons=(DARK_BLIND, *reading.reasons),
        )
    return reading


def _text(name: str, bonus: int, source: str, reading, dc: int | None) -> str:
    text = f"{name} {_signed(bonus)} ({SOURCE_WORDS[source]})"
    if dc is not None:
        text += f" contra {dc}"
    if reading.auto_fail:
        return f"{text}; falha sem rolar: {'; '.join(reading.failures)}"
    if reading.edge != rolls.NONE:
        text += f"; {rolls.EDGE_LABELS[reading.edge].lower()}"
    elif reading.advantages and reading.disadvantages:
        text += "; avantatge i desavantatge s'anul·len"
    if reading.advantages or reading.disadvantages:
        text += f" ({'; '.join((*reading.advantages, *reading.disadvantages))})"
    return text


def _level(
    name: str,
    bonus: int,
    kind: str,
    source: str,
    reading,
    dc: int | None,
    asked_edge: str,
    light: dict | None = None,
    **named: str,
) -> LevelResult:
    return LevelResult(
        name=name,
        level=bonus,
        kind=kind,
        text=_text(name, bonus, source, reading, dc),
        record={
            "source": source,
            "text": _text(name, bonus, source, reading, dc),
            "bonus": bonus,
            "dc": dc,
            "edge": reading.edge,
            "asked_edge": asked_edge,
            "auto_fail": reading.auto_fail,
            "reasons": list(reading.reasons),
            **({"light": light} if light else {}),
            **{key: value for key, value in named.items() if value},
        },
    )


class XuletaChecks:
    """``ChecksPart`` of the Xuleta."""

    kinds = KINDS
    outcomes = OUTCOMES
    tables: Mapping[str, str] = {}
    contest_kinds = (rolls.CHECK,)
    # The scene's roll needs a DC (or an AC) and takes an edge (``sessions.log.services``).
    needs_dc = True
    # The closed sets a roll request takes, for the API's enums (the engine's, in its order).
    abilities: tuple[str, ...] = tuple(ABILITY_LABELS)
    edges: tuple[str, ...] = rolls.EDGES
    roll_kinds: tuple[str, ...] = rolls.ROLL_KINDS
    lights: tuple[str, ...] = tuple(environment.LIGHT_LEVELS)

    def uses_sheet(self, request: CheckRequest) -> bool:
        """Every check, save and attack of a character with a sheet reads it."""
        return True

    def sheet_level(
        self, sheet: Mapping[str, Any], request: CheckRequest, catalogue: Callable[[], Any]
    ) -> LevelResult | None:
        """The bonus ``sheet`` (``check_data``'s dict) gives the request, under its state's
        conditions and exhaustion; None when the request names nothing of the sheet. Raises
        ``XuletaError`` naming the field (``skill``, ``attribute``, ``roll``, ``edge``, ``dc``)."""
        kind = _kind(request)
        asked_edge = _edge(request)
        dc = _dc(request)
        state = sheet.get("state") or {}
        who = sheet.get("name", "")
        _able(sheet, state, kind, who)
        if kind == rolls.ATTACK:
            if not request.skill:
                return None
            attacks = sheet.get("attacks") or []
            wanted = " ".join(request.skill.split()).casefold()
            found = next((a for a in attacks if a["name"].casefold() == wanted), None)
            if found is None:
                known = ", ".join(a["name"] for a in attacks)
                message = (
                    UNKNOWN_ATTACK.format(name=who, attack=request.skill, known=known)
                    if attacks
                    else NO_ATTACKS.format(name=who)
                )
                raise XuletaError(message, "skill")
            reading = _edge_reading(kind, found.get("ability", ""), state, asked_edge)
            return _level(
                found["name"], found["bonus"], kind, SHEET, reading, dc, asked_edge,
                attack=found["name"], ability=found.get("ability", ""),
            )  # fmt: skip
        if kind == rolls.SAVE:
            if not request.attribute:
                known = ", ".join(f"{k} ({v})" for k, v in ABILITY_LABELS.items())
                raise XuletaError(SAVE_NEEDS_ABILITY.format(known=known), "attribute")
            ability = _ability(request.attribute)
            reading = _edge_reading(kind, ability, state, asked_edge)
            name = f"Salvació de {ABILITY_LABELS[ability]}"
            bonus = sheet["saves"][ability]
            return _level(name, bonus, kind, SHEET, reading, dc, asked_edge, ability=ability)
        if request.skill:
            skill = _skill(request.skill)
            ability = _ability(request.attribute) if request.attribute else SKILLS[skill]
            # The skill's proficiency, carried to the DM's other ability if he names one.
            proficiency = sheet["skills"][skill] - sheet["modifiers"][SKILLS[skill]]
            bonus = sheet["modifiers"][ability] + proficiency
            name = skill if ability == SKILLS[skill] else f"{skill} ({ABILITY_LABELS[ability]})"
            light = _light(request, kind, skill, sheet.get("darkvision_m"))
            reading = _edge_reading(kind, ability, state, asked_edge, light)
            return _level(
                name, bonus, kind, SHEET, reading, dc, asked_edge, light,
                skill=skill, ability=ability,
            )  # fmt: skip
        if request.attribute:
            ability = _ability(request.attribute)
            light = _light(request, kind, "", sheet.get("darkvision_m"))
            reading = _edge_reading(kind, ability, state, asked_edge, light)
            bonus = sheet["checks"][ability]
            name = ABILITY_LABELS[ability]
            return _level(name, bonus, kind, SHEET, reading, dc, asked_edge, light, ability=ability)
        return None

    def given_level(self, request: CheckRequest, default_kind: str = "") -> LevelResult | None:
        """The Mestre's bonus (``base_level``) for a creature or NPC without a sheet, under the
        Mestre's edge only (its conditions are his to say)."""
        if request.base_level is None:
            return None
        kind = _kind(request, default_kind)
        asked_edge = _edge(request)
        dc = _dc(request)
        ability = _ability(request.attribute) if request.attribute else ""
        skill = _skill(request.skill) if request.skill and kind != rolls.ATTACK else ""
        name = (
            request.skill
            if kind == rolls.ATTACK and request.skill
            else skill or ABILITY_LABELS.get(ability, "") or request.label or KINDS[kind]
        )
        reading = _edge_reading(kind, ability, {}, asked_edge)
        return _level(
            name, request.base_level, kind, GIVEN, reading, dc, asked_edge,
            skill=skill, ability=ability,
        )  # fmt: skip

    def ensure_rollable(self, level: LevelResult, modifiers: Sequence[int]) -> None:
        """A d20 is always rolled (a failure without a roll is the roll's own outcome)."""

    def roll(
        self, source: RandomSource, level: LevelResult, modifiers: Sequence[int]
    ) -> CheckResult:
        """d20 (two under an edge) + the bonus + ``modifiers`` against the record's DC: equal or
        more passes; on an attack a natural 20 always hits (a critical) and a natural 1 always
        misses (§4.5). A roll that fails without a die («Falles sense tirar») rolls none.
        Without a DC (a contest's side) the total is all there is."""
        record = level.record
        kind = level.kind
        bonus = level.level + sum(modifiers)
        dc = record.get("dc")
        if record.get("auto_fail"):
            return CheckResult(
                dice=(),
                total=0,
                target=dc if dc is not None else 0,
                margin=None,
                outcome="failure",
                outcome_label=OUTCOMES["failure"],
                success=False,
                text=f"{level.text}.",
            )
        die = rolls.d20(source, record.get("edge", rolls.NONE))
        if dc is None:
            total = die.kept + bonus
            return CheckResult(
                die.faces, total, 0, 0, "", "", False, f"d20 {die.kept} {_signed(bonus)} = {total}"
            )
        result = rolls.resolve(kind, die, bonus, dc)
        if result.critical:
            outcome = "critical_success"
        elif result.fumble:
            outcome = "critical_failure"
        else:
            outcome = "success" if result.success else "failure"
        kept = f"d20 {die.kept}" + (f" de {die.faces}" if len(die.faces) > 1 else "")
        return CheckResult(
            dice=die.faces,
            total=result.total,
            target=dc,
            margin=result.total - dc,
            outcome=outcome,
            outcome_label=OUTCOMES[outcome],
            success=result.success,
            text=f"{kept} {_signed(bonus)} = {result.total} contra {dc}: {OUTCOMES[outcome]}",
        )

    def contest(self, a: CheckResult, b: CheckResult) -> Literal["a", "b"] | None:
        """«guanya el resultat més alt. Si empaten, tot continua com estava.» (§4.6); a side
        that failed without a roll loses to one that rolled."""
        if not a.dice and b.dice:
            return "b"
        if not b.dice and a.dice:
            return "a"
        return rolls.contest(a.total, b.total)

    def group_succeeds(self, successes: int, members: int) -> bool:
        """A group check («Proves de grup»): «tira cadascú i, si almenys la meitat ho
        aconsegueix, ho aconsegueix el grup». Only a ruleset with group checks has this."""
        return rolls.group_succeeds(successes, members)

    def odds(self, level: int) -> Fraction:
        """The exact chance of d20 + ``level`` against DC 15 («Normal», §4.10): what a roll
        form shows where no DC is said yet."""
        return rolls.success_chance(level, SHOWN_DC)

    def percent(self, level: int) -> int:
        return int(self.odds(level) * 100)

    def choices(self, sheet: Mapping[str, Any]) -> list[LevelChoice]:
        """The six abilities' checks, the eighteen skills and the six saves of ``sheet``."""
        found = []
        for ability in ABILITY_LABELS:
            level = self.sheet_level(sheet, CheckRequest(attribute=ability), lambda: None)
            found.append(LevelChoice("", ability, level, self.percent(level.level)))
        for skill in SKILLS:
            level = self.sheet_level(sheet, CheckRequest(skill=skill), lambda: None)
            found.append(LevelChoice(skill, "", level, self.percent(level.level)))
        for ability in ABILITY_LABELS:
            request = CheckRequest(kind=rolls.SAVE, attribute=ability)
            level = self.sheet_level(sheet, request, lambda: None)
            found.append(LevelChoice("", ability, level, self.percent(level.level)))
        return found

    def roll_table(self, key: str, source: RandomSource, options: Mapping[str, Any]) -> TableResult:
        raise XuletaError(NO_TABLES, "table")


def _ability(text: str) -> str:
    try:
        return ability_key(text)
    except XuletaError as error:
        raise XuletaError(error.message, "attribute") from None


def _skill(text: str) -> str:
    return skill_name(text)


CHECKS = XuletaChecks()
