"""What a fighter can do in its turn: the three plans and the action types, as data, and the
conditions that forbid or restrict a plan.

Chapter «4. Combate», «O que se pode fazer no turno»: «Cada personagem escolhe uma das
seguintes combinações de ações: 1 Ação de Movimento + 1 Ação de Execução, ou 2 Ações de
Movimento, ou 1 Ação Completa. Não é possível “converter” Ações, apenas escolher uma das
opções. Ações Livres podem ocorrer adicionalmente, quando apropriadas para a cena.» «Tipos de
Ação» lists each type's actions (``ACTION_TYPES``). «Lista de Condições»: Contido «não
podendo realizar Ações de Movimento»; Paralisado «incapaz de realizar Ações de Execução, Ações
de Movimento»; Atordoado «podendo realizar apenas 1 Ação em seu turno, seja de Execução ou de
Movimento» (readings ``stunned_one_action``, ``paralysed_defence``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from sistema001.errors import Sistema001Error
from sistema001.fighters import CONDITION_LABELS

MOVIMENTO = "movimento"
EXECUCAO = "execucao"
COMPLETA = "completa"
LIVRE = "livre"


@dataclass(frozen=True)
class ActionType:
    """One type of action: ``key``, ``label``, the chapter's description and its bullets."""

    key: str
    label: str
    description: str
    examples: tuple[str, ...]
    note: str = ""


ACTION_TYPES = MappingProxyType(
    {
        MOVIMENTO: ActionType(
            MOVIMENTO,
            "Ação de Movimento",
            "Usadas para deslocamento e interações rápidas:",
            (
                "Andar ou correr.",
                "Levantar-se.",
                "Sacar, guardar ou manipular uma arma.",
                "Abrir uma porta.",
                "Pequenas ações físicas.",
            ),
        ),
        EXECUCAO: ActionType(
            EXECUCAO,
            "Ação de Execução",
            "Ações de impacto direto, que normalmente definem o turno:",
            (
                "Ataques.",
                "Conjurar magia.",
                "Usar item.",
                "Ativar vantagem ou habilidade especial.",
            ),
        ),
        COMPLETA: ActionType(
            COMPLETA,
            "Ação Completa",
            "Ações que consomem o turno inteiro do personagem:",
            (
                "Conjurações longas.",
                "Disparadas.",
                "Outras ações que exigem concentração ou preparo total.",
            ),
            "Ação Completa não pode ser combinada com outras ações, exceto ações livres.",
        ),
        LIVRE: ActionType(
            LIVRE,
            "Ação Livre",
            "Ações muito rápidas, que não exigem esforço mecânico:",
            (
                "Falar.",
                "Soltar um item.",
                "Abaixar-se ou se jogar no chão.",
                "Atrasar a ação.",
            ),
        ),
    }
)

MOVIMENTO_EXECUCAO = "movimento_execucao"
DOIS_MOVIMENTOS = "dois_movimentos"
COMPLETA_PLAN = "completa"


@dataclass(frozen=True)
class TurnPlan:
    """One of the three combinations: ``actions`` the action types it holds (Ações Livres come
    on top of any)."""

    key: str
    label: str
    actions: tuple[str, ...]


TURN_PLANS = MappingProxyType(
    {
        MOVIMENTO_EXECUCAO: TurnPlan(
            MOVIMENTO_EXECUCAO, "1 Ação de Movimento + 1 Ação de Execução", (MOVIMENTO, EXECUCAO)
        ),
        DOIS_MOVIMENTOS: TurnPlan(DOIS_MOVIMENTOS, "2 Ações de Movimento", (MOVIMENTO, MOVIMENTO)),
        COMPLETA_PLAN: TurnPlan(COMPLETA_PLAN, "1 Ação Completa", (COMPLETA,)),
    }
)

UNKNOWN_PLAN = (
    "Combinação desconhecida: escolha 1 Ação de Movimento + 1 Ação de Execução, 2 Ações de "
    "Movimento ou 1 Ação Completa."
)
UNKNOWN_ACTION = "Tipo de ação desconhecido «{key}»: use movimento, execução, completa ou livre."
UNKNOWN_CONDITION = "Condição desconhecida «{key}»."
NOT_IN_PLAN = "Não é possível “converter” Ações: «{plan}» não tem {label} a mais para usar."
USE_PLAN = ' Para estas ações ({taken}), escolha o plano «{label}» (plan: "{key}").'
NO_PLAN_HOLDS = (
    " Nenhum plano tem estas ações ({taken}): escolha 1 Ação de Movimento + 1 Ação de Execução "
    '(plan: "movimento_execucao"), 2 Ações de Movimento (plan: "dois_movimentos") ou '
    '1 Ação Completa (plan: "completa").'
)
FORBIDDEN = "{conditions}: nenhuma ação de «{plan}» é possível."
ONE_ACTION = "Atordoado: apenas 1 Ação no turno, seja de Execução ou de Movimento."
CONTIDO_LINE = "Contido: não pode realizar Ações de Movimento."
PARALISADO_LINE = "Paralisado: não pode realizar Ações de Execução nem de Movimento."
ATORDOADO_LINE = "Atordoado: apenas 1 Ação, de Execução ou de Movimento."
ATRAIDO_LINE = "Atraído: só ações de observar o foco ou de se deslocar em direção a ele."
LENTO_LINE = "Lento: sem manobras nem vantagens de aumento de velocidade."


