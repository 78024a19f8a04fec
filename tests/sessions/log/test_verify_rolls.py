"""The chain of rolls can be verified by anyone (sessions.log.chain.rolls_verify and
``manage.py verify_rolls``)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from sessions.log import chain
from sessions.log import services as log_services
from sessions.models import Roll


@pytest.fixture
def rolls(scene, mestre, rastreador):
    return [
        log_services.roll_create(
            scene=scene,
            user=mestre,
            label="Observação",
            base_level=13,
            kind="skill",
            character=rastreador,
            modifiers=[log_services.Modifier("penumbra", -2)],
        )
        for _ in range(3)
    ]


def _tamper_total(roll: Roll) -> None:
    """What a hand in the database would do: change a total behind the ORM's back."""
    new_total = 3 if roll.total != 3 else 4
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Roll._meta.db_table} SET total = %s WHERE id = %s", [new_total, roll.pk]
        )


def _verify_rolls() -> str:
    out = StringIO()
    call_command("verify_rolls", stdout=out)
    return out.getvalue()


def test_an_untouched_chain_is_intact(demo, rolls):
    report = chain.rolls_verify(demo)
    assert (report.ok, report.count, report.first_broken) == (True, 3, None)
    assert "a-garganta: íntegra, 3 rolagens" in _verify_rolls()


def test_an_empty_chain_is_intact(demo):
    assert chain.rolls_verify(demo).ok
    assert "a-garganta: íntegra, 0 rolagens" in _verify_rolls()


def test_a_changed_total_breaks_the_chain_at_that_roll(demo, rolls):
    _tamper_total(rolls[1])

    report = chain.rolls_verify(demo)
    assert (report.ok, report.first_broken) == (False, 2)

    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_rolls", stdout=out)
    assert "a-garganta: QUEBRADA na rolagem #2" in out.getvalue()


def test_a_missing_roll_breaks_the_chain(demo, rolls):
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {Roll._meta.db_table} WHERE id = %s", [rolls[0].pk])
    assert chain.rolls_verify(demo).first_broken == 2


def test_it_checks_one_campaign_when_asked(demo, rolls, outsider):
    out = StringIO()
    call_command("verify_rolls", "--campaign", "outra", stdout=out)
    assert out.getvalue().strip() == "outra: íntegra, 0 rolagens"


def test_the_command_error_names_the_broken_roll(demo, rolls):
    _tamper_total(rolls[1])
    with pytest.raises(CommandError, match="#2"):
        call_command("verify_rolls", stdout=StringIO())
