"""The Xuleta's combat part: a fight played whole over plain JSON (as the sistema001's), each
step a call of the engine (``xuleta``). Pure Python: no Django.

The site (``sessions.native_combat``) keeps the fight and hands it here as a ``state`` dict:

- ``round`` (1, 2 …; 0 before the first), ``turn`` (the 1-based index in ``order``; 0 none);
- ``fighters``: key → ``{"name", "numbers" (numbers.XuletaNumbers as JSON), "pv", "out"}``
  (``pv``: PC now);
- ``order``: highest initiative first, ``{"fighter", "initiative", "faces", "modifier",
  "group", "tiebreak", "from_round"}``;
- ``xuleta``: key → the fight's state of each combatant: ``temp_hp``, ``conditions`` (each
  ``{"key", "source", "ends_round"}``), ``exhaustion``, ``death_saves`` (``successes``,
  ``failures``), ``stable``, ``dead``, ``concentration`` (the spell, ``""`` none),
  ``reaction`` (still to use this round), ``dodging``, ``hidden``, ``surprised``,
  ``turns_taken``, ``distracted_by`` (Ajudar: the helper whose ally's next attack has
  advantage), ``grappled_by``, ``readied`` (Preparar's text);
- ``readings``: the keys of the readings used so far.

Every call returns ``Played(state, steps, text)``; every die is a step's ``roll`` (kind, label,
dice in the order rolled, total), so that each is a ``Roll`` in the chain. A refusal is
``XuletaError`` naming the field (``actions.0.target`` …). The text's sections are cited by
``xuleta.text`` numbers: §2 El teu torn, §3 Accions en combat, §5 Dany i curació, §7.4.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from dice.rolling import RandomSource
from rulesets.base import Played, Step
from rulesets.vocabulary import ClosedSet, Term, closed_set
from rulesets.xuleta5e import numbers as xnumbers
from xuleta import actions as xactions
from xuleta import attacks as xattacks
from xuleta import concentration as xconcentration
from xuleta import damage as xdamage
from xuleta import dying as xdying
from xuleta import initiative as xinitiative
from xuleta.abilities import ABILITY_LABELS, CON, DEX, SKILLS, STR
from xuleta.conditions import (
    CONDITIONS,
    EXHAUSTION,
    PRONE,
    UNCONSCIOUS,
    exhaustion_after,
    implied,
    incapacitated,
    max_hp,
    resists_all_damage,
    roll_edge,
    speed,
)
from xuleta.damage_types import DAMAGE_TYPES
from xuleta.errors import XuletaError
from xuleta.readings import all_readings
from xuleta.rolls import CHECK, EDGE_LABELS, SAVE, d20, resolve

NOT_STARTED = "O combate ainda não começou."
NOT_ITS_TURN = "Não é o turno de {name}: é o de {current}."
UNKNOWN_FIGHTER = "Combatente desconhecido."
TARGET_NEEDED = "Diga o alvo (target)."
SELF_TARGET = "Um combatente não ataca a si mesmo."
DEAD_TARGET = "{name} está morto."
UNKNOWN_ACTION = "Ação desconhecida «{kind}»: use uma de {known}."
UNKNOWN_CONDITION = "Estado desconhecido «{key}»: use um de {known}."
CONDITION_NOT_ON = "{name} não está {label}."
NO_ATTACKS_LEFT = (
    "Sem ataques restantes: a ação Atacar dá {count} (attacks_per_action). Agafar e Empènyer "
    "«substitueixen un d'aquests atacs»."
)
SPELL_NEEDS = "Llançar un encanteri: diga o efeito — attack (ataque de magia), save (salvação) ou damage/heal."
NO_SPELL_DC = "{name} não tem CD de magia (spell_save_dc): dê-a (dc) ou nos números."
NO_SPELL_ATTACK = "{name} não tem bônus de ataque de magia (spell_attack_bonus)."
GRAPPLE_SIZE = "Alvo grande demais: «Com a molt, una mida més gran que tu.»"
NOT_GRAPPLED = "{name} não está Agafat."
CHARMED_TARGET = "Encantat: «No pots atacar qui t'ha encantat» ({name})."
NOT_AT_ZERO = "{name} não está a 0 PC."
TWO_WEAPONS = "Combat amb dues armes: {why}; e só depois de atacar com a ação Atacar neste turno."

# The kinds of roll a fight writes (``Roll.kind``), in the text's words for the log.
ROLL_KINDS: Mapping[str, str] = MappingProxyType(
    {
        "initiative": "Iniciativa",
        "attack": "Tirada d'atac",
        "damage": "Tirada de dany",
        "save": "Tirada de salvació",
        "check": "Prova de característica",
        "death_save": "Salvació contra la mort",
        "hit_die": "Dau de cop",
    }
)
RESIST_WITH = MappingProxyType({"athletics": "Atletisme", "acrobatics": "Acrobàcies"})
SIDE_LABELS = MappingProxyType(
    {"jogadores": "Jogadores", "inimigos": "Inimigos", "aliados": "Aliados", "neutros": "Neutros"}
)


@dataclass
class _Fight:
    state: dict
    steps: list[Step] = field(default_factory=list)

    def row(self, key: str) -> dict:
        found = self.state["fighters"].get(key)
        if found is None:
            raise XuletaError(UNKNOWN_FIGHTER, "fighter")
        return found

    def name(self, key: str) -> str:
        return self.row(key)["name"]

    def numbers(self, key: str) -> dict:
        return self.row(key)["numbers"]

    def x(self, key: str) -> dict:
        return self.state["xuleta"][key]

    def conditions(self, key: str) -> list[str]:
        return [c["key"] for c in self.x(key)["conditions"]]

    def has(self, key: str, condition: str) -> bool:
        return condition in implied(self.conditions(key))

    def line(self, text: str) -> None:
        self.steps.append(Step(text))

    def rolled(self, text, who, kind, label, dice, total, **details) -> None:
        self.steps.append(
            Step(
                text,
                who,
                {"kind": kind, "label": label, "dice": list(dice), "total": total,
                 "details": details},
            )
        )  # fmt: skip

    def used(self, *keys: str) -> None:
        found = self.state.setdefault("readings", [])
        for key in keys:
            if key not in found:
                found.append(key)

    def current(self) -> dict:
        turn = self.state.get("turn", 0)
        if not turn:
            raise XuletaError(NOT_STARTED, "combatant")
        return self.state["order"][turn - 1]

    def played(self, text: str) -> Played:
        return Played(self.state, tuple(self.steps), text)


def _fresh_x(numbers: Mapping[str, Any]) -> dict:
    saves = numbers.get("death_saves") or {}
    return {
        "temp_hp": numbers.get("temp_hp", 0),
        "conditions": [{"key": c, "source": "", "ends_round": None} for c in numbers["conditions"]],
        "exhaustion": numbers.get("exhaustion", 0),
        "death_saves": {
            "successes": saves.get("successes", 0),
            "failures": saves.get("failures", 0),
        },
        "stable": numbers.get("stable", False),
        "dead": numbers.get("dead", False),
        "concentration": numbers.get("concentration", ""),
        "slots_spent": dict(numbers.get("slots_spent") or {}),
        "reaction": not numbers.get("surprised", False),
        "dodging": False,
        "hidden": False,
        "surprised": numbers.get("surprised", False),
        "turns_taken": 0,
        "distracted_by": "",
        "grappled_by": "",
        "readied": "",
    }


def _start(state: Mapping[str, Any]) -> _Fight:
    fresh = copy.deepcopy(dict(state))
    fresh.setdefault("order", [])
    fresh.setdefault("readings", [])
    xs = fresh.setdefault("xuleta", {})
    for key, row in fresh["fighters"].items():
        if key not in xs:
            xs[key] = _fresh_x(row["numbers"])
    return _Fight(fresh)


# --- hit points ---------------------------------------------------------------------------------


def _max_hp(fight: _Fight, key: str) -> int:
    return max_hp(fight.numbers(key)["max_hp"], fight.x(key)["exhaustion"])


def _add_condition(fight: _Fight, key: str, condition: str, source: str = "", rounds=None):
    held = fight.x(key)["conditions"]
    ends = fight.state["round"] + rounds if rounds else None
    for c in held:
        if c["key"] == condition:
            # «Si en tens dos d'iguals, compten com un de sol.»
            c["ends_round"] = (
                ends if ends is None or c["ends_round"] is None else max(ends, c["ends_round"])
            )
            return
    held.append({"key": condition, "source": source, "ends_round": ends})


def _remove_condition(fight: _Fight, key: str, condition: str) -> bool:
    held = fight.x(key)["conditions"]
    kept = [c for c in held if c["key"] != condition]
    fight.x(key)["conditions"] = kept
    return len(kept) != len(held)


def _set_hp(fight: _Fight, key: str, hp: int) -> None:
    fight.row(key)["pv"] = hp


def _die(fight: _Fight, key: str, why: str) -> None:
    x = fight.x(key)
    x["dead"] = True
    x["stable"] = False
    fight.row(key)["out"] = True
    _break_concentration(fight, key, "morreu")
    fight.line(f"{fight.name(key)} morre: {why}.")


def _break_concentration(fight: _Fight, key: str, why: str) -> None:
    x = fight.x(key)
    if x["concentration"]:
        fight.line(f"{fight.name(key)} perde a concentração em {x['concentration']} ({why}).")
        x["concentration"] = ""


def _check_incapacity(fight: _Fight, key: str) -> None:
    """What an incapacitating condition ends: concentration (§7.4), Esquivar (§3.5), a grapple
    the incapacitated holds («S'acaba si qui t'agafa queda incapacitat»)."""
    held = fight.conditions(key)
    if not incapacitated(held):
        return
    _break_concentration(fight, key, "ficou incapacitado")
    if fight.x(key)["dodging"]:
        fight.x(key)["dodging"] = False
        fight.line(f"{fight.name(key)} perde o Esquivar (incapacitado).")
    for other, x in fight.state["xuleta"].items():
        if x["grappled_by"] == key:
            x["grappled_by"] = ""
            _remove_condition(fight, other, "grappled")
            fight.line(
                f"{fight.name(other)} deixa de estar Agafat: quem o agarrava ficou incapacitado."
            )


def _drop_to_zero(fight: _Fight, key: str, taken: xdamage.Taken) -> None:
    """«Quedes inconscient i comences a fer salvacions contra la mort.» (§5.7)"""
    numbers = fight.numbers(key)
    name = fight.name(key)
    if taken.instant_death:
        _die(
            fight,
            key,
            f"morte instantânea: sobram {taken.excess} ≥ máximo {_max_hp(fight, key)} PC",
        )
        return
    if xdying.dies_at_zero(numbers["player_character"], numbers["dies_at_zero"]):
        _die(fight, key, "«Molts monstres moren directament en arribar a 0, si el DM vol»")
        return
    if not numbers["player_character"]:
        fight.used("monster_at_zero")
    fight.line(
        f"{name} cai a 0 PC (o dano que sobra, {taken.excess}, se perde): inconsciente e "
        "tombat; faz salvações contra a morte no início de cada turno."
    )
    _add_condition(fight, key, UNCONSCIOUS)
    _add_condition(fight, key, PRONE)
    fight.x(key)["death_saves"] = {"successes": 0, "failures": 0}
    fight.x(key)["stable"] = False
    _check_incapacity(fight, key)


def _hurt(
    fight: _Fight, key: str, amount: int, type_: str, critical: bool, source_key: str = ""
) -> int:
    """``amount`` of ``type_`` on ``key`` after its defences (§5.4), temporary PC first (§5.6),
    to 0 (§5.7), at 0 a death-save failure (§5.8), then concentration (§7.4). Returns the PC lost."""
    numbers = fight.numbers(key)
    x = fight.x(key)
    name = fight.name(key)
    defended = xdamage.apply_defences(
        amount,
        type_,
        numbers["resistances"],
        numbers["vulnerabilities"],
        numbers["immunities"],
        resist_all=resists_all_damage(fight.conditions(key)),
    )
    for text in defended.steps:
        fight.line(f"{name}: {text}.")
    if any("resistência" in s for s in defended.steps):
        fight.used("resistance_rounding")
    dealt = defended.amount
    if x["dead"]:
        return 0
    hp = fight.row(key)["pv"]
    if hp == 0:
        if dealt <= 0:
            return 0
        # «Si et fan mal a 0 PC, sumes un fracàs (dos si és crític).»
        saves = x["death_saves"]
        after = xdying.damage_at_zero(saves["successes"], saves["failures"], critical)
        fight.used("instant_death_at_zero")
        if dealt >= _max_hp(fight, key):
            _die(fight, key, "dano a 0 PC igual ou maior que o máximo de PC (morte instantânea)")
            return 0
        was_stable = x["stable"]
        x["stable"] = False
        x["death_saves"] = {"successes": after.successes, "failures": after.failures}
        fight.line(
            f"{name} sofre dano a 0 PC: {'dois fracassos (crítico)' if critical else 'um fracasso'}"
            f" — {after.successes} êxitos, {after.failures} fracassos"
            + (" (deixa de estar estável)" if was_stable else "")
            + "."
        )
        if after.dead:
            _die(fight, key, "três fracassos nas salvações contra a morte")
        return 0
    taken = xdamage.take_damage(hp, x["temp_hp"], _max_hp(fight, key), dealt)
    x["temp_hp"] = taken.temp_hp
    _set_hp(fight, key, taken.hp)
    said = f"{name}: {hp} → {taken.hp} PC ({dealt} de {DAMAGE_TYPES[type_]}"
    if taken.absorbed:
        said += f"; {taken.absorbed} nos PC temporários, restam {taken.temp_hp}"
    fight.line(said + ").")
    if taken.dropped:
        _drop_to_zero(fight, key, taken)
    elif x["concentration"] and dealt > 0:
        _concentration_check(fight, key, dealt)
    if taken.hp == 0 and x["concentration"]:
        _break_concentration(fight, key, "ficou inconsciente")
    return hp - taken.hp


def _concentration_check(fight: _Fight, key: str, dealt: int) -> None:
    """«Si reps dany, salvació de Constitució: CD 10 o la meitat del dany, el que sigui més
    alt. Una salvació per cada cop que rebis.»"""
    x = fight.x(key)
    saved = xconcentration.concentration_save(
        _source(fight),
        xnumbers.save_bonus(fight.numbers(key), CON),
        dealt,
        conditions=fight.conditions(key),
        exhaustion=x["exhaustion"],
    )
    result = saved.result
    fight.rolled(
        f"Concentração de {fight.name(key)} ({x['concentration']}): salvação de Constitució "
        f"{_faces(result.roll)} {result.bonus:+d} = {result.total} contra CD {saved.dc} "
        f"(10 ou a metade de {dealt}) — {'mantém' if saved.holds else 'perde'}.",
        key,
        "save",
        "Salvació de Constitució (concentració)",
        result.roll.faces,
        result.total,
        dc=saved.dc,
    )
    if not saved.holds:
        _break_concentration(fight, key, "falhou a salvação")


def _heal(fight: _Fight, key: str, amount: int) -> None:
    """«la curació els fa pujar, mai per sobre del teu màxim»; «Si estàs a 0 PC, qualsevol
    curació et torna la consciència»; «el comptador torna a zero»."""
    x = fight.x(key)
    name = fight.name(key)
    before = fight.row(key)["pv"]
    try:
        after = xdamage.heal(before, _max_hp(fight, key), amount, dead=x["dead"])
    except XuletaError as error:
        raise XuletaError(error.message, "heal") from None
    _set_hp(fight, key, after)
    fight.line(f"{name}: {before} → {after} PC (cura de {amount}).")
    if before == 0 and after > 0:
        _wake(fight, key)


def _wake(fight: _Fight, key: str) -> None:
    x = fight.x(key)
    x["death_saves"] = {"successes": 0, "failures": 0}
    x["stable"] = False
    if _remove_condition(fight, key, UNCONSCIOUS):
        fight.line(f"{fight.name(key)} recobra a consciência (continua Tombat).")


# --- the order and the start of a turn -------------------------------------------------------


def _source(fight: _Fight) -> RandomSource:
    return fight.state["__source__"]


def _faces(roll) -> str:
    if len(roll.faces) == 1:
        return f"d20 {roll.kept}"
    return (
        f"2d20 ({EDGE_LABELS[roll.edge].lower()}) [{', '.join(map(str, roll.faces))}] → {roll.kept}"
    )


def _advance(fight: _Fight) -> None:
    """Pass to the next in the order who is in the fight. A turn at 0 PC is only its death save
    (§5.8; a stable one, nothing), a surprised one's first turn passes (§2.2): both pass on."""
    state = fight.state
    order = state["order"]
    index = state["turn"]
    for _ in range(4 * len(order) + 4):
        if index >= len(order):
            state["round"] += 1
            index = 0
            fight.line(f"Rodada {state['round']}.")
        entry = order[index]
        key = entry["fighter"]
        if (
            not fight.row(key)["out"]
            and not fight.x(key)["dead"]
            and entry["from_round"] <= state["round"]
        ):
            state["turn"] = index + 1
            if _turn_start(fight, key):
                return
        index += 1
    state["turn"] = 0
    fight.line("Ninguém mais pode agir: o Mestre encerra o combate.")


