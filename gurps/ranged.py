"""Distance: what range costs a shot, aiming, the four numbers of a ranged weapon, the
missile spells and the other magic ranges (canon §4.3 and §4.11; MB p. 95, 114–115, 201;
Módulo de Magia p. 10–11).

Distances are metres and speeds metres per second, as exact Fractions: an int, a Fraction,
a Decimal, a float (through its shortest text) or a str with a decimal comma ("13,5").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from gurps._validate import (
    check_attribute,
    require_at_least,
    require_exact_non_negative,
    require_int,
)
from gurps.damage import basic_damage
from gurps.dice import DiceExpression
from gurps.errors import (
    DISTANCE_NOT_A_NUMBER,
    MISSILE_DAMAGE_NOT_IN_CANON,
    MISSILE_ENERGY_OUT_OF_RANGE,
    NEGATIVE_ACCURACY,
    NEGATIVE_AIM_TURNS,
    NEGATIVE_DISTANCE,
    NEGATIVE_HEXES,
    NEGATIVE_IGNORED_OBJECTS,
    NEGATIVE_SKILL,
    NEGATIVE_SPEED,
    RANGE_BEYOND_TABLE,
    SPEED_NOT_A_NUMBER,
    UNKNOWN_MISSILE_SPELL,
    InvalidValue,
    OutsideCanon,
)
from gurps.rolling import Modifier
from gurps.tabular import CanonTable, signed

Number = Fraction | Decimal | int | float | str


def to_metres(
    value: Number,
    field: str = "distance_m",
    not_a_number: str = DISTANCE_NOT_A_NUMBER,
    negative: str = NEGATIVE_DISTANCE,
) -> Fraction:
    """``value`` as an exact Fraction (metres, or m/s with the speed messages). A float goes
    through its shortest text (4.5 → 9/2); a str may use a decimal comma ("13,5"). Raises
    InvalidValue(field, not_a_number) for a non-number, InvalidValue(field, negative) below 0.
    """
    return require_exact_non_negative(field, value, not_a_number, negative)


def _metres_label(metres: Fraction) -> str:
    """As the canon writes a distance: 4,5 m; 13,5 m; 1.000 m."""
    if metres.denominator == 1:
        return f"{int(metres):,} m".replace(",", ".")
    return f"{float(metres):g} m".replace(".", ",")


# --- §4.11 A conta: the speed/range table (MB p. 201) -----------------------------------------


@dataclass(frozen=True)
class RangeRow:
    """One row of the speed/range table: distance + speed "até ``max_m``" costs ``modifier``."""

    max_m: Fraction
    modifier: int
    section: str = "4.11"
    page: str = "201"

    @property
    def label(self) -> str:
        """As the canon's first column: "até 4,5 m", "até 1.000 m"."""
        return f"até {_metres_label(self.max_m)}"


RANGE_TABLE: tuple[RangeRow, ...] = tuple(
    RangeRow(Fraction(metres), modifier)
    for metres, modifier in (
        ("2", 0),
        ("3", -1),
        ("4.5", -2),
        ("7", -3),
        ("9", -4),
        ("13.5", -5),
        ("20", -6),
        ("30", -7),
        ("45", -8),
        ("70", -9),
        ("90", -10),
        ("135", -11),
        ("200", -12),
        ("300", -13),
        ("450", -14),
        ("700", -15),
        ("1000", -16),
    )
)


def range_row(distance_m: Number, speed_mps: Number = 0) -> RangeRow:
    """The row of the speed/range table for a target ``distance_m`` metres away moving at
    ``speed_mps`` metres per second (the relative speed if the shooter moves too).

    Distance + speed make one number, rounded up to the next row: the first row whose
    "até" bound is equal to or above it (9 m → "até 9 m"; 5 m at 7 m/s = 12 → "até 13,5 m").
    Raises InvalidValue("distance_m" / "speed_mps") for a non-number or a negative value,
    and OutsideCanon("4.11") past the last row (1.000 m). Source: §4.11, MB p. 201.
    """
    distance = to_metres(distance_m)
    speed = to_metres(speed_mps, "speed_mps", SPEED_NOT_A_NUMBER, NEGATIVE_SPEED)
    total = distance + speed
    for row in RANGE_TABLE:
        if total <= row.max_m:
            return row
    raise OutsideCanon("4.11", RANGE_BEYOND_TABLE)


