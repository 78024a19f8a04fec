"""The combat tracker's refusals and notices, in Portuguese, as constants that tests import."""

from __future__ import annotations

from gurps import combat as engine
from gurps import defence

# Messages are constants so tests import them instead of repeating them.
COMBAT_ACTIVE_EXISTS = "Já há um combate em andamento nesta cena: encerre-o antes de outro."
COMBAT_ENDED = "Este combate já terminou; o que está aqui fica como está."
UNKNOWN_LOCATION = "Lugar do golpe desconhecido: use um dos da §5.5 (tronco, cabeça, braço…)."
BOSS_TOO_LATE = (
    "Chefe de encontro se declara antes do primeiro dado do combate. Declarada depois, não "
    "vale: bicho não sobe de categoria no meio da luta para sobreviver (§5.4.1)."
)
TERRAIN_TOO_LATE = (
    "O Mestre de Cena declara o terreno antes do primeiro dado, como declara o chefe de "
    "encontro. Terreno declarado depois não vale (§5d)."
)
BOSS_NOT_A_PLAYER = "Personagem de jogador não é chefe de encontro (§5.4.1)."
ADD_BEFORE_FIRST_TURN = (
    "Combatentes entram antes do primeiro turno: a ordem do turno, uma vez posta, não muda "
    "entre uma sessão e outra (§4.2)."
)
NO_COMBATANTS = "Ninguém na luta ainda: ponha os combatentes antes do primeiro turno."
NOBODY_FIGHTING = "Ninguém mais está na luta: encerre o combate."
NOT_STARTED = "O combate ainda não começou: passe ao primeiro turno (§4.2)."
NOT_ITS_TURN = "Não é o turno de {name}: é o de {current} (§4.1)."
OUT_OF_THE_FIGHT = "{name} está fora da luta ({status})."
STUNNED_NO_MANEUVER = (
    "{name} está atordoado: sem manobra até passar no teste de HT do início do turno (§5.2)."
)
PARTIAL_SURPRISE_LOSES_TURN = "{name} perde o primeiro turno: surpresa parcial (§5e)."
TOTAL_SURPRISE_STILL = (
    "{name} ainda não age: surpresa total; testa IQ a cada turno para começar (§5e)."
)
MANEUVER_ALREADY = (
    "{name} já declarou a manobra deste turno (§4.1: uma manobra por turno); antes do primeiro "
    "dado, ela se muda («Mudar a manobra»)."
)
MANEUVER_LOCKED = (
    "A manobra de {name} não muda mais: já se rolou dado depois dela (rolagem #{sequence}, "
    "«{label}»). Uma manobra vale até o próximo turno (§4.1), e o que os dados disseram fica."
)
MANEUVER_LOCKED_UNKNOWN = (
    "A manobra de {name} foi declarada antes de o site guardar o que ela mudou: não se muda."
)
NOTHING_TO_CHANGE = "{name} não declarou manobra neste turno: não há o que mudar (§4.1)."
CHANGED_BEFORE_FIRST_DIE = (
    "{name} muda a manobra antes do primeiro dado: {was} desfeita, nada dela fica (§4.1)."
)
MANEUVER_FIRST = "{name} declara a manobra antes de atacar (§4.10, linha 1)."
NOT_AN_ATTACK_MANEUVER = "{name} declarou {maneuver}, que não ataca (§4.3)."
ATTACKS_USED = "{name} já fez {count} ataque(s) neste turno com {maneuver} (§4.3)."
UNKNOWN_WEAPON = "Escolha uma arma de {name}."
WEAPON_UNREADY = "{weapon} está despreparada: gasta-se um turno em Preparar (§4.3)."
CLOSE_COMBAT_CANNOT = "{weapon} não ataca de perto, e no aperto todo combate é de perto (§5c, §5d)."
SELF_ATTACK = "O atacante e o defensor são o mesmo combatente."
NO_BLOCK = "{name} não tem escudo preparado: não bloqueia (§4.7)."
NO_PARRY = "Escolha com qual arma {name} apara (§4.7)."
PARRY_UNREADY = "{weapon} está despreparada: não apara (§4.7)."
NO_ACTIVE_DEFENCE_NOW = (
    "{name} não tem defesa ativa agora ({why}); a Defesa Passiva continua valendo (§4.6)."
)
RANGE_NEEDED = "Diga a distância até o alvo, em metros: a arma é de longo alcance (§4.11)."
POSTURE_NEEDED = "Diga para qual posição muda (§4.3, Mudança de Posição)."
AIM_NEEDS_RANGED = "Apontar é com arma de longo alcance já preparada (§4.3)."
NAME_TAKEN = "Já há um combatente com este nome neste combate."
NAME_EMPTY = "Dê um nome ao combatente."
DAMAGE_TYPE_NEEDED = "Diga o tipo do dano da arma: cont, corte ou perf (§4.9)."
VALUE_OUT_OF_RANGE = "Valor fora do intervalo aceito ({low} a {high})."
UNKNOWN_ATTACK_KIND = "Tipo de ataque desconhecido (arma de mão, flecha, arremesso…)."
SURPRISE_UNKNOWN = "Surpresa é parcial ou total (§5e)."
WEAPON_BROKEN = "{weapon} está quebrada: não ataca nem apara pelo resto do combate (§4.8)."
WEAPON_DROPPED = "{weapon} está no chão: gasta-se um turno em Preparar para apanhá-la (§4.8)."
ARM_STRAINED = (
    "O braço de {weapon} está com o ombro estirado: não ataca nem apara com ela pelo resto "
    "do encontro (§4.8)."
)
OFF_BALANCE_NOTHING = (
    "{name} perdeu o equilíbrio: não faz nada até o próximo turno, e toda defesa ativa fica "
    "a −2 até lá (§4.8)."
)
UNBALANCED_TURN = (
    "{name} está desequilibrado: neste turno só se defende, normalmente, e não faz mais nada "
    "(§4.8, cabeça 8)."
)
FEINT_TARGET_NEEDED = "Diga contra quem é a finta (§4.3)."
FEINT_WEAPON_NEEDED = "Diga com qual arma é a finta (§4.3)."
WEIGHT_BAD = "Peso da arma em kg, 0 ou mais (ex.: 1,5)."
WAIT_USED = "{name} já usou o ataque do Aguardar (§4.3)."
ADJUST_REASON_NEEDED = "Diga o porquê do ajuste (ex.: erro crítico 5, atingiu a si mesmo)."

