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

from gurps import checks, damage, defence, injury
from gurps import combat as engine
from gurps import fatigue as fatigue_rules
from gurps.attributes import is_staggered
from gurps.dice import RandomSource
from gurps.errors import UNKNOWN_ACTIVE_DEFENCE, GurpsError, InvalidValue, OutsideCanon
from gurps.house import CombatantKind
from gurps.ranged import range_modifier
from gurps.rolling import Modifier
from sessions import services
from sessions.models import Combat, Combatant, CombatEvent, Roll, Scene
from sheets.models import Campaign, Character
from sheets.services import ServiceError, sheet_view, state_of

# Messages are constants so tests import them instead of repeating them.
COMBAT_ACTIVE_EXISTS = "Já há um combate em andamento nesta cena: encerre-o antes de outro."
COMBAT_ENDED = "Este combate já terminou; o que está aqui fica como está."
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
IDEMPOTENCY_OTHER_ACTION = "Esta chave de idempotência já foi usada por outra ação do combate."

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
    return RecordingSource(services._system_random())


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
    modifiers: tuple[services.Modifier, ...] = ()


# --- helpers ----------------------------------------------------------------------------------


def _between(value: int, low: int, high: int, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(VALUE_OUT_OF_RANGE.format(low=low, high=high), field=field_name)
    return value


def _ensure_active(combat: Combat) -> None:
    if not combat.is_active:
        raise ServiceError(COMBAT_ENDED, code="combat_ended")
    services._ensure_scene_accepts_entries(combat.scene)


def _lock(combat: Combat) -> Combat:
    """Take the campaign's lock (the chain's) and read the combat afresh under it."""
    Campaign.objects.select_for_update().get(pk=combat.scene.week.campaign_id)
    return Combat.objects.select_related("scene__week__campaign", "first_roll").get(pk=combat.pk)


def _replayed(combat: Combat, request_key: str, kind: str) -> CombatEvent | None:
    if not request_key:
        return None
    event = CombatEvent.objects.filter(combat=combat, request_key=request_key).first()
    if event is not None and event.kind != kind:
        raise ServiceError(IDEMPOTENCY_OTHER_ACTION, code="idempotency_conflict")
    return event


def _event(
    combat: Combat, user, kind: str, text: str, *, lines=(), data=None, request_key="", code=None
):
    """The event of one action, written after its rolls (which name its ``code``)."""
    combat.revision += 1
    combat.save(update_fields=["revision", "round", "turn", "terrain", "first_roll", "status"])
    return CombatEvent.objects.create(
        code=code or uuid.uuid4(),
        combat=combat,
        kind=kind,
        round=combat.round,
        turn=combat.turn,
        text=text,
        lines=list(lines),
        data=data or {},
        author=user,
        request_key=(request_key or "")[:64],
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
    field_name: str = "weapons",
) -> dict:
    try:
        read = damage.weapon_damage(written, st)
    except InvalidValue as error:
        raise ServiceError(error.message, field=f"{field_name}.damage") from None
    if read.damage_type is None:
        raise ServiceError(DAMAGE_TYPE_NEEDED, field=f"{field_name}.damage")
    if weapon_class:
        engine.weapon_class(weapon_class)  # InvalidValue("weapon_class") if unknown
    if attack_kind not in {kind.value for kind in engine.AttackKind}:
        raise InvalidValue(f"{field_name}.attack_kind", UNKNOWN_ATTACK_KIND)
    ranged = attack_kind not in ("hand_weapon", "unarmed")
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
    }


def _character_numbers(character: Character) -> dict:
    """A character's numbers for the fight, from its homologated sheet and its state."""
    view = sheet_view(character)
    if view is None:
        raise ServiceError(services.NO_SHEET, field="characters")
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


def dodge_now(c: Combatant) -> int:
    """Dodge as it stands: a character's from Move (halved at 3 HP or less, +1 Combat
    Reflexes, −4 stunned, §4.6, §5.4); an entered Dodge halved at 3 HP or less, −4 stunned."""
    if c.character_id is not None:
        move = c.move // 2 if staggered(c) else c.move
        return defence.dodge(move, combat_reflexes=c.combat_reflexes, stunned=c.stunned)
    base = c.dodge // 2 if staggered(c) else c.dodge
    return base + (defence.STUNNED_PENALTY if c.stunned else 0)


def block_now(c: Combatant) -> int | None:
    if c.block is None:
        return None
    return c.block + (defence.STUNNED_PENALTY if c.stunned else 0)


def parry_now(c: Combatant, index: int) -> int | None:
    weapon = c.weapons[index]
    if weapon.get("parry") is None:
        return None
    return weapon["parry"] + (defence.STUNNED_PENALTY if c.stunned else 0)


