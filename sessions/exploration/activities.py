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

from procedure import asks as procedure_asks
from procedure import exhaustion as procedure_exhaustion
from procedure import journey as procedure_journey
from procedure import tables as procedure_tables
from procedure.journey import Region, hexes_text
from procedure.pendencies import (
    P_CAMP_SAFE,
    P_CHANCE,
    P_CRAFT,
    P_DISEASE,
    P_EXHAUSTION,
    P_FOOD,
    P_FORCED_MARCH,
    P_FORCED_MARCH_COUNT,
    P_HIT_DICE,
    P_LOST,
    P_MAKE_CAMP,
    P_MISHAP_8,
    P_RECOVERY,
    P_REST_CON,
    P_REST_INTERRUPTED,
    P_RUNNING_OUT,
    P_UNDEFINED,
)
from procedure.rolling import RandomSource
from procedure.rolling import signed as signed_text
from sessions.exploration import native
from sessions.exploration.steps import procedure_part, roll_ref
from sessions.exploration.supplies import Kind as SupplyKind
from sessions.exploration.supplies import Ledger
from sessions.models import Exploration, ExplorationTest, RandomTable, Roll
from sessions.procedure import services as procedure_services

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

NEIGHBOURS_REVEALED = (
    "Avançar — 3. Todos os PdIs óbvios e o tipo de terreno dos hexes vizinhos são revelados: o "
    "Mestre os diz (o site não tem o mapa)."
)
OTHER_ACTIVITY = "{who}: atividade fora do escopo das regras — o Mestre a narra."


@dataclass(frozen=True)
class Ask:
    """A test the text asks of one character, to be written once the round's event exists;
    ``roll`` and ``passed`` when the tracker rolled it itself (a native procedure: resolved in
    the same event)."""

    character: str
    kind: str
    asks: str
    pendency: str
    modifier: int | None = None
    roll: Roll | None = None
    passed: bool | None = None


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
    # A native procedure (sessions.exploration.native): the sheets read this round, who lost
    # the rest's benefits to a failed save, who waits for the Mestre's roll, who ate and drank.
    sheets: dict = field(default_factory=dict)
    rest_lost: set = field(default_factory=set)
    rest_waiting: set = field(default_factory=set)
    fed: dict = field(default_factory=dict)

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

    def resolved(self, kind: str, asks: str, pendency: str, save: native.Save) -> None:
        """A test the tracker rolled itself (a native procedure): its line, its roll in the
        round's, and the test written resolved with the round's event (one without a roll —
        failed unrolled — is only said)."""
        self.say(save.line)
        if save.roll is not None:
            self.rolls.append(save.roll)
            self.asked.append(Ask(save.name, kind, asks, pendency, None, save.roll, save.passed))

    @property
    def native(self) -> bool:
        """Whether the campaign's ruleset plays the procedure natively (the Xuleta)."""
        return native.is_native(self.exploration.scene.week.campaign)

    def ask_rest(self, names: list[str], kind: str, asks: str, pendency: str) -> None:
        """The rest's «teste de CON DC 12» (an interruption, a mishap row) of each of ``names``,
        as the campaign's system resolves it (GURPS: the Mestre's choice, no modifier; the
        Xuleta: the site rolls each one's Constitution save from his sheet, a failure losing
        the rest's benefits — ``rest_lost``)."""
        if self.native:
            self._rest_saves(names, kind, asks, pendency)
            return
        resolution = self.rules.resolve_ask(
            procedure_asks.Ask(
                procedure_asks.SAVE,
                pendency=pendency,
                ability=procedure_asks.REST_ABILITY,
                dc=procedure_asks.REST_INTERRUPTED_DC,
                text=asks,
            )
        )
        if resolution.line:
            self.say(resolution.line)
        for name in names:
            self.ask(name, kind, asks, pendency, resolution.modifier)

    def _rest_saves(self, names: list[str], kind: str, asks: str, pendency: str) -> None:
        e = self.exploration
        for name in names:
            sheet = native.sheet_of(e, name, self.sheets)
            if sheet is None:
                self.say(native.NO_SHEET.format(name=name))
                self.ask(name, kind, asks, pendency)
                self.rest_waiting.add(name)
                continue
            save = native.roll_save(
                e,
                self.user,
                self.source,
                sheet,
                native.CON,
                procedure_asks.REST_INTERRUPTED_DC,
                asks,
                native.disadvantages_of(e, name),
            )
            self.resolved(kind, asks, pendency, save)
            if not save.passed:
                self.rest_lost.add(name)

    def member(self, name: str) -> dict:
        return self.exploration.party.setdefault(name, procedure_exhaustion.fresh_member())

    @property
    def rules(self):
        """The campaign's ruleset's procedure part (``rulesets.base.ProcedurePart``)."""
        return procedure_part(self.exploration.scene.week.campaign)

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
        """One point of the procedure's exhaustion for ``name``; its consequence in the
        campaign's system is the Mestre's (the dungeon's counter of points waiting for one counts
        it too)."""
        if native.exhaustion_native(self.exploration.scene.week.campaign):
            self.say(native.exhaust(self.exploration, name, 1, why, self.sheets))
            self.hold(P_EXHAUSTION)
            return
        procedure_exhaustion.gain(self.member(name))
        self.exploration.exhaustion_points += 1
        self.say(f"{name}: 1 ponto de exaustão — {why}")
        self.hold(P_EXHAUSTION)