def _turn_start(fight: _Fight, key: str) -> bool:
    """The start of ``key``'s turn: the reaction recovered («La recuperes en començar el teu
    torn»), Esquivar ends («Dura fins al principi del teu torn següent»), Ajudar's distraction
    given by it ends, timed conditions end; at 0 PC the death save. True when it acts now."""
    x = fight.x(key)
    name = fight.name(key)
    rnd = fight.state["round"]
    x["reaction"] = True
    if x["dodging"]:
        x["dodging"] = False
        fight.line(f"Termina o Esquivar de {name}.")
    for other in fight.state["xuleta"].values():
        if other["distracted_by"] == key:
            other["distracted_by"] = ""
    for c in list(x["conditions"]):
        if c["ends_round"] is not None and rnd >= c["ends_round"]:
            _remove_condition(fight, key, c["key"])
            fight.line(f"Termina: {CONDITIONS[c['key']].label} em {name}.")
    fight.line(f"Turno de {name}.")
    if fight.row(key)["pv"] == 0 and fight.numbers(key)["max_hp"] > 0:
        if x["stable"]:
            fight.line(f"{name} está estável a 0 PC: inconsciente, não rola salvações; passa.")
            x["turns_taken"] += 1
            return False
        saves = x["death_saves"]
        saved = xdying.death_save(_source(fight), saves["successes"], saves["failures"])
        after = saved.after
        fight.rolled(
            f"Salvação contra a morte de {name}: d20 {saved.face} (sem somar nada) — {saved.text}"
            f" ({after.successes} êxitos, {after.failures} fracassos).",
            key,
            "death_save",
            "Salvació contra la mort",
            [saved.face],
            saved.face,
            successes=after.successes,
            failures=after.failures,
        )
        x["death_saves"] = {"successes": after.successes, "failures": after.failures}
        if after.dead:
            _die(fight, key, "três fracassos nas salvações contra a morte")
            return False
        if after.revived:
            fight.used("death_save_20_acts")
            _set_hp(fight, key, 1)
            _wake(fight, key)
            fight.line(f"{name}: 20 natural, volta com 1 PC e age.")
            return True
        if after.stable:
            x["stable"] = True
            x["death_saves"] = {"successes": 0, "failures": 0}
        x["turns_taken"] += 1
        fight.line(f"{name} está inconsciente: o turno passa.")
        return False
    if x["surprised"] and x["turns_taken"] == 0:
        fight.line(
            f"{name} está surpreso: «no es mou ni actua en el seu primer torn» nem reage até o "
            "fim dele; passa."
        )
        x["turns_taken"] += 1
        x["surprised"] = False
        x["reaction"] = True
        return False
    return True


