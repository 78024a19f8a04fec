"""The combat tracker: a whole fight in a scene, every die in the scene log (canon §4, §5).

The Mestre (or the Árbitro) declares and decides; ``gurps`` does the arithmetic. A fight is a
``Combat`` with its ``Combatant``s and its ``CombatEvent``s (what is not a die); every die the
engine rolls becomes a ``Roll`` of the scene (``sessions.combat.rolls``), inside one transaction
under the campaign's lock. Nothing half-saved: if anything fails, no roll and no state change.

Here: starting a fight, adding combatants, declaring terrain and boss, the Mestre's adjustment,
a combatant marked fled, the end. The turn, the maneuver and the attack have their own
modules; the one-call turn is ``acting``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from campaigns.errors import ServiceError
from campaigns.models import Campaign
from gurps import combat as engine
from gurps import fatigue as fatigue_rules
from gurps.errors import GurpsError
from gurps.hit_locations import limb_label
from sessions import entries
from sessions.combat import specs
from sessions.combat.begin import combat_begin
from sessions.combat.messages import (
    ADD_BEFORE_FIRST_TURN,
    ADJUST_REASON_NEEDED,
    BOSS_NOT_A_PLAYER,
    BOSS_TOO_LATE,
    COMBAT_ACTIVE_EXISTS,
    COMBATANT_NOT_FOUND,
    END_WAITS_FOR_DEFENCE,
    FLED_TEXT,
    FLEE_ONLY_FIGHTING,
    NAME_EMPTY,
    NAME_TAKEN,
    SURPRISE_UNKNOWN,
    TERRAIN_NAMES,
    TERRAIN_TOO_LATE,
    UNKNOWN_WEAPON,
    VALUE_OUT_OF_RANGE,
)
from sessions.combat.numbers import combatant_numbers
from sessions.combat.specs import CreatureSpec
from sessions.combat.state import between, combat_event, combatant_save
from sessions.combat.weapons import (
    RANGED_SKILLS,
    CombatWeapon,
    weapon_class_of_skill,
    weapon_line,
)
from sessions.log import services as log_services
from sessions.models import Combat, Combatant, CombatEvent, Roll, Scene
from sessions.native_combat import services as native_services
from sheets.computed import sheet_view, version_facts
from sheets.models import Character, Item
from sheets.reads import state_of

KIND_FROM_CHARACTER = {
    Character.Kind.PLAYER_CHARACTER: Combatant.Kind.PLAYER_CHARACTER,
    Character.Kind.NAMED_NPC: Combatant.Kind.NAMED_NPC,
    Character.Kind.CREATURE: Combatant.Kind.CREATURE,
}


def _line(**kwargs) -> CombatWeapon:
    """A weapon line with the scene's own bounds on dice (no million-die weapon in the chain)."""
    return weapon_line(
        **kwargs,
        max_dice=log_services.MAX_DAMAGE_DICE,
        max_adds=log_services.MAX_DAMAGE_ADDS,
        too_many_dice=log_services.TOO_MANY_DICE,
        adds_too_large=log_services.DAMAGE_ADDS_TOO_LARGE,
    )


def _sheet_weapons(version, carried: list[Item], levels: dict[str, int]) -> list[CombatWeapon]:
    """The attack lines of what the character carries: each item with damage and a skill on
    the sheet. A damage the canon has no number for at this ST (§4.9) stays, and says so."""
    lines = []
    for item in carried:
        skill = levels.get(item.skill_name.casefold()) if item.skill_name else None
        if not item.damage or skill is None:
            continue
        skill_name = item.skill_name.casefold().strip()
        try:
            lines.append(
                _line(
                    name=item.name,
                    skill=skill,
                    written=item.damage,
                    st=version.st,
                    weapon_class=weapon_class_of_skill(item.skill_name),
                    attack_kind=RANGED_SKILLS.get(skill_name, "hand_weapon"),
                    parry_kind=item.parry,
                    accuracy=item.ranged_accuracy,
                    weight_kg=item.weight_kg,
                )
            )
        except (ServiceError, GurpsError):
            continue  # text the canon cannot read: the sheet page says so, next to the item
    return lines


