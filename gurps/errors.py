"""The engine's own exceptions, and the Portuguese messages they carry.

Every message a user may read is a module-level constant here: the site and the tests import
it and never repeat the string. The site translates these errors at its edges only (a form
validator, an API exception handler).
"""

from __future__ import annotations

# --- InvalidValue: a value that no sheet can hold -------------------------------------------
ST_TOO_LOW = "ST deve ser 1 ou mais."
DX_TOO_LOW = "DX deve ser 1 ou mais."
IQ_TOO_LOW = "IQ deve ser 1 ou mais."
HT_TOO_LOW = "HT deve ser 1 ou mais."
ATTRIBUTE_TOO_LOW = {"st": ST_TOO_LOW, "dx": DX_TOO_LOW, "iq": IQ_TOO_LOW, "ht": HT_TOO_LOW}
VALUE_TOO_LOW = "O valor deve ser 1 ou mais."
NOT_AN_INTEGER = "O valor deve ser um número inteiro."
WEIGHT_NOT_A_NUMBER = "O peso carregado deve ser um número em kg, p.ex. 12,5."
NEGATIVE_WEIGHT = "O peso carregado não pode ser negativo."
NEGATIVE_HP_LOST = "PV perdidos não podem ser negativos."
NEGATIVE_FATIGUE_LOST = "Fadiga perdida não pode ser negativa."
NEGATIVE_ST_AFTER_FATIGUE = "A ST depois da fadiga não pode ser negativa (§6.2)."
NEGATIVE_PD = "Defesa Passiva não pode ser negativa."
NEGATIVE_DR = "RD não pode ser negativa."
NEGATIVE_SKILL = "NH não pode ser negativo."
NEGATIVE_MOVE = "Deslocamento não pode ser negativo."
BASIC_SPEED_NOT_A_NUMBER = "Velocidade Básica deve ser um número exato de 0 para cima."
UNKNOWN_ENCUMBRANCE_LEVEL = "Nível de Carga vai de 0 (Nenhuma) a 4 (Muito Pesada)."
UNKNOWN_PARRY_KIND = (
    "Tipo de aparar desconhecido: use arma comum, esgrima, bastão, faca, arma arremessada, "
    "faca arremessada ou mangual."
)
UNKNOWN_DAMAGE_TYPE = "Tipo de dano desconhecido: use contusão, corte ou perfuração."
UNKNOWN_DIFFICULTY = (
    "Dificuldade desconhecida: use Fácil (E), Média (A), Difícil (H) ou Muito Difícil (VH)."
)
UNKNOWN_ROLL_KIND = "Tipo de teste desconhecido: use perícia, atributo ou defesa."
ROLL_OUT_OF_RANGE = "O resultado de 3d6 vai de 3 a 18."
NEGATIVE_DICE_COUNT = "O número de dados não pode ser negativo."
BAD_SKILL_LINE = (
    "Linha de perícia ilegível: escreva o nome, o NH e, entre parênteses, os pontos "
    "— p.ex. «Lança 17 (16)»."
)
FRACTIONAL_POINTS = "O site ainda não lê pontos fracionários (½) numa linha de perícia."
BAD_DEFAULT = (
    "Pré-definido ilegível: escreva um atributo (ST, DX, IQ ou HT) com o redutor — p.ex. «DX−5»."
)
MISSING_ATTRIBUTE = "Falta o atributo de que o pré-definido depende."
BAD_DAMAGE = (
    "Dano ilegível: escreva como na ficha — p.ex. «GDP+1 perf», «Bal+2 corte» ou «1d+2 cont»."
)
EMPTY_WEAPON_NAME = "A arma precisa de um nome."
DUPLICATE_WEAPON_NAME = "Duas armas com o mesmo nome: dê a cada uma um nome próprio."

# --- OutsideCanon: the canon has no number here ----------------------------------------------
ST_ABOVE_DAMAGE_TABLE = "O cânone não tem número para ST acima de 20 na tabela de dano (§4.9)."

# --- the other refusals ----------------------------------------------------------------------
NO_ROLL_AT_THREE_OR_LESS = "Não se rola com nível efetivo 3 ou menos (§1.1); só jogada de defesa."
NO_DEFAULT = "Esta perícia não tem pré-definido (§3.3)."
INVALID_DICE_EXPRESSION = "Expressão de dados ilegível: «{text}». Use, p.ex., 3d6, 1d−1 ou 2d+1."

