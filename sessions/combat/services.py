"""The combat tracker: a whole fight in a scene, every die in the scene log (canon §4, §5).

The Mestre (or the Árbitro) declares and decides; ``gurps`` does the arithmetic. A fight is a
``Combat`` with its ``Combatant``s and its ``CombatEvent``s (what is not a die); every die the
engine rolls becomes a ``Roll`` of the scene, appended to the campaign's chain in order, inside
one transaction under the campaign's lock, with ``details`` naming the combat, the round, the
turn and the row of the §4.10 table it belongs to. Nothing half-saved: if anything fails, no
roll and no state change.

The dice come from ``sessions.services._system_random`` (tests script it), wrapped in a
``RecordingSource`` that checks that every die drawn is in a step of the log.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from garganta_site.errors import ServiceError
from gurps import checks, damage, defence, injury, tables
from gurps import combat as engine
from gurps import fatigue as fatigue_rules
from gurps.attributes import is_staggered
from gurps.attributes import will as will_of
from gurps.dice import RandomSource
from gurps.dice import parse_dice as dice_parse
from gurps.errors import UNKNOWN_ACTIVE_DEFENCE, GurpsError, InvalidValue, OutsideCanon
from gurps.house import CombatantKind
from gurps.ranged import range_modifier
from gurps.rolling import Modifier
from sessions import entries
from sessions.log import chain
from sessions.log import services as log_services
from sessions.models import Combat, Combatant, CombatEvent, Roll, Scene
from sessions.tracker import tracker_begin, tracker_event
from sheets.models import Campaign, Character
from sheets.services import sheet_view, state_of

# Messages are constants so tests import them instead of repeating them.
COMBAT_ACTIVE_EXISTS = "Já há um combate em andamento nesta cena: encerre-o antes de outro."
COMBAT_ENDED = "Este combate já terminou; o que está aqui fica como está."
UNKNOWN_LOCATION = "Lugar do golpe desconhecido: use um dos da §5.5 (tronco, cabeça, braço…)."
BOSS_TOO_LATE = (
    "Chefe de encontro se declara antes do primeiro dado do combate. Declarada depois, não "
    "vale: bicho não sobe de categoria no meio da luta para sobreviver (§5.4.1)."
)
TERRAIN_TOO_LATE = (
    "O Mestre de Cena declara o terreno antes do primeiro dado, como declara o chefe de "
    "encontro. Terreno declarado depois não vale (§5d)."
)
BOSS_NOT_A_PLAYER = "Personagem de jogador não é chefe de encontro (§5.4.1)."
ADD_BEFORE_FIRST_TURN = (
    "Combatentes entram antes do primeiro turno: a ordem do turno, uma vez posta, não muda "
    "entre uma sessão e outra (§4.2)."
)
NO_COMBATANTS = "Ninguém na luta ainda: ponha os combatentes antes do primeiro turno."
NOBODY_FIGHTING = "Ninguém mais está na luta: encerre o combate."
NOT_STARTED = "O combate ainda não começou: passe ao primeiro turno (§4.2)."
NOT_ITS_TURN = "Não é o turno de {name}: é o de {current} (§4.1)."
OUT_OF_THE_FIGHT = "{name} está fora da luta ({status})."
STUNNED_NO_MANEUVER = (
    "{name} está atordoado: sem manobra até passar no teste de HT do início do turno (§5.2)."
)
PARTIAL_SURPRISE_LOSES_TURN = "{name} perde o primeiro turno: surpresa parcial (§5e)."
TOTAL_SURPRISE_STILL = (
    "{name} ainda não age: surpresa total; testa IQ a cada turno para começar (§5e)."
)
MANEUVER_ALREADY = "{name} já declarou a manobra deste turno (§4.1: uma manobra por turno)."
MANEUVER_FIRST = "{name} declara a manobra antes de atacar (§4.10, linha 1)."
NOT_AN_ATTACK_MANEUVER = "{name} declarou {maneuver}, que não ataca (§4.3)."
ATTACKS_USED = "{name} já fez {count} ataque(s) neste turno com {maneuver} (§4.3)."
UNKNOWN_WEAPON = "Escolha uma arma de {name}."
WEAPON_UNREADY = "{weapon} está despreparada: gasta-se um turno em Preparar (§4.3)."
CLOSE_COMBAT_CANNOT = "{weapon} não ataca de perto, e no aperto todo combate é de perto (§5c, §5d)."
SELF_ATTACK = "O atacante e o defensor são o mesmo combatente."
NO_BLOCK = "{name} não tem escudo preparado: não bloqueia (§4.7)."
NO_PARRY = "Escolha com qual arma {name} apara (§4.7)."
PARRY_UNREADY = "{weapon} está despreparada: não apara (§4.7)."
NO_ACTIVE_DEFENCE_NOW = (
    "{name} não tem defesa ativa agora ({why}); a Defesa Passiva continua valendo (§4.6)."
)
RANGE_NEEDED = "Diga a distância até o alvo, em metros: a arma é de longo alcance (§4.11)."
POSTURE_NEEDED = "Diga para qual posição muda (§4.3, Mudança de Posição)."
AIM_NEEDS_RANGED = "Apontar é com arma de longo alcance já preparada (§4.3)."
NAME_TAKEN = "Já há um combatente com este nome neste combate."
NAME_EMPTY = "Dê um nome ao combatente."
DAMAGE_TYPE_NEEDED = "Diga o tipo do dano da arma: cont, corte ou perf (§4.9)."
VALUE_OUT_OF_RANGE = "Valor fora do intervalo aceito ({low} a {high})."
UNKNOWN_ATTACK_KIND = "Tipo de ataque desconhecido (arma de mão, flecha, arremesso…)."
SURPRISE_UNKNOWN = "Surpresa é parcial ou total (§5e)."
WEAPON_BROKEN = "{weapon} está quebrada: não ataca nem apara pelo resto do combate (§4.8)."
WEAPON_DROPPED = "{weapon} está no chão: gasta-se um turno em Preparar para apanhá-la (§4.8)."
ARM_STRAINED = (
    "O braço de {weapon} está com o ombro estirado: não ataca nem apara com ela pelo resto "
    "do encontro (§4.8)."
)
OFF_BALANCE_NOTHING = (
    "{name} perdeu o equilíbrio: não faz nada até o próximo turno, e toda defesa ativa fica "
    "a −2 até lá (§4.8)."
)
UNBALANCED_TURN = (
    "{name} está desequilibrado: neste turno só se defende, normalmente, e não faz mais nada "
    "(§4.8, cabeça 8)."
)
FEINT_TARGET_NEEDED = "Diga contra quem é a finta (§4.3)."
FEINT_WEAPON_NEEDED = "Diga com qual arma é a finta (§4.3)."
WEIGHT_BAD = "Peso da arma em kg, 0 ou mais (ex.: 1,5)."
WAIT_USED = "{name} já usou o ataque do Aguardar (§4.3)."
ADJUST_REASON_NEEDED = "Diga o porquê do ajuste (ex.: erro crítico 5, atingiu a si mesmo)."

# Stand-in maneuver of a combatant attacked before its first turn: it has chosen nothing, so
# nothing was given up — any active defence (the canon's "Qualquer uma").
NO_MANEUVER_YET = engine.Maneuver.MOVE

# The site's guess of a weapon's class from the skill it is used with, for readiness (§4.3)
# and close combat (§5c). Not a rule: the rule is in gurps.combat.WEAPON_CLASSES.
SKILL_WEAPON_CLASS = {
    "espada curta": engine.WeaponClass.SHORT_SWORD,
    "espada larga": engine.WeaponClass.SWORD,
    "espada": engine.WeaponClass.SWORD,
    "rapieira": engine.WeaponClass.RAPIER,
    "esgrima": engine.WeaponClass.RAPIER,
    "espada de duas mãos": engine.WeaponClass.TWO_HANDED_SWORD,
    "faca": engine.WeaponClass.KNIFE,
    "adaga": engine.WeaponClass.DAGGER,
    "machado": engine.WeaponClass.AXE,
    "maça": engine.WeaponClass.MACE,
    "arma de haste": engine.WeaponClass.POLEARM,
    "lança": engine.WeaponClass.SPEAR,
    "briga": engine.WeaponClass.PUNCH,
}
RANGED_SKILLS = {"arco": "arrow", "besta": "arrow", "funda": "sling_stone", "arremesso": "thrown"}

KIND_FROM_CHARACTER = {
    Character.Kind.PLAYER_CHARACTER: Combatant.Kind.PLAYER_CHARACTER,
    Character.Kind.NAMED_NPC: Combatant.Kind.NAMED_NPC,
    Character.Kind.CREATURE: Combatant.Kind.CREATURE,
}
MANEUVER_NAMES = {row.maneuver.value: row.name for row in engine.MANEUVERS}
TERRAIN_NAMES = {row.terrain.value: row.name for row in engine.TERRAINS}
DEFENCE_NAMES = {rule.defence.value: rule.name for rule in defence.DEFENCE_RULES}


# --- the random source that keeps every die --------------------------------------------------


class RecordingSource:
    """Wraps the server's source and keeps every value it gave, in order."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner
        self.values: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = self.inner.randint(a, b)
        self.values.append(value)
        return value


def _source() -> RecordingSource:
    return RecordingSource(entries.dice_source())


# --- inputs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WeaponSpec:
    """A weapon of a bestiary creature or NPC as the Mestre enters it: the skill level, the
    damage as a sheet writes it ("2d cort", "GDP+1 perf"), read at the creature's ST."""

    name: str
    skill: int
    damage: str
    weapon_class: str = ""
    attack_kind: str = "hand_weapon"
    parry: int | None = None
    weight_kg: str | None = None


@dataclass(frozen=True)
class CreatureSpec:
    """A bestiary creature or a named NPC, entered with its numbers (they are data the Mestre
    or the Árbitro enters, not canon the site invents)."""

    name: str
    kind: str = "creature"
    st: int = 10
    dx: int = 10
    iq: int = 10
    ht: int = 10
    hp: int | None = None
    move: int = 5
    dodge: int = 5
    block: int | None = None
    passive_defense: int = 0
    damage_resistance: int = 0
    combat_reflexes: bool = False
    flees: bool = False
    weapons: tuple[WeaponSpec, ...] = ()
    demo_note: str = ""


@dataclass(frozen=True)
class DefenceSpec:
    """The defender's choice, made when the blow comes (§4.6): one active defence, or two
    different in Defesa Total (``defences``); ``parry_weapon`` the weapon index that parries;
    ``retreat`` +3 (once a round); ``dagger`` the fencer's off-hand dagger (§4.14)."""

    defences: tuple[str, ...] = ()
    parry_weapon: int | None = None
    retreat: bool = False
    dagger: bool = False


