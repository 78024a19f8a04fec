"""The sistema001's combat part: the chapter's fight played whole over plain JSON, each step a
call of the engine (``sistema001``). Pure Python: no Django.

The site (``sessions.native_combat``) keeps the fight and hands it here as a ``state`` dict:

- ``round`` (1, 2 …; 0 before the first), ``turn`` (the 1-based index in ``order`` of whose
  turn it is; 0 before the first);
- ``fighters``: key → ``{"name", "numbers" (numbers.FighterNumbers as JSON), "pv", "out"}``;
- ``order``: the initiative, highest first: ``{"fighter", "initiative", "mobilidade",
  "modifier", "tiebreak", "from_round"}`` (a late entrant acts from ``from_round``);
- ``effects``: the timed effects and conditions (``timing.TimedEffect`` as JSON);
- ``objects``: key → ``{"name", "size", "structure", "hardness", "nd_start", "nd",
  "broken"}``; ``wear`` (melee attacks on each object, by fighter); ``ammunition`` (left, by
  fighter and weapon); ``stealth`` (``[attacker, target]`` pairs of a sneak attack already made);
- ``readings``: the keys of the readings the fight's numbers have used so far;
- ``house`` (given by the site on every call, never kept): the campaign's decisions that name a
  house setting, oldest first, each ``{"key": house_key, "decision": "Decisão 3"}`` — the
  Árbitro's answers to the readings that refuse (``rulesets.sistema001.house``: the newest
  decision among a reading's options wins; without one the rule refuses, ``AwaitsArbitro``).

Every call returns ``Played(state, steps, text)``: the new state and the log's steps in order,
each with its die when it rolled one (``Step.roll``: kind, label, dice in the order rolled,
total), so that every die is a ``Roll`` in the chain. A rule's refusal is ``Sistema001Error``
(``AwaitsArbitro`` for one waiting on a pendência), naming the field.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dice import RandomSource
from rulesets.base import Played, Step
from rulesets.sistema001 import house
from rulesets.sistema001 import numbers as fighter_numbers
from sistema001 import (
    attacks,
    conditions,
    damage,
    initiative,
    maneuvers,
    objects,
    situations,
    timing,
    turns,
)
from sistema001.attributes import ATTRIBUTE_LABELS, attribute_bonus
from sistema001.errors import Sistema001Error
from sistema001.fighters import CONDITION_LABELS, DAMAGE_TYPE_LABELS, Fighter
from sistema001.readings import READINGS_BY_KEY
from sistema001.rolls import DieRoll

NOT_STARTED = "O combate ainda não começou."
NOT_ITS_TURN = "Não é o turno de {name}: é o de {current}."
OUT = "{name} está fora da luta."
UNKNOWN_FIGHTER = "Combatente desconhecido."
UNKNOWN_OBJECT = "Objeto desconhecido «{key}»: os do combate são {known}."
OBJECT_BROKEN = "{name} já está quebrado."
NO_PLAN_ONLY_FREE = (
    "Sem plano o turno passa: só ações livres. Escolha 1 Movimento + 1 Execução, 2 Movimentos "
    "ou 1 Ação Completa para {kind}."
)
TARGET_NEEDED = "Diga o alvo (target)."
OBJECT_NEEDED = "Diga o objeto (object)."
CONDITION_NEEDED = "Diga a condição (condition)."
SELF_TARGET = "Um combatente não ataca a si mesmo."
MANEUVER_MELEE = (
    "Manobra de combate é um ataque corpo a corpo com arma ou desarmado: «Faz um ataque corpo a "
    "corpo com arma ou ataque desarmado»."
)
NOT_A_CONDITION = "Condição desconhecida «{key}»."
TURN_DAMAGE_BOTH = "O dano por turno se dá com o valor (turn_damage) e o tipo (turn_damage_type)."
CONDITION_NOT_ON = "{name} não está {label}."

# What each action of a turn spends (the chapter's «Tipos de Ação»).
ACTION_KINDS: Mapping[str, tuple[str, str]] = {
    "ataque": ("Atacar (Ação de Execução)", turns.EXECUCAO),
    "quebrar": ("Golpear um objeto ou estrutura (Ação de Execução)", turns.EXECUCAO),
    "teste_de_forca": (
        "Teste de Força contra o ND de um objeto (Ação de Execução)",
        turns.EXECUCAO,
    ),
    "condicao": ("Impor uma condição: magia, vantagem, item (Ação de Execução)", turns.EXECUCAO),
    "movimento": ("Ação de Movimento (andar, levantar-se, sacar…)", turns.MOVIMENTO),
    "execucao": ("Outra Ação de Execução (conjurar, usar item…)", turns.EXECUCAO),
    "completa": ("Ação Completa (conjuração longa, disparada…)", turns.COMPLETA),
    "livre": ("Ação Livre (falar, soltar um item, atrasar…)", turns.LIVRE),
}

# The kinds of roll a fight writes (``Roll.kind``), in Portuguese for the log: the chapter's names.
ROLL_KINDS: Mapping[str, str] = {
    "iniciativa": "Iniciativa",
    "ataque": "Ataque",
    "defesa": "Defesa",
    "teste": "Teste",
    "camuflagem": "Camuflagem",
}


@dataclass
class _Fight:
    """The state being changed by one call, and the steps it writes."""

    state: dict
    steps: list[Step] = field(default_factory=list)

    # --- fighters
    def fighter(self, key: str) -> Fighter:
        found = self.state["fighters"].get(key)
        if found is None:
            raise Sistema001Error(UNKNOWN_FIGHTER, "fighter")
        return fighter_numbers.fighter(key, found["name"], found["numbers"], found["pv"])

    def name(self, key: str) -> str:
        return self.state["fighters"][key]["name"]

    def numbers(self, key: str) -> dict:
        return self.state["fighters"][key]["numbers"]

    def lose(self, key: str, amount: int, why: str) -> None:
        """``key`` loses ``amount`` PV (never below 0, reading ``pv_floor_zero``); at 0 it is
        out of the fight (the consequence is the Mestre's, by the scene's tone)."""
        if amount <= 0:
            return
        row = self.state["fighters"][key]
        before = row["pv"]
        row["pv"] = self.fighter(key).lose_pv(amount).pv
        self.line(f"{row['name']}: {before} → {row['pv']} PV ({why}).")
        if row["pv"] == 0 and not row["out"]:
            row["out"] = True
            self.line(
                f"{row['name']} chega a 0 PV: «Somente ao atingir 0 PV, o personagem sofre uma "
                "consequência clara» — fora da luta; a consequência (queda, inconsciência, "
                "rendição…) o Mestre narra."
            )

    # --- the log
    def line(self, text: str) -> None:
        self.steps.append(Step(text))

    def rolled(self, text: str, who: str, kind: str, label: str, dice, total: int, **details):
        self.steps.append(
            Step(
                text,
                who,
                {
                    "kind": kind,
                    "label": label,
                    "dice": list(dice),
                    "total": total,
                    "details": details,
                },
            )
        )

    def answer(self, reading: str, field: str) -> house.Answer:
        """The Árbitro's answer in force for ``reading`` (the newest of the campaign's
        decisions among its house settings); ``AwaitsArbitro`` naming ``field`` and the
        console's options when he has not answered — raised before any die is rolled."""
        found = house.answers(self.state.get("house") or ()).get(reading)
        if found is None:
            raise house.awaits(reading, field)
        return found

    def used(self, *keys: str) -> None:
        found = self.state.setdefault("readings", [])
        for key in keys:
            if key and key not in found:
                found.append(key)

    # --- effects
    def effects(self) -> list[timing.TimedEffect]:
        return [_effect(e) for e in self.state.get("effects", [])]

    def set_effects(self, effects: Sequence[timing.TimedEffect]) -> None:
        self.state["effects"] = [_effect_json(e) for e in effects]

    def conditions_on(self, key: str) -> list[timing.TimedEffect]:
        return [e for e in self.effects() if e.target == key and e.key in CONDITION_LABELS]

    # --- the order
    def current(self) -> dict:
        turn = self.state.get("turn", 0)
        if not turn:
            raise Sistema001Error(NOT_STARTED, "combatant")
        return self.state["order"][turn - 1]

    def entry(self, key: str) -> dict | None:
        return next((e for e in self.state["order"] if e["fighter"] == key), None)

    def order_keys(self) -> list[str]:
        rnd = self.state["round"]
        return [e["fighter"] for e in self.state["order"] if e["from_round"] <= rnd]

    def played(self, text: str) -> Played:
        return Played(self.state, tuple(self.steps), text)


