"""The journey's books: the food, water and ammunition of each character of the party and of
the party's common stock, kept as ``SupplyChange`` rows (append-only, each with its reason; a
count is the sum of its changes, never a number stored or edited).

What the procedure's steps do to them (``sessao-do-mestre.txt``; the readings are the pendências
procedure:food-water, procedure:running-out and procedure:craft-ammunition-des):

- Forragear/Caçar/Pescar that finds «comida e água»: 1 of each to everyone who searched;
- Descansar: «Cada membro do grupo consome 1 unidade de comida e 1 de água» — his own first,
  then the common stock; without it, the canon's «Refeição perdida» and «Sem água» (§6.1);
- Tabela H, 6: «Perca 1d4 rações entre o grupo» — the common stock first, then each member in
  the marching order, one at a time;
- Criar: «munição igual ao resultado do teste», once the Mestre's GURPS roll resolves it.

The Mestre adjusts any count by hand (``exploration_supply_adjust``) with a reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Sum

from campaigns.errors import ServiceError
from sessions.exploration.steps import action_begin, action_event
from sessions.models import Exploration, ExplorationEvent, SupplyChange

Kind = SupplyChange.Kind
KINDS = (Kind.FOOD, Kind.WATER, Kind.AMMUNITION)
COMMON = ""  # the holder of the party's common stock
COMMON_LABEL = "Estoque comum"
MAX_ADJUST = 10_000

SUPPLY_KIND_UNKNOWN = "Provisão é comida, água ou munição."
SUPPLY_HOLDER_UNKNOWN = (
    "«{name}» não está na ordem de marcha: diga um personagem da jornada, ou o estoque comum."
)
SUPPLY_DELTA_BAD = f"Quanto muda: um número de −{MAX_ADJUST} a {MAX_ADJUST}, diferente de 0."
SUPPLY_REASON_EMPTY = "Diga por que muda (ex.: compradas na vila, caíram no rio)."
SUPPLY_NOT_ENOUGH = "{who} tem {have} de {kind}: não dá para tirar {take}."


def holder_label(holder: str) -> str:
    return holder or COMMON_LABEL


def supply_counts(exploration: Exploration) -> dict[str, dict[str, int]]:
    """{holder: {kind: count}} for the common stock ("") and each name of the marching order,
    every kind present (1 query: the sums of the changes)."""
    counts = {
        holder: {kind.value: 0 for kind in KINDS} for holder in [COMMON, *exploration.party_names]
    }
    rows = (
        SupplyChange.objects.filter(exploration=exploration)
        .values("holder", "kind")
        .annotate(total=Sum("delta"))
    )
    for row in rows:
        counts.setdefault(row["holder"], {kind.value: 0 for kind in KINDS})[row["kind"]] = row[
            "total"
        ]
    return counts


@dataclass
class Ledger:
    """The changes a step makes, counted as it goes and written once its event exists."""

    counts: dict[str, dict[str, int]]
    changes: list[tuple[str, str, int, str]] = field(default_factory=list)

    def have(self, holder: str, kind: str) -> int:
        return self.counts.setdefault(holder, {k.value: 0 for k in KINDS})[kind]

    def change(self, holder: str, kind: str, delta: int, reason: str) -> None:
        if delta:
            self.counts.setdefault(holder, {k.value: 0 for k in KINDS})[kind] += delta
            self.changes.append((holder, kind, delta, reason[:300]))

    def consume(self, name: str, kind: str, reason: str) -> str | None:
        """One unit of ``kind`` for ``name``: his own, else the common stock's. Returns whose it
        was (the holder), or None when there is none."""
        for holder in (name, COMMON):
            if self.have(holder, kind) > 0:
                self.change(holder, kind, -1, reason)
                return holder
        return None

    def lose(self, order: list[str], kind: str, amount: int, reason: str) -> int:
        """Lose ``amount`` of ``kind`` «entre o grupo»: the common stock first, then each member
        in ``order``, one at a time. Returns how many were there to lose."""
        lost = 0
        from_common = min(amount, self.have(COMMON, kind))
        self.change(COMMON, kind, -from_common, reason)
        lost += from_common
        while lost < amount and any(self.have(n, kind) > 0 for n in order):
            for name in order:
                if lost < amount and self.have(name, kind) > 0:
                    self.change(name, kind, -1, reason)
                    lost += 1
        return lost

    def write(self, exploration: Exploration, event: ExplorationEvent, user) -> None:
        SupplyChange.objects.bulk_create(
            SupplyChange(
                exploration=exploration,
                holder=holder,
                kind=kind,
                delta=delta,
                reason=reason,
                event=event,
                author=user,
            )
            for holder, kind, delta, reason in self.changes
        )


def ledger(exploration: Exploration) -> Ledger:
    return Ledger(counts=supply_counts(exploration))


@transaction.atomic
def exploration_supply_adjust(
    *,
    exploration: Exploration,
    user,
    holder: str,
    kind: str,
    delta: int,
    reason: str,
    request_key: str = "",
) -> ExplorationEvent:
    """The Mestre adjusts a count by hand: ``holder`` a name of the marching order or "" (the
    common stock), ``kind`` food/water/ammunition, ``delta`` signed (not 0, not below what
    there is), ``reason`` said. One event and one change; the same ``request_key`` twice
    adjusts once."""
    event_kind = ExplorationEvent.Kind.SUPPLY
    exploration, earlier = action_begin(exploration, user, request_key, event_kind)
    if earlier is not None:
        return earlier
    holder = " ".join((holder or "").split())
    if kind not in Kind.values:
        raise ServiceError(SUPPLY_KIND_UNKNOWN, field="kind")
    if holder and holder not in exploration.party_names:
        raise ServiceError(SUPPLY_HOLDER_UNKNOWN.format(name=holder), field="holder")
    if isinstance(delta, bool) or not isinstance(delta, int) or not delta:
        raise ServiceError(SUPPLY_DELTA_BAD, field="delta")
    if abs(delta) > MAX_ADJUST:
        raise ServiceError(SUPPLY_DELTA_BAD, field="delta")
    reason = " ".join((reason or "").split())[:300]
    if not reason:
        raise ServiceError(SUPPLY_REASON_EMPTY, field="reason")
    books = ledger(exploration)
    label = Kind(kind).label.lower()
    have = books.have(holder, kind)
    if have + delta < 0:
        raise ServiceError(
            SUPPLY_NOT_ENOUGH.format(who=holder_label(holder), have=have, kind=label, take=-delta),
            field="delta",
        )
    books.change(holder, kind, delta, reason)
    event = action_event(
        exploration,
        user,
        event_kind,
        f"{holder_label(holder)}: {delta:+d} de {label} ({have} → {have + delta}) — {reason}",
        data={"holder": holder, "kind": kind, "delta": delta},
        request_key=request_key,
    )
    books.write(exploration, event, user)
    return event
