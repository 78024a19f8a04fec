"""The Mestre's session procedure (``sessao-do-mestre.txt``): its random tables as each
campaign keeps them, the rolls on them, and the Árbitro's changes to their rows.

No die comes from a client (docs/DESIGN.md, invariant 1 (The server rolls)): ``procedure_roll`` and
``procedure_chance`` take a table's key (and a column, a row), roll on the server and append one
chained ``Roll`` of kind "table" whose ``details`` say which table, die, column and row it landed
on, what the row says and where the table stands in the text. The exploration tracker calls these.

The tables are seeded per campaign from ``procedure.tables`` (``procedure_tables_seed``,
idempotent by key: a table the Árbitro has edited stays as he left it).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from campaigns.access import ARBITRO, campaign_role_required
from campaigns.errors import ServiceError
from campaigns.models import Campaign
from procedure import journey as procedure_journey
from procedure import tables as table_rules
from procedure.errors import BadDie
from procedure.rolling import RandomSource
from procedure.rolling import signed as signed_text
from sessions import entries
from sessions.entries import ensure_scene_accepts_entries as _ensure_scene_accepts_entries
from sessions.entries import require_table as _require_table
from sessions.log.chain import append_with_retries as _append_with_retries
from sessions.models import RandomTable, RandomTableRow, RandomTableRowChange, Roll, Scene

UNKNOWN_PROCEDURE_TABLE = table_rules.UNKNOWN_TABLE
NOT_ROLLED = "A {name} não se rola: o texto não dá um dado para ela (é de consulta)."
NOT_A_CHANCE = "A {name} não é de chance «N:6»: role nela com procedure_roll."
NOT_A_ROLL = "A {name} é de chance «N:6»: diga a linha e use procedure_chance."
COLUMN_REQUIRED = "A {name} tem mais de uma coluna: escolha uma ({columns})."
UNKNOWN_COLUMN = "A {name} não tem a coluna «{column}» ({columns})."
UNKNOWN_ROW = "A {name} não tem a linha «{row}» ({rows})."
UNKNOWN_DIE = "A {name} se rola com {dice}, não com {die}."
MODIFIER_LEAVES_THE_TABLE = (
    "Com modificador {modifier}, a {name} poderia dar {total}, que não tem linha: "
    "nada foi rolado. Use um modificador que mantenha todo resultado na tabela."
)
NO_ROW_FOR_TOTAL = (
    "A {name} não tem linha para o total {total} (dado {face}, modificador {modifier})."
)
CELL_NOT_A_CHANCE = "A célula «{cell}» não começa com «N:6»: o Árbitro precisa corrigir a linha."
MODIFIER_OUT_OF_RANGE = "O modificador vai de −20 a +20."
ROW_TEXT_MAX = 2000
# The exploration tracker reads its cadence from these rows ("a cada N turnos", "todo turno").
CADENCE_TABLES = ("danger_levels", "dungeon_rest")
CELL_WITHOUT_CADENCE = (
    "A célula «{cell}» não diz de quanto em quanto se testa («a cada N turnos», «a cada N horas» "
    "ou «todo turno»): o rastreador de exploração a lê."
)
ROW_TEXT_TOO_LONG = "Cada célula e a razão têm no máximo {limit} caracteres."
ONLY_THE_ARBITRO_EDITS = "Só o Árbitro mantém as tabelas do procedimento."
ROW_EDIT_NEEDS_REASON = "Diga por que a linha muda: a razão fica no histórico."
ROW_EDIT_UNCHANGED = "A linha ficou igual: nada a registrar."
ROW_EDIT_CELLS = "A linha tem {count} células, uma por coluna."
PROCEDURE_IDEMPOTENCY_CONFLICT = (
    "Esta chave de idempotência já foi usada por outra rolagem, com outro pedido."
)


# --- reading ------------------------------------------------------------------------------------


def procedure_table(key: str, campaign: Campaign) -> RandomTable:
    """The campaign's current ``key`` table, its rows prefetched (ServiceError if unknown)."""
    table = RandomTable.objects.filter(campaign=campaign, key=key).prefetch_related("rows").first()
    if table is None:
        raise ServiceError(UNKNOWN_PROCEDURE_TABLE.format(key=key), field="key", code="not_found")
    return table