def _effect(data: Mapping[str, Any]) -> timing.TimedEffect:
    values = dict(data)
    if values.get("damage") is not None:
        values["damage"] = tuple(values["damage"])
    return timing.TimedEffect(**values)


def _effect_json(effect: timing.TimedEffect) -> dict:
    return {
        "key": effect.key,
        "label": effect.label,
        "target": effect.target,
        "applied_round": effect.applied_round,
        "applied_initiative": effect.applied_initiative,
        "rounds": effect.rounds,
        "ends": effect.ends,
        "target_turns": effect.target_turns,
        "applied_turn_index": effect.applied_turn_index,
        "target_first_round": effect.target_first_round,
        "source": effect.source,
        "magical": effect.magical,
        "damage": list(effect.damage) if effect.damage is not None else None,
        "beyond_scene": effect.beyond_scene,
        "text": effect.text,
    }


def _start(state: Mapping[str, Any]) -> _Fight:
    fresh = copy.deepcopy(dict(state))
    fresh.setdefault("order", [])
    fresh.setdefault("effects", [])
    fresh.setdefault("objects", {})
    fresh.setdefault("wear", {})
    fresh.setdefault("ammunition", {})
    fresh.setdefault("stealth", [])
    fresh.setdefault("readings", [])
    return _Fight(fresh)


# --- initiative and the turn's start --------------------------------------------------------


def _initiative_step(fight: _Fight, roll, late: bool = False, faces=None) -> None:
    name = fight.name(roll.fighter)
    faces = list(faces) if faces is not None else [*roll.die.rolled, *roll.tiebreak]
    said = f"Iniciativa de {name}: {roll.die.text} + Mobilidade {roll.mobilidade}"
    if roll.modifiers:
        said += f" {roll.modifiers:+d}"
    said += f" = {roll.total}"
    if roll.tiebreak:
        said += f" (empate: rolou de novo {', '.join(map(str, roll.tiebreak))})"
    if late:
        said += " — Entrada Tardia: age a partir da rodada seguinte"
    fight.rolled(
        said + ".",
        roll.fighter,
        "iniciativa",
        "Iniciativa",
        faces,
        roll.total,
        faces_of_die=roll.die.faces,
        tiebreak=list(roll.tiebreak),
    )


def _order_entry(roll, from_round: int) -> dict:
    return {
        "fighter": roll.fighter,
        "initiative": roll.total,
        "mobilidade": roll.mobilidade,
        "modifier": roll.modifiers,
        "tiebreak": list(roll.tiebreak),
        "from_round": from_round,
    }


def _advance(fight: _Fight) -> None:
    """Pass to the next turn: the next in the order who is in the fight and acts this round
    (a late entrant from the round after it entered); past the last, the next round. Then the
    new turn's start."""
    state = fight.state
    order = state["order"]
    index = state["turn"]  # the next 0-based index after the current one
    for _ in range(2 * len(order) + 2):
        if index >= len(order):
            state["round"] += 1
            index = 0
            fight.line(f"Rodada {state['round']}.")
        entry = order[index]
        row = state["fighters"][entry["fighter"]]
        if not row["out"] and entry["from_round"] <= state["round"]:
            state["turn"] = index + 1
            _turn_start(fight, entry, index)
            if not row["out"]:
                return
        index += 1
    state["turn"] = 0  # nobody left to act
    fight.line("Ninguém mais pode agir: o Mestre encerra o combate.")


def _turn_index(fight: _Fight, index: int) -> int:
    """The 0-based index of the turn among this round's turns (a late entrant not yet acting
    does not count)."""
    rnd = fight.state["round"]
    return sum(1 for e in fight.state["order"][:index] if e["from_round"] <= rnd)


