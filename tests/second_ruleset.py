"""A second, minimal ruleset defined by the tests (a d20 system with one closed set, one chapter
and one table), and one with dice only: registered by ``ruleset_register`` to prove that the
vocabularies, the rules pages and API and the MCP instructions follow the campaign's ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from campaigns.models import Campaign, Membership
from garganta_site.founding import campaign_create
from rulesets.base import Ruleset
from rulesets.registry import ruleset_register, ruleset_unregister
from rulesets.vocabulary import ClosedSet, Term, closed_set

D20 = "teste_d20"
D20_LABEL = "Sistema de teste (d20)"
DICE_ONLY = "teste_so_dados"
DICE_ONLY_LABEL = "Sistema de teste só com dados"


@dataclass(frozen=True)
class Table:
    """A table as the rules pages read one (the attributes of ``ruletexts.CanonTable``)."""

    key: str
    title: str
    section: str
    page: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    decided: str | None = None
    note: str = ""
    notes: tuple[str, ...] = ()


class D20Pages:
    def vocabularies(self, table: Mapping[str, Sequence[tuple[str, str]]]) -> tuple[ClosedSet, ...]:
        return (
            closed_set(
                "action", "Ações", "1.1", (Term("dash", "Disparada"), Term("dodge", "Esquivar"))
            ),
        )

    def chapters(self) -> Sequence[tuple[str, str]]:
        return (("1", "Ações em combate"),)

    def section_titles(self) -> Mapping[str, str]:
        return {"1.1": "A ação", "1.2": "Condições"}

    def tables(self) -> Sequence[Table]:
        return (
            Table(
                "d20_actions",
                "Ações do turno",
                "1.1",
                "",
                ("Ação", "Efeito"),
                (("Disparada", "deslocamento dobrado"),),
            ),
        )

    def house_settings(self) -> Sequence[object]:
        return ()

    def readings(self) -> Sequence[object]:
        return ()


SECOND = Ruleset(key=D20, label=D20_LABEL, dice=object(), pages=D20Pages())
BARE = Ruleset(key=DICE_ONLY, label=DICE_ONLY_LABEL, dice=object())


def register():
    """Register both test rulesets for one test, and forget them after it (a generator for an
    autouse fixture: a registration must not outlive its test in the worker that ran it)."""
    ruleset_register(SECOND)
    ruleset_register(BARE)
    yield
    ruleset_unregister(SECOND.key)
    ruleset_unregister(BARE.key)


def campaign_on(key: str, *, slug: str, user, role=Membership.Role.MESTRE) -> Campaign:
    """A new campaign on ruleset ``key`` (set before it has a sheet or a roll), ``user`` in it."""
    campaign = campaign_create(slug=slug, name=f"Campanha {slug}")
    Campaign.objects.filter(pk=campaign.pk).update(ruleset=key)
    campaign.refresh_from_db()
    Membership.objects.create(user=user, campaign=campaign, role=role)
    return campaign
