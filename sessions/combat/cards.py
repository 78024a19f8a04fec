"""The fight as the pages and the API show it: each combatant's card, now, and the tracker's view
for one viewer (the table sees every card in full; a jogador his own cards, and everyone's
visible state).

Every number on a card is ``sessions.combat.numbers``' (the engine's, the sheet's function); the
HP ladder is ``gurps.injury.hp_thresholds`` and ``gurps.house.out_of_the_fight_at`` (§5.4,
§5.4.1). Nothing here compares HP with a threshold.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field

from gurps import combat as engine
from gurps import house, injury
from sessions.combat.defending import DefenceOption, defence_options
from sessions.combat.messages import DEFENCE_NAMES, MANEUVER_NAMES, NO_ACCURACY
from sessions.combat.numbers import CombatantNumbers, combatant_numbers, sheet_views
from sessions.combat.pending import pending_of
from sessions.combat.state import current, weapon_problem
from sessions.combat.weapons import CombatWeapon
from sessions.models import Combat, Combatant, CombatEvent, Roll

DIES_AT = {
    Combatant.Kind.CREATURE: "0 PV (§5.4.1)",
    Combatant.Kind.NAMED_NPC: "−HT (§5.4.1)",
    Combatant.Kind.BOSS: "−HT (§5.4.1)",
}


@dataclass(frozen=True)
class Mark:
    hp: int
    label: str
    percent: float


@dataclass(frozen=True)
class WeaponState:
    """One attack line as the card shows it: ``damage`` the dice at the wielder's ST (None
    where the canon has no number, and then ``damage_problem`` says why, §4.9)."""

    index: int
    line: CombatWeapon
    damage: str | None
    damage_type: str | None
    damage_problem: str | None
    parry: int | None
    problem: str | None

    @property
    def ready(self) -> bool:
        return self.problem is None

    @property
    def accuracy_missing(self) -> str:
        """For a ranged line without Prec, what that means for aiming (§4.3), else ""."""
        return NO_ACCURACY if self.line.ranged and self.line.accuracy is None else ""


@dataclass(frozen=True)
class Card:
    """A combatant as its card shows it, now."""

    combatant: Combatant
    numbers: CombatantNumbers
    full: bool
    is_current: bool
    hp_percent: float
    marks: tuple[Mark, ...]
    defences_left: str
    maneuver_name: str
    weapons: tuple[WeaponState, ...]
    dies_at: str
    effects: tuple[str, ...] = ()
    defences: tuple[DefenceOption, ...] = ()
    chooser: bool = False  # the viewer sets this defender's own choice (its jogador)
    defence_form: object = None  # the chooser's form, drawn by the page

    @property
    def standing_text(self) -> str:
        """The defender's own choice as the card says it (§4.1, §4.6)."""
        chosen = self.combatant.standing_defence or {}
        first, then = chosen.get("first"), chosen.get("then")
        c = self.combatant
        if not first:
            if c.character_id is not None and c.character.owner_id is not None:
                return "escolhida pelo jogador na hora de cada ataque (§4.6)"
            return "a do Mestre, no ataque; sem ela, a de maior total que a manobra deixa"
        if first == "best":
            return "decidir por mim: a de maior total que a manobra deixa" + (
                ", recuando" if chosen.get("retreat") else ""
            )
        text = "decidir por mim: " + DEFENCE_NAMES[first]
        text += f", senão {DEFENCE_NAMES[then]}" if then else ""
        return text + (", recuando" if chosen.get("retreat") else "")

    @property
    def hp_now(self) -> int:
        return self.numbers.hp_now

    @property
    def staggered(self) -> bool:
        return self.numbers.derived.staggered

    @property
    def parries(self) -> tuple[tuple[str, int], ...]:
        """Each weapon's Aparar once (its lines share it), among the weapons ready to parry."""
        seen, found = set(), []
        for w in self.weapons:
            if w.parry is not None and w.ready and w.line.weapon not in seen:
                seen.add(w.line.weapon)
                found.append((w.line.name, w.parry))
        return tuple(found)

    @property
    def fatigue_left(self) -> int:
        return self.numbers.derived.st_after_fatigue


def card_effects(c: Combatant) -> tuple[str, ...]:
    """What the tables and the maneuvers left on ``c``, as its card says it (§4.3, §4.8)."""
    name = {i: w.name for i, w in enumerate(c.weapon_lines())}
    found = [f"{name[i]} quebrada" for i in c.broken if i in name]
    found += [f"{name[i]} no chão" for i in c.dropped if i in name]
    found += [f"Ombro estirado: sem {name[i]} no encontro" for i in c.strained if i in name]
    found += [
        f"{name[int(i)]}: {n} turno(s) de Preparar"
        for i, n in c.ready_turns.items()
        if int(i) in name and int(n) > 1
    ]
    found += [text for flag, text in _FLAGS if getattr(c, flag)]
    if c.turn_lost_round and c.turn_lost_round == c.combat.round:
        found.append("Desequilibrado: este turno só defende")
    if c.blind:
        where = "dos dois olhos" if c.blind == "both_eyes" else "de um olho"
        found.append(f"Cego {where}: DX {c.dx_penalty} pelo resto da batalha")
    if c.feint:
        found.append(f"Finta: −{c.feint['penalty']} na defesa do alvo no próximo ataque")
    if c.knocked_down and c.posture == Combatant.Posture.LYING:
        found.append("Caído")
    if c.fled_round:
        found.append(f"Fugiu na rodada {c.fled_round}: fora da ordem do turno")
    return tuple(found)