def _turn_start(fight: _Fight, entry: dict, index: int) -> None:
    """The start of ``entry``'s turn, before it acts: what ends now (every effect, whoever it
    is on: «termina imediatamente antes do turno que possui a mesma Iniciativa»), then what
    burns or bleeds on it (Sangrando, Incendiado, a poison)."""
    key = entry["fighter"]
    rnd = fight.state["round"]
    kept, ended = timing.active(
        fight.effects(), rnd, entry["initiative"], key, _turn_index(fight, index)
    )
    for effect in ended:  # «imediatamente antes do turno»: said before the turn begins
        fight.line(f"Termina: {effect.label} em {fight.name(effect.target)}.")
    fight.set_effects(kept)
    fight.line(f"Turno de {fight.name(key)} (Iniciativa {entry['initiative']}).")
    fighter = fight.fighter(key)
    for amount, type_ in conditions.start_of_turn_damage(fight.conditions_on(key), fighter):
        result = damage.resolve_effect([damage.DamagePart(type_, amount)], fighter)
        fight.used(*result.readings)
        for line in result.steps[:-1]:
            fight.line(line)
        fight.lose(
            key, result.total, f"início do turno: {amount} de {DAMAGE_TYPE_LABELS[type_].lower()}"
        )
        fighter = fight.fighter(key)


# --- the actions of a turn --------------------------------------------------------------------


def _context(attack_kind: str, opponent: str, **more) -> conditions.Context:
    return conditions.Context(attack_kind=attack_kind, opponent=opponent, **more)


def _attack(fight: _Fight, actor: str, action: Mapping[str, Any], source, prefix: str) -> None:
    target = action.get("target") or ""
    if not target:
        raise Sistema001Error(TARGET_NEEDED, f"{prefix}.target")
    if target == actor:
        raise Sistema001Error(SELF_TARGET, f"{prefix}.target")
    kind = action.get("attack_kind") or "corpo_a_corpo"
    maneuver = action.get("maneuver") or ""
    if maneuver:
        try:
            maneuvers.declare(maneuver, kind)
        except Sistema001Error as error:
            raise Sistema001Error(error.message, f"{prefix}.maneuver") from None
    attacker = fight.fighter(actor)
    defender = fight.fighter(target)
    names = (fight.name(actor), fight.name(target))
    weapon = fighter_numbers.weapon_named(
        action.get("weapon") or "", names[0], fight.numbers(actor), f"{prefix}.weapon"
    )
    fight.line(
        f"{names[0]} ataca {names[1]} ({attacks.ATTACK_KIND_LABELS[kind]}, {weapon.name}"
        + (f", manobra {maneuvers.MANEUVERS[maneuver].label}" if maneuver else "")
        + ")."
    )
    chosen = tuple(action.get("situations") or ())
    sneaked = [t for a, t in fight.state["stealth"] if a == actor]
    attacked = fight.state.setdefault("attacked", [])
    first = [actor, target] not in attacked
    if first:
        attacked.append([actor, target])
    # A test against an ND waits on the Árbitro (does a tie pass?): refused before any die.
    if kind == "interno":
        fight.answer(TEST_PASS, f"{prefix}.attack_kind")
    if "ataque_furtivo" in chosen:
        fight.answer(TEST_PASS, f"{prefix}.situations")
    # Situations first (Cobertura Total refuses a direct attack), then a camouflage's 1d10
    # before the attack, then the sneak attack's test.
    situation = situations.attack_modifiers(chosen, kind)
    fight.used(*situation.readings)
    if situation.concealment:
        check = situations.concealment_check(situation.concealment, source)
        label = situations.SITUATIONS[situation.concealment].label
        fight.rolled(check.text, actor, "camuflagem", f"1d10 ({label})", [check.face], check.face)
        if check.fails:
            return
    if "ataque_furtivo" in chosen:
        answer = fight.answer(TEST_PASS, f"{prefix}.situations")
        try:
            sneak = situations.roll_sneak_attack(
                attacker, defender, source, answer.value, already_sneaked=sneaked
            )
        except Sistema001Error as error:
            raise Sistema001Error(
                error.message, f"{prefix}.{error.field or 'situations'}"
            ) from None
        fight.rolled(
            f"{sneak.text} {answer.text}",
            actor,
            "teste",
            "Teste de Mobilidade (Ataque Furtivo)",
            sneak.test.die.rolled,
            sneak.test.total,
            nd=sneak.nd,
            comparison=answer.value,
            house_key=answer.setting.key,
        )
        fight.state["stealth"].append([actor, target])
        if sneak.condition:
            _put_condition(fight, target, sneak.condition, None, source=actor)
    for line in situation.lines:
        fight.line(line)
    if kind == "interno":
        _internal(fight, actor, target, action, source, prefix)
        return
    # The attacker's modifiers: conditions, situations, ranged penalties, the Mestre's.
    attack_mods = conditions.modifiers(
        attacker, fight.conditions_on(actor), conditions.ATAQUE, _context(kind, target)
    )
    ranged = attacks.ranged_modifier(kind, action.get("ranged_penalties") or ())
    given = int(action.get("modifiers") or 0) + _distracted(fight, actor, target)
    for line in (*attack_mods.lines, *ranged.lines):
        fight.line(line)
    fight.used(*ranged.readings)
    edges = [attack_mods.edge, action.get("edge") or None]
    attack_total_mods = attack_mods.total + situation.attack + ranged.total + given
    rolled = attacks.roll_attack(
        attacker,
        kind,
        source,
        attack_total_mods,
        _edge(edges),
        attribute=action.get("attribute") or None,
    )
    fight.used(*rolled.readings)
    fight.rolled(
        " ".join(rolled.lines),
        actor,
        "ataque",
        f"Ataque ({attacks.ATTACK_KIND_LABELS[kind]})",
        rolled.die.rolled,
        rolled.total,
        critical=rolled.critical or "",
        target=target,
    )
    # The defence, rolled by the server: its conditions, the cover, the sneak attack.
    defence_mods = conditions.modifiers(
        defender,
        fight.conditions_on(target),
        conditions.DEFESA,
        _context(kind, actor, first_attack=first),
    )
    for line in defence_mods.lines:
        fight.line(line)
    defence_total_mods = (
        defence_mods.total
        + situation.defence
        + int(action.get("defence_modifiers") or 0)
        + _distracted(fight, target, actor)
    )
    defence = attacks.roll_defence(defender, source, defence_total_mods, defence_mods.edge)
    fight.rolled(
        " ".join(defence.lines), target, "defesa", "Defesa", defence.die.rolled, defence.total
    )
    result = attacks.outcome(rolled.total, defence.total)
    margin = attacks.margin(rolled.total, defence.total)
    fight.line(
        f"Ataque {rolled.total} contra Defesa {defence.total}: {damage.OUTCOME_LABELS[result]}."
    )
    if maneuver:
        _maneuver(fight, actor, target, maneuver, result, margin, rolled, weapon, action, prefix)
        return
    _damage(fight, actor, target, action, kind, result, rolled, weapon, prefix)


