"""Rolling one attribute die, with advantage or disadvantage; tests against an ND.

The chapter rolls «Dado de Mobilidade + Mobilidade + Modificadores» (Iniciativa, Ataque
corpo a corpo, Defesa) and «Dado de Acuidade + Acuidade + Modificadores» (Ataque à
distância). It cites «Vantagem» and «Desvantagem» as roll mechanics (Contido, Invisível,
Desorientado) without defining them — the reading ``edge_two_dice``: roll the die twice and
keep the higher (vantagem) or the lower (desvantagem); both at once cancel out, and several of
one kind count once (reading ``edge_cancel``). Whether a test passes on ≥ or on > the ND is
the pendência ``test_pass_comparison``: where the chapter says «superar» the engine uses >,
elsewhere it refuses (``AwaitsArbitro``) until the Árbitro decides.

Randomness only from ``source`` (``randint(a, b)``, both inclusive): each die is one
``source.randint(1, faces)``, in order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from dice.errors import MAX_SIDES, MIN_SIDES
from dice.rolling import RandomSource
from sistema001.attributes import check_value
from sistema001.errors import AwaitsArbitro, Sistema001Error

VANTAGEM = "vantagem"
DESVANTAGEM = "desvantagem"
EDGES: tuple[str, ...] = (VANTAGEM, DESVANTAGEM)
EDGE_LABELS = MappingProxyType({VANTAGEM: "Vantagem", DESVANTAGEM: "Desvantagem"})

# How a total is compared with an ND where the chapter does not say «superar».
MAIOR = "maior"  # passes when total > ND
MAIOR_OU_IGUAL = "maior_ou_igual"  # passes when total ≥ ND
COMPARISONS: tuple[str, ...] = (MAIOR, MAIOR_OU_IGUAL)

BAD_FACES = f"Um dado tem de {MIN_SIDES} a {MAX_SIDES} faces."
UNKNOWN_EDGE = "Use vantagem, desvantagem ou nenhuma."
BAD_MODIFIER = "O modificador deve ser um número inteiro."
BAD_ND = "O ND deve ser um número inteiro."
TEST_COMPARISON_OPEN = (
    "O capítulo não diz se um teste passa quando iguala o ND ou só quando o supera (a seção "
    "de Testes não está no capítulo): aguarda a decisão do Árbitro."
)
UNKNOWN_COMPARISON = "Comparação desconhecida: use maior ou maior_ou_igual."


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_faces(faces: object, field: str = "faces") -> int:
    """``faces`` as a die size (an int from 2 to 100); raises ``Sistema001Error``."""
    if not _int(faces) or not MIN_SIDES <= faces <= MAX_SIDES:
        raise Sistema001Error(BAD_FACES, field)
    return faces


def check_edge(edge: object, field: str = "edge") -> str | None:
    """``edge`` as ``"vantagem"``, ``"desvantagem"`` or ``None`` (``""`` is ``None``)."""
    if edge in (None, ""):
        return None
    if edge not in EDGES:
        raise Sistema001Error(UNKNOWN_EDGE, field)
    return edge  # type: ignore[return-value]


def check_modifier(value: object, field: str = "modifiers") -> int:
    """``value`` as a modifier (any int, not a bool); raises ``Sistema001Error``."""
    if not _int(value):
        raise Sistema001Error(BAD_MODIFIER, field)
    return value  # type: ignore[return-value]


def combine_edges(edges: Iterable[str | None]) -> str | None:
    """The one edge a roll gets from all that apply: vantagem and desvantagem cancel out;
    several of one kind count once (reading ``edge_cancel``). ``None`` and ``""`` are
    ignored."""
    found = {check_edge(edge) for edge in edges} - {None}
    if len(found) == 1:
        return found.pop()
    return None


@dataclass(frozen=True)
class DieRoll:
    """One attribute die: ``faces`` its size, ``face`` the one that counts, ``rerolled`` the
    other die rolled for vantagem/desvantagem and discarded (``()`` without an edge), ``edge``
    the edge it was rolled with, ``rolled`` every face in the order rolled (defaults to
    ``(face, *rerolled)``)."""

    faces: int
    face: int
    rerolled: tuple[int, ...] = ()
    edge: str | None = None
    rolled: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.rolled:
            object.__setattr__(self, "rolled", (self.face, *self.rerolled))

    @property
    def highest(self) -> bool:
        """The kept face is the die's highest («Maior valor do dado»)."""
        return self.face == self.faces

    @property
    def lowest(self) -> bool:
        """The kept face is 1 («Menor valor do dado»)."""
        return self.face == 1

    @property
    def text(self) -> str:
        """«d12: 7» or «d12 com vantagem: 3, 7 → 7»."""
        if self.edge is None:
            return f"d{self.faces}: {self.face}"
        faces = ", ".join(str(f) for f in self.rolled)
        return f"d{self.faces} com {self.edge}: {faces} → {self.face}"