def _character_row(character: Character) -> dict:
    """What a character brings into the fight: its sheet's attributes and traits the fight
    reads, and its attack lines. Its Move, Dodge, parries, Block, PD and DR are not copied:
    they are asked of the sheet's numbers whenever they are needed (``numbers``)."""
    view = sheet_view(character)
    if view is None:
        raise ServiceError(log_services.NO_SHEET, field="characters")
    version, state = view.version, view.state
    facts = version_facts(version)
    traits = list(version.traits.all())
    carried = [p.item for p in view.possessions if p.carried and p.item_id]
    weapons = _sheet_weapons(version, carried, facts.levels)
    return {
        "character": character,
        "name": character.name,
        "kind": KIND_FROM_CHARACTER.get(character.kind, Combatant.Kind.PLAYER_CHARACTER),
        "st": version.st,
        "dx": version.dx,
        "iq": version.iq,
        "ht": version.ht,
        "hp": view.derived.hp,
        "hp_before": view.derived.hp_remaining,
        "fatigue_before": state.fatigue_lost,
        "combat_reflexes": "combat_reflexes" in facts.trait_keys,
        "strong_will": sum(t.level or 1 for t in traits if t.key == "strong_will"),
        "weak_will": sum(t.level or 1 for t in traits if t.key == "weak_will"),
        "fencer": any(w.parry_kind == "fencing" for w in weapons),
        "weapons": [w.to_json() for w in weapons],
        "stunned": state.stunned,
    }


def _creature_weapons(spec: CreatureSpec) -> list[CombatWeapon]:
    lines = []
    for index, weapon in enumerate(spec.weapons):
        prefix = f"weapons.{index}"
        if not (weapon.name or "").strip():
            raise ServiceError(NAME_EMPTY, field=f"{prefix}.name")
        skill = engine.creature_weapon_skill(weapon.skill, spec.dx)
        between(skill, *specs.SKILL, f"{prefix}.skill")
        if weapon.parry is not None:
            between(weapon.parry, *specs.DEFENCE_LEVEL, f"{prefix}.parry")
        if weapon.accuracy is not None:
            between(weapon.accuracy, *specs.ACCURACY, f"{prefix}.accuracy")
        lines.append(
            _line(
                name=weapon.name.strip(),
                skill=skill,
                written=weapon.damage,
                st=spec.st,
                weapon_class=weapon.weapon_class,
                attack_kind=weapon.attack_kind,
                given_parry=weapon.parry,
                accuracy=weapon.accuracy,
                weight_kg=weapon.weight_kg,
                field_name=prefix,
            )
        )
    return lines


def _creature_row(spec: CreatureSpec) -> dict:
    """A bestiary creature or NPC as the Mestre enters it: its numbers are data (inputs). A
    Move or Dodge not given is stored empty: the canon's, from DX, HT and Carga, is derived
    when read (``gurps.derived.derive``, §2.1), as a sheet's."""
    name = (spec.name or "").strip()
    if not name:
        raise ServiceError(NAME_EMPTY, field="name")
    if spec.kind not in (Combatant.Kind.CREATURE, Combatant.Kind.NAMED_NPC):
        raise ServiceError(VALUE_OUT_OF_RANGE.format(low="bicho", high="NPC"), field="kind")
    for attribute in ("st", "dx", "iq", "ht"):
        between(getattr(spec, attribute), *specs.ATTRIBUTE, attribute)
    hp = spec.ht if spec.hp is None else between(spec.hp, *specs.HP, "hp")
    if spec.move is not None:
        between(spec.move, *specs.MOVE, "move")
    for defence in ("dodge", "block"):
        if getattr(spec, defence) is not None:
            between(getattr(spec, defence), *specs.DEFENCE_LEVEL, defence)
    between(spec.passive_defense, *specs.PASSIVE_DEFENSE, "passive_defense")
    between(spec.damage_resistance, *specs.DAMAGE_RESISTANCE, "damage_resistance")
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
        "dodge": spec.dodge,
        "block": spec.block,
        "passive_defense": spec.passive_defense,
        "damage_resistance": spec.damage_resistance,
        "combat_reflexes": spec.combat_reflexes,
        "flees": spec.flees,
        "weapons": [w.to_json() for w in _creature_weapons(spec)],
        "demo_note": spec.demo_note[:1000],
    }