# --- attacks -------------------------------------------------------------------------------------


def _target(fight: _Fight, actor: str, action: Mapping[str, Any], prefix: str) -> str:
    target = action.get("target") or ""
    if not target:
        raise XuletaError(TARGET_NEEDED, f"{prefix}.target")
    if target not in fight.state["fighters"]:
        raise XuletaError(UNKNOWN_FIGHTER, f"{prefix}.target")
    if fight.x(target)["dead"]:
        raise XuletaError(DEAD_TARGET.format(name=fight.name(target)), f"{prefix}.target")
    return target


def _charmed_by(fight: _Fight, actor: str, target: str, prefix: str) -> None:
    for c in fight.x(actor)["conditions"]:
        if c["key"] == "charmed" and c["source"] == target:
            raise XuletaError(CHARMED_TARGET.format(name=fight.name(target)), f"{prefix}.target")


def _one_attack(
    fight: _Fight,
    actor: str,
    action: Mapping[str, Any],
    prefix: str,
    *,
    offhand: bool = False,
    opportunity: bool = False,
    target: str | None = None,
    attack: dict | None = None,
) -> None:
    """One attack roll (§4.2) against the target's AC with its cover (§3.15), every edge
    (conditions, §4.2's ranged-with-an-enemy-near, Esquivar, Amagar-se, Ajudar), the hit's
    critical (a natural 20, or from 1,5 m on Paralitzat/Inconscient), the damage (§5.1–§5.4)."""
    target = target or _target(fight, actor, action, prefix)
    if target == actor:
        raise XuletaError(SELF_TARGET, f"{prefix}.target")
    _charmed_by(fight, actor, target, prefix)
    numbers = fight.numbers(actor)
    attack = attack or xnumbers.attack_named(
        numbers, action.get("weapon") or "", fight.name(actor), f"{prefix}.weapon"
    )
    # «Si alguna és llancívola, la pots llançar en lloc de colpejar.»
    ranged = attack["ranged"] or bool(action.get("thrown") and attack.get("thrown"))
    within = action.get("within_1_5_m")
    if within is None:
        within = not ranged
    x_target = fight.x(target)
    x_actor = fight.x(actor)
    helped = x_target["distracted_by"] not in ("", actor) and _side(
        fight, x_target["distracted_by"]
    ) == _side(fight, actor)
    reading = xattacks.attack_edge(
        attacker_conditions=fight.conditions(actor),
        target_conditions=fight.conditions(target),
        exhaustion=x_actor["exhaustion"],
        within_1_5_m=within,
        ranged=ranged,
        enemy_within_1_5_m=bool(action.get("enemy_within_1_5_m")),
        target_dodging=x_target["dodging"] and bool(action.get("target_sees", True)),
        attacker_hidden=x_actor["hidden"],
        helped=helped,
        sees_fear_source=bool(action.get("sees_fear_source", True)),
        advantages=_given(action, "advantage"),
        disadvantages=_given(action, "disadvantage"),
    )
    cover = action.get("cover") or "none"
    try:
        hit = xattacks.roll_attack(
            _source(fight),
            attack["bonus"],
            fight.numbers(target)["ac"],
            reading.edge,
            cover=cover,
            target_conditions=fight.conditions(target),
            within_1_5_m=within,
        )
    except XuletaError as error:
        raise XuletaError(error.message, f"{prefix}.{error.field or 'cover'}") from None
    if x_actor["hidden"]:
        x_actor["hidden"] = False  # «però després ja saben on ets»
    if helped:
        x_target["distracted_by"] = ""
    result = hit.result
    kind = (
        "atac d'oportunitat" if opportunity else ("segon atac (dues armes)" if offhand else "atac")
    )
    said = (
        f"{fight.name(actor)} ataca {fight.name(target)} ({kind}, {attack['name']}): "
        f"{_faces(result.roll)} {result.bonus:+d} = {result.total} contra CA {hit.ac}"
    )
    if cover != "none":
        said += f" (cobertura {xattacks.COVER_LABELS[cover]})"
    if reading.reasons:
        said += " [" + "; ".join(reading.reasons) + "]"
    if result.fumble:
        said += " — 1 natural: falha"
    elif hit.critical:
        said += f" — acerta, CRÍTICO ({hit.why_critical})"
    else:
        said += " — acerta" if hit.hit else " — falha"
    fight.rolled(
        said + ".",
        actor,
        "attack",
        f"Tirada d'atac ({attack['name']})",
        result.roll.faces,
        result.total,
        target=target,
        ac=hit.ac,
        edge=reading.edge,
        critical=hit.critical,
    )
    if not hit.hit:
        return
    modifier = xattacks.damage_modifier(attack["damage_modifier"], offhand=offhand)
    _roll_damage_on(fight, actor, [target], attack["damage"], modifier, attack["damage_type"],
                    hit.critical, attack["name"])  # fmt: skip


def _roll_damage_on(
    fight: _Fight, actor, targets, dice, modifier, type_, critical, label, halves=None
) -> None:
    """One damage roll for all ``targets``: «Si un efecte fa mal a diversos alhora, es tira un
    sol cop per a tots.» ``halves``: the targets that take half (a save passed)."""
    rolled = xdamage.roll_damage(_source(fight), dice, modifier, critical)
    fight.rolled(
        f"Dano ({label}): {rolled.text} de {DAMAGE_TYPES[type_]}"
        + (" — crítico: o dobro de dados, o modificador uma vez" if critical else "")
        + ".",
        actor,
        "damage",
        f"Tirada de dany ({label})",
        rolled.faces,
        rolled.total,
        damage_type=type_,
        critical=critical,
    )
    for target in targets:
        amount = rolled.total // 2 if halves and target in halves else rolled.total
        if halves and target in halves:
            fight.line(f"{fight.name(target)} passou na salvação: metade, {amount}.")
        _hurt(fight, target, amount, type_, critical, actor)


def _given(action: Mapping[str, Any], edge: str) -> tuple[str, ...]:
    """The edge the Mestre gives (``edge``: another source he knows — cover's own, a trait, a
    spell), as one more advantage or disadvantage: they never stack, they cancel."""
    return ("o Mestre: " + EDGE_LABELS[edge].lower(),) if action.get("edge") == edge else ()


def _side(fight: _Fight, key: str) -> str:
    return fight.numbers(key)["side"]


def _save(
    fight: _Fight, key: str, ability: str, dc: int, cover: str = "none", why: str = ""
) -> bool:
    """A saving throw of ``key`` (§4.3) with its conditions (auto-fail of Força/Destresa,
    Immobilitzat, exhaustion 3), Esquivar's advantage on Destresa, cover on Destresa."""
    x = fight.x(key)
    adv = (
        ["Esquivar: avantatge en les salvacions de Destresa"]
        if x["dodging"] and ability == DEX
        else []
    )
    reading = roll_edge(SAVE, ability=ability, conditions=fight.conditions(key),
                        exhaustion=x["exhaustion"], advantages=adv)  # fmt: skip
    label = ABILITY_LABELS[ability]
    name = fight.name(key)
    if reading.auto_fail:
        fight.line(f"{name} falha sem rolar a salvação de {label} ({'; '.join(reading.failures)}).")
        return False
    bonus = xnumbers.save_bonus(fight.numbers(key), ability)
    if ability == DEX and cover in ("half", "three_quarters"):
        bonus += xattacks.cover_bonus(cover)
    result = resolve(SAVE, d20(_source(fight), reading.edge), bonus, dc)
    fight.rolled(
        f"Salvação de {label} de {name}{f' ({why})' if why else ''}: {_faces(result.roll)} "
        f"{bonus:+d} = {result.total} contra CD {dc} — {'passa' if result.success else 'falha'}"
        + (f" [{'; '.join(reading.reasons)}]" if reading.reasons else "")
        + ".",
        key,
        "save",
        f"Salvació de {label}",
        result.roll.faces,
        result.total,
        dc=dc,
        edge=reading.edge,
    )
    return result.success


