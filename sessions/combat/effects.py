"""The rolls after an attack's own steps, and what the §4.8 tables leave on the combatants: the
parry extras (§4.7), the Will −3 of a concentrating defender (§4.3), the weapon that falls, the
critical miss and the critical hit's effects.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from gurps import checks, damage, defence, injury, tables
from gurps import combat as engine
from gurps.attributes import will as will_of
from gurps.errors import OutsideCanon
from gurps.rolling import Modifier
from sessions.combat.messages import ARM_STRAINED, OFF_BALANCE_NOTHING
from sessions.combat.numbers import combatant_numbers
from sessions.combat.rolls import (
    RecordingSource,
    append_combat_roll,
    log_success,
    roll_details,
    roll_label,
)
from sessions.combat.state import make_unready, mark_weapon, usable_weapons
from sessions.combat.weapons import CombatWeapon
from sessions.models import Combatant, Roll


class ExtraRolls:
    """The rolls after the attack's own steps (§4.7's parry extras, §4.3's Will −3, §4.8's
    draw of the weapon that falls), each a Roll under the attack's event, and their lines."""

    def __init__(self, combat, user, code, source: RecordingSource, lines: list[str]) -> None:
        self.combat, self.user, self.code = combat, user, code
        self.source, self.lines = source, lines
        self.logged: list[int] = []

    def success(self, who, result, *, label, rule, kind="attribute", modifiers=()):
        self.logged.extend(result.dice)
        log_success(
            self.combat,
            self.user,
            self.code,
            who,
            result,
            label=label,
            rule=rule,
            step=engine.StepNumber.CONSEQUENCES,
            kind=kind,
            modifiers=modifiers,
        )
        self.lines.append(
            f"{label}: 3d6 = {'+'.join(map(str, result.dice))} = {result.total} contra "
            f"{result.effective_level} — {checks.OUTCOME_NAMES[result.outcome]}."
        )

    def die(self, who, faces, total, *, kind, title, text, rule, row="", expression=""):
        self.logged.extend(faces)
        details = roll_details(
            self.combat,
            self.code,
            int(engine.StepNumber.CONSEQUENCES),
            text=text,
            notes=[],
            rule=rule,
            title=title,
            faces=[list(faces)],
            row=row,
        )
        if expression:
            details["expression"] = expression
        append_combat_roll(
            self.combat,
            self.user,
            character=who.character,
            label=roll_label(who, title),
            fields={"kind": kind, "dice": list(faces), "total": total},
            details=details,
        )
        self.lines.append(text)

    def check(self) -> None:
        if self.logged != self.source.values:
            raise RuntimeError("A die was drawn that no roll of the log shows; nothing is saved.")


def critical_miss_effects(extra: ExtraRolls, a: Combatant, index: int, miss) -> None:
    """What the Tabela de Erros Críticos leaves on the attacker (§4.8)."""
    effect = tables.MissEffect(miss.effect)
    name = a.weapon_lines()[index].name
    say = extra.lines.append
    if effect is tables.MissEffect.WEAPON_BREAKS:
        mark_weapon(a, "broken", index)
        say(f"{name} quebrada: não ataca nem apara com ela pelo resto do combate (§4.8).")
    elif effect in (tables.MissEffect.DROPS_WEAPON, tables.MissEffect.WEAPON_FLIES):
        mark_weapon(a, "dropped", index)
        if index not in a.unready:
            make_unready(a, index)
        say(f"{name} no chão: um turno em Preparar para apanhá-la (§4.8).")
        if effect is tables.MissEffect.WEAPON_FLIES:
            say(
                "A arma voa 1D metros, 50% para a frente, 50% para trás; quem estiver onde ela "
                "cai testa DX ou sofre metade do dano da arma — com o Mestre, que sabe quem "
                "está lá (§4.8, 14)."
            )
    elif effect is tables.MissEffect.WEAPON_TURNS:
        make_unready(a, index, tables.WEAPON_TURNS_EXTRA_READY_TURNS)
        turns = a.ready_turns[str(index)]
        say(f"{name} gira na mão: {turns} turno(s) de Preparar para usá-la de novo (§4.8).")
    elif effect is tables.MissEffect.LOSES_BALANCE:
        a.off_balance = True
        say(OFF_BALANCE_NOTHING.format(name=a.name))
    elif effect is tables.MissEffect.SHOULDER_STRAINED:
        mark_weapon(a, "strained", index)
        say(ARM_STRAINED.format(weapon=name))
    elif effect is tables.MissEffect.FALLS:
        a.posture, a.knocked_down = Combatant.Posture.LYING, True
        say(f"{a.name} cai: deitado (§4.8, 16).")
    else:  # hits yourself, whole or half; the unarmed 1D−3 on the hand or foot
        say(
            "O motor não rola este dano: o Mestre rola e aplica os PV com um «Ajuste do "
            f"Mestre», citando esta linha. Tabela: {miss.text}"
        )