TEST_PASS = "test_pass_comparison"
INTERNAL_NEEDS_ND = (
    "Ataque Interno: diga o ND do teste de resistência (nd), o da descrição da vantagem ou magia."
)
INTERNAL_NEEDS_ATTRIBUTE = (
    "Ataque Interno: diga o atributo com que o alvo resiste (resisted_with): resistencia (veneno, "
    "doença, exaustão, paralisia) ou espirito (medo, ilusão, confusão, possessão)."
)
INTERNAL_NO_EFFECT = (
    "Ataque Interno sem efeito: diga o dano (damage) ou a condição (condition) que a descrição "
    "da vantagem ou magia dá a quem falha no teste."
)


def _internal(fight: _Fight, actor: str, target: str, action, source, prefix: str) -> None:
    """«Ataque Interno: O alvo faz um teste de resistência, com ND e efeito de acordo com a
    descrição da vantagem ou magia.» No attack roll and no Defesa: the target rolls the
    attribute the description names (``resisted_with``: Resistência or Espírito) against its
    ``nd``, with the Árbitro's answer to whether a tie passes. Failing, it suffers the
    description's effect as the Mestre gives it — ``damage`` (each type resisted as the chapter
    says) and/or ``condition`` (for ``rounds``, or the chapter's default); passing, it resists
    and nothing happens (a partial effect the description gives on a pass is the Mestre's, with
    fight_condition)."""
    nd = action.get("nd")
    if nd is None:
        raise Sistema001Error(INTERNAL_NEEDS_ND, f"{prefix}.nd")
    attribute = action.get("resisted_with") or ""
    if not attribute:
        raise Sistema001Error(INTERNAL_NEEDS_ATTRIBUTE, f"{prefix}.resisted_with")
    given = action.get("damage") or []
    condition = action.get("condition") or ""
    if not given and not condition:
        raise Sistema001Error(INTERNAL_NO_EFFECT, f"{prefix}.damage")
    if condition and condition not in CONDITION_LABELS:
        raise Sistema001Error(NOT_A_CONDITION.format(key=condition), f"{prefix}.condition")
    answer = fight.answer(TEST_PASS, f"{prefix}.attack_kind")
    defender = fight.fighter(target)
    held = fight.conditions_on(target)
    test_mods = conditions.modifiers(
        defender, held, conditions.TESTE, _context("interno", actor, attribute=attribute)
    )
    for line in test_mods.lines:
        fight.line(line)
    try:
        resisted = attacks.roll_internal_resistance(
            defender,
            attribute,
            nd,
            source,
            answer.value,
            modifiers=test_mods.total + int(action.get("defence_modifiers") or 0),
            edge=test_mods.edge,
        )
    except Sistema001Error as error:
        field = {"attribute": "resisted_with"}.get(error.field, error.field)
        raise Sistema001Error(error.message, f"{prefix}.{field}") from None
    fight.used("test_formula")
    label = ATTRIBUTE_LABELS[attribute]
    test = resisted.test
    verdict = "resiste: sem efeito" if resisted.resisted else "falha: sofre o efeito"
    fight.rolled(
        f"Ataque Interno de {fight.name(actor)}: {fight.name(target)} faz o teste de resistência "
        f"de {label}: {test.die.text} + {label} {test.attribute_value} {test.modifiers:+d} = "
        f"{test.total} contra ND {nd} — {verdict}. {answer.text}",
        target,
        "teste",
        f"Teste de {label} (Ataque Interno)",
        resisted.test.die.rolled,
        resisted.test.total,
        nd=nd,
        comparison=answer.value,
        house_key=answer.setting.key,
        resisted=resisted.resisted,
    )
    if resisted.resisted:
        return
    if given:
        parts = [damage.DamagePart(p["type"], p["amount"], p.get("magical", False)) for p in given]
        done = damage.resolve(
            parts,
            defender,
            outcome=attacks.ACERTO,
            critical=False,
            reduction=fight.numbers(target).get("damage_reduction", 0),
        )
        fight.used(*done.readings)
        for line in done.steps:
            fight.line(line)
        fight.lose(target, done.total, f"Ataque Interno de {fight.name(actor)}")
    if condition:
        _put_condition(fight, target, condition, action.get("rounds"), source=actor)


def _edge(edges) -> str | None:
    from sistema001.rolls import combine_edges

    return combine_edges(edges)


def _damage(fight, actor, target, action, kind, result, rolled, weapon, prefix) -> None:
    defender = fight.fighter(target)
    given = action.get("damage") or []
    forca = fight.numbers(actor)["attributes"]["forca"]
    grappling = any(
        e.key == "contido" and e.target == target and e.source == actor for e in fight.effects()
    )
    said = ""
    if given:
        parts = [damage.DamagePart(p["type"], p["amount"], p.get("magical", False)) for p in given]
        said = "Dano dado pelo Mestre: " + " + ".join(
            f"{p.amount} de {DAMAGE_TYPE_LABELS[p.type].lower()}" for p in parts
        )
    elif grappling:
        amount = maneuvers.grapple_damage(forca)
        parts = [damage.DamagePart("contusao", amount)]
        fight.line(f"Agarrando: sem o dano da arma, dano mínimo 1 + Bônus de Força = {amount}.")
    else:
        parts = list(damage.weapon_parts(weapon, forca))
        said = f"Dano de {weapon.name}: {damage.weapon_damage_formula(weapon, forca)}"
    area_defended = kind == "area" and result != attacks.ACERTO
    resolved = damage.resolve(
        parts,
        defender,
        outcome=attacks.ACERTO if kind == "area" else result,
        critical=rolled.doubles_damage,
        area_defended=area_defended,
        reduction=fight.numbers(target).get("damage_reduction", 0),
    )
    fight.used(*resolved.readings)
    if result == attacks.FALHA and kind != "area":
        fight.line(resolved.steps[0])
        return
    if said and (result == attacks.ACERTO or kind == "area"):
        fight.line(said + ".")  # what the resolution's steps start from
    for line in resolved.steps:
        fight.line(line)
    fight.lose(target, resolved.total, f"ataque de {fight.name(actor)}")


