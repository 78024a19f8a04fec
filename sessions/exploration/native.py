"""The session procedure played natively: in a campaign whose ruleset speaks the procedure's
d20 terms (the Xuleta, ``ProcedurePart.native``), the tracker rolls the text's saves itself —
for each character, from his homologated sheet and his state — into the scene's chain, and
applies what follows, instead of asking the Mestre for a roll (issue 22, item 6).

- «teste de CON DC 12» (an interrupted rest, the dungeon's mishaps): a Constitution saving
  throw, d20 + ``check_data``'s ``saves["con"]``, the edge of the state's conditions and
  exhaustion (``xuleta.conditions.roll_edge``); a failure loses the rest's benefits.
- the forced march: the house setting ``forced_march`` (``rulesets.xuleta5e.house``) says whose
  text: the Xuleta's (default: a save per extra hour, DC 10 + the hour; each failure a level of
  exhaustion) or the procedure's Tabela B (one save a round; a failure owes 2 rounds of rest).
- a point of exhaustion: with the house setting ``exhaustion`` on the Xuleta's (default), a
  level written to the character's state (``sheets.ruleset_data.data_state_write``).
- the rest's benefits: the house setting ``rest``: the Xuleta's long rest (default,
  ``xuleta.rest.long_rest``) or the procedure's hit dice and 1 exhaustion.
- DESV (Tabela H 7: «DESV nas próximas duas rodadas»): disadvantage on the procedure's saves of
  those resting, for the two rounds after (kept in the journey's member, ``disadvantage_until``).

A character with no homologated sheet in the scene is asked as before (the Mestre rolls).
Each save is a ``Roll`` of kind ``save`` (details: ability, dc, edge, kept, bonus, reasons) and
an ``ExplorationTest`` already resolved by it in the same event.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.models import Campaign
from canon.services import house_decisions_in_order
from procedure import clock as procedure_clock
from procedure import exhaustion as procedure_exhaustion
from procedure import journey as procedure_journey
from procedure.rolling import signed
from rulesets.registry import ruleset_for
from rulesets.xuleta5e import house
from sessions.log import chain
from sessions.models import Exploration, Roll
from sheets.models import Character, SheetVersion
from sheets.ruleset_data import data_state, data_state_write
from xuleta import conditions as xuleta_conditions
from xuleta import rest as xuleta_rest
from xuleta import rolls as xuleta_rolls
from xuleta import travel as xuleta_travel
from xuleta.abilities import ABILITY_LABELS, CON, DEX
from xuleta.errors import XuletaError

SAVE_KIND = "save"  # the Roll's kind: a Xuleta saving throw
NO_SHEET = "{name}: sem ficha homologada na cena — o Mestre rola e dá o número da rolagem."


def is_native(campaign: Campaign) -> bool:
    """Whether the campaign's ruleset plays the procedure natively (``ProcedurePart.native``)."""
    part = ruleset_for(campaign.ruleset).procedure
    return bool(getattr(part, "native", False))


def house_answers(campaign: Campaign) -> dict[str, house.Answer]:
    """The house settings in force (``rulesets.xuleta5e.house.answers``), read fresh."""
    return house.answers(
        {"key": d.house_key, "decision": d.label} for d in house_decisions_in_order(campaign)
    )


def exhaustion_native(campaign: Campaign) -> bool:
    """Whether a point of the procedure's exhaustion is a Xuleta level written to the state
    (native, with the house setting ``exhaustion`` on the Xuleta's): then no consequence
    waits for the Mestre."""
    if not is_native(campaign):
        return False
    return house_answers(campaign)[house.EXHAUSTION].value == house.XULETA


@dataclass
class Sheet:
    """A character of the scene with his homologated sheet: ``numbers`` (``check_data``) and
    ``state`` (the state dict, kept current as the tracker writes it)."""

    character: Character
    version: SheetVersion
    state: dict

    @property
    def numbers(self) -> dict:
        sheets = ruleset_for(self.character.campaign.ruleset).part("sheets")
        return sheets.check_data(self.version.data, self.state)

    def write(self) -> None:
        data_state_write(character=self.character, data=self.state)
        self.state = data_state(self.character)


def sheet_of(exploration: Exploration, name: str, cache: dict | None = None) -> Sheet | None:
    """``name``'s homologated sheet and state, if he is in the scene with one (``cache``: the
    round's, name → Sheet or None)."""
    if cache is not None and name in cache:
        return cache[name]
    found = None
    character = exploration.scene.characters.filter(name=name).first()
    if character is not None:
        version = (
            SheetVersion.objects.filter(character=character, status=SheetVersion.Status.HOMOLOGATED)
            .order_by("-number")
            .first()
        )
        if version is not None:
            found = Sheet(character, version, data_state(character))
    if cache is not None:
        cache[name] = found
    return found


