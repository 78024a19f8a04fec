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

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from procedure.asks import DISADVANTAGE, EXHAUSTION, SAVE, Ask, Cost, Resolution, Texts
from procedure.supplies import FOOD, WATER
from rulesets.xuleta5e import house
from xuleta import conditions as xuleta_conditions
from xuleta import rest as xuleta_rest
from xuleta import rolls as xuleta_rolls
from xuleta import travel as xuleta_travel
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

    # --- what the tracker asks of the engine when it plays the procedure natively ------------
    # (``sessions.exploration.native``: the agnostic code reaches the engine only through here)

    ability_labels = ABILITY_LABELS
    con, dex = CON, DEX
    rest_minutes = xuleta_rest.LONG_REST_MINUTES
    exhaustion_levels = xuleta_conditions.EXHAUSTION_LEVELS

    def house_answers(self, decided: Iterable[Mapping[str, str]]) -> dict[str, house.Answer]:
        """The house settings in force (``rulesets.xuleta5e.house.answers``): question →
        ``Answer`` (``.value`` "xuleta" or "procedure", ``.text`` for the log)."""
        return house.answers(decided)

    def saving_throw(
        self,
        source,
        numbers: Mapping,
        state: Mapping,
        ability: str,
        dc: int,
        disadvantages: tuple[str, ...] = (),
    ) -> dict:
        """A saving throw of ``ability`` against ``dc`` from ``check_data``'s ``numbers`` and
        the ``state``: the edge from its conditions and exhaustion (§1) and ``disadvantages``;
        d20 (two with an edge) + the save bonus, equal or more passes (§4.3). A plain dict:
        ``auto_fail`` (and ``failures``: why) or ``faces``, ``kept``, ``edge``, ``bonus``,
        ``total``, ``success``, ``reasons``."""
        edge = xuleta_conditions.roll_edge(
            xuleta_rolls.SAVE,
            ability=ability,
            conditions=state.get("conditions", []),
            exhaustion=state.get("exhaustion", 0),
            disadvantages=disadvantages,
        )
        if edge.auto_fail:
            return {"auto_fail": True, "failures": list(edge.failures), "success": False}
        bonus = int(numbers["saves"][ability])
        d20 = xuleta_rolls.d20(source, edge.edge)
        result = xuleta_rolls.resolve(xuleta_rolls.SAVE, d20, bonus, dc)
        return {
            "auto_fail": False,
            "faces": list(d20.faces),
            "kept": d20.kept,
            "edge": edge.edge,
            "edge_label": xuleta_rolls.EDGE_LABELS[edge.edge],
            "bonus": bonus,
            "total": result.total,
            "success": result.success,
            "reasons": list(edge.reasons),
        }

    def ability_check(
        self, source, numbers: Mapping, state: Mapping, ability: str, modifier: int = 0
    ) -> dict:
        """An ability check with no DC (Criar's «Teste de DES modificado pela Tabela G»): d20
        (two with an edge, §1 and §4.4) + ``check_data``'s ``checks[ability]`` + ``modifier``.
        A plain dict: ``faces``, ``kept``, ``edge``, ``edge_label``, ``bonus`` (the check's and
        the modifier), ``total``, ``reasons``."""
        edge = xuleta_conditions.roll_edge(
            xuleta_rolls.CHECK,
            ability=ability,
            conditions=state.get("conditions", []),
            exhaustion=state.get("exhaustion", 0),
        )
        bonus = int(numbers["checks"][ability]) + int(modifier)
        d20 = xuleta_rolls.d20(source, edge.edge)
        return {
            "faces": list(d20.faces),
            "kept": d20.kept,
            "edge": edge.edge,
            "edge_label": xuleta_rolls.EDGE_LABELS[edge.edge],
            "bonus": bonus,
            "total": d20.kept + bonus,
            "reasons": list(edge.reasons),
        }

    def crafted_from_total(self, total: int) -> int:
        """«O personagem cria munição igual ao resultado do teste»: with the Xuleta's d20 the
        result is the check's total — that many, never fewer than 0 (the site's reading of
        the pendência procedure:craft-ammunition-des in a Xuleta campaign)."""
        return max(0, int(total))

    def exhaustion_after(self, before: int, levels: int) -> tuple[int, bool]:
        """(the level after gaining ``levels``, capped at 6; whether it is «6 Mort»)."""
        after = xuleta_conditions.exhaustion_after(before, levels)
        return after, xuleta_conditions.dead_from_exhaustion(after)

    def forced_march_dcs(self, hours_before: int, hours_after: int) -> tuple[tuple[int, int], ...]:
        """``xuleta.travel.forced_march_dcs``: (extra hour, DC) past the day's 8 hours."""
        return xuleta_travel.forced_march_dcs(hours_before, hours_after)

    def long_rest(self, numbers: Mapping, state: Mapping, **kwargs):
        """``xuleta.rest.long_rest`` (§6.2): (the new state, the ``LongRest``)."""
        return xuleta_rest.long_rest(numbers, state, **kwargs)

    def spend_hit_die(self, source, numbers: Mapping, state: Mapping):
        """``xuleta.rest.spend_hit_die`` (§6.1): (the new state, the ``HitDieRoll``)."""
        return xuleta_rest.spend_hit_die(source, numbers, state)

    def hit_dice_left(self, numbers: Mapping, state: Mapping) -> int:
        return xuleta_rest.hit_dice_left(numbers, state)

    def current_hp(self, numbers: Mapping, state: Mapping) -> int:
        return xuleta_rest.current_hp(numbers, state)

    def hit_die_total(self, face: int, con_modifier: int) -> int:
        """One hit die's PC: face + CON modifier, at least the reading's minimum (0)."""
        return max(xuleta_rest.HIT_DIE_MINIMUM, face + con_modifier)

    no_hit_dice = xuleta_rest.NO_HIT_DICE


PROCEDURE = XuletaProcedure()
