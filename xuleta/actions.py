"""The turn and its budget, and the actions in combat (Xuleta, «§2 El teu torn», «§3 Accions en
combat»).

«El combat va per rondes d'uns 6 segons. A cada ronda tothom té un torn. En el teu et pots moure
i fer una acció, en l'ordre que vulguis.» A turn's budget is ``Budget`` (plain data, JSON-able
with ``as_json``/``from_json``); each spending function returns a new one or raises
``XuletaError`` naming the field.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from types import MappingProxyType

from xuleta.conditions import incapacitated
from xuleta.errors import XuletaError

ROUND_SECONDS = 6

# The action kinds a turn takes: key → (the text's words, what it spends, its section).
ACTION, BONUS, REACTION, FREE, MOVE = "action", "bonus_action", "reaction", "free", "movement"
ACTIONS = MappingProxyType(
    {
        "attack": ("Atacar", ACTION, "3.1"),
        "cast_spell": ("Llançar un encanteri", ACTION, "3.2"),
        "dash": ("Córrer", ACTION, "3.3"),
        "disengage": ("Desenganxar-se", ACTION, "3.4"),
        "dodge": ("Esquivar", ACTION, "3.5"),
        "help": ("Ajudar", ACTION, "3.6"),
        "hide": ("Amagar-se", ACTION, "3.7"),
        "ready": ("Preparar", ACTION, "3.8"),
        "search": ("Cercar", ACTION, "3.9"),
        "use_object": ("Fer servir un objecte", ACTION, "3.10"),
        "grapple": ("Agafar", ACTION, "3.11"),
        "shove": ("Empènyer", ACTION, "3.12"),
        "stabilize": ("Estabilitzar", ACTION, "5.9"),
        "escape_grapple": ("Deslliurar-se (Agafat)", ACTION, "1.6"),
        "other_action": ("Una altra cosa (digues-ho al DM)", ACTION, "3"),
        "reaction": ("Reacció (preparada, o un encanteri de reacció)", REACTION, "2.6"),
        "offhand_attack": ("Combat amb dues armes (acció addicional)", BONUS, "3.14"),
        "bonus_action": ("Acció addicional", BONUS, "2.5"),
        "move": ("Moviment", MOVE, "2.3"),
        "stand_up": ("Aixecar-se", MOVE, "2.3"),
        "drop_prone": ("Llançar-se a terra", FREE, "2.3"),
        "interact": ("Interactuar amb un objecte", FREE, "2.7"),
        "release": ("Deixar anar (Agafar)", FREE, "3.11"),
        "end_concentration": ("Deixar la concentració", FREE, "7.4"),
    }
)
ACTION_LABELS = MappingProxyType({key: value[0] for key, value in ACTIONS.items()})

TOO_MANY_ACTIONS = "Uma ação por turno: «En tens una per torn.» Já usou {used}."
NO_BONUS = (
    "Sem ação adicional: «Si no tens res que la faci servir, no tens acció addicional.» Diga o "
    "que a dá (source)."
)
BONUS_USED = "Uma ação adicional por turno: «Com a molt una per torn.»"
NO_REACTION = "Sem reação: «En tens una per ronda.» Já a usou nesta rodada."
TOO_FAR = "Movimento de {wanted} m além do que resta: {left} m."
CANNOT_ACT = "{who} não pode agir: {why}."
SECOND_OBJECT = (
    "«Per a una segona cosa així has de fer servir la teva acció»: use use_object para a segunda "
    "interação."
)


@dataclass(frozen=True)
class Budget:
    """What is left of a turn: ``movement_m`` (metres still to move), ``speed_m`` (the speed
    this turn), ``action`` (the action's key when spent, ``""`` otherwise), ``bonus_action``
    (likewise), ``object_interaction`` (the free one spent), ``disengaged``, ``dashed``,
    ``can_act`` (False when surprised on the first turn or incapacitated), ``why_not``."""

    speed_m: float
    movement_m: float
    action: str = ""
    bonus_action: str = ""
    object_interaction: bool = False
    disengaged: bool = False
    dashed: bool = False
    can_act: bool = True
    why_not: str = ""
    attacks_left: int = 0

    def as_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data) -> Budget:
        return cls(**dict(data))


def start_turn(speed_m: float, conditions=(), surprised_first_turn: bool = False) -> Budget:
    """The budget at the start of a turn: «Et pots moure fins a la teva velocitat», one action,
    and the reaction recovered («La recuperes en començar el teu torn», the caller's). Surprised
    on the first turn: «no es mou ni actua»; incapacitated: «No pots fer accions ni
    reaccions.» (§2)"""
    if surprised_first_turn:
        return Budget(0, 0, can_act=False, why_not="surpreso: não se move nem age no 1º turno")
    if incapacitated(conditions):
        return Budget(speed_m, speed_m, can_act=False, why_not="incapacitado")
    return Budget(speed_m, speed_m)


def spend_action(budget: Budget, key: str, field: str = "kind") -> Budget:
    """Spend the turn's action on ``key``: «El més important del teu torn (…) En tens una per
    torn.» Córrer adds the speed: «Guanyes moviment extra igual a la teva velocitat aquest
    torn.» Desenganxar-se: «El teu moviment no provoca atacs d'oportunitat durant la resta del
    torn.»"""
    if not budget.can_act:
        raise XuletaError(CANNOT_ACT.format(who="O combatente", why=budget.why_not), field)
    if budget.action:
        raise XuletaError(TOO_MANY_ACTIONS.format(used=ACTION_LABELS[budget.action]), field)
    changed = replace(budget, action=key)
    if key == "dash":
        changed = replace(changed, movement_m=budget.movement_m + budget.speed_m, dashed=True)
    if key == "disengage":
        changed = replace(changed, disengaged=True)
    return changed


def spend_bonus_action(budget: Budget, key: str, granted_by: str, field: str = "kind") -> Budget:
    """«Una acció extra i ràpida, però només si un tret, un encanteri o un objecte te'n dona
    una. Com a molt una per torn.» ``granted_by``: what grants it (Combat amb dues armes grants
    its own)."""
    if not budget.can_act:
        raise XuletaError(CANNOT_ACT.format(who="O combatente", why=budget.why_not), field)
    if not granted_by:
        raise XuletaError(NO_BONUS, field)
    if budget.bonus_action:
        raise XuletaError(BONUS_USED, field)
    return replace(budget, bonus_action=key)


def move(budget: Budget, metres: float, cost_factor: int = 1, field: str = "metres") -> Budget:
    """Move ``metres`` (each costing ``cost_factor``: 2 in difficult terrain or crawling):
    «El pots partir: caminar una mica, atacar i continuar caminant.»"""
    if metres < 0:
        raise XuletaError("Metros não podem ser negativos.", field)
    if budget.why_not.startswith("surpreso"):
        raise XuletaError(CANNOT_ACT.format(who="O combatente", why=budget.why_not), field)
    cost = metres * cost_factor
    if cost > budget.movement_m + 1e-9:
        raise XuletaError(TOO_FAR.format(wanted=cost, left=budget.movement_m), field)
    return replace(budget, movement_m=budget.movement_m - cost)


def stand_up(budget: Budget, field: str = "kind") -> Budget:
    """«Llançar-te a terra no costa moviment; aixecar-te en costa la meitat.» (§2.3)"""
    return move(budget, budget.speed_m / 2, field=field)


def interact(budget: Budget, field: str = "kind") -> Budget:
    """«Una cosa senzilla de franc en el teu torn (…) Per a una segona cosa així has de fer
    servir la teva acció.» (§2.7)"""
    if budget.object_interaction:
        raise XuletaError(SECOND_OBJECT, field)
    return replace(budget, object_interaction=True)


def use_reaction(available: bool, conditions=(), field: str = "reaction") -> bool:
    """Spend the round's reaction: «En tens una per ronda.» Refused when spent or incapacitated;
    returns the reaction now (False)."""
    if incapacitated(conditions):
        raise XuletaError(CANNOT_ACT.format(who="O combatente", why="incapacitado"), field)
    if not available:
        raise XuletaError(NO_REACTION, field)
    return False


def attacks_per_action(extra_attack: int = 1) -> int:
    """«Alguns trets (com Atac Extra) et deixen atacar més d'un cop amb aquesta acció.» The
    count is an input (the sheet's trait or the Mestre's numbers): 1 without such a trait."""
    if not 1 <= extra_attack <= 4:
        raise XuletaError("Ataques por ação: de 1 a 4.", "attacks_per_action")
    return extra_attack


def dodge_holds(conditions=(), speed_m: float = 1) -> bool:
    """Esquivar «Dura fins al principi del teu torn següent.» «Ho perds si quedes incapacitat o
    la teva velocitat baixa a 0.» (§3.5)"""
    return not incapacitated(conditions) and speed_m > 0


def dash_reach(speed_m: float) -> float:
    """«Amb 9 m de velocitat, pots arribar a 18 m.» (§3.3)"""
    return 2 * speed_m


BONUS_SPELL_THEN_CANTRIP = (
    "«Si llances un encanteri amb l'acció addicional, en aquell torn només pots llançar a més un "
    "truc d'una acció.» Este é de nível {level}."
)


def spell_allowed(bonus_action_spell: bool, spell_level: int, field: str = "spell_level") -> None:
    """«Si llances un encanteri amb l'acció addicional, en aquell torn només pots llançar a més
    un truc d'una acció.» (§7.3 Temps de llançament) ``spell_level``: 0 a cantrip («Trucs»,
    nivell 0), 1–9 otherwise. Raises ``XuletaError`` for a levelled spell with the action after
    a spell with the bonus action."""
    if not 0 <= spell_level <= 9:
        raise XuletaError("Nível de magia: de 0 (truque) a 9.", field)
    if bonus_action_spell and spell_level > 0:
        raise XuletaError(BONUS_SPELL_THEN_CANTRIP.format(level=spell_level), field)


NO_SLOT = "Sem espaço de nível {level} livre: tem {known}."
SLOT_TOO_LOW = (
    "«gasten un espai del seu nivell o superior»: nível {slot} abaixo do da magia ({level})."
)


def spend_slot(
    slots: dict[str, int], spent: dict[str, int], spell_level: int, slot_level: int = 0
) -> dict[str, int]:
    """«Els encanteris de nivell 1 a 9 gasten un espai del seu nivell o superior.» (§7.1) A
    cantrip (level 0) spends none («No gasten espais»). ``slots``/``spent``: level (``"1"``…) →
    count; returns the new ``spent``. Raises ``XuletaError`` (``slot_level``) when none is left."""
    if spell_level == 0:
        return dict(spent)
    level = slot_level or spell_level
    if level < spell_level:
        raise XuletaError(SLOT_TOO_LOW.format(slot=level, level=spell_level), "slot_level")
    key = str(level)
    if slots.get(key, 0) - spent.get(key, 0) <= 0:
        left = {k: v - spent.get(k, 0) for k, v in slots.items() if v - spent.get(k, 0) > 0}
        known = ", ".join(f"nível {k}: {v}" for k, v in sorted(left.items())) or "nenhum"
        raise XuletaError(NO_SLOT.format(level=level, known=known), "slot_level")
    return {**spent, key: spent.get(key, 0) + 1}