def _maneuver(fight, actor, target, key, result, margin, rolled, weapon, action, prefix):
    """«Se o ataque acertar, o dano é substituído pelo efeito da manobra»; the effect «dura até o
    início do próximo turno do alvo»."""
    done = maneuvers.resolve(
        key, result, margin, rolled.critical == attacks.CRITICAL_HIGH, attack_total=rolled.total
    )
    fight.used(*done.readings)
    fight.line(done.text)
    label = maneuvers.MANEUVERS[key].label
    if done.condition:
        _put_condition(
            fight,
            target,
            done.condition,
            None,
            source=actor,
            target_turns=done.target_turns,
            label=f"{CONDITION_LABELS[done.condition]} ({label})",
        )
    if done.penalty:
        _put_effect(
            fight,
            timing.until_target_turn(
                DISTRACTED,
                f"Distraído ({done.penalty})",
                target,
                round_=fight.state["round"],
                initiative=fight.current()["initiative"],
                turn_index=_turn_index(fight, fight.state["turn"] - 1),
                target_turns=done.target_turns,
                order=fight.order_keys(),
                source=actor,
                text=str(done.penalty),
            ),
        )
    if done.succeeded and not done.replaces_damage:
        _damage(fight, actor, target, action, "corpo_a_corpo", result, rolled, weapon, prefix)


DISTRACTED = "distrair"


def _put_effect(fight: _Fight, effect: timing.TimedEffect) -> None:
    fight.set_effects(conditions.apply(fight.effects(), effect))
    fight.line(f"{fight.name(effect.target)}: {effect.label}, {_ends_text(fight, effect)}.")


def _distracted(fight: _Fight, who: str, opponent: str) -> int:
    """Distrair: «sofre -1 em seu próximo teste de ataque ou defesa contra um atacante
    diferente» — the penalty of ``who``'s distraction when ``opponent`` is not the distractor,
    spent by this roll."""
    for effect in fight.effects():
        if effect.key == DISTRACTED and effect.target == who and effect.source != opponent:
            fight.set_effects([e for e in fight.effects() if e != effect])
            fight.line(f"{fight.name(who)} está distraído: {effect.text} nesta rolagem.")
            return int(effect.text)
    return 0


def _put_condition(
    fight: _Fight,
    target: str,
    key: str,
    rounds: int | None,
    *,
    source: str = "",
    target_turns: int = timing.CONDITION_DEFAULT_TARGET_TURNS,
    label: str = "",
    damage_per_turn: tuple[int, str] | None = None,
) -> bool:
    """Apply condition ``key`` to ``target`` in the current turn: for ``rounds`` rounds (its
    origin's duration) or until the start of the target's ``target_turns``-th turn. False (and
    nothing applied, the log saying «imune») when the engine says the condition is nullified
    on the target (``conditions.nullified``: immunity to it, or a mundane condition on a
    creature immune to mundane effects)."""
    if key not in CONDITION_LABELS:
        raise Sistema001Error(NOT_A_CONDITION.format(key=key), "condition")
    conditions.condition(key)
    entry = fight.current() if fight.state.get("turn") else None
    rnd = fight.state["round"]
    initiative = entry["initiative"] if entry else 0
    index = _turn_index(fight, fight.state["turn"] - 1) if entry else 0
    extra = {"source": source}
    if damage_per_turn is not None:
        extra["damage"] = damage_per_turn
    label = label or CONDITION_LABELS[key]
    if rounds:
        effect = timing.for_rounds(
            key, label, target, round_=rnd, initiative=initiative, rounds=rounds,
            turn_index=index, **extra,
        )  # fmt: skip
    else:
        effect = timing.until_target_turn(
            key,
            label,
            target,
            round_=rnd,
            initiative=initiative,
            turn_index=index,
            target_turns=target_turns,
            order=fight.order_keys(),
            **extra,
        )
    why = conditions.nullified(fight.fighter(target), effect)
    if why:
        # «Imunidade a uma condição anula completamente seus efeitos mecânicos»: the engine
        # says so; nothing is kept, so nothing reads as in force.
        fight.line(f"{fight.name(target)} é imune — {why}")
        return False
    fight.set_effects(conditions.apply(fight.effects(), effect))
    fight.line(f"{fight.name(target)} fica {label}: {_ends_text(fight, effect)}.")
    return True


def _object(fight: _Fight, key: str, prefix: str) -> dict:
    found = fight.state["objects"].get(key)
    if found is None:
        known = ", ".join(sorted(fight.state["objects"])) or "nenhum"
        raise Sistema001Error(UNKNOWN_OBJECT.format(key=key, known=known), f"{prefix}.object")
    if found["broken"]:
        raise Sistema001Error(OBJECT_BROKEN.format(name=found["name"]), f"{prefix}.object")
    return found