def _check(fight: _Fight, key: str, skill: str, dc: int, why: str, senses=()) -> bool | None:
    """An ability check with a skill (§4.1) against ``dc`` (0: a contest's roll, no DC)."""
    x = fight.x(key)
    ability = SKILLS[skill]
    reading = roll_edge(CHECK, ability=ability, conditions=fight.conditions(key),
                        exhaustion=x["exhaustion"], senses=senses)  # fmt: skip
    name = fight.name(key)
    if reading.auto_fail:
        fight.line(f"{name} falha sem rolar ({'; '.join(reading.failures)}).")
        return False
    bonus = xnumbers.skill_bonus(fight.numbers(key), skill)
    result = resolve(CHECK, d20(_source(fight), reading.edge), bonus, dc)
    fight.rolled(
        f"{why}: {name}, {ABILITY_LABELS[ability]} ({skill}) {_faces(result.roll)} {bonus:+d} = "
        f"{result.total} contra CD {dc} — {'consegue' if result.success else 'falha'}.",
        key,
        "check",
        f"Prova de {ABILITY_LABELS[ability]} ({skill})",
        result.roll.faces,
        result.total,
        dc=dc,
    )
    return result.success


def _contest(fight: _Fight, actor: str, target: str, action, prefix: str, what: str) -> str | None:
    """Agafar/Empènyer (§3.11, §3.12): «La teva Força (Atletisme) contra la seva Força
    (Atletisme) o Destresa (Acrobàcies), la que triï.»"""
    if not xattacks.size_allows(fight.numbers(actor)["size"], fight.numbers(target)["size"]):
        raise XuletaError(GRAPPLE_SIZE, f"{prefix}.target")
    resist = action.get("resist_with") or ""
    tnumbers = fight.numbers(target)
    if not resist:
        athletics = xnumbers.skill_bonus(tnumbers, "Atletisme")
        acrobatics = xnumbers.skill_bonus(tnumbers, "Acrobàcies")
        resist = "athletics" if athletics >= acrobatics else "acrobatics"
        fight.used("contest_defender_choice")
    if resist not in RESIST_WITH:
        raise XuletaError(f"resist_with: use {', '.join(RESIST_WITH)}.", f"{prefix}.resist_with")
    mine = roll_edge(CHECK, ability=STR, conditions=fight.conditions(actor),
                     exhaustion=fight.x(actor)["exhaustion"])  # fmt: skip
    skill = RESIST_WITH[resist]
    theirs = roll_edge(CHECK, ability=DEX if resist == "acrobatics" else STR,
                       conditions=fight.conditions(target),
                       exhaustion=fight.x(target)["exhaustion"])  # fmt: skip
    a_bonus = xnumbers.skill_bonus(fight.numbers(actor), "Atletisme")
    b_bonus = xnumbers.skill_bonus(tnumbers, skill)
    contest = xattacks.roll_contest(_source(fight), a_bonus, b_bonus, mine.edge, theirs.edge)
    a, b = contest.attacker, contest.defender
    fight.rolled(
        f"{what}: {fight.name(actor)}, Força (Atletisme) {_faces(a.roll)} {a_bonus:+d} = {a.total}.",
        actor, "check", "Prova de Força (Atletisme)", a.roll.faces, a.total,
    )  # fmt: skip
    outcome = {
        "attacker": f"{fight.name(actor)} vence",
        "defender": f"{fight.name(target)} resiste",
        None: "empate: «tot continua com estava»",
    }[contest.winner]
    fight.rolled(
        f"{what}: {fight.name(target)}, {skill} {_faces(b.roll)} {b_bonus:+d} = {b.total} — "
        f"{outcome}.",
        target, "check", f"Prova ({skill})", b.roll.faces, b.total,
    )  # fmt: skip
    return contest.winner


def _escape(fight: _Fight, actor: str, holder: str, action, prefix: str) -> str | None:
    """Agafat: «Per deslliurar-te, fes servir la teva acció: Atletisme o Acrobàcies contra el
    seu Atletisme.» A contest; a tie leaves things as they were."""
    resist = action.get("resist_with") or ""
    mine = fight.numbers(actor)
    if not resist:
        athletics = xnumbers.skill_bonus(mine, "Atletisme")
        resist = (
            "athletics" if athletics >= xnumbers.skill_bonus(mine, "Acrobàcies") else "acrobatics"
        )
    if resist not in RESIST_WITH:
        raise XuletaError(f"resist_with: use {', '.join(RESIST_WITH)}.", f"{prefix}.resist_with")
    skill = RESIST_WITH[resist]
    a_edge = roll_edge(
        CHECK,
        ability=DEX if resist == "acrobatics" else STR,
        conditions=fight.conditions(actor),
        exhaustion=fight.x(actor)["exhaustion"],
    )
    b_edge = roll_edge(CHECK, ability=STR, conditions=fight.conditions(holder),
                       exhaustion=fight.x(holder)["exhaustion"])  # fmt: skip
    a_bonus = xnumbers.skill_bonus(mine, skill)
    b_bonus = xnumbers.skill_bonus(fight.numbers(holder), "Atletisme")
    contest = xattacks.roll_contest(_source(fight), a_bonus, b_bonus, a_edge.edge, b_edge.edge)
    a, b = contest.attacker, contest.defender
    fight.rolled(f"Deslliurar-se: {fight.name(actor)}, {skill} {_faces(a.roll)} {a_bonus:+d} = {a.total}.",
                 actor, "check", f"Prova ({skill})", a.roll.faces, a.total)  # fmt: skip
    fight.rolled(f"Deslliurar-se: {fight.name(holder)}, Atletisme {_faces(b.roll)} {b_bonus:+d} = {b.total}.",
                 holder, "check", "Prova de Força (Atletisme)", b.roll.faces, b.total)  # fmt: skip
    return contest.winner


# --- the turn's actions ---------------------------------------------------------------------------


def _spend_attack(fight: _Fight, actor: str, budget: xactions.Budget, kind: str, prefix: str):
    """Atacar's attacks: the first spends the action and opens ``attacks_per_action``; Agafar
    and Empènyer «substitueixen un d'aquests atacs»."""
    if budget.action == "attack" and budget.attacks_left > 0:
        from dataclasses import replace

        return replace(budget, attacks_left=budget.attacks_left - 1)
    if budget.action == "attack":
        count = fight.numbers(actor)["attacks_per_action"]
        raise XuletaError(NO_ATTACKS_LEFT.format(count=count), f"{prefix}.kind")
    budget = xactions.spend_action(budget, "attack", f"{prefix}.kind")
    from dataclasses import replace

    return replace(budget, attacks_left=fight.numbers(actor)["attacks_per_action"] - 1)


def _move(fight: _Fight, actor: str, budget, action, prefix: str):
    metres = float(action.get("metres") or 0)
    factor = 2 if action.get("difficult") or fight.has(actor, PRONE) else 1
    if fight.has(actor, PRONE) and not action.get("difficult"):
        fight.line(
            f"{fight.name(actor)} está Tombat: «Només pots arrossegar-te» (cada metro conta dobre)."
        )
    budget = xactions.move(budget, metres, factor, f"{prefix}.metres")
    fight.line(f"{fight.name(actor)} move-se {metres:g} m (restam {budget.movement_m:g} m).")
    for index, other in enumerate(action.get("leaves_reach_of") or ()):
        if other not in fight.state["fighters"]:
            raise XuletaError(UNKNOWN_FIGHTER, f"{prefix}.leaves_reach_of.{index}")
        x = fight.x(other)
        if not xattacks.provokes_opportunity(True, disengaged=budget.disengaged):
            fight.line(f"Sai do alcance de {fight.name(other)} sem provocar (Desenganxar-se).")
            continue
        if x["dead"] or not x["reaction"] or incapacitated(fight.conditions(other)):
            fight.line(f"{fight.name(other)} não tem reação para o ataque de oportunidade.")
            continue
        melee = [a for a in fight.numbers(other)["attacks"] if not a["ranged"]]
        if not melee:
            fight.line(
                f"{fight.name(other)} não tem ataque corpo a corpo: sem ataque de oportunidade."
            )
            continue
        x["reaction"] = xactions.use_reaction(True, fight.conditions(other))
        fight.line(
            f"Atac d'oportunitat de {fight.name(other)} (a reação), «just abans que se'n vagi»."
        )
        _one_attack(fight, other, {}, f"{prefix}.leaves_reach_of.{index}", opportunity=True,
                    target=actor, attack=melee[0])  # fmt: skip
        if fight.x(actor)["dead"] or fight.row(actor)["pv"] == 0:
            break
    return budget


