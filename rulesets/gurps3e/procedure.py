"""The procedure part of GURPS: how the session procedure's d20 points resolve in a GURPS
campaign — as the pendências of the Árbitro's register read them (``canon.seed``), the Mestre's
GURPS roll in the scene deciding — and the tracker's words that name GURPS.

Pure: reads an ``procedure.asks.Ask``, computes no die.
"""

from __future__ import annotations

from gurps.fatigue import MISSED_MEAL_COST
from procedure.asks import EXHAUSTION, SAVE, Ask, Cost, Resolution, Texts
from procedure.pendencies import P_FORCED_MARCH
from procedure.rolling import signed
from procedure.supplies import FOOD, WATER

# Pendência procedure:forced-march-con: «DC 12 é HT sem modificador, e cada 3 pontos de DC
# acima de 12 tiram 1».
FORCED_MARCH_BASE_DC = 12
FORCED_MARCH_DC_PER_POINT = 3
FORCED_MARCH_ROLL = "HT"

# Pendência procedure:running-out: the canon's §6.1 for who has none (a missed meal is the
# engine's; a day without water, the pendência's reading: 1 FP and 1 HP).
MISSED_MEAL = Cost(
    f"Refeição perdida (§6.1): {MISSED_MEAL_COST} ponto de Fadiga", fatigue=-MISSED_MEAL_COST
)
NO_WATER = Cost("Sem água (§6.1): 1 ponto de Fadiga e 1 PV", hp=-1, fatigue=-1)

TEXTS = Texts(
    tests_pending=(
        "Antes da próxima rodada, registre o {asks} de {who}: role na cena o teste GURPS que a "
        "pendência diz e dê o número da rolagem."
    ),
    roll_decides="O texto pedia: {asks}. A rolagem GURPS {ref} ({label}, {outcome}) decide.",
    roll_not_a_test=("A rolagem #{roll} não é um teste (3d contra um nível): não passa nem falha."),
    exhaustion=(
        "1 ponto de exaustão, como o procedimento diz («A cada 1 hora de exploração, os "
        "personagens precisam descansar por um turno de exploração ou sofrer 1 ponto de "
        "exaustão»). A exaustão é de outro jogo (Tabela I): a consequência GURPS é do Mestre — "
        "p.ex. fadiga (§6) — como diz a pendência."
    ),
    consequence_empty="Diga a consequência GURPS que o Mestre escolhe (ex.: 1 ponto de fadiga, §6).",
    consequence="Exaustão → consequência GURPS escolhida pelo Mestre: {text}",
    surprise=(
        "Surpresa parcial ou total (§5e)? O procedimento só diz «o lado está surpreso»: veja a "
        "pendência; o Mestre diz no combate."
    ),
    hit_dice=(
        "Descansar — 3. «Cada membro rola um n° de dados de vida igual ao nível e recupera pontos "
        "de vida»: GURPS não tem nível nem dados de vida; a recuperação de PV é a da §5.6, pelo "
        "Mestre."
    ),
    craft_waits="a munição entra quando a rolagem GURPS do Mestre resolver o teste.",
)


def dc_modifier(dc: int) -> int:
    """The GURPS modifier on HT the reading gives a DC: 12 → 0, 15 → −1, 18 → −2 (toward 0)."""
    return -int((dc - FORCED_MARCH_BASE_DC) / FORCED_MARCH_DC_PER_POINT)


class GurpsProcedure:
    """``rulesets.base.ProcedurePart`` for GURPS: every ask is a pendência's reading."""

    texts = TEXTS

    def resolve_ask(self, ask: Ask) -> Resolution:
        """Tabela B's «teste de CON» with a DC: HT with the reading's modifier, which the
        Mestre's roll must carry announced. Any other ask (the rest's «CON DC 12», Criar's DES
        with Tabela G's modifier in what it asks, exhaustion, DESV): the Mestre chooses the
        GURPS roll (or the consequence), no modifier required."""
        if ask.kind == SAVE and ask.pendency == P_FORCED_MARCH and ask.dc is not None:
            modifier = dc_modifier(ask.dc)
            return Resolution(
                roll=FORCED_MARCH_ROLL,
                modifier=modifier,
                line=(
                    f"Em GURPS (leitura da pendência): {FORCED_MARCH_ROLL} {signed(modifier)} — a "
                    "rolagem do Mestre deve trazer esse modificador anunciado."
                ),
            )
        if ask.kind == EXHAUSTION:
            return Resolution(line=TEXTS.exhaustion)
        return Resolution()

    def running_out(self, kind: str) -> Cost:
        """§6.1: a missed meal costs 1 FP; a day without water 1 FP and 1 HP."""
        if kind == FOOD:
            return MISSED_MEAL
        if kind == WATER:
            return NO_WATER
        raise ValueError(f"Só comida e água faltam no Descansar, não «{kind}».")

    def crafted(self, passed: bool, margin: int | None) -> int:
        """The reading of procedure:craft-ammunition-des: the margin of success, at least 1; a
        failure makes none."""
        return max(1, margin or 0) if passed else 0


PROCEDURE = GurpsProcedure()