def who(names: list[str], party: list[str] | None = None) -> str:
    """Who does a step: «O grupo» when it is the whole party, else the names."""
    if party is not None and len(party) > 1 and set(names) == set(party):
        return "O grupo"
    return ", ".join(names)


# --- Avançar ------------------------------------------------------------------------------------


def _forced_march(r: Round, names: list[str], streak: int) -> None:
    """Beyond 2 rounds in a row, Tabela B's «teste de CON» for each one, its DC from the
    campaign's table (12 the first extra round, +3 each after)."""
    if r.native and _forced_march_native(r, names, streak):
        return
    extra = streak - procedure_journey.FREE_ADVANCE_ROUNDS
    first = r.cell("forced_march", procedure_journey.FORCED_MARCH_FIRST)
    step = r.cell("forced_march", procedure_journey.FORCED_MARCH_STEP)
    dc = procedure_journey.forced_march_dc(extra, first, step)
    asks = f"teste de CON DC {dc}" if dc is not None else "teste de CON (a Tabela B não dá a DC)"
    resolution = r.rules.resolve_ask(
        procedure_asks.Ask(
            procedure_asks.SAVE,
            pendency=P_FORCED_MARCH,
            ability=procedure_asks.FORCED_MARCH_ABILITY,
            dc=dc,
            text=asks,
        )
    )
    modifier = resolution.modifier
    r.say(
        f"Forçando o avanço: {procedure_journey.ordinal(streak)} rodada seguida de Avançar. O texto "
        f"pede a cada um um {asks} (Tabela B: {first or '?'} na 1ª rodada extra, {step or '?'} "
        "nas subsequentes) — de outro jogo; em caso de falha, o personagem deve descansar por 2 "
        "rodadas antes de realizar qualquer outra atividade ou receber 1 ponto de exaustão."
    )
    if resolution.line:
        r.say(resolution.line)
    for name in names:
        r.ask(name, ExplorationTest.Kind.FORCED_MARCH, asks, P_FORCED_MARCH, modifier)
    r.hold(P_FORCED_MARCH, P_FORCED_MARCH_COUNT)


def _dead(r: Round, sheet, name: str) -> bool:
    """A dead character (his sheet's state ``dead``) makes no save of the march: said, skipped."""
    if sheet is None or not sheet.state.get("dead"):
        return False
    r.say(f"{name} está morto: não faz salvação da marcha forçada.")
    return True