def _cast(fight: _Fight, actor: str, action, prefix: str) -> None:
    """Llançar un encanteri (§3.2): its effect as the Mestre gives it — a spell attack, a save
    (half on a pass when it says so), healing, a condition; concentration (§7.4)."""
    numbers = fight.numbers(actor)
    name = fight.name(actor)
    spell = (action.get("spell") or "encanteri").strip()
    x = fight.x(actor)
    _spend_slot(fight, actor, action, prefix)
    if action.get("concentration"):
        if x["concentration"]:
            _break_concentration(fight, actor, "lançou outra magia de concentração")
        x["concentration"] = spell
    fight.line(
        f"{name} llança {spell}" + (" (concentració)" if action.get("concentration") else "") + "."
    )
    targets = list(action.get("targets") or ([action["target"]] if action.get("target") else []))
    for index, t in enumerate(targets):
        if t not in fight.state["fighters"]:
            raise XuletaError(UNKNOWN_FIGHTER, f"{prefix}.targets.{index}")
    dice = action.get("damage") or ""
    modifier = int(action.get("damage_modifier") or 0)
    if action.get("heal"):
        rolled = xdamage.roll_damage(_source(fight), dice or "0", modifier)
        fight.rolled(f"Cura ({spell}): {rolled.text}.", actor, "damage", f"Curació ({spell})",
                     rolled.faces, rolled.total)  # fmt: skip
        for t in targets:
            _heal(fight, t, rolled.total)
        return
    save = action.get("save") or ""
    type_ = action.get("damage_type") or ""
    condition = action.get("condition") or ""
    if action.get("spell_attack"):
        bonus = numbers["spell_attack_bonus"]
        if bonus is None:
            raise XuletaError(NO_SPELL_ATTACK.format(name=name), f"{prefix}.spell_attack")
        if not (dice and type_):
            raise XuletaError(SPELL_NEEDS, f"{prefix}.damage")
        for t in targets:
            _one_attack(fight, actor, action, prefix, target=t, attack={
                "name": spell, "bonus": bonus, "damage": dice, "damage_modifier": modifier,
                "damage_type": type_, "ranged": bool(action.get("ranged", True)),
            })  # fmt: skip
        return
    if save:
        dc = action.get("dc") or numbers["spell_save_dc"]
        if not dc:
            raise XuletaError(NO_SPELL_DC.format(name=name), f"{prefix}.dc")
        passed = [
            t for t in targets if _save(fight, t, save, dc, action.get("cover") or "none", spell)
        ]
        failed = [t for t in targets if t not in passed]
        if dice and type_:
            halves = passed if action.get("half_on_save") else None
            hit = failed + (passed if halves else [])
            if hit:
                _roll_damage_on(fight, actor, hit, dice, modifier, type_, False, spell, halves)
        if condition:
            for t in failed:
                _apply_condition(fight, t, condition, actor, action.get("rounds"), prefix)
        return
    if dice and type_:
        _roll_damage_on(fight, actor, targets, dice, modifier, type_, False, spell)
    if condition:
        for t in targets:
            _apply_condition(fight, t, condition, actor, action.get("rounds"), prefix)


def _reaction(fight: _Fight, action, prefix: str) -> None:
    """Another combatant's reaction during this turn (``by``): what it readied — «Quan passa,
    ho fas amb la teva reacció (o ho deixes córrer)» — or a spell cast «amb una reacció»: an
    attack on ``target``, a spell (the spell's fields), or a movement. «En tens una per ronda.»"""
    reactor = action.get("by") or ""
    if reactor not in fight.state["fighters"]:
        raise XuletaError("Diga quem reage (by).", f"{prefix}.by")
    x = fight.x(reactor)
    if x["dead"]:
        raise XuletaError(DEAD_TARGET.format(name=fight.name(reactor)), f"{prefix}.by")
    try:
        x["reaction"] = xactions.use_reaction(x["reaction"], fight.conditions(reactor))
    except XuletaError as error:
        raise XuletaError(f"{fight.name(reactor)}: {error.message}", f"{prefix}.by") from None
    readied = x["readied"]
    x["readied"] = ""
    fight.line(
        f"Reação de {fight.name(reactor)}"
        + (f", a ação preparada: «{readied}»" if readied else "")
        + "."
    )
    if readied and x["concentration"] and x["concentration"] == action.get("spell"):
        x["concentration"] = ""  # the held spell is let go: its holding ends
        fight.line(
            f"{fight.name(reactor)} solta {action['spell']}: a concentração de a manter acaba."
        )
    if action.get("spell") or action.get("heal") or action.get("save"):
        _cast(fight, reactor, {**action, "spell_level": 0 if readied else action.get("spell_level")},
              prefix)  # fmt: skip
    elif action.get("target"):
        _one_attack(fight, reactor, action, prefix)
    elif action.get("metres"):
        fight.line(f"{fight.name(reactor)} move-se {float(action['metres']):g} m.")


def _spend_slot(fight: _Fight, actor: str, action, prefix: str) -> None:
    """§7.1 Espais d'encanteri: a levelled spell spends a slot of its level or higher
    (``slot_level``) when the numbers give the caster's slots; without them (a monster's),
    the Mestre keeps count."""
    slots = fight.numbers(actor).get("slots") or {}
    level = int(action.get("spell_level") or 0)
    asked = int(action.get("slot_level") or 0)
    if level and asked and asked < level:  # the text's rule, counted or not
        raise XuletaError(
            xactions.SLOT_TOO_LOW.format(slot=asked, level=level), f"{prefix}.slot_level"
        )
    if not slots or not level:
        return
    x = fight.x(actor)
    try:
        x["slots_spent"] = xactions.spend_slot(
            slots, x.setdefault("slots_spent", {}), level, int(action.get("slot_level") or 0)
        )
    except XuletaError as error:
        raise XuletaError(error.message, f"{prefix}.{error.field}") from None
    used = int(action.get("slot_level") or 0) or level
    left = slots.get(str(used), 0) - x["slots_spent"].get(str(used), 0)
    fight.line(f"{fight.name(actor)} gasta um espaço de nível {used} (restam {left}).")


def _spell_timing(fight: _Fight, action, prefix: str, bonus: bool) -> None:
    """§7.3 Temps de llançament: a spell with the bonus action, then only a cantrip with the
    action (either order in the turn: ``_turn`` keeps what was cast)."""
    level = int(action.get("spell_level") or 0)
    cast = fight.state.setdefault("_turn", {"bonus_spell": False, "action_spell_level": None})
    if bonus:
        if cast["action_spell_level"]:
            xactions.spell_allowed(True, cast["action_spell_level"], f"{prefix}.kind")
        cast["bonus_spell"] = True
    else:
        xactions.spell_allowed(cast["bonus_spell"], level, f"{prefix}.spell_level")
        cast["action_spell_level"] = level


def _apply_condition(fight, target, condition, source, rounds, prefix) -> None:
    if condition not in CONDITIONS or condition == EXHAUSTION:
        known = ", ".join(k for k in CONDITIONS if k != EXHAUSTION)
        raise XuletaError(
            UNKNOWN_CONDITION.format(key=condition, known=known), f"{prefix}.condition"
        )
    _add_condition(fight, target, condition, source, rounds)
    fight.line(f"{fight.name(target)} fica {CONDITIONS[condition].label}"
               + (f" por {rounds} rodada(s), até o início do seu turno na rodada "
                  f"{fight.state['round'] + rounds}" if rounds else "") + ".")  # fmt: skip
    _check_incapacity(fight, target)
    if (
        speed(1, fight.conditions(target), fight.x(target)["exhaustion"]) == 0
        and fight.x(target)["dodging"]
    ):
        fight.x(target)["dodging"] = False
        fight.line(f"{fight.name(target)} perde o Esquivar (velocidade 0).")