def range_modifier(distance_m: Number, speed_mps: Number = 0) -> int:
    """The range modifier (0 down to −16) for a target ``distance_m`` metres away moving
    at ``speed_mps`` m/s; see ``range_row`` for the rounding and the errors. 9 m → −4;
    5 m at 7 m/s → −5. Source: §4.11, MB p. 201."""
    return range_row(distance_m, speed_mps).modifier


# --- which weapons shoot or throw ---------------------------------------------------------------

# The skills that shoot or throw, each with what comes at the defender (§4.7, §4.11).
RANGED_SKILLS = {"arco": "arrow", "besta": "arrow", "funda": "sling_stone", "arremesso": "thrown"}


def is_ranged_weapon(
    skill_name: str,
    *,
    snap_shot: int | None = None,
    half_damage_m: int | None = None,
    max_m: int | None = None,
) -> bool:
    """True for a sheet's weapon that shoots or throws: its skill is Arco, Besta, Funda or
    Arremesso, or the line gives any of the four numbers of §4.11 (TR, ½D, Máx)."""
    if skill_name.strip().casefold() in RANGED_SKILLS:
        return True
    return any(value is not None for value in (snap_shot, half_damage_m, max_m))


# --- §4.3 and §4.11: aiming --------------------------------------------------------------------

# "Sem apontar, arma de longo alcance ataca a −4" (§4.3 and §4.11, p. 95).
UNAIMED_PENALTY = -4
# Each turn after the first: +1, up to +3 (§4.3; §4.11 "+3 do quarto em diante").
MAX_EXTRA_AIM_BONUS = 3
# "Apoio (besta, parapeito) dá +1, se houve tempo de apontar" (§4.11, p. 201).
BRACED_BONUS = 1
# "Figura no caminho: −4 por cada uma" (§4.11, p. 201).
FIGURE_IN_THE_WAY_PENALTY = -4
AIM_SECTION = "4.11"
AIM_PAGE = "95, 201"


def aim_bonus(
    turns_aimed: int,
    accuracy: int,
    skill: int,
    *,
    beyond_half_damage: bool = False,
    braced: bool = False,
) -> int:
    """The attack modifier from aiming a ranged weapon for ``turns_aimed`` turns (§4.3, §4.11;
    MB p. 95, 115, 201).

    0 turns: −4 (not aimed; a snap shot that makes its TR is the caller's business). First
    turn: the weapon's ``accuracy`` (Prec), never more than ``skill`` (NH 8, Prec +13 → +8).
    Each turn after: +1, up to +3 (fourth turn on). ``beyond_half_damage``: past ½D the
    accuracy is worth nothing (the extra turns still count). ``braced``: +1 if aimed.
    Defending spoils the aim: the caller resets ``turns_aimed`` to 0. Raises InvalidValue for
    negative ``turns_aimed``, ``accuracy`` or ``skill``.
    """
    turns = require_at_least("turns_aimed", turns_aimed, 0, NEGATIVE_AIM_TURNS)
    acc = require_at_least("accuracy", accuracy, 0, NEGATIVE_ACCURACY)
    level = require_at_least("skill", skill, 0, NEGATIVE_SKILL)
    if turns == 0:
        return UNAIMED_PENALTY
    first = 0 if beyond_half_damage else min(acc, level)
    return first + min(turns - 1, MAX_EXTRA_AIM_BONUS) + (BRACED_BONUS if braced else 0)


# "Alvo agachado, deitado ou só com a cabeça de fora: de −2 a −7, conforme a posição" (§4.11,
# p. 201). The canon gives the range, not a number per posture: reading
# "ranged_target_low_posture" takes the mildest for any posture lower than standing.
TARGET_LOW_MILDEST = -2
TARGET_LOW_WORST = -7
LOW_POSTURES = frozenset({"kneeling", "crouching", "sitting", "lying"})
TARGET_LOW_READING = "ranged_target_low_posture"


def target_posture_modifier(posture: str, name: str) -> Modifier | None:
    """The modifier a ranged attack takes from its target's ``posture`` (§4.11, p. 201):
    kneeling, crouching, sitting or lying ("Alvo agachado, deitado …: de −2 a −7") → −2, the
    mildest (reading ``ranged_target_low_posture``; more — only the head showing — is the
    Mestre's to announce); standing (or any other) → None. ``name`` the posture as the page
    says it ("Deitado"). A hand-to-hand attack takes none: the canon gives it no number."""
    if posture not in LOW_POSTURES:
        return None
    low, worst = signed(TARGET_LOW_MILDEST), signed(TARGET_LOW_WORST)
    reason = f"alvo {name.lower()} ({low} a {worst} conforme a posição; leitura: o mais brando)"
    return Modifier(TARGET_LOW_MILDEST, reason, section="4.11")