def _forced_march_native(r: Round, names: list[str], streak: int) -> bool:
    """The forced march in a Xuleta campaign, rolled from each sheet, by the house setting
    ``forced_march``: the Xuleta's saves per extra hour, or Tabela B's one save a round. False
    only when Tabela B gives no DC (the Árbitro's row unreadable): then the caller asks the
    test as written, for the Mestre's roll."""
    e = r.exploration
    answer = native.house_answers(e.scene.week.campaign)[native.FORCED_MARCH]
    r.say(f"Forçando o avanço ({procedure_journey.ordinal(streak)} rodada seguida): {answer.text}")
    r.hold(P_FORCED_MARCH, P_FORCED_MARCH_COUNT)
    if answer.value == native.XULETA:
        saves = native.forced_march_xuleta(e.scene.week.campaign, streak)
        hours = procedure_clock_hours(streak)
        dcs = ", ".join(str(dc) for _, dc in saves)
        r.say(
            f"Marxa forçada (§8.1), horas {hours[0]}–{hours[1]} de viagem do dia: «per cada hora "
            f"de més, salvació de Constitució CD 10 + 1 per hora extra. Si falles, un nivell "
            f"d'esgotament.» — CD {dcs}, de cada um."
        )
        for name in names:
            sheet = native.sheet_of(e, name, r.sheets)
            if _dead(r, sheet, name):
                continue
            if sheet is None:
                r.say(native.NO_SHEET.format(name=name))
                for _, dc in saves:
                    r.ask(
                        name,
                        ExplorationTest.Kind.FORCED_MARCH,
                        f"salvació de Constitució CD {dc}",
                        P_FORCED_MARCH,
                    )
                continue
            failed = 0
            for hour, dc in saves:
                asks = f"salvació de Constitució CD {dc} (hora extra {hour})"
                save = native.roll_save(
                    e,
                    r.user,
                    r.source,
                    sheet,
                    native.CON,
                    dc,
                    asks,
                    native.disadvantages_of(e, name),
                )
                r.resolved(ExplorationTest.Kind.FORCED_MARCH, asks, P_FORCED_MARCH, save)
                failed += not save.passed
            if failed:
                r.say(native.exhaust(e, name, failed, "marxa forçada", r.sheets))
            else:
                r.say(f"{name} segue sem esgotamento.")
        return True
    # The procedure's Tabela B, each one's save rolled from his sheet.
    extra = streak - procedure_journey.FREE_ADVANCE_ROUNDS
    first = r.cell("forced_march", procedure_journey.FORCED_MARCH_FIRST)
    step = r.cell("forced_march", procedure_journey.FORCED_MARCH_STEP)
    dc = procedure_journey.forced_march_dc(extra, first, step)
    if dc is None:
        return False
    asks = f"teste de CON DC {dc}"
    r.say(
        f"Tabela B: {asks} de cada um ({first} na 1ª rodada extra, {step} nas subsequentes); em "
        "caso de falha, o personagem deve descansar por 2 rodadas antes de realizar qualquer "
        "outra atividade ou receber 1 ponto de exaustão."
    )
    for name in names:
        sheet = native.sheet_of(e, name, r.sheets)
        if _dead(r, sheet, name):
            continue
        if sheet is None:
            r.say(native.NO_SHEET.format(name=name))
            r.ask(name, ExplorationTest.Kind.FORCED_MARCH, asks, P_FORCED_MARCH)
            continue
        save = native.roll_save(
            e, r.user, r.source, sheet, native.CON, dc, asks, native.disadvantages_of(e, name)
        )
        r.resolved(ExplorationTest.Kind.FORCED_MARCH, asks, P_FORCED_MARCH, save)
        if not save.passed:
            r.member(name)["rest_owed"] = procedure_journey.FORCED_MARCH_REST_ROUNDS
            r.say(
                f"{name} deve descansar por 2 rodadas antes de realizar qualquer outra atividade "
                "ou receber 1 ponto de exaustão."
            )
    return True


def procedure_clock_hours(streak: int) -> tuple[int, int]:
    """The hours of the day's travel the ``streak``-th round of Avançar covers (9–12 …)."""
    hours = native.procedure_clock.ROUND_HOURS
    return (streak - 1) * hours + 1, streak * hours


