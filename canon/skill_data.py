"""The seed of the Árbitro's two skill tables, as text (no Django import).

- The skill cost table: a transcription of the book's two tables (MB pp. 43–44), which the canon
  cites (§3.2, §9 item 1) but does not print. It is not canon until the Árbitro confirms it
  against `02` §4 (the pendência ``skill-costs:confirm-02-4`` asks him to); until then it is his
  data, editable with history. A test reads it back from the transcription cell by cell.
- The skill catalogue: the skills the canon and the demo sheets name. An attribute or a
  difficulty the canon does not give is left blank (never guessed): the demo sheets' own lines
  give those of the skills on them; the defaults are the description's where the canon quotes
  it (Escalada, §3.3; Arremesso de Mágica, §4.11), none where the canon says so (the old script
  of Ámenti, §3.3), and the book's general rule (§3.3) for every other skill, until the Árbitro
  enters what its description says (reading ``catalogue_general_rule``).
"""

from __future__ import annotations

from dataclasses import dataclass

DOCUMENT = "Custo de perícias (transcrição do MB pág. 43–44, a conferir com o 02 §4)"
SOURCE = "MB pág. 43–44"
HEADER = "Nível final"
NOTE = (
    "Pontos compram a linha que alcançam; o que sobra não compra nada. Pontos que não alcançam "
    "linha nenhuma (0,3, ou ½ onde a coluna tem traço) não compram nada: a ficha não fecha."
)


@dataclass(frozen=True)
class CostTableSeed:
    kind: str  # "physical" | "mental"
    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, int | None, tuple[str, ...]], ...]  # label, relative, cells


PHYSICAL = CostTableSeed(
    "physical",
    "Perícias físicas (base DX; algumas ST ou HT)",
    ("Fácil", "Média", "Difícil"),
    (
        ("atributo −3", -3, ("—", "—", "½")),
        ("atributo −2", -2, ("—", "½", "1")),
        ("atributo −1", -1, ("½", "1", "2")),
        ("atributo", 0, ("1", "2", "4")),
        ("atributo +1", 1, ("2", "4", "8")),
        ("atributo +2", 2, ("4", "8", "16")),
        ("atributo +3", 3, ("8", "16", "24")),
        ("atributo +4", 4, ("16", "24", "32")),
        ("atributo +5", 5, ("24", "32", "40")),
        ("cada +1 a mais", None, ("+8", "+8", "+8")),
    ),
)

MENTAL = CostTableSeed(
    "mental",
    "Perícias mentais (base IQ)",
    ("Fácil", "Média", "Difícil", "Muito Difícil"),
    (
        ("IQ −4", -4, ("—", "—", "—", "½")),
        ("IQ −3", -3, ("—", "—", "½", "1")),
        ("IQ −2", -2, ("—", "½", "1", "2")),
        ("IQ −1", -1, ("½", "1", "2", "4")),
        ("IQ", 0, ("1", "2", "4", "8")),
        ("IQ +1", 1, ("2", "4", "6", "12")),
        ("IQ +2", 2, ("4", "6", "8", "16")),
        ("IQ +3", 3, ("6", "8", "10", "20")),
        ("IQ +4", 4, ("8", "10", "12", "24")),
        ("IQ +5", 5, ("10", "12", "14", "28")),
        ("cada +1 a mais", None, ("+2", "+2", "+2", "+4")),
    ),
)

COST_TABLES: tuple[CostTableSeed, ...] = (PHYSICAL, MENTAL)


@dataclass(frozen=True)
class CatalogueSeed:
    key: str
    name: str
    attribute: str  # "" where neither the canon nor a demo sheet says
    difficulty: str
    rule: str  # "general" | "listed" | "none"
    defaults: tuple[str, ...]
    source: str


DEMO_SHEETS = (
    "atributo e dificuldade das fichas de demonstração; pré-definido pela regra geral (§3.3)"
)
CANON_NAMES = "nomeada no cânone ({where}), sem atributo nem dificuldade; regra geral (§3.3)"

CATALOGUE: tuple[CatalogueSeed, ...] = (
    CatalogueSeed("arco", "Arco", "dx", "H", "general", (), DEMO_SHEETS),
    CatalogueSeed("escudo", "Escudo", "dx", "E", "general", (), DEMO_SHEETS),
    CatalogueSeed("espada-curta", "Espada Curta", "dx", "A", "general", (), DEMO_SHEETS),
    CatalogueSeed("faca", "Faca", "dx", "E", "general", (), DEMO_SHEETS),
    CatalogueSeed("furtividade", "Furtividade", "dx", "A", "general", (), DEMO_SHEETS),
    CatalogueSeed("lanca", "Lança", "dx", "A", "general", (), DEMO_SHEETS),
    CatalogueSeed("observacao", "Observação", "iq", "A", "general", (), DEMO_SHEETS),
    CatalogueSeed("rastreamento", "Rastreamento", "iq", "A", "general", (), DEMO_SHEETS),
    CatalogueSeed(
        "escalada",
        "Escalada",
        "dx",
        "",
        "listed",
        ("ST−5", "DX−5"),
        "§3.3 (pág. 87): «Escalada é ST−5 ou DX−5»; DX rege Escalada (§2); dificuldade não dada",
    ),
    CatalogueSeed(
        "arremesso-de-magica",
        "Arremesso de Mágica",
        "",
        "",
        "listed",
        ("Arremesso", "DX−3"),
        "§4.11 (MAGIA pág. 11): «pré-definido: NH em Arremesso, ou DX−3»",
    ),
    CatalogueSeed(
        "arremesso",
        "Arremesso",
        "",
        "",
        "general",
        (),
        CANON_NAMES.format(where="§4.11, fonte de Arremesso de Mágica"),
    ),
    CatalogueSeed(
        "escrita-antiga-de-amenti",
        "Escrita antiga de Ámenti",
        "",
        "",
        "none",
        (),
        "§3.3: «sem treino você não lê a escrita antiga de Ámenti»",
    ),
    CatalogueSeed(
        "acrobacia", "Acrobacia", "", "", "general", (), CANON_NAMES.format(where="§4.12")
    ),
    CatalogueSeed("natacao", "Natação", "", "", "general", (), CANON_NAMES.format(where="§2.2")),
    CatalogueSeed(
        "primeiros-socorros",
        "Primeiros Socorros",
        "",
        "",
        "general",
        (),
        CANON_NAMES.format(where="§5.6, §5g"),
    ),
    CatalogueSeed("medicina", "Medicina", "", "", "general", (), CANON_NAMES.format(where="§5.6")),
    CatalogueSeed("judo", "Judô", "", "", "general", (), CANON_NAMES.format(where="§5c, §4.14")),
    CatalogueSeed("briga", "Briga", "", "", "general", (), CANON_NAMES.format(where="§5c")),
    CatalogueSeed(
        "esgrima", "Esgrima", "", "", "general", (), CANON_NAMES.format(where="§2.1, §4.14")
    ),
    CatalogueSeed("bastao", "Bastão", "", "", "general", (), CANON_NAMES.format(where="§2.1")),
)
