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
from procedure.rolling import signed
from rulesets.registry import rule_errors, ruleset_for
from sessions.log import chain
from sessions.models import Exploration, Roll
from sheets.models import Character, SheetVersion
from sheets.ruleset_data import data_state, data_state_write

# The house settings' questions and answers (``rulesets.xuleta5e.house``), as the procedure
# part publishes them: the tracker names them, the part decides.
FORCED_MARCH, EXHAUSTION, REST = "forced_march", "exhaustion", "rest"
XULETA, PROCEDURE = "xuleta", "procedure"
CON, DEX = "con", "dex"

SAVE_KIND = "save"  # the Roll's kind: a Xuleta saving throw
NO_SHEET = "{name}: sem ficha homologada na cena — o Mestre rola e dá o número da rolagem."


def part(campaign: Campaign):
    """The campaign's procedure part (None when its ruleset has none)."""
    return ruleset_for(campaign.ruleset).procedure


def is_native(campaign: Campaign) -> bool:
    """Whether the campaign's ruleset plays the procedure natively (``ProcedurePart.native``)."""
    return bool(getattr(part(campaign), "native", False))


def house_answers(campaign: Campaign) -> dict:
    """The house settings in force (the part's ``house_answers``), read fresh: question →
    answer (``.value``: XULETA or PROCEDURE; ``.text``: the log's line)."""
    return part(campaign).house_answers(
        {"key": d.house_key, "decision": d.label} for d in house_decisions_in_order(campaign)
    )


def exhaustion_native(campaign: Campaign) -> bool:
    """Whether a point of the procedure's exhaustion is a Xuleta level written to the state
    (native, with the house setting ``exhaustion`` on the Xuleta's): then no consequence
    waits for the Mestre."""
    if not is_native(campaign):
        return False
    return house_answers(campaign)[EXHAUSTION].value == XULETA


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
    """``name``'s homologated sheet and its state as stored now, if he is in the scene with one
    (``cache``: the round's, name → Sheet or None; a cached sheet's state is read again)."""
    if cache is not None and name in cache:
        found = cache[name]
        if found is not None:
            # The state as stored now, never the round's copy (a fight may have written it).
            found.state = data_state(found.character)
        return found
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
    rules = part(exploration.scene.week.campaign)
    label = rules.ability_labels[ability]
    made = rules.saving_throw(source, sheet.numbers, sheet.state, ability, dc, disadvantages)
    if made["auto_fail"]:
        line = (
            f"{name}: salvação de {label} CD {dc} falha sem rolar ({'; '.join(made['failures'])})."
        )
        return Save(name, ability, dc, False, None, line)
    outcome = Roll.Outcome.SUCCESS if made["success"] else Roll.Outcome.FAILURE
    roll = chain.append_roll(
        campaign=exploration.scene.week.campaign,
        scene=exploration.scene,
        character=sheet.character,
        label=f"Salvació de {label} CD {dc}",
        kind=SAVE_KIND,
        base_level=made["bonus"],
        effective_level=dc,
        dice=made["faces"],
        total=made["total"],
        outcome=outcome.value,
        margin=made["total"] - dc,
        details={
            "ruleset": exploration.scene.week.campaign.ruleset,
            "roll": SAVE_KIND,
            "ability": ability,
            "dc": dc,
            "edge": made["edge"],
            "kept": made["kept"],
            "bonus": made["bonus"],
            "reasons": made["reasons"],
            "asks": why,
        },
        rolled_by=user,
    )
    shown = _d20_shown(made)
    line = (
        f"{name}: salvação de {label} CD {dc} #{roll.sequence}: {shown} {signed(made['bonus'])} "
        f"= {made['total']} — {'passa' if made['success'] else 'falha'}."
    )
    return Save(name, ability, dc, made["success"], roll, line)


def _d20_shown(made: dict) -> str:
    """The log's dice of a rolled save or check: «d20 14», or «d20 3/14 (avantatge: 14)»."""
    faces = "/".join(str(f) for f in made["faces"])
    if len(made["faces"]) > 1:
        return f"d20 {faces} ({made['edge_label'].lower()}: {made['kept']})"
    return f"d20 {faces}"