def advance(r: Round, names: list[str]) -> None:
    e, region = r.exploration, r.region
    streak = e.advance_streak + 1
    if procedure_journey.advance_forced(streak):
        _forced_march(r, names, streak)
    e.advance_streak = streak
    lost_row = region.losing
    roll, lost = r.chance("losing_direction", lost_row)
    r.say(
        f"Avançar — 1. Tabela C ({region.label}: «{lost_row}», {roll.details['text']}) "
        f"{roll_ref(roll)}: " + ("PERDIDOS." if lost else "no rumo.")
    )
    mode = procedure_journey.MODE_BY_KEY[e.travel_mode]
    cell = r.cell("travel_advance", mode.label)
    hexes = procedure_journey.hexes_per_round(cell)
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
    column = procedure_journey.ACTIVITY_BY_KEY[activity].table
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
    modifier = procedure_journey.table_modifier(cell)
    shown = signed_text(modifier) if modifier is not None else f"«{cell}» (não é um número)"
    asks = f"Teste de {procedure_asks.CRAFT_ABILITY} modificado pela Tabela G ({row}: {shown})"
    if r.native and modifier is not None:
        _craft_native(r, names, modifier, asks)
        return
    # Tabela G's modifier is in what it asks; the roll is the ruleset's (GURPS: DX or a skill).
    resolution = r.rules.resolve_ask(
        procedure_asks.Ask(
            procedure_asks.SAVE,
            pendency=P_CRAFT,
            ability=procedure_asks.CRAFT_ABILITY,
            modifier=modifier,
            text=asks,
        )
    )
    for name in names:
        r.say(
            f"{name}: Criar — 1. O texto pede um Teste de DES modificado pela Tabela G: {shown} "
            f"({row}) — de outro jogo; 2. «O personagem cria munição igual ao resultado do teste»"
            f" — {r.rules.texts.craft_waits}"
        )
        r.ask(name, ExplorationTest.Kind.CRAFT, asks, P_CRAFT, resolution.modifier)
    r.hold(P_CRAFT)


def _craft_native(r: Round, names: list[str], modifier: int, asks: str) -> None:
    """Criar in a Xuleta campaign: each one's Destresa check (d20 + his sheet's check + Tabela
    G's modifier) rolled into the chain; «O personagem cria munição igual ao resultado do
    teste» — the total, never fewer than 0 (the part's reading). Who has no sheet is asked."""
    e = r.exploration
    rules = native.part(e.scene.week.campaign)
    for name in names:
        sheet = native.sheet_of(e, name, r.sheets)
        if sheet is None:
            r.say(native.NO_SHEET.format(name=name))
            r.ask(name, ExplorationTest.Kind.CRAFT, asks, P_CRAFT)
            continue
        made = native.roll_check(e, r.user, r.source, sheet, native.DEX, modifier, asks)
        count = rules.crafted_from_total(made.total)
        if count:
            r.books.change(name, SupplyKind.AMMUNITION, count, f"Criar: resultado {made.total}")
        r.say(
            f"{made.line} Cria {count} munição(ões); tem "
            f"{r.books.have(name, SupplyKind.AMMUNITION)}."
        )
        r.rolls.append(made.roll)
        r.asked.append(
            Ask(name, ExplorationTest.Kind.CRAFT, asks, P_CRAFT, None, made.roll, count > 0)
        )
    r.hold(P_CRAFT)


def make_camp(r: Round, names: list[str]) -> None:
    row = procedure_tables.BY_KEY["make_camp"].rows[0].label
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


def _mishap_native(r: Round, row: str, names: list[str]) -> None:
    """A Xuleta campaign plays Tabela H's d20 rows: 7's «DESV nas próximas duas rodadas» is
    disadvantage on the procedure's saves of those resting for the 2 rounds after; 9's «Teste
    de DES DC 12 ou perde 1 item aleatório» a Destresa save of each (the item is the
    Mestre's)."""
    e = r.exploration
    if row == "7":
        native.give_disadvantage(e, names, 2, "Percalço 7: DESV nas próximas duas rodadas")
        r.say(
            f"{r.who(names)}: desavantatge (§4.4) nas salvações do procedimento das próximas "
            "duas rodadas."
        )
    if row == "9":
        asks = "Teste de DES DC 12"
        for name in names:
            sheet = native.sheet_of(e, name, r.sheets)
            if sheet is None:
                r.say(f"{name}: sem ficha na cena — o Mestre rola o {asks}.")
                continue
            save = native.roll_save(
                e, r.user, r.source, sheet, native.DEX, 12, asks, native.disadvantages_of(e, name)
            )
            r.resolved(ExplorationTest.Kind.REST, asks, "procedure:camp-mishap-9-des-dc12", save)
            if not save.passed:
                r.say(f"{name} perde 1 item aleatório (o Mestre diz qual).")


def _mishap(r: Round, names: list[str] | None = None) -> bool:
    """1. Tabela H, when the group is not safe; whether its row 8's 1d6 brought an encounter."""
    if r.exploration.camp_safe:
        r.say("Descansar — 1. O grupo está seguro (Levantar Acampamento): sem Tabela H.")
        r.hold(P_CAMP_SAFE)
        return False
    roll = r.roll("camp_mishaps")
    text = roll.details["text"]
    r.say(f"Descansar — 1. Tabela H: Percalços (1d10) {roll_ref(roll)}: {text}")
    r.mentions(text)
    if r.native:
        _mishap_native(r, roll.details["row"], names or r.exploration.party_names)
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