@dataclass(frozen=True)
class AttackSpec:
    """What the Mestre announces before the attack roll (§1.4, §4.5): lighting (−1 to −9),
    total darkness, bad footing and awkward position (−2 or worse), the location aimed at,
    the distance for a ranged weapon, and any other modifier with its reason."""

    weapon: int = 0
    lighting: int = 0
    total_darkness: bool = False
    bad_footing: int = 0
    awkward_position: int = 0
    location: str = "torso"
    arm_side: str | None = None
    distance_m: int | None = None
    modifiers: tuple[log_services.Modifier, ...] = ()


# --- helpers ----------------------------------------------------------------------------------


def _between(value: int, low: int, high: int, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(VALUE_OUT_OF_RANGE.format(low=low, high=high), field=field_name)
    return value


def _begin(combat: Combat, user, request_key: str, kind: str):
    """Check who asks, lock, replay (``sessions.tracker``): (fresh combat, earlier event or
    None)."""
    return tracker_begin(
        combat,
        user=user,
        request_key=request_key,
        kind=kind,
        ended=COMBAT_ENDED,
        code="combat_ended",
        related=("first_roll",),
    )


def _event(
    combat: Combat, user, kind: str, text: str, *, lines=(), data=None, request_key="", code=None
):
    """The event of one action, written after its rolls (which name its ``code``)."""
    return tracker_event(
        combat,
        user=user,
        kind=kind,
        text=text,
        lines=lines,
        data=data,
        request_key=request_key,
        code=code,
        update_fields=["round", "turn", "terrain", "first_roll", "status"],
        round=combat.round,
        turn=combat.turn,
    )


def _weapon_class(skill_name: str) -> str:
    found = SKILL_WEAPON_CLASS.get(skill_name.casefold().strip())
    return found.value if found else ""


def _weapon(
    name: str,
    skill: int,
    written: str,
    st: int,
    *,
    weapon_class: str = "",
    attack_kind: str = "hand_weapon",
    parry: int | None = None,
    accuracy: int | None = None,
    weight_kg=None,
    field_name: str = "weapons",
) -> dict:
    try:
        read = damage.weapon_damage(written, st)
    except InvalidValue as error:
        raise ServiceError(error.message, field=f"{field_name}.damage") from None
    if read.damage_type is None:
        raise ServiceError(DAMAGE_TYPE_NEEDED, field=f"{field_name}.damage")
    # The same bounds as a damage roll of the scene: no million-die weapon in the chain.
    if read.expression.count > log_services.MAX_DAMAGE_DICE:
        limit = log_services.MAX_DAMAGE_DICE
        raise ServiceError(
            log_services.TOO_MANY_DICE.format(limit=limit), field=f"{field_name}.damage"
        )
    if abs(read.expression.modifier) > log_services.MAX_DAMAGE_ADDS:
        limit = log_services.MAX_DAMAGE_ADDS
        message = log_services.DAMAGE_ADDS_TOO_LARGE.format(limit=limit)
        raise ServiceError(message, field=f"{field_name}.damage")
    if weapon_class:
        engine.weapon_class(weapon_class)  # InvalidValue("weapon_class") if unknown
    if attack_kind not in {kind.value for kind in engine.AttackKind}:
        raise InvalidValue(f"{field_name}.attack_kind", UNKNOWN_ATTACK_KIND)
    ranged = attack_kind not in ("hand_weapon", "unarmed")
    weight = None
    if weight_kg not in (None, ""):
        try:
            weight = Decimal(str(weight_kg).replace(",", ".").strip())
        except ArithmeticError:
            raise ServiceError(WEIGHT_BAD, field=f"{field_name}.weight_kg") from None
        if not weight.is_finite() or weight < 0 or weight > 1000:
            raise ServiceError(WEIGHT_BAD, field=f"{field_name}.weight_kg")
    return {
        "name": name[:100],
        "skill": skill,
        "damage": written,
        "expression": str(read.expression),
        "damage_type": read.damage_type.value,
        "thrust": read.attack == "thrust",
        "swing": read.attack == "swing",
        "weapon_class": weapon_class,
        "attack_kind": attack_kind,
        "parry": parry,
        "ranged": ranged,
        "accuracy": accuracy if accuracy is not None else (0 if ranged else None),
        "weight_kg": str(weight) if weight is not None else None,
    }


def _character_numbers(character: Character) -> dict:
    """A character's numbers for the fight, from its homologated sheet and its state."""
    view = sheet_view(character)
    if view is None:
        raise ServiceError(log_services.NO_SHEET, field="characters")
    version, derived = view.version, view.derived
    state = view.state
    keys = {trait.key for trait in version.traits.all()}
    levels = {skill.name.casefold(): skill.level for skill in version.skills.all()}
    cr = "combat_reflexes" in keys
    weapons, fencer = [], False
    carried = [p.item for p in view.possessions if p.carried and p.item_id]
    for item in carried:
        if not item.damage:
            continue
        skill = levels.get(item.skill_name.casefold()) if item.skill_name else None
        if skill is None:
            continue
        parry = defence.parry(skill, item.parry, combat_reflexes=cr) if item.parry else None
        fencer = fencer or item.parry == "fencing"
        ranged = RANGED_SKILLS.get(item.skill_name.casefold())
        try:
            weapons.append(
                _weapon(
                    item.name,
                    skill,
                    item.damage,
                    version.st,
                    weapon_class=_weapon_class(item.skill_name),
                    attack_kind=ranged or "hand_weapon",
                    parry=parry,
                    accuracy=item.ranged_accuracy,
                    weight_kg=item.weight_kg,
                )
            )
        except (ServiceError, GurpsError):
            continue  # a weapon the canon cannot read at this ST stays on the sheet only
    unstun = -defence.STUNNED_PENALTY if state.stunned else 0
    block = derived.block + unstun if derived.block is not None else None
    strong = sum(t.level or 1 for t in version.traits.all() if t.key == "strong_will")
    weak = sum(t.level or 1 for t in version.traits.all() if t.key == "weak_will")
    return {
        "character": character,
        "name": character.name,
        "kind": KIND_FROM_CHARACTER.get(character.kind, Combatant.Kind.PLAYER_CHARACTER),
        "st": version.st,
        "dx": version.dx,
        "iq": version.iq,
        "ht": version.ht,
        "hp": derived.hp,
        "hp_before": derived.hp - state.hp_lost,
        "fatigue_before": state.fatigue_lost,
        "move": derived.move,
        "basic_speed": Decimal(derived.basic_speed.numerator) / derived.basic_speed.denominator,
        "encumbrance_level": derived.encumbrance.level or 0,
        "dodge": defence.dodge(derived.move, combat_reflexes=cr),
        "block": block,
        "passive_defense": derived.passive_defense,
        "damage_resistance": max(
            (i.damage_resistance for i in carried if not i.is_shield), default=0
        ),
        "combat_reflexes": cr,
        "strong_will": strong,
        "weak_will": weak,
        "fencer": fencer,
        "weapons": weapons,
        "stunned": state.stunned,
    }


def _creature_numbers(spec: CreatureSpec) -> dict:
    name = (spec.name or "").strip()
    if not name:
        raise ServiceError(NAME_EMPTY, field="name")
    if spec.kind not in (Combatant.Kind.CREATURE, Combatant.Kind.NAMED_NPC):
        raise ServiceError(VALUE_OUT_OF_RANGE.format(low="bicho", high="NPC"), field="kind")
    for attribute in ("st", "dx", "iq", "ht"):
        _between(getattr(spec, attribute), 1, 40, attribute)
    hp = spec.ht if spec.hp is None else _between(spec.hp, 1, 400, "hp")
    _between(spec.move, 0, 40, "move")
    _between(spec.dodge, -10, 30, "dodge")
    if spec.block is not None:
        _between(spec.block, -10, 30, "block")
    _between(spec.passive_defense, 0, 20, "passive_defense")
    _between(spec.damage_resistance, 0, 100, "damage_resistance")
    weapons = []
    for index, weapon in enumerate(spec.weapons):
        prefix = f"weapons.{index}"
        if not (weapon.name or "").strip():
            raise ServiceError(NAME_EMPTY, field=f"{prefix}.name")
        _between(weapon.skill, -10, 40, f"{prefix}.skill")
        if weapon.parry is not None:
            _between(weapon.parry, -10, 30, f"{prefix}.parry")
        weapons.append(
            _weapon(
                weapon.name.strip(),
                weapon.skill,
                weapon.damage,
                spec.st,
                weapon_class=weapon.weapon_class,
                attack_kind=weapon.attack_kind,
                parry=weapon.parry,
                weight_kg=weapon.weight_kg,
                field_name=prefix,
            )
        )
    speed = Fraction(spec.dx + spec.ht, 4)
    return {
        "character": None,
        "name": name[:200],
        "kind": spec.kind,
        "st": spec.st,
        "dx": spec.dx,
        "iq": spec.iq,
        "ht": spec.ht,
        "hp": hp,
        "hp_before": hp,
        "move": spec.move,
        "basic_speed": Decimal(speed.numerator) / speed.denominator,
        "dodge": spec.dodge,
        "block": spec.block,
        "passive_defense": spec.passive_defense,
        "damage_resistance": spec.damage_resistance,
        "combat_reflexes": spec.combat_reflexes,
        "flees": spec.flees,
        "weapons": weapons,
        "demo_note": spec.demo_note[:1000],
    }


def _add(combat: Combat, numbers: dict) -> Combatant:
    if combat.combatants.filter(name=numbers["name"]).exists():
        raise ServiceError(NAME_TAKEN, field="name")
    last = combat.combatants.aggregate(top=Max("declared"))["top"] or 0
    return Combatant.objects.create(combat=combat, declared=last + 1, **numbers)


# --- what a combatant has now -----------------------------------------------------------------


def staggered(c: Combatant) -> bool:
    return is_staggered(c.hp_now)


def move_now(c: Combatant, terrain: Sequence[str] = ()) -> int:
    """Move as it stands: the terrain's cost (§5d), halved at 3 HP or less (§5.4)."""
    move = c.move
    if terrain:
        try:
            move = engine.terrain_effects(move, terrain).move
        except OutsideCanon:
            pass
    return move // 2 if staggered(c) else move


def _balance(c: Combatant) -> int:
    """Every active defence −2 after losing one's balance, until one's next turn (§4.8)."""
    return tables.LOSES_BALANCE_DEFENCE_PENALTY if c.off_balance else 0


def dodge_now(c: Combatant) -> int:
    """Dodge as it stands: a character's from Move (halved at 3 HP or less, +1 Combat
    Reflexes, −4 stunned, §4.6, §5.4); an entered Dodge halved at 3 HP or less, −4 stunned;
    −2 off balance (§4.8)."""
    if c.character_id is not None:
        move = c.move // 2 if staggered(c) else c.move
        base = defence.dodge(move, combat_reflexes=c.combat_reflexes, stunned=c.stunned)
        return base + _balance(c)
    base = c.dodge // 2 if staggered(c) else c.dodge
    return base + (defence.STUNNED_PENALTY if c.stunned else 0) + _balance(c)


def block_now(c: Combatant) -> int | None:
    if c.block is None:
        return None
    return c.block + (defence.STUNNED_PENALTY if c.stunned else 0) + _balance(c)


def parry_now(c: Combatant, index: int) -> int | None:
    weapon = c.weapons[index]
    if weapon.get("parry") is None:
        return None
    return weapon["parry"] + (defence.STUNNED_PENALTY if c.stunned else 0) + _balance(c)


def weapon_problem(c: Combatant, index: int) -> str | None:
    """Why ``c`` cannot attack or parry with weapon ``index`` now, or None: broken, its arm's
    shoulder strained (§4.8), on the floor, unready (§4.3)."""
    name = c.weapons[index]["name"]
    if index in c.broken:
        return WEAPON_BROKEN.format(weapon=name)
    if index in c.strained:
        return ARM_STRAINED.format(weapon=name)
    if index in c.dropped:
        return WEAPON_DROPPED.format(weapon=name)
    if index in c.unready:
        return WEAPON_UNREADY.format(weapon=name)
    return None


def usable_weapons(c: Combatant) -> list[int]:
    return [i for i in range(len(c.weapons)) if weapon_problem(c, i) is None]


def _make_unready(c: Combatant, index: int, turns: int = 1) -> None:
    """Weapon ``index`` needs ``turns`` more Ready turns (added to what it already needs)."""
    key = str(index)
    c.ready_turns = {**c.ready_turns, key: int(c.ready_turns.get(key, 0)) + turns}
    c.unready = sorted({*c.unready, index})


def _allowance(c: Combatant) -> defence.DefenceAllowance:
    parrying = [
        w
        for i, w in enumerate(c.weapons)
        if w.get("parry") is not None and i not in c.broken and i not in c.strained
    ]
    return defence.defence_allowance(
        all_out_defense=c.maneuver == engine.Maneuver.ALL_OUT_DEFENSE,
        fencer=c.fencer,
        two_weapons=len(parrying) >= 2 and not c.fencer_with_dagger,
        fencer_with_dagger=c.fencer and c.fencer_with_dagger,
    )


def round_defences(c: Combatant) -> defence.RoundDefences:
    return defence.RoundDefences(
        _allowance(c),
        dodges=c.dodges_used,
        blocks=c.blocks_used,
        parries=c.parries_used,
        dagger_parries=c.dagger_parries_used,
        retreated=c.retreated,
    )


def current(combat: Combat, combatants: Iterable[Combatant] | None = None) -> Combatant | None:
    if combat.round == 0:
        return None
    found = combatants if combatants is not None else combat.combatants.all()
    return next((c for c in found if c.position == combat.turn), None)


def _status_for_out(c: Combatant) -> str:
    if c.kind == Combatant.Kind.CREATURE:
        return Combatant.Status.FLED if c.flees else Combatant.Status.DEAD
    return Combatant.Status.DEAD


# --- rolls in the chain -----------------------------------------------------------------------


def _check_every_die(recorded: list[int], steps: Iterable) -> None:
    logged = [face for step in steps if step.dice for face in step.dice]
    if logged != recorded:
        raise RuntimeError("A die was drawn that no step of the log shows; nothing is saved.")


def _success_fields(step, *, base_level: int, modifiers=(), kind: str) -> dict:
    return {
        "kind": kind,
        "base_level": base_level,
        "modifiers": [{"label": m.reason, "value": m.value} for m in modifiers],
        "effective_level": step.level,
        "dice": list(step.dice),
        "total": step.total,
        "outcome": step.outcome,
        "margin": step.level - step.total,
    }


def _append(combat: Combat, user, *, character, label: str, fields: dict, details: dict) -> Roll:
    roll = chain.append_roll(
        campaign=combat.scene.week.campaign,
        request_key="",
        scene=combat.scene,
        character=character,
        label=label[:200],
        rolled_by=user,
        details=details,
        **fields,
    )
    if combat.first_roll_id is None:
        combat.first_roll = roll
    return roll


def _label(who: Combatant, title: str) -> str:
    """The roll's label: the log already puts a character's name before it."""
    if who.character_id is not None or who.name in title:
        return title
    return f"{who.name}: {title}"


def _base_details(combat: Combat, event_code, step_number: int, **extra) -> dict:
    return {
        "combat": str(combat.code),
        "event": str(event_code),
        "round": combat.round,
        "turn": combat.turn,
        "step": step_number,
        **extra,
    }


def _write_steps(
    combat: Combat,
    user,
    event_code,
    steps: Sequence,
    *,
    attacker: Combatant,
    defender: Combatant,
    attack_skill: int,
    attack_modifiers: Sequence[Modifier],
    expression: str,
) -> list[Roll]:
    """One Roll per die-bearing step, in order; the lines without a die that follow a roll
    go in its ``notes`` (so the whole §4.10 sequence is in the chain)."""
    groups: list[tuple[object, list[str]]] = []
    for step in steps:
        if step.dice:
            groups.append((step, []))
        elif groups:
            groups[-1][1].append(step.text)
    rolls = []
    for step, notes in groups:
        details = _base_details(
            combat,
            event_code,
            int(step.number),
            text=step.text,
            notes=notes,
            attacker=attacker.name,
            defender=defender.name,
        )
        if step.table is not None:
            table = step.table
            details.update(
                {
                    "table": table.table_key,
                    "title": table.title,
                    "rolls": list(table.rolls),
                    "faces": [list(faces) for faces in table.faces],
                    "row": table.row.label,
                    "effect": table.effect,
                    "readings": list(table.readings),
                }
            )
            fields = {"kind": Roll.Kind.TABLE.value, "dice": list(step.dice), "total": step.total}
            who = attacker
        elif step.number == engine.StepNumber.DAMAGE_ROLL:
            details["expression"] = expression
            fields = {"kind": Roll.Kind.DAMAGE.value, "dice": list(step.dice), "total": step.total}
            who = attacker
        elif step.number == engine.StepNumber.ATTACK_ROLL:
            fields = _success_fields(
                step, base_level=attack_skill, modifiers=attack_modifiers, kind="skill"
            )
            who = attacker
        elif step.number == engine.StepNumber.DEFENCE_ROLL:
            fields = _success_fields(step, base_level=step.level, kind="defence")
            who = defender
        else:
            fields = _success_fields(step, base_level=step.level, kind="attribute")
            who = defender
        label = _label(who, step.title)
        rolls.append(
            _append(
                combat, user, character=who.character, label=label, fields=fields, details=details
            )
        )
    return rolls


def _log_success(
    combat: Combat,
    user,
    event_code,
    who: Combatant,
    result: checks.SuccessRoll,
    *,
    label,
    rule,
    step=engine.StepNumber.MANEUVER,
    kind="attribute",
    modifiers=(),
) -> checks.SuccessRoll:
    """A roll outside the attack's own steps in the log: at the start of a turn (stun, total
    surprise, 0 HP: §4.10 row 1), or after a defence (Will −3, the unarmed parry's)."""
    outcome = checks.OUTCOME_NAMES[result.outcome]
    faces = "+".join(map(str, result.dice))
    level = result.effective_level
    text = f"{label}: 3d6 = {faces} = {result.total} contra {level} — {outcome}."
    _append(
        combat,
        user,
        character=who.character,
        label=_label(who, label),
        fields={
            "kind": kind,
            "base_level": level - sum(m.value for m in modifiers),
            "modifiers": [{"label": m.reason, "value": m.value} for m in modifiers],
            "effective_level": level,
            "dice": list(result.dice),
            "total": result.total,
            "outcome": str(result.outcome),
            "margin": result.margin,
        },
        details=_base_details(combat, event_code, int(step), text=text, notes=[], rule=rule),
    )
    return result


def _attribute_roll(
    combat, user, event_code, source, who: Combatant, *, level: int, label: str, rule: str
) -> checks.SuccessRoll:
    checks.ensure_rollable(level, checks.RollKind.ATTRIBUTE)
    result = checks.roll_success(source, level, checks.RollKind.ATTRIBUTE)
    return _log_success(combat, user, event_code, who, result, label=label, rule=rule)


# --- services ---------------------------------------------------------------------------------


def combat_current(scene: Scene) -> Combat | None:
    """The scene's fight: the one going on, else the last one."""
    return Combat.objects.filter(scene=scene).select_related("scene__week__campaign").first()


@transaction.atomic
def combat_start(
    *,
    scene: Scene,
    user,
    characters: Iterable[Character] | None = None,
    request_key: str = "",
) -> Combat:
    """Start a fight in ``scene`` with ``characters`` (default: every character present). The
    same ``request_key`` twice starts one."""
    request_key = (request_key or "")[:64]
    if request_key:
        existing = Combat.objects.filter(scene=scene, request_key=request_key).first()
        if existing is not None:
            return existing
    campaign = scene.week.campaign
    entries.require_table(user, campaign)
    entries.ensure_scene_accepts_entries(scene)
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    if Combat.objects.filter(scene=scene, status=Combat.Status.ACTIVE).exists():
        raise ServiceError(COMBAT_ACTIVE_EXISTS, code="combat_active")
    present = list(scene.characters.all())
    chosen = present if characters is None else list(characters)
    for character in chosen:
        if character.pk not in {c.pk for c in present}:
            raise ServiceError(log_services.CHARACTER_NOT_IN_SCENE, field="characters")
    numbers = [_character_numbers(c) for c in chosen]
    try:
        with transaction.atomic():
            combat = Combat.objects.create(scene=scene, started_by=user, request_key=request_key)
    except IntegrityError:
        raise ServiceError(COMBAT_ACTIVE_EXISTS, code="combat_active") from None
    for entry in numbers:
        _add(combat, entry)
    names = ", ".join(n["name"] for n in numbers) or "ninguém ainda"
    _event(combat, user, CombatEvent.Kind.START, f"Começa o combate: {names}.")
    return combat


@transaction.atomic
def combatant_add(
    *,
    combat: Combat,
    user,
    character: Character | None = None,
    creature: CreatureSpec | None = None,
    surprise: str = "",
    request_key: str = "",
) -> Combatant:
    """Add a character of the scene, or a bestiary creature or named NPC with its numbers,
    before the first turn. ``surprise`` "partial" or "total" (§5e)."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.COMBATANT)
    if replay is not None:
        return Combatant.objects.get(code=replay.data["combatant"])
    if combat.round > 0:
        raise ServiceError(ADD_BEFORE_FIRST_TURN, code="combat_started")
    if surprise and surprise not in {kind.value for kind in engine.Surprise}:
        raise ServiceError(SURPRISE_UNKNOWN, field="surprise")
    if character is not None:
        if not combat.scene.characters.filter(pk=character.pk).exists():
            raise ServiceError(log_services.CHARACTER_NOT_IN_SCENE, field="character")
        numbers = _character_numbers(character)
    elif creature is not None:
        numbers = _creature_numbers(creature)
    else:
        raise ServiceError(NAME_EMPTY, field="name")
    added = _add(combat, {**numbers, "surprise": surprise, "acting": surprise != "total"})
    kind = Combatant.Kind(added.kind).label.lower()
    _event(
        combat,
        user,
        CombatEvent.Kind.COMBATANT,
        f"Entra na luta: {added.name} ({kind}).",
        data={"combatant": str(added.code)},
        request_key=request_key,
    )
    return added


@transaction.atomic
def combat_declare(
    *,
    combat: Combat,
    user,
    terrain: Sequence[str] | None = None,
    boss: Combatant | None = None,
    request_key: str = "",
) -> Combat:
    """Declare the terrain (§5d) and the encounter boss (§5.4.1) — only before the first die
    of the combat (invariant 8, ``gurps.combat.declared_in_time``)."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.DECLARATION)
    if replay is not None:
        return combat
    last = Roll.objects.filter(campaign=combat.scene.week.campaign).aggregate(n=Max("sequence"))
    first = combat.first_roll.sequence if combat.first_roll_id else None
    if not engine.declared_in_time(last["n"] or 0, first):
        raise ServiceError(
            BOSS_TOO_LATE if boss is not None else TERRAIN_TOO_LATE,
            field="boss" if boss is not None else "terrain",
            code="declared_too_late",
        )
    lines = []
    if terrain is not None:
        values = [engine.terrain(value).terrain.value for value in terrain]
        engine.terrain_effects(0, values)  # OutsideCanon("5d") for two that both cut Move
        combat.terrain = list(dict.fromkeys(values))
        names = "; ".join(TERRAIN_NAMES[v] for v in combat.terrain) or "nenhum"
        lines.append(f"Terreno declarado antes do primeiro dado: {names} (§5d).")
    if boss is not None:
        if boss.combat_id != combat.pk:
            raise ServiceError(UNKNOWN_WEAPON.format(name="o combate"), field="boss")
        if boss.kind == Combatant.Kind.PLAYER_CHARACTER:
            raise ServiceError(BOSS_NOT_A_PLAYER, field="boss")
        boss.kind = Combatant.Kind.BOSS
        boss.save(update_fields=["kind"])
        lines.append(f"Chefe de encontro declarado antes do primeiro dado: {boss.name} (§5.4.1).")
    _event(
        combat,
        user,
        CombatEvent.Kind.DECLARATION,
        " ".join(lines) or "Nada declarado.",
        request_key=request_key,
    )
    return combat


@transaction.atomic
def combat_next_turn(*, combat: Combat, user, request_key: str = "") -> Combat:
    """Pass to the next turn (the first: the order of §4.2 is worked out and stored, and never
    reshuffles). At the start of the turn the rolls the canon asks are made: HT to leave a
    stun (§5.2), IQ under total surprise (§5e), HT at 0 HP or less (§5.4)."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.TURN)
    if replay is not None:
        return combat
    everyone = list(combat.combatants.all())
    lines: list[str] = []
    if combat.round == 0:
        if not everyone:
            raise ServiceError(NO_COMBATANTS, code="no_combatants")
        order = engine.turn_order(
            engine.Combatant(
                name=c.name,
                move=c.move,
                basic_speed=Fraction(c.basic_speed),
                dx=c.dx,
                declared=c.declared,
            )
            for c in everyone
        )
        by_name = {c.name: c for c in everyone}
        for position, entry in enumerate(order):
            by_name[entry.name].position = position
            by_name[entry.name].save(update_fields=["position"])
        everyone.sort(key=lambda c: c.position)
        combat.round, combat.turn = 1, everyone[0].position
        lines.append(
            "Ordem do turno (§4.2): " + ", ".join(c.name for c in everyone) + ". Não muda mais."
        )
        if not everyone[0].in_the_fight:
            combat.turn = _next_position(everyone, combat.turn, lines, combat)
    else:
        leaving = current(combat, everyone)
        if leaving is not None and leaving.shock and not leaving.shock_pending:
            leaving.shock = 0  # shock lasts the victim's next turn only (§5.1)
            leaving.save(update_fields=["shock"])
        combat.turn = _next_position(everyone, combat.turn, lines, combat)
    now = current(combat, everyone)
    code = uuid.uuid4()
    _turn_start(combat, user, code, now, lines)
    _event(
        combat,
        user,
        CombatEvent.Kind.TURN,
        f"Rodada {combat.round}, turno de {now.name}.",
        lines=lines,
        request_key=request_key,
        code=code,
    )
    return combat


def _next_position(everyone: list[Combatant], position: int, lines: list[str], combat) -> int:
    fighting = [c for c in everyone if c.in_the_fight]
    if not fighting:
        raise ServiceError(NOBODY_FIGHTING, code="nobody_fighting")
    later = [c for c in fighting if c.position > position]
    if later:
        return later[0].position
    combat.round += 1
    for c in everyone:
        c.dodges_used = c.blocks_used = c.parries_used = c.dagger_parries_used = 0
        c.retreated = False
        c.save(
            update_fields=[
                "dodges_used",
                "blocks_used",
                "parries_used",
                "dagger_parries_used",
                "retreated",
            ]
        )
    lines.append(f"Rodada {combat.round}: as defesas da rodada recomeçam (§4.7).")
    return fighting[0].position


def _turn_start(combat, user, event, c: Combatant, lines: list[str]) -> None:
    """The rolls at the start of ``c``'s turn, logged under the turn's event code."""
    source = _source()
    c.shock_pending = False
    if c.off_balance:
        c.off_balance = False
        lines.append(f"{c.name} recupera o equilíbrio: as defesas voltam ao normal (§4.8).")
    if c.waiting:
        c.waiting = False
        lines.append(f"{c.name} não usou o Aguardar: o ataque fora do turno acaba aqui (§4.3).")
    if c.feint and int(c.feint.get("round", 0)) < combat.round - 1:
        c.feint = {}
        lines.append(f"A finta de {c.name} passou sem ataque: vale por uma rodada (§4.3).")
    if c.unbalanced:
        c.unbalanced = False
        c.turn_lost_round = combat.round
        c.maneuver, c.all_out_option = "", ""
        lines.append(UNBALANCED_TURN.format(name=c.name))
    if c.hp_now <= 0:
        level = injury.turn_start_ht_roll(
            c.ht, c.hp_now, strong_will=c.strong_will, weak_will=c.weak_will
        )
        result = _attribute_roll(
            combat, user, event, source, c, level=level, label="HT a 0 PV ou menos", rule="5.4"
        )
        if not result.outcome.is_success:
            c.status = Combatant.Status.UNCONSCIOUS
            lines.append(f"{c.name} falhou o teste de HT a 0 PV ou menos: desmaia (§5.4).")
    if c.in_the_fight and c.stunned:
        level = injury.stun_recovery_level("physical", ht=c.ht)
        result = _attribute_roll(
            combat,
            user,
            event,
            source,
            c,
            level=level,
            label="HT para sair do atordoamento",
            rule="5.2",
        )
        if result.outcome.is_success:
            c.stunned = False
            lines.append(f"{c.name} passa no HT: sai do atordoamento e age neste turno (§5.2).")
        else:
            lines.append(f"{c.name} continua atordoado, sem manobra neste turno (§5.2).")
    if c.in_the_fight and c.surprise == "total" and not c.acting:
        found = engine.total_surprise_roll(source, c.iq, combat_reflexes=c.combat_reflexes)
        _log_success(combat, user, event, c, found.roll, label="IQ sob surpresa total", rule="5e")
        c.acting = found.acts
        did = "começa a agir" if found.acts else "fica parado, sem defesa ativa"
        lines.append(f"{c.name} {did} (§5e).")
    if c.in_the_fight and c.surprise == "partial" and combat.round == 1:
        lines.append(PARTIAL_SURPRISE_LOSES_TURN.format(name=c.name))
    c.save()


def _ensure_turn_of(combat: Combat, c: Combatant) -> None:
    if combat.round == 0:
        raise ServiceError(NOT_STARTED, code="not_started")
    now = current(combat)
    if now is None or now.pk != c.pk:
        raise ServiceError(
            NOT_ITS_TURN.format(name=c.name, current=now.name if now else "ninguém"),
            field="combatant",
            code="not_its_turn",
        )
    if not c.in_the_fight:
        raise ServiceError(
            OUT_OF_THE_FIGHT.format(name=c.name, status=c.get_status_display().lower()),
            field="combatant",
        )


@transaction.atomic
def maneuver_declare(
    *,
    combat: Combat,
    combatant: Combatant,
    user,
    maneuver: str,
    all_out_option: str = "",
    posture: str = "",
    weapon: int | None = None,
    reloading: bool = False,
    target: Combatant | None = None,
    target_sees: bool = True,
    request_key: str = "",
) -> CombatEvent:
    """The combatant whose turn it is declares its maneuver (§4.1, §4.3): it fixes the
    movement and the defences it keeps until its next turn.

    Finta, and Ataque Total (b), roll the feint's quick contest at once against ``target``
    with ``weapon`` (``gurps.combat.feint``; each die a Roll of the log): a win keeps the
    margin for this combatant's next attack on that target only, within one round. In the
    dark (terrain "Escuro") or when the target cannot see him (``target_sees`` False) the
    feint is worth nothing and no die is rolled. Aguardar leaves one attack out of turn,
    before his next turn (§4.3)."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.MANEUVER)
    if replay is not None:
        return replay
    c = Combatant.objects.get(pk=combatant.pk)
    _ensure_turn_of(combat, c)
    if c.stunned:
        raise ServiceError(STUNNED_NO_MANEUVER.format(name=c.name), field="maneuver")
    if c.surprise == "partial" and combat.round == 1:
        raise ServiceError(PARTIAL_SURPRISE_LOSES_TURN.format(name=c.name), field="maneuver")
    if c.surprise == "total" and not c.acting:
        raise ServiceError(TOTAL_SURPRISE_STILL.format(name=c.name), field="maneuver")
    if c.turn_lost_round == combat.round:
        raise ServiceError(UNBALANCED_TURN.format(name=c.name), field="maneuver")
    if c.maneuver_round == combat.round:
        raise ServiceError(MANEUVER_ALREADY.format(name=c.name), field="maneuver")
    row = engine.maneuver_row(maneuver)
    option = ""
    feints = row.maneuver is engine.Maneuver.FEINT
    if row.maneuver is engine.Maneuver.ALL_OUT_ATTACK:
        found = engine.all_out_attack(all_out_option, ready_weapons=len(usable_weapons(c)))
        option = all_out_option
        feints = found.feint_first
    if weapon is not None and not 0 <= weapon < len(c.weapons):
        raise ServiceError(UNKNOWN_WEAPON.format(name=c.name), field="weapon")
    lines = []
    code = uuid.uuid4()
    if feints:
        _feint(combat, user, code, c, weapon, target, target_sees, lines)
    if row.maneuver is engine.Maneuver.AIM:
        if weapon is None or not c.weapons[weapon]["ranged"] or weapon in c.unready:
            raise ServiceError(AIM_NEEDS_RANGED, field="weapon")
        c.aim_turns = engine.AimState(c.aim_turns if c.aim_weapon == weapon else 0).aim().turns
        c.aim_weapon = weapon
        lines.append(f"Mira acumulada: {c.aim_turns} turno(s) com {c.weapons[weapon]['name']}.")
    else:
        c.aim_turns, c.aim_weapon = 0, None
    c.reloading = bool(reloading) and row.maneuver is engine.Maneuver.READY
    if row.maneuver is engine.Maneuver.READY and weapon is not None:
        name = c.weapons[weapon]["name"]
        if weapon in c.broken:
            raise ServiceError(WEAPON_BROKEN.format(weapon=name), field="weapon")
        if weapon in c.dropped:
            c.dropped = [i for i in c.dropped if i != weapon]
            lines.append(f"{name} apanhada do chão (§4.8).")
        if weapon in c.unready:
            left = max(0, int(c.ready_turns.get(str(weapon), 1)) - 1)
            c.ready_turns = {k: v for k, v in c.ready_turns.items() if k != str(weapon)}
            if left:
                c.ready_turns[str(weapon)] = left
                lines.append(f"{name}: falta(m) {left} turno(s) de Preparar (§4.8).")
            else:
                c.unready = [i for i in c.unready if i != weapon]
                lines.append(f"{name} preparada (§4.3).")
    c.concentration_lost = False
    c.waiting = row.maneuver is engine.Maneuver.WAIT
    if row.maneuver is engine.Maneuver.CHANGE_POSITION:
        if posture not in Combatant.Posture.values:
            raise ServiceError(POSTURE_NEEDED, field="posture")
        c.posture = posture
        c.knocked_down = False
        lines.append(f"Posição: {Combatant.Posture(posture).label.lower()}.")
    metres = engine.maneuver_movement(
        row.maneuver, move_now(c, combat.terrain), first_aim_turn=c.aim_turns <= 1
    )
    left = engine.defences_left(row.maneuver, reloading_missile_weapon=c.reloading)
    c.maneuver, c.all_out_option, c.maneuver_round = row.maneuver.value, option, combat.round
    c.save()
    text = (
        f"{c.name}: {row.name}"
        + (f" ({_all_out_text(option)})" if option else "")
        + f" — anda até {metres} m; defesas até o próximo turno: {left.text} (§4.3)."
    )
    return _event(
        combat,
        user,
        CombatEvent.Kind.MANEUVER,
        text,
        lines=lines,
        data={"combatant": str(c.code), "maneuver": row.maneuver.value, "movement_m": metres},
        request_key=request_key,
        code=code,
    )


def _all_out_text(option: str) -> str:
    """ "(c) um ataque com +4 no NH" for "determined": the canon's words, not the key."""
    row = next((r for r in engine.ALL_OUT_ATTACK_OPTIONS if r.option.value == option), None)
    return f"({row.letter}) {row.text}" if row else option


def _feint(combat, user, code, c: Combatant, weapon, target, target_sees, lines) -> None:
    """The feint's quick contest (§4.3, §1.5), every die a Roll under the maneuver's event."""
    if target is None:
        raise ServiceError(FEINT_TARGET_NEEDED, field="target")
    t = Combatant.objects.filter(pk=target.pk, combat=combat).first()
    if t is None or t.pk == c.pk:
        raise ServiceError(FEINT_TARGET_NEEDED, field="target")
    if t.status not in (Combatant.Status.FIGHTING, Combatant.Status.UNCONSCIOUS):
        raise ServiceError(
            OUT_OF_THE_FIGHT.format(name=t.name, status=t.get_status_display().lower()),
            field="target",
        )
    if weapon is None:
        raise ServiceError(FEINT_WEAPON_NEEDED, field="weapon")
    problem = weapon_problem(c, weapon)
    if problem:
        raise ServiceError(problem, field="weapon")

    def penalties(who: Combatant) -> list[dict]:
        # Blindness (§4.8) and shock (§5.1: −HP lost to IQ, DX and their skills, next turn).
        found = [{"label": "cego (§4.8)", "value": who.dx_penalty}] if who.dx_penalty else []
        if who.shock and not who.shock_pending:
            found.append({"label": "choque (§5.1)", "value": who.shock})
        return found

    mine, theirs = penalties(c), penalties(t)
    skill = c.weapons[weapon]["skill"] + sum(m["value"] for m in mine)
    # "contra a arma ou escudo do inimigo (ou a DX dele)": the best he has in hand.
    his_base = max([*(t.weapons[i]["skill"] for i in usable_weapons(t)), t.dx])
    level = his_base + sum(m["value"] for m in theirs)
    sees = bool(target_sees) and t.status == Combatant.Status.FIGHTING and t.blind != "both_eyes"
    sees = sees and not (t.surprise == "total" and not t.acting)
    dark = "dark" in combat.terrain
    source = _source()
    result = engine.feint(source, skill, level, defender_sees_you=sees, in_darkness=dark)
    if result.worthless:
        why = "no escuro" if dark else f"{t.name} não vê {c.name}"
        lines.append(f"Finta de {c.name} contra {t.name}: {why}, não vale nada (§4.3).")
        c.feint = {}
        return
    name = c.weapons[weapon]["name"]
    for who, roll, title, base in (
        (c, result.feinter, f"Finta de {c.name} ({name})", c.weapons[weapon]["skill"]),
        (t, result.defender, f"{t.name} contra a finta", his_base),
    ):
        mods = mine if who is c else theirs
        text = (
            f"{title}: 3d6 = {'+'.join(map(str, roll.dice))} = {roll.total} contra "
            f"{roll.effective_level} — {checks.OUTCOME_NAMES[roll.outcome]}."
        )
        lines.append(text)
        _append(
            combat,
            user,
            character=who.character,
            label=_label(who, title),
            fields={
                "kind": "skill",
                "base_level": base,
                "modifiers": mods,
                "effective_level": roll.effective_level,
                "dice": list(roll.dice),
                "total": roll.total,
                "outcome": str(roll.outcome),
                "margin": roll.margin,
            },
            details=_base_details(
                combat, code, int(engine.StepNumber.MANEUVER), text=text, notes=[], rule="4.3"
            ),
        )
    _check_every_die(source.values, [_Dice(result.feinter.dice), _Dice(result.defender.dice)])
    if result.defence_penalty:
        c.feint = {"target": str(t.code), "penalty": result.defence_penalty, "round": combat.round}
        lines.append(
            f"{c.name} vence a finta por {result.defence_penalty}: −{result.defence_penalty} "
            f"na defesa ativa de {t.name} contra o próximo ataque de {c.name}, nesta rodada "
            "(§4.3)."
        )
    else:
        c.feint = {}
        lines.append(f"A finta de {c.name} não vale: {t.name} não perde nada (§4.3).")


@dataclass(frozen=True)
class _Dice:
    dice: tuple[int, ...]


@dataclass
class AttackOutcome:
    event: CombatEvent
    resolution: engine.AttackResolution
    rolls: list[Roll] = field(default_factory=list)


def _announced(
    combat: Combat, attacker: Combatant, weapon: dict, spec: AttackSpec
) -> tuple[list[engine.AnnouncedModifier], list[Modifier]]:
    announced, modifiers = [], []
    situation = engine.AttackSituation
    if spec.lighting:
        announced.append(engine.AnnouncedModifier(situation.POOR_LIGHTING, modifier=spec.lighting))
    if spec.total_darkness:
        announced.append(engine.AnnouncedModifier(situation.TOTAL_DARKNESS))
    if spec.bad_footing:
        announced.append(engine.AnnouncedModifier(situation.BAD_FOOTING, modifier=spec.bad_footing))
    if spec.awkward_position:
        announced.append(
            engine.AnnouncedModifier(situation.AWKWARD_POSITION, modifier=spec.awkward_position)
        )
    if attacker.posture in (Combatant.Posture.CROUCHING, Combatant.Posture.SITTING):
        announced.append(engine.AnnouncedModifier(situation.CROUCHING_OR_SITTING))
    last_round = int(attacker.wounds.get(str(combat.round - 1), 0))
    if last_round:
        announced.append(engine.AnnouncedModifier(situation.WOUND, amount=last_round))
    if "waist_deep_water" in combat.terrain and weapon.get("swing"):
        announced.append(engine.AnnouncedModifier(situation.SWING_IN_WAIST_DEEP_WATER))
    if "tight" in combat.terrain and weapon.get("weapon_class"):
        close = engine.close_combat_modifier(weapon["weapon_class"])
        if close is None:
            raise ServiceError(CLOSE_COMBAT_CANNOT.format(weapon=weapon["name"]), field="weapon")
        if close:
            announced.append(engine.AnnouncedModifier(situation.CLOSE_COMBAT_WEAPON))
    if weapon.get("ranged"):
        if spec.distance_m is None:
            raise ServiceError(RANGE_NEEDED, field="distance_m")
        distance = _between(spec.distance_m, 0, 100_000, "distance_m")
        modifiers.append(Modifier(range_modifier(distance), f"distância {distance} m"))
        turns = attacker.aim_turns if attacker.aim_weapon == spec.weapon else 0
        bonus = engine.AimState(turns).bonus(weapon.get("accuracy") or 0, weapon["skill"])
        modifiers.append(Modifier(bonus, "mira" if turns else "sem apontar"))
    if attacker.shock and not attacker.shock_pending:
        modifiers.append(Modifier(attacker.shock, "choque (§5.1)"))
    for extra in log_services.clean_modifiers(spec.modifiers):
        modifiers.append(Modifier(extra.value, extra.label))
    return announced, modifiers


def _defence_choices(
    defender: Combatant, spec: DefenceSpec
) -> tuple[list[engine.DefenceChoice], int | None]:
    choices = []
    parry_index = None
    bonus = 0
    if spec.retreat:
        sitting = defender.posture == Combatant.Posture.SITTING
        kneeling = defender.posture == Combatant.Posture.KNEELING
        bonus = defence.retreat_bonus(sitting=sitting, kneeling=kneeling, stunned=defender.stunned)
    for kind in spec.defences:
        if kind == "dodge":
            level = dodge_now(defender)
        elif kind == "block":
            level = block_now(defender)
            if level is None:
                raise ServiceError(NO_BLOCK.format(name=defender.name), field="defence")
        elif kind == "parry":
            index = spec.parry_weapon
            if index is None:
                index = next(
                    (
                        i
                        for i, w in enumerate(defender.weapons)
                        if w.get("parry") is not None and weapon_problem(defender, i) is None
                    ),
                    None,
                )
            if index is None or not 0 <= index < len(defender.weapons):
                raise ServiceError(NO_PARRY.format(name=defender.name), field="parry_weapon")
            problem = weapon_problem(defender, index)
            if problem and index in defender.unready and index not in defender.dropped:
                problem = PARRY_UNREADY.format(weapon=defender.weapons[index]["name"])
            if problem:
                raise ServiceError(problem, field="parry_weapon")
            level = parry_now(defender, index)
            if level is None:
                raise ServiceError(NO_PARRY.format(name=defender.name), field="parry_weapon")
            parry_index = index
        else:
            raise InvalidValue("defence", UNKNOWN_ACTIVE_DEFENCE)
        choices.append(engine.DefenceChoice(kind, level + bonus))
    return choices, parry_index


def _waits_out_of_turn(combat: Combat, a: Combatant) -> bool:
    """True when ``a`` attacks out of turn with the attack its Aguardar left (§4.3)."""
    if combat.round == 0:
        raise ServiceError(NOT_STARTED, code="not_started")
    now = current(combat)
    if now is not None and now.pk == a.pk:
        return False
    return a.waiting and a.in_the_fight and a.maneuver == engine.Maneuver.WAIT


class _Extra:
    """The rolls after the attack's own steps (§4.7's parry extras, §4.3's Will −3, §4.8's
    draw of the weapon that falls), each a Roll under the attack's event, and their lines."""

    def __init__(self, combat, user, code, source: RecordingSource, lines: list[str]) -> None:
        self.combat, self.user, self.code = combat, user, code
        self.source, self.lines = source, lines
        self.logged: list[int] = []

    def success(self, who, result, *, label, rule, kind="attribute", modifiers=()):
        self.logged.extend(result.dice)
        _log_success(
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
        details = _base_details(
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
        _append(
            self.combat,
            self.user,
            character=who.character,
            label=_label(who, title),
            fields={"kind": kind, "dice": list(faces), "total": total},
            details=details,
        )
        self.lines.append(text)

    def check(self) -> None:
        if self.logged != self.source.values:
            raise RuntimeError("A die was drawn that no roll of the log shows; nothing is saved.")


def _critical_miss_effects(extra: _Extra, a: Combatant, index: int, miss) -> None:
    """What the Tabela de Erros Críticos leaves on the attacker (§4.8)."""
    effect = tables.MissEffect(miss.effect)
    name = a.weapons[index]["name"]
    say = extra.lines.append
    if effect is tables.MissEffect.WEAPON_BREAKS:
        a.broken = sorted({*a.broken, index})
        say(f"{name} quebrada: não ataca nem apara com ela pelo resto do combate (§4.8).")
    elif effect in (tables.MissEffect.DROPS_WEAPON, tables.MissEffect.WEAPON_FLIES):
        a.dropped = sorted({*a.dropped, index})
        if index not in a.unready:
            _make_unready(a, index)
        say(f"{name} no chão: um turno em Preparar para apanhá-la (§4.8).")
        if effect is tables.MissEffect.WEAPON_FLIES:
            say(
                "A arma voa 1D metros, 50% para a frente, 50% para trás; quem estiver onde ela "
                "cai testa DX ou sofre metade do dano da arma — com o Mestre, que sabe quem "
                "está lá (§4.8, 14)."
            )
    elif effect is tables.MissEffect.WEAPON_TURNS:
        _make_unready(a, index, tables.WEAPON_TURNS_EXTRA_READY_TURNS)
        turns = a.ready_turns[str(index)]
        say(f"{name} gira na mão: {turns} turno(s) de Preparar para usá-la de novo (§4.8).")
    elif effect is tables.MissEffect.LOSES_BALANCE:
        a.off_balance = True
        say(OFF_BALANCE_NOTHING.format(name=a.name))
    elif effect is tables.MissEffect.SHOULDER_STRAINED:
        a.strained = sorted({*a.strained, index})
        say(ARM_STRAINED.format(weapon=name))
    elif effect is tables.MissEffect.FALLS:
        a.posture, a.knocked_down = Combatant.Posture.LYING, True
        say(f"{a.name} cai: deitado (§4.8, 16).")
    else:  # hits yourself, whole or half; the unarmed 1D−3 on the hand or foot
        say(
            "O motor não rola este dano: o Mestre rola e aplica os PV com um «Ajuste do "
            f"Mestre», citando esta linha. Tabela: {miss.text}"
        )


def _critical_hit_effects(extra: _Extra, d: Combatant, table) -> None:
    """What the critical hit tables leave on the defender besides the damage (§4.8)."""
    effect = table.effect
    if effect in (tables.HeadEffect.BLINDED_BOTH_EYES, tables.HeadEffect.BLINDED_ONE_EYE):
        both = effect == tables.HeadEffect.BLINDED_BOTH_EYES
        penalty = BLIND_BOTH_EYES_DX if both else BLIND_ONE_EYE_DX
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


# §4.8, head table 6 and 7: "luta a DX −10" / "DX −2 pelo resto da batalha".
BLIND_BOTH_EYES_DX = -10
BLIND_ONE_EYE_DX = -2


def _drop_a_weapon(extra: _Extra, d: Combatant) -> None:
    """ "A arma do oponente cai" / "deixa cair a arma (com duas, sorteia-se qual)" (§4.8)."""
    in_hand = [i for i in usable_weapons(d) if d.weapons[i]["attack_kind"] != "unarmed"]
    try:
        drawn = engine.draw_dropped_weapon(extra.source, len(in_hand))
    except OutsideCanon as error:
        extra.lines.append(f"Pendência: {error.message}")
        return
    if drawn.index is None:
        extra.lines.append(f"{d.name} não tem arma na mão para deixar cair.")
        return
    index = in_hand[drawn.index]
    name = d.weapons[index]["name"]
    if drawn.die is not None:
        names = ", ".join(d.weapons[i]["name"] for i in in_hand)
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
    d.dropped = sorted({*d.dropped, index})
    if index not in d.unready:
        _make_unready(d, index)
    extra.lines.append(f"{name} de {d.name} cai: um turno em Preparar para apanhá-la (§4.8).")


def _concentration(extra: _Extra, d: Combatant, level: int) -> None:
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


def _parry_extras(extra: _Extra, a: Combatant, weapon: dict, d: Combatant, index: int) -> None:
    """After a successful parry (§4.7): the parrying weapon may break against one 3× or more
    heavier; parrying a bare-handed blow with a weapon may injure the attacker."""
    mine = d.weapons[index]
    if weapon["attack_kind"] == "unarmed":
        if mine["attack_kind"] == "unarmed":
            return
        level = mine["skill"] + d.dx_penalty
        if level <= checks.NO_ROLL_AT_OR_BELOW:
            extra.lines.append(
                f"Aparar golpe de mão limpa: NH {level} — não se rola com 3 ou menos (§1.1)."
            )
            return
        injury_roll = defence.roll_unarmed_parry_injury(extra.source, level)
        extra.success(
            d,
            injury_roll.roll,
            label=f"{mine['name']} contra a mão limpa de {a.name} (§4.7)",
            rule="4.7",
            kind="skill",
        )
        if not injury_roll.injures:
            extra.lines.append(f"{a.name} não se fere na arma de {d.name} (§4.7).")
            return
        expression = dice_parse(mine["expression"])
        faces, rolled = expression.roll(extra.source)
        hurt = damage.wound(
            rolled, a.damage_resistance, mine["damage_type"], ht=a.ht, thrust=mine["thrust"]
        )
        extra.die(
            d,
            faces,
            rolled,
            kind=Roll.Kind.DAMAGE.value,
            title=f"Dano de {mine['name']} em {a.name} (§4.7)",
            text=f"Dano normal de {mine['name']} ({expression.display}) em {a.name}: "
            f"{'+'.join(map(str, faces)) or '0'} → {rolled}; RD {a.damage_resistance}: passam "
            f"{hurt.penetrating}; ×{float(hurt.multiplier):g}: {a.name} perde {hurt.hp_lost} PV.",
            rule="4.7",
            expression=mine["expression"],
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
        return
    incoming, own = weapon.get("weight_kg"), mine.get("weight_kg")
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
        title=f"Quebra de {mine['name']} ao aparar (§4.7)",
        text=f"{weapon['name']} ({incoming} kg) pesa 3 vezes ou mais que {mine['name']} "
        f"({own} kg): chance {chance.numerator}/{chance.denominator} — 1d = {broke.die} "
        f"(quebra com {sixths} ou menos): " + ("quebrou." if broke.breaks else "aguentou."),
        rule="4.7",
        row=f"1–{sixths}",
    )
    if broke.breaks:
        d.broken = sorted({*d.broken, index})
        extra.lines.append(f"{mine['name']} de {d.name} quebrou: não apara nem ataca mais (§4.7).")


@transaction.atomic
def attack_resolve(
    *,
    combat: Combat,
    attacker: Combatant,
    defender: Combatant,
    user,
    attack: AttackSpec,
    defence_choice: DefenceSpec = DefenceSpec(),
    request_key: str = "",
) -> AttackOutcome | CombatEvent:
    """One attack through the §4.10 sequence (rows 2–10), the server rolling every die.

    Everything is checked before the first die; then each die-bearing step becomes a Roll of
    the scene, in order, and the fight's state changes — all in this one transaction.
    Returns the earlier event when the same ``request_key`` comes again.
    """
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.ATTACK)
    if replay is not None:
        return replay
    a = Combatant.objects.select_related("character").get(pk=attacker.pk, combat=combat)
    d = Combatant.objects.select_related("character").get(pk=defender.pk, combat=combat)
    out_of_turn = _waits_out_of_turn(combat, a)
    if not out_of_turn:
        _ensure_turn_of(combat, a)
    if a.off_balance:
        raise ServiceError(OFF_BALANCE_NOTHING.format(name=a.name), field="combatant")
    if a.turn_lost_round == combat.round and not out_of_turn:
        raise ServiceError(UNBALANCED_TURN.format(name=a.name), field="maneuver")
    if a.pk == d.pk:
        raise ServiceError(SELF_ATTACK, field="defender")
    if d.status not in (Combatant.Status.FIGHTING, Combatant.Status.UNCONSCIOUS):
        raise ServiceError(
            OUT_OF_THE_FIGHT.format(name=d.name, status=d.get_status_display().lower()),
            field="defender",
        )
    if a.maneuver_round != combat.round and not out_of_turn:
        raise ServiceError(MANEUVER_FIRST.format(name=a.name), field="maneuver")
    row = engine.maneuver_row(a.maneuver)
    if row.maneuver is engine.Maneuver.WAIT and not a.waiting:
        raise ServiceError(WAIT_USED.format(name=a.name), code="attacks_used")
    if row.maneuver not in engine.ATTACK_MANEUVERS:
        raise ServiceError(
            NOT_AN_ATTACK_MANEUVER.format(name=a.name, maneuver=row.name), field="maneuver"
        )
    allowed = 1
    if row.maneuver is engine.Maneuver.ALL_OUT_ATTACK and a.all_out_option:
        allowed = engine.all_out_attack(
            a.all_out_option, ready_weapons=2, weapon_needs_no_readying=True
        ).attacks
    made = CombatEvent.objects.filter(
        combat=combat,
        kind=CombatEvent.Kind.ATTACK,
        round=combat.round,
        turn=combat.turn,
        data__attacker=str(a.code),
    ).count()
    if made >= allowed:
        raise ServiceError(
            ATTACKS_USED.format(name=a.name, count=made, maneuver=row.name), code="attacks_used"
        )
    if not 0 <= attack.weapon < len(a.weapons):
        raise ServiceError(UNKNOWN_WEAPON.format(name=a.name), field="weapon")
    weapon = a.weapons[attack.weapon]
    problem = weapon_problem(a, attack.weapon)
    if problem:
        raise ServiceError(problem, field="weapon")
    announced, modifiers = _announced(combat, a, weapon, attack)
    if a.dx_penalty:
        blind = "dos dois olhos" if a.blind == "both_eyes" else "de um olho"
        modifiers.append(Modifier(a.dx_penalty, f"cego {blind}: DX pelo resto da batalha (§4.8)"))
    feint_penalty = 0
    if a.feint.get("target") == str(d.code) and int(a.feint["round"]) >= combat.round - 1:
        feint_penalty = int(a.feint["penalty"])

    aware, why = True, ""
    if d.status == Combatant.Status.UNCONSCIOUS:
        aware, why = False, "inconsciente"
    elif d.surprise == "total" and not d.acting:
        aware, why = False, "surpresa total"
    if not aware and defence_choice.defences:
        raise ServiceError(NO_ACTIVE_DEFENCE_NOW.format(name=d.name, why=why), field="defence")
    choices, parry_index = _defence_choices(d, defence_choice)
    kinds = [choice.defence for choice in choices]
    if kinds:
        # The round's limits (§4.7, §4.3, §4.14) and the one retreat, checked before any die.
        round_defences(d).defend(
            *kinds, dagger=defence_choice.dagger, retreat=defence_choice.retreat
        )
    defender_maneuver = d.maneuver or NO_MANEUVER_YET
    attack_input = engine.AttackInput(
        name=a.name,
        skill=weapon["skill"],
        damage=weapon["expression"],
        damage_type=weapon["damage_type"],
        maneuver=row.maneuver,
        all_out_option=a.all_out_option or None,
        announced=tuple(announced),
        modifiers=tuple(modifiers),
        location=attack.location,
        arm_side=attack.arm_side,
        attack_kind=weapon["attack_kind"],
        thrust=weapon["thrust"],
        feint_penalty=feint_penalty,
    )
    defence_input = engine.DefenceInput(
        name=d.name,
        maneuver=defender_maneuver,
        passive_defense=d.passive_defense,
        choices=tuple(choices),
        aware=aware,
        reloading_missile_weapon=d.reloading and defender_maneuver == engine.Maneuver.READY,
        will=will_of(d.iq, d.strong_will, d.weak_will),
    )
    try:
        location = injury.HitLocation(attack.location or injury.HitLocation.TORSO)
    except ValueError:
        raise ServiceError(UNKNOWN_LOCATION, field="location") from None
    target = engine.TargetInput(
        ht=d.ht,
        hp=d.hp_now,
        dr=d.damage_resistance,
        kind=CombatantKind(d.kind),
        strong_will=d.strong_will,
        weak_will=d.weak_will,
        limb_hp_lost_before=int(d.limb_hp_lost.get(location.value, 0)),
    )
    source = _source()
    result = engine.resolve_attack(source, attack_input, defence_input, target)
    _check_every_die(source.values, result.steps)

    lines = list(result.lines)
    # Readiness after the attack (§4.3): an axe, a mace, a polearm must be readied again.
    if weapon.get("weapon_class"):
        try:
            after = engine.WeaponReadiness(weapon["weapon_class"]).after_attack()
            if not after.ready and attack.weapon not in a.unready:
                _make_unready(a, attack.weapon)
                lines.append(f"{weapon['name']} fica despreparada: um turno em Preparar (§4.3).")
        except OutsideCanon as error:
            lines.append(f"Pendência: {error.message}")
    a.fought = True
    if out_of_turn or row.maneuver is engine.Maneuver.WAIT:
        a.waiting = False
        if out_of_turn:
            lines.append(f"{a.name} ataca fora do turno: o ataque do Aguardar (§4.3).")
    if feint_penalty:
        a.feint = {}
        lines.append(f"A finta de {a.name} foi usada neste ataque (−{feint_penalty}, §4.3).")
    code = uuid.uuid4()
    rolls = _write_steps(
        combat,
        user,
        code,
        result.steps,
        attacker=a,
        defender=d,
        attack_skill=weapon["skill"],
        attack_modifiers=result.modifiers,
        expression=weapon["expression"],
    )
    # What the defender did and what it cost him.
    used = kinds[: len(result.defence_rolls)] if choices else []
    if used:
        after_round = round_defences(d).defend(
            *used, dagger=defence_choice.dagger, retreat=defence_choice.retreat
        )
        d.dodges_used, d.blocks_used = after_round.dodges, after_round.blocks
        d.parries_used, d.dagger_parries_used = after_round.parries, after_round.dagger_parries
        d.retreated = after_round.retreated
        d.fought = True
    extra = _Extra(combat, user, code, _source(), lines)
    if result.critical_miss is not None:
        _critical_miss_effects(extra, a, attack.weapon, result.critical_miss)
    if result.hit and result.critical_table is not None:
        _critical_hit_effects(extra, d, result.critical_table)
    if result.consequences is not None and result.consequences.drops_weapon:
        _drop_a_weapon(extra, d)
    if result.concentration_will_level is not None:
        _concentration(extra, d, result.concentration_will_level)
    if result.defended and used and used[-1] == "parry" and parry_index is not None:
        _parry_extras(extra, a, weapon, d, parry_index)
    extra.check()
    if result.aim_spoiled:
        d.aim_turns, d.aim_weapon = 0, None
    if result.reload_cancelled:
        d.reloading = False
    if result.hp_lost:
        d.hp_lost += result.hp_lost
        key = str(combat.round)
        d.wounds = {**d.wounds, key: int(d.wounds.get(key, 0)) + result.hp_lost}
        if location.value in ("arm", "hand", "leg", "foot"):
            d.limb_hp_lost = {
                **d.limb_hp_lost,
                location.value: int(d.limb_hp_lost.get(location.value, 0)) + result.hp_lost,
            }
    after = result.consequences
    if after is not None:
        if after.shock:
            d.shock += after.shock
            d.shock_pending = True
        if after.stunned:
            d.stunned = True
        if after.knocked_down:
            d.knocked_down = True
            d.posture = Combatant.Posture.LYING
        if after.crippled and location.value not in d.crippled:
            d.crippled = [*d.crippled, location.value]
        if after.knocked_out and d.status == Combatant.Status.FIGHTING:
            d.status = Combatant.Status.UNCONSCIOUS
        if after.dead:
            d.status = Combatant.Status.DEAD
        elif after.out_of_the_fight:
            d.status = _status_for_out(d)
    a.save()
    d.save()
    event = _event(
        combat,
        user,
        CombatEvent.Kind.ATTACK,
        f"{a.name} ataca {d.name} com {weapon['name']}.",
        lines=lines,
        data={
            "attacker": str(a.code),
            "defender": str(d.code),
            "hit": result.hit,
            "hp_lost": result.hp_lost,
            "hp_after": result.hp_after,
            "effective_level": result.effective_level,
            "rolls": [roll.sequence for roll in rolls],
        },
        request_key=request_key,
        code=code,
    )
    return AttackOutcome(event=event, resolution=result, rolls=rolls)


@transaction.atomic
def combatant_adjust(
    *,
    combat: Combat,
    combatant: Combatant,
    user,
    hp_lost: int,
    reason: str,
    request_key: str = "",
) -> CombatEvent:
    """The Mestre's logged adjustment: HP lost (or, negative, given back) that the engine does
    not roll — the critical miss's "atinge a si mesmo" and "1D−3 na mão ou no pé" (§4.8). It
    is a labelled event of the fight, with its reason, never a die."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.ADJUSTMENT)
    if replay is not None:
        return replay
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(ADJUST_REASON_NEEDED, field="reason")
    c = Combatant.objects.filter(pk=combatant.pk, combat=combat).first()
    if c is None:
        raise ServiceError(UNKNOWN_WEAPON.format(name="o combate"), field="combatant")
    _between(hp_lost, -400, 400, "hp_lost")
    if c.hp_lost + hp_lost < 0:
        raise ServiceError(VALUE_OUT_OF_RANGE.format(low=-c.hp_lost, high=400), field="hp_lost")
    c.hp_lost += hp_lost
    if hp_lost > 0 and combat.round:
        key = str(combat.round)
        c.wounds = {**c.wounds, key: int(c.wounds.get(key, 0)) + hp_lost}
    c.save()
    verb = "perde" if hp_lost >= 0 else "recupera"
    return _event(
        combat,
        user,
        CombatEvent.Kind.ADJUSTMENT,
        f"Ajuste do Mestre: {c.name} {verb} {abs(hp_lost)} PV (fica com {c.hp_now}).",
        lines=[f"Motivo: {reason[:500]}"],
        data={"combatant": str(c.code), "hp_lost": hp_lost},
        request_key=request_key,
    )


@transaction.atomic
def combat_end(*, combat: Combat, user, spoils: str = "", request_key: str = "") -> Combat:
    """End the fight: HP and fatigue lost carry into each character's state (a fight of more
    than 10 seconds costs its fatigue to whoever crossed weapons, §6.1); the dead and the
    fled are recorded; the spoils of a carcass noted (§5.4.1: the same at 0 or at −60)."""
    combat, replay = _begin(combat, user, request_key, CombatEvent.Kind.END)
    if replay is not None:
        return combat
    seconds = combat.round  # one round is one second (§4.1)
    lines = [f"Duração: {seconds} segundo(s) ({seconds} rodada(s), §4.1)."]
    for c in combat.combatants.select_related("character"):
        cost = 0
        if c.fought:
            cost = fatigue_rules.combat_fatigue(seconds, min(c.encumbrance_level, 4))
        if c.character_id is not None:
            state = state_of(c.character)
            state.hp_lost += c.hp_lost
            state.fatigue_lost = fatigue_rules.spend_fatigue(c.st, state.fatigue_lost, cost)
            state.stunned = False
            notes = []
            if c.status != Combatant.Status.FIGHTING:
                notes.append(c.get_status_display())
            if c.crippled:
                labels = ", ".join(injury.HitLocation(x).label for x in c.crippled)
                notes.append(f"incapacitado: {labels} (§5.5)")
            if notes:
                stamp = timezone.localtime().strftime("%d/%m")
                text = f"Combate de {stamp}: " + "; ".join(notes) + "."
                state.conditions = (state.conditions + "\n" + text).strip()
            state.save()
            lines.append(
                f"{c.name}: perdeu {c.hp_lost} PV (fica com {c.hp_now}) e {cost} de fadiga."
            )
        else:
            lines.append(f"{c.name}: {c.get_status_display().lower()}, {c.hp_now} PV.")
    spoils = (spoils or "").strip()
    if spoils:
        lines.append(f"Espólio de carcaça: {spoils}")
    combat.status = Combat.Status.ENDED
    combat.ended_at = timezone.now()
    combat.spoils = spoils[:4000]
    combat.save(update_fields=["status", "ended_at", "spoils"])
    _event(
        combat,
        user,
        CombatEvent.Kind.END,
        "Fim do combate.",
        lines=lines,
        request_key=request_key,
    )
    return combat


# --- what the page and the API show -----------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    hp: int
    label: str
    percent: float


@dataclass(frozen=True)
class Card:
    """A combatant as its card shows it, now."""

    combatant: Combatant
    full: bool
    is_current: bool
    hp_now: int
    hp_percent: float
    marks: tuple[Mark, ...]
    move: int
    dodge: int
    block: int | None
    parries: tuple[tuple[str, int], ...]
    defences_left: str
    maneuver_name: str
    fatigue_left: int
    readiness: tuple[tuple[str, bool], ...]
    dies_at: str
    effects: tuple[str, ...] = ()


def effects(c: Combatant) -> tuple[str, ...]:
    """What the tables and the maneuvers left on ``c``, as its card says it (§4.3, §4.8)."""
    name = {i: w["name"] for i, w in enumerate(c.weapons)}
    found = [f"{name[i]} quebrada" for i in c.broken if i in name]
    found += [f"{name[i]} no chão" for i in c.dropped if i in name]
    found += [f"Ombro estirado: sem {name[i]} no encontro" for i in c.strained if i in name]
    found += [
        f"{name[int(i)]}: {n} turno(s) de Preparar"
        for i, n in c.ready_turns.items()
        if int(i) in name and int(n) > 1
    ]
    if c.off_balance:
        found.append("Perdeu o equilíbrio: nada até o próximo turno, defesas −2")
    if c.unbalanced:
        found.append("Desequilibrado: o próximo turno só defende")
    if c.turn_lost_round and c.turn_lost_round == c.combat.round:
        found.append("Desequilibrado: este turno só defende")
    if c.blind:
        where = "dos dois olhos" if c.blind == "both_eyes" else "de um olho"
        found.append(f"Cego {where}: DX {c.dx_penalty} pelo resto da batalha")
    if c.feint:
        found.append(f"Finta: −{c.feint['penalty']} na defesa do alvo no próximo ataque")
    if c.concentration_lost:
        found.append("Perdeu a concentração")
    if c.waiting:
        found.append("Aguardando: um ataque fora do turno")
    if c.knocked_down and c.posture == Combatant.Posture.LYING:
        found.append("Caído")
    return tuple(found)


def _marks(c: Combatant) -> tuple[tuple[Mark, ...], float]:
    ladder = injury.hp_thresholds(c.ht)
    bottom, top = ladder.dead_at, c.hp
    span = max(1, top - bottom)

    def at(hp: int) -> float:
        return round(100 * (hp - bottom) / span, 2)

    marks = [Mark(ladder.staggered_at_or_below, "3", at(ladder.staggered_at_or_below))]
    marks.append(Mark(0, "0", at(0)))
    for index, line in enumerate(ladder.death_checks_at):
        marks.append(Mark(line, "−HT" if index == 0 else str(line).replace("-", "−"), at(line)))
    marks.append(Mark(ladder.dead_at, "−5×HT", 0.0))
    hp_percent = max(0.0, min(100.0, at(c.hp_now)))
    return tuple(m for m in marks if m.hp < top), hp_percent


def card(combat: Combat, c: Combatant, *, full: bool, is_current: bool) -> Card:
    marks, percent = _marks(c)
    left = engine.defences_left(c.maneuver or NO_MANEUVER_YET, reloading_missile_weapon=False)
    if c.maneuver == engine.Maneuver.READY and c.reloading:
        left = engine.defences_left(c.maneuver, reloading_missile_weapon=True)
    parries = tuple(
        (w["name"], parry_now(c, i))
        for i, w in enumerate(c.weapons)
        if w.get("parry") is not None and weapon_problem(c, i) is None
    )
    rule = {
        Combatant.Kind.CREATURE: "0 PV (§5.4.1)",
        Combatant.Kind.NAMED_NPC: "−HT (§5.4.1)",
        Combatant.Kind.BOSS: "−HT (§5.4.1)",
    }.get(c.kind, "escada completa (§5.4)")
    return Card(
        combatant=c,
        full=full,
        is_current=is_current,
        hp_now=c.hp_now,
        hp_percent=percent,
        marks=marks,
        move=move_now(c, combat.terrain),
        dodge=dodge_now(c),
        block=block_now(c),
        parries=parries,
        defences_left=left.text if c.maneuver else "Qualquer uma (ainda sem manobra)",
        maneuver_name=MANEUVER_NAMES.get(c.maneuver, ""),
        fatigue_left=max(0, c.st - c.fatigue_before),
        readiness=tuple((w["name"], weapon_problem(c, i) is None) for i, w in enumerate(c.weapons)),
        dies_at=rule,
        effects=effects(c),
    )


@dataclass(frozen=True)
class CombatView:
    combat: Combat
    cards: list[Card]
    current: Combatant | None
    events: list[CombatEvent]
    runs_the_table: bool


def combat_view(combat: Combat, *, membership, user) -> CombatView:
    """The tracker as ``user`` sees it: the table sees every card in full; a jogador sees his
    own characters' cards in full and everyone's visible state (3 queries)."""
    combatants = list(
        combat.combatants.select_related("character").order_by("position", "declared")
    )
    now = current(combat, combatants)
    cards = [
        card(
            combat,
            c,
            full=membership.runs_the_table
            or (c.character is not None and c.character.is_owned_by(user)),
            is_current=now is not None and c.pk == now.pk,
        )
        for c in combatants
    ]
    events = list(combat.events.order_by("-created_at", "-pk")[:12])
    return CombatView(combat, cards, now, events, membership.runs_the_table)


def combat_data(view: CombatView) -> dict:
    """The tracker as plain data, for the API."""
    combat = view.combat
    return {
        "id": combat.code,
        "scene": combat.scene.code,
        "status": combat.status,
        "round": combat.round,
        "turn": combat.turn,
        "current": view.current.code if view.current else None,
        "terrain": combat.terrain,
        "locked": combat.locked,
        "first_roll": combat.first_roll.sequence if combat.first_roll_id else None,
        "spoils": combat.spoils,
        "combatants": [_card_data(card) for card in view.cards],
        "events": [
            {"kind": e.kind, "round": e.round, "text": e.text, "lines": e.lines}
            for e in reversed(view.events)
        ],
    }


def _card_data(card: Card) -> dict:
    c = card.combatant
    data = {
        "id": c.code,
        "name": c.name,
        "kind": c.kind,
        "position": c.position,
        "status": c.status,
        "posture": c.posture,
        "stunned": c.stunned,
        "effects": list(card.effects),
        "maneuver": c.maneuver or None,
        "current": card.is_current,
        "character": c.character.code if c.character_id else None,
    }
    if card.full:
        data.update(
            {
                "hp": c.hp,
                "hp_now": c.hp_now,
                "hp_lost": c.hp_lost,
                "shock": c.shock,
                "move": card.move,
                "dodge": card.dodge,
                "block": card.block,
                "parries": [{"weapon": n, "value": v} for n, v in card.parries],
                "passive_defense": c.passive_defense,
                "damage_resistance": c.damage_resistance,
                "defences_left": card.defences_left,
                "aim_turns": c.aim_turns,
                "weapons": [
                    {
                        "index": i,
                        "name": w["name"],
                        "skill": w["skill"],
                        "damage": w["expression"],
                        "damage_type": w["damage_type"],
                        "ready": weapon_problem(c, i) is None,
                        "broken": i in c.broken,
                        "dropped": i in c.dropped,
                        "strained": i in c.strained,
                        "weight_kg": w.get("weight_kg"),
                    }
                    for i, w in enumerate(c.weapons)
                ],
                "defences_used": {
                    "dodge": c.dodges_used,
                    "block": c.blocks_used,
                    "parry": c.parries_used,
                    "retreated": c.retreated,
                },
                "crippled": c.crippled,
                "dies_at": card.dies_at,
                "off_balance": c.off_balance,
                "blind": c.blind or None,
                "dx_penalty": c.dx_penalty,
                "feint": c.feint or None,
                "concentration_lost": c.concentration_lost,
                "waiting": c.waiting,
            }
        )
    return data


def combat_rolls_in_order(combat: Combat) -> list[Roll]:
    """Every roll of the fight, in the chain's order."""
    return [
        roll
        for roll in Roll.objects.filter(scene=combat.scene).order_by("sequence")
        if (roll.details or {}).get("combat") == str(combat.code)
    ]