@dataclass(frozen=True)
class Save:
    """One save the tracker rolled: whether it ``passed``, the chain's ``roll`` (None when it
    failed without a roll) and the log's ``line``."""

    name: str
    ability: str
    dc: int
    passed: bool
    roll: Roll | None
    line: str


def roll_save(
    exploration: Exploration,
    user,
    source,
    sheet: Sheet,
    ability: str,
    dc: int,
    why: str,
    disadvantages: tuple[str, ...] = (),
) -> Save:
    """Roll ``sheet``'s saving throw of ``ability`` against ``dc`` into the scene's chain:
    d20 (two with an edge) + ``check_data``'s save bonus, equal or more passes (§4.3); the edge
    from the state's conditions and exhaustion and ``disadvantages`` (§4.4); a Força or
    Destresa save of a paralysed, petrified, stunned or unconscious character fails unrolled."""
    name = sheet.character.name
    state = sheet.state
    edge = xuleta_conditions.roll_edge(
        SAVE_KIND,
        ability=ability,
        conditions=state.get("conditions", []),
        exhaustion=state.get("exhaustion", 0),
        disadvantages=disadvantages,
    )
    label = ABILITY_LABELS[ability]
    if edge.auto_fail:
        line = f"{name}: salvação de {label} CD {dc} falha sem rolar ({'; '.join(edge.failures)})."
        return Save(name, ability, dc, False, None, line)
    bonus = int(sheet.numbers["saves"][ability])
    d20 = xuleta_rolls.d20(source, edge.edge)
    result = xuleta_rolls.resolve(SAVE_KIND, d20, bonus, dc)
    outcome = Roll.Outcome.SUCCESS if result.success else Roll.Outcome.FAILURE
    roll = chain.append_roll(
        campaign=exploration.scene.week.campaign,
        scene=exploration.scene,
        character=sheet.character,
        label=f"Salvació de {label} CD {dc}",
        kind=SAVE_KIND,
        base_level=bonus,
        effective_level=dc,
        dice=list(d20.faces),
        total=result.total,
        outcome=outcome.value,
        margin=result.total - dc,
        details={
            "ruleset": "xuleta5e",
            "roll": SAVE_KIND,
            "ability": ability,
            "dc": dc,
            "edge": edge.edge,
            "kept": d20.kept,
            "bonus": bonus,
            "reasons": list(edge.reasons),
            "asks": why,
        },
        rolled_by=user,
    )
    faces = "/".join(str(f) for f in d20.faces)
    shown = f"d20 {faces}" + (
        f" ({xuleta_rolls.EDGE_LABELS[edge.edge].lower()}: {d20.kept})"
        if len(d20.faces) > 1
        else ""
    )
    line = (
        f"{name}: salvação de {label} CD {dc} #{roll.sequence}: {shown} {signed(bonus)} = "
        f"{result.total} — {'passa' if result.success else 'falha'}."
    )
    return Save(name, ability, dc, result.success, roll, line)


def exhaust(
    exploration: Exploration, name: str, levels: int, why: str, cache: dict | None = None
) -> str:
    """``levels`` of exhaustion for ``name`` (§1.4: «puges un nivell (o els que digui)»),
    written to his state; the journey's count shows the same level. At 6, «Mort». Without a
    sheet the log says the Mestre notes it."""
    sheet = sheet_of(exploration, name, cache)
    if sheet is None:
        return f"{name}: {levels} nível(is) de esgotamento ({why}) — sem ficha na cena: o Mestre anota."
    before = int(sheet.state.get("exhaustion", 0))
    after = xuleta_conditions.exhaustion_after(before, levels)
    sheet.state["exhaustion"] = after
    if xuleta_conditions.dead_from_exhaustion(after):
        sheet.state["dead"] = True
    sheet.write()
    member = exploration.party.setdefault(name, procedure_exhaustion.fresh_member())
    member["exhaustion"] = after
    effect = xuleta_conditions.EXHAUSTION_LEVELS.get(after, "")
    return f"{name}: esgotamento {before} → {after} ({effect}) — {why}"


