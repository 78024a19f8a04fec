"""The demo week (sessions.demo): week 1 dated by seed_demo; ``manage.py demo_week`` plays
it once through the same services as the pages, and ``--homologate`` reveals its hidden roll."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command

from sessions.log import chain
from sessions.models import Declaration, Roll, WeeklyReport


def test_the_seed_dates_week_1_and_adds_no_entry(scene):
    assert scene.week.opened_at is not None
    assert not Roll.objects.exists() and not Declaration.objects.exists()


def test_the_demo_week_is_played_once(demo):
    call_command("demo_week", stdout=StringIO())
    call_command("demo_week", stdout=StringIO())
    assert Roll.objects.count() == 4
    assert Roll.objects.filter(hidden=True).get().name == "semana-01-rolagem-01"
    assert chain.rolls_verify(demo).ok


def test_homologate_reveals_the_hidden_roll(demo):
    out = StringIO()
    call_command("demo_week", "--homologate", stdout=out)
    assert "/cenas/" in out.getvalue()
    assert WeeklyReport.objects.get().status == "homologated"
    assert Roll.objects.get(hidden=True).scene.week.hidden_rolls_revealed


def test_the_demo_combat_starts_once_with_the_mestres_demo_creatures(demo):
    from sessions.models import Combat, Combatant

    out = StringIO()
    call_command("demo_combat", stdout=out)
    call_command("demo_combat", stdout=StringIO())
    assert "/combate/" in out.getvalue()
    combat = Combat.objects.get()
    assert combat.round == 1
    names = set(combat.combatants.values_list("name", flat=True))
    assert names == {
        "Jurado de Gapheim",
        "Hoplita de Ônfalos",
        "Cavador-cinzento A",
        "Cavador-cinzento B",
    }
    creatures = Combatant.objects.filter(combat=combat, kind="creature")
    assert all("não são do cânone" in c.demo_note for c in creatures)
    assert not Roll.objects.exists()