def _strike(fight: _Fight, actor: str, action: Mapping[str, Any], prefix: str) -> None:
    """A blow on an object: its final damage against the structure's minimum (ND ÷ 5), the ND
    reduced, the melee attacker's wear beyond its Resistência, the ranged one's ammunition."""
    key = action.get("object") or ""
    if not key:
        raise Sistema001Error(OBJECT_NEEDED, f"{prefix}.object")
    thing = _object(fight, key, prefix)
    objects.check_target(False)
    weapon = fighter_numbers.weapon_named(
        action.get("weapon") or "", fight.name(actor), fight.numbers(actor), f"{prefix}.weapon"
    )
    numbers = fight.numbers(actor)
    dealt = damage.weapon_damage(weapon, numbers["attributes"]["forca"])
    formula = damage.weapon_damage_formula(weapon, numbers["attributes"]["forca"])
    ranged = weapon.kind in ("disparo", "arremesso")
    if ranged:
        left = fight.state["ammunition"].setdefault(actor, {})
        stock = next(
            (w.get("ammunition") for w in numbers["weapons"] if w["name"] == weapon.name), None
        )
        if stock is not None:
            now = objects.spend_ammunition(left.get(weapon.name, stock))
            left[weapon.name] = now
            fight.line(f"Munição de {weapon.name}: resta {now} (destruída no impacto).")
    minimum = objects.minimum_damage(thing["nd"])
    before = thing["nd"]
    thing["nd"] = objects.strike(thing["nd"], dealt)
    if objects.dissipated(before, dealt):
        fight.line(
            f"{fight.name(actor)} golpeia {thing['name']} com {weapon.name}: {formula} de dano, "
            f"abaixo do mínimo {minimum} (ND {before} ÷ 5) — totalmente dissipado."
        )
    else:
        fight.line(
            f"{fight.name(actor)} golpeia {thing['name']} com {weapon.name}: {formula} de dano "
            f"(mínimo {minimum}): ND Estrutural {before} → {thing['nd']}."
        )
    if objects.collapsed(thing["nd"]):
        thing["broken"] = True
        fight.used("object_collapse_at_zero")
        fight.line(f"{thing['name']} colapsa: quebrado.")
    if not ranged:
        count = fight.state["wear"].setdefault(actor, {})
        count[key] = count.get(key, 0) + 1
        resistencia = numbers["attributes"]["resistencia"]
        lost = objects.wear(count[key], resistencia)
        if lost:
            fight.line(
                f"Ataque nº {count[key]} contra a estrutura, além da Resistência {resistencia}: "
                f"desgaste de {lost} PV."
            )
            fight.lose(actor, lost, "desgaste")
            if objects.must_stop(fight.state["fighters"][actor]["pv"]):
                fight.line(f"{fight.name(actor)} interrompe a tentativa de destruição (0 PV).")


def _strength_test(fight: _Fight, actor: str, action, source, prefix: str) -> None:
    """«Superando o ND Estrutural em um Teste de Força»."""
    from sistema001.rolls import roll_check

    key = action.get("object") or ""
    if not key:
        raise Sistema001Error(OBJECT_NEEDED, f"{prefix}.object")
    thing = _object(fight, key, prefix)
    fighter = fight.fighter(actor)
    test = roll_check(
        "forca",
        fighter.die("forca"),
        fighter.attribute("forca"),
        source,
        int(action.get("modifiers") or 0),
        action.get("edge") or None,
    )
    fight.used("test_formula")
    broke = objects.strength_test_breaks(test.total, thing["nd"])
    fight.rolled(
        f"Teste de Força de {fight.name(actor)}: {test.die.text} + Força {test.attribute_value}"
        f" {test.modifiers:+d} = {test.total} contra ND {thing['nd']}: "
        + ("supera — quebra." if broke else "não supera."),
        actor,
        "teste",
        f"Teste de Força contra {thing['name']}",
        test.die.rolled,
        test.total,
        nd=thing["nd"],
    )
    if broke:
        thing["broken"] = True
        fight.line(f"{thing['name']} quebra.")


# --- the part -----------------------------------------------------------------------------------


