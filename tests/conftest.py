"""The fixed cast of the tests: the demo campaign as seed_demo makes it, and its people.

- ``jogador`` owns the Jurado de Gapheim; ``jogadora`` owns the Hoplita; ``rastreadora``
  owns the Rastreador; ``mestre`` and ``arbitro`` run the table; ``outsider`` belongs to
  another campaign.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from campaigns.models import Campaign, Membership
from garganta_site.demo import DEMO_PASSWORD, demo_seed
from garganta_site.founding import campaign_create
from sessions.models import Scene
from sheets.models import Character


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache: the count of failed bearer tokens per address
    (campaigns.auth.BearerFailures) of one test is not another's."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def demo(db):
    demo_seed()
    return Campaign.objects.get(slug="a-garganta")


def _user(username):
    return get_user_model().objects.get(username=username)


@pytest.fixture
def jogador(demo):
    return _user("jogador")


@pytest.fixture
def jogadora(demo):
    return _user("jogadora")


@pytest.fixture
def rastreadora(demo):
    return _user("rastreadora")


@pytest.fixture
def mestre(demo):
    return _user("mestre")


@pytest.fixture
def arbitro(demo):
    return _user("arbitro")


@pytest.fixture
def outsider(db):
    other = campaign_create(slug="outra", name="Outra campanha")
    user = get_user_model().objects.create_user("outsider", password=DEMO_PASSWORD)
    Membership.objects.create(user=user, campaign=other, role=Membership.Role.MESTRE)
    return user


@pytest.fixture
def jurado(demo):
    return Character.objects.get(name="Jurado de Gapheim")


@pytest.fixture
def hoplita(demo):
    return Character.objects.get(name="Hoplita de Ônfalos")


@pytest.fixture
def rastreador(demo):
    return Character.objects.get(name="Rastreador de Uruk-Kalam")


@pytest.fixture
def scene(demo):
    return Scene.objects.get(title="A galeria do andar 3")


@pytest.fixture
def client_for(client):
    """``client_for(user)``: the test client logged in as that user."""

    def login(user):
        client.force_login(user)
        return client

    return login


def pytest_terminal_summary(terminalreporter):
    """The permission matrix, the fuzzing, the concurrency, fault, backup and secret tests
    print one line each of what they tried and what they found: show those lines at the end
    of every run, passed tests included (pytest keeps a passed test's output to itself)."""
    lines = [
        line
        for report in terminalreporter.stats.get("passed", [])
        if report.when == "call"
        for line in report.capstdout.splitlines()
        if line.strip()
    ]
    if lines:
        terminalreporter.section("what the tests tried")
        for line in lines:
            terminalreporter.write_line(line)


# Tests that tell the same thing on either database, each costing seconds to minutes: the
# browser, the live servers, the fuzzing, the production stack, the scan for secrets. They
# carry the ``once`` marker, and ``make test`` runs them in the PostgreSQL pass only (the
# SQLite pass takes ``-m "not once"``). Paths relative to tests/.
TESTS = Path(__file__).parent
ONCE = ("browser/", "live/", "api/test_schemathesis.py", "test_production.py", "test_no_secrets.py")


def pytest_collection_modifyitems(config, items):
    for item in items:
        where = Path(item.path).relative_to(TESTS).as_posix()
        if where.startswith(ONCE):
            item.add_marker(pytest.mark.once)
