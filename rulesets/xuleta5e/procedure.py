"""The Xuleta's procedure part: the session procedure (``sessao-do-mestre.txt``) is written in
the Xuleta's d20 terms, so in a Xuleta campaign its asks are rules the site runs (issue 22,
item 6): «teste de CON DC 12» is a Constitution saving throw from each character's sheet, «DES»
a Destresa save, a point of exhaustion a level of the Xuleta's (§1.4), DESV disadvantage.

``native = True`` tells the exploration tracker (``sessions.exploration.native``) to roll the
saves itself into the scene's chain and apply what follows; where the procedure and the Xuleta
disagree the house settings decide (``rulesets.xuleta5e.house``). A character without a
homologated sheet in the scene still gets the ask as a test the Mestre resolves with a roll.

Pure: reads an ``procedure.asks.Ask``, computes no die.
"""

from __future__ import annotations

from types import MappingProxyType

from procedure.asks import DISADVANTAGE, EXHAUSTION, SAVE, Ask, Cost, Resolution, Texts
from procedure.supplies import FOOD, WATER
from xuleta.abilities import ABILITY_LABELS, CON, DEX

# The procedure's ability words → the Xuleta's ability keys.
ABILITY_OF = MappingProxyType({"CON": CON, "DES": DEX, "DEX": DEX})

TEXTS = Texts(
    tests_pending=(
        "Antes da próxima rodada, registre o {asks} de {who}: sem ficha homologada na cena, a "
        "salvação não sai da ficha — o Mestre rola na cena e dá o número da rolagem."
    ),
    roll_decides="O texto pedia: {asks}. A rolagem {ref} ({label}, {outcome}) decide.",
    roll_not_a_test="A rolagem #{roll} não é uma prova (d20 contra uma CD): não passa nem falha.",
    exhaustion=(
        "1 ponto de exaustão, como o procedimento diz («A cada 1 hora de exploração, os "
        "personagens precisam descansar por um turno de exploração ou sofrer 1 ponto de "
        "exaustão»): na Xuleta, um nível de esgotamento (§1.4), escrito no estado de cada um "
        "conforme a regra da casa."
    ),
    consequence_empty="Diga a consequência que o Mestre escolhe (ex.: 1 nível de esgotamento).",
    consequence="Exaustão → consequência escolhida pelo Mestre: {text}",
    surprise=(
        "Surpresa (§2.2 Sorpresa): «Qui està sorprès no es mou ni actua en el seu primer torn. "
        "Tampoc no pot fer servir reaccions fins que s'acabi aquest torn.»"
    ),
    hit_dice=(
        "Descansar — 3. «Cada membro rola um n° de dados de vida igual ao nível e recupera pontos "
        "de vida»: na Xuleta, conforme a regra da casa (o descanso longo da §6.2, ou os dados de "
        "vida do procedimento)."
    ),
    craft_waits="a munição entra quando a rolagem do Mestre (d20 + Destresa) resolver o teste.",
)

RUNNING_OUT = MappingProxyType(
    {
        FOOD: Cost(
            "sem comida: não comeu e bebeu — o descanso longo não baixa o esgotamento (§1.4)"
        ),
        WATER: Cost(
            "sem água: não comeu e bebeu — o descanso longo não baixa o esgotamento (§1.4)"
        ),
    }
)


class XuletaProcedure:
    """``rulesets.base.ProcedurePart`` for the Xuleta: every ask is native."""

    texts = TEXTS
    native = True

    def resolve_ask(self, ask: Ask) -> Resolution:
        """A save («teste de CON DC 12», «DES DC 12») is the Xuleta's saving throw of that
        ability against that DC, rolled by the site from each sheet; a point of exhaustion is
        a level (§1.4); DESV is disadvantage (§4.4). No modifier to announce."""
        if ask.kind == SAVE:
            ability = ABILITY_OF.get(ask.ability.upper(), "")
            label = ABILITY_LABELS.get(ability, ask.ability)
            dc = f" CD {ask.dc}" if ask.dc is not None else ""
            return Resolution(
                roll=f"salvació de {label}{dc}",
                line=(
                    f"Na Xuleta: salvação de {label}{dc} de cada um, rolada pelo site da ficha "
                    "(d20 + a salvação, igualar ou superar passa; vantagem e desvantagem dos "
                    "estados e do esgotamento)."
                ),
                native=True,
            )
        if ask.kind == EXHAUSTION:
            return Resolution(line=TEXTS.exhaustion, native=True)
        if ask.kind == DISADVANTAGE:
            return Resolution(
                line="Na Xuleta, DESV é desavantatge (§4.4): dois d20, fica o menor.",
                native=True,
            )
        return Resolution(native=True)

    def running_out(self, kind: str) -> Cost:
        """The Xuleta has no cost for a missed meal but the long rest's: «En acabar un descans
        llarg baixes un nivell, si has menjat i begut.» No PC are lost."""
        if kind not in RUNNING_OUT:
            raise ValueError(f"Só comida e água faltam no Descansar, não «{kind}».")
        return RUNNING_OUT[kind]

    def crafted(self, passed: bool, margin: int | None) -> int:
        """«O personagem cria munição igual ao resultado do teste»: the roll's margin, at least
        1; a failure makes none (as the GURPS reading, until the Árbitro says otherwise)."""
        return max(1, margin or 0) if passed else 0


PROCEDURE = XuletaProcedure()