def _act(fight: _Fight, actor: str, budget, action: Mapping[str, Any], index: int):
    prefix = f"actions.{index}"
    kind = action.get("kind") or ""
    if kind not in xactions.ACTIONS:
        raise XuletaError(
            UNKNOWN_ACTION.format(kind=kind, known=", ".join(xactions.ACTIONS)), f"{prefix}.kind"
        )
    label = xactions.ACTION_LABELS[kind]
    name = fight.name(actor)
    x = fight.x(actor)
    text = (action.get("text") or "").strip()
    if kind == "move":
        return _move(fight, actor, budget, action, prefix)
    if kind == "stand_up":
        if not _remove_condition(fight, actor, PRONE):
            raise XuletaError(CONDITION_NOT_ON.format(name=name, label="Tombat"), f"{prefix}.kind")
        budget = xactions.stand_up(budget, f"{prefix}.kind")
        fight.line(f"{name} aixeca's (a metade da velocidade; restam {budget.movement_m:g} m).")
        return budget
    if kind == "drop_prone":
        _add_condition(fight, actor, PRONE)
        fight.line(f"{name} llança's a terra (sem custo de movimento): Tombat.")
        return budget
    if kind == "interact":
        budget = xactions.interact(budget, f"{prefix}.kind")
        fight.line(f"{name}: {label}" + (f" — {text}" if text else "") + " (de graça).")
        return budget
    if kind == "release":
        target = _target(fight, actor, action, prefix)
        if fight.x(target)["grappled_by"] != actor:
            raise XuletaError(NOT_GRAPPLED.format(name=fight.name(target)), f"{prefix}.target")
        fight.x(target)["grappled_by"] = ""
        _remove_condition(fight, target, "grappled")
        fight.line(f"{name} deixa anar {fight.name(target)} («quan vulguis»).")
        return budget
    if kind == "end_concentration":
        _break_concentration(fight, actor, "deixou-a, «sense gastar res»")
        return budget
    if kind == "reaction":
        _reaction(fight, action, prefix)
        return budget
    if kind == "offhand_attack":
        main = [a for a in fight.numbers(actor)["attacks"] if a["light"] and not a["ranged"]]
        weapon = xnumbers.attack_named(fight.numbers(actor), action.get("weapon") or "", name,
                                       f"{prefix}.weapon")  # fmt: skip
        why = xattacks.two_weapon_allowed(bool(main), False, weapon["light"])
        if why or budget.action != "attack":
            raise XuletaError(TWO_WEAPONS.format(why=why or "ataque antes"), f"{prefix}.weapon")
        budget = xactions.spend_bonus_action(
            budget, kind, "Combat amb dues armes", f"{prefix}.kind"
        )
        _one_attack(fight, actor, action, prefix, offhand=True, attack=weapon)
        return budget
    if kind == "bonus_action":
        granted = (action.get("source") or "").strip()
        budget = xactions.spend_bonus_action(budget, kind, granted, f"{prefix}.source")
        fight.line(f"{name}: ação adicional ({granted})" + (f": {text}" if text else "") + ".")
        if action.get("spell") or action.get("damage") or action.get("heal"):
            _spell_timing(fight, action, prefix, bonus=True)
            _cast(fight, actor, action, prefix)
        return budget
    # --- the action
    if kind in ("attack", "grapple", "shove"):
        budget = _spend_attack(fight, actor, budget, kind, prefix)
    else:
        budget = xactions.spend_action(budget, kind, f"{prefix}.kind")
    if kind == "attack":
        _one_attack(fight, actor, action, prefix)
    elif kind == "grapple":
        target = _target(fight, actor, action, prefix)
        if _contest(fight, actor, target, action, prefix, "Agafar") == "attacker":
            _add_condition(fight, target, "grappled", actor)
            fight.x(target)["grappled_by"] = actor
            fight.line(f"{fight.name(target)} fica Agafat: velocidade 0.")
    elif kind == "shove":
        target = _target(fight, actor, action, prefix)
        choice = action.get("shove_result") or xattacks.SHOVE_PRONE
        if choice not in xattacks.SHOVE_RESULTS:
            raise XuletaError(
                f"shove_result: use {', '.join(xattacks.SHOVE_RESULTS)}.", f"{prefix}.shove_result"
            )
        if _contest(fight, actor, target, action, prefix, "Empènyer") == "attacker":
            if choice == xattacks.SHOVE_PRONE:
                _add_condition(fight, target, PRONE, actor)
                fight.line(f"{fight.name(target)} cai Tombat.")
            else:
                fight.line(f"{fight.name(target)} é afastado 1,5 m.")
                holder = fight.x(target)["grappled_by"]
                if holder and holder != actor:
                    # «S'acaba si alguna cosa t'allunya del seu abast»
                    fight.x(target)["grappled_by"] = ""
                    _remove_condition(fight, target, "grappled")
                    fight.line(f"{fight.name(target)} sai do alcance de {fight.name(holder)}: "
                               "deixa de estar Agafat.")  # fmt: skip
    elif kind == "escape_grapple":
        holder = fight.x(actor)["grappled_by"]
        if not holder:
            raise XuletaError(NOT_GRAPPLED.format(name=name), f"{prefix}.kind")
        if _escape(fight, actor, holder, action, prefix) == "attacker":
            fight.x(actor)["grappled_by"] = ""
            _remove_condition(fight, actor, "grappled")
            fight.line(f"{name} es deslliura.")
        else:
            fight.line(f"{name} continua Agafat.")
    elif kind == "cast_spell":
        _spell_timing(fight, action, prefix, bonus=False)
        _cast(fight, actor, action, prefix)
    elif kind == "dash":
        fight.line(
            f"{name}: Córrer — movimento extra igual à velocidade (resta {budget.movement_m:g} m)."
        )
    elif kind == "disengage":
        fight.line(
            f"{name}: Desenganxar-se — o movimento não provoca ataques de oportunidade neste turno."
        )
    elif kind == "dodge":
        x["dodging"] = True
        fight.line(f"{name}: Esquivar — ataques contra ele com desvantagem (se vê quem ataca), "
                   "vantagem em salvações de Destresa, até o início do próximo turno.")  # fmt: skip
    elif kind == "help":
        target = _target(fight, actor, action, prefix)
        if _side(fight, target) == _side(fight, actor):
            fight.line(f"{name} ajuda {fight.name(target)}: vantagem na próxima prova da tarefa"
                       + (f" ({text})" if text else "") + ".")  # fmt: skip
        else:
            fight.x(target)["distracted_by"] = actor
            fight.line(f"{name} distrai {fight.name(target)}: o próximo ataque de um aliado contra "
                       "ele tem vantagem (antes do próximo turno de quem ajuda).")  # fmt: skip
    elif kind == "hide":
        dc = int(action.get("dc") or 0)
        if not dc:
            raise XuletaError(
                "Amagar-se: diga a CD (dc), a Percepção passiva de quem procura.", f"{prefix}.dc"
            )
        if _check(fight, actor, "Sigil", dc, "Amagar-se"):
            x["hidden"] = True
    elif kind == "search":
        dc = int(action.get("dc") or 0)
        skill = "Investigació" if action.get("skill") == "Investigació" else "Percepció"
        if dc:
            _check(
                fight, actor, skill, dc, "Cercar", senses=("sight",) if skill == "Percepció" else ()
            )
        else:
            fight.line(f"{name}: Cercar" + (f" — {text}" if text else "") + ".")
    elif kind == "ready":
        x["readied"] = text or "uma ação preparada"
        fight.line(f"{name} prepara: «{x['readied']}» (com a reação, quando acontecer).")
        if action.get("concentration") and action.get("spell"):
            _spend_slot(fight, actor, action, prefix)
            x["concentration"] = action["spell"]
            fight.line(
                f"Prepara um encanteri: gasta o espaço já e concentra-se em {action['spell']}."
            )
    elif kind == "stabilize":
        target = _target(fight, actor, action, prefix)
        if fight.row(target)["pv"] != 0:
            raise XuletaError(NOT_AT_ZERO.format(name=fight.name(target)), f"{prefix}.target")
        if _check(
            fight, actor, "Medicina", xdying.STABILISE_DC, f"Estabilitzar {fight.name(target)}"
        ):
            fight.x(target)["stable"] = True
            fight.x(target)["death_saves"] = {"successes": 0, "failures": 0}
            fight.line(
                f"{fight.name(target)} fica estável: inconsciente a 0 PC, sem salvações contra a morte."
            )
    elif kind == "use_object":
        fight.line(f"{name}: Fer servir un objecte" + (f" — {text}" if text else "") + ".")
        if action.get("heal"):
            target = action.get("target") or actor
            rolled = xdamage.roll_damage(_source(fight), action.get("damage") or "0",
                                         int(action.get("damage_modifier") or 0))  # fmt: skip
            fight.rolled(
                f"Cura: {rolled.text}.", actor, "damage", "Curació", rolled.faces, rolled.total
            )
            _heal(fight, target, rolled.total)
    else:
        fight.line(f"{name}: {label}" + (f" — {text}" if text else "") + ".")
    return budget


# --- the part ----------------------------------------------------------------------------------


def _set(name: str, title: str, section: str, items) -> ClosedSet:
    return closed_set(name, title, section, (Term(k, v) for k, v in items))


