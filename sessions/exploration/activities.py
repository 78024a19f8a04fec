"""The activities of a round of travel, each run step by step as ``sessao-do-mestre.txt`` writes
them (Rodadas de Viagem), every die on the server into the chain and named in the round's log:

- Avançar: 1. Tabela C (Perdendo a direção, 1d6); 2. Tabela A (hexes by the way of advancing);
  3. the neighbouring hexes revealed (the Mestre's: the site has no map); 4. Tabela D (1d6).
  Beyond 2 rounds in a row, the «teste de CON» of Tabela B, its DC rising by 3 a round.
- Explorar: Tabela D with 1d8.
- Forragear / Caçar / Pescar: Tabela E (its column), Tabela F (1d10) on a failure.
- Criar: the «Teste de DES» with Tabela G's modifier, for each character.
- Levantar Acampamento: 1d6, safe on 5:6 (read as the other chances).
- Descansar: Tabela H when not safe (with the 1d4 of row 6 and the 1d6 of row 8), food and water,
  the hit dice of another game, the recovery — or, when an encounter interrupts it, the «teste
  de CON DC 12» of each one first.

A ``Round`` carries what a round writes: its lines, its rolls, the pendências its steps name and
the tests the text asks. Chances, DCs, modifiers and hexes are read from the campaign's tables,
which the Árbitro keeps (``sessions.procedure``): a row he changes is what the next round reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gurps.dice import RandomSource
from gurps.tabular import signed as signed_text
from procedure import tables as procedure_data
from procedure.tables import Region
from sessions.exploration.steps import roll_ref
from sessions.exploration.supplies import Kind as SupplyKind
from sessions.exploration.supplies import Ledger
from sessions.models import Exploration, ExplorationTest, RandomTable, Roll
from sessions.procedure import services as procedure_services

# The pendências of canon.seed.PROCEDURE_DIVERGENCES the journey's steps name.
P_CHANCE = "procedure:chance-notation"
P_WEATHER_SILENT = "procedure:weather-drift-3-6"
P_WEATHER_EDGES = "procedure:weather-drift-edges"
P_UNDEFINED = "procedure:undefined-results"
P_PER_PLAYER = "procedure:activities-per-player"
P_FORCED_MARCH = "procedure:forced-march-con"
P_FORCED_MARCH_COUNT = "procedure:forced-march-count"
P_CRAFT = "procedure:craft-ammunition-des"
P_MAKE_CAMP = "procedure:make-camp-5-6"
P_CAMP_SAFE = "procedure:camp-safe-lasts"
P_FOOD = "procedure:food-water"
P_REST_CON = "procedure:rest-con-dc12"
P_REST_INTERRUPTED = "procedure:rest-interruption"
P_HIT_DICE = "procedure:rest-hit-dice"
P_RECOVERY = "procedure:rest-attributes-sanity"
P_EXHAUSTION = "procedure:exhaustion"
P_MISHAP_8 = "procedure:camp-mishap-8-chance"
P_LOST = "procedure:lost"
P_RUNNING_OUT = "procedure:running-out"
P_DISEASE = "procedure:disease"
P_EXHAUSTION_EFFECTS = "procedure:exhaustion-effects"

# Words of another game (or results the text leaves undefined) in a row the tracker rolls,
# and the pendência each points to.
MENTIONS = (
    ("DESV", "procedure:disadvantage-desv"),
    ("pânico", "procedure:panic-test"),
    ("DES DC 12", "procedure:camp-mishap-9-des-dc12"),
    ("encontro aleatório", P_UNDEFINED),
    ("item aleatório", P_UNDEFINED),
    ("Doença", P_DISEASE),
)

# Pendência procedure:forced-march-con: «DC 12 é HT sem modificador, e cada 3 pontos de DC
# acima de 12 tiram 1».
FORCED_MARCH_BASE_DC = 12
FORCED_MARCH_DC_PER_POINT = 3


def dc_modifier(dc: int) -> int:
    """The GURPS modifier on HT the reading gives a DC: 12 → 0, 15 → −1, 18 → −2 (toward 0)."""
    return -int((dc - FORCED_MARCH_BASE_DC) / FORCED_MARCH_DC_PER_POINT)


NEIGHBOURS_REVEALED = (
    "Avançar — 3. Todos os PdIs óbvios e o tipo de terreno dos hexes vizinhos são revelados: o "
    "Mestre os diz (o site não tem o mapa)."
)
HIT_DICE = (
    "Descansar — 3. «Cada membro rola um n° de dados de vida igual ao nível e recupera pontos de "
    "vida»: GURPS não tem nível nem dados de vida; a recuperação de PV é a da §5.6, pelo Mestre."
)
OTHER_ACTIVITY = "{who}: atividade fora do escopo das regras — o Mestre a narra."


def fresh_member() -> dict:
    """A character's journey as the tracker counts it."""
    return {"rested_today": False, "rest_owed": 0, "exhaustion": 0}