class Sistema001Combat:
    """The combat part (``rulesets.base.CombatPart``) of the sistema001, which plays the fight
    whole (``native``): the site calls ``begin``, ``join``, ``turn``, ``condition``,
    ``object_add``, ``end`` and ``view`` over the state (this module's docstring)."""

    native = True
    action_kinds = ACTION_KINDS

    # --- numbers
    def fighter_numbers(self, data: Mapping[str, Any]) -> dict:
        """The Mestre's numbers for a combatant, validated (``Sistema001Error`` naming the
        field); plain JSON for ``Combatant.data``."""
        return fighter_numbers.validated(data)

    def fighter_pv(self, numbers: Mapping[str, Any]) -> tuple[int, int]:
        """(PV máximos, PV on entry) of validated numbers."""
        return numbers["pv_max"], numbers["pv"]

    # --- the fight
    def begin(self, state, source: RandomSource, modifiers: Mapping[str, int]) -> Played:
        """Everyone's Iniciativa («Dado de Mobilidade + Mobilidade + Modificadores»), the order
        (ties: higher Mobilidade, then a re-roll among the tied only), round 1, the first turn."""
        fight = _start(state)
        fighters = [fight.fighter(key) for key in fight.state["fighters"]]
        rolls = initiative.initiative_order(fighters, source, dict(modifiers))
        fight.line("Começa o combate: Iniciativa de todos.")
        by_fighter = {roll.fighter: roll for roll in rolls}
        for fighter in fighters:  # in the order rolled
            _initiative_step(fight, by_fighter[fighter.key])
        fight.state["order"] = [_order_entry(roll, 1) for roll in rolls]
        fight.line(
            "Ordem da rodada: "
            + ", ".join(f"{fight.name(r.fighter)} ({r.total})" for r in rolls)
            + "."
        )
        fight.state["round"], fight.state["turn"] = 1, 0
        fight.line("Rodada 1.")
        _advance(fight)
        return fight.played("Começa o combate.")

    def join(self, state, key: str, source: RandomSource, modifier: int = 0) -> Played:
        """Entrada Tardia: «Rola Iniciativa normalmente, mas só passa a agir a partir da rodada
        seguinte.»"""
        fight = _start(state)
        if not fight.state.get("round"):
            raise Sistema001Error(NOT_STARTED, "combatant")
        others = {e["fighter"]: fight.fighter(e["fighter"]) for e in fight.state["order"]}
        entered = initiative.late_entry(
            [_entry_roll(e, others) for e in fight.state["order"]],
            fight.fighter(key),
            fight.state["round"],
            source,
            modifier,
            others,
        )
        rolled, order = entered.roll, entered.order
        _initiative_step(fight, rolled, late=True, faces=entered.faces)
        rounds = {e["fighter"]: e["from_round"] for e in fight.state["order"]}
        rounds[key] = entered.first_round
        current = fight.current()["fighter"] if fight.state.get("turn") else None
        fight.state["order"] = [_order_entry(r, rounds[r.fighter]) for r in order]
        if current is not None:
            fight.state["turn"] = 1 + [e["fighter"] for e in fight.state["order"]].index(current)
        fight.used("late_entry_acts_next_round")
        return fight.played(f"Entrada Tardia: {fight.name(key)}.")

    def turn(
        self, state, actor: str, plan: str | None, actions: Sequence[Mapping], source
    ) -> Played:
        """``actor``'s whole turn: the plan checked against its conditions (Contido, Paralisado,
        Atordoado…), each action resolved, then the next turn's start."""
        fight = _start(state)
        current = fight.current()
        if current["fighter"] != actor:
            raise Sistema001Error(
                NOT_ITS_TURN.format(name=fight.name(actor), current=fight.name(current["fighter"])),
                "combatant",
            )
        held = conditions.active_keys(fight.fighter(actor), fight.conditions_on(actor))
        kinds = [ACTION_KINDS[a["kind"]][1] for a in actions]
        if plan:
            checked = turns.check_turn(plan, held, kinds)
            fight.line(f"{fight.name(actor)}: {turns.TURN_PLANS[plan].label}.")
            for line in checked.lines:
                fight.line(line)
        else:
            spent = [a["kind"] for a in actions if ACTION_KINDS[a["kind"]][1] != turns.LIVRE]
            if spent:
                raise Sistema001Error(
                    NO_PLAN_ONLY_FREE.format(kind=ACTION_KINDS[spent[0]][0].lower()), "plan"
                )
            fight.line(f"{fight.name(actor)} passa o turno.")
        for index, action in enumerate(actions):
            prefix = f"actions.{index}"
            kind = action["kind"]
            if kind == "ataque":
                _attack(fight, actor, action, source, prefix)
            elif kind == "quebrar":
                _strike(fight, actor, action, prefix)
            elif kind == "teste_de_forca":
                _strength_test(fight, actor, action, source, prefix)
            elif kind == "condicao":
                _condition_action(fight, actor, action, prefix)
            else:
                text = (action.get("text") or "").strip()
                fight.line(f"{ACTION_KINDS[kind][0]}" + (f": {text}" if text else "") + ".")
        _advance(fight)
        return fight.played(f"Turno de {fight.name(actor)} (rodada {current_round(state)}).")

    def condition(
        self,
        state,
        target: str,
        key: str,
        rounds: int | None,
        remove: bool,
        source: str = "",
        turn_damage: tuple | None = None,
    ) -> Played:
        """The Mestre applies condition ``key`` (its origin's ``rounds``, or the chapter's
        default: «até o início do segundo turno consecutivo do alvo») or removes it."""
        fight = _start(state)
        fight.fighter(target)
        if key not in CONDITION_LABELS:
            raise Sistema001Error(NOT_A_CONDITION.format(key=key), "condition")
        if remove:
            kept = [e for e in fight.effects() if not (e.target == target and e.key == key)]
            if len(kept) == len(fight.effects()):
                raise Sistema001Error(
                    CONDITION_NOT_ON.format(name=fight.name(target), label=CONDITION_LABELS[key]),
                    "condition",
                )
            fight.set_effects(kept)
            fight.line(f"Removida: {CONDITION_LABELS[key]} de {fight.name(target)}.")
            return fight.played(f"{fight.name(target)}: sem {CONDITION_LABELS[key]}.")
        if not fight.state.get("turn"):
            raise Sistema001Error(NOT_STARTED, "target")
        if turn_damage is not None:
            amount, type_ = turn_damage
            if amount is None or not type_:
                raise Sistema001Error(TURN_DAMAGE_BOTH, "turn_damage")
            turn_damage = (amount, type_)
        if not _put_condition(
            fight, target, key, rounds, source=source, damage_per_turn=turn_damage
        ):
            return fight.played(
                f"{fight.name(target)}: imune a {CONDITION_LABELS[key]}, sem efeito."
            )
        return fight.played(f"{fight.name(target)}: {CONDITION_LABELS[key]}.")

    def object_add(self, state, spec: Mapping[str, Any]) -> Played:
        """An object or structure in the fight: «ND Estrutural = (Tamanho + Estrutura) ×
        Dureza»."""
        fight = _start(state)
        name = " ".join(str(spec.get("name") or "").split())
        size = spec.get("size_value") if spec.get("size_value") is not None else spec["size"]
        structure = (
            spec.get("structure_value")
            if spec.get("structure_value") is not None
            else spec["structure"]
        )
        if isinstance(size, int):
            objects.size_value(spec["size"], size)
        if isinstance(structure, int):
            objects.structure_value(spec["structure"], structure)
        nd = objects.structural_nd(
            size, structure, spec["hardness"], adjustment=int(spec.get("adjustment") or 0)
        )
        key = f"objeto-{len(fight.state['objects']) + 1}"
        fight.state["objects"][key] = {
            "name": name,
            "size": spec["size"],
            "structure": spec["structure"],
            "hardness": spec["hardness"],
            "nd_start": nd,
            "nd": nd,
            "broken": False,
        }
        fight.used("object_half_hardness_rounding")
        fight.line(
            f"{name} ({key}): ND Estrutural = ({objects.SIZE[spec['size']].label} + "
            f"{objects.STRUCTURE[spec['structure']].label}) × "
            f"{objects.HARDNESS[spec['hardness']].label} = {nd}; dano mínimo "
            f"{objects.minimum_damage(nd)}."
        )
        return fight.played(f"Objeto no combate: {name} ({key}), ND {nd}.")

    def end(self, state) -> Played:
        """«Toda condição termina automaticamente ao final da cena ou combate»."""
        fight = _start(state)
        ended = [e for e in fight.effects() if e not in timing.end_of_scene(fight.effects())]
        for effect in ended:
            fight.line(f"Termina com o combate: {effect.label} em {fight.name(effect.target)}.")
        fight.set_effects(timing.end_of_scene(fight.effects()))
        fight.state["turn"] = 0
        return fight.played("Fim do combate.")

    # --- the read
    def view(self, state) -> dict:
        """The order with each Iniciativa, PV, conditions (with when each ends), the objects,
        whose turn it is, the readings the fight has used and (``arbitro``) each rule waiting
        on the Árbitro with the answer in force or that it still awaits him
        (``rulesets.sistema001.house.status``)."""
        fight = _start(state)
        current = fight.state["order"][state["turn"] - 1]["fighter"] if state.get("turn") else None
        rows = []
        for entry in fight.state["order"]:
            key = entry["fighter"]
            row = fight.state["fighters"][key]
            numbers = row["numbers"]
            fighter = fight.fighter(key)
            rows.append(
                {
                    "id": key,
                    "name": row["name"],
                    "side": numbers["side"],
                    "initiative": entry["initiative"],
                    "mobilidade": entry["mobilidade"],
                    "tiebreak": entry["tiebreak"],
                    "from_round": entry["from_round"],
                    "pv": row["pv"],
                    "pv_max": numbers["pv_max"],
                    "out": row["out"],
                    "acting": key == current,
                    "attributes": numbers["attributes"],
                    "dice": numbers["dice"],
                    "weapons": [w["name"] for w in numbers["weapons"]],
                    "defences": _defences(numbers),
                    "conditions": [
                        {
                            "key": e.key,
                            "label": e.label,
                            "source": e.source,
                            "ends": _ends_text(fight, e),
                        }
                        for e in fight.effects()
                        if e.target == key
                        and not (e.key in CONDITION_LABELS and conditions.nullified(fighter, e))
                    ],
                }
            )
        objects_out = [
            {"key": key, **thing, "minimum": objects.minimum_damage(thing["nd"])}
            for key, thing in fight.state["objects"].items()
        ]
        readings = [
            {
                "key": key,
                "question": READINGS_BY_KEY[key].question,
                "answer": READINGS_BY_KEY[key].answer,
            }
            for key in fight.state["readings"]
            if key in READINGS_BY_KEY
        ]
        turn = (
            {"fighter": current, "name": fight.name(current), "round": state["round"]}
            if current
            else None
        )
        return {
            "turn": turn,
            "order": rows,
            "objects": objects_out,
            "readings": readings,
            "arbitro": house.status(state.get("house") or ()),
        }

    # --- the CombatPart protocol's GURPS-shaped questions, answered for this system
    def turn_order(self, combatants):
        raise Sistema001Error(
            "A ordem do Sistema 001 vem da Iniciativa rolada (begin).", "combatants"
        )

    def actions(self) -> tuple[str, ...]:
        return tuple(ACTION_KINDS)

    def budget(self, action: str):
        return ACTION_KINDS[action]

    def plan(self, attack, defence, target, *, preview: bool = False):
        raise Sistema001Error("O Sistema 001 resolve o ataque no turno (turn).", "attack")

    def act(self, source, attack, defence, target, *, rolled=None):
        raise Sistema001Error("O Sistema 001 resolve o ataque no turno (turn).", "attack")

    def start_of_turn(self, combatant, round_: int) -> tuple[str, ...]:
        return ()

    def effect_lasts(self, effect: str, since_round: int, round_: int) -> bool:
        raise Sistema001Error(
            "No Sistema 001 a duração depende da Iniciativa (timing.expired).", "effect"
        )