# --- §4.11 Os quatro números (MB p. 114–115) ----------------------------------------------------


@dataclass(frozen=True)
class StDistance:
    """A distance written in ST, in metres: ``multiplier`` × ST + ``offset`` ("ST−5" is
    (1, −5); "ST×3,5" is (7/2, 0))."""

    multiplier: Fraction
    offset: int = 0

    def metres(self, st: int) -> Fraction:
        """Metres at ``st`` (the shooter's, or the crossbow's own ST), never below 0.
        Raises InvalidValue("st") below 1."""
        check_attribute("st", st)
        return max(Fraction(0), self.multiplier * st + self.offset)

    @property
    def text(self) -> str:
        """As the canon writes it: "ST", "ST−5", "ST×2", "ST×3,5"."""
        out = "ST"
        if self.multiplier != 1:
            out += "×" + _metres_label(self.multiplier).removesuffix(" m")
        if self.offset:
            out += f"{self.offset:+d}".replace("-", "\u2212")
        return out


@dataclass(frozen=True)
class RangedWeapon:
    """The four numbers of a ranged weapon (§4.11, MB p. 115): Tiro Rápido (TR), Precisão
    (Prec), Meio Dano (½D) and Alcance Máximo (Max), the last two in metres from ST.
    ``uses_weapon_st``: the crossbow's distances use the weapon's ST, not the shooter's."""

    name: str
    snap_shot: int
    accuracy: int
    half_damage: StDistance
    max_range: StDistance
    uses_weapon_st: bool = False
    section: str = "4.11"
    page: str = "114–115"


RANGED_WEAPONS: tuple[RangedWeapon, ...] = (
    RangedWeapon(
        "Faca pequena arremessada", 11, 0, StDistance(Fraction(1), -5), StDistance(Fraction(1))
    ),
    RangedWeapon("Pedra", 12, 0, StDistance(Fraction(2)), StDistance(Fraction(7, 2))),
    RangedWeapon("Lança arremessada", 11, 2, StDistance(Fraction(1)), StDistance(Fraction(3, 2))),
    RangedWeapon("Arco longo", 15, 3, StDistance(Fraction(15)), StDistance(Fraction(20))),
    RangedWeapon(
        "Besta", 12, 4, StDistance(Fraction(20)), StDistance(Fraction(25)), uses_weapon_st=True
    ),
)


# Crossbow cocking by how far the bow's ST is above the user's (§4.11, MB p. 114):
# (most points above, seconds); above the last row it cannot be cocked.
CROSSBOW_COCKING: tuple[tuple[int, int], ...] = ((0, 2), (2, 6), (4, 20))
# "Some um turno para pegar o virote e um para encaixá-lo."
CROSSBOW_BOLT_TURNS = 2


def crossbow_cocking_seconds(crossbow_st: int, user_st: int) -> int | None:
    """Seconds to cock a crossbow of ``crossbow_st`` for a user of ``user_st`` (§4.11,
    MB p. 114): equal or lower 2; 1–2 above 6; 3–4 above 20 (goat's-foot); more than 4
    above None (it cannot be cocked). Taking and seating the bolt are ``CROSSBOW_BOLT_TURNS``
    more. Raises InvalidValue("crossbow_st" / "user_st") below 1."""
    check_attribute("crossbow_st", crossbow_st)
    check_attribute("user_st", user_st)
    above = crossbow_st - user_st
    return next((seconds for most, seconds in CROSSBOW_COCKING if above <= most), None)


# "Pedra de até meio quilo ... faz um ponto menos que o seu GDP" (§4.11, MB p. 114).
STONE_DAMAGE_BONUS = -1


def stone_damage(st: int) -> DiceExpression:
    """Damage of a stone of up to half a kilo thrown at ``st``: thrust − 1 (§4.11,
    MB p. 114). Raises InvalidValue("st") below 1, OutsideCanon("4.9") above ST 20."""
    return basic_damage(st).thrust.plus(STONE_DAMAGE_BONUS)


# --- §4.11 Magia de projétil (Módulo de Magia p. 11) --------------------------------------------


