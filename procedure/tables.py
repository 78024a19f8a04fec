"""Every table of the Mestre's session procedure (``sessao-do-mestre.txt``), written once as data,
and the readings of a table the text gives: a row's range, a total's row, a chance «N:6», a cadence.

The procedure was written for another game (a d6/d20 game with CON, DES, DESV, hit dice and
sanity). Its tables are transcribed here in its own words, each with the heading line it
stands under in the text (``source``), the die it is rolled with, its columns and its rows.
What the text says for another game is not translated here: each such point is an open
divergence for the Árbitro (``canon.seed.PROCEDURE_DIVERGENCES``), and the Mestre chooses the
GURPS roll each time.

A fresh machine has no ``shared/`` folder at run time: this module is what each campaign's
``RandomTable`` rows are seeded from (``sessions.procedure.services.procedure_tables_seed``);
from then on the Árbitro maintains them, and every change keeps what the row said. The readings
below take a row as its span (``low``, ``high``), so they serve this module's rows and the
campaign's alike.

Kinds of table:

- ``roll``: rolled on its die; the total lands on a row by its range (``1-5``, ``7``, ``14+``).
- ``chance``: a row per region or level whose cell is the text's "N:6"; read as a chance of N
  in 6, i.e. it happens on 1 to N of 1d6 (``CHANCE_READING``).
- ``reference``: read, not rolled (Tabela A: Avançar, the exhaustion levels …); the panic
  table too, because the text names no die for it and the canon's Fright Check (§5b) is the
  default for GURPS characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from procedure.errors import BadDie, UnknownTable

DOCUMENT = "Sessão do Mestre"
HEXCRAWL = "Exploração de hexágonos"
DUNGEON = "Masmorra"

ROLL = "roll"
CHANCE = "chance"
REFERENCE = "reference"

# The text's "N:6" in a chance table: N chances in 6, it happens on 1 to N (canon README: the
# procedure is a d6 game; "Em um resultado de 1:6, o encontro acontece").
CHANCE_PATTERN = re.compile(r"^\s*(?P<n>[1-6]):6\b")
CHANCE_READING = (
    "«N:6» lido como chance de N em 6: acontece com 1 a N no 1d6 (divergência aberta para o "
    "Árbitro)."
)
MAKE_CAMP_READING = (
    "«5:6» lido como nas outras tabelas: chance de 5 em 6, o grupo está seguro com 1 a 5 no 1d6 "
    "(a outra leitura, 5 ou 6 no dado, é a divergência aberta para o Árbitro)."
)
SILENT = "O texto não diz o que acontece com este resultado."

UNKNOWN_TABLE = "Tabela do procedimento desconhecida: {key}."
BAD_DIE = "Dado «{die}»: o procedimento rola 1dN (1d4, 1d6, 1d8, 1d10, 1d12, 1d20)."

_DIE = re.compile(r"^1d(?P<sides>[0-9]+)$")
_RANGE = re.compile(r"^(?P<low>[0-9]+)(?:(?:-|:)(?P<high>[0-9]+)|(?P<plus>\+))?$")


@dataclass(frozen=True)
class Row:
    """One row: its label as the text writes it and one cell per column. ``low``/``high`` are
    the totals it covers in a rolled table (``high`` None with ``open_ended``: "14+")."""

    label: str
    cells: tuple[str, ...]
    low: int | None = None
    high: int | None = None
    open_ended: bool = False


@dataclass(frozen=True)
class Table:
    key: str
    name: str
    part: str
    source: str  # the heading line the table stands under in the text
    kind: str
    die: str  # "" when the text names no die (the table is read, not rolled)
    header: str  # the heading of the rows' label column
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    other_dice: tuple[str, ...] = ()  # events: 1d6 when advancing, 1d8 when exploring
    note: str = ""
    layout: str = "tab"  # "tab": tab-separated in the text; "text": written in sentences

    @property
    def rolled(self) -> bool:
        return self.kind in (ROLL, CHANCE)


def row_range(label: str) -> tuple[int, int | None] | None:
    """The totals a row's label covers: «3» → (3, 3), «1-2» → (1, 2), «7+» → (7, None); None
    for a label that is not a range."""
    found = _RANGE.match(label.strip())
    if found is None:
        return None
    low = int(found["low"])
    if found["plus"]:
        return low, None
    return low, int(found["high"] or low)


def _row(label: str, *cells: str) -> Row:
    """A row; a numeric label ("1-5", "7", "14+", "1:3") is read as the totals it covers."""
    found = _RANGE.match(label)
    if found is None:
        return Row(label, tuple(cells))
    low = int(found["low"])
    if found["plus"]:
        return Row(label, tuple(cells), low=low, high=None, open_ended=True)
    return Row(label, tuple(cells), low=low, high=int(found["high"] or low))


def _season(key: str, name: str, column: str, *cells: str) -> Table:
    return Table(
        key=key,
        name=f"Clima — {name}",
        part=HEXCRAWL,
        source="1. Clima",
        kind=ROLL,
        die="1d6",
        header="Resultado (1d6)",
        columns=(column,),
        rows=tuple(_row(str(n), cell) for n, cell in enumerate(cells, start=1)),
        note="Clima inicial, rolado no início da sessão conforme a estação do ano.",
        layout="season",
    )


TABLES: tuple[Table, ...] = (
    _season(
        "weather_spring",
        "Primavera",
        "Primavera",
        "Frio, chuvoso e ventoso",
        "Frio e com neblina",
        "Ameno, ventoso e chuvoso",
        "Ameno e nublado",
        "Quente e chuvoso",
        "Quente e ensolarado",
    ),
    _season(
        "weather_summer",
        "Verão",
        "Verão",
        "Ameno e tempestuoso",
        "Quente e chuvoso",
        "Quente e com brisa",
        "Quente e ensolarado",
        "Quente e ensolarado",
        "Sufocante e ensolarado",
    ),
    _season(
        "weather_autumn",
        "Outono",
        "Outono",
        "Frio e tempestuoso",
        "Frio e ventoso",
        "Frio e nevoeiro",
        "Ameno e ventoso",
        "Ameno e chuvoso",
        "Quente e ventoso",
    ),
    _season(
        "weather_winter",
        "Inverno",
        "Inverno",
        "Congelante e com granizo",
        "Congelante e com neve",
        "Frio e com neve",
        "Frio e ventoso",
        "Frio e ensolarado",
        "Ameno e ensolarado",
    ),
    Table(
        key="weather_drift",
        name="Clima — mudança a cada Rodada de Exploração",
        part=HEXCRAWL,
        source="1. Clima",
        kind=ROLL,
        die="1d6",
        header="Resultados da rolagem (1d6)",
        columns=("Resultado",),
        rows=(
            _row("1", "Diminua em 1 o clima"),
            _row("2", "Aumente em 1 o clima"),
            _row("3-6", SILENT),
        ),
        note="Role 1d6 para cada Rodada de Exploração (4h) do dia e siga o resultado. O texto "
        "só diz o que fazer com 1 e 2.",
        layout="text",
    ),
    Table(
        key="encounter_by_region",
        name="Encontros aleatórios por região",
        part=HEXCRAWL,
        source="Encontros Aleatórios",
        kind=CHANCE,
        die="1d6",
        header="Região",
        columns=("Resultados",),
        rows=(
            _row("Estepe e Planície", "1:6"),
            _row("Colinas, Florestas e Montanhas", "2:6"),
            _row("Pântano", "3:6"),
        ),
        note="Role 1d6 cada Rodada de Exploração (4h) do dia, pela região em que os personagens "
        "iniciam o dia. " + CHANCE_READING,
        layout="text",
    ),
    Table(
        key="travel_advance",
        name="Tabela A: Avançar",
        part=HEXCRAWL,
        source="Tabela A: Avançar",
        kind=REFERENCE,
        die="",
        header="Avançando / rodada",
        columns=("Hexágonos",),
        rows=(
            _row("Andando", "1/2"),
            _row("Montado / Dirigindo", "1"),
            _row("Navegando", "2"),
        ),
    ),
    Table(
        key="forced_march",
        name="Tabela B: Forçando o Avanço",
        part=HEXCRAWL,
        source="Tabela B: Forçando o Avanço",
        kind=REFERENCE,
        die="",
        header="Além de 2 rodadas consecutivas",
        columns=("DC do Teste de CON",),
        rows=(
            _row("1 rodada extra", "12"),
            _row("rodadas subsequentes", "+3"),
        ),
        note="O «teste de CON» é de outro sistema: o Mestre escolhe o teste GURPS (divergência "
        "aberta).",
    ),
    Table(
        key="losing_direction",
        name="Tabela C: Perdendo a direção",
        part=HEXCRAWL,
        source="Tabela C: Perdendo a direção",
        kind=CHANCE,
        die="1d6",
        header="Hex",
        columns=("Chance de se perder",),
        rows=(
            _row("Estepes", "1:6"),
            _row("Planície, Colinas, Floresta", "2:6"),
            _row("Pântano, Montanha", "3:6"),
        ),
        note=CHANCE_READING,
    ),
    Table(
        key="events",
        name="Tabela D: Eventos",
        part=HEXCRAWL,
        source="Tabela D: Eventos",
        kind=ROLL,
        die="1d6",
        other_dice=("1d8",),
        header="Tabela de Eventos (1d6-1d8)",
        columns=("Planície e Estepes", "Colinas e Montanhas", "Florestas e Pântanos"),
        rows=(
            _row("1", "Ponto de Interesse", "Ponto de Interesse", "Ponto de Interesse"),
            _row("2", "Ponto de Interesse", "Evento", "Evento"),
            _row("3", "Evento", "Peregrinos", "Nada"),
            _row("4", "Peregrinos", "Nada", "Nada"),
            _row("5", "Nada", "Nada", "Nada"),
            _row("6", "Nada", "Nada", "Nada"),
            _row("7", "Ponto de Interesse", "Ponto de Interesse", "Peregrinos"),
            _row("8", "Ponto de Interesse", "Ponto de Interesse", "Ponto de Interesse"),
        ),
        note="1d6 ao Avançar, 1d8 ao Explorar.",
    ),
    Table(
        key="forage_hunt_fish",
        name="Tabela E: Forragear/Caçar/Pescar",
        part=HEXCRAWL,
        source="Tabela E: Forragear/Caçar/Pescar",
        kind=CHANCE,
        die="1d6",
        header="Terreno (1d6)",
        columns=("Forragear", "Caçar", "Pescar"),
        rows=(
            _row("Planície e Colinas", "2:6", "3:6", "1:6"),
            _row("Estepe", "3:6", "4:6", "4:6"),
            _row("Floresta", "5:6", "5:6", "5:6"),
            _row("Pântano", "5:6", "2:6", "4:6"),
            _row("Montanha", "1:6", "2:6", "2:6"),
        ),
        note="Em caso de falha, role 1d10 na Tabela F: Acidentes. " + CHANCE_READING,
    ),
    Table(
        key="accidents",
        name="Tabela F: Acidentes",
        part=HEXCRAWL,
        source="Tabela F: Acidentes",
        kind=ROLL,
        die="1d10",
        header="Tabela de Acidentes (1d10)",
        columns=("Acidentes",),
        rows=(
            _row("1-5", "Nada"),
            _row(
                "6",
                "Encontra comida, mas venenosa/doente. Quem a ingerir tem DESV pelo próximo dia.",
            ),
            _row("7", "Sofre por carrapatos ou sanguessugas. 1 de dano por rodada até se livrar."),
            _row(
                "8", "Cai e torce o tornozelo. Sofre 2 de dano e 1/2 do movimento até ser curado."
            ),
            _row("9", "É emboscado por 1 predador (lobo, urso, pantera etc)"),
            _row("10", "O barulho atrai um encontro aleatório"),
        ),
    ),
    Table(
        key="craft_ammunition",
        name="Tabela G: Criar Munição",
        part=HEXCRAWL,
        source="Tabela G: Criar Munição",
        kind=REFERENCE,
        die="",
        header="Terreno",
        columns=("Modificador",),
        rows=(
            _row("Planície / Colinas", "-6"),
            _row("Estepe", "-4"),
            _row("Floresta", "+0"),
            _row("Pântano", "+0"),
            _row("Montanha", "-10"),
        ),
        note="Modifica o «Teste de DES», que é de outro sistema (divergência aberta).",
    ),
    Table(
        key="camp_mishaps",
        name="Tabela H: Percalços",
        part=HEXCRAWL,
        source="Tabela H: Percalços",
        kind=ROLL,
        die="1d10",
        header="Resultado (1d10)",
        columns=("Percalço",),
        rows=(
            _row("1-4", "Nada"),
            _row("5", "Um personagem perde 1 item aleatório."),
            _row("6", "Comida devorada por animais. Perca 1d4 rações entre o grupo."),
            _row("7", "Ataque de mosquitos/insetos hematófagos. DESV nas próximas duas rodadas."),
            # As the text writes it, backslash and all: what "3:6 \| Encontro" means is the
            # pendência procedure:camp-mishap-8-chance, not a transcription's guess.
            _row(
                "8",
                "Lenha molhada, a fogueira apaga. Vigia faz teste de pânico. Role 1d6. "
                "3:6 \\| Encontro Aleatório.",
            ),
            _row("9", "O fogo espalhou. Teste de DES DC 12 ou perde 1 item aleatório."),
            _row("10", "Roedores/pestes infestam. Doença."),
        ),
        note="Rolada ao Descansar quando o grupo não está seguro.",
    ),
    Table(
        key="camp_mishap_rations",
        name="Tabela H: Percalços — 6: rações perdidas",
        part=HEXCRAWL,
        source="Tabela H: Percalços",
        kind=ROLL,
        die="1d4",
        header="Rações perdidas entre o grupo (1d4)",
        columns=("Rações",),
        rows=tuple(_row(str(n), str(n)) for n in range(1, 5)),
        note="«6. Comida devorada por animais. Perca 1d4 rações entre o grupo.»: o 1d4 que a "
        "linha manda rolar; a linha da tabela é o número de rações.",
        layout="text",
    ),
    Table(
        key="camp_mishap_encounter",
        name="Tabela H: Percalços — 8: Encontro Aleatório",
        part=HEXCRAWL,
        source="Tabela H: Percalços",
        kind=CHANCE,
        die="1d6",
        header="Percalço",
        columns=("Encontro Aleatório",),
        rows=(_row("8", "3:6"),),
        note="«8. Lenha molhada, a fogueira apaga. Vigia faz teste de pânico. Role 1d6. 3:6 \\| "
        "Encontro Aleatório.»: o 1d6 que a linha manda rolar, «3:6» lido como as outras chances "
        "(divergência aberta para o Árbitro).",
        layout="text",
    ),
    Table(
        key="exhaustion",
        name="Tabela I: Exaustão",
        part=HEXCRAWL,
        source="Tabela I: Exaustão",
        kind=REFERENCE,
        die="",
        header="Nível de Exaustão",
        columns=("Efeito",),
        rows=(
            _row("1", "DESV em todas as rolagens"),
            _row("2", "Não adiciona modificadores de atributos às rolagens"),
            _row("3", "1d4 de dano de CON / dia"),
        ),
        note="Lida pelo nível de exaustão, não rolada.",
    ),
    Table(
        key="panic",
        name="Tabela J: Pânico",
        part=HEXCRAWL,
        source="Tabela J: Pânico",
        kind=REFERENCE,
        die="",
        header="Sanidade",
        columns=("Efeito",),
        rows=(
            _row("1", "Insanidade. Se torna insano."),
            _row(
                "2-4",
                "Afetado. Recebe uma aflição. Role 1d8 na Tabela K: Aflição e o personagem sofre "
                "um efeito de pânico aleatório.",
            ),
            _row("5-7", "Fúria. Ataca o ser mais próximo (até aliados) por 1d4 rodadas"),
            _row("8-10", "Impactado. 2 de dano em Sabedoria"),
            _row("11-13", "Catatonia. Não reage por 1d4 rodadas."),
            _row("14+", "Terror. Foge de todos os seres (até aliados) por 1d4 rodadas"),
        ),
        note="O texto não diz com que dado se rola. Para personagens GURPS vale a Verificação "
        "de Pânico do cânone (§5b), não esta tabela (divergência aberta).",
    ),
    Table(
        key="affliction",
        name="Tabela K: Aflição",
        part=HEXCRAWL,
        source="Tabela K: Aflição",
        kind=ROLL,
        die="1d8",
        header="Resultado (1d8)",
        columns=("Aflição",),
        rows=(
            _row(
                "1",
                "Fobia. Desenvolve um medo irracional do que desencadeou a sua fobia. Algumas "
                "fobias possíveis incluem: escuridão, espaços fechados, altura, natação, fogo, "
                "aranhas, insetos, criaturas voadoras, vermes, parasitas, cobras, mortos-vivos, "
                "demônios, diabos, fantasmas, morte, fracasso e o desconhecido.",
            ),
            _row(
                "2",
                "Medroso. Tudo parece uma ameaça. Cada som súbito é um prenúncio de morte, cada "
                "sombra esconde algo terrível. Você vive em constante tensão, olhos arregalados, "
                "respiração curta, sempre esperando o pior. você num momento de fraqueza.",
            ),
            _row(
                "3",
                "Delirante. A realidade se dobra e se confunde com memórias, sonhos e "
                "alucinações. Você vê coisas que não estão lá, escuta vozes sussurrando segredos "
                "inexistentes, e tem certeza de que o mundo está tentando lhe passar mensagens "
                "ocultas. Para você, nada é coincidência, e tudo tem um significado… mesmo que "
                "ninguém mais compreenda.",
            ),
            _row(
                "4",
                "Masoquista. A dor traz clareza. Você sente que o sofrimento o aproxima de alguma "
                "verdade maior, ou talvez sinta que merece cada ferida que carrega. Você encara "
                "os próprios machucados com uma estranha fascinação, buscando situações perigosas "
                "ou castigando-se emocional e fisicamente por suas falhas reais ou imaginadas.",
            ),
            _row(
                "5",
                "Desamparado. A sensação é de estar afundando lentamente num mar escuro. Você "
                "acredita que nada que faça importa. Você depende dos outros não por escolha, mas "
                "por incapacidade. Há um olhar vazio em seus olhos, como se já tivesse desistido "
                "de tentar, e uma tendência a se calar, mesmo diante da injustiça ou da dor.",
            ),
            _row(
                "6",
                "Paranóico. Tudo é suspeito. Você observa cada gesto alheio em busca de sinais de "
                "traição. A lealdade dos amigos é constantemente questionada, e qualquer gesto de "
                "gentileza parece mascarar uma intenção oculta. Você vive sob um véu de "
                "desconfiança, criando planos de contingência para todas as possibilidades — "
                "especialmente as que ninguém mais considera.",
            ),
            _row(
                "7",
                "Egoísta. O mundo gira ao seu redor, e as dores alheias são apenas obstáculos à "
                "sua vontade. Você sente que sua sobrevivência, seus desejos e sua liberdade "
                "estão acima de tudo. Você pode até agir de maneira cordial, mas tudo é "
                "transação: se não há ganho pessoal, não há interesse. Quando confrontado, sempre "
                "encontra um jeito de justificar suas ações como “necessárias”.",
            ),
            _row(
                "8",
                "Histérico. A emoção domina. Você passa de risadas descontroladas ao choro "
                "convulsivo em questão de minutos. Pequenas frustrações se tornam tragédias, e "
                "boas notícias viram euforia quase insana. Você é um furacão de sentimentos, "
                "incapaz de conter o que sente — e geralmente esperando que os outros acompanhem "
                "sua intensidade.",
            ),
        ),
    ),
    Table(
        key="make_camp",
        name="Levantar Acampamento",
        part=HEXCRAWL,
        source="Levantar Acampamento",
        kind=CHANCE,
        die="1d6",
        header="Levantar Acampamento",
        columns=("Seguro",),
        rows=(_row("Grupo", "5:6"),),
        note="«1. Role 1d6. Em um resultado de 5:6 o grupo está seguro.» " + MAKE_CAMP_READING,
        layout="text",
    ),
    Table(
        key="danger_levels",
        name="Tabela A: Níveis de Perigo",
        part=DUNGEON,
        source="Tabela A: Níveis de Perigo",
        kind=CHANCE,
        die="1d6",
        header="Nível de Perigo",
        columns=("Encontros Aleatórios",),
        rows=(
            _row("Inseguro", "1:6 a cada 3 turnos de exploração"),
            _row("Arriscado", "1:6 a cada 2 turnos de exploração"),
            _row("Mortal", "1:6 todo turno de exploração"),
        ),
        note="Turno de exploração: 10 min. Total escuridão sempre torna o nível de perigo "
        "Mortal. O encontro acontece sempre no Fim do Turno. " + CHANCE_READING,
    ),
    Table(
        key="dungeon_mishaps",
        name="Tabela B: Percalços da Dungeon",
        part=DUNGEON,
        source="Tabela B: Percalços da Dungeon",
        kind=ROLL,
        die="1d10",
        header="Resultado (1d10)",
        columns=("Percalço",),
        rows=(
            _row("1-5", "Nada"),
            _row(
                "6",
                "Dormir na Dungeon não é nada confortável. Teste de CON DC 12 para ter os "
                "benefícios do Descanso.",
            ),
            _row(
                "7",
                "Atacados por carrapatos/sanguessugas. 2 de dano e Teste de CON DC 12 para ter os "
                "benefícios do Descanso.",
            ),
            _row("8", "Um Encontro Aleatório acontece."),
            _row(
                "9",
                "O ambiente da Dungeon é muito opressor. Teste de Pânico e Teste de CON DC 12 "
                "para ter os benefícios do Descanso.",
            ),
            _row(
                "10",
                "As criaturas perceberam o cheiro do grupo. Estarão preparadas quando acordarem "
                "ou tentarão emboscá-los.",
            ),
        ),
    ),
    Table(
        key="dungeon_rest",
        name="Tabela C: Descansando na Dungeon",
        part=DUNGEON,
        source="Tabela C: Descansando na Dungeon",
        kind=CHANCE,
        die="1d6",
        header="Nível de Perigo",
        columns=("Encontros Aleatórios",),
        rows=(
            _row("Inseguro", "3:6 a cada 4 horas."),
            _row("Arriscado", "3:6 a cada 2 horas."),
            _row("Mortal", "3:6 a cada 1 hora."),
        ),
        note=CHANCE_READING,
    ),
    Table(
        key="surprise",
        name="Surpresa",
        part=DUNGEON,
        source="1. Encontros Aleatórios",
        kind=CHANCE,
        die="1d6",
        header="Lado",
        columns=("Surpreso",),
        rows=(_row("Cada lado", "2:6"),),
        note="«Quando aplicável, cada lado rola 1d6 para conferir se está surpreso. Em um "
        "resultado de 2:6, o lado está surpreso. Caso os dois lados estejam, ninguém tem um turno "
        "de surpresa.» " + CHANCE_READING,
        layout="text",
    ),
    Table(
        key="monster_arrival",
        name="Chegada dos monstros",
        part=DUNGEON,
        source="4. Fim do Turno",
        kind=ROLL,
        die="1d6",
        header="Resultados",
        columns=("Onde chegam",),
        rows=(
            _row("1:3", "Os monstros chegam na sala onde os personagens estão."),
            _row("4:6", "Os monstros chegam em uma sala adjacente."),
        ),
        note="Caso tenha rolado um Encontro Aleatório, os monstros surgem no Fim do Turno. Aqui "
        "«1:3» e «4:6» são faixas do dado: 1 a 3, 4 a 6.",
        layout="text",
    ),
)

BY_KEY: dict[str, Table] = {table.key: table for table in TABLES}


_EVERY = re.compile(r"a cada (?P<n>[0-9]+) (?:turnos?|horas?)|(?P<each>todo turno)")


def chance_every(cell: str) -> int | None:
    """How often a cadence cell says to check: "1:6 a cada 3 turnos …" → 3, "3:6 a cada 1 hora"
    → 1, "1:6 todo turno …" → 1; None when the cell names no cadence."""
    found = _EVERY.search(cell)
    if found is None:
        return None
    return 1 if found["each"] else int(found["n"])


def chance_threshold(cell: str) -> int | None:
    """N of a cell that starts with the text's "N:6" ("2:6", "1:6 a cada 3 turnos …")."""
    found = CHANCE_PATTERN.match(cell)
    return int(found["n"]) if found else None