def critical_hit_effects(extra: ExtraRolls, d: Combatant, table) -> None:
    """What the critical hit tables leave on the defender besides the damage (§4.8)."""
    effect = table.effect
    if effect in (tables.HeadEffect.BLINDED_BOTH_EYES, tables.HeadEffect.BLINDED_ONE_EYE):
        both = effect == tables.HeadEffect.BLINDED_BOTH_EYES
        penalty = tables.BLINDED_DX_PENALTY[effect]
        d.dx_penalty = min(d.dx_penalty, penalty)
        d.blind = "both_eyes" if both or d.blind == "both_eyes" else "one_eye"
        where = "dos dois olhos" if both else "de um olho"
        extra.lines.append(
            f"{d.name} cego {where}: luta a DX {penalty} pelo resto da batalha (§4.8)."
        )
    elif effect == tables.HeadEffect.UNBALANCED:
        d.unbalanced = True
        extra.lines.append(
            f"{d.name} desequilibrado: no próximo turno defende-se normalmente e não faz mais "
            "nada (§4.8, cabeça 8)."
        )


def drop_a_weapon(extra: ExtraRolls, d: Combatant) -> None:
    """ "A arma do oponente cai" / "deixa cair a arma (com duas, sorteia-se qual)" (§4.8)."""
    lines = d.weapon_lines()
    in_hand = _in_hand(d)
    try:
        drawn = engine.draw_dropped_weapon(extra.source, len(in_hand))
    except OutsideCanon as error:
        extra.lines.append(f"Pendência: {error.message}")
        return
    if drawn.index is None:
        extra.lines.append(f"{d.name} não tem arma na mão para deixar cair.")
        return
    index = in_hand[drawn.index]
    name = lines[index].name
    if drawn.die is not None:
        names = ", ".join(lines[i].name for i in in_hand)
        extra.die(
            d,
            (drawn.die,),
            drawn.die,
            kind=Roll.Kind.TABLE.value,
            title="Qual arma cai (§4.8)",
            text=f"Com {len(in_hand)} armas na mão ({names}), sorteia-se qual: 1d = "
            f"{drawn.die} → {name}.",
            rule="4.8",
            row=str(drawn.die),
        )
    mark_weapon(d, "dropped", index)
    if index not in d.unready:
        make_unready(d, index)
    extra.lines.append(f"{name} de {d.name} cai: um turno em Preparar para apanhá-la (§4.8).")


def concentration_check(extra: ExtraRolls, d: Combatant, level: int) -> None:
    """Concentrar: defending asks Will −3 not to lose the concentration (§4.3, §7.1)."""
    will = will_of(d.iq, d.strong_will, d.weak_will)
    if level <= checks.NO_ROLL_AT_OR_BELOW:
        d.concentration_lost = True
        extra.lines.append(
            f"Vontade −3 de {d.name}: {level} — não se rola com 3 ou menos (§1.1); conta como "
            "falho: perde a concentração (§4.3)."
        )
        return
    result = checks.roll_success(extra.source, level, checks.RollKind.ATTRIBUTE)
    extra.success(
        d,
        result,
        label="Vontade −3 para manter a concentração",
        rule="4.3",
        modifiers=(Modifier(engine.CONCENTRATION_WILL_MODIFIER, "Concentrar (§4.3)"),),
    )
    if not result.outcome.is_success:
        d.concentration_lost = True
        extra.lines.append(f"{d.name} perde a concentração (§4.3, §7.1; Vontade {will}).")
    else:
        extra.lines.append(f"{d.name} mantém a concentração (§4.3).")


