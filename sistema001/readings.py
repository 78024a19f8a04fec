"""Readings: the engine's answer where the chapter cites a rule it does not contain, or leaves a
question open; and the chapter's own slips.

Chapter «4. Combate» (docs/canon/outro-sistema-combate.txt) relies on the size of each
attribute's die, the «Bônus de Força / Mobilidade / Acuidade», vantagem and desvantagem, the
Tabela de Níveis de Dificuldade and whether a test passes on ≥ or >, the maximum PV, the
«seção de Testes» the criticals refer to, and distances (the chapters «Representação
Numérica», «Armas e Equipamentos», «Domínio da Magia»). Each is here as a ``Reading``: the
question, in Portuguese, and the answer the site uses until the Árbitro decides — the
Árbitro's data, the Mestre's input, a stated reading, or (``refuses=True``) a refusal: the
rule raises ``AwaitsArbitro`` until the Árbitro has answered. The site seeds each as an open
pendência in the Árbitro's console and names it wherever a number depends on it.

``SLIPS``: where the chapter contradicts itself (its examples against its tables); the engine
follows the table, and each slip is registered as a divergence.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Reading:
    """One open question, in Portuguese, with the answer the engine uses until the Árbitro
    decides. ``section`` is the chapter heading the question is about; ``kind`` says whose
    answer it is: ``"leitura"`` (the site's stated reading), ``"mestre"`` (the Mestre gives
    the number), ``"arbitro"`` (the Árbitro's data); ``refuses``: the rule is refused
    (``AwaitsArbitro``) until the Árbitro answers."""

    key: str
    section: str
    question: str
    answer: str
    kind: str = "leitura"
    refuses: bool = False


@dataclass(frozen=True)
class Slip:
    """A place where the chapter contradicts itself: ``section``, the ``text`` as printed,
    what it contradicts (``against``) and what the engine follows (``followed``)."""

    key: str
    section: str
    text: str
    against: str
    followed: str


READINGS: tuple[Reading, ...] = (
    # --- what the chapter cites and does not contain ---------------------------------------
    Reading(
        "attribute_die_size",
        "Iniciativa; Ataques; Defesas",
        "Qual é o tamanho do Dado de cada atributo («Dado de Mobilidade», «Dado de Acuidade»)? "
        "O capítulo o cita e nunca o dá.",
        "O Mestre informa, para cada combatente, o número de faces do dado de cada um dos seis "
        "atributos (de 2 a 100).",
        kind="mestre",
    ),
    Reading(
        "attribute_bonus_all",
        "Ataque Corpo a Corpo; Deslocamento e Alcance em Combate",
        "O que é o «Bônus de Mobilidade» e o «bônus de Acuidade»? O capítulo só diz, para a "
        "Força, «1 para cada múltiplo de 5 em Força».",
        "A mesma regra para todo atributo: +1 para cada múltiplo inteiro de 5 (0–4 → 0, 5–9 → "
        "1, 10–14 → 2…).",
    ),
    Reading(
        "movement_medium_size_only",
        "Deslocamento e Alcance em Combate",
        "Quanto se desloca uma criatura que não é de tamanho médio? O capítulo remete à "
        "«Representação Numérica».",
        "O site calcula só o tamanho médio (5 metros/espaços + bônus de Mobilidade); para outros "
        "tamanhos o Mestre informa o deslocamento.",
        kind="mestre",
    ),
    Reading(
        "edge_two_dice",
        "Condições (Contido, Invisível, Desorientado)",
        "Como funcionam Vantagem e Desvantagem numa rolagem? O capítulo as usa e não as define.",
        "Rola-se o dado do atributo duas vezes e fica o maior (Vantagem) ou o menor "
        "(Desvantagem); o atributo e os modificadores somam-se a ele. O crítico olha o dado que "
        "ficou.",
    ),
    Reading(
        "edge_cancel",
        "Condições",
        "Vantagem e Desvantagem ao mesmo tempo, ou duas Vantagens, como se combinam?",
        "Vantagem e Desvantagem se anulam (rolagem normal); várias do mesmo tipo contam uma vez.",
    ),
    Reading(
        "test_pass_comparison",
        "Defesas por Tipo de Ataque (Ataque Interno); Testes",
        "Um teste passa quando iguala o ND ou só quando o supera? O capítulo remete à seção de "
        "Testes, que não contém.",
        "Onde o capítulo diz «superar» (Teste de Força contra o ND Estrutural, o alvo Contido "
        "contra o ND do agarrão), o total tem de ser maior que o ND. Nos demais testes contra "
        "ND o site recusa e aguarda a decisão do Árbitro.",
        kind="arbitro",
        refuses=True,
    ),
    Reading(
        "nd_table",
        "Ataque Interno; Composição do ND Estrutural",
        "Quais são os valores da «Tabela de Níveis de Dificuldade» citada pelo capítulo?",
        "O ND de cada teste é informado pelo Mestre (ou pela descrição da vantagem ou magia); "
        "para objetos, a Tabela de Estrutura do próprio capítulo.",
        kind="mestre",
    ),
    Reading(
        "test_formula",
        "Ataque Interno; Ataque Furtivo; Quebrar e Destruir",
        "Como se rola um teste de atributo («teste de Mobilidade», «Teste de Força», «teste de "
        "resistência»)? O capítulo remete à seção de Testes.",
        "Dado do atributo + atributo + modificadores, como Ataque, Defesa e Iniciativa.",
    ),
    Reading(
        "test_criticals",
        "Críticos em Combate",
        "«Acertos críticos e falhas críticas seguem as regras descritas na seção de Testes»: "
        "valem também para testes fora do ataque?",
        "O site aplica os críticos só aos ataques, como o capítulo os descreve («Críticos em "
        "Combate»); críticos em outros testes aguardam a seção de Testes.",
    ),
    Reading(
        "critical_minimum_5",
        "Críticos em Combate",
        "«Maior valor do dado: Dobra o atributo (mínimo 5) e o dano.» O mínimo 5 é do atributo "
        "dobrado ou do atributo antes de dobrar?",
        "Do atributo dobrado: o atributo conta em dobro, e no mínimo 5.",
    ),
    Reading(
        "pv_max",
        "Resolução de Dano",
        "Quantos Pontos de Vida máximos tem um personagem? O capítulo não diz como calculá-los.",
        "O Mestre informa os PV máximos e os PV atuais de cada combatente.",
        kind="mestre",
    ),
    Reading(
        "pv_floor_zero",
        "O que o Dano Representa",
        "Os PV podem ficar negativos? O capítulo só fala em «atingir 0 PV».",
        "Não: os PV param em 0; a consequência de 0 PV é narrada pelo Mestre.",
    ),
    Reading(
        "distances",
        "Ataque À Distância; Dano de Arma de Arremesso",
        "Qual o alcance das armas de arremesso e de disparo? O capítulo remete a «Armas e "
        "Equipamentos».",
        "O Mestre decide se o alvo está ao alcance; o site só aplica as penalidades do Ataque à "
        "Distância que o capítulo lista.",
        kind="mestre",
    ),
    Reading(
        "magic_attacks",
        "Defesas por Tipo de Ataque",
        "«Ataques com Magia: Seguem regras específicas, descritas no capítulo Domínio da "
        "Magia.» Quais?",
        "O site não resolve magias: o Mestre as descreve como ataques (em área, interno ou "
        "direto) com o tipo de dano mágico ou a natureza mágica.",
        kind="mestre",
    ),
    # --- ambiguities of the chapter ----------------------------------------------------------
    Reading(
        "expiry_same_initiative_missing",
        "Duração dos Efeitos",
        "«termina imediatamente antes do turno que possui a mesma Iniciativa, após transcorrer "
        "a quantidade indicada de rodadas»: e se há empate nessa Iniciativa, ou nenhum turno "
        "com ela (o combatente saiu do combate)?",
        "Termina no início do primeiro turno, na rodada em que se completam as rodadas, cuja "
        "Iniciativa é igual ou menor que a do turno em que foi aplicado: num empate, antes do "
        "primeiro dos turnos empatados; sem turno com essa Iniciativa, antes do primeiro turno "
        "abaixo dela (ou no início da rodada seguinte, se não houver).",
    ),
    Reading(
        "condition_target_turn_count",
        "Duração das Condições; Manobras de Combate",
        "«até o início do segundo turno consecutivo do alvo» e «até o início do próximo turno "
        "do alvo»: o turno em que a condição é aplicada conta?",
        "Não: contam-se os turnos do alvo que começam depois da aplicação. Aplicada no próprio "
        "turno do alvo, o primeiro turno contado é o da rodada seguinte.",
    ),
    Reading(
        "late_entry_acts_next_round",
        "Entrada Tardia",
        "Quem entra tarde rola Iniciativa e «só passa a agir a partir da rodada seguinte»: "
        "efeitos com duração contam a rodada de entrada?",
        "A Iniciativa é rolada ao entrar; o combatente entra na ordem a partir da rodada "
        "seguinte e as durações correm normalmente pelas rodadas.",
    ),
    Reading(
        "bleeding_damage_type",
        "Lista de Condições (Sangrando)",
        "Sangrando causa «2 PV de dano físico»: de que tipo de dano?",
        "Do tipo físico informado ao aplicar a condição (corte, perfuração ou contusão, o do "
        "ferimento); se nada for informado, corte.",
    ),
    Reading(
        "poison_is_chemical",
        "Imunidade ao tipo de dano; Lista de Condições (Envenenado)",
        "«dano de veneno» e «imune a veneno»: não há tipo «veneno» na lista de Tipos de Dano.",
        "Veneno é dano Químico («Ácidos, venenos, gases, toxinas…»). Os PV por turno e demais "
        "efeitos do veneno são informados pelo Mestre ao aplicar Envenenado.",
        kind="mestre",
    ),
    Reading(
        "mundane_immune_conditions",
        "Tipo de Dano e Natureza do Efeito; Natureza das Condições",
        "Uma criatura imune a efeitos mundanos também ignora condições mundanas?",
        "Sim: condições seguem a natureza do efeito que as causou; uma condição mundana não tem "
        "efeito mecânico sobre ela, uma mágica age normalmente.",
    ),
    Reading(
        "condition_scale_non_numeric",
        "Interação com Condições",
        "Resistência a uma condição «reduz pela metade seus efeitos numéricos ou penalidades, "
        "arredondando para baixo»: como se arredonda uma penalidade, e o que acontece com os "
        "efeitos não numéricos (Vantagem, Desvantagem, não poder agir, deslocamento à metade)?",
        "A metade arredonda o tamanho do número para baixo (−5 → −2, +5 → +2), inclusive o dano "
        "por turno (2 → 1); a vulnerabilidade dobra os mesmos números. Os efeitos não numéricos "
        "e o deslocamento à metade ficam como estão; a imunidade anula todos.",
    ),
    Reading(
        "condition_test_scope",
        "Lista de Condições (Exaurido, Ferido, Cego, Atraído)",
        "«testes físicos», «todos os testes», «testes de Mobilidade e Acuidade», «testes de "
        "Astúcia e Acuidade»: valem para ataque e Defesa?",
        "Sim, pelo atributo rolado (Mobilidade no corpo a corpo e na Defesa, Acuidade à "
        "distância): Ferido vale em toda rolagem; Exaurido nas de Mobilidade, Acuidade, Força e "
        "Resistência; Atraído nas de Astúcia e Acuidade; Cego nas de Mobilidade e Acuidade "
        "quando o Mestre diz que dependem da visão.",
    ),
    Reading(
        "stunned_one_action",
        "Lista de Condições (Atordoado)",
        "Atordoado faz «apenas 1 Ação em seu turno, seja de Execução ou de Movimento»: pode "
        "fazer uma Ação Completa?",
        "Não: só uma Ação de Movimento ou uma de Execução (mais as Ações Livres).",
    ),
    Reading(
        "paralysed_defence",
        "Lista de Condições (Paralisado)",
        "Paralisado não pode «usar Mobilidade de qualquer forma»: como se defende?",
        "A Defesa soma só o dado, sem a Mobilidade; o site mostra a linha e o Mestre confirma.",
    ),
    Reading(
        "initiative_tie_reroll",
        "Empates de Iniciativa",
        "«os envolvidos rolam novamente entre si»: com que dado, e o novo resultado muda a "
        "Iniciativa?",
        "Cada envolvido rola de novo o Dado de Mobilidade só para desempatar; a Iniciativa "
        "continua a mesma e o desempate fica registrado. Repete-se enquanto houver empate.",
    ),
    Reading(
        "condition_same_key",
        "Interação com Condições",
        "«Se um personagem sofrer novamente a mesma condição, apenas a duração é renovada»: e se "
        "a nova vem de outra fonte (Desprevenido contra outro agressor, Contido por outro)?",
        "É a mesma condição: a nova substitui a antiga no lugar dela, com a sua duração e a sua "
        "fonte.",
    ),
    # --- readings of the engine's second half (attacks, damage, objects, quick) -------------
    Reading(
        "ranged_penalties_worst",
        "Ataque À Distância",
        "«Alvo engajado com aliado corpo a corpo: -2» e «Alvo adjacente a um aliado: -1» ao "
        "mesmo tempo: somam?",
        "Não: vale a pior das duas (−2); a do atirador engajado (−5) soma-se a ela.",
    ),
    Reading(
        "graze_minimum_only",
        "Resolução de Dano",
        "«o ataque acerta de raspão e causa apenas o dano mínimo 1»: crítico ou vulnerabilidade "
        "mudam esse 1?",
        "Não: o raspão causa 1; só a resistência ou a imunidade a todos os tipos do ataque o "
        "cancelam (0).",
    ),
    Reading(
        "area_half_rounding",
        "Defesas por Tipo de Ataque (Ataque em Área)",
        "«Sucesso: reduz o dano pela metade, mínimo 1»: a metade arredonda como?",
        "Para baixo, em cada parte do dano; depois vale o mínimo 1.",
    ),
    Reading(
        "resistance_and_vulnerability",
        "Resistência ao tipo de dano; Vulnerabilidade ao tipo de dano",
        "Um alvo resistente e vulnerável ao mesmo tipo de dano: o que acontece?",
        "Aplica-se a metade (arredondada para baixo) e depois o dobro.",
    ),
    Reading(
        "minimum_after_reduction",
        "Regras Gerais de Dano",
        "«A redução é aplicada após resistências e imunidades»: pode levar o dano abaixo do "
        "mínimo 1?",
        "Não: o mínimo 1 continua valendo depois da redução, salvo se cancelado (resistência, "
        "imunidade ou efeito que o anule).",
    ),
    Reading(
        "multi_type_minimum",
        "Ataques com Múltiplos Tipos de Dano",
        "Num ataque de vários tipos, a resistência a um só tipo cancela o dano mínimo?",
        "Não: o mínimo só é cancelado quando todas as partes são resistidas ou imunes.",
    ),
    Reading(
        "mundane_immune_is_immunity",
        "Tipo de Dano e Natureza do Efeito",
        "«Criaturas podem ser resistentes ou imunes a efeitos (e danos) mundanos»: a marca do "
        "combatente é resistência ou imunidade?",
        "Imunidade: anula toda parte de dano não mágica; o dano mágico age normalmente.",
    ),
    Reading(
        "multi_type_split",
        "Ataques com Múltiplos Tipos de Dano",
        "Uma arma de dois tipos (Sabre de Luz: Corte e Fogo): como o dano se divide entre eles?",
        "O Mestre informa quanto do dano é de cada tipo, somando o dano da arma.",
        kind="mestre",
    ),
    Reading(
        "maneuver_graze_hits",
        "Manobras de Combate",
        "Um raspão («o ataque acerta de raspão») conta como acerto para a manobra?",
        "Sim; Desarmar continua exigindo superar a Defesa por 5 ou mais.",
    ),
    Reading(
        "grapple_nd_attack_total",
        "Manobras de Combate (Agarrar)",
        "«esse vira o novo ND para o alvo Contido tentar superar»: o que vira o ND?",
        "O total do ataque de quem agarrou.",
    ),
    Reading(
        "grapple_escape_test",
        "Manobras de Combate (Agarrar)",
        "Que teste o alvo Contido rola para superar o ND do agarrão?",
        "O Mestre informa o atributo do teste; o total precisa superar o ND.",
        kind="mestre",
    ),
    Reading(
        "quick_graze_hits",
        "(Opcional) Combate Rápido",
        "No Combate Rápido, um raspão reduz a Resistência?",
        "Sim: é um acerto, −1 de Resistência.",
    ),
    Reading(
        "quick_critical_two",
        "(Opcional) Combate Rápido",
        "«Críticos: Acertos e falhas críticas funcionam exatamente como no combate normal»: um "
        "acerto crítico tira quanto de Resistência?",
        "2: o crítico dobra o dano, e o dano do Combate Rápido é 1 de Resistência.",
    ),
    Reading(
        "direct_attacks",
        "Situações de Combate (Cobertura)",
        "O que é um «ataque direto» para as coberturas?",
        "Ataques corpo a corpo e à distância; ataques em área e internos não são diretos.",
    ),
    Reading(
        "concealment_worst",
        "Situações de Combate (Camuflagem)",
        "Camuflagem parcial e total ao mesmo tempo: rolam-se as duas?",
        "Não: vale só a total (1 a 5 no 1d10 falha).",
    ),
    Reading(
        "sneak_attack_half_rounding",
        "Situações de Combate (Ataque Furtivo)",
        "«metade do Dado de Acuidade + Acuidade do alvo»: a metade de um dado ímpar arredonda "
        "como?",
        "Para baixo (metade das faces do dado).",
    ),
    Reading(
        "object_half_hardness_rounding",
        "Tabela de Dureza do Material",
        "Dureza ×0,5 sobre uma soma ímpar dá meio ponto: como arredondar o ND Estrutural?",
        "Para baixo.",
    ),
    Reading(
        "object_collapse_at_zero",
        "Causando Dano Estrutural",
        "«reduzir o ND Estrutural até que ele colapse»: em que valor a estrutura colapsa?",
        "Em ND 0.",
    ),
    Reading(
        "object_open_ended_values",
        "Tabela de Tamanho; Tabela de Estrutura",
        "«Colossal 30+» e «Militar 30+»: quanto valem?",
        "30, salvo se o Mestre informar um valor maior.",
        kind="mestre",
    ),
    Reading(
        "fixed_defence_rounding",
        "(Opcional) Combate Rápido",
        "«Defesa Fixa = Metade do Dado de Mobilidade + Mobilidade»: metade de um dado ímpar "
        "arredonda como?",
        "Para baixo.",
    ),
)

READINGS_BY_KEY = MappingProxyType({reading.key: reading for reading in READINGS})

SLIPS: tuple[Slip, ...] = (
    Slip(
        "palisade_hardness",
        "Exemplos de Objetos e Estruturas (Muro de paliçada)",
        "«Dureza: Madeira pesada = ×2. … ND = 35 × 1,5 = 70. Dano mínimo = 14.»",
        "A Tabela de Dureza e o próprio exemplo dão Madeira pesada ×2: 35 × 2 = 70, dano "
        "mínimo 14; o «1,5» impresso não é a dureza da tabela.",
        "A tabela: ×2 (ND 70, dano mínimo 14).",
    ),
    Slip(
        "sword_size",
        "Exemplos de Objetos e Estruturas (Espada de metal)",
        "«Espada de metal — Tamanho: Pequeno = 5.»",
        "A Tabela de Tamanho põe «espada comum» em Médio 10.",
        "O exemplo como impresso (Pequeno 5, ND 40) nos casos do capítulo; a tabela para "
        "objetos novos. O Árbitro decide qual vale.",
    ),
    Slip(
        "bow_size",
        "Exemplos de Objetos e Estruturas (Arco e flecha de madeira)",
        "«Arco e flecha de madeira — Tamanho: Pequeno = 5.»",
        "A Tabela de Tamanho põe «Arco» em Médio 10.",
        "O exemplo como impresso (Pequeno 5, ND 15) nos casos do capítulo; a tabela para "
        "objetos novos. O Árbitro decide qual vale.",
    ),
)

SLIPS_BY_KEY = MappingProxyType({slip.key: slip for slip in SLIPS})


def reading(key: str) -> Reading:
    """The reading ``key``; ``KeyError`` if there is none (a programming error)."""
    return READINGS_BY_KEY[key]