@dataclass(frozen=True)
class MissileSpell:
    """A missile spell's four numbers (½D and Max in metres) and, where the canon gives
    them, its energy range and the energy points per die of damage. ``energy`` None: the
    canon has no damage line for it."""

    name: str
    snap_shot: int
    accuracy: int
    half_damage_m: int
    max_range_m: int
    energy: tuple[int, int] | None
    points_per_die: int | None
    section: str = "4.11"
    page: str = "MAGIA 11"


MISSILE_SPELLS: tuple[MissileSpell, ...] = (
    MissileSpell("Bola de Fogo", 13, 1, 25, 50, (1, 3), 1),
    # Corrected 13/09/2026: the entry wins, 1d per 2 points, 2 to 6.
    MissileSpell("Bola de Fogo Explosiva", 13, 1, 25, 50, (2, 6), 2),
    MissileSpell("Adaga de Gelo", 13, 3, 30, 60, (1, 3), 1),
    MissileSpell("Esfera de Gelo", 13, 2, 40, 80, (1, 3), 1),
    MissileSpell("Relâmpago", 13, 3, 50, 100, (1, 3), 1),
    MissileSpell("Poltergeist", 13, 1, 20, 60, None, None),
    MissileSpell("Projétil de Pedra", 13, 2, 40, 80, None, None),
    MissileSpell("Faca Alada", 13, 1, 20, 40, None, None),
)

# "Arremesso de Mágica ... pré-definido: NH em Arremesso, ou DX−3" (§4.11, MAGIA p. 11).
SPELL_THROWING_DEFAULT_DX = -3
# "A Bola de Fogo Explosiva pode ser jogada no chão ou na parede, com +4 para acertar."
EXPLOSIVE_AT_GROUND_BONUS = 4


def missile_spell(name: str) -> MissileSpell:
    """The missile spell named ``name`` (case-insensitive); raises
    InvalidValue("spell") for any other (§4.11, MAGIA p. 11)."""
    for spell in MISSILE_SPELLS:
        if isinstance(name, str) and spell.name.casefold() == name.strip().casefold():
            return spell
    raise InvalidValue("spell", UNKNOWN_MISSILE_SPELL)


