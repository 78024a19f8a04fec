"""«Quebrar e Destruir»: the ND Estrutural of objects, structural damage and wear.

Chapter «4. Combate», section «Quebrar e Destruir». An object has no PV: it has an ND
Estrutural = (Tamanho + Estrutura) × Dureza, from three tables (``SIZE``, ``STRUCTURE``,
``HARDNESS``, each row with the chapter's examples). A Teste de Força breaks it when it
«supera» the ND (``strength_test_breaks``); an attack's final damage wears it down when it
reaches ``minimum_damage`` (ND ÷ 5, rounded down), else it is dissipated (``strike``). A
melee attacker may strike as many times as their Resistência (the attribute) and then loses
1, 2, 3… PV per extra attack (``wear``); a ranged attacker spends ammunition instead
(``spend_ammunition``). The chapter's seven examples are ``EXAMPLES``.

Readings (keys of ``sistema001.readings``): ``object_half_hardness_rounding`` (×0,5 on an
odd sum: rounded down), ``object_collapse_at_zero`` (the structure collapses when its ND
reaches 0), ``object_open_ended_values`` («30+»: 30 unless the Mestre gives more). Slips
(``sistema001.readings.SLIPS``): the palisade's «35 × 1,5 = 70» (the table: madeira pesada
×2), the bow's and the sword's «Pequeno = 5» (the table puts «Arco» and «espada comum» in
Médio 10).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from sistema001.errors import Sistema001Error

SECTION = "Quebrar e Destruir"


@dataclass(frozen=True)
class SizeRow:
    """A row of the «Tabela de Tamanho»: ``value`` (the «Valor»), ``open_ended`` for «30+»."""

    key: str
    label: str
    value: int
    examples: str
    open_ended: bool = False

    @property
    def value_text(self) -> str:
        return f"{self.value}+" if self.open_ended else str(self.value)


@dataclass(frozen=True)
class StructureRow:
    """A row of the «Tabela de Estrutura»: ``value`` (the «Reforço»), ``open_ended`` for
    «30+»."""

    key: str
    label: str
    value: int
    examples: str
    open_ended: bool = False

    @property
    def value_text(self) -> str:
        return f"{self.value}+" if self.open_ended else str(self.value)


@dataclass(frozen=True)
class HardnessRow:
    """A row of the «Tabela de Dureza do Material»: ``multiplier`` as an exact Fraction."""

    key: str
    label: str
    multiplier: Fraction
    examples: str

    @property
    def multiplier_text(self) -> str:
        """«×0,5», «×2» as the chapter prints it."""
        value = self.multiplier
        if value.denominator == 1:
            return f"×{value.numerator}"
        return "×" + f"{float(value):g}".replace(".", ",")


SIZE = MappingProxyType(
    {
        row.key: row
        for row in (
            SizeRow("mini", "Mini", 0, "Frasco, garrafa pequena, engrenagem, joia, fechadura."),
            SizeRow(
                "pequeno",
                "Pequeno",
                5,
                "Armas leves de uma mão, adagas, facas, pistolas, chicote, escudo pequeno, baú "
                "pequeno, cadeira.",
            ),
            SizeRow(
                "medio",
                "Médio",
                10,
                "Arco, armas médias de uma mão, espada comum, machado de batalha, maça, armas "
                "flexíveis, barril, mesa, portinhola, altar pequeno.",
            ),
            SizeRow(
                "normal",
                "Normal",
                15,
                "Armas pesadas, armas de haste, lança longa, alabarda, porta comum, estátua "
                "humana, carroça, parede baixa, armário grande.",
            ),
            SizeRow(
                "grande",
                "Grande",
                20,
                "Portão, muro de casa, paliçada, rocha grande, carroça reforçada, barricada "
                "pesada.",
            ),
            SizeRow(
                "gigante",
                "Gigante",
                25,
                "Torre pequena, ponte curta, pilar grosso, navio pequeno, construção isolada.",
            ),
            SizeRow(
                "colossal",
                "Colossal",
                30,
                "Muralha, cidadela, castelo, ponte monumental, navio de guerra, fortificação "
                "massiva.",
                open_ended=True,
            ),
        )
    }
)

STRUCTURE = MappingProxyType(
    {
        row.key: row
        for row in (
            StructureRow(
                "natural",
                "Natural",
                5,
                "Rocha bruta, tronco caído, formação de gelo, parede de terra.",
            ),
            StructureRow(
                "simples",
                "Simples",
                10,
                "Porta comum, cerca de madeira, barraca, móveis robustos.",
            ),
            StructureRow(
                "estruturada",
                "Estruturada",
                15,
                "Portas reforçadas, muros de casa, construções civis, paliçadas.",
            ),
            StructureRow(
                "fortificada",
                "Fortificada",
                20,
                "Portões reforçados, cofres simples, muralhas leves, torres defensivas.",
            ),
            StructureRow(
                "bastionada",
                "Bastionada",
                25,
                "Muralhas de fortaleza, portões de cidadela, paredes de cerco.",
            ),
            StructureRow(
                "militar",
                "Militar",
                30,
                "Fortificações de guerra, bunkers, muralhas de cerco pesado.",
                open_ended=True,
            ),
        )
    }
)

HARDNESS = MappingProxyType(
    {
        row.key: row
        for row in (
            HardnessRow(
                "fragil",
                "Vidro, cerâmica e materiais frágeis",
                Fraction(1, 2),
                "Janelas, frascos, vitrais, louça.",
            ),
            HardnessRow(
                "madeira_leve",
                "Madeira leve",
                Fraction(1),
                "Portas simples, móveis, caixas, cercas frágeis.",
            ),
            HardnessRow(
                "madeira_pesada",
                "Madeira pesada",
                Fraction(2),
                "Portões de madeira, paliçadas, vigas grossas.",
            ),
            HardnessRow(
                "metal_leve",
                "Metal leve",
                Fraction(2),
                "Armas, armaduras, grades simples, chapas metálicas.",
            ),
            HardnessRow(
                "metal_macico",
                "Metal maciço",
                Fraction(3),
                "Portões metálicos, cofres, paredes reforçadas.",
            ),
            HardnessRow(
                "pedra_trabalhada",
                "Pedra trabalhada",
                Fraction(3),
                "Paredes de pedra, portas de pedra, construções civis.",
            ),
            HardnessRow(
                "pedra_macica",
                "Pedra maciça",
                Fraction(5),
                "Muralhas, fortalezas, cidadelas.",
            ),
        )
    }
)

# --- messages -------------------------------------------------------------------------------
UNKNOWN_SIZE = (
    "Tamanho desconhecido «{key}»: use Mini, Pequeno, Médio, Normal, Grande, Gigante ou Colossal."
)
UNKNOWN_STRUCTURE = (
    "Estrutura desconhecida «{key}»: use Natural, Simples, Estruturada, Fortificada, "
    "Bastionada ou Militar."
)
UNKNOWN_HARDNESS = (
    "Material desconhecido «{key}»: use um da Tabela de Dureza do Material ou dê o multiplicador."
)
BELOW_OPEN_ENDED = "{label} vale {value} ou mais («{value}+»)."
NOT_OPEN_ENDED = "{label} vale exatamente {value}: só Colossal e Militar aceitam mais («30+»)."
BAD_VALUE = "{what} deve ser um número inteiro de 0 ou mais."
BAD_MULTIPLIER = "O multiplicador de Dureza deve ser um número maior que 0."
IN_USE = (
    "Objetos empunhados, vestidos ou em uso por uma criatura não podem ser alvos diretos de "
    "tentativas de destruição: primeiro tire-o do controle dela (desarmar, derrubar, forçar a "
    "soltura)."
)
NO_AMMUNITION = "Sem munição: cada ataque à distância contra a estrutura consome munição."


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(value: object, what: str, field: str) -> int:
    if not _int(value) or value < 0:  # type: ignore[operator]
        raise Sistema001Error(BAD_VALUE.format(what=what), field)
    return value  # type: ignore[return-value]


def size_value(size: str, value: int | None = None) -> int:
    """The «Valor» of the size ``size`` (a key of ``SIZE``). ``value`` overrides it only for an
    open-ended row («Colossal 30+»), and must then be ≥ 30 (reading
    ``object_open_ended_values``). Raises ``Sistema001Error`` (field ``size``)."""
    try:
        row = SIZE[size]
    except KeyError:
        raise Sistema001Error(UNKNOWN_SIZE.format(key=size), "size") from None
    return _row_value(row.label, row.value, row.open_ended, value, "size")


def structure_value(structure: str, value: int | None = None) -> int:
    """The «Reforço» of the structure ``structure`` (a key of ``STRUCTURE``); ``value`` as in
    ``size_value`` («Militar 30+»). Raises ``Sistema001Error`` (field ``structure``)."""
    try:
        row = STRUCTURE[structure]
    except KeyError:
        raise Sistema001Error(UNKNOWN_STRUCTURE.format(key=structure), "structure") from None
    return _row_value(row.label, row.value, row.open_ended, value, "structure")


def _row_value(label: str, base: int, open_ended: bool, value: int | None, field: str) -> int:
    if value is None:
        return base
    _check_int(value, label, field)
    if not open_ended and value != base:
        raise Sistema001Error(NOT_OPEN_ENDED.format(label=label, value=base), field)
    if value < base:
        raise Sistema001Error(BELOW_OPEN_ENDED.format(label=label, value=base), field)
    return value


def hardness_multiplier(hardness: str | Fraction | int) -> Fraction:
    """The «Multiplicador» of a material: a key of ``HARDNESS``, or a multiplier the Mestre
    gives («Mestres e autores são incentivados a criar novos materiais e multiplicadores»),
    an int or Fraction > 0. Raises ``Sistema001Error`` (field ``hardness``)."""
    if isinstance(hardness, str):
        try:
            return HARDNESS[hardness].multiplier
        except KeyError:
            raise Sistema001Error(UNKNOWN_HARDNESS.format(key=hardness), "hardness") from None
    if isinstance(hardness, bool) or not isinstance(hardness, (int, Fraction)) or hardness <= 0:
        raise Sistema001Error(BAD_MULTIPLIER, "hardness")
    return Fraction(hardness)


def structural_nd(
    size: str | int,
    structure: str | int,
    hardness: str | Fraction | int,
    *,
    adjustment: int = 0,
) -> int:
    """«ND Estrutural = (Tamanho + Estrutura) × Dureza.» An int ≥ 0.

    ``size``: a key of ``SIZE`` or its value as an int (the Mestre's «30+»); ``structure``:
    a key of ``STRUCTURE`` or its value; ``hardness``: a key of ``HARDNESS`` or a multiplier
    (``hardness_multiplier``). A product with a half (×0,5 on an odd sum: (5 + 10) × 0,5 =
    7,5) is rounded down (reading ``object_half_hardness_rounding``). ``adjustment``: the
    Mestre's («O Mestre pode ajustá-lo conforme a situação»), added after, never below 0.
    Raises ``Sistema001Error`` naming the field at fault.
    """
    tamanho = _check_int(size, "O Tamanho", "size") if not isinstance(size, str) else None
    if tamanho is None:
        tamanho = size_value(size)  # type: ignore[arg-type]
    estrutura = (
        _check_int(structure, "A Estrutura", "structure")
        if not isinstance(structure, str)
        else structure_value(structure)
    )
    if not _int(adjustment):
        raise Sistema001Error("O ajuste do Mestre deve ser um número inteiro.", "adjustment")
    product = (tamanho + estrutura) * hardness_multiplier(hardness)
    return max(0, int(product) + adjustment)  # int() of a positive Fraction rounds down


def minimum_damage(nd: int) -> int:
    """«Dano mínimo = ND Estrutural ÷ 5, arredondado para baixo.» ``nd`` an int ≥ 0."""
    return _check_int(nd, "O ND Estrutural", "nd") // 5


def strike(nd: int, damage: int) -> int:
    """The ND Estrutural after an attack whose final damage is ``damage`` (ints ≥ 0).

    «Se o dano for menor que esse valor, ele é totalmente dissipado pela estrutura e pelo
    material.» — the ND is unchanged. «Se o dano atingir ou superar esse mínimo, o ND
    Estrutural é reduzido pelo valor do dano causado.» — never below 0; at 0 it has
    collapsed (``collapsed``; reading ``object_collapse_at_zero``).
    """
    _check_int(damage, "O dano", "damage")
    if damage < minimum_damage(nd):
        return nd
    return max(0, nd - damage)


def dissipated(nd: int, damage: int) -> bool:
    """Whether ``damage`` is below the structure's minimum and so «totalmente dissipado»."""
    return _check_int(damage, "O dano", "damage") < minimum_damage(nd)


def collapsed(nd: int) -> bool:
    """Whether a structure worn down to ``nd`` has collapsed: ND 0 (reading
    ``object_collapse_at_zero``: the chapter says «reduzir o ND Estrutural até que ele
    colapse» without the point)."""
    return _check_int(nd, "O ND Estrutural", "nd") == 0


def strength_test_breaks(total: int, nd: int) -> bool:
    """Whether a Teste de Força totalling ``total`` breaks a structure of ND ``nd``: «o ND que
    precisa ser superado em um Teste de Força» — strictly greater (the chapter says
    «superado» here)."""
    return total > _check_int(nd, "O ND Estrutural", "nd")


def check_target(in_use: bool) -> None:
    """Refuses an object in use as a direct target («Objetos em Uso»): raises
    ``Sistema001Error`` (field ``in_use``) when ``in_use``."""
    if in_use:
        raise Sistema001Error(IN_USE, "in_use")


def wear(attack_number: int, resistencia: int) -> int:
    """PV lost by the melee attacker on their ``attack_number``-th attack (1, 2, …) against a
    structure, with the attribute Resistência ``resistencia``.

    «Um personagem pode atacar uma estrutura corpo a corpo um número de vezes igual à sua
    Resistência, sem sofrer penalidades adicionais.» «o primeiro ataque além do limite causa
    1 PV, o segundo causa 2 PV, o terceiro causa 3 PV, e assim por diante.»
    """
    if not _int(attack_number) or attack_number < 1:
        raise Sistema001Error("O número do ataque começa em 1.", "attack_number")
    _check_int(resistencia, "A Resistência", "resistencia")
    return max(0, attack_number - resistencia)


def total_wear(attacks: int, resistencia: int) -> int:
    """PV lost over ``attacks`` melee attacks in a row against a structure (Σ ``wear``)."""
    _check_int(attacks, "O número de ataques", "attacks")
    extra = max(0, attacks - _check_int(resistencia, "A Resistência", "resistencia"))
    return extra * (extra + 1) // 2


def must_stop(pv: int) -> bool:
    """«Se o personagem chegar a 0 PV devido a esse desgaste, ele é forçado a interromper
    imediatamente a tentativa de destruição.»"""
    return pv <= 0


def spend_ammunition(ammunition: int) -> int:
    """The ammunition left after one ranged attack against a structure: «Cada ataque consome
    munição, que é destruída no impacto e não pode ser reutilizada.» Raises
    ``Sistema001Error`` (field ``ammunition``) with none left."""
    _check_int(ammunition, "A munição", "ammunition")
    if ammunition == 0:
        raise Sistema001Error(NO_AMMUNITION, "ammunition")
    return ammunition - 1


def destroyed_without_rolls(impediment: bool) -> bool:
    """«Destruição com tempo disponível»: with no narrative impediment (enemies, imminent
    risk, time pressure) the destruction happens «automaticamente com tempo suficiente, sem
    necessidade de rolagens»; with one, it is resolved in turns."""
    return not impediment


@dataclass(frozen=True)
class ObjectExample:
    """One of the chapter's «Exemplos de Objetos e Estruturas», as printed.

    ``size``/``structure``/``hardness``: keys of the tables; ``size_value``: the value the
    example prints (it differs from the table for the bow and the sword: ``slip``);
    ``printed_factor``: the factor the example's last line prints, when it differs from the
    table's (the palisade's «1,5»); ``nd`` and ``minimum``: the printed results.
    """

    key: str
    name: str
    size: str
    size_value: int
    structure: str
    hardness: str
    nd: int
    minimum: int
    printed_factor: str = ""
    slip: str = ""

    def computed_nd(self) -> int:
        """The ND the engine computes with the example's printed size and the table's
        hardness."""
        return structural_nd(self.size_value, self.structure, self.hardness)


EXAMPLES: tuple[ObjectExample, ...] = (
    ObjectExample("porta_madeira", "Porta de madeira comum", "normal", 15, "simples",
                  "madeira_leve", 25, 5),
    ObjectExample("porta_pedra", "Porta de pedra trabalhada", "normal", 15, "estruturada",
                  "pedra_trabalhada", 90, 18),
    ObjectExample(
        "muro_palicada", "Muro de paliçada", "grande", 20, "estruturada", "madeira_pesada",
        70, 14, printed_factor="1,5",
        slip="O exemplo imprime «ND = 35 × 1,5 = 70», mas a Tabela de Dureza dá Madeira "
        "pesada ×2 (e 35 × 2 = 70, o resultado impresso): o site usa ×2.",
    ),
    ObjectExample("muro_casa", "Muro de casa ou parede de concreto", "grande", 20,
                  "estruturada", "pedra_trabalhada", 105, 21),
    ObjectExample("muralha", "Muralha de fortaleza ou cidadela", "colossal", 30, "bastionada",
                  "pedra_macica", 275, 55),
    ObjectExample(
        "arco", "Arco e flecha de madeira", "pequeno", 5, "simples", "madeira_leve", 15, 3,
        slip="O exemplo usa «Tamanho: Pequeno = 5», mas a Tabela de Tamanho põe «Arco» em "
        "Médio (10): pela tabela seriam ND 20 e dano mínimo 4.",
    ),
    ObjectExample(
        "espada", "Espada de metal", "pequeno", 5, "estruturada", "metal_leve", 40, 8,
        slip="O exemplo usa «Tamanho: Pequeno = 5», mas a Tabela de Tamanho põe «espada "
        "comum» em Médio (10): pela tabela seriam ND 50 e dano mínimo 10.",
    ),
)  # fmt: skip