# --- the Árbitro's own tables: «a Tabela de Encontros da Região atual», which the text lacks -----

ARBITRO_DOCUMENT = "Tabela do Árbitro"
REGIONAL_SOURCE = (
    "Encontros Aleatórios: «No momento do encontro role na Tabela de Encontros da Região atual.»"
)
ARBITRO_DICE = ("1d4", "1d6", "1d8", "1d10", "1d12", "1d20")


def regional_key(region: str) -> str:
    """The key of a region's encounter table: «encontros-floresta» …"""
    return f"encontros-{region}"


def table(key: str) -> Table:
    """The procedure's table ``key`` as the text writes it; ``UnknownTable`` if there is none."""
    found = BY_KEY.get(key)
    if found is None:
        raise UnknownTable(UNKNOWN_TABLE.format(key=key))
    return found


# --- rolling on a table: «1dN», a total's row ----------------------------------------------------

Span = tuple[int | None, int | None]  # a row's (low, high); high None: "and above"


def die_sides(die: str) -> int:
    """N of «1dN» (every table of the text is rolled on one die); ``BadDie`` otherwise."""
    found = _DIE.match(die or "")
    if found is None or int(found["sides"]) < 1:
        raise BadDie(BAD_DIE.format(die=die))
    return int(found["sides"])