@dataclass(frozen=True)
class TurnCheck:
    """What the plan allows under the conditions: ``allowed`` the action types still usable
    (in the plan's order, repeats kept), ``max_actions`` how many of them (Atordoado: 1),
    ``lines`` why (Portuguese)."""

    plan: str
    allowed: tuple[str, ...]
    max_actions: int
    lines: tuple[str, ...]


def plan_for(taken: Sequence[str]) -> str:
    """The sentence naming the plan (its label and key, as the ``plan`` field takes it) that
    holds the action types ``taken`` (no ``"livre"``), or the three plans when none does."""
    wanted = Counter(taken)
    said = " + ".join(
        ACTION_TYPES[action].label if count == 1 else f"{count} × {ACTION_TYPES[action].label}"
        for action, count in wanted.items()
    )
    for key, plan in TURN_PLANS.items():
        have = Counter(plan.actions)
        if all(count <= have[action] for action, count in wanted.items()):
            return USE_PLAN.format(taken=said, label=plan.label, key=key)
    return NO_PLAN_HOLDS.format(taken=said)


def check_turn(
    plan: str, conditions: Iterable[str], actions: Sequence[str] | None = None
) -> TurnCheck:
    """Check a turn: ``plan`` one of ``TURN_PLANS``; ``conditions`` the keys of the conditions
    acting on the fighter (immunity already removed: ``conditions.active_keys``); ``actions``,
    if given, the action types actually taken (``"livre"`` always allowed on top).

    Raises ``Sistema001Error`` (field ``plan``) for a plan the conditions leave no action of —
    Contido and 2 Ações de Movimento; Paralisado and any plan; Atordoado and the Ação Completa
    — and (field ``actions``) for actions the plan does not hold or the conditions forbid, or
    more than one action while Atordoado.
    """
    if plan not in TURN_PLANS:
        raise Sistema001Error(UNKNOWN_PLAN, "plan")
    keys = set()
    for key in conditions:
        if key not in CONDITION_LABELS:
            raise Sistema001Error(UNKNOWN_CONDITION.format(key=key), "conditions")
        keys.add(key)
    data = TURN_PLANS[plan]
    allowed = list(data.actions)
    lines: list[str] = []
    culprits: list[str] = []
    max_actions = len(allowed)
    if "paralisado" in keys:
        allowed = []
        lines.append(PARALISADO_LINE)
        culprits.append("Paralisado")
    if "contido" in keys and MOVIMENTO in allowed:
        allowed = [a for a in allowed if a != MOVIMENTO]
        lines.append(CONTIDO_LINE)
        culprits.append("Contido")
    if "atordoado" in keys:
        max_actions = 1
        if COMPLETA in allowed:
            allowed = [a for a in allowed if a != COMPLETA]
            culprits.append("Atordoado")
        lines.append(ATORDOADO_LINE)
    if "atraido" in keys:
        lines.append(ATRAIDO_LINE)
    if "lento" in keys:
        lines.append(LENTO_LINE)
    if not allowed:
        raise Sistema001Error(
            FORBIDDEN.format(conditions=", ".join(dict.fromkeys(culprits)), plan=data.label),
            "plan",
        )
    max_actions = min(max_actions, len(allowed))
    if actions is not None:
        taken = [a for a in actions if a != LIVRE]
        for action in actions:
            if action not in ACTION_TYPES:
                raise Sistema001Error(UNKNOWN_ACTION.format(key=action), "actions")
        have = Counter(data.actions)
        for action, count in Counter(taken).items():
            if count > have[action]:
                raise Sistema001Error(
                    NOT_IN_PLAN.format(plan=data.label, label=ACTION_TYPES[action].label)
                    + plan_for(taken),
                    "actions",
                )
            if action not in allowed:
                raise Sistema001Error(" ".join(lines) or UNKNOWN_PLAN, "actions")
        if len(taken) > max_actions:
            raise Sistema001Error(ONE_ACTION, "actions")
    return TurnCheck(plan, tuple(allowed), max_actions, tuple(lines))