@dataclass(frozen=True)
class Ask:
    """A test the text asks of one character, to be written once the round's event exists."""

    character: str
    kind: str
    asks: str
    pendency: str
    modifier: int | None = None


@dataclass
class Round:
    """What one round of travel writes, and the campaign's tables it reads (each once)."""

    exploration: Exploration
    user: Any
    source: RandomSource
    region: Region | None = None  # the hex the party is in this round (None in the dungeon)
    lines: list[str] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    asked: list[Ask] = field(default_factory=list)
    encounter: bool = False
    lost: bool = False
    regional: str = ""  # the key of the Árbitro's regional table rolled on, if any
    tables: dict[str, RandomTable] = field(default_factory=dict)
    books: Ledger | None = None  # the food, water and ammunition (sessions.exploration.supplies)
    state: list[tuple[str, int, int, str]] = field(default_factory=list)  # name, hp, fatigue, why

    def say(self, line: str) -> None:
        self.lines.append(line)

    def hold(self, *keys: str) -> None:
        """The round's log names these pendências."""
        self.held.extend(k for k in keys if k not in self.held)

    def mentions(self, text: str) -> None:
        folded = text.casefold()
        self.hold(*(key for word, key in MENTIONS if word.casefold() in folded))

    def ask(
        self, character: str, kind: str, asks: str, pendency: str, modifier: int | None = None
    ) -> None:
        self.asked.append(Ask(character, kind, asks, pendency, modifier))

    def member(self, name: str) -> dict:
        return self.exploration.party.setdefault(name, fresh_member())

    def who(self, names: list[str]) -> str:
        return who(names, self.exploration.party_names)

    def table(self, key: str) -> RandomTable:
        if key not in self.tables:
            campaign = self.exploration.scene.week.campaign
            self.tables[key] = procedure_services.procedure_table(key, campaign)
        return self.tables[key]

    def cell(self, key: str, row_label: str, column: str | None = None) -> str:
        """A cell of the campaign's table ``key`` ("" when the row is not there)."""
        table = self.table(key)
        row = next((r for r in table.rows.all() if r.label == row_label), None)
        if row is None:
            return ""
        return row.cell(list(table.columns), column or table.columns[0])

    def roll(self, key: str, *, column: str | None = None, die: str | None = None) -> Roll:
        roll = procedure_services.procedure_roll(
            scene=self.exploration.scene,
            user=self.user,
            key=key,
            column=column,
            die=die,
            source=self.source,
        )
        self.rolls.append(roll)
        return roll

    def chance(self, key: str, row: str, *, column: str | None = None) -> tuple[Roll, bool]:
        roll, happened = procedure_services.procedure_chance(
            scene=self.exploration.scene,
            user=self.user,
            key=key,
            row_label=row,
            column=column,
            source=self.source,
        )
        self.rolls.append(roll)
        self.hold(P_CHANCE)
        return roll, happened

    def exhaust(self, name: str, why: str) -> None:
        """One point of the procedure's exhaustion for ``name``; its GURPS consequence is the
        Mestre's (the dungeon's counter of points waiting for one counts it too)."""
        self.member(name)["exhaustion"] += 1
        self.exploration.exhaustion_points += 1
        self.say(f"{name}: 1 ponto de exaustão — {why}")
        self.hold(P_EXHAUSTION)