def roll_die(faces: int, source: RandomSource, edge: str | None = None) -> DieRoll:
    """Roll one die of ``faces`` faces from ``source``. With ``edge="vantagem"`` two dice are
    rolled and the higher kept; with ``"desvantagem"`` the lower (reading ``edge_two_dice``).
    Raises ``Sistema001Error`` for a bad size or edge.

    «Iniciativa»: «Iniciativa = Dado de Mobilidade + Mobilidade + Modificadores»; «Ataques»,
    «Defesas»: the same die + attribute shape.
    """
    check_faces(faces)
    edge = check_edge(edge)
    first = source.randint(1, faces)
    if edge is None:
        return DieRoll(faces, first)
    second = source.randint(1, faces)
    kept, other = (
        (max(first, second), min(first, second))
        if edge == VANTAGEM
        else (min(first, second), max(first, second))
    )
    return DieRoll(faces, kept, (other,), edge, (first, second))


@dataclass(frozen=True)
class CheckRoll:
    """An attribute test: ``die`` + ``attribute_value`` + ``modifiers`` = ``total``."""

    attribute: str
    die: DieRoll
    attribute_value: int
    modifiers: int
    total: int


def roll_check(
    attribute: str,
    faces: int,
    value: int,
    source: RandomSource,
    modifiers: int = 0,
    edge: str | None = None,
) -> CheckRoll:
    """A test of ``attribute``: its die (``faces``) + its value + ``modifiers``.

    The chapter cites tests («teste de Mobilidade», «Teste de Força», «teste de resistência»)
    and sends their rules to the missing «seção de Testes»; the shape die + attribute +
    modificadores is the reading ``test_formula``, by analogy with Ataque, Defesa and
    Iniciativa. Criticals of tests are not applied here (reading ``test_criticals``).
    """
    check_value(attribute, value, "value")
    modifiers = check_modifier(modifiers)
    die = roll_die(faces, source, edge)
    return CheckRoll(attribute, die, value, modifiers, die.face + value + modifiers)


def beats(total: int, nd: int) -> bool:
    """«superar»: ``total`` > ``nd``. Where the chapter says «superar» («o ND que precisa ser
    superado em um Teste de Força», «o novo ND para o alvo Contido tentar superar»)."""
    if not _int(total):
        raise Sistema001Error(BAD_MODIFIER, "total")
    if not _int(nd):
        raise Sistema001Error(BAD_ND, "nd")
    return total > nd


def passes(total: int, nd: int, comparison: str | None = None) -> bool:
    """A test against an ND where the chapter does not say «superar» («teste de resistência,
    com ND e efeito de acordo com a descrição»). ``comparison`` is the Árbitro's decision
    (``"maior"`` or ``"maior_ou_igual"``); ``None`` raises ``AwaitsArbitro`` (pendência
    ``test_pass_comparison``)."""
    if not _int(total):
        raise Sistema001Error(BAD_MODIFIER, "total")
    if not _int(nd):
        raise Sistema001Error(BAD_ND, "nd")
    if comparison is None:
        raise AwaitsArbitro(TEST_COMPARISON_OPEN, "comparison", "test_pass_comparison")
    if comparison not in COMPARISONS:
        raise Sistema001Error(UNKNOWN_COMPARISON, "comparison")
    return total > nd if comparison == MAIOR else total >= nd