def _add(combat: Combat, row: dict) -> Combatant:
    if combat.combatants.filter(name=row["name"]).exists():
        raise ServiceError(NAME_TAKEN, field="name")
    last = combat.combatants.aggregate(top=Max("declared"))["top"] or 0
    return Combatant.objects.create(combat=combat, declared=last + 1, **row)


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
    campaign = scene.week.campaign
    entries.require_table(user, campaign, what=entries.RUNS_COMBAT)
    if native_services.plays_whole(campaign.ruleset):
        # Its fights are the ruleset's own (sessions.native_combat: fight_*).
        raise ServiceError(
            native_services.NOT_NATIVE_HERE.format(label=campaign.get_ruleset_display()),
            code="wrong_ruleset",
        )
    if request_key:
        existing = Combat.objects.filter(scene=scene, request_key=request_key).first()
        if existing is not None:
            return existing
    entries.ensure_scene_accepts_entries(scene)
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    if Combat.objects.filter(scene=scene, status=Combat.Status.ACTIVE).exists():
        raise ServiceError(COMBAT_ACTIVE_EXISTS, code="combat_active")
    present = list(scene.characters.all())
    chosen = present if characters is None else list(characters)
    for character in chosen:
        if character.pk not in {c.pk for c in present}:
            raise ServiceError(log_services.CHARACTER_NOT_IN_SCENE, field="characters")
    numbers = [_character_row(c) for c in chosen]
    try:
        with transaction.atomic():
            combat = Combat.objects.create(scene=scene, started_by=user, request_key=request_key)
    except IntegrityError:
        raise ServiceError(COMBAT_ACTIVE_EXISTS, code="combat_active") from None
    for entry in numbers:
        _add(combat, entry)
    names = ", ".join(n["name"] for n in numbers) or "ninguém ainda"
    combat_event(combat, user, CombatEvent.Kind.START, f"Começa o combate: {names}.")
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
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.COMBATANT)
    if replay is not None:
        return Combatant.objects.get(code=replay.data["combatant"])
    if combat.round > 0:
        raise ServiceError(ADD_BEFORE_FIRST_TURN, code="combat_started")
    if surprise and surprise not in {kind.value for kind in engine.Surprise}:
        raise ServiceError(SURPRISE_UNKNOWN, field="surprise")
    if character is not None:
        if not combat.scene.characters.filter(pk=character.pk).exists():
            raise ServiceError(log_services.CHARACTER_NOT_IN_SCENE, field="character")
        numbers = _character_row(character)
    elif creature is not None:
        numbers = _creature_row(creature)
    else:
        raise ServiceError(NAME_EMPTY, field="name")
    added = _add(
        combat, {**numbers, "surprise": surprise, "acting": engine.acting_from_the_start(surprise)}
    )
    kind = Combatant.Kind(added.kind).label.lower()
    combat_event(
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
    of the combat (docs/DESIGN.md, invariant 8 (Boss and terrain first),
    ``gurps.combat.declared_in_time``)."""
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.DECLARATION)
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
    combat_event(
        combat,
        user,
        CombatEvent.Kind.DECLARATION,
        " ".join(lines) or "Nada declarado.",
        request_key=request_key,
    )
    return combat


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
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.ADJUSTMENT)
    if replay is not None:
        return replay
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(ADJUST_REASON_NEEDED, field="reason")
    c = Combatant.objects.filter(pk=combatant.pk, combat=combat).first()
    if c is None:
        raise ServiceError(UNKNOWN_WEAPON.format(name="o combate"), field="combatant")
    between(hp_lost, -400, 400, "hp_lost")
    if c.hp_lost + hp_lost < 0:
        raise ServiceError(VALUE_OUT_OF_RANGE.format(low=-c.hp_lost, high=400), field="hp_lost")
    c.hp_lost += hp_lost
    if hp_lost > 0 and combat.round:
        key = str(combat.round)
        c.wounds = {**c.wounds, key: int(c.wounds.get(key, 0)) + hp_lost}
    combatant_save(c)
    verb = "perde" if hp_lost >= 0 else "recupera"
    return combat_event(
        combat,
        user,
        CombatEvent.Kind.ADJUSTMENT,
        f"Ajuste do Mestre: {c.name} {verb} {abs(hp_lost)} PV (fica com {c.hp_now}).",
        lines=[f"Motivo: {reason[:500]}"],
        data={"combatant": str(c.code), "hp_lost": hp_lost},
        request_key=request_key,
    )


@transaction.atomic
def combatant_flee(
    *, combat: Combat, combatant: Combatant, user, request_key: str = ""
) -> CombatEvent:
    """Mark ``combatant`` fled (fugiu), as the Mestre sees it leave: he is out of the turn
    order from now on and does not come back into this fight; what the fight did to him —
    HP, fatigue, stun, shock, crippling — stays as it is (and a character's state keeps it,
    docs/DESIGN.md, invariant 12 (The state is live)). The end of the fight counts his fatigue by
    the seconds he fought (§6.1, reading "fled_fight_seconds"). Refused (ServiceError naming
    "combatant") unless he is in the fight. The same ``request_key`` again returns the earlier
    event."""
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.FLED)
    if replay is not None:
        return replay
    c = Combatant.objects.filter(pk=combatant.pk, combat=combat).first()
    if c is None:
        raise ServiceError(COMBATANT_NOT_FOUND, field="combatant")
    if not c.in_the_fight:
        status = c.get_status_display().lower()
        raise ServiceError(FLEE_ONLY_FIGHTING.format(name=c.name, status=status), field="combatant")
    c.status = Combatant.Status.FLED
    c.fled_round = max(combat.round, 1)
    c.waiting = False
    combatant_save(c)
    return combat_event(
        combat,
        user,
        CombatEvent.Kind.FLED,
        FLED_TEXT.format(name=c.name, round=c.fled_round),
        data={"combatant": str(c.code), "round": c.fled_round},
        request_key=request_key,
    )


@transaction.atomic
def combat_end(*, combat: Combat, user, spoils: str = "", request_key: str = "") -> Combat:
    """End the fight. Its wounds are in each character's state already (written as they
    happened); what ending adds is the fatigue of a fight of more than 10 seconds to whoever
    crossed weapons (§6.1) — one who fled, by the seconds he fought (reading
    "fled_fight_seconds") —, the end of the stun, and the conditions the fight left, in the
    state's notes. The dead and the fled are recorded; the spoils of a carcass noted (§5.4.1:
    the same at 0 or at −60). Nothing is applied twice: HP were in the state as they were
    lost, and the fatigue is added once, by the one end."""
    combat, replay = combat_begin(combat, user, request_key, CombatEvent.Kind.END)
    if replay is not None:
        return combat
    waiting = combat.combatants.exclude(pending_defence={}).first()
    if waiting is not None:
        raise ServiceError(END_WAITS_FOR_DEFENCE.format(name=waiting.name), code="defence_pending")
    seconds = combat.round  # one round is one second (§4.1)
    lines = [f"Duração: {seconds} segundo(s) ({seconds} rodada(s), §4.1)."]
    for c in combat.combatants.select_related("character"):
        lines.append(_leave_the_fight(combat, c, seconds))
    spoils = (spoils or "").strip()
    if spoils:
        lines.append(f"Espólio de carcaça: {spoils}")
    combat.status = Combat.Status.ENDED
    combat.ended_at = timezone.now()
    combat.spoils = spoils[:4000]
    combat.save(update_fields=["status", "ended_at", "spoils"])
    combat_event(
        combat,
        user,
        CombatEvent.Kind.END,
        "Fim do combate.",
        lines=lines,
        request_key=request_key,
    )
    return combat


def _leave_the_fight(combat: Combat, c: Combatant, seconds: int) -> str:
    """What ending the fight writes for ``c``, and the line the log says of it."""
    if c.character_id is None:
        fled = f" (fugiu na rodada {c.fled_round})" if c.fled_round else ""
        return f"{c.name}: {c.get_status_display().lower()}{fled}, {c.hp_now} PV."
    numbers = combatant_numbers(c)
    cost = 0
    fought_for = engine.fight_seconds(seconds, fled_in_round=c.fled_round)
    if c.fought:
        cost = fatigue_rules.combat_fatigue(fought_for, numbers.encumbrance_level)
    c.fatigue_before = fatigue_rules.spend_fatigue(c.st, c.fatigue_before, cost)
    c.stunned = False
    combatant_save(c)
    notes = []
    if c.status != Combatant.Status.FIGHTING:
        fled = f" na rodada {c.fled_round}" if c.fled_round else ""
        notes.append(c.get_status_display() + fled)
    if c.crippled:
        labels = ", ".join(limb_label(x) for x in c.crippled)
        notes.append(f"incapacitado: {labels} (§5.5)")
    if notes:
        state = state_of(c.character)
        stamp = timezone.localtime().strftime("%d/%m")
        text = f"Combate de {stamp}: " + "; ".join(notes) + "."
        state.conditions = (state.conditions + "\n" + text).strip()
        state.save(update_fields=["conditions", "updated_at"])
    if c.fled_round:
        return (
            f"{c.name}: fugiu na rodada {c.fled_round}; perdeu {c.hp_lost} PV (fica com "
            f"{c.hp_now}) e {cost} de fadiga, pelos {fought_for} segundo(s) em que lutou "
            "(§6.1; leitura: quem foge paga pelo tempo em que lutou)."
        )
    return f"{c.name}: perdeu {c.hp_lost} PV (fica com {c.hp_now}) e {cost} de fadiga."