def _allowance(c: Combatant) -> defence.DefenceAllowance:
    parrying = [w for w in c.weapons if w.get("parry") is not None]
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
    roll = services._append_roll(
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
    combat: Combat, user, event_code, who: Combatant, result: checks.SuccessRoll, *, label, rule
) -> checks.SuccessRoll:
    """A turn-start roll (stun, total surprise, 0 HP) in the log, §4.10 row 1 (the turn)."""
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
            "kind": "attribute",
            "base_level": level,
            "modifiers": [],
            "effective_level": level,
            "dice": list(result.dice),
            "total": result.total,
            "outcome": str(result.outcome),
            "margin": result.margin,
        },
        details=_base_details(
            combat, event_code, int(engine.StepNumber.MANEUVER), text=text, notes=[], rule=rule
        ),
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
    services._require_table(user, campaign)
    services._ensure_scene_accepts_entries(scene)
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    if Combat.objects.filter(scene=scene, status=Combat.Status.ACTIVE).exists():
        raise ServiceError(COMBAT_ACTIVE_EXISTS, code="combat_active")
    present = list(scene.characters.all())
    chosen = present if characters is None else list(characters)
    for character in chosen:
        if character.pk not in {c.pk for c in present}:
            raise ServiceError(services.CHARACTER_NOT_IN_SCENE, field="characters")
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
    services._require_table(user, combat.scene.week.campaign)
    combat = _lock(combat)
    replay = _replayed(combat, request_key, CombatEvent.Kind.COMBATANT)
    if replay is not None:
        return Combatant.objects.get(code=replay.data["combatant"])
    _ensure_active(combat)
    if combat.round > 0:
        raise ServiceError(ADD_BEFORE_FIRST_TURN, code="combat_started")
    if surprise and surprise not in {kind.value for kind in engine.Surprise}:
        raise ServiceError(SURPRISE_UNKNOWN, field="surprise")
    if character is not None:
        if not combat.scene.characters.filter(pk=character.pk).exists():
            raise ServiceError(services.CHARACTER_NOT_IN_SCENE, field="character")
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
    services._require_table(user, combat.scene.week.campaign)
    combat = _lock(combat)
    if _replayed(combat, request_key, CombatEvent.Kind.DECLARATION) is not None:
        return combat
    _ensure_active(combat)
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
    services._require_table(user, combat.scene.week.campaign)
    combat = _lock(combat)
    if _replayed(combat, request_key, CombatEvent.Kind.TURN) is not None:
        return combat
    _ensure_active(combat)
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
    request_key: str = "",
) -> CombatEvent:
    """The combatant whose turn it is declares its maneuver (§4.1, §4.3): it fixes the
    movement and the defences it keeps until its next turn."""
    services._require_table(user, combat.scene.week.campaign)
    combat = _lock(combat)
    replay = _replayed(combat, request_key, CombatEvent.Kind.MANEUVER)
    if replay is not None:
        return replay
    _ensure_active(combat)
    c = Combatant.objects.get(pk=combatant.pk)
    _ensure_turn_of(combat, c)
    if c.stunned:
        raise ServiceError(STUNNED_NO_MANEUVER.format(name=c.name), field="maneuver")
    if c.surprise == "partial" and combat.round == 1:
        raise ServiceError(PARTIAL_SURPRISE_LOSES_TURN.format(name=c.name), field="maneuver")
    if c.surprise == "total" and not c.acting:
        raise ServiceError(TOTAL_SURPRISE_STILL.format(name=c.name), field="maneuver")
    if c.maneuver_round == combat.round:
        raise ServiceError(MANEUVER_ALREADY.format(name=c.name), field="maneuver")
    row = engine.maneuver_row(maneuver)
    option = ""
    if row.maneuver is engine.Maneuver.ALL_OUT_ATTACK:
        ready = [i for i, _ in enumerate(c.weapons) if i not in c.unready]
        engine.all_out_attack(all_out_option, ready_weapons=len(ready))
        option = all_out_option
    if weapon is not None and not 0 <= weapon < len(c.weapons):
        raise ServiceError(UNKNOWN_WEAPON.format(name=c.name), field="weapon")
    lines = []
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
        if weapon in c.unready:
            c.unready = [i for i in c.unready if i != weapon]
            lines.append(f"{c.weapons[weapon]['name']} preparada (§4.3).")
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
        + (f" ({option})" if option else "")
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
    )


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
    for extra in services.clean_modifiers(spec.modifiers):
        modifiers.append(Modifier(extra.value, extra.label))
    return announced, modifiers