def who(names: list[str], party: list[str] | None = None) -> str:
    """Who does a step: «O grupo» when it is the whole party, else the names."""
    if party is not None and len(party) > 1 and set(names) == set(party):
        return "O grupo"
    return ", ".join(names)


def hexes_text(value: Fraction) -> str:
    """A number of hexes as a reader says it: «1/2», «2», «5 1/2»."""
    whole, part = divmod(value.numerator, value.denominator)
    if not part:
        return str(whole)
    fraction = f"{part}/{value.denominator}"
    return f"{whole} {fraction}" if whole else fraction


# --- Avançar ------------------------------------------------------------------------------------


def _forced_march(r: Round, names: list[str], streak: int) -> None:
    """Beyond 2 rounds in a row, Tabela B's «teste de CON» for each one, its DC from the
    campaign's table (12 the first extra round, +3 each after)."""
    extra = streak - procedure_data.FREE_ADVANCE_ROUNDS
    first = r.cell("forced_march", procedure_data.FORCED_MARCH_FIRST)
    step = r.cell("forced_march", procedure_data.FORCED_MARCH_STEP)
    dc = procedure_data.forced_march_dc(extra, first, step)
    modifier = dc_modifier(dc) if dc is not None else None
    asks = f"teste de CON DC {dc}" if dc is not None else "teste de CON (a Tabela B não dá a DC)"
    r.say(
        f"Forçando o avanço: {procedure_data.ordinal(streak)} rodada seguida de Avançar. O texto "
        f"pede a cada um um {asks} (Tabela B: {first or '?'} na 1ª rodada extra, {step or '?'} "
        "nas subsequentes) — de outro jogo; em caso de falha, o personagem deve descansar por 2 "
        "rodadas antes de realizar qualquer outra atividade ou receber 1 ponto de exaustão."
    )
    if modifier is not None:
        r.say(
            f"Em GURPS (leitura da pendência): HT {signed_text(modifier)} — a rolagem do Mestre "
            "deve trazer esse modificador anunciado."
        )
    for name in names:
        r.ask(name, ExplorationTest.Kind.FORCED_MARCH, asks, P_FORCED_MARCH, modifier)
    r.hold(P_FORCED_MARCH, P_FORCED_MARCH_COUNT)


def advance(r: Round, names: list[str]) -> None:
    e, region = r.exploration, r.region
    streak = e.advance_streak + 1
    if streak > procedure_data.FREE_ADVANCE_ROUNDS:
        _forced_march(r, names, streak)
    e.advance_streak = streak
    lost_row = region.losing
    roll, lost = r.chance("losing_direction", lost_row)
    r.say(
        f"Avançar — 1. Tabela C ({region.label}: «{lost_row}», {roll.details['text']}) "
        f"{roll_ref(roll)}: " + ("PERDIDOS." if lost else "no rumo.")
    )
    mode = procedure_data.MODE_BY_KEY[e.travel_mode]
    cell = r.cell("travel_advance", mode.label)
    hexes = procedure_data.hexes_per_round(cell)
    if lost:
        r.lost = True
        r.say(
            f"Avançar — 2. O grupo perdido não avança: os {cell or '?'} hexágono(s) da Tabela A "
            f"({mode.label}) não contam; {hexes_text(Fraction(e.hexes))} na jornada. O Mestre "
            "diz onde o grupo foi parar."
        )
        r.hold(P_LOST)
    elif hexes is None:
        r.say(f"Avançar — 2. A Tabela A desta campanha não dá um número para «{mode.label}».")
    else:
        total = Fraction(e.hexes) + hexes
        e.hexes = str(total)
        r.say(
            f"Avançar — 2. Tabela A ({mode.label}): {cell} hexágono(s); "
            f"{hexes_text(total)} na jornada."
        )
    r.say(NEIGHBOURS_REVEALED)
    events = r.roll("events", column=region.events, die="1d6")
    text = events.details["text"]
    r.say(f"Avançar — 4. Tabela D (1d6, {region.events}) {roll_ref(events)}: {text}.")
    if text != "Nada":
        r.hold(P_UNDEFINED)
    if e.camp_safe:
        e.camp_safe = False
        r.say("O grupo deixa o acampamento: não está mais seguro.")
        r.hold(P_CAMP_SAFE)


