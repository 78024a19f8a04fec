"""The tables rolled on 3d: critical miss, critical hit, critical hit to the head (canon §4.8,
book p. 202), critical failure in spellcasting (§4.15, Decision 33) and the Fright Check
(§5b).

Each table is typed data written once: every row keeps the canon's own words (``text``) and
the 3d totals it covers (``rolls``), from which its label ("3, 4", "15 a 18", "36+") is
built. ``roll_on_table`` is the one entry point the scene log uses; it applies the rows'
exceptions (an unbreakable weapon rolls again, an impaling attack that hits itself rolls
again…) and says in ``TableRoll.text`` which one it applied.

This table uses the critical hit table, both ways, and never the book's "3 = maximum damage"
(house setting ``critical_hit_table``, fixed on 13/09/2026; §4.10 row 4 is a known slip).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from gurps._validate import require_at_least
from gurps.checks import (
    CRITICAL_SUCCESS_ALWAYS_UP_TO,
    CRITICAL_SUCCESS_ON_5_FROM_LEVEL,
    CRITICAL_SUCCESS_ON_6_FROM_LEVEL,
    RollKind,
    SuccessRoll,
    roll_success,
)
from gurps.damage import DamageType, wound_multiplier
from gurps.dice import RandomSource, parse_dice, roll_3d6
from gurps.errors import (
    CRITICAL_HIT_TO_THE_HEAD,
    FRIGHT_MARGIN_REQUIRED,
    FRIGHT_MARGIN_TOO_LARGE,
    HEAD_TABLE_ONLY_FOR_THE_HEAD,
    REROLL_ONLY_SPELL_FAILURE,
    TABLE_OPTION_NOT_BOOLEAN,
    UNARMED_HAS_NO_WEAPON,
    UNKNOWN_HIT_LOCATION,
    UNKNOWN_TABLE,
    UNKNOWN_TABLE_OPTION,
    InvalidValue,
)
from gurps.house import HOUSE_SETTINGS
from gurps.injury import HitLocation
from gurps.tabular import CanonTable

# A run of this many totals or more is printed "15 a 18"; shorter ones "9, 10, 11".
_RANGE_LABEL_FROM = 4


@dataclass(frozen=True)
class TableRow:
    """One row of a 3d table.

    ``rolls``: the totals it covers (3d, or 3d plus the margin for the Fright Check);
    ``open_ended`` True: that total and everything above ("36+"). ``effect``: a stable slug
    of what happens (the tables' enums below). ``text``: the canon's words for it, markdown
    removed. ``same_as``: the row the canon sends to ("Como o 8.").
    """

    rolls: tuple[int, ...]
    effect: str
    text: str
    section: str
    page: str | None
    open_ended: bool = False
    same_as: int | None = None

    @property
    def label(self) -> str:
        """The row's first cell as the canon prints it: "5", "3, 4", "15 a 18", "36+"."""
        if self.open_ended:
            return f"{self.rolls[0]}+"
        if len(self.rolls) >= _RANGE_LABEL_FROM:
            return f"{self.rolls[0]} a {self.rolls[-1]}"
        return ", ".join(str(total) for total in self.rolls)

    def covers(self, total: int) -> bool:
        """True if ``total`` falls on this row."""
        if self.open_ended:
            return total >= self.rolls[0]
        return total in self.rolls


@dataclass(frozen=True)
class Table3d:
    """A table rolled on 3d: its ``key``, Portuguese ``title``, canon ``section``, book
    ``page`` (None where the canon cites none), the markdown ``heading`` it is printed under,
    and its ``rows`` in order."""

    key: str
    title: str
    section: str
    page: str | None
    heading: str
    columns: tuple[str, str]
    rows: tuple[TableRow, ...]

    def row_for(self, total: int) -> TableRow:
        """The row ``total`` falls on. Raises ValueError if none does (below the first)."""
        for row in self.rows:
            if row.covers(total):
                return row
        raise ValueError(f"{self.key}: no row for {total}")


# --- Tabela de Erros Críticos (§4.8, p. 202) ----------------------------------------------------


class MissEffect(StrEnum):
    WEAPON_BREAKS = "weapon_breaks"
    HITS_YOURSELF = "hits_yourself"  # full damage
    HITS_YOURSELF_HALF = "hits_yourself_half"
    LOSES_BALANCE = "loses_balance"
    WEAPON_TURNS = "weapon_turns"
    DROPS_WEAPON = "drops_weapon"
    WEAPON_FLIES = "weapon_flies"
    SHOULDER_STRAINED = "shoulder_strained"
    FALLS = "falls"
    # Only as a result: the unarmed reading of the table.
    HAND_OR_FOOT_DAMAGE = "hand_or_foot_damage"


def _miss(rolls: tuple[int, ...], effect: MissEffect, text: str, **kw: Any) -> TableRow:
    return TableRow(rolls, effect, text, section="4.8", page="202", **kw)


_TURNS = "A arma gira na mão. Um turno extra para prepará-la."

CRITICAL_MISS = Table3d(
    key="critical_miss",
    title="Tabela de Erros Críticos",
    section="4.8",
    page="202",
    heading="### Tabela de Erros Críticos",
    columns=("3d", "O que acontece"),
    rows=(
        _miss(
            (3, 4),
            MissEffect.WEAPON_BREAKS,
            "A arma se quebra e fica inutilizada. Exceção: maça, mangual, marreta, barra de "
            "metal e outras armas sólidas de dano contundente, arma mágica e arma de qualidade "
            'fina não quebram — rola-se de novo, e só quebram se sair "arma quebrada" outra '
            "vez. Saindo outro resultado, vale o novo.",
        ),
        _miss(
            (5,),
            MissEffect.HITS_YOURSELF,
            "Você atinge a si mesmo num braço ou perna, 50% para cada, dano inteiro. Exceção: "
            "se o ataque era perfurante ou de longo alcance, rola-se de novo; só vale se sair "
            '"atingir a si mesmo" duas vezes.',
        ),
        _miss((6,), MissEffect.HITS_YOURSELF_HALF, "Como o 5, mas metade do dano.", same_as=5),
        _miss(
            (7,),
            MissEffect.LOSES_BALANCE,
            "Perde o equilíbrio. Não faz nada até o próximo turno, e até lá toda defesa ativa "
            "a −2.",
        ),
        _miss((8,), MissEffect.WEAPON_TURNS, _TURNS),
        _miss(
            (9, 10, 11), MissEffect.DROPS_WEAPON, "Derruba a arma. Exceção: arma barata se quebra."
        ),
        _miss((12,), MissEffect.WEAPON_TURNS, _TURNS),
        _miss(
            (13,),
            MissEffect.LOSES_BALANCE,
            "Perde o equilíbrio. Não faz nada até o próximo turno, toda defesa ativa a −2.",
        ),
        _miss(
            (14,),
            MissEffect.WEAPON_FLIES,
            "A arma voa da mão e cai a 1D metros — 50% para a frente, 50% para trás. Quem "
            "estiver no ponto onde ela cai testa DX ou sofre metade do dano da arma. Exceção: "
            "ataque perfurante apenas derruba a arma, como o 9.",
        ),
        _miss(
            (15,),
            MissEffect.SHOULDER_STRAINED,
            "Ombro estirado. O braço da arma fica inutilizado por 30 minutos — não larga a "
            "arma, mas não ataca nem apara com ela pelo resto do encontro.",
        ),
        _miss((16,), MissEffect.FALLS, "Você cai. (Com arma de longo alcance, use o 7 no lugar.)"),
        _miss((17, 18), MissEffect.WEAPON_BREAKS, "A arma se quebrou. Como o 3.", same_as=3),
    ),
)

# The numbers the rows' words carry, for the code that applies them (tests read them back
# from the canon): row 7/13 "toda defesa ativa a −2" until the next turn; row 8/12 "Um turno
# extra"; row 14 "1D metros"; row 15 "30 minutos"; row 16 "use o 7"; row 14 "como o 9".
LOSES_BALANCE_DEFENCE_PENALTY = -2
WEAPON_TURNS_EXTRA_READY_TURNS = 1
WEAPON_FLIES_METRES = parse_dice("1d")
SHOULDER_STRAINED_MINUTES = 30
RANGED_FALL_USES_ROW = 7
IMPALING_FLIES_USES_ROW = 9
# §4.8, under the table: the unarmed reading of "broken", "dropped" and "turns in hand".
UNARMED_DAMAGE = parse_dice("1d-3")
UNARMED_TEXT = "1D−3 de dano na mão ou no pé que golpeou"
# §4.8, row 3, 4: the weapons that do not break on the first "arma quebrada".
UNBREAKABLE_WEAPONS_TEXT = (
    "maça, mangual, marreta, barra de metal e outras armas sólidas de dano contundente, arma "
    "mágica e arma de qualidade fina"
)

_HITS_YOURSELF = (MissEffect.HITS_YOURSELF, MissEffect.HITS_YOURSELF_HALF)
_UNARMED_REPLACED = (MissEffect.WEAPON_BREAKS, MissEffect.DROPS_WEAPON, MissEffect.WEAPON_TURNS)


# --- Tabela de Golpes Fulminantes (§4.8, p. 202) ------------------------------------------------


class HitEffect(StrEnum):
    KNOCKOUT_OR_TRIPLE = "knockout_or_triple"  # rows 3 and 18, location not given
    KNOCKOUT = "knockout"  # torso: normal damage and knockout
    TRIPLE = "triple"
    DOUBLE = "double"
    BYPASSES_ARMOUR = "bypasses_armour"
    STUNNED = "stunned"
    LIMB_CRIPPLED_OR_NORMAL = "limb_crippled_or_normal"  # rows 8, 12, 14, location not given
    LIMB_CRIPPLED = "limb_crippled"
    NORMAL = "normal"
    OPPONENT_DROPS_WEAPON = "opponent_drops_weapon"


# §4.8: "todo dobro e triplo se refere ao dano básico dos dados".
BASIC_DAMAGE_MULTIPLIERS: dict[str, int] = {HitEffect.TRIPLE: 3, HitEffect.DOUBLE: 2}
DOUBLE_AND_TRIPLE_TEXT = "todo dobro e triplo se refere ao dano básico dos dados"
# Rows 8, 12, 14: "Braço, perna, mão ou pé".
LIMBS = (HitLocation.ARM, HitLocation.LEG, HitLocation.HAND, HitLocation.FOOT)
# Locations of an attack "dirigido à cabeça" (reading critical_head_brain_and_eyes).
HEAD_LOCATIONS = (HitLocation.HEAD, HitLocation.BRAIN, HitLocation.EYES)


def _hit(rolls: tuple[int, ...], effect: HitEffect, text: str, **kw: Any) -> TableRow:
    return TableRow(rolls, effect, text, section="4.8", page="202", **kw)


_BYPASS = "Ultrapassa a armadura e provoca dano normal."
_TRIPLE = "Triplo do dano."
_DOUBLE = "Dobro do dano."
_AS_8 = "Como o 8."

CRITICAL_HIT = Table3d(
    key="critical_hit",
    title="Tabela de Golpes Fulminantes",
    section="4.8",
    page="202",
    heading="### Tabela de Golpes Fulminantes (MB pág. 202)",
    columns=("3d", "O que acontece"),
    rows=(
        _hit(
            (3,),
            HitEffect.KNOCKOUT_OR_TRIPLE,
            "Tronco: dano normal e nocaute — teste de HT a cada 30 min para acordar. Qualquer "
            "outra parte: triplo do dano.",
        ),
        _hit((4,), HitEffect.BYPASSES_ARMOUR, _BYPASS),
        _hit((5,), HitEffect.TRIPLE, _TRIPLE),
        _hit((6,), HitEffect.DOUBLE, _DOUBLE),
        _hit(
            (7,),
            HitEffect.STUNNED,
            "Dano normal, e a vítima fica atordoada até passar num teste de HT.",
        ),
        _hit(
            (8,),
            HitEffect.LIMB_CRIPPLED_OR_NORMAL,
            "Braço, perna, mão ou pé: dano normal e o membro fica incapacitado, qualquer que "
            "seja o dano. Se o dano não bastaria para inutilizá-lo, é choque nevrálgico e se "
            "cura em seis turnos. Outra parte: dano normal.",
        ),
        _hit((9, 10, 11), HitEffect.NORMAL, "Dano normal, e só."),
        _hit((12,), HitEffect.LIMB_CRIPPLED_OR_NORMAL, _AS_8, same_as=8),
        _hit((13,), HitEffect.BYPASSES_ARMOUR, _BYPASS),
        _hit((14,), HitEffect.LIMB_CRIPPLED_OR_NORMAL, _AS_8, same_as=8),
        _hit(
            (15,),
            HitEffect.OPPONENT_DROPS_WEAPON,
            "A arma do oponente cai, e ele leva dano normal.",
        ),
        _hit((16,), HitEffect.DOUBLE, _DOUBLE),
        _hit((17,), HitEffect.TRIPLE, _TRIPLE),
        _hit(
            (18,),
            HitEffect.KNOCKOUT_OR_TRIPLE,
            "Tronco: dano normal e nocaute. Outra parte: triplo do dano.",
        ),
    ),
)


# --- Tabela de Golpes Fulminantes na Cabeça (§4.8, p. 202) --------------------------------------


class HeadEffect(StrEnum):
    INSTANT_DEATH = "instant_death"
    KNOCKOUT = "knockout"
    BLINDED_BOTH_EYES = "blinded_both_eyes"
    BLINDED_ONE_EYE = "blinded_one_eye"
    UNBALANCED = "unbalanced"
    NORMAL = "normal"
    DEAFENED_OR_SCARRED = "deafened_or_scarred"  # row 12, damage type not given
    DEAFENED_24_HOURS = "deafened_24_hours"  # row 12, crushing
    SCARRED = "scarred"  # row 12, cutting or impaling: 1 HP
    DEAFNESS_OR_BADLY_SCARRED = "deafness_or_badly_scarred"  # row 13, damage type not given
    POSSIBLY_PERMANENT_DEAFNESS = "possibly_permanent_deafness"  # row 13, crushing
    BADLY_SCARRED = "badly_scarred"  # row 13, cutting or impaling: 2 HP
    DROPS_WEAPON = "drops_weapon"
    STUNNED = "stunned"


# §4.8, Tabela de Golpes Fulminantes na Cabeça, rows 6 and 7 (MB p. 202): blinded, the victim
# "luta a DX −10" (both eyes) or "a DX −2" (one eye) "pelo resto da batalha".
BLINDED_DX_PENALTY = {HeadEffect.BLINDED_BOTH_EYES: -10, HeadEffect.BLINDED_ONE_EYE: -2}


# Head table 12 and 13, cutting or impaling: "1 PV e a face fica marcada", "2 PV e a face
# fica muito marcada" — the HP lost instead of the damage (§4.8, MB p. 202).
HEAD_FIXED_HP: dict[str, int] = {HeadEffect.SCARRED: 1, HeadEffect.BADLY_SCARRED: 2}


# Rows 12 and 13: the effect by damage type, crushing first (the canon's "Contundente: …"),
# cutting or impaling second ("Cortante ou perfurante: …").
HEAD_EFFECT_BY_DAMAGE_TYPE: dict[str, tuple[HeadEffect, HeadEffect]] = {
    HeadEffect.DEAFENED_OR_SCARRED: (HeadEffect.DEAFENED_24_HOURS, HeadEffect.SCARRED),
    HeadEffect.DEAFNESS_OR_BADLY_SCARRED: (
        HeadEffect.POSSIBLY_PERMANENT_DEAFNESS,
        HeadEffect.BADLY_SCARRED,
    ),
}


def _head(rolls: tuple[int, ...], effect: HeadEffect, text: str) -> TableRow:
    return TableRow(rolls, effect, text, section="4.8", page="202")


CRITICAL_HEAD = Table3d(
    key="critical_head",
    title="Tabela de Golpes Fulminantes na Cabeça",
    section="4.8",
    page="202",
    heading="### Tabela de Golpes Fulminantes na Cabeça (MB pág. 202)",
    columns=("3d", "O que acontece"),
    rows=(
        _head((3,), HeadEffect.INSTANT_DEATH, "Morte instantânea."),
        _head((4, 5), HeadEffect.KNOCKOUT, "Nocaute — teste de HT a cada 30 min."),
        _head(
            (6,),
            HeadEffect.BLINDED_BOTH_EYES,
            "Cego dos dois olhos. Regras de incapacitação, um teste por olho. Atordoado, e luta "
            "a DX −10 pelo resto da batalha.",
        ),
        _head(
            (7,),
            HeadEffect.BLINDED_ONE_EYE,
            "Cego de um olho. Regras de incapacitação. Atordoado, e luta a DX −2 pelo resto da "
            "batalha.",
        ),
        _head(
            (8,),
            HeadEffect.UNBALANCED,
            "Desequilibrado: defende-se normalmente no turno seguinte e não faz mais nada. "
            "Dano normal.",
        ),
        _head((9, 10, 11), HeadEffect.NORMAL, "Dano normal na cabeça, e só."),
        _head(
            (12,),
            HeadEffect.DEAFENED_OR_SCARRED,
            "Contundente: dano normal e surdo por 24 h. Cortante ou perfurante: 1 PV e a face "
            "fica marcada.",
        ),
        _head(
            (13,),
            HeadEffect.DEAFNESS_OR_BADLY_SCARRED,
            "Contundente: dano normal e surdez possivelmente permanente (incapacitação). "
            "Cortante ou perfurante: 2 PV e a face fica muito marcada.",
        ),
        _head(
            (14,),
            HeadEffect.DROPS_WEAPON,
            "Dano normal na cabeça, e a vítima deixa cair a arma (com duas, sorteia-se qual).",
        ),
        _head((15, 16, 17, 18), HeadEffect.STUNNED, "Dano normal na cabeça, e atordoada."),
    ),
)


# --- Falha crítica em operação mágica (§4.15, Decision 33) --------------------------------------


def _spell(total: int, effect: str, text: str) -> TableRow:
    return TableRow((total,), effect, text, section="4.15", page=None)


SPELL_CRITICAL_FAILURE = Table3d(
    key="spell_critical_failure",
    title="Falha crítica em operação mágica",
    section="4.15",
    page=None,
    heading="## 4.15 Falha crítica em operação mágica",
    columns=("3d", "O que acontece"),
    rows=(
        _spell(3, "caster_takes_1d", "Falha completa, e o operador sofre 1D de dano"),
        _spell(4, "spell_on_caster", "O feitiço vira contra o feiticeiro"),
        _spell(5, "hits_companion", "Atinge um companheiro, escolhido ao acaso"),
        _spell(6, "hits_near_enemy", "Atinge um inimigo próximo, ao acaso"),
        _spell(7, "noise_and_sulphur", "Só um som agudo e cheiro de enxofre"),
        _spell(
            8,
            "hits_something_else",
            "Atinge outra coisa — amigo, inimigo ou objeto. O Mestre de Cena escolhe ao acaso, "
            "ou escolhe o interessante",
        ),
        _spell(9, "caster_takes_1_hp", "Falha completa, 1 ponto de dano no operador"),
        _spell(10, "caster_stunned", "Falha completa, e o operador fica atordoado"),
        _spell(11, "noise_and_light", "Só som intenso e um lampejo de luz colorida"),
        _spell(12, "weak_effect", "O efeito sai, mas pálido — uma amostra do que devia ser"),
        _spell(13, "reverse_effect", "Efeito inverso ao desejado"),
        _spell(14, "reverse_wrong_target", "Efeito inverso, e no alvo errado"),
        _spell(
            15,
            "spell_forgotten",
            "Nada acontece, e o operador esquece a mágica. Teste de IQ por semana até lembrar; "
            "estudar no meio não adianta",
        ),
        _spell(16, "useless_illusion", "Parece ter funcionado — e é ilusão inútil"),
        _spell(
            17,
            "weapon_arm_crippled",
            "Falha completa, e o braço da arma fica incapacitado por uma semana",
        ),
        _spell(
            18,
            "demon_attacks",
            "Falha completa, e um demônio aparece e ataca o operador — salvo se a mágica e a "
            "intenção eram da melhor espécie, e aí rola-se de novo",
        ),
    ),
)
# Row 18's exception: a spell and an intention "da melhor espécie" roll again.
DEMON_ROW = 18


# --- Verificação de Pânico (§5b) ----------------------------------------------------------------


def _fright(rolls: tuple[int, ...], effect: str, text: str, *, open_ended: bool = False):
    return TableRow(rolls, effect, text, section="5b", page=None, open_ended=open_ended)


FRIGHT_CHECK = Table3d(
    key="fright_check",
    title="Verificação de Pânico",
    section="5b",
    page=None,
    heading="# 5b. Verificação de Pânico",
    columns=("3d + margem", "O que acontece"),
    rows=(
        _fright((4, 5), "stunned_one_turn", "Atordoado por um turno; recupera-se sozinho"),
        _fright((6, 7), "stunned_iq", "Atordoado; teste de IQ por turno para voltar"),
        _fright(
            (8, 9),
            "stunned_will",
            "Atordoado; teste de Vontade por turno, com os mesmos modificadores do teste original",
        ),
        _fright(
            (10,), "stunned_1d_turns", "Atordoado 1D turnos, depois teste de Vontade por turno"
        ),
        _fright((11,), "stunned_2d_turns", "Atordoado 2D turnos, idem"),
        _fright(
            (12,), "vomiting", "Vômito — atordoamento de 15 turnos, depois teste de HT por turno"
        ),
        _fright((13,), "new_quirk", "Peculiaridade nova. É o único jeito de passar de cinco"),
        _fright((14, 15), "fatigue_and_stun", "1D de Fadiga e 1D turnos de atordoamento"),
        _fright((16,), "stun_and_quirk", "1D turnos atordoado, mais Peculiaridade nova"),
        _fright((17,), "faint_1d_minutes", "Desmaia 1D minutos; teste de HT por minuto"),
        _fright((18,), "faint_ht", "Desmaia, teste de HT na hora; falhando, perde 1 PV"),
        _fright((19,), "faint_2d_minutes", "Desmaio de 2D minutos, e perde 1 PV"),
        _fright((20,), "faint_4d_minutes", "Desmaio beirando choque, 4D minutos, e 1 de Fadiga"),
        _fright(
            (21,),
            "panic",
            "Pânico — corre em círculos, grita ou chora por 1D minutos; teste de IQ por minuto",
        ),
        _fright((22,), "major_delusion", "Fantasia grande nova"),
        _fright((23,), "mild_phobia", "Fobia suave nova, ou desvantagem mental de 10 pontos"),
        _fright(
            (24,),
            "physical_consequence",
            "Consequência física: o cabelo encanece, envelhece cinco anos numa noite, fica meio "
            "surdo — 15 pontos de desvantagem física",
        ),
        _fright(
            (25,),
            "phobia_worsens",
            "Fobia suave que ele já tinha vira grave; se não tinha, ganha uma",
        ),
        _fright(
            (26, 27),
            "faint_and_delusion",
            "Desmaia 1D minutos e ganha Fantasia ou desvantagem mental de 10 pontos",
        ),
        _fright(
            (28,),
            "light_coma",
            "Coma leve — teste de IQ a cada 30 min; depois, −2 em tudo por 6 horas",
        ),
        _fright((29,), "coma", "Coma de 1D horas, e teste de HT para sair"),
        _fright(
            (30,),
            "catatonia",
            "Catatonia — 1D dias olhando o vazio. Sem cuidado médico perde 1 PV no primeiro "
            "dia, 2 no segundo, e assim por diante",
        ),
        _fright(
            (31,),
            "seizure",
            "Crise — convulsão de 1D minutos, 2D de Fadiga; teste de HT ou mais 1D de dano",
        ),
        _fright((32,), "heart_attack", "Pontada de dor — colapso cardíaco"),
        _fright(
            (33,),
            "total_panic",
            "Pânico total — perde a cabeça e faz a coisa mais inútil possível, inclusive pular "
            "de um penhasco para fugir",
        ),
        _fright((34, 35), "severe_delusion_or_phobia", "Fantasia grave ou Fobia grave nova"),
        _fright(
            (36,),
            "severe_physical_consequences",
            "Consequências físicas graves — 20 pontos ou mais de desvantagem física",
            open_ended=True,
        ),
    ),
)


TABLES: dict[str, Table3d] = {
    table.key: table
    for table in (CRITICAL_MISS, CRITICAL_HIT, CRITICAL_HEAD, SPELL_CRITICAL_FAILURE, FRIGHT_CHECK)
}
TABLE_TITLES: dict[str, str] = {key: table.title for key, table in TABLES.items()}


# --- Rolling --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRoll:
    """One roll on a table, rerolls included.

    ``table_key`` and ``title`` (Portuguese) name the table; ``rolls`` is every 3d total made,
    in order, and ``faces`` the three dice of each; ``total`` the final 3d total (plus the
    margin of failure on the Fright Check); ``row`` the row of ``total``; ``text`` the canon's
    words for the result with every exception or reading applied stated, in Portuguese;
    ``effect`` the slug of what happens after those exceptions (a ``MissEffect``,
    ``HitEffect``, ``HeadEffect``, or the row's effect); ``readings`` the keys of the
    ``gurps.readings`` the result depends on.
    """

    table_key: str
    title: str
    rolls: tuple[int, ...]
    faces: tuple[tuple[int, int, int], ...]
    total: int
    row: TableRow
    text: str
    effect: str = ""
    readings: tuple[str, ...] = ()


class _Dice:
    """The 3d rolls of one TableRoll, kept in order."""

    def __init__(self, source: RandomSource) -> None:
        self.source = source
        self.rolls: list[int] = []
        self.faces: list[tuple[int, int, int]] = []

    def roll(self) -> int:
        faces = roll_3d6(self.source)
        self.faces.append(faces)
        self.rolls.append(sum(faces))
        return self.rolls[-1]


def _said(row: TableRow, total: int, text: str | None = None) -> str:
    return f"Saiu {total} ({row.label}): {row.text if text is None else text}"


def _with_reference(table: Table3d, row: TableRow) -> str:
    """The row's words, followed by those of the row a "Como o N" sends to."""
    if row.same_as is None:
        return row.text
    other = table.row_for(row.same_as)
    return f"{row.text} [{other.label}: {other.text}]"


def _result(
    table: Table3d,
    dice: _Dice,
    row: TableRow,
    parts: list[str],
    effect: str,
    readings: list[str],
    *,
    total: int | None = None,
) -> TableRoll:
    return TableRoll(
        table_key=table.key,
        title=table.title,
        rolls=tuple(dice.rolls),
        faces=tuple(dice.faces),
        total=dice.rolls[-1] if total is None else total,
        row=row,
        text=" ".join(parts),
        effect=str(effect),
        readings=tuple(dict.fromkeys(readings)),
    )


def _critical_miss(
    dice: _Dice, *, unarmed: bool, unbreakable: bool, cheap: bool, impaling: bool, ranged: bool
) -> TableRoll:
    if unarmed and (unbreakable or cheap or ranged):
        field = "unbreakable" if unbreakable else "cheap" if cheap else "ranged"
        raise InvalidValue(field, UNARMED_HAS_NO_WEAPON)
    steps: list[str] = []
    notes: list[str] = []
    readings: list[str] = []
    breaks_seen = hits_seen = False
    while True:
        total = dice.roll()
        row = CRITICAL_MISS.row_for(total)
        effect = MissEffect(row.effect)
        if effect is MissEffect.WEAPON_BREAKS and not unarmed:
            if unbreakable and not breaks_seen:
                breaks_seen = True
                steps.append(
                    f"Saiu {total} («arma quebrada»), mas {UNBREAKABLE_WEAPONS_TEXT} não "
                    "quebram: rola-se de novo."
                )
                continue
            if breaks_seen:
                notes.append("Saiu «arma quebrada» outra vez: a arma se quebra.")
        if effect in _HITS_YOURSELF and (impaling or ranged):
            if effect is MissEffect.HITS_YOURSELF_HALF:
                readings.append("critical_miss_6_like_5")
            if not hits_seen:
                hits_seen = True
                kind = "perfurante" if impaling else "de longo alcance"
                steps.append(
                    f"Saiu {total} («atingir a si mesmo»), mas o ataque era {kind}: rola-se de "
                    "novo; só vale se sair «atingir a si mesmo» duas vezes."
                )
                continue
            notes.append("Saiu «atingir a si mesmo» duas vezes: vale.")
        elif hits_seen:
            readings.append("critical_miss_reroll_keeps_new")
            notes.append("Saiu outro resultado: vale o novo.")
        break

    if effect is MissEffect.FALLS and ranged:
        instead = CRITICAL_MISS.row_for(RANGED_FALL_USES_ROW)
        effect = MissEffect(instead.effect)
        notes.append(f"Com arma de longo alcance, vale o {instead.label}: {instead.text}")
    if effect is MissEffect.WEAPON_FLIES and impaling:
        effect = MissEffect.DROPS_WEAPON
        notes.append(f"Ataque perfurante: apenas derruba a arma, como o {IMPALING_FLIES_USES_ROW}.")
        if cheap:
            readings.append("critical_miss_14_impaling_like_9")
    elif effect is MissEffect.WEAPON_FLIES and unarmed:
        effect = MissEffect.DROPS_WEAPON
        readings.append("critical_miss_unarmed_14")
        notes.append("Desarmado, a arma que voa da mão conta como arma derrubada.")
    if unarmed and effect in _UNARMED_REPLACED:
        effect = MissEffect.HAND_OR_FOOT_DAMAGE
        notes.append(f"Desarmado: o resultado é ignorado — no lugar dele, {UNARMED_TEXT}.")
    elif effect is MissEffect.DROPS_WEAPON and cheap:
        effect = MissEffect.WEAPON_BREAKS
        notes.append("Arma barata: se quebra.")
    parts = [*steps, _said(row, total, _with_reference(CRITICAL_MISS, row)), *notes]
    return _result(CRITICAL_MISS, dice, row, parts, effect, readings)


def _location(value: object) -> HitLocation | None:
    if value is None:
        return None
    try:
        return HitLocation(value)
    except ValueError:
        raise InvalidValue("location", UNKNOWN_HIT_LOCATION) from None


def _critical_hit(dice: _Dice, *, location: object, damage_type: object) -> TableRoll:
    where = _location(location)
    if damage_type is not None:
        wound_multiplier(damage_type)  # checked, though no row of this table depends on it
    if where in HEAD_LOCATIONS:
        raise InvalidValue("location", CRITICAL_HIT_TO_THE_HEAD)
    total = dice.roll()
    row = CRITICAL_HIT.row_for(total)
    effect = HitEffect(row.effect)
    notes: list[str] = []
    readings: list[str] = []
    if effect is HitEffect.KNOCKOUT_OR_TRIPLE and where is not None:
        if where is HitLocation.TORSO:
            effect = HitEffect.KNOCKOUT
            notes.append("Golpe no tronco: dano normal e nocaute.")
        else:
            effect = HitEffect.TRIPLE
            notes.append("Golpe fora do tronco: triplo do dano.")
            if where is HitLocation.VITALS:
                readings.append("critical_hit_vitals_not_torso")
    elif effect is HitEffect.LIMB_CRIPPLED_OR_NORMAL and where is not None:
        if where in LIMBS:
            effect = HitEffect.LIMB_CRIPPLED
            notes.append("Golpe em braço, perna, mão ou pé: o membro fica incapacitado.")
        else:
            effect = HitEffect.NORMAL
            notes.append("Golpe em outra parte: dano normal.")
    if effect in BASIC_DAMAGE_MULTIPLIERS or effect is HitEffect.KNOCKOUT_OR_TRIPLE:
        notes.append(f"(Na tabela, {DOUBLE_AND_TRIPLE_TEXT}.)")
    parts = [_said(row, total, _with_reference(CRITICAL_HIT, row)), *notes]
    return _result(CRITICAL_HIT, dice, row, parts, effect, readings)


_CRUSHING_PREFIX = "Contundente: "
_OTHER_PREFIX = " Cortante ou perfurante: "


def _critical_head(dice: _Dice, *, location: object, damage_type: object) -> TableRoll:
    where = _location(location)
    if where is not None and where not in HEAD_LOCATIONS:
        raise InvalidValue("location", HEAD_TABLE_ONLY_FOR_THE_HEAD)
    kind = None if damage_type is None else wound_multiplier(damage_type).damage_type
    readings = (
        ["critical_head_brain_and_eyes"] if where in (HitLocation.BRAIN, HitLocation.EYES) else []
    )
    total = dice.roll()
    row = CRITICAL_HEAD.row_for(total)
    effect = HeadEffect(row.effect)
    notes: list[str] = []
    if effect in HEAD_EFFECT_BY_DAMAGE_TYPE and kind is not None:
        crushing, other = HEAD_EFFECT_BY_DAMAGE_TYPE[effect]
        crushing_text, other_text = row.text.removeprefix(_CRUSHING_PREFIX).split(_OTHER_PREFIX)
        if kind is DamageType.CRUSHING:
            effect = crushing
            notes.append(f"Golpe contundente: {crushing_text}")
        else:
            effect = other
            notes.append(f"Golpe cortante ou perfurante: {other_text}")
    parts = [_said(row, total), *notes]
    return _result(CRITICAL_HEAD, dice, row, parts, effect, readings)


def _spell_critical_failure(dice: _Dice, *, best_intent: bool, reroll_of: object) -> TableRoll:
    steps: list[str] = []
    if reroll_of is not None:
        if (
            not isinstance(reroll_of, TableRoll)
            or reroll_of.table_key != SPELL_CRITICAL_FAILURE.key
        ):
            raise InvalidValue("reroll_of", REROLL_ONLY_SPELL_FAILURE)
        dice.rolls.extend(reroll_of.rolls)
        dice.faces.extend(reroll_of.faces)
        steps.append(
            f"Saiu {reroll_of.total}, e o Mestre de Cena mandou rolar de novo: resultado "
            "absurdo ali, ou justamente o que o operador queria."
        )
    while True:
        total = dice.roll()
        row = SPELL_CRITICAL_FAILURE.row_for(total)
        if total == DEMON_ROW and best_intent:
            steps.append(
                f"Saiu {total}, mas a mágica e a intenção eram da melhor espécie: rola-se de novo."
            )
            continue
        break
    parts = [*steps, _said(row, total)]
    return _result(SPELL_CRITICAL_FAILURE, dice, row, parts, row.effect, [])


# Not a rule (the table is open-ended at 36+): a bound on input, so a typo of 10**30 is refused.
FRIGHT_MARGIN_MAX = 99


def _fright_check(dice: _Dice, *, margin_of_failure: object) -> TableRoll:
    margin = require_at_least("margin_of_failure", margin_of_failure, 1, FRIGHT_MARGIN_REQUIRED)
    if margin > FRIGHT_MARGIN_MAX:
        raise InvalidValue("margin_of_failure", FRIGHT_MARGIN_TOO_LARGE)
    rolled = dice.roll()
    total = rolled + margin
    row = FRIGHT_CHECK.row_for(total)
    parts = [f"Saiu {rolled} + margem {margin} = {total} ({row.label}): {row.text}"]
    return _result(FRIGHT_CHECK, dice, row, parts, row.effect, [], total=total)


_MISSING = object()
# Each table's options and their defaults; a default of _MISSING is required.
_OPTIONS: dict[str, dict[str, object]] = {
    CRITICAL_MISS.key: dict.fromkeys(
        ("unarmed", "unbreakable", "cheap", "impaling", "ranged"), False
    ),
    CRITICAL_HIT.key: {"location": None, "damage_type": None},
    CRITICAL_HEAD.key: {"location": None, "damage_type": None},
    SPELL_CRITICAL_FAILURE.key: {"best_intent": False, "reroll_of": None},
    FRIGHT_CHECK.key: {"margin_of_failure": _MISSING},
}
TABLE_REQUIRED_OPTIONS = {
    key: tuple(name for name, value in options.items() if value is _MISSING)
    for key, options in _OPTIONS.items()
}
_ROLLERS: dict[str, Callable[..., TableRoll]] = {
    CRITICAL_MISS.key: _critical_miss,
    CRITICAL_HIT.key: _critical_hit,
    CRITICAL_HEAD.key: _critical_head,
    SPELL_CRITICAL_FAILURE.key: _spell_critical_failure,
    FRIGHT_CHECK.key: _fright_check,
}


def table_options(key: str) -> dict[str, object]:
    """The options table ``key`` takes, each with its default (None or False: optional; a
    required one has no default and is listed in ``TABLE_REQUIRED_OPTIONS``). Raises
    InvalidValue("key", UNKNOWN_TABLE) for another key."""
    if key not in TABLES:
        raise InvalidValue("key", UNKNOWN_TABLE)
    return {name: None if value is _MISSING else value for name, value in _OPTIONS[key].items()}


def roll_on_table(key: str, source: RandomSource, /, **options: object) -> TableRoll:
    """Roll 3d on the table ``key`` and apply its exceptions; every reroll is in the result.

    ``key`` and its options (all keyword):

    - "critical_miss" (§4.8, p. 202): ``unarmed`` — every "arma quebrada", "arma derrubada" or
      "arma gira na mão" becomes 1D−3 of damage to the hand or foot that struck (and, reading
      ``critical_miss_unarmed_14``, so does the 14); ``unbreakable`` — mace, flail, maul, bar
      and other solid crushing weapons, a magic or a fine weapon: on "arma quebrada" it rolls
      again and breaks only if "arma quebrada" comes again, otherwise the new result holds;
      ``cheap`` — on 9–11 (and an impaling 14, reading ``critical_miss_14_impaling_like_9``)
      it breaks; ``impaling`` / ``ranged`` — on "atingir a si mesmo" it rolls again, and
      counts only if that comes twice (readings ``critical_miss_6_like_5`` — the 6 too — and
      ``critical_miss_reroll_keeps_new``); ``impaling`` turns the 14 into the 9; ``ranged``
      turns the 16 into the 7. All bool, default False; ``unarmed`` refuses ``unbreakable``,
      ``cheap`` and ``ranged``.
    - "critical_hit" (§4.8, p. 202): ``location`` (a ``HitLocation``; optional) resolves the
      3 and 18 (torso: knockout; elsewhere: triple — vitals are elsewhere, reading
      ``critical_hit_vitals_not_torso``) and the 8, 12, 14 (arm, leg, hand or foot: crippled;
      elsewhere: normal damage). Doubles and triples are of the basic dice damage. Head,
      brain and eyes are refused: they roll on "critical_head". ``damage_type`` is checked.
    - "critical_head" (§4.8, p. 202): ``damage_type`` ("cr", "cut", "imp"; optional) resolves
      the 12 and 13; ``location``, if given, must be head, brain or eyes (reading
      ``critical_head_brain_and_eyes``).
    - "spell_critical_failure" (§4.15, Decision 33): ``best_intent`` True when the Mestre
      says the spell and its intention were "da melhor espécie": an 18 rolls again.
      ``reroll_of`` — a previous TableRoll of this table the Mestre de Cena found absurd in
      the scene (or exactly what the caster wanted): this call rolls again and keeps the old
      rolls. The engine never decides that a result is absurd.
    - "fright_check" (§5b): ``margin_of_failure`` (int, 1 or more, required) is added to the
      3d; the table is open-ended at 36+.

    Raises InvalidValue("key", UNKNOWN_TABLE) for another key; InvalidValue(<option>) for an
    option the table does not take (UNKNOWN_TABLE_OPTION), a non-bool flag, an unknown
    location or damage type, a bad combination, a missing or non-positive margin.
    """
    if not isinstance(key, str) or key not in TABLES:
        raise InvalidValue("key", UNKNOWN_TABLE)
    allowed = _OPTIONS[key]
    for name in options:
        if name not in allowed:
            raise InvalidValue(name, UNKNOWN_TABLE_OPTION.format(option=name))
    values = {name: options.get(name, default) for name, default in allowed.items()}
    for name, value in values.items():
        if value is _MISSING:
            raise InvalidValue(name, FRIGHT_MARGIN_REQUIRED)
        if allowed[name] is False and not isinstance(value, bool):
            raise InvalidValue(name, TABLE_OPTION_NOT_BOOLEAN)
    return _ROLLERS[key](_Dice(source), **values)


def reroll_spell_critical_failure(
    previous: TableRoll, source: RandomSource, *, best_intent: bool = False
) -> TableRoll:
    """Roll again a spell critical failure the Mestre de Cena found absurd in the scene, or
    that was just what the caster wanted (§4.15): the same as ``roll_on_table(
    "spell_critical_failure", source, reroll_of=previous)``. Raises InvalidValue("reroll_of")
    if ``previous`` is not a roll of that table."""
    return roll_on_table(
        SPELL_CRITICAL_FAILURE.key, source, reroll_of=previous, best_intent=best_intent
    )


@dataclass(frozen=True)
class FrightCheck:
    """A Fright Check (§5b): the Will roll, and on a failure the margin of failure and the
    roll on the table (None on a success). ``readings``: keys the result depends on."""

    will_roll: SuccessRoll
    margin_of_failure: int | None
    table: TableRoll | None
    readings: tuple[str, ...] = ()


def fright_check(source: RandomSource, will: int) -> FrightCheck:
    """Roll a Fright Check (§5b): 3d against ``will`` (the effective Will, modifiers
    included); failed, roll 3d on the table and add the margin of failure (roll − Will).
    A failure by the 17/18 rule with the roll at or under Will fails by 1 (reading
    ``fright_margin_at_least_1``).

    Raises NoRollAtThreeOrLess at Will 3 or less (§1.1), InvalidValue("level") for a non-int.
    """
    roll = roll_success(source, will, RollKind.ATTRIBUTE)
    if roll.outcome.is_success:
        return FrightCheck(roll, None, None)
    margin = max(1, roll.total - will)
    readings = ("fright_margin_at_least_1",) if roll.total - will < 1 else ()
    table = roll_on_table(FRIGHT_CHECK.key, source, margin_of_failure=margin)
    return FrightCheck(roll, margin, table, readings)


_NOTES: dict[str, str] = {
    CRITICAL_MISS.key: (
        'Desarmado: todo resultado de "arma quebrada", "arma derrubada" ou "arma gira na mão" '
        f"é ignorado — no lugar dele, {UNARMED_TEXT}."
    ),
    CRITICAL_HIT.key: f"Rola-se 3d, e {DOUBLE_AND_TRIPLE_TEXT}.",
    CRITICAL_HEAD.key: "Só quando o golpe fulminante veio de um ataque dirigido à cabeça.",
    SPELL_CRITICAL_FAILURE.key: (
        "Sucesso decisivo não gasta energia nenhuma. Falha comum gasta 1 ponto, não o custo "
        "inteiro da mágica. Falha crítica gasta o custo inteiro."
    ),
    FRIGHT_CHECK.key: (
        "As desvantagens ganhas aqui baixam o valor em pontos do personagem, e o Árbitro "
        "escolhe qual é."
    ),
}
_DECIDED: dict[str, str | None] = {
    CRITICAL_HIT.key: HOUSE_SETTINGS["critical_hit_table"].decided,
    CRITICAL_HEAD.key: HOUSE_SETTINGS["critical_hit_table"].decided,
    SPELL_CRITICAL_FAILURE.key: HOUSE_SETTINGS["spell_critical_failure"].decided,
}

CANON_TABLES: tuple[CanonTable, ...] = tuple(
    CanonTable(
        key=table.key,
        title=table.title,
        section=table.section,
        page=table.page or "",
        columns=table.columns,
        rows=tuple((row.label, row.text) for row in table.rows),
        heading=table.heading,
        decided=_DECIDED.get(table.key),
        note=_NOTES[table.key],
    )
    for table in TABLES.values()
)


# --- §4.8: what the attack roll's own result does (MB p. 97–98) ----------------------------
# The book's table, as the canon prints it. Row 3 is the book's "dano máximo", which this
# table no longer applies (house setting critical_hit_table): the page shows the row with
# the decision beside it, and the engine rolls on the Tabela de Golpes Fulminantes instead.
ATTACK_CRITICAL_ROWS: tuple[tuple[str, str], ...] = (
    ("3", "Acerta e provoca o dano máximo dos dados. Um 1d+2 vira 8."),
    (str(CRITICAL_SUCCESS_ALWAYS_UP_TO), "Acerta e provoca dano normal."),
    (
        "5 ou 6",
        f"Golpe fulminante se o nível efetivo for {CRITICAL_SUCCESS_ON_5_FROM_LEVEL}+ (para o 5) "
        f"ou {CRITICAL_SUCCESS_ON_6_FROM_LEVEL}+ (para o 6); dano normal.",
    ),
    # "Não importa o NH: 3 e 4 sempre acertam, 17 e 18 sempre erram." (p. 97)
    ("17 ou 18", "Erra sempre. Erro crítico: rola-se na Tabela de Erros Críticos, logo abaixo."),
)

CANON_TABLES = (
    CanonTable(
        key="attack_criticals",
        title="Golpe fulminante e erro crítico no ataque",
        section="4.8",
        page="97–98",
        columns=("Resultado no ataque", "Efeito"),
        rows=ATTACK_CRITICAL_ROWS,
        heading="## 4.8 Golpe fulminante e erro crítico",
        decided=HOUSE_SETTINGS["critical_hit_table"].decided,
        note=(
            "Fixado em 13/09/2026: esta mesa usa a Tabela de Golpes Fulminantes, e a regra do "
            "dano máximo (linha 3) deixa de valer."
        ),
    ),
    *CANON_TABLES,
)
