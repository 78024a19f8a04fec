"""Readings: the engine's answer where the canon leaves a question open.

Each is given by the canon README ("Questions the canon leaves open") or forced by a gap the
engine met. The site names the reading wherever a number depends on it (``Explanation.readings``
holds these keys) and seeds each as an open divergence for the Árbitro.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """One open question, in Portuguese, with the answer the engine uses until the Árbitro
    decides. ``section`` is the canon section the question is about."""

    key: str
    section: str
    question: str
    answer: str


READINGS: tuple[Reading, ...] = (
    Reading(
        "ranged_target_low_posture",
        "4.11",
        "Tiro contra alvo ajoelhado, agachado, sentado ou deitado: §4.11 dá «de −2 a −7, conforme a posição». Quanto vale cada posição?",
        "O mais brando, −2, para qualquer posição abaixo de de pé, aplicado pela posição do alvo no combate; mais que isso (só a cabeça de fora) o Mestre anuncia antes dos dados.",
    ),
    Reading(
        "staggered_below_1_hp",
        "5.4",
        "Abaixo de 1 PV, Deslocamento e Esquiva continuam caindo à metade? (§5.4 diz «3, 2 ou 1».)",
        "Sim: a metade vale a 3 PV ou menos, inclusive 0 e negativos.",
    ),
    Reading(
        "carga_uses_sheet_st",
        "6.2",
        "A fadiga baixa a ST usada na Carga? (§6.2 baixa a ST só de perícias e testes baseados em ST.)",
        "Não: a Carga usa a ST da ficha.",
    ),
    Reading(
        "halve_once",
        "5.4, 6.2",
        "Com 3 PV ou menos e ST 3 ou menos por fadiga ao mesmo tempo, o Deslocamento cai à metade uma ou duas vezes?",
        "Uma vez.",
    ),
    Reading(
        "combat_reflexes_after_halving",
        "4.6, 5.4",
        "Reflexos em Combate e a Esquiva à metade: o que vem primeiro?",
        "Primeiro a metade, depois o +1.",
    ),
    Reading(
        "lift_between_10_and_15_st",
        "2.2",
        "Entre 10 × ST e 15 × ST, o que acontece?",
        "O peso se ergue, mas não se carrega: Deslocamento 0.",
    ),
    Reading(
        "move_not_negative",
        "2.1",
        "Se a Velocidade Básica menos a Carga dá menos que zero, qual é o Deslocamento?",
        "0: o cânone não dá Deslocamento negativo.",
    ),
    Reading(
        "dodge_follows_move_at_low_st",
        "6.2",
        "Com ST 3 ou menos por fadiga, a Esquiva cai à metade junto com o Deslocamento? (§6.2 só nomeia o Deslocamento.)",
        "Sim: Esquiva = Deslocamento (§2.1).",
    ),
    # --- defence (§4.6–4.7, §4.14) and damage (§4.13, §5.5) ---
    Reading(
        "two_weapons_parries_any_hand",
        "4.7",
        "«2 com duas armas»: as duas aparadas da rodada são uma com cada arma, ou quaisquer duas?",
        "Quaisquer duas, com qualquer das armas: o cânone não amarra uma aparada a cada mão. Só a adaga do esgrimista (§4.14) tem conta própria.",
    ),
    Reading(
        "animal_dodge_rounds_down",
        "4.7",
        "Esquiva de animal: a metade do Deslocamento ou da DX arredonda para baixo ou para cima? E o teto 10 vem antes ou depois de Atordoado e Reflexos em Combate?",
        "Para baixo, como toda metade que o cânone arredonda (§4.9, §4.12, §5.4). O teto 10 é da esquiva do animal; Atordoado (−4) e Reflexos em Combate (+1) vêm depois.",
    ),
    Reading(
        "dodge_almost_anything",
        "4.7",
        "A Esquiva vale «contra quase tudo que você sabe que vem»: o que fica de fora no «quase»?",
        "Só o que o cânone nomeia: quem não sabe do ataque, golpe fulminante, facada pelas costas, emboscada e armadilha (§4.6), e quem está agarrado (§5c). Contra todo tipo de ataque que o site conhece, inclusive bala e feixe, a Esquiva vale.",
    ),
    Reading(
        "unaware_no_active_defence",
        "4.6, 5e",
        "Quem não sabe que vai ser atacado tem Bloquear e Aparar? (§4.7 só diz que a Esquiva exige saber.)",
        "Não: sem saber do ataque não há defesa ativa nenhuma, só a Passiva (§4.6: a Passiva protege «inclusive quem … não sabe que vai ser atacado»; §5e).",
    ),
    Reading(
        "best_defence_when_none_chosen",
        "4.1, 4.6",
        "Quando o defensor não escolheu defesa (nem deixou escolha para o turno), qual defesa ativa vale? (O cânone diz que ele escolhe na hora, entre as que a manobra permite.)",
        "A de maior total entre as que a manobra e a rodada ainda deixam; no empate, a Esquiva (que não tem limite por rodada), depois Bloquear, depois Aparar. Em Defesa Total, as duas maiores, diferentes. O registro diz que foi a escolha padrão.",
    ),
    Reading(
        "block_not_against_unarmed",
        "4.7",
        "Bloquear vale contra golpe de mão limpa (soco, chute)? (§4.7 lista lâmina, clava, machado, lança, arremesso, flecha, pedra de funda.)",
        "Não: o golpe de mão limpa não está na lista. Aparar com arma vale contra ele (§4.7, pág. 99), e a Esquiva também.",
    ),
    Reading(
        "thrown_weapon_parry_is_the_parrying_weapon",
        "4.7",
        "«Arma arremessada apara a −1; faca arremessada, −2»: é a arma que apara, ou o ataque que se apara? E Aparar vale contra arremesso, se só vale contra «arma de mão»?",
        "É a arma que apara, como «Faca apara a −1» na mesma frase; e Aparar não vale contra arremesso, que não é arma de mão. Bloquear e Esquivar valem.",
    ),
    Reading(
        "parry_break_weight_and_quality",
        "4.7",
        "Quebra ao aparar: como se combinam o peso (1/3 se a arma que vem pesa 3 vezes ou mais) e a qualidade (espada barata 2/3, superior 1/6, altíssima nunca)?",
        "A qualidade da espada troca o 1/3, e só quando a arma que vem pesa 3 vezes ou mais que a que apara; abaixo disso nada quebra ao aparar. Qualidade de arma que não é espada: o cânone não dá número.",
    ),
    Reading(
        "vitals_triple_replaces_double",
        "5.5",
        "«Órgãos vitais recebem dano triplo de perfurante»: o triplo soma-se ao ×2 da perfuração ou toma o lugar dele?",
        "Toma o lugar: o que passa pela RD é multiplicado por 3, não por 2 (nem por 6).",
    ),
    Reading(
        "overpenetration_cap_on_hp_lost",
        "4.13",
        "Os tetos de trespassar comparam a Vitalidade com o dano rolado ou com os PV perdidos?",
        "Com os PV perdidos, depois da RD e do multiplicador: é o ferimento que não pode passar de HT (ou 3 × HT).",
    ),
    Reading(
        "golpe_de_ponta_is_gdp",
        "4.13, 4.9",
        "Que ataque é «golpe de ponta» no teto do tronco?",
        "O que tira o dano da coluna Golpe de Ponta (GDP) da tabela da §4.9 — lança, punho, estocada —, qualquer que seja o tipo de dano. Balanço e dano fixo («1d+2 perf») não são.",
    ),
    Reading(
        "overpenetration_rows_scope",
        "4.13",
        "A linha «Cabeça ou órgãos vitais» vale só para golpe de ponta? Feixe no tronco tem teto? E olhos?",
        "Cabeça e órgãos vitais: qualquer ataque, teto 3 × HT. Feixe, bola de fogo e descarga elétrica têm os dois tetos, dobrados: 2 × HT no tronco mesmo sem ser golpe de ponta, 6 × HT na cabeça e nos órgãos vitais. Olhos não estão na tabela: sem teto de trespassar (o de membro é da §5.5).",
    ),
    Reading(
        "critical_miss_6_like_5",
        "4.8",
        "O 6 da Tabela de Erros Críticos diz «Como o 5, mas metade do dano». A exceção do 5 (ataque perfurante ou de longo alcance rola de novo) vale para o 6?",
        "Sim: o 6 é o 5 inteiro, exceção incluída, com metade do dano. O 5 e o 6 contam os dois como «atingir a si mesmo», e na segunda vez vale o dano da linha que saiu.",
    ),
    Reading(
        "critical_miss_reroll_keeps_new",
        "4.8",
        "Quando o 5 (ou o 6) manda rolar de novo e sai outro resultado, vale o novo? (O cânone diz «vale o novo» só no 3 e no 4.)",
        "Sim: vale o novo, como no 3 e no 4.",
    ),
    Reading(
        "critical_miss_14_impaling_like_9",
        "4.8",
        "No 14, «ataque perfurante apenas derruba a arma, como o 9»: vale também a exceção do 9, arma barata se quebra?",
        "Sim: é o 9 inteiro, e arma barata se quebra.",
    ),
    Reading(
        "critical_miss_unarmed_14",
        "4.8",
        "Desarmado, o 14 («a arma voa da mão») vira 1D−3 na mão ou no pé? A regra do desarmado só nomeia «arma quebrada», «arma derrubada» e «arma gira na mão».",
        "Sim: arma que voa da mão é arma derrubada; desarmado, 1D−3 de dano na mão ou no pé que golpeou.",
    ),
    Reading(
        "critical_head_brain_and_eyes",
        "4.8, 5.5",
        "Golpe fulminante em ataque dirigido ao cérebro ou aos olhos rola na Tabela de Golpes Fulminantes na Cabeça?",
        "Sim: cérebro e olhos ficam na cabeça, e o ataque foi dirigido a ela.",
    ),
    Reading(
        "critical_hit_vitals_not_torso",
        "4.8, 5.5",
        "No 3 e no 18 da Tabela de Golpes Fulminantes, órgãos vitais contam como «Tronco»?",
        "Não: a §5.5 lista órgãos vitais e tronco como locais separados; órgãos vitais são «outra parte», triplo do dano.",
    ),
    Reading(
        "spell_failure_cost_zero",
        "4.15",
        "Falha comum num feitiço de custo 0 gasta 1 ponto? («Falha comum gasta 1 ponto, não o custo inteiro da mágica.»)",
        "Não: gasta 0. O ponto da falha comum é um desconto sobre o custo, e a energia gasta nunca passa do custo.",
    ),
    Reading(
        "mana_applies_to_energy_spent",
        "4.15, 6.4",
        "A faixa de mana mexe também no ponto da falha comum e no custo da falha crítica (§4.15)?",
        "Sim: a fadiga paga é a energia gasta pela §4.15 com a regra da faixa — mana alta, metade arredondando para cima (a falha comum continua custando 1); mana muito alta, nenhuma.",
    ),
    Reading(
        "resist_magic_no_weak_will",
        "7.3, 7.1",
        "Na resistência a magia, Vontade Fraca se subtrai? (A §7.3 manda somar «sempre a Força de Vontade» e não fala em Vontade Fraca; a §7.1 a subtrai da Vontade.)",
        "Não: a resistência é o atributo do feitiço mais Força de Vontade mais Abascanto, como a §7.3 escreve.",
    ),
    Reading(
        "resist_at_three_or_less",
        "7.3, 1.1",
        "Se a resistência do alvo fica em 3 ou menos, ele rola?",
        "Não: não se rola com nível efetivo 3 ou menos (§1.1); o alvo não resiste, e a magia funciona.",
    ),
    Reading(
        "fright_margin_at_least_1",
        "5b, 1.2",
        "Qual é a margem de falha de uma Verificação de Pânico que falha pelo 17 ou pelo 18 com Vontade igual ou maior que o dado?",
        "1: quem falhou falhou por pelo menos 1.",
    ),
    Reading(
        "half_move_rounds_down",
        "4.3",
        "«Metade do Deslocamento» no Ataque Total e no Apontar, com Deslocamento ímpar: arredonda como?",
        "Para baixo, como a §5.4 faz com o Deslocamento à metade: Deslocamento 5 anda 2 m apontando; no Ataque Total, 2 m de qualquer jeito.",
    ),
    Reading(
        "terrain_move_rounds_down",
        "5d",
        "Deslocamento pela metade ou a um terço no terreno: arredonda como?",
        "Para baixo, como a §5.4: Deslocamento 5 em terreno ruim anda 2; em terreno muito ruim, 1; Deslocamento 2 em terreno muito ruim, 0.",
    ),
    Reading(
        "simple_order_tie_reroll",
        "4.2",
        "Na sequência simples, e se dois empatarem no maior 1d?",
        "Rolam de novo só os empatados, até um sair maior; dele a vez segue no sentido da mesa. (Dados são a resposta do livro ao empate, como na sequência realista.)",
    ),
    Reading(
        "feint_margin_is_own_margin",
        "4.3, 1.3",
        "Na finta, «a sua margem» é a margem de sucesso de quem finta ou a diferença entre as duas margens da disputa?",
        "A margem de sucesso de quem finta (§1.3). Se ele vence falhando (os dois falham e ele falha por menos), não há margem de sucesso, e nada se subtrai.",
    ),
    Reading(
        "grapple_dx_then_st",
        "5c",
        "«Agarrar e imobilizar … são Disputa de DX e depois de ST»: as duas disputas para cada coisa, ou uma para cada?",
        "Uma para cada: agarrar é a Disputa Rápida de DX; imobilizar quem já está agarrado é a Disputa Rápida de ST.",
    ),
    Reading(
        "grapple_tie_break",
        "5c, 1.5",
        "Como Judô ou Briga «entram como desempate» na disputa de agarrar ou imobilizar?",
        "Empatada a disputa, cada lado rola a que tiver (a maior das duas) numa Disputa Rápida. Se um dos lados não tem nenhuma das duas, ou se empata de novo, ninguém venceu (§1.5).",
    ),
    Reading(
        "attack_17_at_16_plus",
        "4.8, 4.10, 1.2",
        "Com NH efetivo 16 ou mais, um 17 no ataque vai à Tabela de Erros Críticos? (A §4.8 e a linha 4 da §4.10 dizem «17 ou 18»; a §1.2, que cita a pág. 202, diz que 17 com NH 16+ é falha comum.)",
        "Não: erra, e é falha comum (§1.2). A tabela se rola na falha crítica da §1.2 — 18, 17 com NH 15 ou menos, e o resultado que excede o NH em 10 ou mais.",
    ),
    Reading(
        "defence_roll_on_passive_only",
        "4.6, 4.10",
        "Sem defesa ativa (Ataque Total, surpresa, ataque pelas costas), ainda se rola defesa contra a Defesa Passiva? E com PD 0?",
        "Sim: rola-se 3d6 contra a PD, que sempre protege (§4.6), e 3 ou 4 passa sempre, mesmo com PD 0. Só o golpe fulminante dispensa a jogada de defesa (§4.10, linha 4: «sem defesa»). Essa jogada só passa ou falha: não testa defesa ativa nenhuma, então não tem sucesso decisivo nem falha crítica (§1.2).",
    ),
    Reading(
        "forced_ht_roll_at_three_or_less",
        "1.1, 5.2, 5.3, 5.4",
        "Com HT 3 ou menos, o teste de HT que o golpe obriga (prostração, nocaute, morte) se rola?",
        "Não se rola (§1.1), e conta como falho: quem não pode testar não resiste, como na resistência a magia.",
    ),
    Reading(
        "general_default_attribute",
        "3.3",
        "O pré-definido geral «DX−4 ou IQ−4» (e −5, −6) é o melhor dos dois, ou DX para uma perícia e IQ para outra?",
        "DX para perícia física e IQ para mental, como a §3.2 diz que elas rodam; «use o melhor» vale para os pré-definidos que a descrição da perícia lista.",
    ),
    Reading(
        "arm_penalty_by_side",
        "5.5",
        "Braço «−4 ou −2 conforme o lado»: qual braço é −2?",
        "O braço da arma é −2; o outro (o do escudo) é −4.",
    ),
    Reading(
        "crippling_exact_fraction",
        "5.5",
        "«Dano ≥ HT/3» e «≥ HT/2»: arredonda-se a fração?",
        "Não: o dano tem de alcançar a fração exata. HT 10 na mão: 10/3 = 3,33…, incapacita com 4; e o membro nunca toma mais que esses 4 PV.",
    ),
    Reading(
        "first_aid_does_not_add_to_bandage",
        "5.6",
        "Primeiros Socorros «não soma com atadura»: o que recebe quem já foi enfaixado?",
        "O melhor dos dois, não a soma: Primeiros Socorros depois da atadura dão só o que passar do 1 PV dela; atadura depois de Primeiros Socorros não dá nada.",
    ),
    Reading(
        "plain_failure_heals_nothing",
        "5.6",
        "Falha comum em Primeiros Socorros, ou na rolagem semanal do médico: o que acontece? (A tabela só fala de sucesso, decisivo e falha crítica.)",
        "Nada: nenhum PV ganho nem perdido, e as ataduras continuam servindo.",
    ),
    Reading(
        "asphyxia_death_counted_from_faint",
        "6.5",
        "«Se o agressor não soltar, ela morre em 4 minutos»: contados de quando?",
        "Do desmaio (a frase vem depois de «a vítima desmaia»): 4 minutos, 240 turnos de 1 segundo, a partir do turno em que a fadiga iguala a ST.",
    ),
    Reading(
        "leather_fire_dr_rounds_down",
        "5g",
        "«Couro protege pela metade» contra fogo: e a RD ímpar?",
        "Arredonda para baixo, como a metade da RD contra queda (§4.12): couro de RD 3 protege com 1.",
    ),
    Reading(
        "poison_modifier_replaces_type",
        "5g",
        "O teste de HT contra veneno leva «o redutor que o veneno tiver»; o −2 do sonífero na tabela soma com o redutor de um veneno específico?",
        "Não soma: o redutor do veneno específico (do bestiário ou do Mestre) toma o lugar do da tabela; sem ele, vale o da tabela (0, 0 e −2).",
    ),
    Reading(
        "disease_worsens_each_three_failures",
        "5g",
        "Doença: «três falhas agravam». Depois de agravar, a contagem recomeça?",
        "Recomeça: cada três falhas seguidas agravam uma vez; um sucesso zera a contagem de falhas, e uma falha a de sucessos.",
    ),
    Reading(
        "first_aid_kit_bonus_on_infection_roll",
        "5g",
        "«O kit de primeiros socorros dá +1»: +1 em quê?",
        "No teste de HT contra a infecção do ferimento tratado com o kit. Sem kit ninguém trata, e não há +1.",
    ),
    Reading(
        "critical_multiplier_before_all_out_bonus",
        "4.8, 4.3",
        "O dobro ou o triplo do golpe fulminante multiplica também o +2 de dano do Ataque Total (d)?",
        "Não: «todo dobro e triplo se refere ao dano básico dos dados» — o dano da arma rolado; o +2 soma depois.",
    ),
    Reading(
        "critical_head_damage_when_unsaid",
        "4.8",
        "Nos resultados 4 a 7 da Tabela de Golpes Fulminantes na Cabeça, que não falam de dano, o golpe faz dano?",
        "Sim, dano normal na cabeça: golpe fulminante acerta e provoca dano (§4.8), e a tabela soma o efeito. Só o 3 (morte) dispensa o dano, e o 12 e o 13 cortante ou perfurante o trocam por 1 e 2 PV.",
    ),
    Reading(
        "faint_roll_for_named_npcs",
        "5.4.1, 5.4",
        "NPC nomeado e chefe de encontro, entre 0 e −HT, fazem o teste de HT do início de cada turno (desmaio)?",
        "Sim: a §5.4.1 muda onde eles morrem e tira os testes de morte; o teste de desmaio a 0 PV não é teste de morte.",
    ),
    Reading(
        "default_never_negative",
        "3.3, 1.1",
        "Um pré-definido que dá NH negativo (DX 3 com DX−6) ainda vale como nível?",
        "Não: NH nunca é negativo, e esse pré-definido não se oferece. De 0 a 3 ele aparece, mas não se rola com ele (§1.1).",
    ),
    Reading(
        "catalogue_general_rule",
        "3.3",
        "Para as perícias cuja descrição o cânone não traz (Lança, Escudo, Arco …), que pré-definido vale? (§3.3: «a descrição de cada perícia manda».)",
        "A regra geral por dificuldade (§3.3, pág. 44), até o Árbitro lançar no catálogo o que a descrição do livro diz. Sem dificuldade no catálogo, o site não dá número.",
    ),
    Reading(
        "default_from_bought_skills_only",
        "3.3",
        "Pré-definido de outra perícia (Arremesso de Mágica a partir de Arremesso): vale se o personagem só tem Arremesso por pré-definido?",
        "Não: só serve de fonte a perícia que está na ficha; um pré-definido não se encadeia em outro.",
    ),
    Reading(
        "attribute_costs_not_summed",
        "2, 3.1",
        "Quanto custam os atributos, para somar os pontos da ficha? (O cânone não traz a tabela.)",
        "O site soma perícias, vantagens, desvantagens e peculiaridades, e diz que os atributos ficam fora da conta até o Árbitro lançar o custo.",
    ),
    Reading(
        "skill_points_in_halves",
        "3.2",
        "Pontos de perícia como 0,3 ou 1,25 (fora de ½ em ½) valem?",
        "Não compram linha da tabela: o rascunho recusa o valor com a mensagem ao lado do campo; numa ficha já gravada, a homologação avisa.",
    ),
    Reading(
        "skill_points_left_over",
        "3.2",
        "Pontos entre duas linhas compram a linha que alcançam (transcrição do livro); e a sobra?",
        "A sobra não compra nada, e a homologação avisa: a ficha gasta pontos que não rendem nível.",
    ),
    Reading(
        "imported_trait_kind_by_points",
        "3.1",
        "Numa ficha colada como texto, «Nome [15]» é vantagem, desvantagem ou peculiaridade?",
        "Pelos pontos: positivos, vantagem; −1, peculiaridade; outros negativos, desvantagem. O jogador corrige no rascunho antes de enviar.",
    ),
    Reading(
        "fled_fight_seconds",
        "6.1",
        "Quem foge no meio da luta paga a fadiga de «luta de mais de 10 segundos» pelo combate inteiro ou só pelo tempo em que lutou?",
        "Pelo tempo em que lutou: da primeira rodada até a rodada em que fugiu, um segundo cada (§4.1).",
    ),
)

READINGS_BY_KEY: dict[str, Reading] = {reading.key: reading for reading in READINGS}