def _defence_choices(defender: Combatant, spec: DefenceSpec) -> list[engine.DefenceChoice]:
    choices = []
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
                    (i for i, w in enumerate(defender.weapons) if w.get("parry") is not None),
                    None,
                )
            if index is None or not 0 <= index < len(defender.weapons):
                raise ServiceError(NO_PARRY.format(name=defender.name), field="parry_weapon")
            if index in defender.unready:
                raise ServiceError(
                    PARRY_UNREADY.format(weapon=defender.weapons[index]["name"]),
                    field="parry_weapon",
                )
            level = parry_now(defender, index)
            if level is None:
                raise ServiceError(NO_PARRY.format(name=defender.name), field="parry_weapon")
        else:
            raise InvalidValue("defence", UNKNOWN_ACTIVE_DEFENCE)
        choices.append(engine.DefenceChoice(kind, level + bonus))
    return choices


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
    services._require_table(user, combat.scene.week.campaign)
    combat = _lock(combat)
    replay = _replayed(combat, request_key, CombatEvent.Kind.ATTACK)
    if replay is not None:
        return replay
    _ensure_active(combat)
    a = Combatant.objects.select_related("character").get(pk=attacker.pk, combat=combat)
    d = Combatant.objects.select_related("character").get(pk=defender.pk, combat=combat)
    _ensure_turn_of(combat, a)
    if a.pk == d.pk:
        raise ServiceError(SELF_ATTACK, field="defender")
    if d.status not in (Combatant.Status.FIGHTING, Combatant.Status.UNCONSCIOUS):
        raise ServiceError(
            OUT_OF_THE_FIGHT.format(name=d.name, status=d.get_status_display().lower()),
            field="defender",
        )
    if a.maneuver_round != combat.round:
        raise ServiceError(MANEUVER_FIRST.format(name=a.name), field="maneuver")
    row = engine.maneuver_row(a.maneuver)
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
        combat=combat, kind=CombatEvent.Kind.ATTACK, round=combat.round, turn=combat.turn
    ).count()
    if made >= allowed:
        raise ServiceError(
            ATTACKS_USED.format(name=a.name, count=made, maneuver=row.name), code="attacks_used"
        )
    if not 0 <= attack.weapon < len(a.weapons):
        raise ServiceError(UNKNOWN_WEAPON.format(name=a.name), field="weapon")
    weapon = a.weapons[attack.weapon]
    if attack.weapon in a.unready:
        raise ServiceError(WEAPON_UNREADY.format(weapon=weapon["name"]), field="weapon")
    announced, modifiers = _announced(combat, a, weapon, attack)

    aware, why = True, ""
    if d.status == Combatant.Status.UNCONSCIOUS:
        aware, why = False, "inconsciente"
    elif d.surprise == "total" and not d.acting:
        aware, why = False, "surpresa total"
    if not aware and defence_choice.defences:
        raise ServiceError(NO_ACTIVE_DEFENCE_NOW.format(name=d.name, why=why), field="defence")
    choices = _defence_choices(d, defence_choice)
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
    )
    defence_input = engine.DefenceInput(
        name=d.name,
        maneuver=defender_maneuver,
        passive_defense=d.passive_defense,
        choices=tuple(choices),
        aware=aware,
        reloading_missile_weapon=d.reloading and defender_maneuver == engine.Maneuver.READY,
        will=d.iq + d.strong_will - d.weak_will,
    )
    location = injury.HitLocation(attack.location) if attack.location else injury.HitLocation.TORSO
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
            if not after.ready:
                a.unready = sorted({*a.unready, attack.weapon})
                lines.append(f"{weapon['name']} fica despreparada: um turno em Preparar (§4.3).")
        except OutsideCanon as error:
            lines.append(f"Pendência: {error.message}")
    a.fought = True
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
def combat_end(*, combat: Combat, user, spoils: str = "", request_key: str = "") -> Combat:
    """End the fight: HP and fatigue lost carry into each character's state (a fight of more
    than 10 seconds costs its fatigue to whoever crossed weapons, §6.1); the dead and the
    fled are recorded; the spoils of a carcass noted (§5.4.1: the same at 0 or at −60)."""
    services._require_table(user, combat.scene.week.campaign)
    combat = _lock(combat)
    if _replayed(combat, request_key, CombatEvent.Kind.END) is not None or not combat.is_active:
        if combat.is_active:
            return combat
        raise ServiceError(COMBAT_ENDED, code="combat_ended")
    services._ensure_scene_accepts_entries(combat.scene)
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
        if w.get("parry") is not None and i not in c.unready
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
        readiness=tuple((w["name"], i not in c.unready) for i, w in enumerate(c.weapons)),
        dies_at=rule,
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
                        "ready": i not in c.unready,
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