# --- injury (§5) and falls (§4.12) ------------------------------------------------------------
HP_AFTER_ABOVE_HP_BEFORE = "Os PV depois do golpe não podem ser mais que os PV antes dele."
NEGATIVE_WILL_LEVEL = "Níveis de Força de Vontade ou de Vontade Fraca não podem ser negativos."
UNKNOWN_HIT_LOCATION = (
    "Local do golpe desconhecido: use cérebro, cabeça, olhos, braço, mão, perna, pé, "
    "órgãos vitais ou tronco."
)
EYES_KNOCKOUT_OUTSIDE_CANON = (
    "O cânone não diz se golpe nos olhos obriga a teste de nocaute (§5.3); decide o Árbitro."
)
UNKNOWN_COMBATANT_KIND = (
    "Tipo de combatente desconhecido: use bicho de bestiário, NPC nomeado, chefe de encontro "
    "ou personagem de jogador."
)
NEGATIVE_FALL_HEIGHT = "A altura da queda não pode ser negativa."
FALL_HEIGHT_NOT_A_NUMBER = "A altura da queda deve ser um número de metros, p.ex. 6."
FALL_HEIGHT_NOT_WHOLE_METRES = (
    "O cânone conta a queda em metros inteiros (§4.12) e não tem número para fração de metro."
)
UNKNOWN_FALL_ARMOUR = "Armadura desconhecida para queda: use metal, couro ou outra."
FALL_DR_OUTSIDE_CANON = (
    "O cânone só diz como protegem contra queda a armadura de metal medieval e o couro "
    "(§4.12); para outra proteção, decide o Árbitro."
)

# --- distance, magic and fatigue (§4.11, §6, §8) ---------------------------------------------
DISTANCE_NOT_A_NUMBER = "A distância deve ser um número em metros, p.ex. 13,5."
NEGATIVE_DISTANCE = "A distância não pode ser negativa."
SPEED_NOT_A_NUMBER = "A velocidade deve ser um número em metros por segundo, p.ex. 7."
NEGATIVE_SPEED = "A velocidade não pode ser negativa: use a velocidade relativa (§4.11)."
NEGATIVE_ACCURACY = "A Precisão da arma não pode ser negativa."
NEGATIVE_AIM_TURNS = "Turnos apontando não podem ser negativos."
NEGATIVE_HEXES = "A distância em hexágonos não pode ser negativa."
NEGATIVE_IGNORED_OBJECTS = "Objetos ignorados na busca não podem ser negativos."
UNKNOWN_MISSILE_SPELL = "Mágica de projétil desconhecida: use uma das oito da §4.11."
MISSILE_ENERGY_OUT_OF_RANGE = "A energia de {spell} vai de {minimum} a {maximum} pontos (§4.11)."
FLOOR_TOO_LOW = "O andar da Garganta é 1 ou mais (§6.4)."
NEGATIVE_SPELL_COST = "O custo do feitiço não pode ser negativo."
NO_SPELL_WITHOUT_MAGERY = "Sem Aptidão Mágica não há feitiço, em nenhum andar (§6.4 e §8)."
NO_MANA_IN_POCKET = "Num bolsão de mana nula nada funciona (§6.4)."
NEGATIVE_DURATION = "A duração não pode ser negativa."
RANGE_BEYOND_TABLE = "O cânone não dá o redutor de distância além dos 1.000 m (§4.11)."
MISSILE_DAMAGE_NOT_IN_CANON = "O cânone não dá o dano de {spell} por ponto de energia (§4.11)."
MARCH_FATIGUE_NOT_IN_CANON = "O cânone só dá a fadiga de marcha com Carga Leve (§6.1)."


class GurpsError(Exception):
    """Base of every error the engine raises. ``.message`` is Portuguese, fit for a user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidValue(GurpsError, ValueError):
    """A value no sheet can hold (ST 0, negative kg, an unknown parry kind...).

    ``.field`` names the input at fault (``"st"``, ``"carried_kg"``, ``"shield.pd"``...), so a
    form can put the message beside it.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class OutsideCanon(GurpsError):
    """The canon has no number for this case; the engine does not estimate one.

    ``.rule`` is the canon section (``"4.9"``); the site shows the message and offers the
    Árbitro a new divergence.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


class NoRollAtThreeOrLess(GurpsError):
    """§1.1 (p. 86): no roll at effective level 3 or less, except a defence roll."""

    def __init__(self, effective_level: int) -> None:
        super().__init__(NO_ROLL_AT_THREE_OR_LESS)
        self.effective_level = effective_level


class NoDefault(GurpsError):
    """§3.3 (p. 44): the skill has no default (Very Hard skills, above all)."""

    def __init__(self) -> None:
        super().__init__(NO_DEFAULT)


class InvalidDiceExpression(GurpsError, ValueError):
    """Text that is not a dice expression of d6 (``3d6``, ``1d-1``, ``2d+1``, ``0``)."""

    def __init__(self, text: str) -> None:
        super().__init__(INVALID_DICE_EXPRESSION.format(text=text))
        self.text = text