def covers(low: int | None, high: int | None, total: int) -> bool:
    """Whether a row spanning ``low``..``high`` (``high`` None: and above) holds ``total``; a row
    without a span (a region, a level) holds none."""
    if low is None or total < low:
        return False
    return high is None or total <= high


def row_index(spans: list[Span], total: int) -> int | None:
    """The index of the first row whose span holds ``total``; None when none does."""
    return next((i for i, (low, high) in enumerate(spans) if covers(low, high, total)), None)


def total_off_table(spans: list[Span], sides: int, modifier: int = 0) -> int | None:
    """The first total 1dN + ``modifier`` could give that lands on no row (None: every total
    lands): checked before the die, so no roll is thrown away."""
    for total in range(1 + modifier, sides + modifier + 1):
        if row_index(spans, total) is None:
            return total
    return None


def complete(spans: list[Span], sides: int) -> bool:
    """Whether every face of a 1d``sides`` lands on a row (a table still being filled is not
    rolled)."""
    return total_off_table(spans, sides) is None


def overlap(spans: list[Span], low: int, high: int | None, sides: int) -> int | None:
    """The index of the first row that already covers a face of ``low``..``high`` (``high``
    None: to ``sides``); None when the new row overlaps none."""
    top = high if high is not None else sides
    for index, (other_low, other_high) in enumerate(spans):
        if any(covers(other_low, other_high, face) for face in range(low, top + 1)):
            return index
    return None


def inside_die(low: int, high: int | None, sides: int) -> bool:
    """Whether a row «low-high» (``high`` None: «low+») stays within the faces of 1d``sides``."""
    return 1 <= low <= (high if high is not None else low) <= sides


def happens(face: int, threshold: int) -> bool:
    """«N:6» read as a chance of N in 6: it happens on 1 to N of the 1d6 (``CHANCE_READING``)."""
    return face <= threshold