# --- Explorar, Forragear / Caçar / Pescar, Criar, Levantar Acampamento, outra -------------------


def explore(r: Round, names: list[str]) -> None:
    column = r.region.events
    roll = r.roll("events", column=column, die="1d8")
    text = roll.details["text"]
    r.say(f"{r.who(names)}: Explorar — 1. Tabela D (1d8, {column}) {roll_ref(roll)}: {text}.")
    if text != "Nada":
        r.hold(P_UNDEFINED)


def find_food(r: Round, names: list[str], activity: str) -> None:
    column = procedure_data.ACTIVITY_BY_KEY[activity].table
    row = r.region.food
    roll, found = r.chance("forage_hunt_fish", row, column=column)
    r.say(
        f"{r.who(names)}: {column} — 1. Tabela E ({r.region.label}: «{row}», "
        f"{roll.details['text']}) {roll_ref(roll)}: "
        + ("acham comida e água." if found else "falha.")
    )
    r.hold(P_FOOD)
    if found:
        for name in names:
            r.books.change(name, SupplyKind.FOOD, 1, f"{column}: achou comida (Tabela E)")
            r.books.change(name, SupplyKind.WATER, 1, f"{column}: achou água (Tabela E)")
        r.say(f"{r.who(names)}: +1 comida e +1 água cada ({supplies_line(r, names)}).")
        return
    accident = r.roll("accidents")
    text = accident.details["text"]
    r.say(f"{r.who(names)}: {column} — 2. Tabela F: Acidentes (1d10) {roll_ref(accident)}: " + text)
    r.mentions(text)


def craft(r: Round, names: list[str]) -> None:
    row = r.region.craft
    cell = r.cell("craft_ammunition", row)
    modifier = procedure_data.table_modifier(cell)
    shown = signed_text(modifier) if modifier is not None else f"«{cell}» (não é um número)"
    asks = f"Teste de DES modificado pela Tabela G ({row}: {shown})"
    for name in names:
        r.say(
            f"{name}: Criar — 1. O texto pede um Teste de DES modificado pela Tabela G: {shown} "
            f"({row}) — de outro jogo; 2. «O personagem cria munição igual ao resultado do teste»"
            " — a munição entra quando a rolagem GURPS do Mestre resolver o teste."
        )
        # Tabela G's modifier is in what it asks; the roll is DX or a skill, the Mestre's.
        r.ask(name, ExplorationTest.Kind.CRAFT, asks, P_CRAFT)
    r.hold(P_CRAFT)


def make_camp(r: Round, names: list[str]) -> None:
    row = procedure_data.BY_KEY["make_camp"].rows[0].label
    roll, safe = r.chance("make_camp", row)
    r.exploration.camp_safe = safe
    r.say(
        f"{r.who(names)}: Levantar Acampamento — 1. 1d6, {roll.details['text']} "
        f"{roll_ref(roll)}: " + ("o grupo está seguro." if safe else "o grupo não está seguro.")
    )
    r.hold(P_MAKE_CAMP, P_CAMP_SAFE)


def other(r: Round, names: list[str]) -> None:
    r.say(OTHER_ACTIVITY.format(who=r.who(names)))


# --- Descansar ----------------------------------------------------------------------------------


def _mishap(r: Round) -> bool:
    """1. Tabela H, when the group is not safe; whether its row 8's 1d6 brought an encounter."""
    if r.exploration.camp_safe:
        r.say("Descansar — 1. O grupo está seguro (Levantar Acampamento): sem Tabela H.")
        r.hold(P_CAMP_SAFE)
        return False
    roll = r.roll("camp_mishaps")
    text = roll.details["text"]
    r.say(f"Descansar — 1. Tabela H: Percalços (1d10) {roll_ref(roll)}: {text}")
    r.mentions(text)
    if roll.details["row"] == "6":
        rations = r.roll("camp_mishap_rations")
        lost = r.books.lose(
            r.exploration.party_names,
            SupplyKind.FOOD,
            rations.total,
            "Percalço 6: comida devorada por animais",
        )
        r.say(
            f"Percalço 6: 1d4 {roll_ref(rations)} — «Perca {rations.total} ração(ões) entre o "
            f"grupo»: {lost} perdida(s) (do estoque comum primeiro, depois de cada um na ordem "
            "de marcha)" + ("." if lost == rations.total else ": não havia mais.")
        )
        r.hold(P_FOOD)
    if roll.details["row"] != "8":
        return False
    chance, met = r.chance("camp_mishap_encounter", "8")
    r.say(
        f"Percalço 8: 1d6, {chance.details['text']} {roll_ref(chance)}: "
        + ("ENCONTRO ALEATÓRIO." if met else "nada.")
    )
    r.hold(P_MISHAP_8)
    return met


