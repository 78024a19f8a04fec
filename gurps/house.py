"""The campaign's departures from the book (canon §8), as named settings, and the house rule
on who dies when (§5.4.1).

``HOUSE_SETTINGS`` names each departure with the decision and date that fixed it, so a reader
sees which rule is the book's and which is the table's; the Árbitro's register and the other
modules link to its keys.

The critical hit is one of them (``critical_hit_table``, §4.8, fixed on 13/09/2026): this
table rolls on the Tabela de Golpes Fulminantes (``gurps.tables``), both ways — against a
creature and against a player character — and the book's other treatment, maximum damage on
a 3, no longer holds. §4.10 row 4 still says "3 = dano máximo": that is a known slip of the
canon (canon README), and the engine never applies it.

§5.4.1 "Quem morre quando" (fixed on 10/09/2026): the HP ladder of §5.4 holds in full for
player characters; a bestiary creature is out of the fight at 0 HP, and a named NPC or an
encounter boss dies at −HT, neither with any death check. What does not change: at 3, 2 or 1
HP, Move and Dodge are halved for everyone (``gurps.attributes.move``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gurps._validate import check_attribute, require_int
from gurps.errors import UNKNOWN_COMBATANT_KIND, UNKNOWN_HOUSE_SETTING, InvalidValue
from gurps.injury import death_checks_crossed, hp_thresholds
from gurps.tabular import CanonTable
from ruletexts import HouseSetting as HouseSetting  # the shape, shared

# Where the canon describes no rule of the book for a departure, the setting says so.
BOOK_NOT_STATED = "O cânone não diz o que o livro faz aqui."


class CriticalHitTreatment(StrEnum):
    """The book's two treatments of a critical hit (§4.8): maximum damage on a 3, or the
    Tabela de Golpes Fulminantes. The book forbids using both."""

    TABLE = "table"
    MAXIMUM_DAMAGE = "maximum_damage"


# §8, `02` §11: "Três ações de mundo por semana, que não acumulam."
WORLD_ACTIONS_PER_WEEK = 3

_ROLLS_WHERE = "`04` (Mecânica); aqui, §1.1 e §1.6"

_SETTINGS: tuple[HouseSetting, ...] = (
    HouseSetting(
        key="mestre_rolls_everything",
        title="Quem rola os dados é sempre o Mestre de Cena, e o resultado nunca some.",
        book=(
            "O livro manda o Mestre rolar escondido em duas situações (pág. 87); o cânone não "
            "diz quem rola as demais no livro."
        ),
        table=(
            "Todos os dados — do personagem do jogador, dos NPCs, do bicho, dano, defesa, "
            "reação — são rolados pelo Mestre de Cena, em voz alta, contra o nível e com os "
            "modificadores ditos. Número que o jogador traz de fora não entra em teste nenhum."
        ),
        section="1.1, 8",
        decided=None,
        decision=None,
        where=_ROLLS_WHERE,
    ),
    HouseSetting(
        key="hidden_rolls_recorded",
        title="Escondido não é invisível: a rolagem escondida se grava antes de narrar.",
        book=(
            "O livro manda rolar escondido quando o personagem não deveria saber se acertou, ou "
            "o jogador não deveria saber que há algo ali; numa falha, o Mestre escolhe entre "
            "mentir e não dizer nada (pág. 87)."
        ),
        table=(
            "O Mestre de Cena grava o dado e o alvo na pasta do jogador antes de narrar, num "
            "arquivo `semana-NN-rolagem-NN`, uma rolagem por arquivo; o número aparece na "
            "homologação."
        ),
        section="1.6",
        decided="10/09/2026",
        decision="Fixado em 10/09/2026",
        where=_ROLLS_WHERE,
    ),
    HouseSetting(
        key="turn_order_tie_break",
        title="Empate na ordem do turno: DX maior e, persistindo, a ordem de declaração.",
        book=(
            "Na sequência realista, empate no Deslocamento e na Velocidade Básica: o livro "
            "manda rolar dados (pág. 95)."
        ),
        table=(
            "Desempata a DX maior e, persistindo, a ordem de declaração — não dados. Mesa "
            "assíncrona precisa de ordem que não mude entre uma sessão e outra."
        ),
        section="4.2, 4.10",
        decided="10/09/2026",
        decision="fixado em 10/09/2026",
        where="§4.2 e §4.10",
    ),
    HouseSetting(
        key="critical_hit_table",
        title="Golpe fulminante: esta mesa usa a Tabela de Golpes Fulminantes.",
        book=(
            "O livro oferece dois tratamentos — o 3 no ataque provoca o dano máximo dos dados, "
            "ou rola-se na Tabela de Golpes Fulminantes (pág. 202) — e manda não usar os dois "
            "juntos."
        ),
        table=(
            "O Árbitro escolheu a tabela, e a regra do dano máximo deixa de valer. Vale nos dois "
            "sentidos — contra bicho e contra personagem de jogador."
        ),
        section="4.8",
        decided="13/09/2026",
        decision="Fixado em 13/09/2026",
    ),
    HouseSetting(
        key="explosive_fireball_damage",
        title="Bola de Fogo Explosiva: 1d a cada 2 pontos de energia, como diz o verbete.",
        book=(
            "No livro, a Relação das Mágicas e o verbete divergem; o verbete diz «provoca 1D "
            "pontos de dano para cada 2 pontos de energia aplicados»."
        ),
        table=(
            "Vence o verbete: 2 a 6 pontos, 1d a cada 2 pontos, máximo 3d. A decisão de 12/09, "
            "que a pôs a 1d por ponto como a Bola de Fogo simples, foi corrigida."
        ),
        section="4.11",
        decided="13/09/2026",
        decision="Corrigido em 13/09/2026",
    ),
    HouseSetting(
        key="falls_table",
        title="Quedas: dano por metro, teto de 45 metros.",
        book=BOOK_NOT_STATED,
        table=(
            "Até 2 m, 1D−4 por metro; até 4 m, 1D−3; de 5 m em diante, 1D−2. Teto de 45 metros. "
            "Acrobacia reduz a altura em até 5 metros; armadura de metal medieval protege com "
            "metade da RD; couro não protege."
        ),
        section="4.12",
        decided="13/09/2026",
        decision="Decisão 27",
    ),
    HouseSetting(
        key="overpenetration_caps",
        title="Os tetos de trespassar.",
        book=BOOK_NOT_STATED,
        table=(
            "Golpe de ponta no tronco: dano acima da Vitalidade do alvo é perdido. Cabeça ou "
            "órgãos vitais: acima do triplo da Vitalidade. Feixe, bola de fogo, descarga "
            "elétrica dobram os dois tetos. Cérebro: não há teto."
        ),
        section="4.13",
        decided="13/09/2026",
        decision="Decisão 29",
    ),
    HouseSetting(
        key="fencer_dagger_parries",
        title="Esgrimista com adaga na mão fraca apara três vezes por rodada.",
        book=(
            "O esgrimista apara a ⅔ e duas vezes por turno, e quantas quiser em Defesa Total "
            "(pág. 99)."
        ),
        table=(
            "Quem tem Esgrima e leva uma adaga na mão fraca apara três vezes na mesma rodada: "
            "duas com a arma de esgrima, a ⅔; uma com a adaga, a ½ do nível em Faca, com o −1 "
            "da faca."
        ),
        section="4.14",
        decided="13/09/2026",
        decision="Decisão 30",
    ),
    HouseSetting(
        key="spell_critical_failure",
        title="Falha crítica em operação mágica: tabela de 3d e o custo da falha.",
        book="O livro deixa o Mestre improvisar no lugar da tabela.",
        table=(
            "Sucesso decisivo não gasta energia nenhuma; falha comum gasta 1 ponto, não o custo "
            "inteiro; falha crítica gasta o custo inteiro e rola-se 3d na tabela. Resultado "
            "absurdo na cena, ou o que o operador queria: rola-se de novo."
        ),
        section="4.15",
        decided="13/09/2026",
        decision="Decisão 33",
    ),
    HouseSetting(
        key="death_by_kind",
        title="Quem morre quando: bicho a 0 PV, NPC nomeado e chefe a −HT.",
        book=(
            "A escada de PV vale para todos: teste de morte a −HT e a cada 5 PV depois, morte "
            "automática a −5 × HT (pág. 126)."
        ),
        table=(
            "Bicho de bestiário morre a 0 PV; NPC nomeado e chefe de encontro a −HT, sem teste "
            "de morte; personagem de jogador pela escada do livro."
        ),
        section="5.4.1",
        decided="10/09/2026",
        decision="Fixado em 10/09/2026",
        where="§5.4.1",
    ),
    HouseSetting(
        key="no_spell_without_magery",
        title="Sem Aptidão Mágica não existe feitiço, em nenhum andar.",
        book="O livro diz que mana alta permite a qualquer um conjurar.",
        table="Aqui não: sem Aptidão Mágica não há feitiço em nenhuma faixa de mana.",
        section="6.4, 8",
        decided=None,
        decision="decisão do Árbitro",
        where="`17` §6.2 e §6.5",
    ),
    HouseSetting(
        key="high_mana",
        title="Mana alta dá +2 no nível efetivo e metade da fadiga.",
        book=(
            "O livro não dá mecânica nenhuma à faixa alta depois que se corta o efeito de "
            "permitir a qualquer um conjurar."
        ),
        table=("Andares 9–20: +2 no nível efetivo e metade da fadiga, arredondando para cima."),
        section="6.4, 8",
        decided=None,
        decision="decidido pelo Árbitro",
        where="`17` §6.5",
    ),
    HouseSetting(
        key="three_world_actions",
        title="Três ações de mundo por semana, que não acumulam.",
        book=BOOK_NOT_STATED,
        table=(
            "Cada personagem tem três ações de mundo por semana; a que não se usa não passa "
            "para a semana seguinte. Cenas livres, ilimitadas."
        ),
        section="8",
        decided=None,
        decision=None,
        where="`02` §11",
    ),
    HouseSetting(
        key="week_is_real_week",
        title="Uma semana de mundo é uma semana real.",
        book=BOOK_NOT_STATED,
        table=("O relógio corre sozinho; ninguém entra na Semana N+1 antes do Boletim."),
        section="8",
        decided=None,
        decision=None,
        where="`02` §11",
    ),
)

HOUSE_SETTINGS: dict[str, HouseSetting] = {setting.key: setting for setting in _SETTINGS}

# The book's two treatments of the critical hit, and the one this table uses (§4.8).
CRITICAL_HIT_TREATMENT = CriticalHitTreatment.TABLE
CRITICAL_HIT_TABLE_BOTH_WAYS = True


def house_setting(key: str) -> HouseSetting:
    """The house setting named ``key`` (one of ``HOUSE_SETTINGS``' keys, e.g. "high_mana").
    Raises InvalidValue("key", UNKNOWN_HOUSE_SETTING) for any other key."""
    try:
        return HOUSE_SETTINGS[key]
    except (KeyError, TypeError):
        raise InvalidValue("key", UNKNOWN_HOUSE_SETTING) from None


class CombatantKind(StrEnum):
    CREATURE = "creature"  # bicho de bestiário, sem nome registrado
    NAMED_NPC = "named_npc"  # verbete no 07a, nome na Cronologia ou numa ficha homologada
    BOSS = "boss"  # chefe de encontro, marcado no 06 ou declarado antes do primeiro dado
    PLAYER_CHARACTER = "player_character"


# §5.4.1: "Fixado em 10/09/2026." Kept as a name for the callers that read it.
HOUSE_DEATH_RULE_DECIDED = HOUSE_SETTINGS["death_by_kind"].decided


class DeathLine(StrEnum):
    """Where a row of §5.4.1 puts death: 0 HP, −HT, or the book's full ladder (§5.4)."""

    ZERO = "zero"
    MINUS_HT = "minus_ht"
    FULL_LADDER = "full_ladder"


@dataclass(frozen=True)
class DeathRule:
    """One row of the table of §5.4.1. ``who``, ``dies_at_text`` and ``checks_text`` are the
    row's three cells as the canon writes them; ``death_checks`` False means none at all. The
    canon cites no book page: it is the Árbitro's rule, fixed on ``decided``."""

    who: str
    kinds: tuple[CombatantKind, ...]
    dies_at: DeathLine
    death_checks: bool
    dies_at_text: str = ""
    checks_text: str = ""
    section: str = "5.4.1"
    decided: str = HOUSE_DEATH_RULE_DECIDED


HOUSE_DEATH_RULES: tuple[DeathRule, ...] = (
    DeathRule(
        "Bicho de bestiário — sem nome registrado",
        (CombatantKind.CREATURE,),
        DeathLine.ZERO,
        death_checks=False,
        dies_at_text="0 PV",
        checks_text=(
            "Nenhum. Morto — ou em fuga, se o `06` diz que a espécie foge. Fora da luta de "
            "qualquer jeito, e não volta nela."
        ),
    ),
    DeathRule(
        "NPC nomeado e chefe de encontro",
        (CombatantKind.NAMED_NPC, CombatantKind.BOSS),
        DeathLine.MINUS_HT,
        death_checks=False,
        dies_at_text="−HT",
        checks_text="Nenhum. Morre ao cruzar a linha.",
    ),
    DeathRule(
        "Personagem de jogador, em qualquer combate",
        (CombatantKind.PLAYER_CHARACTER,),
        DeathLine.FULL_LADDER,
        death_checks=True,
        dies_at_text="escada completa de 5.4",
        checks_text="Todos.",
    ),
    DeathRule(
        "Combate entre personagens de jogador",
        (CombatantKind.PLAYER_CHARACTER,),
        DeathLine.FULL_LADDER,
        death_checks=True,
        dies_at_text="escada completa de 5.4, para os dois lados",
        checks_text="Todos.",
    ),
)


def _combatant_kind(value: CombatantKind | str) -> CombatantKind:
    try:
        return CombatantKind(value)
    except ValueError:
        raise InvalidValue("kind", UNKNOWN_COMBATANT_KIND) from None


def death_rule(kind: CombatantKind | str) -> DeathRule:
    """The §5.4.1 row for ``kind`` ("creature", "named_npc", "boss", "player_character").
    A player character in a fight between player characters has the same rule. Raises
    InvalidValue("kind") for an unknown kind."""
    found = _combatant_kind(kind)
    return next(rule for rule in HOUSE_DEATH_RULES if found in rule.kinds)


def out_of_the_fight_at(kind: CombatantKind | str, ht: int) -> int:
    """The HP at or below which a combatant of ``kind`` is certainly out (§5.4.1): a creature
    at 0 (dead, or fleeing if its species flees: out either way, and it does not come back),
    a named NPC or boss dies at −HT, a player character dies for certain at −5 × HT (§5.4;
    earlier only by a failed death check).

    ``ht`` 1 or more. Raises InvalidValue("kind"/"ht").
    """
    rule = death_rule(kind)
    check_attribute("ht", ht)
    if rule.dies_at is DeathLine.ZERO:
        return 0
    if rule.dies_at is DeathLine.MINUS_HT:
        return -ht
    return hp_thresholds(ht).dead_at


def house_death_checks(kind: CombatantKind | str, ht: int, hp_before: int, hp_after: int) -> int:
    """Death checks a blow from ``hp_before`` to ``hp_after`` HP calls for, under §5.4.1:
    none for a creature, a named NPC or a boss (they die on crossing their line, see
    ``out_of_the_fight_at``); for a player character, the book's count
    (``gurps.injury.death_checks_crossed``, §5.4, p. 126).

    ``ht`` 1 or more; HP as whole numbers, ``hp_after`` ≤ ``hp_before``. Raises
    InvalidValue("kind"/"ht"/"hp_before"/"hp_after").
    """
    rule = death_rule(kind)
    checks = death_checks_crossed(ht, hp_before, hp_after)
    return checks if rule.death_checks else 0


def is_out_of_the_fight(kind: CombatantKind | str, ht: int, hp: int) -> bool:
    """True if ``hp`` is at or below ``out_of_the_fight_at(kind, ht)`` (§5.4.1).

    Raises InvalidValue("kind"/"ht"/"hp").
    """
    line = out_of_the_fight_at(kind, ht)
    return require_int("hp", hp) <= line


# --- §8, the list of departures as the canon prints it ------------------------------------------


@dataclass(frozen=True)
class HouseRuleLine:
    """One row of the table of §8: ``text`` is the rule as the canon writes it; ``setting``
    the key of its ``HOUSE_SETTINGS`` entry, if the engine names it, whose ``where`` is then
    the row's "Onde está"; otherwise ``where`` is that cell."""

    text: str
    setting: str | None = None
    where: str | None = None
    section: str = "8"

    @property
    def where_text(self) -> str:
        """The "Onde está" cell: the setting's ``where``, or this line's own."""
        if self.setting is not None:
            return HOUSE_SETTINGS[self.setting].where or ""
        return self.where or ""


HOUSE_RULE_LINES: tuple[HouseRuleLine, ...] = (
    HouseRuleLine(
        "A morte é permanente. Intercessão de Ámenti e petição de Fengdu custam fortuna e o "
        "resultado padrão é não. Personagem novo entra com a média da mesa −10%, piso de 150.",
        where="`02` §9",
    ),
    HouseRuleLine(
        "Ranks por pontos totais, e morte a partir do rank B desbloqueia personagem não-humano.",
        where="`02` §7 e `03` §1",
    ),
    HouseRuleLine(
        "Economia em grãos, não em dólares do livro. Espólio por profundidade, preço de balcão, "
        "ágio de armadura de 1,5× no Limiar, manutenção semanal. Nenhum preço se estima na cena.",
        where="`03`",
    ),
    HouseRuleLine(
        "Cura tem preço fixo e teológico: 50 g e uma semana parado, ou 200 g em santuário e "
        "nenhuma semana.",
        where="`03` §10.4",
    ),
    HouseRuleLine(
        "Sem Aptidão Mágica não existe feitiço, em nenhum andar. O livro diz que mana alta "
        "permite a qualquer um conjurar; aqui não.",
        setting="no_spell_without_magery",
    ),
    HouseRuleLine(
        "Mana alta dá +2 no nível efetivo e metade da fadiga. Número da casa, decidido pelo "
        "Árbitro — o livro não dá mecânica nenhuma à faixa alta depois que se corta o efeito "
        "acima.",
        setting="high_mana",
    ),
    HouseRuleLine(
        "A Marca custa 0 pontos e é a premissa do mundo, mas traz Dever obrigatório com a Casa "
        "divina.",
        where="`02` §5",
    ),
    HouseRuleLine(
        "Três ações de mundo por semana, que não acumulam. Cenas livres, ilimitadas.",
        setting="three_world_actions",
    ),
    HouseRuleLine(
        "Uma semana de mundo é uma semana real. O relógio corre sozinho; ninguém entra na "
        "Semana N+1 antes do Boletim.",
        setting="week_is_real_week",
    ),
    HouseRuleLine(
        "Nenhum conflito entre jogadores sem consentimento explícito dos dois. Conflito por "
        "procuração é o caminho preferido.",
        where="`02` §10",
    ),
    HouseRuleLine(
        "O Mestre de Cena não sugere rolagem. Perícia é do jogador.",
        where="`02` §4 e `04`",
    ),
    HouseRuleLine(
        "Quem rola os dados é sempre o Mestre de Cena, nunca o jogador — e o resultado nunca "
        "some. A rolagem que o livro manda fazer escondida se grava na pasta do jogador antes "
        "de narrar e aparece na homologação.",
        setting="mestre_rolls_everything",
    ),
    HouseRuleLine(
        "Bicho de bestiário morre a 0 PV; NPC nomeado e chefe a −HT; personagem de jogador pela "
        "escada do livro.",
        setting="death_by_kind",
    ),
    HouseRuleLine(
        "Empate na ordem do turno se desempata pela DX e depois pela ordem de declaração, não "
        "por dados. Mesa assíncrona precisa de ordem que não mude entre uma sessão e outra.",
        setting="turn_order_tie_break",
    ),
)


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="death_by_kind",
        title="Quem morre quando — regra de casa",
        section="5.4.1",
        page="",
        columns=("Quem", "Morre em", "Testes de morte"),
        rows=tuple((rule.who, rule.dies_at_text, rule.checks_text) for rule in HOUSE_DEATH_RULES),
        heading="## 5.4.1 Quem morre quando — regra de casa",
        decided=HOUSE_SETTINGS["death_by_kind"].decided,
        note="A escada de 5.4 é do livro e vale integralmente para personagem de jogador.",
    ),
    CanonTable(
        key="house_rules",
        title="O que esta campanha faz diferente do livro",
        section="8",
        page="",
        columns=("Regra da casa", "Onde está"),
        rows=tuple((line.text, line.where_text) for line in HOUSE_RULE_LINES),
        heading="# 8. O que esta campanha faz diferente do livro",
        note="Lista curta, cada linha apontando o documento que manda.",
    ),
)