# Stand-in maneuver of a combatant attacked before its first turn: it has chosen nothing, so
# nothing was given up — any active defence (the canon's "Qualquer uma").
NO_MANEUVER_YET = engine.Maneuver.MOVE
MANEUVER_NAMES = {row.maneuver.value: row.name for row in engine.MANEUVERS}
TERRAIN_NAMES = {row.terrain.value: row.name for row in engine.TERRAINS}
DEFENCE_NAMES = {rule.defence.value: rule.name for rule in defence.DEFENCE_RULES}

# The one-call turn (sessions.combat.acting) and the fled combatant.
TURN_SKIPS_THE_ORDER = (
    "O turno passa a {next}, não a {name}: a ordem do §4.2 não pula ninguém; {name} age na "
    "vez dele."
)
CURRENT_HAS_NOT_ACTED = (
    "É o turno de {current}, que ainda não declarou manobra: declare a dele, ou passe o turno "
    "(«Próximo turno»), antes do de {name} (§4.1)."
)
NOTHING_TO_DO = "Já é o turno de {name}: diga a manobra dele, ou o ataque (§4.10, linha 1)."
DEFENDER_NEEDED = "Diga quem é o alvo do ataque."
OPTION_WITHOUT_MANEUVER = "Diga a manobra: as opções dela (§4.3) vêm com ela."
COMBATANT_NOT_FOUND = "Combatente não encontrado neste combate."
ACT_KEY_OF_ANOTHER_REQUEST = (
    "Esta chave de idempotência já foi usada para outro pedido: use uma chave nova."
)
ACT_NOT_ACTIVE = "Este combate já terminou; não há turno a rodar."
FLEE_ONLY_FIGHTING = "{name} está {status}: só foge quem está na luta."
FLED_TEXT = (
    "{name} fugiu na rodada {round}: sai da ordem do turno e não volta à luta; PV, fadiga e o "
    "resto ficam como estão."
)
FEINT_STILL_TO_ROLL = (
    "A finta de {name} contra {target} rola antes do ataque (Disputa Rápida, §4.3): vencendo, a "
    "margem sai da defesa ativa de {target} no ataque de {name}."
)
START_ROLL_ASSUMED = "Esta prévia supõe que passe: {roll}."
CRITICAL_NO_DEFENCE = (
    "Golpe fulminante (3 ou 4; 5 a NH 15+, 6 a NH 16+) não deixa defesa ativa (§4.8)."
)

# The defence chosen at the moment of the attack (§4.1, §4.6; sessions.combat.pending).
AWAITS_DEFENCE = (
    "Acertou: aguardando a defesa de {name} contra {attacker} ({weapon}) — a defesa é do "
    "jogador, escolhida agora (§4.6)."
)
DEFENCE_AWAITED = (
    "Aguardando a defesa de {name} contra o ataque anterior: ele responde primeiro (§4.6)."
)
TURN_WAITS_FOR_DEFENCE = (
    "Aguardando a defesa de {name}: o turno dele não começa antes de ele responder ao ataque "
    "(§4.6), ou de passar o prazo do Mestre."
)
END_WAITS_FOR_DEFENCE = (
    "Aguardando a defesa de {name}: o combate não termina com um ataque pela metade (§4.4)."
)
DEFENCE_NOT_NOW = "{defence} não dá agora: {why}."
NO_RETREAT_NOW = "{name} não pode recuar agora (§4.7: um recuo por rodada, de pé ou agachado)."
NO_DEFENCE_PENDING = "Nenhum ataque espera a defesa de {name} agora."
UNKNOWN_ANSWER = (
    "Resposta desconhecida: use dodge (Esquiva), block (Bloquear), parry (Aparar) ou none "
    "(não me defendo)."
)
NOT_DEFENDING = (
    "{name} não se defende (§4.6): só a Defesa Passiva vale, e a manobra dele fica como está."
)
ANSWERED = "{name} escolhe {defence}{retreat} contra {attacker} (§4.6)."
DEADLINE_PASSED = (
    "O prazo do Mestre para a defesa de {name} passou ({minutes} min, desde {since}): vale a "
    "escolha que ele deixou, ou a de maior total (§4.6)."
)
ONLY_THE_PLAYER_ANSWERS = "Só o jogador de {name} responde pela defesa dele (§4.1, §4.6)."
BAD_WAIT = "Prazo em minutos, de 0 a 1440 (vazio: o combate espera o jogador)."
AWAITS_THE_PLAYER = (
    "A defesa de {name} é do jogador: se o ataque acertar, para antes da jogada de defesa e "
    "aguarda a resposta dele (§4.6)."
)
# A ranged weapon whose line has no Precisão (Prec): aiming's first turn adds nothing (§4.3).
NO_ACCURACY_AIM = "{weapon} sem Precisão na ficha: o primeiro turno de mira soma +0 (§4.3)"
NO_ACCURACY = "Sem Precisão (Prec) na ficha: apontar soma +0 no primeiro turno (§4.3, §4.11)"