@dataclass(frozen=True)
class Check:
    """An ability check the tracker rolled (no DC): its ``total``, the chain's ``roll``, the
    log's ``line``."""

    total: int
    roll: Roll
    line: str


def roll_check(
    exploration: Exploration, user, source, sheet: Sheet, ability: str, modifier: int, why: str
) -> Check:
    """Roll ``sheet``'s ``ability`` check + ``modifier`` into the scene's chain (kind
    ``check``; the part's ``ability_check``)."""
    name = sheet.character.name
    rules = part(exploration.scene.week.campaign)
    label = rules.ability_labels[ability]
    made = rules.ability_check(source, sheet.numbers, sheet.state, ability, modifier)
    roll = chain.append_roll(
        campaign=exploration.scene.week.campaign,
        scene=exploration.scene,
        character=sheet.character,
        label=f"Prova de {label} {signed(modifier)}",
        kind="check",
        base_level=made["bonus"],
        dice=made["faces"],
        total=made["total"],
        details={
            "ruleset": exploration.scene.week.campaign.ruleset,
            "roll": "check",
            "ability": ability,
            "modifier": modifier,
            "edge": made["edge"],
            "kept": made["kept"],
            "bonus": made["bonus"],
            "reasons": made["reasons"],
            "asks": why,
        },
        rolled_by=user,
    )
    shown = _d20_shown(made)
    line = (
        f"{name}: prova de {label} #{roll.sequence}: {shown} {signed(made['bonus'])} = "
        f"{made['total']}."
    )
    return Check(made["total"], roll, line)


def exhaust(
    exploration: Exploration, name: str, levels: int, why: str, cache: dict | None = None
) -> str:
    """``levels`` of exhaustion for ``name`` (§1.4: «puges un nivell (o els que digui)»),
    written to his state; the journey's count shows the same level. At 6, «Mort». Without a
    sheet the log says the Mestre notes it."""
    sheet = sheet_of(exploration, name, cache)
    if sheet is None:
        member = exploration.party.setdefault(name, procedure_exhaustion.fresh_member())
        for _ in range(levels):
            procedure_exhaustion.gain(member)
        return f"{name}: {levels} nível(is) de esgotamento ({why}) — sem ficha na cena: o Mestre anota."
    rules = part(exploration.scene.week.campaign)
    before = int(sheet.state.get("exhaustion", 0))
    after, dead = rules.exhaustion_after(before, levels)
    sheet.state["exhaustion"] = after
    if dead:
        sheet.state["dead"] = True
    sheet.write()
    member = exploration.party.setdefault(name, procedure_exhaustion.fresh_member())
    member["exhaustion"] = after
    effect = rules.exhaustion_levels.get(after, "")
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


def forced_march_xuleta(campaign: Campaign, streak: int) -> tuple[tuple[int, int], ...]:
    """The Xuleta's saves of the ``streak``-th round of Avançar in a row (4 h each): one per
    hour past the day's 8 (reading ``forced_march_round_hours``): ``(extra hour, DC)``."""
    hours = procedure_clock.ROUND_HOURS
    return part(campaign).forced_march_dcs((streak - 1) * hours, streak * hours)


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
    campaign = exploration.scene.week.campaign
    rules = part(campaign)
    answers = house_answers(campaign)
    numbers = sheet.numbers
    if answers[REST].value == XULETA:
        state = dict(sheet.state)
        state["ate_and_drank"] = bool(fed)
        try:
            after, done = rules.long_rest(numbers, state, ends_at=ends_at)
        except rule_errors() as refused:
            return [f"{name}: sem descanso longo — {refused.message}"]
        sheet.state = after
        sheet.write()
        if answers[EXHAUSTION].value == XULETA:
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
        healed_total += rules.hit_die_total(face, int(numbers["modifiers"][CON]))
    healed = min(healed_total, int(state.get("hp_lost", 0)))
    state["hp_lost"] = int(state.get("hp_lost", 0)) - healed
    lines = [
        f"{name}: {len(faces)}d{numbers['hit_die']} ({', '.join(map(str, faces))}) + CON "
        f"{signed(int(numbers['modifiers'][CON]))} cada → recupera {healed} PC."
    ]
    if answers[EXHAUSTION].value == XULETA:
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