def procedure_tables(campaign: Campaign) -> list[RandomTable]:
    """Every table of the campaign, in the text's order, rows prefetched."""
    return list(RandomTable.objects.filter(campaign=campaign).prefetch_related("rows"))


def procedure_choices(tables: list[RandomTable]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The Mestre's panel's choices, grouped by table: ``(table name, [(value, text)])``.

    A value is ``key|column|row|die``: a rolled table gives one choice per column and die; a
    chance table one per row and column. Reference tables are read, not rolled."""
    groups = []
    for table in tables:
        if not table.is_rolled:
            continue
        options = []
        many = len(table.columns) > 1
        if table.kind == RandomTable.Kind.CHANCE:
            for row in table.rows.all():
                for column in table.columns:
                    text = f"{row.label} — {column}" if many else row.label
                    options.append((f"{table.key}|{column}|{row.label}|1d6", text))
        else:
            for column in table.columns:
                for die in table.dice:
                    parts = [column] if many else []
                    if len(table.dice) > 1:
                        parts.append(die)
                    text = " — ".join(parts) or f"rolar {die}"
                    options.append((f"{table.key}|{column}||{die}", text))
        groups.append((f"{table.name} ({table.source})", options))
    return groups


# --- seeding ------------------------------------------------------------------------------------


@transaction.atomic
def procedure_tables_seed(*, campaign: Campaign) -> int:
    """Put every table of the procedure in ``campaign``; idempotent by key. A table already
    there is left as it is (the Árbitro may have changed its rows). Returns how many it made."""
    have = set(RandomTable.objects.filter(campaign=campaign).values_list("key", flat=True))
    made = 0
    for position, data in enumerate(table_rules.TABLES, start=1):
        if data.key in have:
            continue
        table = RandomTable.objects.create(
            campaign=campaign,
            key=data.key,
            position=position,
            name=data.name,
            part=data.part,
            document=table_rules.DOCUMENT,
            source=data.source,
            kind=data.kind,
            die=data.die,
            other_dice=list(data.other_dice),
            header=data.header,
            columns=list(data.columns),
            note=data.note,
        )
        RandomTableRow.objects.bulk_create(
            RandomTableRow(
                table=table,
                position=index,
                label=row.label,
                low=row.low,
                high=row.high,
                cells=list(row.cells),
            )
            for index, row in enumerate(data.rows, start=1)
        )
        made += 1
    return made


def procedure_tables_seed_all() -> dict[str, int]:
    return {c.slug: procedure_tables_seed(campaign=c) for c in Campaign.objects.order_by("pk")}


# --- rolling ------------------------------------------------------------------------------------


def _column(table: RandomTable, column: str | None) -> str:
    columns = list(table.columns)
    if not column:
        if len(columns) == 1:
            return columns[0]
        raise ServiceError(
            COLUMN_REQUIRED.format(name=table.name, columns=", ".join(columns)), field="column"
        )
    if column not in columns:
        raise ServiceError(
            UNKNOWN_COLUMN.format(name=table.name, column=column, columns=", ".join(columns)),
            field="column",
        )
    return column


def _same(roll: Roll, asked: dict) -> Roll:
    """The roll an earlier request with this key made, if it asked the same thing."""
    details = roll.details or {}
    made = {key: details.get(key) for key in asked}
    if roll.kind != Roll.Kind.TABLE or made != asked:
        raise ServiceError(PROCEDURE_IDEMPOTENCY_CONFLICT, code="idempotency_conflict")
    return roll


def _earlier(campaign: Campaign, request_key: str, asked: dict) -> Roll | None:
    if not request_key:
        return None
    existing = Roll.objects.filter(campaign=campaign, request_key=request_key).first()
    return _same(existing, asked) if existing is not None else None


def _label(table: RandomTable, *parts: str | None) -> str:
    return " — ".join([table.name, *[p for p in parts if p]])[:200]


def procedure_roll(
    *,
    scene: Scene,
    user,
    key: str,
    column: str | None = None,
    modifier: int = 0,
    source: RandomSource | None = None,
    request_key: str = "",
    die: str | None = None,
) -> Roll:
    """Roll table ``key``'s die on the server, find the row the total (die + ``modifier``)
    lands on, and append one chained Roll of kind "table".

    ``details``: ``procedure_table``, ``die``, ``column``, ``row`` (the row's label), ``text``
    (its cell in ``column``), ``source`` (the table's heading in the text), ``face`` and
    ``modifier``. ``column`` may be left out when the table has one; ``die`` only for a table
    rolled with more than one (events: "1d6" when advancing, the default, "1d8" exploring).
    Mestre or Árbitro only; the same ``request_key`` twice returns the first roll, unrolled.
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    table = procedure_table(key, campaign)
    column = _column(table, column)
    if table.kind == RandomTable.Kind.CHANCE:
        raise ServiceError(NOT_A_ROLL.format(name=table.name), field="key")
    if not table.is_rolled:
        raise ServiceError(NOT_ROLLED.format(name=table.name), field="key")
    die = die or table.die
    if die not in table.dice:
        raise ServiceError(
            UNKNOWN_DIE.format(name=table.name, dice=" ou ".join(table.dice), die=die),
            field="die",
        )
    if isinstance(modifier, bool) or not isinstance(modifier, int) or not -20 <= modifier <= 20:
        raise ServiceError(MODIFIER_OUT_OF_RANGE, field="modifier")
    asked = {"procedure_table": key, "column": column, "die": die, "modifier": modifier}
    _require_table(user, campaign, what=entries.ROLLS_PROCEDURE)
    existing = _earlier(campaign, request_key, asked)
    if existing is not None:
        return existing
    _ensure_scene_accepts_entries(scene)
    sides = table_rules.die_sides(die)
    rows = list(table.rows.all())
    spans = [(r.low, r.high) for r in rows]
    # Checked before the die: a total that could land on no row would be a roll thrown away.
    possible = table_rules.total_off_table(spans, sides, modifier)
    if possible is not None:
        raise ServiceError(
            MODIFIER_LEAVES_THE_TABLE.format(
                name=table.name, total=possible, modifier=signed_text(modifier)
            ),
            field="modifier",
        )
    face = (source or entries.dice_source()).randint(1, sides)
    total = face + modifier
    row = rows[table_rules.row_index(spans, total)]
    details = {
        **asked,
        "row": row.label,
        "text": row.cell(list(table.columns), column),
        "source": table.source,
        "document": table.document,
        "face": face,
    }
    fields = {
        "scene": scene,
        "label": _label(table, column if len(table.columns) > 1 else None),
        "kind": Roll.Kind.TABLE.value,
        "dice": [face],
        "total": total,
        "details": details,
        "rolled_by": user,
    }
    return _append_with_retries(campaign, request_key, fields, lambda roll: _same(roll, asked))


def procedure_chance(
    *,
    scene: Scene,
    user,
    key: str,
    row_label: str,
    column: str | None = None,
    source: RandomSource | None = None,
    request_key: str = "",
) -> tuple[Roll, bool]:
    """Roll 1d6 on a chance row of table ``key`` (the text's "N:6": it happens on 1 to N)
    and append one chained Roll of kind "table"; return it and whether it happened.

    ``details`` as ``procedure_roll``'s, plus ``threshold`` (N) and ``happened``. ``column``
    only for a table with more than one (forage_hunt_fish: "Forragear", "Caçar", "Pescar").
    What "happened" means is the row's: an encounter, getting lost, finding food, the camp
    being safe (make_camp), the side being surprised.
    """
    campaign = scene.week.campaign
    request_key = (request_key or "")[:64]
    table = procedure_table(key, campaign)
    if table.kind != RandomTable.Kind.CHANCE:
        raise ServiceError(NOT_A_CHANCE.format(name=table.name), field="key")
    column = _column(table, column)
    rows = list(table.rows.all())
    row = next((r for r in rows if r.label == row_label), None)
    if row is None:
        raise ServiceError(
            UNKNOWN_ROW.format(
                name=table.name, row=row_label, rows=", ".join(r.label for r in rows)
            ),
            field="row_label",
        )
    cell = row.cell(list(table.columns), column)
    threshold = table_rules.chance_threshold(cell)
    if threshold is None:
        raise ServiceError(CELL_NOT_A_CHANCE.format(cell=cell), field="row_label")
    asked = {"procedure_table": key, "column": column, "row": row.label, "die": "1d6"}
    _require_table(user, campaign, what=entries.ROLLS_PROCEDURE)
    existing = _earlier(campaign, request_key, asked)
    if existing is not None:
        return existing, bool(existing.details.get("happened"))
    _ensure_scene_accepts_entries(scene)
    face = (source or entries.dice_source()).randint(1, 6)
    happened = table_rules.happens(face, threshold)
    details = {
        **asked,
        "text": cell,
        "source": table.source,
        "document": table.document,
        "face": face,
        "modifier": 0,
        "threshold": threshold,
        "happened": happened,
        "reading": table_rules.CHANCE_READING,
    }
    fields = {
        "scene": scene,
        "label": _label(table, row.label, column if len(table.columns) > 1 else None),
        "kind": Roll.Kind.TABLE.value,
        "dice": [face],
        "total": face,
        "details": details,
        "rolled_by": user,
    }
    roll = _append_with_retries(campaign, request_key, fields, lambda r: _same(r, asked))
    return roll, bool(roll.details["happened"])


# --- the Árbitro's changes ------------------------------------------------------------------


@transaction.atomic
def random_table_row_edit(
    *, row: RandomTableRow, user, cells: list[str], reason: str
) -> RandomTableRowChange:
    """Change a row's cells; the change keeps what it said, why, by whom and when."""
    table = row.table
    _require_arbitro_tables(user, table.campaign)
    cells = [str(c).strip() for c in cells]
    reason = (reason or "").strip()
    if len(cells) != len(table.columns):
        raise ServiceError(ROW_EDIT_CELLS.format(count=len(table.columns)), field="cells")
    if not reason:
        raise ServiceError(ROW_EDIT_NEEDS_REASON, field="reason")
    if len(reason) > ROW_TEXT_MAX or any(len(cell) > ROW_TEXT_MAX for cell in cells):
        raise ServiceError(ROW_TEXT_TOO_LONG.format(limit=ROW_TEXT_MAX), field="cells")
    if table.kind == RandomTable.Kind.CHANCE:
        # A chance cell the tracker cannot read would stop the Mestre's next roll: refuse it here.
        for cell in cells:
            if table_rules.chance_threshold(cell) is None:
                raise ServiceError(CELL_NOT_A_CHANCE.format(cell=cell), field="cells")
            if table.key in CADENCE_TABLES and table_rules.chance_every(cell) is None:
                raise ServiceError(CELL_WITHOUT_CADENCE.format(cell=cell), field="cells")
    locked = RandomTableRow.objects.select_for_update().get(pk=row.pk)
    if locked.cells == cells:
        raise ServiceError(ROW_EDIT_UNCHANGED, field="cells")
    change = RandomTableRowChange.objects.create(
        row=locked,
        old_cells=list(locked.cells),
        new_cells=cells,
        reason=reason,
        by=user,
        at=timezone.now(),
    )
    RandomTableRow.objects.filter(pk=locked.pk).update(cells=cells)
    row.cells = cells
    return change


TABLE_NAME_EMPTY = "Dê um nome à tabela (ex.: Encontros da Floresta)."
TABLE_REGION_UNKNOWN = (
    "Região desconhecida: " + procedure_journey.labels(procedure_journey.REGIONS) + "."
)
TABLE_REGION_TAKEN = "{region} já tem a sua Tabela de Encontros: acrescente linhas a ela."
TABLE_KEY_TAKEN = "Já há uma tabela com este nome nesta campanha."
TABLE_DIE_UNKNOWN = "O dado da tabela: " + ", ".join(table_rules.ARBITRO_DICE) + "."
ROW_ADD_ONLY_OWN = (
    "Só se acrescentam linhas às tabelas que o Árbitro criou: as do texto ficam como o texto as "
    "escreve (mude as células)."
)
ROW_LABEL_BAD = "A linha é uma face ou faixa do dado: «3», «1-2», «7+»."
ROW_OUTSIDE_DIE = "A {die} vai de 1 a {sides}: a faixa «{label}» sai dela."
ROW_OVERLAPS = "A faixa «{label}» cobre faces que a linha «{other}» já cobre."
ROW_TEXT_EMPTY = "Diga o que a linha traz (o encontro)."


def table_complete(table: RandomTable) -> bool:
    """Whether every face of the table's die lands on a row (a table the Árbitro is still
    filling in is not rolled)."""
    try:
        sides = table_rules.die_sides(table.die)
    except BadDie:
        return False
    return table_rules.complete([(r.low, r.high) for r in table.rows.all()], sides)


@transaction.atomic
def random_table_add(
    *, campaign: Campaign, user, name: str, die: str, region: str = "", note: str = ""
) -> RandomTable:
    """The Árbitro adds a table the text names and lacks — «a Tabela de Encontros da Região
    atual», one per region (``region``, a key of REGIONS) — or any the Mestre needs (no
    region). Rolled on ``die`` (1d4 … 1d20), one column; its rows come one by one
    (``random_table_row_add``), each kept in the history."""
    _require_arbitro_tables(user, campaign)
    name = " ".join((name or "").split())[:200]
    if not name:
        raise ServiceError(TABLE_NAME_EMPTY, field="name")
    if die not in table_rules.ARBITRO_DICE:
        raise ServiceError(TABLE_DIE_UNKNOWN, field="die")
    where = None
    if region:
        where = procedure_journey.REGION_BY_KEY.get(region)
        if where is None:
            raise ServiceError(TABLE_REGION_UNKNOWN, field="region")
        if RandomTable.objects.filter(campaign=campaign, region=region).exists():
            raise ServiceError(TABLE_REGION_TAKEN.format(region=where.label), field="region")
    key = table_rules.regional_key(region) if where else slugify(name)[:40]
    if not key or RandomTable.objects.filter(campaign=campaign, key=key).exists():
        raise ServiceError(TABLE_KEY_TAKEN, field="name")
    last = RandomTable.objects.filter(campaign=campaign).order_by("-position").first()
    return RandomTable.objects.create(
        campaign=campaign,
        key=key,
        position=(last.position if last else 0) + 1,
        name=name,
        part="Encontros Aleatórios" if where else "Tabelas do Árbitro",
        document=table_rules.ARBITRO_DOCUMENT,
        source=table_rules.REGIONAL_SOURCE if where else "Criada pelo Árbitro",
        kind=RandomTable.Kind.ROLL,
        region=region if where else "",
        die=die,
        header=f"Resultado ({die})",
        columns=["Encontro" if where else "Resultado"],
        note=(note or "").strip()[:ROW_TEXT_MAX],
    )


@transaction.atomic
def random_table_row_add(
    *, table: RandomTable, user, label: str, text: str, reason: str
) -> RandomTableRowChange:
    """A row of a table the Árbitro made: ``label`` a face or range of its die («3», «1-2»,
    «7+»), not overlapping another row; its text; why. Kept in the history as a change from
    nothing (``old_cells`` [])."""
    _require_arbitro_tables(user, table.campaign)
    if table.document != table_rules.ARBITRO_DOCUMENT:
        raise ServiceError(ROW_ADD_ONLY_OWN, code="forbidden")
    label = (label or "").strip()
    text = (text or "").strip()
    reason = (reason or "").strip()
    span = table_rules.row_range(label)
    if span is None:
        raise ServiceError(ROW_LABEL_BAD, field="label")
    if not text:
        raise ServiceError(ROW_TEXT_EMPTY, field="text")
    if not reason:
        raise ServiceError(ROW_EDIT_NEEDS_REASON, field="reason")
    if len(text) > ROW_TEXT_MAX or len(reason) > ROW_TEXT_MAX:
        raise ServiceError(ROW_TEXT_TOO_LONG.format(limit=ROW_TEXT_MAX), field="text")
    sides = table_rules.die_sides(table.die)
    low, high = span
    if not table_rules.inside_die(low, high, sides):
        raise ServiceError(
            ROW_OUTSIDE_DIE.format(die=table.die, sides=sides, label=label), field="label"
        )
    RandomTable.objects.select_for_update().get(pk=table.pk)
    rows = list(table.rows.all())
    other = table_rules.overlap([(r.low, r.high) for r in rows], low, high, sides)
    if other is not None:
        raise ServiceError(ROW_OVERLAPS.format(label=label, other=rows[other].label), field="label")
    row = RandomTableRow.objects.create(
        table=table,
        position=max((r.position for r in rows), default=0) + 1,
        label=label,
        low=low,
        high=high,
        cells=[text],
    )
    return RandomTableRowChange.objects.create(
        row=row, old_cells=[], new_cells=[text], reason=reason, by=user, at=timezone.now()
    )


def _require_arbitro_tables(user, campaign: Campaign) -> None:
    campaign_role_required(user, campaign, ARBITRO, message=ONLY_THE_ARBITRO_EDITS)
