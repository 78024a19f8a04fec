"""The canon's own register items, for every campaign.

What the canon itself states (``canon/como-se-joga.md`` v11, 2026-09-13, and the known slips
listed in the canon README) goes into each campaign's registers, found again by a stable
``source_key`` so running the seed twice, or after the Árbitro acted on an item, changes
nothing. The open questions of ``gurps.readings.READINGS`` are read when the seed runs, so a
reading added later becomes an open divergence on the next ``migrate``.

Nothing here is invented: a decision the canon states without a number has none, one without
a date has none, and every text below quotes or closely follows the canon's own lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

CANON = "Como se joga (v11)"
# §9: "Encontradas ao conferir este documento contra o livro em 08/09/2026."
CHECKED_ON = date(2026, 9, 8)


@dataclass(frozen=True)
class DecisionSeed:
    source_key: str
    number: int | None
    decided_on: date | None
    section: str
    title: str
    text: str
    fixes: str = ""
    house_key: str = ""
    source: str = ""


@dataclass(frozen=True)
class DivergenceSeed:
    source_key: str
    section: str
    title: str
    description: str
    side_a_label: str = ""
    side_a: str = ""
    side_b_label: str = ""
    side_b: str = ""
    reading: str = ""
    opened_on: date | None = None  # None: the day the seed runs
    resolved_on: date | None = None
    resolution: str = ""
    decision_key: str = ""  # the source_key of the decision that resolved it
    document: str = ""  # "" is the canon (CANON); the procedure's items name their own


@dataclass(frozen=True)
class CorrectionSeed:
    source_key: str
    decision_key: str
    field: str
    line: str
    before: str
    after: str
    reason: str
    corrected_on: date


# --- decisions ------------------------------------------------------------------------------

V7_TEXT_BEFORE = (
    "A seção 4.11 (Distância: o que o alcance cobra) entra no documento, na v7, porque o modo "
    "tático precisa de um número por hexágono e o documento ainda não tinha nenhum. Tudo nela é "
    "do livro: a Tabela de Parâmetro Velocidade/Distância e Tamanho (MB pág. 201) e, para a "
    "magia, o Módulo de Magia (pág. 10 e 11). A Bola de Fogo Explosiva fica na mesma linha da "
    "simples, a 1d por ponto."
)
V7_TEXT_AFTER = (
    "A seção 4.11 (Distância: o que o alcance cobra) entra no documento, na v7, porque o modo "
    "tático precisa de um número por hexágono e o documento ainda não tinha nenhum. Tudo nela é "
    "do livro: a Tabela de Parâmetro Velocidade/Distância e Tamanho (MB pág. 201) e, para a "
    "magia, o Módulo de Magia (pág. 10 e 11). A Bola de Fogo Explosiva tem linha própria: "
    "energia 2 a 6, 1d a cada 2 pontos — máximo 3d."
)

DECISIONS: tuple[DecisionSeed, ...] = (
    DecisionSeed(
        "canon:1.6",
        None,
        date(2026, 9, 10),
        "1.6",
        "Escondido não é invisível: a rolagem escondida se grava antes de narrar",
        "Rolagem escondida é indistinguível de rolagem inventada (1.1), então o Mestre de Cena "
        "grava o dado e o alvo na pasta do jogador antes de narrar — num arquivo "
        "semana-NN-rolagem-NN, uma rolagem por arquivo (`04b` §3) — e narra só o que o "
        "personagem percebe. O número aparece na homologação.",
        fixes="O livro manda rolar escondido e deixa o Mestre mentir ou calar numa falha "
        "(pág. 87); não diz que a rolagem fica registrada.",
        house_key="hidden_rolls_recorded",
    ),
    DecisionSeed(
        "canon:4.2",
        None,
        date(2026, 9, 10),
        "4.2",
        "Empate na ordem do turno: DX maior e, persistindo, a ordem de declaração",
        "Na sequência realista, empate no Deslocamento desempata a Velocidade Básica cheia, com "
        "a fração; empate ainda: nesta mesa desempata a DX maior e, persistindo, a ordem de "
        "declaração. É a linha 0 da tabela da seção 4.10.",
        fixes="Empate ainda: o livro manda rolar dados (pág. 95).",
        house_key="turn_order_tie_break",
        source="§4.2 e §4.10, linha 0",
    ),
    DecisionSeed(
        "canon:5.4.1",
        None,
        date(2026, 9, 10),
        "5.4.1",
        "Quem morre quando — regra de casa",
        "Bicho de bestiário sem nome registrado morre a 0 PV, sem teste de morte. NPC nomeado e "
        "chefe de encontro morrem a −HT, sem teste. Personagem de jogador, em qualquer combate, "
        "e os dois lados de um combate entre personagens de jogador: a escada completa da 5.4, "
        "com todos os testes. A 3, 2 ou 1 PV, Deslocamento e Esquiva caem à metade para todo "
        "mundo, bicho inclusive.",
        fixes="A escada de 5.4 aplicada a bicho de bando faz o monstro-tutorial virar maratona "
        "(quatro cavadores-cinzentos absorveram setenta e cinco pontos de dano). O Árbitro a "
        "corta pela regra máxima do GURPS, que é a de que o Mestre muda a regra.",
        house_key="death_by_kind",
    ),
    DecisionSeed(
        "canon:4.11-v7",
        None,
        date(2026, 9, 12),
        "4.11",
        "A seção 4.11, Distância, entra no documento (v7)",
        V7_TEXT_BEFORE,
        fixes="O modo tático precisava de um número por hexágono e o documento não tinha nenhum.",
        house_key="explosive_fireball_damage",
        source="§4.11: «por decisão do Árbitro de 12/09/2026»",
    ),
    DecisionSeed(
        "canon:4.8",
        None,
        date(2026, 9, 13),
        "4.8",
        "Golpe fulminante: esta mesa usa a Tabela de Golpes Fulminantes",
        "O livro oferece os dois tratamentos e manda não usar os dois juntos; o Árbitro escolheu "
        "a tabela, e a regra do dano máximo deixa de valer. Vale nos dois sentidos — contra "
        "bicho e contra personagem de jogador.",
        fixes="O livro oferece duas regras de golpe fulminante e proíbe usar as duas (§9, item 4; "
        "MB pág. 202).",
        house_key="critical_hit_table",
    ),
    DecisionSeed(
        "canon:4.12",
        27,
        date(2026, 9, 13),
        "4.12",
        "Quedas",
        "Até 2 m, 1D−4 por metro; até 4 m, 1D−3 por metro; de 5 m em diante, 1D−2 por metro. "
        "Teto: 45 metros. Acrobacia reduz a altura efetiva em até 5 metros, com um teste. "
        "Armadura de metal medieval protege com metade da resistência, arredondada para baixo; "
        "couro não protege contra queda.",
        fixes="Num poço sem fundo, a queda não é regra de canto.",
        house_key="falls_table",
    ),
    DecisionSeed(
        "canon:4.13",
        29,
        date(2026, 9, 13),
        "4.13",
        "Os tetos de trespassar",
        "Golpe de ponta no tronco: dano acima da Vitalidade do alvo é perdido. Cabeça ou órgãos "
        "vitais: dano acima do triplo da Vitalidade é desperdiçado. Feixe, bola de fogo, "
        "descarga elétrica dobram os dois tetos. Cérebro: não há teto.",
        fixes="Sem os tetos, um crítico com dano quadruplicado no crânio vira número absurdo e a "
        "tabela de morte deixa de funcionar.",
        house_key="overpenetration_caps",
    ),
    DecisionSeed(
        "canon:4.14",
        30,
        date(2026, 9, 13),
        "4.14",
        "Esgrimista com adaga — três aparadas por rodada",
        "Quem tem Esgrima e leva uma adaga na mão fraca apara três vezes na mesma rodada: duas "
        "com a arma de esgrima, a ⅔ do nível; uma com a adaga, a ½ do nível em Faca, com o −1 "
        "que toda faca sofre ao aparar. A adaga tem de estar na mão.",
        fixes="O esgrimista aparava duas vezes por turno (e sem limite só em Defesa Total).",
        house_key="fencer_dagger_parries",
    ),
    DecisionSeed(
        "canon:4.15",
        33,
        date(2026, 9, 13),
        "4.15",
        "Falha crítica em operação mágica",
        "Vale para todo teste de mágica. Sucesso decisivo não gasta energia nenhuma. Falha comum "
        "gasta 1 ponto, não o custo inteiro da mágica. Falha crítica gasta o custo inteiro e "
        "rola-se 3d na tabela da seção 4.15. O Mestre de Cena pode improvisar, coerente com a "
        "mágica e com a cena; resultado absurdo ali, ou o que o operador queria, rola-se de novo.",
        fixes="Vem com duas correções de custo que mudam o cálculo do mago.",
        house_key="spell_critical_failure",
    ),
    DecisionSeed(
        "canon:6.4-magery",
        None,
        None,
        "6.4",
        "Sem Aptidão Mágica não há feitiço, em nenhum andar",
        "Sem Aptidão Mágica não há feitiço em nenhuma faixa — decisão do Árbitro, e vale acima "
        "do livro.",
        fixes="O livro diz que mana alta permite a qualquer um conjurar; aqui não (§8).",
        house_key="no_spell_without_magery",
        source="§6.4 e §8, citando `17` §6.2 e §6.5",
    ),
    DecisionSeed(
        "canon:8-high-mana",
        None,
        None,
        "8",
        "Mana alta dá +2 no nível efetivo e metade da fadiga",
        "Andares 9–20, mana alta: +2 no nível efetivo e metade da fadiga, arredondando para "
        "cima. Número da casa, decidido pelo Árbitro.",
        fixes="O livro não dá mecânica nenhuma à faixa alta depois que se corta o efeito acima "
        "(qualquer um conjurar).",
        house_key="high_mana",
        source="§8 e §6.4, citando `17` §6.5",
    ),
    DecisionSeed(
        "canon:8-mestre-rolls",
        None,
        None,
        "1.1",
        "Quem rola os dados é sempre o Mestre de Cena",
        "Em toda mesa desta campanha, todos os dados — os do personagem do jogador, os dos NPCs, "
        "os do bicho, dano, defesa, reação — são rolados pelo Mestre de Cena. Número que o "
        "jogador traz de fora não entra em teste nenhum, e o resultado nunca some.",
        fixes="Regra da casa listada no §8; o cânone a registra no `04` (Mecânica), que o site "
        "não tem, sem número nem data.",
        house_key="mestre_rolls_everything",
        source="§1.1 e §8, citando `04` (Mecânica)",
    ),
    DecisionSeed(
        "canon:8-world-actions",
        None,
        None,
        "8",
        "Três ações de mundo por semana, que não acumulam",
        "Três ações de mundo por semana, que não acumulam. Cenas livres, ilimitadas.",
        fixes="Regra da casa listada no §8; o cânone a registra no `02` §11, que o site não "
        "tem, sem número nem data.",
        house_key="three_world_actions",
        source="§8, citando `02` §11",
    ),
    DecisionSeed(
        "canon:8-real-week",
        None,
        None,
        "8",
        "Uma semana de mundo é uma semana real",
        "Uma semana de mundo é uma semana real. O relógio corre sozinho; ninguém entra na "
        "Semana N+1 antes do Boletim.",
        fixes="Regra da casa listada no §8; o cânone a registra no `02` §11, que o site não "
        "tem, sem número nem data.",
        house_key="week_is_real_week",
        source="§8, citando `02` §11",
    ),
)

# The 13/09 fix of the explosive fireball is a correction of the 12/09 decision, as the canon
# words it ("Corrigido em 13/09/2026. A decisão de 12/09 pôs …"): the decision row keeps what
# it said, and this row says what it says now.
CORRECTIONS: tuple[CorrectionSeed, ...] = (
    CorrectionSeed(
        "canon:4.11-explosive-fireball",
        "canon:4.11-v7",
        "text",
        "Texto da decisão — dano da Bola de Fogo Explosiva",
        V7_TEXT_BEFORE,
        V7_TEXT_AFTER,
        "O verbete dela diz outra coisa — «provoca 1D pontos de dano para cada 2 pontos de "
        "energia aplicados» — e nesta campanha, onde a Relação das Mágicas e o verbete "
        "divergem, vence o verbete. A explosiva custa o dobro por dado, e o dado que ela não "
        "faz é o preço de pegar todo mundo em volta.",
        date(2026, 9, 13),
    ),
)

# --- divergences: §9 of the canon ----------------------------------------------------------

CANON_DIVERGENCES: tuple[DivergenceSeed, ...] = (
    DivergenceSeed(
        "canon:9.1",
        "9",
        "A tabela de custo de perícias do `02` §4 estava um degrau acima do livro",
        "§9, item 1. As fichas do `08` já usam os números do livro, não os do `02`: o hoplita "
        "tem Lança 17 com 16 pontos, que é DX+3 numa perícia Física/Média — exatamente a linha "
        "do livro. A tabela do `02` é que estava fora.",
        "`02`, seção 4",
        "Uma tabela, um degrau acima: ½ ponto compra Fácil em IQ+0; 1 ponto compra Fácil em "
        "IQ+1; e assim por diante.",
        "Livro (MB pág. 43–44)",
        "Duas tabelas, físicas e mentais, e a física não tem coluna Muito Difícil. Nas mentais, "
        "½ ponto compra Fácil em IQ−1 e 1 ponto compra Fácil em IQ.",
        opened_on=CHECKED_ON,
        resolved_on=date(2026, 9, 8),
        resolution="O `02` §4 já traz as duas tabelas do livro; a linha fica como registro.",
    ),
    DivergenceSeed(
        "canon:9.2",
        "9",
        "«A esgrima permite recuo ao aparar» (`02` §2) era impreciso",
        "§9, item 2. No livro, Recuar é opção de qualquer um; o que a Esgrima dá é outra coisa, "
        "e o Bastão também apara a ⅔, o que o `02` não mencionava.",
        "`02`, seção 2",
        "A esgrima permite recuo ao aparar.",
        "Livro (MB pág. 109 e 99)",
        "Recuar é de qualquer um: afastar-se um metro soma +3 em qualquer bloquear, aparar ou "
        "esquivar, uma vez por rodada, e não se recua sentado, ajoelhado nem atordoado. A "
        "Esgrima dá Aparar a ⅔, duas aparadas por turno e aparadas ilimitadas em Defesa Total.",
        opened_on=CHECKED_ON,
        resolved_on=date(2026, 9, 8),
        resolution="O `02` §2 já diz «Recuar é de todo mundo»; a linha fica como registro.",
    ),
    DivergenceSeed(
        "canon:9.3",
        "9",
        "A campanha nunca declarou um Nível Tecnológico",
        "§9, item 3. A tabela de Primeiros Socorros do livro depende do Nível Tecnológico. "
        "Convém fixar por decisão.",
        "Livro",
        "A tabela de Primeiros Socorros depende do NT.",
        "Como se joga",
        "Usa NT 2–3 (Roma / Idade Média), que é o que o equipamento do `03` descreve — gládio, "
        "aspis, cota de malha, besta.",
        reading="NT 2–3, até o Árbitro fixar por decisão.",
        opened_on=CHECKED_ON,
    ),
    DivergenceSeed(
        "canon:9.4",
        "9",
        "Golpe fulminante: o livro oferece duas regras e proíbe usar as duas",
        "§9, item 4. Está na seção 4.8, com a escolha marcada como decisão do Árbitro.",
        "Livro (MB pág. 97–98 e 202)",
        "O 3 no ataque provoca o dano máximo dos dados, ou rola-se na Tabela de Golpes "
        "Fulminantes; não se usam os dois juntos.",
        "§4.8",
        "Fixado em 13/09/2026: esta mesa usa a Tabela de Golpes Fulminantes, e a regra do dano "
        "máximo deixa de valer.",
        opened_on=CHECKED_ON,
        resolved_on=date(2026, 9, 13),
        resolution="Resolvida pela decisão do §4.8 (fixado em 13/09/2026): esta mesa usa a Tabela "
        "de Golpes Fulminantes. O §9 da v11 ainda lista o item sem a marca «Resolvida»; a "
        "linha 4 da §4.10, que ficou com o dano máximo, é outra pendência.",
        decision_key="canon:4.8",
    ),
    DivergenceSeed(
        "canon:9.5",
        "9",
        "O deslocamento do Ataque Total tem duas redações no próprio livro",
        "§9, item 5.",
        "Livro, texto (pág. 105)",
        "Até 2 hexágonos, ou metade do Deslocamento, o que for maior.",
        "Livro, tabela de Manobras (pág. 203)",
        "Só metade do Deslocamento.",
        reading="O cânone segue o texto (pág. 105).",
        opened_on=CHECKED_ON,
    ),
    DivergenceSeed(
        "canon:9.6",
        "9",
        "A morte automática está escrita de forma confusa no livro",
        "§9, item 6. As duas frases dizem a mesma coisa por caminhos diferentes, e o exemplo da "
        "coluna lateral confirma.",
        "Livro (pág. 126)",
        "«Vitalidade igual −5 × HT: morte automática. Isto significa que você perdeu um número "
        "de pontos de vida igual a 6 vezes o valor de sua HT.»",
        "Livro, exemplo da coluna lateral",
        "HT 14 morre em −70.",
        reading="O limiar é −5 × HT, e é esse que a tabela da seção 5.4 usa.",
        opened_on=CHECKED_ON,
    ),
    DivergenceSeed(
        "canon:9.7",
        "9",
        "A perda de Esquiva a 3 PV aparece só na coluna lateral do capítulo de combate",
        "§9, item 7. Como Esquiva é o Deslocamento, o efeito é o mesmo.",
        "Livro, capítulo de combate (pág. 99, coluna lateral)",
        "A 3 PV a Esquiva também cai.",
        "Livro, capítulo de ferimentos (pág. 126)",
        "Menciona apenas o Deslocamento.",
        reading="O cânone diz os dois: Deslocamento e Esquiva caem à metade (§5.4).",
        opened_on=CHECKED_ON,
    ),
    DivergenceSeed(
        "canon:9.8",
        "9",
        "O livro não tem tabela geral de dificuldade de tarefa",
        "§9, item 8. O livro dá exemplos e a lista de condições adversas de combate (pág. 97), "
        "que está na seção 4.5.",
        "Livro (pág. 86 e 97)",
        "Exemplos (fechadura no escuro −5, fechadura tosca +10) e as condições adversas de "
        "combate.",
        "Como se joga, §1.4",
        "Fora de combate, o modificador é decisão do Mestre de Cena, dita antes dos dados.",
        reading="Fora de combate, o Mestre de Cena diz o modificador antes dos dados (§1.4).",
        opened_on=CHECKED_ON,
    ),
)

# --- divergences: the slips the canon README lists -----------------------------------------

SLIPS: tuple[DivergenceSeed, ...] = (
    DivergenceSeed(
        "slip:4.10-row-4",
        "4.10",
        "A linha 4 da §4.10 ainda diz que o 3 faz dano máximo",
        "A tabela do Mestre da §4.10 não acompanhou a decisão da §4.8 de 13/09/2026, que trocou "
        "a regra do dano máximo pela Tabela de Golpes Fulminantes.",
        "§4.10, linha 4",
        "Checa crítico. 3 = dano máximo, sem defesa.",
        "§4.8 (fixado em 13/09/2026)",
        "Esta mesa usa a Tabela de Golpes Fulminantes; a regra do dano máximo deixa de valer.",
        reading="O site segue a §4.8: o 3 no ataque rola na Tabela de Golpes Fulminantes.",
    ),
    DivergenceSeed(
        "slip:5d-blind-fighting",
        "5d",
        "A §5d manda Combate às Cegas para a §4.14, que é do esgrimista com adaga",
        "A remissão da linha «Escuro» da tabela de terreno aponta para uma seção que não fala "
        "de Combate às Cegas.",
        "§5d, linha «Escuro»",
        "Redutor de iluminação em tudo, salvo quem tem Combate às Cegas (§4.14).",
        "§4.14",
        "Esgrimista com adaga — três aparadas por rodada. Não fala de Combate às Cegas.",
        reading="O cânone não tem seção de Combate às Cegas; o site não aplica regra nenhuma "
        "dela e cita a §5d como está.",
    ),
    DivergenceSeed(
        "slip:1.1-odds-truncated",
        "1.1",
        "A tabela de chances da §1.1 trunca as porcentagens",
        "A chance de passar com NH 9 é 81/216, que é 37,5%; a tabela escreve 37%.",
        "§1.1",
        "NH 9: 37%.",
        "A conta de 3d6",
        "81/216 = 37,5%.",
        reading="O site mostra a porcentagem truncada, como o cânone, e diz que é truncada; a "
        "API dá também a fração exata, em /216.",
    ),
)

READING_KEY_PREFIX = "reading:"

# --- divergences: the Mestre's session procedure, written for another game -------------------
#
# ``sessao-do-mestre.txt`` is a d6/d20 game's procedure (canon README). Its tables are the
# site's (sessions.procedure_data), but where it says a roll or a trait of that other game, the
# site does not guess a translation: each point is an open divergence that quotes the
# procedure and says what the site does meanwhile. The quotes are the text's own lines.

PROCEDURE = "Sessão do Mestre"
PROCEDURE_KEY_PREFIX = "procedure:"

_MESTRE_CHOOSES = (
    "Nada é traduzido: o Mestre de Cena escolhe, a cada vez, o teste GURPS — HT, DX, Vontade "
    "ou a Verificação de Pânico da §5b — e diz os modificadores antes dos dados (§1.4)."
)
_NO_GURPS_COUNTERPART = "Como se joga (v11)"

UNDEFINED_READING_BEFORE = (
    "O site rola o que o texto manda rolar e mostra o resultado como ele o escreve; o que é o "
    "encontro, o ponto de interesse, o evento, os peregrinos, para onde vai quem se perdeu e qual "
    "item se perde é do Mestre de Cena, dito na cena. O grupo perdido ainda avança pela Tabela A "
    "(o texto não diz que não avança)."
)
UNDEFINED_READING = (
    "O site rola o que o texto manda rolar e mostra o resultado como ele o escreve; o que é o "
    "ponto de interesse, o evento, os peregrinos e qual item se perde é do Mestre de Cena, dito "
    "na cena. A Tabela de Encontros da Região é a que o Árbitro cria para a região nas tabelas "
    "do procedimento: o encontro rola nela; sem ela, o site diz que a região não tem tabela e o "
    "encontro é do Mestre. O que faz o grupo perdido é a pendência «PERDIDOS na Tabela C»."
)
FOOD_WATER_READING_BEFORE = (
    "O site diz se a procura achou comida e água, quem consome a sua unidade ao descansar, e rola "
    "o 1d4 das rações perdidas; não conta as rações de ninguém: o Mestre as tira (ou põe) no que "
    "cada personagem carrega."
)
FOOD_WATER_READING = (
    "O site conta a comida e a água de cada personagem e do estoque comum do grupo como "
    "mudanças anotadas (cada uma com a sua razão; o número é a soma delas). A procura que acha "
    "comida e água dá 1 unidade de comida e 1 de água a cada personagem que procurou. Ao "
    "Descansar, cada membro consome 1 unidade de comida e 1 de água do que carrega e, faltando, "
    "do estoque comum. As rações do Percalço 6 (1d4) saem do estoque comum e, faltando, de cada "
    "membro na ordem de marcha, uma por vez. O Mestre acerta os números à mão, com a razão."
)
FORCED_MARCH_READING = (
    "O teste é de HT (§1.1), rolado pelo Mestre na cena. A DC da Tabela B vira um modificador no "
    "HT: DC 12 é HT sem modificador, e cada 3 pontos de DC acima de 12 tiram 1 (DC 15: HT −1; DC "
    "18: HT −2; DC 21: HT −3). O rastreador pede o teste com o modificador e só aceita a rolagem "
    "que o traz anunciado."
)
CRAFT_READING_BEFORE = _MESTRE_CHOOSES + " A quantidade de munição é dita pelo Mestre."
CRAFT_READING = (
    "O teste é de DX (ou da perícia de fazer flechas, que o Mestre diz), com o modificador da "
    "Tabela G anunciado antes dos dados. «Munição igual ao resultado do teste»: com sucesso, o "
    "personagem cria tantas munições quanto a margem de sucesso, no mínimo 1; com falha, nenhuma."
)
LOST_READING = (
    "O grupo perdido não avança na rodada: os hexágonos da Tabela A não contam na jornada (o "
    "grupo anda, mas não para onde queria) e o Mestre de Cena diz na cena onde ele foi parar. A "
    "rodada ainda conta como rodada seguida de Avançar (Tabela B), e a próxima Avançar rola a "
    "Tabela C de novo."
)
RUNNING_OUT_READING = (
    "Quem não tem a unidade de comida ao Descansar perde uma refeição: 1 ponto de Fadiga (§6.1, "
    "«Refeição perdida»). Quem não tem a de água passa o dia sem água: 1 ponto de Fadiga e 1 PV "
    "(§6.1, «Sem água»). O rastreador escreve os dois no estado do personagem, quando ele tem "
    "ficha na cena; sem ficha, o registro diz o que o Mestre deve cobrar."
)
EXHAUSTION_EFFECTS_READING = (
    "Nível 1 («DESV em todas as rolagens»): −1 em todo teste, dito pelo Mestre antes dos dados "
    "(§1.4). Nível 2 («Não adiciona modificadores de atributos às rolagens»): −2 em todo teste. "
    "Nível 3 («1d4 de dano de CON / dia»): −3 em todo teste e 1 ponto de Fadiga por dia (§6). O "
    "site mostra o nível de cada personagem com a linha da Tabela I e esta leitura; o Mestre "
    "anuncia o modificador."
)
DARKNESS_READING = (
    "Quando o marcador da última fonte de luz acesa chega a 0, o grupo está em total escuridão e "
    "o nível de perigo é Mortal desde aquele momento. Acender uma fonte de luz (um marcador novo "
    "de luz) desfaz a escuridão que a luz apagada trouxe; a que o Mestre declarou ele a desfaz."
)
DISEASE_READING = (
    "Vale a Doença do cânone: o Mestre de Cena diz qual doença e o seu redutor, e cada "
    "personagem do grupo faz o teste de HT uma vez por dia (três sucessos seguidos curam, três "
    "falhas agravam). O site não escolhe a doença nem o redutor."
)
DUNGEON_SLEEP_READING = (
    "Dormir na masmorra segue os passos do Descansar da jornada: cada membro consome 1 unidade de "
    "comida e 1 de água; sem interrupção, recupera 1 de exaustão. Um encontro da Tabela C (ou o "
    "Percalço 8) interrompe o sono: cada um faz o teste de benefícios do descanso. Os Percalços 6, "
    "7 e 9 pedem o mesmo teste a cada um. Só o sono de 8 horas ou mais é o Descansar (o texto "
    "fala de dormir por 8 horas); um sono mais curto não recupera exaustão."
)

EXHAUSTION_READING_BEFORE = (
    "O site não conta exaustão nem dano de CON: o Mestre de Cena cobra a Fadiga da §6 quando a "
    "situação for dela."
)
EXHAUSTION_READING = (
    "O site conta os pontos de exaustão como o procedimento os manda contar — a hora sem "
    "descanso na masmorra; na jornada, a falha ao forçar o avanço sem as 2 rodadas de descanso "
    "e o dia sem Descansar (contado ao fim da 6ª rodada do dia, para cada personagem que não "
    "descansou) — e o nível de cada personagem na jornada (cada Descansar tira 1). Não aplica "
    "a Tabela I nem o dano de CON: a consequência GURPS de cada ponto é do Mestre de Cena (a "
    "Fadiga da §6, quando a situação for dela) e fica registrada com o ponto."
)
WEATHER_SILENT_READING_BEFORE = (
    "A linha 3-6 diz que o texto não diz o que acontece; o Mestre decide."
)
WEATHER_SILENT_READING = (
    "Com 3 a 6 o clima fica como está, e o registro diz que o texto não diz o que fazer (o "
    "Mestre pode narrar mais). Se o Árbitro mudar a linha 3-6 da tabela para «Diminua em N o "
    "clima» ou «Aumente em N o clima», é isso que o rastreador aplica."
)
PANIC_TEST_SIDE_A_BEFORE = (
    "Percalços 8 — Lenha molhada, a fogueira apaga. Vigia faz teste de pânico. Role 1d6. "
    "3:6 | Encontro Aleatório.\nPercalços da Dungeon 9 — O ambiente da Dungeon é muito "
    "opressor. Teste de Pânico e Teste de CON DC 12 para ter os benefícios do Descanso."
)

PROCEDURE_DIVERGENCES: tuple[DivergenceSeed, ...] = (
    DivergenceSeed(
        "procedure:forced-march-con",
        "Avançar; Tabela B",
        "«Teste de CON» ao forçar o avanço: CON e DC são de outro sistema",
        "O procedimento pede um teste de CON, com DC, para avançar mais de 2 rodadas seguidas. "
        "GURPS não tem CON nem DC: tem HT, e testes de 3d contra um nível (§1.1).",
        "Sessão do Mestre, Avançar e Tabela B: Forçando o Avanço",
        "Avançar por mais de 2 rodadas de viagem consecutivas requer um teste de CON na Tabela B: "
        "Forçando o Avanço.\nAlém de 2 rodadas consecutivas — DC do Teste de CON\n"
        "1 rodada extra — 12\nrodadas subsequentes — +3",
        _NO_GURPS_COUNTERPART,
        "GURPS testa atributos com 3d contra o nível (§1.1); não há CON nem DC.",
        reading=FORCED_MARCH_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:rest-con-dc12",
        "Descansar",
        "«Teste de CON DC 12» a cada interrupção do descanso",
        "O descanso interrompido pede um teste de CON DC 12, que é de outro sistema.",
        "Sessão do Mestre, Descansar",
        "Cada interrupção do descanso necessita um teste de CON DC 12 ou o personagem não recebe "
        "os benefícios.",
        _NO_GURPS_COUNTERPART,
        "GURPS testa atributos com 3d contra o nível (§1.1); não há CON nem DC.",
        reading=_MESTRE_CHOOSES,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:dungeon-mishaps-con-dc12",
        "Tabela B (masmorra)",
        "«Teste de CON DC 12» nos Percalços da Dungeon (6, 7 e 9)",
        "Três linhas dos Percalços da Dungeon pedem um teste de CON DC 12 para ter os benefícios "
        "do Descanso.",
        "Sessão do Mestre, Tabela B: Percalços da Dungeon",
        "6 — Dormir na Dungeon não é nada confortável. Teste de CON DC 12 para ter os benefícios "
        "do Descanso.\n7 — Atacados por carrapatos/sanguessugas. 2 de dano e Teste de CON DC 12 "
        "para ter os benefícios do Descanso.\n9 — O ambiente da Dungeon é muito opressor. Teste "
        "de Pânico e Teste de CON DC 12 para ter os benefícios do Descanso.",
        _NO_GURPS_COUNTERPART,
        "GURPS testa atributos com 3d contra o nível (§1.1); não há CON nem DC.",
        reading=_MESTRE_CHOOSES,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:craft-ammunition-des",
        "Criar; Tabela G",
        "«Teste de DES» para criar munição, e munição «igual ao resultado do teste»",
        "Criar munição é um teste de DES modificado pela Tabela G, e o resultado do teste dá a "
        "quantidade. Em GURPS um teste é 3d contra um nível e dá sucesso ou falha e a margem "
        "(§1.1, §1.3), não um número que conte flechas.",
        "Sessão do Mestre, Criar e Tabela G: Criar Munição",
        "1. Role um Teste de DES modificado pela Tabela G: Criar Munição.\n2. O personagem cria "
        "munição igual ao resultado do teste.\nPlanície / Colinas — -6\nEstepe — -4\n"
        "Floresta — +0\nPântano — +0\nMontanha — -10",
        _NO_GURPS_COUNTERPART,
        "GURPS tem DX (não DES) e perícias; um teste dá sucesso ou falha e a margem (§1.1, §1.3).",
        reading=CRAFT_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:camp-mishap-9-des-dc12",
        "Tabela H",
        "«Teste de DES DC 12» no Percalço 9 (o fogo espalhou)",
        "Uma linha dos Percalços pede um teste de DES DC 12, que é de outro sistema.",
        "Sessão do Mestre, Tabela H: Percalços",
        "9 — O fogo espalhou. Teste de DES DC 12 ou perde 1 item aleatório.",
        _NO_GURPS_COUNTERPART,
        "GURPS tem DX (não DES) e testa com 3d contra o nível (§1.1); não há DC.",
        reading=_MESTRE_CHOOSES,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:disadvantage-desv",
        "Tabelas F, H, I",
        "«DESV» (desvantagem: rolar dois dados e ficar com o pior) não existe em GURPS",
        "Três linhas dão DESV, a desvantagem do outro sistema. GURPS não tem essa mecânica: "
        "cobra modificadores no nível antes dos dados (§1.4).",
        "Sessão do Mestre, Tabelas F: Acidentes, H: Percalços e I: Exaustão",
        "Acidentes 6 — Encontra comida, mas venenosa/doente. Quem a ingerir tem DESV pelo "
        "próximo dia.\nPercalços 7 — Ataque de mosquitos/insetos hematófagos. DESV nas próximas "
        "duas rodadas.\nExaustão 1 — DESV em todas as rolagens",
        _NO_GURPS_COUNTERPART,
        "Modificadores são ditos antes dos dados, no nível (§1.4).",
        reading="Nada é traduzido: o Mestre de Cena diz, a cada vez, o modificador GURPS que a "
        "situação cobra (§1.4), antes dos dados.",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:rest-hit-dice",
        "Descansar",
        "«Dados de vida igual ao nível» para recuperar pontos de vida",
        "O descanso recupera PV rolando dados de vida, um por nível. GURPS não tem nível nem "
        "dados de vida: a recuperação é a da §5.6.",
        "Sessão do Mestre, Descansar",
        "3. Cada membro rola um n° de dados de vida igual ao nível e recupera pontos de vida.",
        "Como se joga (v11), §5.6",
        "Cura natural: teste de HT ao fim de cada dia de repouso e boa alimentação; passou, 1 PV. "
        "Ataduras e Primeiros Socorros como na tabela.",
        reading="O site não rola dados de vida: a recuperação de PV é a da §5.6, feita pelo "
        "Mestre com os testes dela.",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:rest-attributes-sanity",
        "Descansar",
        "Descanso recupera «dano em cada atributo», «sanidade» e exaustão",
        "GURPS não tem dano de atributo nem sanidade como número a recuperar; a Fadiga se "
        "recupera pela §6.3.",
        "Sessão do Mestre, Descansar",
        "4. Recupera 1 de dano em cada atributo, 1 de sanidade e 1 de exaustão.",
        "Como se joga (v11), §6.3",
        "Fadiga: 1 ponto a cada 10 minutos de descanso tranquilo; a de falta de sono só some com "
        "uma noite de sono.",
        reading="O site não conta sanidade nem dano de atributo; o que o descanso recupera é o da "
        "§5.6 e da §6.3, dito pelo Mestre.",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:panic-table",
        "Tabela J",
        "A Tabela J: Pânico é lida pela «Sanidade», sem dado, e dá «dano em Sabedoria»",
        "A tabela de pânico do procedimento tem linhas de 1 a 14+ numa coluna «Sanidade», não "
        "diz com que dado se rola, e uma linha dá dano em Sabedoria, atributo de outro sistema. "
        "O cânone tem a sua Verificação de Pânico (§5b): teste de Vontade e, falhando, 3d mais "
        "a margem na tabela dela.",
        "Sessão do Mestre, Tabela J: Pânico",
        "Sanidade — Efeito\n1 — Insanidade. Se torna insano.\n8-10 — Impactado. 2 de dano em "
        "Sabedoria\n14+ — Terror. Foge de todos os seres (até aliados) por 1d4 rodadas",
        "Como se joga (v11), §5b",
        "Verificação de Pânico: teste de Vontade; falhou, rola-se 3d na tabela e soma-se a "
        "margem pela qual falhou.",
        reading="Para personagens GURPS vale a Verificação de Pânico da §5b, não a Tabela J. O "
        "site mostra a Tabela J como consulta e não rola nela.",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:panic-test",
        "Tabela H; Tabela B (masmorra)",
        "«Teste de pânico» nos Percalços (8) e nos Percalços da Dungeon (9)",
        "Duas linhas pedem um teste de pânico do outro sistema.",
        "Sessão do Mestre, Tabela H: Percalços e Tabela B: Percalços da Dungeon",
        "Percalços 8 — Lenha molhada, a fogueira apaga. Vigia faz teste de pânico. Role 1d6. "
        "3:6 \\| Encontro Aleatório.\nPercalços da Dungeon 9 — O ambiente da Dungeon é muito "
        "opressor. Teste de Pânico e Teste de CON DC 12 para ter os benefícios do Descanso.",
        "Como se joga (v11), §5b",
        "Verificação de Pânico: teste de Vontade, pedido quando a cena rompe a expectativa.",
        reading="O padrão é a Verificação de Pânico da §5b (o Mestre de Cena pode escolher "
        "outro teste e diz qual antes dos dados).",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:exhaustion",
        "Tabela I",
        "«Exaustão» e «1d4 de dano de CON» não são a Fadiga do cânone",
        "O procedimento conta pontos de exaustão (avançar demais, não descansar) com efeitos do "
        "outro sistema. O cânone tem Fadiga, que é perda de ST (§6).",
        "Sessão do Mestre, Tabela I: Exaustão",
        "2 — Não adiciona modificadores de atributos às rolagens\n3 — 1d4 de dano de CON / dia"
        "\nAvançar — Em caso de falha, o personagem deve descansar por 2 rodadas antes de "
        "realizar qualquer outra atividade ou receber 1 ponto de exaustão.\nDescansar — Cada dia "
        "sem realizar essa ação acarreta em 1 ponto de exaustão.\nA cada 1 hora de exploração, "
        "os personagens precisam descansar por um turno de exploração ou sofrer 1 ponto de "
        "exaustão.",
        "Como se joga (v11), §6",
        "Fadiga é perda de ST; marcha, noite sem dormir e refeição perdida custam pontos de "
        "Fadiga (§6.1).",
        reading=EXHAUSTION_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:chance-notation",
        "Encontros; Tabelas C, E; masmorra",
        "Como se lê «N:6»: chance de N em 6",
        "O procedimento escreve as chances como «1:6», «2:6», «3:6» (encontros por região, "
        "perder a direção, forragear/caçar/pescar, surpresa, níveis de perigo, descanso na "
        "masmorra) sem dizer em que faces do 1d6 acontece.",
        "Sessão do Mestre, Encontros Aleatórios e masmorra",
        "Estepe e Planície: 1:6\nColinas, Florestas e Montanhas: 2:6\nPântano: 3:6\nEm um "
        "resultado de 1:6, o encontro acontece, sempre no Fim do Turno.\nEm um resultado de "
        "2:6, o lado está surpreso.",
        "Leitura do site",
        "N chances em 6: acontece com 1 a N no 1d6.",
        reading="«N:6» é chance de N em 6: acontece quando o 1d6 dá de 1 a N. «1:3» e «4:6» na "
        "chegada dos monstros são faixas do dado (1 a 3, 4 a 6).",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:make-camp-5-6",
        "Levantar Acampamento",
        "«Em um resultado de 5:6 o grupo está seguro»: chance de 5 em 6, ou 5 e 6 no dado?",
        "«5:6» pode ser a mesma notação de chance das outras tabelas (seguro com 1 a 5) ou uma "
        "faixa do dado, como «4:6» na chegada dos monstros (seguro só com 5 ou 6). As duas "
        "leituras dão 5/6 e 2/6.",
        "Sessão do Mestre, Levantar Acampamento",
        "1. Role 1d6. Em um resultado de 5:6 o grupo está seguro.",
        "Sessão do Mestre, 4. Fim do Turno",
        "1:3 Os monstros chegam na sala onde os personagens estão.\n4:6 Os monstros chegam em "
        "uma sala adjacente.",
        reading="Lido como as outras chances: o grupo está seguro com 1 a 5 no 1d6 (5 em 6).",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:weather-drift-3-6",
        "1. Clima",
        "A mudança do clima só diz o que fazer com 1 e 2 no 1d6",
        "O clima se rola a cada Rodada de Exploração, mas o texto só dá os resultados 1 e 2.",
        "Sessão do Mestre, 1. Clima",
        "Resultados da rolagem (1d6):\n1 – Diminua em 1 o clima\n2 – Aumente em 1 o clima",
        "",
        "",
        reading=WEATHER_SILENT_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:affliction-2-broken",
        "Tabela K",
        "A Aflição 2 (Medroso) termina numa frase partida",
        "A última frase da linha 2 da Tabela K perdeu o começo.",
        "Sessão do Mestre, Tabela K: Aflição",
        "…sempre esperando o pior. você num momento de fraqueza.",
        "",
        "",
        reading="O site mostra a linha como o texto a escreve.",
        document=PROCEDURE,
    ),
    # --- what the journey (the hexcrawl's rounds of travel) meets where the text is silent ---
    DivergenceSeed(
        "procedure:weather-drift-edges",
        "1. Clima",
        "«Diminua em 1» e «Aumente em 1» o clima: o que é isso na tabela, e nas pontas dela",
        "O texto manda mudar o clima em 1 a cada rodada, mas não diz que «diminuir» é ir para a "
        "linha de número menor da tabela da estação, nem o que acontece quando o clima já está "
        "na linha 1 e sai 1, ou na 6 e sai 2.",
        "Sessão do Mestre, 1. Clima",
        "Em seguida, role 1d6 para cada Rodada de Exploração (4h) do dia e siga o resultado.\n"
        "1 – Diminua em 1 o clima\n2 – Aumente em 1 o clima",
        reading="«Diminua em 1» leva à linha de número menor da tabela da estação, «Aumente em "
        "1» à de número maior; na linha 1 o clima não diminui e na 6 não aumenta: fica onde "
        "está, e o registro diz que a ponta da tabela o segurou.",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:undefined-results",
        "Encontros; Tabelas C, D, F, H",
        "Resultados que o texto nomeia e não define: a Tabela de Encontros da Região, Ponto de "
        "Interesse, Evento, Peregrinos, perder a direção, item aleatório",
        "O procedimento manda rolar na «Tabela de Encontros da Região atual», que ele não traz; a "
        "Tabela D dá «Ponto de Interesse», «Evento» e «Peregrinos» sem dizer o que são; a Tabela "
        "C dá a chance de se perder sem dizer o que acontece com quem se perde; a Tabela F (10) "
        "traz um encontro aleatório e a Tabela H (5 e 9) faz perder «1 item aleatório» sem dizer "
        "como se sorteia.",
        "Sessão do Mestre, Encontros Aleatórios e Tabelas C, D, F e H",
        "No momento do encontro role na Tabela de Encontros da Região atual.\n"
        "1. Role 1d6 na Tabela C: Perdendo a Direção.\n"
        "2 — Ponto de Interesse — Evento — Evento\n"
        "3 — Evento — Peregrinos — Nada\n"
        "10 — O barulho atrai um encontro aleatório\n"
        "5 — Um personagem perde 1 item aleatório.",
        reading=UNDEFINED_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:activities-per-player",
        "Rodadas de Viagem",
        "«Um jogador pode escolher»: como as atividades de uma rodada se juntam",
        "O texto deixa cada jogador escolher a atividade da rodada, mas escreve os passos para "
        "«os personagens» e «o grupo» (Avançar, Explorar, Forragear, Levantar Acampamento, "
        "Descansar) e para «o personagem» (Criar), sem dizer como se rola quando o grupo se "
        "divide, nem se duas rodadas seguidas da mesma atividade são uma ou duas.",
        "Sessão do Mestre, Rodadas de Viagem",
        "Em cada rodada de viagem, um jogador pode escolher uma das seguintes atividades:\n"
        "Os personagens seguem em direção a outro hex.\n"
        "Os personagens procuram por comida e água.\n"
        "O personagem cria munição igual ao resultado do teste.",
        reading="A rodada tem uma atividade para o grupo, e o personagem que escolher outra a faz "
        "no lugar dela. Avançar é do grupo inteiro (o site segue um grupo num hex): não se "
        "mistura com outra atividade na mesma rodada. As outras se rolam uma vez para os que as "
        "escolheram juntos (uma Tabela E por coluna, uma Tabela H para os que descansam); Criar "
        "é de cada personagem. Cada rodada segue os passos da sua atividade como o texto os "
        "escreve: duas rodadas de Descansar são dois descansos.",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:forced-march-count",
        "Avançar",
        "Forçar o avanço: o que conta como «consecutivas», e quem escolhe o «ou» da falha",
        "O texto não diz se as rodadas consecutivas de Avançar continuam contando de um dia "
        "para o outro, nem como se escolhe entre descansar 2 rodadas e receber o ponto de "
        "exaustão.",
        "Sessão do Mestre, Avançar",
        "Personagens podem avançar por até 2 rodadas consecutivas sem penalidade.\n"
        "Em caso de falha, o personagem deve descansar por 2 rodadas antes de realizar qualquer "
        "outra atividade ou receber 1 ponto de exaustão.",
        reading="Contam as rodadas de viagem seguidas em que o grupo avança, atravessando a "
        "virada do dia (um dia são 6 rodadas, e a 6ª emenda na 1ª do dia seguinte); qualquer "
        "outra atividade do grupo zera a conta. Quem falha escolhe fazendo: se as 2 rodadas "
        "seguintes dele forem de Descansar, cumpriu; se fizer outra coisa antes, recebe 1 ponto "
        "de exaustão.",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:camp-safe-lasts",
        "Levantar Acampamento; Descansar",
        "Até quando o grupo «está seguro» depois de Levantar Acampamento",
        "O texto diz que o acampamento deixa o grupo seguro para dormir, mas não diz por quanto "
        "tempo nem o que desfaz a segurança.",
        "Sessão do Mestre, Levantar Acampamento e Descansar",
        "O grupo se prepara para ter um sono seguro à noite.\n"
        "1. Role 1d6. Em um resultado de 5:6 o grupo está seguro.\n"
        "1. Caso o grupo não esteja seguro, role na Tabela H: Percalços.",
        reading="O acampamento seguro vale para todo Descansar no mesmo lugar, até o grupo "
        "Avançar; uma nova rodada de Levantar Acampamento rola de novo e vale o que sair.",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:rest-interruption",
        "Descansar",
        "O que interrompe o descanso, e se o descanso sem benefícios conta como o do dia",
        "O texto pede um teste a cada interrupção do descanso sem dizer o que o interrompe, e "
        "cobra exaustão pelo dia sem descansar sem dizer se o descanso interrompido conta.",
        "Sessão do Mestre, Descansar",
        "Cada interrupção do descanso necessita um teste de CON DC 12 ou o personagem não recebe "
        "os benefícios.\nCada dia sem realizar essa ação acarreta em 1 ponto de exaustão.",
        reading="Interrompe o descanso um encontro rolado na mesma rodada: o 1d6 de Encontros "
        "Aleatórios, ou o 1d6 do Percalço 8. O descanso interrompido ainda é o «realizar essa "
        "ação» do dia; o que o teste decide são os benefícios (a recuperação do passo 4).",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:food-water",
        "Forragear; Descansar; Tabela H",
        "Comida e água: quanto a Tabela E acha, e de onde sai a unidade que cada um consome",
        "A Tabela E diz se a procura acha comida e água, não quanto; o Descansar consome 1 "
        "unidade de comida e 1 de água de cada membro, e o Percalço 6 tira rações do grupo, sem "
        "dizer de quem.",
        "Sessão do Mestre, Forragear / Caçar / Pescar, Descansar e Tabela H: Percalços",
        "Os personagens procuram por comida e água.\n"
        "2. Cada membro do grupo consome 1 unidade de comida e 1 de água.\n"
        "6 — Comida devorada por animais. Perca 1d4 rações entre o grupo.",
        reading=FOOD_WATER_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:camp-mishap-8-chance",
        "Tabela H",
        "O Percalço 8 escreve «Role 1d6. 3:6 \\| Encontro Aleatório.»",
        "A linha 8 da Tabela H manda rolar 1d6 e escreve «3:6 \\| Encontro Aleatório», com uma "
        "barra invertida antes da barra; não diz se 3:6 é a chance, como nas outras tabelas, nem "
        "o que a barra separa.",
        "Sessão do Mestre, Tabela H: Percalços",
        "8 — Lenha molhada, a fogueira apaga. Vigia faz teste de pânico. Role 1d6. 3:6 \\| "
        "Encontro Aleatório.",
        reading="O site mostra a linha como o texto a escreve, com a barra invertida, e rola o "
        "1d6 que ela pede lendo «3:6» como as outras chances: com 1 a 3 há um Encontro "
        "Aleatório, que interrompe o descanso.",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:surprise-partial-total",
        "1. Encontros Aleatórios (masmorra); §5e",
        "«O lado está surpreso»: a surpresa parcial ou a total do cânone?",
        "O procedimento só diz se um lado está surpreso, e que com os dois surpresos ninguém tem "
        "turno de surpresa. O cânone tem duas surpresas, com efeitos diferentes (§5e), e o texto "
        "não diz qual é a dele.",
        "Sessão do Mestre, 1. Encontros Aleatórios (masmorra)",
        "Em um resultado de 2:6, o lado está surpreso. Caso os dois lados estejam, ninguém tem "
        "um turno de surpresa.",
        "Como se joga (v11), §5e",
        "Surpresa parcial: perde o primeiro turno. Surpresa total: testa IQ a cada turno para "
        "começar a agir e, enquanto falhar, fica parado e sem defesa ativa.",
        reading="O site rola a surpresa do procedimento e diz qual lado está surpreso; se é a "
        "parcial ou a total da §5e, o Mestre de Cena diz no combate (o rastreador de combate tem "
        "as duas).",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:close-range",
        "2. Ações dos Jogadores (masmorra)",
        "«Alcance próximo» não tem número",
        "O turno de exploração deixa os jogadores mover «dentro do alcance próximo», e o texto "
        "não diz quanto é isso; o cânone mede o movimento em metros por segundo de combate "
        "(Deslocamento), não por turno de exploração de 10 minutos.",
        "Sessão do Mestre, 2. Ações dos Jogadores",
        "Os jogadores podem mover dentro do alcance próximo e realizar uma ação.",
        reading="O site não mede o movimento de um turno de exploração: o Mestre de Cena diz até "
        "onde o grupo vai. Não há número do texto para o alcance próximo, e o site não inventa "
        "um.",
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:lost",
        "Avançar; Tabela C",
        "«PERDIDOS» na Tabela C: o que faz o grupo perdido",
        "A Tabela C dá a chance de se perder; o texto não diz o que acontece com quem se perde.",
        "Sessão do Mestre, Avançar e Tabela C: Perdendo a direção",
        "1. Role 1d6 na Tabela C: Perdendo a Direção.\n2. Os personagens avançam conforme a "
        "Tabela A: Avançar.\nEstepes — 1:6\nPlanície, Colinas, Floresta — 2:6\nPântano, "
        "Montanha — 3:6",
        reading=LOST_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:running-out",
        "Descansar; §6.1",
        "Quem não tem a comida ou a água que o Descansar consome",
        "O Descansar consome 1 unidade de comida e 1 de água de cada membro; o texto não diz o que "
        "acontece com quem não as tem. O cânone cobra a refeição perdida e o dia sem água.",
        "Sessão do Mestre, Descansar",
        "2. Cada membro do grupo consome 1 unidade de comida e 1 de água.",
        "Como se joga (v11), §6.1",
        "Refeição perdida — 1 ponto, e essa só volta com um dia inteiro de descanso e 3 "
        "refeições\nSem água — 1 ponto de fadiga e 1 PV por dia; menos de um litro por dia, 2 "
        "de cada",
        reading=RUNNING_OUT_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:exhaustion-effects",
        "Tabela I",
        "Os efeitos de cada nível da Tabela I: Exaustão, em GURPS",
        "A Tabela I dá um efeito por nível de exaustão, todos de outro sistema (DESV, "
        "modificadores de atributo, dano de CON).",
        "Sessão do Mestre, Tabela I: Exaustão",
        "1 — DESV em todas as rolagens\n2 — Não adiciona modificadores de atributos às rolagens"
        "\n3 — 1d4 de dano de CON / dia",
        "Como se joga (v11), §1.4 e §6",
        "Modificadores são ditos antes dos dados, no nível (§1.4). Fadiga é perda de ST (§6).",
        reading=EXHAUSTION_EFFECTS_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:darkness-lights",
        "1. Encontros; 4. Fim do Turno (masmorra)",
        "Quando a luz acaba: a «total escuridão» que torna o perigo Mortal",
        "O texto diz que a total escuridão torna o perigo Mortal e manda atualizar os marcadores "
        "das fontes de luz, sem dizer que a última luz apagada é a total escuridão.",
        "Sessão do Mestre, masmorra",
        "Total escuridão sempre torna o nível de perigo Mortal.\nO Mestre atualiza os timers e "
        "os registros de tempo, com atenção especial às fontes de luz, à duração das magias e à "
        "necessidade de descanso do grupo.",
        reading=DARKNESS_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:disease",
        "Tabela H",
        "Percalço 10: «Doença», sem dizer qual",
        "A linha 10 da Tabela H dá uma doença ao grupo sem dizer qual, nem o seu efeito.",
        "Sessão do Mestre, Tabela H: Percalços",
        "10 — Roedores/pestes infestam. Doença.",
        "Como se joga (v11), Doença",
        "Teste de HT, com o redutor da doença, uma vez por dia; três sucessos seguidos curam, "
        "três falhas agravam.",
        reading=DISEASE_READING,
        document=PROCEDURE,
    ),
    DivergenceSeed(
        "procedure:dungeon-sleep-rest",
        "Descansar (masmorra)",
        "Dormir na masmorra «seguindo o procedimento de Descansar do Hexcrawl»",
        "O texto manda seguir o Descansar da jornada ao dormir na masmorra, sem dizer quanto "
        "sono é o descanso, nem o que interrompe o sono.",
        "Sessão do Mestre, Descansar (masmorra)",
        "Dormir por 8 horas em uma dungeon cheia de monstros é um processo extremamente difícil."
        "\nSiga o procedimento de Descansar do Hexcrawl, porém rolando na Tabela B: Percalços da "
        "Dungeon e rolando encontros aleatórios seguindo a Tabela C: Descansando na Dungeon.",
        reading=DUNGEON_SLEEP_READING,
        document=PROCEDURE,
    ),
)


@dataclass(frozen=True)
class DivergenceCorrectionSeed:
    """A line of a seeded pendência that a campaign seeded earlier still says as it was: the
    seed corrects it there (a Correction that keeps what it said), and only where it still says
    ``before`` — a line the Árbitro changed since is his."""

    source_key: str
    divergence_key: str
    field: str
    before: str
    after: str
    reason: str


DIVERGENCE_CORRECTIONS: tuple[DivergenceCorrectionSeed, ...] = (
    DivergenceCorrectionSeed(
        "procedure:exhaustion-reading-counted",
        "procedure:exhaustion",
        "reading",
        EXHAUSTION_READING_BEFORE,
        EXHAUSTION_READING,
        "O rastreador de exploração conta os pontos de exaustão (a hora sem descanso na "
        "masmorra, e na jornada o avanço forçado e o dia sem Descansar): a leitura dizia que o "
        "site não os contava.",
    ),
    DivergenceCorrectionSeed(
        "procedure:weather-drift-3-6-reading-kept",
        "procedure:weather-drift-3-6",
        "reading",
        WEATHER_SILENT_READING_BEFORE,
        WEATHER_SILENT_READING,
        "A jornada guarda o clima e o rola a cada rodada: com 3 a 6 ele fica como está, e a "
        "leitura diz agora o que o rastreador faz.",
    ),
    DivergenceCorrectionSeed(
        "procedure:panic-test-backslash",
        "procedure:panic-test",
        "side_a",
        PANIC_TEST_SIDE_A_BEFORE,
        PANIC_TEST_SIDE_A_BEFORE.replace("3:6 | Encontro", "3:6 \\| Encontro"),
        "O texto escreve «3:6 \\| Encontro Aleatório», com a barra invertida; a citação a tinha "
        "tirado.",
    ),
    DivergenceCorrectionSeed(
        "procedure:undefined-lost-regional",
        "procedure:undefined-results",
        "reading",
        UNDEFINED_READING_BEFORE,
        UNDEFINED_READING,
        "A jornada rola na Tabela de Encontros da Região que o Árbitro cria, e o grupo perdido "
        "não avança mais como se não estivesse (pendência própria): a leitura dizia o contrário.",
    ),
    DivergenceCorrectionSeed(
        "procedure:food-water-counted",
        "procedure:food-water",
        "reading",
        FOOD_WATER_READING_BEFORE,
        FOOD_WATER_READING,
        "A jornada conta a comida e a água de cada personagem e do grupo: a leitura dizia que o "
        "site não contava as rações de ninguém.",
    ),
    DivergenceCorrectionSeed(
        "procedure:forced-march-con-modifier",
        "procedure:forced-march-con",
        "reading",
        _MESTRE_CHOOSES,
        FORCED_MARCH_READING,
        "A DC da Tabela B subia sem mudar nada em GURPS: a leitura agora a liga a um modificador "
        "no HT, e o rastreador só aceita a rolagem que o traz.",
    ),
    DivergenceCorrectionSeed(
        "procedure:craft-ammunition-counted",
        "procedure:craft-ammunition-des",
        "reading",
        CRAFT_READING_BEFORE,
        CRAFT_READING,
        "A jornada conta a munição de cada personagem: a leitura diz agora quanto o teste cria.",
    ),
)


# --- the Árbitro's skill tables (canon.skills): what he must confirm or complete -----------------

SKILL_COSTS_KEY = "skill-costs:confirm-02-4"
SKILL_CATALOGUE_KEY = "skill-catalogue:complete"

SKILL_DIVERGENCES: tuple[DivergenceSeed, ...] = (
    DivergenceSeed(
        SKILL_COSTS_KEY,
        "3.2",
        "Confirmar a tabela de custo de perícias contra o `02` §4",
        "O cânone não traz a tabela de custo de perícias: a §3.2 a manda para o livro (pág. "
        "43–44) e para o `02` §4, que o site não tem. A tabela que o site usa para auditar as "
        "fichas (NH que os pontos compram, pontos que um NH custa) é uma transcrição das duas "
        "tabelas do livro, físicas e mentais, semeada como dado do Árbitro. Confira-a linha por "
        "linha com o `02` §4 e corrija o que diferir em /console/custo-de-pericias/ (cada "
        "mudança fica no histórico da linha).",
        side_a_label=f"{CANON}, §3.2 e §9 item 1",
        side_a="A tabela de custo está no livro (pág. 43–44) e é assunto de criação, não de mesa. "
        "O livro traz duas tabelas — físicas e mentais — e a física não tem coluna Muito Difícil. "
        "Nas mentais, ½ ponto compra Fácil em IQ−1; 1 ponto compra Fácil em IQ. O hoplita tem "
        "Lança 17 com 16 pontos, que é DX+3 numa perícia Física/Média.",
        side_b_label="Transcrição das duas tabelas do livro (custo-de-pericias.md)",
        side_b="Uma transcrição para conferir; não é cânone até o Árbitro confirmá-la contra o "
        "`02` §4.",
        reading="O site usa a transcrição até o Árbitro confirmá-la ou corrigi-la; a "
        "homologação avisa, com a conta, toda linha de ficha que a tabela não explica.",
    ),
    DivergenceSeed(
        SKILL_CATALOGUE_KEY,
        "3.3",
        "Completar o catálogo de perícias: atributo, dificuldade e pré-definidos",
        "«Há exceções, e a descrição de cada perícia manda» (§3.3), mas o cânone só cita a "
        "descrição de duas perícias (Escalada, §3.3; Arremesso de Mágica, §4.11) e diz de uma "
        "que não tem pré-definido (a escrita antiga de Ámenti). O catálogo foi semeado com as "
        "perícias que o cânone e as fichas de demonstração nomeiam: atributo e dificuldade das "
        "que estão nas fichas vêm das fichas; das outras ficam em branco, e o site não dá "
        "número de pré-definido para elas. Confira com o livro e complete em "
        "/console/catalogo-de-pericias/.",
        side_a_label=f"{CANON}, §3.3",
        side_a="A regra geral (pág. 44): Fácil DX−4 ou IQ−4, Média −5, Difícil −6; Muito Difícil "
        "sem pré-definido. Escalada é ST−5 ou DX−5. Arremesso de Mágica: NH em Arremesso, ou DX−3.",
        reading="Sem a descrição no catálogo, vale a regra geral por dificuldade (leitura "
        "«catalogue_general_rule»); sem dificuldade, nenhum número.",
    ),
)