def supplies_line(r: Round, names: list[str]) -> str:
    return "; ".join(
        f"{n}: comida {r.books.have(n, SupplyKind.FOOD)}, água {r.books.have(n, SupplyKind.WATER)}"
        for n in names
    )


def consume(r: Round, names: list[str]) -> None:
    """2. «Cada membro do grupo consome 1 unidade de comida e 1 de água»: his own, else the
    common stock's; who has none pays what the campaign's system says (pendência
    procedure:running-out; GURPS: the canon's missed meal or day without water, §6.1)."""
    lines = []
    for name in names:
        spent = []
        r.fed[name] = True
        for kind, label in ((SupplyKind.FOOD, "comida"), (SupplyKind.WATER, "água")):
            holder = r.books.consume(name, kind, "Descansar: consome 1 unidade")
            if holder is None:
                cost = r.rules.running_out(kind)
                spent.append(f"sem {label} — {cost.text}")
                r.fed[name] = False
                if cost.hp or cost.fatigue:  # the Xuleta's costs nothing but the long rest's
                    why = f"Descansar sem {label}: {cost.text}"
                    r.state.append((name, cost.hp, cost.fatigue, why))
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
    before, after = procedure_exhaustion.recover(r.member(name))
    return f"{name}: exaustão {before} → {after}"


# «Cada interrupção do descanso necessita um teste de CON DC 12 ou o personagem não recebe os
# benefícios.»
REST_ASKS = f"teste de CON DC {procedure_asks.REST_INTERRUPTED_DC}"


def rest_native(r: Round, names: list[str], *, hours_slept: int = 0) -> None:
    """A Xuleta campaign's Descansar step 4 for ``names`` after its saves: the benefits
    (``native.rest_benefits``, by the house setting ``rest``) for who passed every save, none
    for who failed one, the Mestre's roll awaited for who has no sheet."""
    e = r.exploration
    answer = native.house_answers(e.scene.week.campaign)[native.REST]
    r.say(f"Descansar — 4. {answer.text}")
    ends_at = native.clock_minutes(
        e, travel_rounds=0 if hours_slept else 1, hours_slept=hours_slept
    )
    for name in names:
        if name in r.rest_lost:
            r.say(f"{name} não recebe os benefícios do descanso (falhou a salvação).")
        elif name in r.rest_waiting:
            r.say(f"{name}: os benefícios esperam a rolagem do Mestre.")
        else:
            for line in native.rest_benefits(
                e, r.source, name, fed=r.fed.get(name, False), ends_at=ends_at, cache=r.sheets
            ):
                r.say(line)
    r.hold(P_RECOVERY)


def rest(r: Round, names: list[str]) -> None:
    interrupted = _mishap(r, names) or r.encounter
    consume(r, names)
    r.say(r.rules.texts.hit_dice)
    r.hold(P_HIT_DICE)
    for name in names:
        r.member(name)["rested_today"] = True
    if interrupted:
        r.say(
            "Descanso interrompido pelo encontro: «Cada interrupção do descanso necessita um "
            "teste de CON DC 12 ou o personagem não recebe os benefícios.» — de outro jogo; o "
            "passo 4 de cada um espera o seu teste."
        )
        r.ask_rest(names, ExplorationTest.Kind.REST, REST_ASKS, P_REST_CON)
        r.hold(P_REST_CON, P_REST_INTERRUPTED)
        if r.native:
            rest_native(r, names)
        return
    if r.native:
        rest_native(r, names)
        return
    recovered = "; ".join(recover(r, name) for name in names)
    r.say(
        "Descansar — 4. Recupera 1 de dano em cada atributo, 1 de sanidade e 1 de exaustão: "
        f"{recovered} (dano de atributo e sanidade são de outro jogo)."
    )
    r.hold(P_RECOVERY)


def run(r: Round, activity: str, names: list[str]) -> None:
    """Run ``activity``'s steps for ``names``."""
    if activity in procedure_journey.FOOD_ACTIVITIES:
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