def _in_hand(d: Combatant) -> list[int]:
    """One line per weapon in hand and ready (a weapon with two lines is one weapon)."""
    lines, seen, found = d.weapon_lines(), set(), []
    for i in usable_weapons(d):
        if not lines[i].unarmed and lines[i].weapon not in seen:
            seen.add(lines[i].weapon)
            found.append(i)
    return found


def parry_extras(
    extra: ExtraRolls, a: Combatant, weapon: CombatWeapon, d: Combatant, index: int
) -> None:
    """After a successful parry (§4.7): the parrying weapon may break against one 3× or more
    heavier; parrying a bare-handed blow with a weapon may injure the attacker."""
    mine = d.weapon_lines()[index]
    if weapon.unarmed:
        if not mine.unarmed:
            _unarmed_parry_injury(extra, a, d, mine)
        return
    incoming, own = weapon.weight_kg, mine.weight_kg
    if incoming is None or own is None or Decimal(own) == 0:
        return
    chance = defence.parry_break_chance(Fraction(Decimal(incoming)), Fraction(Decimal(own)))
    if not chance:
        return
    broke = defence.roll_parry_break(extra.source, chance)
    sixths = chance * 6
    extra.die(
        d,
        (broke.die,),
        broke.die,
        kind=Roll.Kind.TABLE.value,
        title=f"Quebra de {mine.name} ao aparar (§4.7)",
        text=f"{weapon.name} ({incoming} kg) pesa 3 vezes ou mais que {mine.name} "
        f"({own} kg): chance {chance.numerator}/{chance.denominator} — 1d = {broke.die} "
        f"(quebra com {sixths} ou menos): " + ("quebrou." if broke.breaks else "aguentou."),
        rule="4.7",
        row=f"1–{sixths}",
    )
    if broke.breaks:
        mark_weapon(d, "broken", index)
        extra.lines.append(f"{mine.name} de {d.name} quebrou: não apara nem ataca mais (§4.7).")


def _unarmed_parry_injury(extra: ExtraRolls, a: Combatant, d: Combatant, mine) -> None:
    """Parrying a bare hand with a weapon may hurt the attacker: roll against the weapon's
    NH; passing, normal damage (§4.7, p. 99)."""
    level = mine.skill + d.dx_penalty
    if level <= checks.NO_ROLL_AT_OR_BELOW:
        extra.lines.append(
            f"Aparar golpe de mão limpa: NH {level} — não se rola com 3 ou menos (§1.1)."
        )
        return
    injury_roll = defence.roll_unarmed_parry_injury(extra.source, level)
    extra.success(
        d,
        injury_roll.roll,
        label=f"{mine.name} contra a mão limpa de {a.name} (§4.7)",
        rule="4.7",
        kind="skill",
    )
    if not injury_roll.injures:
        extra.lines.append(f"{a.name} não se fere na arma de {d.name} (§4.7).")
        return
    read = mine.read(d.st)  # OutsideCanon before any die would have refused the attack
    faces, rolled = read.expression.roll(extra.source)
    dr = combatant_numbers(a, terrain=extra.combat.terrain).damage_resistance
    hurt = damage.wound(rolled, dr, read.damage_type.value, ht=a.ht, thrust=read.attack == "thrust")
    extra.die(
        d,
        faces,
        rolled,
        kind=Roll.Kind.DAMAGE.value,
        title=f"Dano de {mine.name} em {a.name} (§4.7)",
        text=f"Dano normal de {mine.name} ({read.expression.display}) em {a.name}: "
        f"{'+'.join(map(str, faces)) or '0'} → {rolled}; RD {dr}: passam "
        f"{hurt.penetrating}; ×{float(hurt.multiplier):g}: {a.name} perde {hurt.hp_lost} PV.",
        rule="4.7",
        expression=str(read.expression),
    )
    if hurt.hp_lost:
        a.hp_lost += hurt.hp_lost
        key = str(extra.combat.round)
        a.wounds = {**a.wounds, key: int(a.wounds.get(key, 0)) + hurt.hp_lost}
        shock = injury.shock_penalty(hurt.hp_lost)
        if shock:
            a.shock += shock
            a.shock_pending = True
        extra.lines.append(
            "O cânone não diz onde esse dano cai: contado no tronco, com a RD do "
            "combatente; o resto da linha 10 (§4.10) fica com o Mestre."
        )
