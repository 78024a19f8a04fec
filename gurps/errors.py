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
FRACTIONAL_POINTS = (
    "Pontos de perícia vão de ½ em ½: escreva ½, 1, 1½, 2 … (ou 0,5, 1,5) entre os parênteses."
)
BAD_DEFAULT = (
    "Pré-definido ilegível: escreva um atributo (ST, DX, IQ ou HT) ou o nome de uma perícia, com "
    "o redutor — p.ex. «DX−5», «Arremesso» ou «Primeiros Socorros−4»."
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

# --- tables (§4.8, §4.15, §5b), magic (§4.15, §7.3) and house settings (§8) ---------------------
UNKNOWN_TABLE = (
    "Tabela desconhecida: use erro crítico, golpe fulminante, golpe fulminante na cabeça, "
    "falha crítica em operação mágica ou Verificação de Pânico."
)
UNKNOWN_TABLE_OPTION = "Esta tabela não tem a opção «{option}»."
TABLE_OPTION_NOT_BOOLEAN = "Esta opção é sim ou não."
FRIGHT_MARGIN_TOO_LARGE = "A margem de falha da Verificação de Pânico vai de 1 a 99 (§5b)."
FRIGHT_MARGIN_REQUIRED = (
    "A Verificação de Pânico só vai à tabela quando falha: diga a margem de falha, 1 ou mais (§5b)."
)
UNARMED_HAS_NO_WEAPON = (
    "Ataque desarmado não tem arma: não se marca arma barata, arma que não quebra nem arma de "
    "longo alcance (§4.8)."
)
CRITICAL_HIT_TO_THE_HEAD = (
    "Golpe fulminante de ataque dirigido à cabeça (cabeça, cérebro, olhos) rola na Tabela de "
    "Golpes Fulminantes na Cabeça (§4.8)."
)
HEAD_TABLE_ONLY_FOR_THE_HEAD = (
    "A Tabela de Golpes Fulminantes na Cabeça é só para ataque dirigido à cabeça (§4.8)."
)
REROLL_ONLY_SPELL_FAILURE = (
    "Só se rola de novo um resultado da tabela de falha crítica em operação mágica (§4.15)."
)
UNKNOWN_RESISTANCE_ATTRIBUTE = "Resiste-se a magia com IQ, ST, DX ou HT, conforme o feitiço (§7.3)."
NEGATIVE_MAGIC_RESISTANCE = "Níveis de Abascanto não podem ser negativos."
ONE_TARGET_UNLESS_AREA = "Feitiço que não é de área tem um alvo só (§7.3)."
UNKNOWN_HOUSE_SETTING = "Regra da casa desconhecida (§8)."

# --- defence (§4.6–4.7, §4.14, §9 item 2) and damage (§4.13, §5.5, §5f) ---------------------------
UNKNOWN_ACTIVE_DEFENCE = "Defesa ativa desconhecida: use esquiva, bloquear ou aparar."
UNKNOWN_ATTACK_KIND = (
    "Tipo de ataque desconhecido: use arma de mão, golpe de mão limpa, arremesso, flecha, "
    "pedra de funda, bala, feixe ou mágica de projétil."
)
UNKNOWN_NO_DEFENCE_CAUSE = (
    "Motivo desconhecido: use golpe fulminante, facada pelas costas, emboscada ou armadilha."
)
DAGGER_PARRY_NEEDS_FENCING = "Só quem tem Esgrima apara com a adaga na mão fraca (§4.14)."
NO_DEFENCE_CHOSEN = "Escolha ao menos uma defesa ativa contra o ataque."
ONE_DEFENCE_PER_ATTACK = (
    "Uma defesa ativa por ataque; só a Defesa Total dá duas, e diferentes (§4.3 e §4.6)."
)
ATTACK_ROLL_NOT_AWAITING_DEFENCE = (
    "Só um acerto sem crítico espera a defesa: depois de um erro ou de um golpe fulminante "
    "não há defesa a escolher (§4.8, §4.10)."
)
ATTACK_ROLL_OTHER_LEVEL = "A jogada de ataque guardada foi feita contra outro NH efetivo."
SAME_DEFENCE_TWICE = (
    "Na Defesa Total as duas defesas contra o mesmo ataque têm de ser diferentes (§4.3)."
)
BLOCKS_EXHAUSTED = "Bloquear: {limit} por rodada, e já se bloqueou {limit} (§4.7)."
PARRIES_EXHAUSTED = "Aparar: {limit} por rodada, e já se aparou {limit} (§4.7)."
FENCING_PARRIES_EXHAUSTED = (
    "A arma de esgrima apara {limit} vezes por rodada; a aparada que sobra é da adaga (§4.14)."
)
DAGGER_PARRIES_EXHAUSTED = "A adaga na mão fraca apara {limit} vez por rodada (§4.14)."
NO_DAGGER_PARRY = "Aparar com a adaga na mão fraca é só do esgrimista que a leva (§4.14)."
DAGGER_ONLY_PARRIES = "A adaga na mão fraca só conta para Aparar (§4.14)."
RETREAT_ONCE_PER_ROUND = "Só se recua uma vez por rodada (§9, item 2; pág. 109)."
NO_RETREAT = "Não se recua sentado, ajoelhado nem atordoado (§9, item 2; pág. 109)."
WEAPON_WEIGHT_NOT_A_NUMBER = "O peso da arma deve ser um número em kg, p.ex. 1,5."
NEGATIVE_WEAPON_WEIGHT = "O peso da arma não pode ser negativo."
WEAPON_WEIGHT_ZERO = "A arma que apara precisa de peso maior que zero."
UNKNOWN_WEAPON_QUALITY = (
    "Qualidade desconhecida: use barata, comum, de qualidade superior ou de altíssima qualidade."
)
BREAK_BY_QUALITY_ONLY_FOR_SWORDS = (
    "O cânone só dá a chance de quebra por qualidade para espada (§4.7); para outra arma, "
    "decide o Árbitro."
)
BREAK_CHANCE_NOT_IN_SIXTHS = "A chance de quebra vai de 0 a 1, em sextos (rola-se 1d)."
UNKNOWN_OBJECT = (
    "Objeto desconhecido: use corda, porta de madeira, porta reforçada, grade de ferro ou "
    "parede de pedra (§5f)."
)
WEAPON_IN_HAND_DR_NOT_IN_CANON = (
    "A arma em punho tem a RD da própria qualidade, mas o cânone não dá o número (§5f); "
    "decide o Árbitro."
)
MASTERWORK_DR_NOT_IN_CANON = (
    "Arma de obra-prima praticamente não quebra, mas o cânone não dá a RD dela (§5f); "
    "decide o Árbitro."
)

# --- combat (§4.1–4.5, §4.10, §5c–5e) -------------------------------------------------------------
EMPTY_COMBATANT_NAME = "O combatente precisa de um nome."
NO_COMBATANTS = "A ordem do turno precisa de pelo menos um combatente."
DUPLICATE_COMBATANT_NAME = "Dois combatentes com o mesmo nome: dê a cada um um nome próprio."
DUPLICATE_DECLARATION_ORDER = (
    "Dois combatentes com a mesma ordem de declaração: cada um declara numa posição própria (§4.2)."
)
UNKNOWN_MANEUVER = (
    "Manobra desconhecida: use Deslocamento, Avançar e Atacar, Ataque Total, Defesa Total, "
    "Apontar, Preparar, Concentrar, Mudança de Posição, Aguardar ou Finta (§4.3)."
)
AIM_TURN_REQUIRED = "Para Apontar, diga se é o primeiro turno apontando (§4.3)."
RELOAD_ONLY_WITH_READY = "Recarregar é parte da manobra Preparar (§4.3)."
UNKNOWN_ALL_OUT_ATTACK_OPTION = (
    "Opção de Ataque Total desconhecida: escolha (a), (b), (c) ou (d) (§4.3)."
)
DOUBLE_ATTACK_NEEDS_WEAPONS = (
    "Dois ataques no Ataque Total exigem duas armas preparadas ou arma que não precisa "
    "repreparar (§4.3)."
)
NEGATIVE_READY_WEAPONS = "O número de armas preparadas não pode ser negativo."
UNKNOWN_WEAPON_CLASS = (
    "Tipo de arma desconhecido: use espada, espada curta, rapieira, espada de duas mãos, faca, "
    "adaga, machado, maça, arma de haste, lança, soco, cotovelada ou mordida."
)
READINESS_NOT_IN_CANON = (
    "O cânone não diz se {weapon} fica despreparada depois de golpear (§4.3); decide o Árbitro."
)
CLOSE_COMBAT_NOT_IN_CANON = "O cânone não diz se {weapon} ataca de perto (§5c); decide o Árbitro."
UNKNOWN_GRAPPLE_STAGE = "Use agarrar (Disputa de DX) ou imobilizar (Disputa de ST) (§5c)."
UNKNOWN_ATTACK_SITUATION = "Situação de ataque desconhecida: use uma das linhas da §4.5."
DUPLICATE_ATTACK_SITUATION = "A mesma situação de ataque foi anunciada duas vezes."
MODIFIER_OUT_OF_RANGE = "O modificador de «{situation}» tem de ser {allowed}."
FIXED_MODIFIER = "«{situation}» vale {allowed}; não se anuncia outro número."
AMOUNT_REQUIRED = "«{situation}» pede quantos (pontos de ST, PV ou figuras): 1 ou mais."
AMOUNT_NOT_USED = "«{situation}» não se conta por unidade: não diga quantos."
UNKNOWN_TERRAIN = (
    "Terreno desconhecido: use ruim, muito ruim, escuro, aperto ou água pela cintura (§5d)."
)
TERRAIN_MOVE_STACKING_NOT_IN_CANON = (
    "O cânone não diz como se somam dois terrenos que cortam o Deslocamento (§5d); decide o "
    "Árbitro."
)
UNKNOWN_SURPRISE = "Surpresa desconhecida: use parcial ou total (§5e)."
TURN_TOO_LOW = "O turno começa em 1."
NOT_AN_ATTACK_MANEUVER = "Ataca-se com Avançar e Atacar, Ataque Total ou Aguardar (§4.3)."
ALL_OUT_OPTION_REQUIRED = "No Ataque Total, escolha (a), (b), (c) ou (d) (§4.3)."
ALL_OUT_OPTION_WITHOUT_ALL_OUT_ATTACK = (
    "Opção de Ataque Total só com a manobra Ataque Total (§4.3)."
)
NEGATIVE_FEINT_PENALTY = "O redutor da finta não pode ser negativo (§4.3)."
DEFENCE_NOT_LEFT_BY_MANEUVER = "A manobra {maneuver} não deixa {defence} (§4.3)."
DEFENCE_NOT_AVAILABLE = (
    "{defence} não vale aqui: contra este ataque, agarrado ou sem saber do ataque (§4.6, §4.7, "
    "§5c)."
)

# --- rolling (§1.4–1.6), injury (§5.1–5.6), hazards (§5g–5h), fatigue (§6.2, §6.5), skills
MODIFIER_WITHOUT_REASON = "Todo modificador se anuncia com o motivo, antes dos dados (§1.4)."
NOT_A_MODIFIER = "Modificador ilegível: dê o valor e o motivo, antes dos dados (§1.4)."
UNKNOWN_OUTCOME = (
    "Resultado do teste desconhecido: use sucesso decisivo, sucesso, falha ou falha crítica."
)
EMPTY_SKILL_NAME = "Diga o nome da perícia."
UNKNOWN_STUN_KIND = "Atordoamento desconhecido: use físico (sai com HT) ou mental (sai com IQ)."
UNKNOWN_ARM_SIDE = "Lado do braço desconhecido: use o braço da arma ou o outro (§5.5)."
ARM_SIDE_REQUIRED = "Golpe no braço: diga se é o braço da arma ou o outro (§5.5)."
UNKNOWN_LIMB_SIDE = "Lado desconhecido: use esquerda ou direita (§5.5)."
LIMB_SIDE_REQUIRED = "Golpe na perna, na mão ou no pé: diga o lado, esquerda ou direita (§5.5)."
EYES_CRIPPLING_OUTSIDE_CANON = (
    "O cânone não dá o dano que incapacita um olho (§5.5); decide o Árbitro."
)
UNKNOWN_TARGET_CONDITION = (
    "Estado do alvo desconhecido: use em guarda, desprevenido, atordoado, indefeso ou "
    "inconsciente (§5.4)."
)
PHYSICIAN_WEEKLY_OUTSIDE_CANON = (
    "O cânone só dá a rolagem semanal de Medicina ao médico com NH 12 ou mais (§5.6)."
)
UNKNOWN_FIRE_KIND = "Fogo desconhecido: use em chamas, tocha ou óleo em chamas (§5g)."
TORCH_DAMAGE_IS_PER_HIT = "A tocha faz 1D−3 por golpe, não por turno (§5g)."
DIE_OUT_OF_RANGE = "Um dado vai de 1 a 6."
UNKNOWN_FIRE_ARMOUR = "Armadura desconhecida contra fogo: use metal, couro ou outra."
FIRE_DR_OUTSIDE_CANON = (
    "O cânone só diz como protegem contra fogo a RD de metal e o couro (§5g); para outra "
    "proteção, decide o Árbitro."
)
UNKNOWN_POISON_TYPE = "Veneno desconhecido: use de sangue, de nervo ou sonífero (§5g)."
ORDINARY_COLD_OUTSIDE_CANON = (
    "O cânone só diz que a roupa de inverno anula o frio comum; sem ela, não dá número (§5h)."
)
NEGATIVE_FATIGUE_COST = "Pontos de fadiga gastos ou recuperados não podem ser negativos."
UNKNOWN_EXERTION = (
    "Esforço desconhecido: use parado, esforço leve, esforço pesado ou passivo nas mãos do "
    "agressor (§6.5)."
)
UNKNOWN_SKILL_KIND = "Tipo de perícia desconhecido: use física (DX) ou mental (IQ) (§3.2)."


# --- skill costs (§3.2, MB pp. 43–44; the table is the Árbitro's) and the audit of a sheet --------
SKILL_POINTS_NOT_A_NUMBER = "Pontos de perícia são um número: ½, 1, 1,5, 4 …"
NEGATIVE_SKILL_POINTS = "Pontos de perícia não podem ser negativos."
SKILL_POINTS_NOT_IN_HALVES = "Pontos de perícia vão de ½ em ½ (½, 1, 1½, 2 …): {points} não vai."
ZERO_POINTS_BUY_NOTHING = (
    "0 ponto não compra nível: sem pontos, a perícia fica no pré-definido (§3.3)."
)
POINTS_BUY_NO_ROW = (
    "{points} não alcança nenhuma linha da coluna {column}: a primeira custa {first} — a ficha "
    "não fecha."
)
TABLE_HAS_NO_COLUMN = "A tabela de perícias {kind} não tem a coluna {difficulty}."
PHYSICAL_HAS_NO_VERY_HARD = (
    "Perícia física não é Muito Difícil: a tabela física do livro não tem essa coluna "
    "(§9 item 1; MB pág. 43–44)."
)
LEVEL_BELOW_TABLE = (
    "NH {level} é {attribute}{relative}: abaixo da primeira linha da coluna {column} "
    "({first_level}, {first}), não se compra com pontos — fica no pré-definido (§3.3)."
)
BAD_COST_CELL = (
    "Célula ilegível: escreva os pontos (½, 1, 2 …), «—» onde a coluna não tem linha, ou «+8» "
    "na linha «cada +1 a mais»."
)
COST_TABLE_EMPTY = "A tabela de perícias {kind} não tem nenhuma linha."
COST_TABLE_NO_STEP = "A tabela de perícias {kind} precisa de uma, e só uma, linha «cada +1 a mais»."
COST_TABLE_REPEATED_LEVEL = "A tabela de perícias {kind} tem duas linhas para {level}."
COST_TABLE_GAP = "A tabela de perícias {kind} pula de {low} para {high}: falta uma linha."
COST_TABLE_WIDTH = "Cada linha da tabela {kind} tem {count} células, uma por coluna."
COST_TABLE_DASH_AFTER_NUMBER = (
    "Na coluna {column} da tabela {kind}, «—» depois de um número: a coluna só pode começar "
    "com traços."
)
COST_TABLE_NOT_RISING = (
    "Na coluna {column} da tabela {kind}, {level} custa {points}, que não é mais que a linha de "
    "cima: cada nível custa mais que o anterior."
)
COST_TABLE_COLUMN_EMPTY = "A coluna {column} da tabela {kind} não tem nenhum número."
COST_TABLE_BAD_STEP = (
    "Na linha «cada +1 a mais» da tabela {kind}, {column} precisa de um número maior que zero."
)
UNKNOWN_ATTRIBUTE = "Atributo desconhecido: use ST, DX, IQ ou HT."


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
