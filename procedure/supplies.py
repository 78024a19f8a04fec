"""The journey's books of food, water and ammunition, counted as a step goes (``Stock``).

What the text does to them (``sessao-do-mestre.txt``):

- «2. Cada membro do grupo consome 1 unidade de comida e 1 de água.» (Descansar) — his own
  first, then the common stock (``Stock.consume``);
- Tabela H, 6: «Perca 1d4 rações entre o grupo» — the common stock first, then each member in
  the marching order, one at a time (``Stock.lose``).

A count is the sum of its changes; ``changes`` are what a step adds, for the site to store.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FOOD = "food"
WATER = "water"
AMMUNITION = "ammunition"
KINDS = (FOOD, WATER, AMMUNITION)
COMMON = ""  # the holder of the party's common stock
REASON_MAX = 300


def empty() -> dict[str, int]:
    return {kind: 0 for kind in KINDS}


@dataclass
class Stock:
    """{holder: {kind: count}} and the changes a step makes (holder, kind, delta, reason)."""

    counts: dict[str, dict[str, int]]
    changes: list[tuple[str, str, int, str]] = field(default_factory=list)

    def have(self, holder: str, kind: str) -> int:
        return self.counts.setdefault(holder, empty())[kind]

    def change(self, holder: str, kind: str, delta: int, reason: str) -> None:
        if delta:
            self.counts.setdefault(holder, empty())[kind] += delta
            self.changes.append((holder, kind, delta, reason[:REASON_MAX]))

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
