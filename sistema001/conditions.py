"""The chapter's conditions as data, how they stack, and what they do to a roll.

Chapter «4. Combate», «Condições» and «Lista de Condições». Each ``Condition`` keeps the
chapter's sentence (``text``) and its effects as data: modifiers to attack, defence or tests
with their scope, vantagem/desvantagem, no movement, no execution, one action, movement
halved, start-of-turn damage. ``apply`` renews rather than stacks («Condições iguais não se
acumulam»); ``modifiers`` sums what the active conditions do to one roll, with the fighter's
resistance (half, rounded down), vulnerability (double) and immunity (nothing) to each
condition; ``start_of_turn_damage`` lists the PV a turn starts with losing.

Conditions given as keys are mundane and have no source; as ``TimedEffect`` they carry their
source, nature and damage. Readings: ``condition_scale_non_numeric``, ``condition_test_scope``,
``mundane_immune_conditions``, ``bleeding_damage_type``, ``poison_is_chemical``,
``condition_same_key``, ``paralysed_defence``, ``edge_cancel``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from sistema001.errors import Sistema001Error
from sistema001.fighters import (
    CONDITION_LABELS,
    DAMAGE_TYPE_LABELS,
    PHYSICAL_DAMAGE_TYPES,
    Fighter,
)
from sistema001.rolls import DESVANTAGEM, VANTAGEM, combine_edges
from sistema001.timing import TimedEffect

SECTION = "Lista de Condições"

ATAQUE = "ataque"
DEFESA = "defesa"
TESTE = "teste"
ROLLS: tuple[str, ...] = (ATAQUE, DEFESA, TESTE)

PHYSICAL_ATTRIBUTES = frozenset({"mobilidade", "acuidade", "forca", "resistencia"})

# Scopes of a modifier or an edge (when it applies):
TODOS = "todos"  # every roll of its kind
CORPO_A_CORPO = "corpo_a_corpo"  # own attack in melee / defence against a melee attack
DISTANCIA = "distancia"  # own ranged attack / defence against a ranged attack
PRIMEIRO_ATAQUE_DA_FONTE = "primeiro_ataque_da_fonte"  # defence vs the source's first attack
CONTRA_FONTE = "contra_fonte"  # attacking the condition's source
CONTRA_OUTROS = "contra_outros"  # attacking anyone but the source
ALVO_NAO_PERCEBE = "alvo_nao_percebe"  # a target that cannot see the attacker
FISICO = "fisico"  # a roll of a physical attribute (Mobilidade, Acuidade, Força, Resistência)
VISAO = "visao"  # a Mobilidade/Acuidade roll that depends on sight
ASTUCIA_ACUIDADE = "astucia_acuidade"  # a roll of Astúcia or Acuidade
SCOPES: tuple[str, ...] = (
    TODOS,
    CORPO_A_CORPO,
    DISTANCIA,
    PRIMEIRO_ATAQUE_DA_FONTE,
    CONTRA_FONTE,
    CONTRA_OUTROS,
    ALVO_NAO_PERCEBE,
    FISICO,
    VISAO,
    ASTUCIA_ACUIDADE,
)
SCOPE_TEXT = MappingProxyType(
    {
        TODOS: "",
        CORPO_A_CORPO: "corpo a corpo",
        DISTANCIA: "à distância",
        PRIMEIRO_ATAQUE_DA_FONTE: "contra o primeiro ataque do agressor",
        CONTRA_FONTE: "contra a fonte da contenção",
        CONTRA_OUTROS: "contra quem não é a fonte",
        ALVO_NAO_PERCEBE: "contra quem não o percebe",
        FISICO: "físico",
        VISAO: "que depende da visão",
        ASTUCIA_ACUIDADE: "de Astúcia ou Acuidade",
    }
)
ROLL_TEXT = MappingProxyType({ATAQUE: "no ataque", DEFESA: "na Defesa", TESTE: "no teste"})

UNKNOWN_ROLL = "Rolagem desconhecida: use ataque, defesa ou teste."
UNKNOWN_CONDITION = "Condição desconhecida «{key}»."
BAD_CONDITION = "Dê cada condição por sua chave ou como efeito com duração."
BLEEDING_PHYSICAL = "Sangrando causa dano físico: corte, perfuração ou contusão."
POISON_BY_MESTRE = (
    "Envenenado: o veneno define os efeitos; o Mestre informa o dano por turno ao aplicar a "
    "condição."
)


@dataclass(frozen=True)
class Modifier:
    """``amount`` on ``roll`` («ataque», «defesa», «teste») when ``scope`` holds."""

    roll: str
    amount: int
    scope: str = TODOS


@dataclass(frozen=True)
class Edge:
    """Vantagem or Desvantagem (``edge``) on ``roll`` when ``scope`` holds."""

    roll: str
    edge: str
    scope: str = TODOS


@dataclass(frozen=True)
class Condition:
    """One condition of the «Lista de Condições»: ``text`` is the chapter's sentence; the rest
    is what it does, as data. ``speed``: the factor on movement (``Fraction(1, 2)``: halved,
    rounded down). ``turn_damage``: ``(PV, damage type)`` at the start of each of its turns, or
    ``None``; ``turn_damage_by_origin``: the origin gives it (Envenenado). ``attacks_as``: a
    situation its own attacks face (Cego: «Tudo à sua volta é considerado em camuflagem
    total»). ``notes``: what the Mestre judges (in Portuguese)."""

    key: str
    label: str
    text: str
    modifiers: tuple[Modifier, ...] = ()
    edges: tuple[Edge, ...] = ()
    no_movement: bool = False
    no_execution: bool = False
    no_full_action: bool = False
    one_action: bool = False
    no_mobility: bool = False
    speed: Fraction = Fraction(1)
    turn_damage: tuple[int, str] | None = None
    turn_damage_by_origin: bool = False
    attacks_as: str | None = None
    notes: tuple[str, ...] = field(default=())


def _c(key: str, text: str, **effects: object) -> Condition:
    return Condition(key, CONDITION_LABELS[key], text, **effects)  # type: ignore[arg-type]


CONDITIONS: Mapping[str, Condition] = MappingProxyType(
    {
        c.key: c
        for c in (
            _c(
                "desprevenido",
                "Desprevenido: O personagem não está pronto para reagir a um agressor específico "
                "e sofre -2 na Defesa contra o primeiro ataque daquele agressor, representando "
                "uma falha momentânea de leitura de ameaça ou tempo de reação.",
                modifiers=(Modifier(DEFESA, -2, PRIMEIRO_ATAQUE_DA_FONTE),),
            ),
            _c(
                "caido",
                "Caído: O personagem está no chão, voluntariamente ou após ser derrubado, "
                "sofrendo -5 nos ataques corpo a corpo, -5 na Defesa contra ataques corpo a "
                "corpo e recebendo +5 na Defesa contra ataques à distância, devido à posição "
                "desfavorável e à dificuldade de movimentação.",
                modifiers=(
                    Modifier(ATAQUE, -5, CORPO_A_CORPO),
                    Modifier(DEFESA, -5, CORPO_A_CORPO),
                    Modifier(DEFESA, 5, DISTANCIA),
                ),
            ),
            _c(
                "cego",
                "Cego: O personagem não consegue enxergar nada no ambiente. Tudo à sua volta é "
                "considerado em camuflagem total. Sofre -10 em testes de Mobilidade e Acuidade "
                "que dependam da visão.",
                modifiers=(
                    Modifier(ATAQUE, -10, VISAO),
                    Modifier(DEFESA, -10, VISAO),
                    Modifier(TESTE, -10, VISAO),
                ),
                attacks_as="camuflagem_total",
            ),
            _c(
                "contido",
                "Contido: O personagem está fisicamente restringido por agarrões, amarras, "
                "tentáculos, magia ou efeito semelhante, não podendo realizar Ações de "
                "Movimento, mas podendo realizar Ações de Execução. Sofre Desvantagem ao atacar "
                "alvos que não sejam a fonte da contenção e sofre -5 no ataque ao tentar atingir "
                "a própria fonte da contenção, defendendo-se normalmente contra qualquer ataque.",
                modifiers=(Modifier(ATAQUE, -5, CONTRA_FONTE),),
                edges=(Edge(ATAQUE, DESVANTAGEM, CONTRA_OUTROS),),
                no_movement=True,
            ),
            _c(
                "invisivel",
                "Invisível: O personagem não pode ser visto diretamente por meios normais e "
                "recebe Vantagem nos testes de ataque contra alvos que não conseguem percebê-lo "
                "visualmente, dificultando reações defensivas e antecipação de movimentos.",
                edges=(Edge(ATAQUE, VANTAGEM, ALVO_NAO_PERCEBE),),
            ),
            _c(
                "paralisado",
                "Paralisado: O personagem fica completamente imóvel, incapaz de realizar Ações "
                "de Execução, Ações de Movimento ou usar Mobilidade de qualquer forma, embora "
                "permaneça consciente e plenamente ciente do ambiente ao seu redor.",
                no_movement=True,
                no_execution=True,
                no_full_action=True,
                no_mobility=True,
            ),
            _c(
                "atordoado",
                "Atordoado: O personagem sofre um impacto, choque ou desequilíbrio momentâneo "
                "que compromete sua coordenação, podendo realizar apenas 1 Ação em seu turno, "
                "seja de Execução ou de Movimento.",
                one_action=True,
                no_full_action=True,
            ),
            _c(
                "desorientado",
                "Desorientado: O personagem tem dificuldade em se orientar no espaço e "
                "interpretar estímulos imediatos, sofrendo Desvantagem em testes de ataque e de "
                "defesa devido à confusão sensorial e à perda de referência espacial.",
                edges=(Edge(ATAQUE, DESVANTAGEM), Edge(DEFESA, DESVANTAGEM)),
            ),
            _c(
                "lento",
                "Lento: Todos os deslocamentos do personagem são reduzidos pela metade, "
                "arredondado para baixo. O personagem fica incapaz de realizar manobras e "
                "vantagens relacionadas a aumento de velocidade.",
                speed=Fraction(1, 2),
                notes=("Não pode usar manobras nem vantagens de aumento de velocidade.",),
            ),
            _c(
                "amedrontado",
                "Amedrontado: O personagem é dominado por medo intenso da fonte do efeito, "
                "sofrendo -5 em testes de ataque e evitando se aproximar voluntariamente daquilo "
                "que provoca o temor.",
                modifiers=(Modifier(ATAQUE, -5),),
                notes=("Evita se aproximar voluntariamente da fonte do medo.",),
            ),
            _c(
                "exaurido",
                "Exaurido: O personagem está sob desgaste físico extremo, sofrendo -5 em testes "
                "físicos e tendo seu deslocamento reduzido à metade, representando fadiga "
                "severa, esforço prolongado ou colapso corporal iminente.",
                modifiers=(
                    Modifier(ATAQUE, -5, FISICO),
                    Modifier(DEFESA, -5, FISICO),
                    Modifier(TESTE, -5, FISICO),
                ),
                speed=Fraction(1, 2),
            ),
            _c(
                "ferido",
                "Ferido: O personagem sofreu um dano significativo que compromete seu desempenho "
                "geral, sofrendo -2 em todos os testes devido à dor, limitação física ou trauma "
                "recente.",
                modifiers=(Modifier(ATAQUE, -2), Modifier(DEFESA, -2), Modifier(TESTE, -2)),
            ),
            _c(
                "sangrando",
                "Sangrando: O personagem sofreu um ferimento aberto que causa perda contínua de "
                "vitalidade, sofrendo 2 PV de dano físico no início de cada um de seus turnos, "
                "independentemente das ações que realizar.",
                turn_damage=(2, "corte"),
            ),
            _c(
                "envenenado",
                "Envenenado: O personagem foi afetado por uma substância tóxica, e o veneno "
                "define os efeitos sofridos, podendo causar perda recorrente de PV como dano de "
                "veneno, penalidades em testes ou impor outras condições, conforme sua natureza.",
                turn_damage_by_origin=True,
                notes=(POISON_BY_MESTRE,),
            ),
            _c(
                "incendiado",
                "Incendiado: O personagem está em chamas devido a fogo direto, explosão, "
                "substância inflamável ou efeito semelhante, sofrendo 2 PV de dano de fogo no "
                "início de cada um de seus turnos.",
                turn_damage=(2, "fogo"),
            ),
            _c(
                "atraido",
                "Atraído: A atenção do personagem está completamente presa a um estímulo "
                "específico, como uma criatura, objeto, som, ilusão ou fenômeno, sofrendo -5 em "
                "testes de Astúcia e Acuidade e sendo incapaz de realizar ações que não estejam "
                "diretamente relacionadas a observar ou se deslocar em direção ao foco.",
                modifiers=(
                    Modifier(ATAQUE, -5, ASTUCIA_ACUIDADE),
                    Modifier(DEFESA, -5, ASTUCIA_ACUIDADE),
                    Modifier(TESTE, -5, ASTUCIA_ACUIDADE),
                ),
                notes=("Só pode agir para observar o foco ou se deslocar em direção a ele.",),
            ),
        )
    }
)


def condition(key: str) -> Condition:
    """The condition ``key``; raises ``Sistema001Error`` for an unknown key."""
    try:
        return CONDITIONS[key]
    except KeyError:
        raise Sistema001Error(UNKNOWN_CONDITION.format(key=key), "condition") from None


# --- stacking -------------------------------------------------------------------------------


def apply(existing: Iterable[TimedEffect], new: TimedEffect) -> tuple[TimedEffect, ...]:
    """The effects after ``new`` is applied: «Condições iguais não se acumulam. Se um
    personagem sofrer novamente a mesma condição, apenas a duração é renovada» — an effect with
    the same key on the same target is replaced by ``new`` in its place (duration, source and
    the rest: reading ``condition_same_key``); otherwise ``new`` is appended."""
    effects = list(existing)
    for index, effect in enumerate(effects):
        if effect.key == new.key and effect.target == new.target:
            effects[index] = new
            return tuple(effects)
    return (*effects, new)


# --- what a condition does to a roll --------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """What a roll is, for the scopes. ``attack_kind``: the attack's kind — one's own for
    «ataque», the incoming one for «defesa» (``"corpo_a_corpo"``, ``"distancia"``, ``"area"``,
    ``"interno"``); ``attribute``: the attribute rolled (default: Mobilidade, or Acuidade for a
    ranged attack); ``opponent``: the other fighter's key (the target when attacking, the
    attacker when defending); ``first_attack``: this is the opponent's first attack on the
    fighter; ``depends_on_sight``: the roll depends on sight; ``target_perceives``: the target
    can perceive the attacker visually."""

    attack_kind: str = ""
    attribute: str = ""
    opponent: str = ""
    first_attack: bool = False
    depends_on_sight: bool = False
    target_perceives: bool = False

    def rolled_attribute(self, roll: str) -> str:
        if self.attribute:
            return self.attribute
        if roll == ATAQUE and self.attack_kind == DISTANCIA:
            return "acuidade"
        return "mobilidade"


@dataclass(frozen=True)
class Modifiers:
    """What the conditions do to one roll: ``total`` to add, the ``edge`` (after
    ``combine_edges``), ``lines`` saying each (Portuguese), ``without_attribute``: the attribute
    is not added (Paralisado: «usar Mobilidade de qualquer forma»), ``attacks_as``: a situation
    the attack faces (Cego → ``"camuflagem_total"``)."""

    total: int = 0
    edge: str | None = None
    lines: tuple[str, ...] = ()
    without_attribute: bool = False
    attacks_as: str | None = None


def _as_effect(item: TimedEffect | str, fighter: Fighter) -> TimedEffect:
    if isinstance(item, TimedEffect):
        condition(item.key)
        return item
    if isinstance(item, str):
        condition(item)
        return TimedEffect(item, CONDITION_LABELS[item], fighter.key, 0, 0)
    raise Sistema001Error(BAD_CONDITION, "conditions")


def _scope_holds(scope: str, roll: str, context: Context, effect: TimedEffect) -> bool:
    attribute = context.rolled_attribute(roll)
    if scope == TODOS:
        return True
    if scope == CORPO_A_CORPO:
        return context.attack_kind == CORPO_A_CORPO
    if scope == DISTANCIA:
        return context.attack_kind == DISTANCIA
    if scope == PRIMEIRO_ATAQUE_DA_FONTE:
        return context.first_attack and (not effect.source or context.opponent == effect.source)
    if scope == CONTRA_FONTE:
        return bool(effect.source) and context.opponent == effect.source
    if scope == CONTRA_OUTROS:
        return not (effect.source and context.opponent == effect.source)
    if scope == ALVO_NAO_PERCEBE:
        return not context.target_perceives
    if scope == FISICO:
        return attribute in PHYSICAL_ATTRIBUTES
    if scope == VISAO:
        return context.depends_on_sight and attribute in ("mobilidade", "acuidade")
    if scope == ASTUCIA_ACUIDADE:
        return attribute in ("astucia", "acuidade")
    raise AssertionError(scope)


def _scaled(amount: int, key: str, fighter: Fighter) -> tuple[int, str]:
    """(amount after the fighter's resistance/vulnerability to the condition, a note)."""
    if key in fighter.condition_resistances:
        half = abs(amount) // 2
        return (half if amount >= 0 else -half), " (metade: resistência à condição)"
    if key in fighter.condition_vulnerabilities:
        return amount * 2, " (dobro: vulnerabilidade à condição)"
    return amount, ""


def nullified(fighter: Fighter, effect: TimedEffect | str) -> str:
    """Why the condition has no mechanical effect on ``fighter`` («Imunidade a uma condição
    anula completamente seus efeitos mecânicos»; a mundane condition on a creature immune to
    mundane effects: reading ``mundane_immune_conditions``), or ``""``."""
    key = effect.key if isinstance(effect, TimedEffect) else effect
    magical = effect.magical if isinstance(effect, TimedEffect) else False
    label = CONDITION_LABELS.get(key, key)
    if key in fighter.condition_immunities:
        return f"{label}: sem efeito (imune à condição)."
    if fighter.mundane_immune and not magical:
        return f"{label}: sem efeito (imune a efeitos mundanos)."
    return ""


def active_keys(fighter: Fighter, conditions: Iterable[TimedEffect | str]) -> frozenset[str]:
    """The keys of the conditions that act on ``fighter`` (immunity removed): what
    ``turns.check_turn`` takes."""
    keys = set()
    for item in conditions:
        effect = _as_effect(item, fighter)
        if not nullified(fighter, effect):
            keys.add(effect.key)
    return frozenset(keys)


def modifiers(
    fighter: Fighter,
    conditions: Iterable[TimedEffect | str],
    roll: str,
    context: Context | None = None,
) -> Modifiers:
    """What ``conditions`` (keys or ``TimedEffect``s on ``fighter``) do to a roll of
    ``fighter``: ``roll`` is ``"ataque"``, ``"defesa"`` or ``"teste"``; ``context`` says the
    rest (``Context``). Numeric effects are halved, rounded down, by a resistance to the
    condition, doubled by a vulnerability; an immunity (or a mundane condition on a creature
    immune to mundane effects) nullifies the condition («Interação com Condições»). Edges are
    combined (``rolls.combine_edges``). Raises ``Sistema001Error`` for an unknown roll or
    condition."""
    if roll not in ROLLS:
        raise Sistema001Error(UNKNOWN_ROLL, "roll")
    context = context or Context()
    total = 0
    edges: list[str] = []
    lines: list[str] = []
    without_attribute = False
    attacks_as = None
    for item in conditions:
        effect = _as_effect(item, fighter)
        data = CONDITIONS[effect.key]
        why = nullified(fighter, effect)
        if why:
            if data.modifiers or data.edges or data.no_mobility:
                lines.append(why)
            continue
        for mod in data.modifiers:
            if mod.roll != roll or not _scope_holds(mod.scope, roll, context, effect):
                continue
            amount, note = _scaled(mod.amount, effect.key, fighter)
            total += amount
            scope = SCOPE_TEXT[mod.scope]
            where = f"{ROLL_TEXT[roll]} {scope}".strip()
            lines.append(f"{data.label}: {amount:+d} {where}{note}.".replace("-", "−"))
        for edge in data.edges:
            if edge.roll != roll or not _scope_holds(edge.scope, roll, context, effect):
                continue
            edges.append(edge.edge)
            lines.append(f"{data.label}: {edge.edge.capitalize()} {ROLL_TEXT[roll]}.")
        if data.no_mobility and context.rolled_attribute(roll) == "mobilidade":
            without_attribute = True
            lines.append(f"{data.label}: não usa Mobilidade de forma alguma.")
        if data.attacks_as and roll == ATAQUE:
            attacks_as = data.attacks_as
            lines.append(f"{data.label}: todo alvo conta como sob Camuflagem Total.")
    edge = combine_edges(edges)
    if len(set(edges)) > 1:
        lines.append("Vantagem e Desvantagem se anulam.")
    return Modifiers(total, edge, tuple(lines), without_attribute, attacks_as)


# --- movement and start-of-turn damage ------------------------------------------------------


def movement(fighter: Fighter, conditions: Iterable[TimedEffect | str], metres: int) -> int:
    """``metres`` of movement after the conditions: Paralisado and Contido → 0 (no Ações de
    Movimento); Lento and Exaurido «reduzidos pela metade, arredondado para baixo» (once each
    condition; both: a quarter). Immunity removes the condition; resistance and vulnerability
    do not change the halving (reading ``condition_scale_non_numeric``)."""
    result = Fraction(metres)
    for item in conditions:
        effect = _as_effect(item, fighter)
        if nullified(fighter, effect):
            continue
        data = CONDITIONS[effect.key]
        if data.no_movement:
            return 0
        result = Fraction(int(result * data.speed))
    return int(result)


def start_of_turn_damage(
    conditions: Iterable[TimedEffect | str], fighter: Fighter | None = None
) -> list[tuple[int, str]]:
    """The damage the fighter suffers at the start of each of its turns, as ``(PV, type)``:
    Sangrando «2 PV de dano físico» (the wound's physical type in the effect's ``damage``,
    else corte: reading ``bleeding_damage_type``), Incendiado «2 PV de dano de fogo»,
    Envenenado what the poison gives (the effect's ``damage``; nothing without it: reading
    ``poison_is_chemical``). With ``fighter``: its resistance to the condition halves (rounded
    down), vulnerability doubles, immunity removes the entry. The damage type's own resistance,
    vulnerability and immunity apply afterwards, in ``damage.resolve``: «qualquer regra,
    resistência ou imunidade relacionada a esse tipo de dano aplica-se normalmente»."""
    found: list[tuple[int, str]] = []
    for item in conditions:
        if isinstance(item, str):
            condition(item)
            effect = TimedEffect(
                item, CONDITION_LABELS[item], fighter.key if fighter else "-", 0, 0
            )
        else:
            effect = item
            condition(effect.key)
        data = CONDITIONS[effect.key]
        if data.turn_damage is None and not data.turn_damage_by_origin:
            continue
        if effect.damage is not None:
            amount, type_ = effect.damage
            if data.turn_damage is not None:
                amount = data.turn_damage[0]
            if effect.key == "sangrando" and type_ not in PHYSICAL_DAMAGE_TYPES:
                raise Sistema001Error(BLEEDING_PHYSICAL, "damage")
        elif data.turn_damage is not None:
            amount, type_ = data.turn_damage
        else:
            continue
        if fighter is not None:
            if nullified(fighter, effect):
                continue
            amount, _ = _scaled(amount, effect.key, fighter)
        assert type_ in DAMAGE_TYPE_LABELS
        found.append((amount, type_))
    return found