# Pendência procedure:running-out: the canon's §6.1 for who has none.
MISSED_MEAL = "Refeição perdida (§6.1): 1 ponto de Fadiga"
NO_WATER = "Sem água (§6.1): 1 ponto de Fadiga e 1 PV"


def supplies_line(r: Round, names: list[str]) -> str:
    return "; ".join(
        f"{n}: comida {r.books.have(n, SupplyKind.FOOD)}, água {r.books.have(n, SupplyKind.WATER)}"
        for n in names
    )


def consume(r: Round, names: list[str]) -> None:
    """2. «Cada membro do grupo consome 1 unidade de comida e 1 de água»: his own, else the
    common stock's; who has none pays the canon's missed meal or day without water."""
    lines = []
    for name in names:
        spent = []
        for kind, label, missing in (
            (SupplyKind.FOOD, "comida", MISSED_MEAL),
            (SupplyKind.WATER, "água", NO_WATER),
        ):
            holder = r.books.consume(name, kind, "Descansar: consome 1 unidade")
            if holder is None:
                spent.append(f"sem {label} — {missing}")
                hp = -1 if kind == SupplyKind.WATER else 0
                r.state.append((name, hp, -1, f"Descansar sem {label}: {missing}"))
                r.hold(P_RUNNING_OUT)
            else:
                spent.append(f"{label} {'do estoque comum' if not holder else 'sua'}")
        lines.append(f"{name}: " + ", ".join(spent))
    r.say(
        "Descansar — 2. Cada membro do grupo consome 1 unidade de comida e 1 de água: "
        + "; ".join(lines)
        + "."
    )
    r.hold(P_FOOD)


def recover(r: Round, name: str) -> str:
    """4. «Recupera … 1 de exaustão»: the character's level goes down one (not below 0)."""
    member = r.member(name)
    before = member["exhaustion"]
    member["exhaustion"] = max(0, before - 1)
    return f"{name}: exaustão {before} → {member['exhaustion']}"


def rest(r: Round, names: list[str]) -> None:
    interrupted = _mishap(r) or r.encounter
    consume(r, names)
    r.say(HIT_DICE)
    r.hold(P_HIT_DICE)
    for name in names:
        r.member(name)["rested_today"] = True
    if interrupted:
        r.say(
            "Descanso interrompido pelo encontro: «Cada interrupção do descanso necessita um "
            "teste de CON DC 12 ou o personagem não recebe os benefícios.» — de outro jogo; o "
            "passo 4 de cada um espera o seu teste."
        )
        for name in names:
            r.ask(name, ExplorationTest.Kind.REST, "teste de CON DC 12", P_REST_CON)
        r.hold(P_REST_CON, P_REST_INTERRUPTED)
        return
    recovered = "; ".join(recover(r, name) for name in names)
    r.say(
        "Descansar — 4. Recupera 1 de dano em cada atributo, 1 de sanidade e 1 de exaustão: "
        f"{recovered} (dano de atributo e sanidade são de outro jogo)."
    )
    r.hold(P_RECOVERY)


def run(r: Round, activity: str, names: list[str]) -> None:
    """Run ``activity``'s steps for ``names``."""
    if activity in procedure_data.FOOD_ACTIVITIES:
        find_food(r, names, activity)
        return
    steps = {
        "advance": advance,
        "explore": explore,
        "craft": craft,
        "make_camp": make_camp,
        "rest": rest,
        "other": other,
    }
    steps[activity](r, names)