class XuletaCombat:
    """The combat part of the Xuleta, which plays the fight whole (``native``): the site calls
    ``begin``, ``join``, ``turn``, ``condition``, ``end`` and ``view`` over the state."""

    native = True
    action_kinds = MappingProxyType({k: (v[0], v[1]) for k, v in xactions.ACTIONS.items()})

    def closed_sets(self) -> tuple[ClosedSet, ...]:
        """The fight's closed sets, published by the API and MCP schemas: the actions, the
        conditions, cover, edges, damage types, sides, sizes, abilities, the contest's skill,
        a shove's result."""
        return (
            _set("xuleta_action", "Accions en combat", "3", xactions.ACTION_LABELS.items()),
            _set(
                "xuleta_condition", "Estats", "1", ((k, c.label) for k, c in CONDITIONS.items())
            ),  # fmt: skip
            _set("xuleta_cover", "Cobertura", "3.15", xattacks.COVER_LABELS.items()),
            _set("xuleta_edge", "Avantatge i desavantatge", "4.4", EDGE_LABELS.items()),
            _set("xuleta_damage_type", "Tipus de dany", "5.3", DAMAGE_TYPES.items()),
            _set("xuleta_side", "Lados", "", SIDE_LABELS.items()),
            _set("xuleta_size", "Mides", "3.11", xattacks.SIZE_LABELS.items()),
            _set("xuleta_ability", "Característiques", "4", ABILITY_LABELS.items()),
            _set("xuleta_skill", "Habilitats", "4.11", ((k, k) for k in SKILLS)),
            _set("xuleta_resist_with", "Agafar: resistir amb", "3.11", RESIST_WITH.items()),
            _set(
                "xuleta_shove_result", "Empènyer: resultat", "3.12", xattacks.SHOVE_RESULTS.items()
            ),  # fmt: skip
        )

    # --- numbers
    def fighter_numbers(self, data: Mapping[str, Any]) -> dict:
        """The numbers validated (``XuletaError`` naming ``numbers.<field>``)."""
        return xnumbers.validated(data)

    def numbers_from_sheet(self, sheet: Mapping[str, Any]) -> dict:
        """A character's numbers from its homologated sheet (``check_data``)."""
        return xnumbers.from_sheet(sheet)

    def fighter_pv(self, numbers: Mapping[str, Any]) -> tuple[int, int]:
        """(maximum PC, PC on entry)."""
        return numbers["max_hp"], numbers["hp"]

    # --- the fight
    def begin(
        self, state, source: RandomSource, modifiers: Mapping[str, int], tie_order=()
    ) -> Played:
        """Everyone's initiative (§2.1): a Destresa check each, one per group of identical
        monsters, highest first; ties by ``tie_order`` (names) or a re-roll among the tied."""
        fight = _start(state)
        fight.state["__source__"] = source
        keys = list(fight.state["fighters"])
        by_name = {fight.name(k): k for k in keys}
        entrants = []
        for key in keys:
            numbers = fight.numbers(key)
            reading = roll_edge(CHECK, ability=DEX, conditions=numbers["conditions"],
                                exhaustion=numbers["exhaustion"])  # fmt: skip
            entrants.append(
                xinitiative.Entrant(
                    key,
                    xnumbers.modifier(numbers, DEX) + int(modifiers.get(key, 0)),
                    f"grupo {numbers['group']}" if numbers["group"] else "",
                    reading.edge,
                )
            )
        order_names = [by_name.get(n, n) for n in tie_order]
        rolls = xinitiative.roll_initiative(entrants, source, order_names)
        fight.line("Comença el combat: iniciativa, una prova de Destresa cadascú.")
        fight.used("initiative_ties")
        first = {r.keys[0]: r for r in rolls}
        for entrant in entrants:
            roll = first.get(entrant.key)
            if roll is None:
                continue
            who = roll.group or fight.name(roll.keys[0])
            names = ", ".join(fight.name(k) for k in roll.keys)
            fight.rolled(
                f"Iniciativa de {who}{f' ({names})' if roll.group else ''}: "
                f"{'/'.join(map(str, roll.faces))} {roll.modifier:+d} = {roll.total}.",
                roll.keys[0], "initiative", f"Iniciativa ({who})", roll.faces, roll.total,
                group=roll.group,
            )  # fmt: skip
            if roll.tiebreak:
                fight.rolled(
                    f"Empate: {who} rola de novo {', '.join(map(str, roll.tiebreak))}.",
                    roll.keys[0], "initiative", f"Iniciativa, desempate ({who})",
                    roll.tiebreak, roll.tiebreak[-1],
                )  # fmt: skip
        fight.state["order"] = [
            {"fighter": k, "initiative": r.total, "faces": list(r.faces), "modifier": r.modifier,
             "group": r.group, "tiebreak": list(r.tiebreak), "from_round": 1}
            for r in rolls for k in r.keys
        ]  # fmt: skip
        tied = any(r.tiebreak for r in rolls)
        if tie_order:
            fight.line("Empates: a ordem do Mestre (tie_order).")
        elif tied:
            fight.line("Empates: «o torneu a tirar» — rolaram de novo entre si.")
        fight.line(
            "Ordem: "
            + ", ".join(
                f"{fight.name(e['fighter'])} ({e['initiative']})" for e in fight.state["order"]
            )
            + "."
        )
        surprised = [fight.name(k) for k in keys if fight.x(k)["surprised"]]
        if surprised:
            fight.line("Surpresos (o Mestre diz): " + ", ".join(surprised) + ".")
        fight.state["round"], fight.state["turn"] = 1, 0
        fight.line("Rodada 1.")
        _advance(fight)
        return _done(fight, "Comença o combate.")

    def join(self, state, key: str, source: RandomSource, modifier: int = 0) -> Played:
        """A combatant who joins: rolls its initiative and takes its place; it acts when the
        order reaches it (from the next round if its place is already past)."""
        fight = _start(state)
        fight.state["__source__"] = source
        if not fight.state.get("round"):
            raise XuletaError(NOT_STARTED, "combatant")
        numbers = fight.numbers(key)
        rolled = d20(source)
        total = rolled.kept + xnumbers.modifier(numbers, DEX) + modifier
        fight.rolled(f"Iniciativa de {fight.name(key)}: {rolled.kept} {total - rolled.kept:+d} = {total}.",
                     key, "initiative", "Iniciativa", rolled.faces, total)  # fmt: skip
        order = fight.state["order"]
        current = fight.current()["fighter"] if fight.state.get("turn") else None
        place = next((i for i, e in enumerate(order) if e["initiative"] < total), len(order))
        acting = fight.state["turn"] - 1
        from_round = fight.state["round"] + (1 if place <= acting else 0)
        order.insert(place, {"fighter": key, "initiative": total, "faces": list(rolled.faces),
                             "modifier": total - rolled.kept, "group": "", "tiebreak": [],
                             "from_round": from_round})  # fmt: skip
        if current is not None:
            fight.state["turn"] = 1 + [e["fighter"] for e in order].index(current)
        now = fight.state["round"]
        when = (
            f"age ainda nesta rodada ({now}), quando a ordem chegar a ele"
            if from_round == now
            else f"o seu lugar na ordem já passou nesta rodada: age a partir da rodada {from_round}"
        )
        return _done(fight, f"Entra no combate: {fight.name(key)} — {when}.")

    def turn(self, state, actor: str, plan, actions: Sequence[Mapping], source) -> Played:
        """``actor``'s whole turn (§2): its actions in order — movement split around the
        action, one action (Atacar's attacks, Agafar/Empènyer replacing one), a bonus action
        only when granted, one free object interaction; opportunity attacks on leaving a
        reach — then the next turn's start (death saves at 0 PC)."""
        fight = _start(state)
        fight.state["__source__"] = source
        current = fight.current()
        if current["fighter"] != actor:
            raise XuletaError(
                NOT_ITS_TURN.format(name=fight.name(actor), current=fight.name(current["fighter"])),
                "combatant",
            )
        x = fight.x(actor)
        held = fight.conditions(actor)
        now = speed(fight.numbers(actor)["speed_m"], held, x["exhaustion"])
        budget = xactions.start_turn(now, held)
        grappler = x["grappled_by"]
        if grappler and fight.x(grappler)["dead"]:
            x["grappled_by"] = ""
        fight.line(
            f"{fight.name(actor)}: velocidade {now:g} m"
            + (f" (não pode agir: {budget.why_not})" if not budget.can_act else "")
            + "."
        )
        for index, action in enumerate(actions):
            try:
                budget = _act(fight, actor, budget, action, index)
            except XuletaError as error:
                said = error.message.replace("O combatente", fight.name(actor), 1)
                raise XuletaError(said, error.field) from None
            if fight.x(actor)["dead"] or fight.row(actor)["pv"] == 0:
                break
        fight.state.pop("_turn", None)
        if not actions:
            fight.line(f"{fight.name(actor)} passa o turno.")
        x = fight.x(actor)
        x["turns_taken"] += 1
        rnd = fight.state["round"]
        _advance(fight)
        return _done(fight, f"Torn de {fight.name(actor)} (ronda {rnd}).")

    def condition(self, state, target: str, key: str, rounds=None, remove=False, source="",
                  turn_damage=None, level=None, heal=None, temp_hp=None) -> Played:  # fmt: skip
        """The Mestre applies a condition (until removed, or for ``rounds``) or removes it;
        ``key="exhaustion"`` raises the level by ``level`` (default 1) or lowers it with
        ``remove``. «Si en tens dos d'iguals, compten com un de sol.»"""
        fight = _start(state)
        fight.row(target)
        name = fight.name(target)
        if key == EXHAUSTION:
            x = fight.x(target)
            before = x["exhaustion"]
            gained = int(level or 1)
            x["exhaustion"] = (
                max(0, before - gained) if remove else exhaustion_after(before, gained)
            )
            fight.line(f"{name}: esgotament {before} → {x['exhaustion']}.")
            top = _max_hp(fight, target)
            if fight.row(target)["pv"] > top:
                _set_hp(fight, target, top)
                fight.line(f"{name}: PC máximos à metade ({top}).")
            if x["exhaustion"] >= 6:
                _die(fight, target, "esgotament 6")
            return _done(fight, f"{name}: esgotament {x['exhaustion']}.")
        if key not in CONDITIONS:
            known = ", ".join(CONDITIONS)
            raise XuletaError(UNKNOWN_CONDITION.format(key=key, known=known), "condition")
        label = CONDITIONS[key].label
        if remove:
            if not _remove_condition(fight, target, key):
                raise XuletaError(CONDITION_NOT_ON.format(name=name, label=label), "condition")
            if key == "grappled":
                fight.x(target)["grappled_by"] = ""
            fight.line(f"Removido: {label} de {name}.")
            return _done(fight, f"{name}: sem {label}.")
        _apply_condition(fight, target, key, source, rounds, "")
        return _done(fight, f"{name}: {label}.")

    def end(self, state) -> Played:
        """The fight ends; the conditions stay on the characters until something removes them
        («Duren fins que alguna cosa els treu»)."""
        fight = _start(state)
        fight.state["turn"] = 0
        fight.line("Fi del combat.")
        return _done(fight, "Fim do combate.")

    # --- the read
    def view(self, state) -> dict:
        """The order with each initiative, PC (and temporary), AC, conditions, exhaustion,
        death saves, concentration, defences, whose turn it is, and the readings used."""
        fight = _start(state)
        current = fight.state["order"][state["turn"] - 1]["fighter"] if state.get("turn") else None
        rows = []
        for entry in fight.state["order"]:
            key = entry["fighter"]
            row = fight.row(key)
            numbers = row["numbers"]
            x = fight.x(key)
            defences = [
                {"key": k, "label": label,
                 "values": [{"key": v, "label": DAMAGE_TYPES[v]} for v in numbers[k]],
                 "text": f"{label}: {', '.join(DAMAGE_TYPES[v] for v in numbers[k])}"}
                for k, label in (("resistances", "Resistència"), ("vulnerabilities", "Vulnerabilitat"),
                                 ("immunities", "Immunitat"))
                if numbers[k]
            ]  # fmt: skip
            conditions = [
                {"key": c["key"], "label": CONDITIONS[c["key"]].label, "source": c["source"],
                 # It ends as its holder's turn starts in that round (``_turn_start``).
                 "ends": f"até o início do turno de {fight.name(key)} na rodada {c['ends_round']}"
                 if c["ends_round"]
                 else "até que algo o tire"}
                for c in x["conditions"]
            ]  # fmt: skip
            if x["exhaustion"]:
                conditions.append({"key": EXHAUSTION, "label": f"Esgotament {x['exhaustion']}",
                                   "source": "", "ends": "um nível por descanso longo"})  # fmt: skip
            rows.append(
                {
                    "id": key,
                    "name": row["name"],
                    "side": numbers["side"],
                    "group": entry["group"],
                    "initiative": entry["initiative"],
                    "mobilidade": None,
                    "tiebreak": entry["tiebreak"],
                    "from_round": entry["from_round"],
                    "pv": row["pv"],
                    "pv_max": _max_hp(fight, key),
                    "temp_hp": x["temp_hp"],
                    "ac": numbers["ac"],
                    "out": row["out"] or x["dead"],
                    "acting": key == current,
                    "dead": x["dead"],
                    "stable": x["stable"],
                    "death_saves": x["death_saves"],
                    "exhaustion": x["exhaustion"],
                    "concentration": x["concentration"],
                    "reaction": x["reaction"],
                    "dodging": x["dodging"],
                    "hidden": x["hidden"],
                    "player_character": numbers["player_character"],
                    "attributes": numbers["abilities"],
                    "weapons": [a["name"] for a in numbers["attacks"]],
                    "defences": defences,
                    "conditions": conditions,
                }
            )
        readings = {r.key: r for r in all_readings()}
        return {
            "turn": {"fighter": current, "name": fight.name(current), "round": state["round"]}
            if current
            else None,
            "order": rows,
            "objects": [],
            "readings": [
                {"key": k, "question": readings[k].question, "answer": readings[k].answer}
                for k in fight.state["readings"]
                if k in readings
            ],
            "arbitro": [],
        }

    def character_states(self, state) -> dict[str, dict]:
        """Each player character's state after the call, in the sheets' state shape's keys
        (``hp_lost``, ``temp_hp``, ``exhaustion``, ``conditions``, ``death_saves``, ``stable``,
        ``dead``, ``concentration``), for the site to write back."""
        fight = _start(state)
        found = {}
        for key, row in fight.state["fighters"].items():
            if not row["numbers"]["player_character"]:
                continue
            x = fight.x(key)
            at_zero = row["pv"] == 0 and not x["dead"]
            found[key] = {
                # From the sheet's maximum, before exhaustion (as the sheets part reads it).
                "hp_lost": max(0, row["numbers"]["max_hp"] - row["pv"]),
                "temp_hp": x["temp_hp"],
                "exhaustion": x["exhaustion"],
                "conditions": [c["key"] for c in x["conditions"] if _outlasts(c, at_zero)],
                "death_saves": dict(x["death_saves"]),
                "stable": x["stable"],
                "dead": x["dead"],
                "concentration": x["concentration"],
                "slots_spent": dict(x.get("slots_spent") or {}),
            }
        return found

    def state_merged(
        self,
        stored: Mapping[str, Any],
        before: Mapping[str, Any],
        after: Mapping[str, Any],
        max_hp: int,
    ) -> dict:
        """The sheet's state after a call: what the fight changed in it during the call
        (``before`` → ``after``, both ``character_states`` rows) laid on the ``stored`` state as
        it is now — never the fight's copy over it, which would erase what a journey or a rest
        wrote meanwhile. PC lost, exhaustion and spent slots add their difference (PC within
        0…``max_hp``, exhaustion within 0…6); conditions the fight gave or took are given or
        taken; temporary PC, death saves, stable, dead and concentration are the fight's when
        it changed them."""
        merged = dict(stored)
        merged["hp_lost"] = min(
            max(0, stored.get("hp_lost", 0) + after["hp_lost"] - before["hp_lost"]), max_hp
        )
        merged["exhaustion"] = min(
            6, max(0, stored.get("exhaustion", 0) + after["exhaustion"] - before["exhaustion"])
        )
        gone = set(before["conditions"]) - set(after["conditions"])
        conditions = [c for c in stored.get("conditions", []) if c not in gone]
        merged["conditions"] = conditions + [
            c for c in after["conditions"] if c not in before["conditions"] and c not in conditions
        ]
        slots = dict(stored.get("slots_spent") or {})
        for level in set(before["slots_spent"]) | set(after["slots_spent"]):
            moved = after["slots_spent"].get(level, 0) - before["slots_spent"].get(level, 0)
            if moved:
                slots[level] = max(0, slots.get(level, 0) + moved)
        merged["slots_spent"] = {k: v for k, v in slots.items() if v}
        for name in ("temp_hp", "death_saves", "stable", "dead", "concentration"):
            if after[name] != before[name]:
                merged[name] = after[name]
        if after["dead"]:
            merged["dead"] = True
        return merged

    # --- the CombatPart protocol's GURPS-shaped questions
    def turn_order(self, combatants):
        raise XuletaError("A ordem da Xuleta vem da iniciativa rolada (begin).", "combatants")

    def actions(self) -> tuple[str, ...]:
        return tuple(xactions.ACTIONS)

    def budget(self, action: str):
        return self.action_kinds[action]

    def plan(self, attack, defence, target, *, preview: bool = False):
        raise XuletaError("A Xuleta resolve o ataque no turno (turn).", "attack")

    def act(self, source, attack, defence, target, *, rolled=None):
        raise XuletaError("A Xuleta resolve o ataque no turno (turn).", "attack")

    def start_of_turn(self, combatant, round_: int) -> tuple[str, ...]:
        return ()

    def effect_lasts(self, effect: str, since_round: int, round_: int) -> bool:
        raise XuletaError("Na Xuleta os estados duram até algo os tirar.", "effect")


def _outlasts(held: Mapping[str, Any], at_zero: bool) -> bool:
    """Whether a condition the fight holds goes to the sheet's state: not one with a duration
    the fight set (it ends in the fight's rounds), nor Agafat (a hold by a fighter, over with
    the fight), nor Tombat off 0 PC (one stands up when the fight ends); Inconscient and
    Tombat at 0 PC stay until a cure or a rest."""
    if held["ends_round"] is not None or held["key"] == "grappled":
        return False
    return held["key"] != PRONE or at_zero


def _done(fight: _Fight, text: str) -> Played:
    fight.state.pop("__source__", None)
    return fight.played(text)


COMBAT = XuletaCombat()
