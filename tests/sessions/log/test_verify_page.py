"""The verify page of the Árbitro's console (sessions.log.views.rolls_verify_page, at
/console/rolagens/): it recomputes each campaign's chain and says "íntegra, N rolagens" or
names the first broken link — a roll edited or deleted behind the site's back included."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from sessions.log import chain
from sessions.log import services as log_services
from sessions.models import Roll
from tests.sheets.pages import content, text


@pytest.fixture
def rolls(scene, mestre, rastreador, hoplita):
    made = [
        log_services.roll_create(
            scene=scene,
            user=mestre,
            label="Observação",
            base_level=13,
            kind="skill",
            character=rastreador,
            hidden=n == 1,
        )
        for n in range(3)
    ]
    made.append(log_services.damage_roll_create(scene=scene, user=mestre, expression="1d+2"))
    return made


def _page(client) -> str:
    return text(content(client.get(reverse("rolls-verify-page"))))


def test_its_url_is_the_consoles():
    assert reverse("rolls-verify-page") == "/console/rolagens/"


def test_it_works(client_for, arbitro, rolls):
    assert "Íntegra, 4 rolagens." in _page(client_for(arbitro))


def test_it_requires_login(client, demo):
    assert client.get(reverse("rolls-verify-page")).url.startswith("/entrar/")


def test_any_member_may_check(client_for, jogador, rolls):
    assert "Íntegra, 4 rolagens." in _page(client_for(jogador))


def test_it_shows_only_the_users_campaigns(client_for, outsider, rolls):
    html = content(client_for(outsider).get(reverse("rolls-verify-page")))
    assert 'data-testid="chain-outra"' in html
    assert 'data-testid="chain-a-garganta"' not in html
    assert "Íntegra, 0 rolagens." in text(html)


@pytest.mark.parametrize(
    ("sql", "broken_at"),
    [
        ("UPDATE {table} SET total = 3 WHERE sequence = 2", 2),
        ("UPDATE {table} SET dice = '[1, 1, 1]' WHERE sequence = 3", 3),
        ("UPDATE {table} SET label = 'Outra coisa' WHERE sequence = 1", 1),
        ("UPDATE {table} SET hidden = FALSE WHERE sequence = 2", 2),
        ('UPDATE {table} SET details = \'{{"expression": "6d"}}\' WHERE sequence = 4', 4),
        ("DELETE FROM {table} WHERE sequence = 2", 3),
        ("DELETE FROM {table} WHERE sequence = 4", None),
    ],
)
def test_a_roll_edited_or_deleted_behind_the_sites_back_is_named(
    client_for, arbitro, demo, rolls, sql, broken_at
):
    with connection.cursor() as cursor:
        cursor.execute(sql.format(table=Roll._meta.db_table))
    page = _page(client_for(arbitro))
    report = chain.rolls_verify(demo)
    if broken_at is None:
        # Deleting the last roll leaves a shorter chain that still links: the count says it.
        assert "Íntegra, 3 rolagens." in page
        assert report == chain.ChainReport(True, 3, None)
    else:
        assert f"QUEBRADA na rolagem #{broken_at}" in page
        assert (report.ok, report.first_broken) == (False, broken_at)
        out = StringIO()
        with pytest.raises(CommandError, match=f"#{broken_at}"):
            call_command("verify_rolls", stdout=out)
        assert f"a-garganta: QUEBRADA na rolagem #{broken_at}" in out.getvalue()