def current_round(state: Mapping[str, Any]) -> int:
    return state.get("round", 0)


def _entry_roll(entry: Mapping[str, Any], others: Mapping[str, Fighter]):
    """An order entry as the engine's ``InitiativeRoll`` (its total and Mobilidade place it)."""
    faces = others[entry["fighter"]].die("mobilidade")
    return initiative.InitiativeRoll(
        entry["fighter"],
        DieRoll(faces, max(1, min(faces, entry["initiative"] - entry["mobilidade"]))),
        entry["mobilidade"],
        entry["modifier"],
        entry["initiative"],
        tuple(entry["tiebreak"]),
    )


def _condition_action(fight: _Fight, actor: str, action, prefix: str) -> None:
    target = action.get("target") or ""
    key = action.get("condition") or ""
    if not target:
        raise Sistema001Error(TARGET_NEEDED, f"{prefix}.target")
    if not key:
        raise Sistema001Error(CONDITION_NEEDED, f"{prefix}.condition")
    text = (action.get("text") or "").strip()
    if text:
        fight.line(f"{fight.name(actor)}: {text}.")
    _put_condition(fight, target, key, action.get("rounds"), source=actor)


# What a fighter resists, is vulnerable or immune to, in the read («Interação com Condições»,
# «Resistência / Vulnerabilidade / Imunidade ao tipo de dano»): (numbers' key, its words, labels).
DEFENCES: tuple[tuple[str, str, Mapping[str, str]], ...] = (
    ("resistances", "Resistente a (dano)", DAMAGE_TYPE_LABELS),
    ("vulnerabilities", "Vulnerável a (dano)", DAMAGE_TYPE_LABELS),
    ("immunities", "Imune a (dano)", DAMAGE_TYPE_LABELS),
    ("condition_resistances", "Resistente às condições", CONDITION_LABELS),
    ("condition_vulnerabilities", "Vulnerável às condições", CONDITION_LABELS),
    ("condition_immunities", "Imune às condições", CONDITION_LABELS),
)


def _defences(numbers: Mapping[str, Any]) -> list[dict]:
    """The fighter's resistances, vulnerabilities and immunities (damage types and conditions),
    immunity to mundane effects and damage reduction, as the Mestre gave them: each ``{"key",
    "label", "values": [{"key", "label"}], "text"}`` (only those it has), the labels the
    engine's (with their accents)."""
    found = []
    for key, label, labels in DEFENCES:
        values = [{"key": v, "label": labels[v]} for v in numbers.get(key) or ()]
        if values:
            text = f"{label}: {', '.join(v['label'] for v in values)}"
            found.append({"key": key, "label": label, "values": values, "text": text})
    if numbers.get("mundane_immune"):
        text = "Imune a efeitos mundanos (sofre os mágicos)"
        found.append({"key": "mundane_immune", "label": text, "values": [], "text": text})
    if numbers.get("damage_reduction"):
        text = f"Redução de dano {numbers['damage_reduction']}"
        found.append({"key": "damage_reduction", "label": "Redução de dano", "values": [],
                      "text": text, "value": numbers["damage_reduction"]})  # fmt: skip
    return found


def _ends_text(fight: _Fight, effect: timing.TimedEffect) -> str:
    """When ``effect`` ends, in Portuguese."""
    if effect.ends == timing.MESMA_INICIATIVA:
        return (
            f"termina imediatamente antes do turno de Iniciativa {effect.applied_initiative} "
            f"da rodada {timing.end_round(effect)}"
        )
    target = fight.entry(effect.target)
    name = fight.name(effect.target)
    if target is None:
        return f"até o início do {effect.target_turns}º turno de {name}"
    index = fight.state["order"].index(target)
    first = timing.first_target_round(effect, target["initiative"], _turn_index(fight, index))
    last = first + effect.target_turns - 1
    return f"até o início do turno de {name} na rodada {last}"


COMBAT = Sistema001Combat()
ATTRIBUTES = ATTRIBUTE_LABELS
BONUS = attribute_bonus
