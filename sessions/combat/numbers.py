"""What a combatant has now — Basic Speed, Move, Dodge, each parry, Block, PD, DR — asked of
``gurps.derived.derive``, the function the sheet page and the sheets API ask (docs/DESIGN.md,
invariant 12 (The state is live)). Nothing here computes a rule: it gathers the inputs.

A character's inputs are its sheet's (``sheets.computed.sheet_view``: the homologated version,
what it carries now, its state, which the fight keeps live); a creature's or an NPC's without a
sheet are the bestiary's numbers the Mestre entered (``gurps.derived.Given``). The fight adds
only what is its own: lost balance (§4.8) and the terrain's cost to Move (§5d).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gurps import combat as engine
from gurps import defence, derived, fatigue
from gurps.errors import OutsideCanon
from sessions.combat.weapons import CombatWeapon, weapons_of
from sessions.models import Combatant
from sheets.computed import SheetView, sheet_view


@dataclass(frozen=True)
class CombatantNumbers:
    """A combatant's numbers now: ``derived`` is the engine's block (levels; Basic Speed
    exact); ``move`` is Move in the fight's terrain (§5d); ``parries`` each weapon's Aparar by
    weapon (its lines share it); ``terrain_note`` what the canon leaves open there."""

    derived: derived.Derived
    move: int
    parries: dict[str, int]
    terrain_note: str = ""

    @property
    def dodge(self) -> int:
        return self.derived.dodge

    @property
    def block(self) -> int | None:
        return self.derived.block

    @property
    def passive_defense(self) -> int:
        return self.derived.passive_defense

    @property
    def damage_resistance(self) -> int:
        return self.derived.damage_resistance

    @property
    def hp(self) -> int:
        return self.derived.hp

    @property
    def hp_now(self) -> int:
        return self.derived.hp_remaining

    @property
    def encumbrance_level(self) -> int:
        """Carga 0–4 for the fatigue of a fight (§6.1); above 10 × ST counts as Muito Pesada
        (``gurps.fatigue.fight_encumbrance_level``)."""
        return fatigue.fight_encumbrance_level(self.derived.encumbrance.level)

    def parry_of(self, line: CombatWeapon) -> int | None:
        return self.parries.get(line.weapon)


def _parrying(weapons: list[CombatWeapon]) -> list[derived.Weapon]:
    """One engine weapon per weapon that parries (lines of one weapon parry as one)."""
    seen, found = set(), []
    for line in weapons:
        if line.parries and line.weapon not in seen:
            seen.add(line.weapon)
            found.append(
                derived.Weapon(
                    name=line.weapon,
                    skill=line.skill,
                    parry=line.parry_kind or "normal",
                    given_parry=line.given_parry,
                )
            )
    return found


def _character_inputs(c: Combatant, view: SheetView) -> dict:
    """The sheet's inputs, with the weapons as the fight holds them (their lines grouped)."""
    inputs = dict(view.derive_inputs)
    inputs["weapons"] = _parrying(weapons_of(c.weapons))
    return inputs


def _creature_inputs(c: Combatant) -> dict:
    return {
        "st": c.st,
        "dx": c.dx,
        "iq": c.iq,
        "ht": c.ht,
        "hp_lost": c.hp - c.hp_now,
        "fatigue_lost": c.fatigue_before,
        "stunned": c.stunned,
        "armour_pd": c.passive_defense or 0,
        "armour_dr": c.damage_resistance or 0,
        "weapons": _parrying(weapons_of(c.weapons)),
        "given": derived.Given(hp=c.hp, move=c.move, dodge=c.dodge, block=c.block),
    }


def combatant_numbers(
    c: Combatant, *, terrain: Sequence[str] = (), view: SheetView | None = None
) -> CombatantNumbers:
    """``c``'s numbers now (see the module). ``view`` is the character's sheet view when the
    caller has it (``sheet_views``); read here otherwise."""
    if c.character_id is not None:
        view = view or sheet_view(c.character)
        inputs = _character_inputs(c, view)
    else:
        inputs = _creature_inputs(c)
    found = derived.derive(**inputs, off_balance=c.off_balance)
    move, note = found.move, ""
    if terrain:
        try:
            move = engine.terrain_effects(found.move, terrain).move
        except OutsideCanon as error:
            note = error.message
    parries = {p.name: p.value for p in found.parries}
    return CombatantNumbers(found, move, parries, note)


def sheet_views(combatants: Iterable[Combatant]) -> dict[int, SheetView]:
    """The sheet view of each character in the fight, by character id (read once)."""
    views = {}
    for c in combatants:
        if c.character_id is not None and c.character_id not in views:
            view = sheet_view(c.character)
            if view is not None:
                views[c.character_id] = view
    return views


def round_defences(c: Combatant) -> defence.RoundDefences:
    """The active defences ``c`` has used this round against what its maneuver and weapons
    allow (§4.7, §4.3, §4.14): two parries need two weapons — lines of one weapon are one."""
    parrying = {
        line.weapon
        for i, line in enumerate(weapons_of(c.weapons))
        if line.parries and i not in c.broken and i not in c.strained
    }
    allowance = defence.defence_allowance(
        all_out_defense=c.maneuver == engine.Maneuver.ALL_OUT_DEFENSE,
        fencer=c.fencer,
        two_weapons=len(parrying) >= 2 and not c.fencer_with_dagger,
        fencer_with_dagger=c.fencer and c.fencer_with_dagger,
    )
    return defence.RoundDefences(
        allowance,
        dodges=c.dodges_used,
        blocks=c.blocks_used,
        parries=c.parries_used,
        dagger_parries=c.dagger_parries_used,
        retreated=c.retreated,
    )