_FLAGS = (
    ("off_balance", "Perdeu o equilíbrio: nada até o próximo turno, defesas −2"),
    ("unbalanced", "Desequilibrado: o próximo turno só defende"),
    ("concentration_lost", "Perdeu a concentração"),
    ("waiting", "Aguardando: um ataque fora do turno"),
)


def _marks(c: Combatant, numbers: CombatantNumbers) -> tuple[tuple[Mark, ...], float]:
    """The HP bar runs from the line where this kind of combatant is out for certain (§5.4.1:
    a creature at 0, an NPC or boss at −HT, a player character at −5 × HT) up to full HP."""
    ladder = injury.hp_thresholds(c.ht)
    bottom, top = house.out_of_the_fight_at(c.kind, c.ht), numbers.hp
    span = max(1, top - bottom)

    def at(hp: int) -> float:
        return round(100 * (hp - bottom) / span, 2)

    lines = [(ladder.staggered_at_or_below, "3"), (0, "0")]
    lines += [
        (line, "−HT" if index == 0 else str(line).replace("-", "\u2212"))
        for index, line in enumerate(ladder.death_checks_at)
    ]
    lines.append((ladder.dead_at, "−5×HT"))
    marks = tuple(Mark(hp, label, at(hp)) for hp, label in lines if bottom <= hp < top)
    return marks, max(0.0, min(100.0, at(numbers.hp_now)))


def weapon_states(c: Combatant, numbers: CombatantNumbers) -> tuple[WeaponState, ...]:
    states = []
    for index, line in enumerate(c.weapon_lines()):
        problem = line.damage_problem(c.st)
        read = None if problem else line.read(c.st)
        states.append(
            WeaponState(
                index=index,
                line=line,
                damage=str(read.expression) if read else None,
                damage_type=read.damage_type.value if read and read.damage_type else None,
                damage_problem=problem,
                parry=numbers.parry_of(line),
                problem=weapon_problem(c, index),
            )
        )
    return tuple(states)


def defences_left_text(c: Combatant) -> str:
    """What the maneuver leaves (§4.3); reloading a missile weapon leaves only Dodge."""
    if not c.maneuver:
        return "Qualquer uma (ainda sem manobra)"
    reloading = c.maneuver == engine.Maneuver.READY and c.reloading
    return engine.defences_left(c.maneuver, reloading_missile_weapon=reloading).text


def card(
    combat: Combat,
    c: Combatant,
    *,
    full: bool,
    is_current: bool,
    numbers: CombatantNumbers | None = None,
    chooser: bool = False,
) -> Card:
    numbers = numbers or combatant_numbers(c, terrain=combat.terrain)
    marks, percent = _marks(c, numbers)
    return Card(
        combatant=c,
        numbers=numbers,
        full=full,
        is_current=is_current,
        hp_percent=percent,
        marks=marks,
        defences_left=defences_left_text(c),
        maneuver_name=MANEUVER_NAMES.get(c.maneuver, ""),
        weapons=weapon_states(c, numbers),
        dies_at=DIES_AT.get(c.kind, "escada completa (§5.4)"),
        effects=card_effects(c),
        defences=defence_options(c, numbers) if full else (),
        chooser=chooser,
    )


@dataclass(frozen=True)
class CombatView:
    combat: Combat
    cards: list[Card]
    current: Combatant | None
    events: list[CombatEvent]
    runs_the_table: bool
    # Each attack waiting for a defence (§4.6): (what waits, whether this reader sees the
    # defender's numbers, whether he is the one who answers).
    pending: list[tuple] = dataclass_field(default_factory=list)


def combat_view(combat: Combat, *, membership, user) -> CombatView:
    """The tracker as ``user`` sees it: the table sees every card in full; a jogador sees his
    own characters' cards in full and everyone's visible state."""
    combatants = list(
        combat.combatants.select_related("character").order_by("position", "declared")
    )
    views = sheet_views(combatants)
    now = current(combat, combatants)
    cards = [
        card(
            combat,
            c,
            full=membership.runs_the_table
            or (c.character is not None and c.character.is_owned_by(user)),
            is_current=now is not None and c.pk == now.pk,
            numbers=combatant_numbers(c, terrain=combat.terrain, view=views.get(c.character_id)),
            chooser=c.character is not None and c.character.is_owned_by(user),
        )
        for c in combatants
    ]
    events = list(combat.events.order_by("-created_at", "-pk")[:12])
    pending = [
        (found, card.full, card.chooser)
        for card in cards
        if card.combatant.pending_defence
        and (found := pending_of(combat, card.combatant, numbers=card.numbers)) is not None
    ]
    return CombatView(combat, cards, now, events, membership.runs_the_table, pending)


def combat_rolls_in_order(combat: Combat) -> list[Roll]:
    """Every roll of the fight, in the chain's order."""
    return [
        roll
        for roll in Roll.objects.filter(scene=combat.scene).order_by("sequence")
        if (roll.details or {}).get("combat") == str(combat.code)
    ]