def disadvantages_of(exploration: Exploration, name: str) -> tuple[str, ...]:
    """The DESV the procedure gave ``name`` and that still holds (Tabela H 7)."""
    member = exploration.party.get(name) or {}
    until = member.get("disadvantage_until")
    if until is not None and exploration.travel_rounds < until:
        return (member.get("disadvantage_why") or "DESV do procedimento",)
    return ()


def give_disadvantage(exploration: Exploration, names, rounds: int, why: str) -> None:
    """DESV for ``rounds`` rounds of travel after this one (counted on ``travel_rounds``)."""
    for name in names:
        member = exploration.party.setdefault(name, procedure_exhaustion.fresh_member())
        member["disadvantage_until"] = exploration.travel_rounds + 1 + rounds
        member["disadvantage_why"] = why


# --- the forced march ---------------------------------------------------------------------------


def forced_march_xuleta(streak: int) -> tuple[tuple[int, int], ...]:
    """The Xuleta's saves of the ``streak``-th round of Avançar in a row (4 h each): one per
    hour past the day's 8 (reading ``forced_march_round_hours``): ``(extra hour, DC)``."""
    hours = procedure_clock.ROUND_HOURS
    return xuleta_travel.forced_march_dcs((streak - 1) * hours, streak * hours)


def clock_minutes(exploration: Exploration, travel_rounds: int = 0, hours_slept: int = 0) -> int:
    """The exploration's clock in minutes, plus what the action about to be written adds."""
    e = exploration
    played = e.turn - (1 if e.phase == Exploration.Phase.IN_TURN else 0)
    return procedure_clock.elapsed_minutes(
        max(0, played), e.travel_rounds + travel_rounds, e.hours_slept + hours_slept
    )


# --- the rest's benefits --------------------------------------------------------------------------


def rest_benefits(
    exploration: Exploration,
    source,
    name: str,
    *,
    fed: bool,
    ends_at: int,
    cache: dict | None = None,
) -> list[str]:
    """The rest's benefits for ``name``, by the house setting ``rest``: the Xuleta's long rest
    (§6.2; ``fed``: he ate and drank) or the procedure's hit dice (his level in hit dice, each +
    the CON modifier, at least 0) and 1 exhaustion. Without a sheet, the procedure's count."""
    sheet = sheet_of(exploration, name, cache)
    member = exploration.party.setdefault(name, procedure_exhaustion.fresh_member())
    if sheet is None:
        before, after = procedure_exhaustion.recover(member)
        return [f"{name}: sem ficha na cena — exaustão do rastreador {before} → {after}."]
    answers = house_answers(exploration.scene.week.campaign)
    numbers = sheet.numbers
    if answers[house.REST].value == house.XULETA:
        state = dict(sheet.state)
        state["ate_and_drank"] = bool(fed)
        try:
            after, done = xuleta_rest.long_rest(numbers, state, ends_at=ends_at)
        except XuletaError as refused:
            return [f"{name}: sem descanso longo — {refused.message}"]
        sheet.state = after
        sheet.write()
        if answers[house.EXHAUSTION].value == house.XULETA:
            member["exhaustion"] = after["exhaustion"]
        else:
            procedure_exhaustion.recover(member)
        return [f"{name}: descanso longo (§6.2) — " + " ".join(done.lines)]
    # the procedure's step 3 and 4
    state = dict(sheet.state)
    healed_total, faces = 0, []
    for _ in range(int(numbers["hit_dice"])):
        face = source.randint(1, int(numbers["hit_die"]))
        faces.append(face)
        healed_total += max(xuleta_rest.HIT_DIE_MINIMUM, face + int(numbers["modifiers"][CON]))
    healed = min(healed_total, int(state.get("hp_lost", 0)))
    state["hp_lost"] = int(state.get("hp_lost", 0)) - healed
    lines = [
        f"{name}: {len(faces)}d{numbers['hit_die']} ({', '.join(map(str, faces))}) + CON "
        f"{signed(int(numbers['modifiers'][CON]))} cada → recupera {healed} PC."
    ]
    if answers[house.EXHAUSTION].value == house.XULETA:
        before = int(state.get("exhaustion", 0))
        state["exhaustion"] = max(0, before - 1)
        member["exhaustion"] = state["exhaustion"]
        lines.append(f"{name}: esgotamento {before} → {state['exhaustion']}.")
    else:
        before, after = procedure_exhaustion.recover(member)
        lines.append(f"{name}: exaustão do rastreador {before} → {after}.")
    sheet.state = state
    sheet.write()
    return lines


ABILITIES = {"CON": CON, "DES": DEX}
FREE_ADVANCE_ROUNDS = procedure_journey.FREE_ADVANCE_ROUNDS