def missile_damage(spell: MissileSpell | str, energy: int) -> DiceExpression:
    """The damage of ``spell`` cast with ``energy`` points (§4.11, MAGIA p. 11 and the
    spell's entry): Bola de Fogo, Adaga de Gelo, Esfera de Gelo, Relâmpago 1–3 points, 1d
    per point; Bola de Fogo Explosiva 2–6 points, 1d per 2 points, rounding down (6 → 3d).
    Raises InvalidValue("spell") for an unknown spell, InvalidValue("energy") outside its
    range, OutsideCanon("4.11") for the three spells with no damage line.
    """
    row = spell if isinstance(spell, MissileSpell) else missile_spell(spell)
    if row.energy is None or row.points_per_die is None:
        raise OutsideCanon("4.11", MISSILE_DAMAGE_NOT_IN_CANON.format(spell=row.name))
    points = require_int("energy", energy)
    minimum, maximum = row.energy
    if not minimum <= points <= maximum:
        message = MISSILE_ENERGY_OUT_OF_RANGE.format(
            spell=row.name, minimum=minimum, maximum=maximum
        )
        raise InvalidValue("energy", message)
    return DiceExpression(points // row.points_per_die)


# --- §4.11 Magia: os outros alcances (Módulo de Magia p. 10–11) ---------------------------------

# Regular spell: −1 per hex between caster and subject; touching (0 hexes) is free.
REGULAR_SPELL_PER_HEX = -1
# "Sem tocar e sem ver: −5 a mais."
UNSEEN_SPELL_PENALTY = -5
REGULAR_SPELL_SECTION = "4.11"
REGULAR_SPELL_PAGE = "MAGIA 10–11"


def regular_spell_modifier(hexes: int, *, sees_subject: bool = True) -> int:
    """The range modifier of a regular spell whose subject is ``hexes`` hexes away (§4.11,
    MAGIA p. 10): minus the hexes (0 when touching); −5 more if the caster neither touches
    nor sees it (seeing through magic or another's eyes counts as seeing). For an area
    spell pass the hexes to the nearest hex of the area (MAGIA p. 10–11). Raises
    InvalidValue("hexes") for a negative or non-int distance."""
    distance = require_at_least("hexes", hexes, 0, NEGATIVE_HEXES)
    unseen = UNSEEN_SPELL_PENALTY if distance > 0 and not sees_subject else 0
    return REGULAR_SPELL_PER_HEX * distance + unseen


@dataclass(frozen=True)
class LongDistanceRow:
    """One rung of the Locate ladder: up to ``max_m`` metres costs ``modifier``. The first
    rung is "menos de 100 m" (strictly less); the others are "até" (inclusive)."""

    max_m: int
    modifier: int
    section: str = "4.11"
    page: str = "MAGIA 10"


LONG_DISTANCE_TABLE: tuple[LongDistanceRow, ...] = tuple(
    LongDistanceRow(metres, modifier)
    for metres, modifier in (
        (100, 0),
        (800, -1),
        (1_500, -2),
        (5_000, -3),
        (15_000, -4),
        (80_000, -5),
        (150_000, -6),
        (500_000, -7),
        (1_500_000, -8),
    )
)
# "... e −1 por cada 1.500 km a mais."
LONG_DISTANCE_STEP_M = 1_500_000
LONG_DISTANCE_STEP_PENALTY = -1
# "E −1 por cada objeto conhecido que se mande ignorar na busca."
IGNORED_OBJECT_PENALTY = -1


def long_distance_modifier(distance_m: Number, ignored_objects: int = 0) -> int:
    """The Locate-family modifier for ``distance_m`` metres (§4.11, MAGIA p. 10): less than
    100 m 0; up to 800 m −1; 1,5 km −2; 5 km −3; 15 km −4; 80 km −5; 150 km −6; 500 km −7;
    1.500 km −8; then −1 per 1.500 km more (started). Minus 1 per known object the search
    is told to ignore (``ignored_objects``). Raises InvalidValue("distance_m") for a
    non-number or negative distance, InvalidValue("ignored_objects") if negative."""
    distance = to_metres(distance_m)
    ignored = require_at_least("ignored_objects", ignored_objects, 0, NEGATIVE_IGNORED_OBJECTS)
    first, last = LONG_DISTANCE_TABLE[0], LONG_DISTANCE_TABLE[-1]
    if distance < first.max_m:
        base = first.modifier
    elif distance <= last.max_m:
        base = next(row.modifier for row in LONG_DISTANCE_TABLE[1:] if distance <= row.max_m)
    else:
        steps = math.ceil((distance - last.max_m) / LONG_DISTANCE_STEP_M)
        base = last.modifier + LONG_DISTANCE_STEP_PENALTY * steps
    return base + IGNORED_OBJECT_PENALTY * ignored


# --- The tables the rules pages show, built from the data above ---------------------------------


def _km_label(metres: int) -> str:
    """As the canon writes the Locate ladder: "100 m", "800 m", "1,5 km", "1.500 km"."""
    if metres < 1_000:
        return f"{metres} m"
    return _metres_label(Fraction(metres, 1_000)).removesuffix(" m") + " km"


def _missile_damage_rows() -> tuple[tuple[str, str, str], ...]:
    # The canon groups the spells that share an energy range and a rate into one row.
    groups: dict[tuple[tuple[int, int], int], list[str]] = {}
    for spell in MISSILE_SPELLS:
        if spell.energy is not None and spell.points_per_die is not None:
            groups.setdefault((spell.energy, spell.points_per_die), []).append(spell.name)
    rows = []
    for ((minimum, maximum), per_die), names in groups.items():
        if per_die == 1:
            damage = "1d por ponto"
        else:  # the canon spells out the ceiling where the rate is not one die per point
            damage = f"1d a cada {per_die} pontos — máximo {maximum // per_die}d"
        rows.append((" · ".join(names), f"{minimum} a {maximum}", damage))
    return tuple(rows)


CANON_TABLES: tuple[CanonTable, ...] = (
    CanonTable(
        key="range",
        title="Distância + velocidade (Tabela de Parâmetro Velocidade/Distância e Tamanho)",
        section=RANGE_TABLE[0].section,
        page=RANGE_TABLE[0].page,
        columns=("Distância + velocidade", "Modificador"),
        rows=tuple((row.label, signed(row.modifier)) for row in RANGE_TABLE),
        heading="### A conta",
        notes=(
            "Distância em metros + velocidade do alvo em metros por segundo dão um número só. "
            "Arredonda-se para cima, para a linha seguinte da tabela. Se quem atira também se "
            "move, vale a velocidade relativa.",
            f"Sem apontar, arma de longo alcance ataca a {signed(UNAIMED_PENALTY)} (pág. 95). "
            f"Apoio dá {signed(BRACED_BONUS)}, se houve tempo de apontar; figura no caminho: "
            f"{signed(FIGURE_IN_THE_WAY_PENALTY)} por cada uma (pág. 201).",
            "Depois dos 1.000 m a escada continua na tabela do livro, de −17 (1.350 m) a −25 "
            "(32 km), e cada multiplicação por dez tira mais 6. Numa galeria da Garganta quase "
            "nada passa dos 30 m.",
        ),
    ),
    CanonTable(
        key="ranged_weapons",
        title="Os quatro números de cada arma de longo alcance",
        section=RANGED_WEAPONS[0].section,
        page=RANGED_WEAPONS[0].page,
        columns=("Arma", "TR", "Prec", "½D", "Max"),
        rows=tuple(
            (
                weapon.name,
                str(weapon.snap_shot),
                signed(weapon.accuracy),
                weapon.half_damage.text,
                weapon.max_range.text,
            )
            for weapon in RANGED_WEAPONS
        ),
        heading="### Os quatro números de cada arma de longo alcance",
        note=(
            "As distâncias em “ST” são metros, calculados com a ST de quem atira — e, na besta, "
            "com a ST da arma."
        ),
    ),
    CanonTable(
        key="missile_spells",
        title="Magia de projétil: os oito conjuntos do livro",
        section=MISSILE_SPELLS[0].section,
        page=MISSILE_SPELLS[0].page,
        columns=("Mágica", "TR", "Prec", "½D", "Max"),
        rows=tuple(
            (
                spell.name,
                str(spell.snap_shot),
                signed(spell.accuracy),
                _metres_label(Fraction(spell.half_damage_m)),
                _metres_label(Fraction(spell.max_range_m)),
            )
            for spell in MISSILE_SPELLS
        ),
        heading="### Magia de projétil: os oito conjuntos do livro",
        nth=0,
        note=(
            "Duas rolagens: a da mágica, sem redutor de distância; depois Arremesso de Mágica "
            f"(pré-definido: NH em Arremesso, ou DX{signed(SPELL_THROWING_DEFAULT_DX)}), com a "
            "tabela de distância."
        ),
    ),
    CanonTable(
        key="missile_damage",
        title="Magia de projétil: energia e dano",
        section=MISSILE_SPELLS[0].section,
        page=MISSILE_SPELLS[0].page,
        columns=("Mágica", "Energia", "Dano"),
        rows=_missile_damage_rows(),
        heading="### Magia de projétil: os oito conjuntos do livro",
        nth=1,
        notes=(
            "Um segundo de concentração por ponto, sempre.",
            "Corrigido em 13/09/2026: na Bola de Fogo Explosiva vence o verbete — 1d a cada "
            "2 pontos de energia.",
        ),
    ),
    CanonTable(
        key="spell_range",
        title="Magia comum: distância em hexágonos",
        section=REGULAR_SPELL_SECTION,
        page=REGULAR_SPELL_PAGE,
        columns=("Situação", "Redutor"),
        rows=(
            ("Encostado, tocando o objetivo", "0"),
            (
                "Cada hexágono entre operador e objetivo",
                signed(REGULAR_SPELL_PER_HEX),
            ),
            ("Sem tocar e sem ver o objetivo", f"{signed(UNSEEN_SPELL_PENALTY)} a mais"),
            (
                "Mágica de área",
                "a distância até o hexágono mais próximo da área, não até o centro",
            ),
        ),
        notes=(
            "Ver pela magia de outro, ou pelos olhos de outro, conta como ver. (MAGIA pág. 10)",
        ),
    ),
    CanonTable(
        key="locate_range",
        title="Mágica de Localizar e parentes: a escada de quilômetros",
        section=LONG_DISTANCE_TABLE[0].section,
        page=LONG_DISTANCE_TABLE[0].page,
        columns=("Distância", "Modificador"),
        rows=(
            (
                f"menos de {_km_label(LONG_DISTANCE_TABLE[0].max_m)}",
                signed(LONG_DISTANCE_TABLE[0].modifier),
            ),
            *(
                (f"até {_km_label(row.max_m)}", signed(row.modifier))
                for row in LONG_DISTANCE_TABLE[1:]
            ),
            (
                f"cada {_km_label(LONG_DISTANCE_STEP_M)} a mais",
                signed(LONG_DISTANCE_STEP_PENALTY),
            ),
            ("cada objeto conhecido que se mande ignorar na busca", signed(IGNORED_OBJECT_PENALTY)),
        ),
    ),
)
