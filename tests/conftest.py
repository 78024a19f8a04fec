"""The fixed cast of the tests: the demo campaign as seed_demo makes it, and its people.

- ``jogador`` owns the Jurado de Gapheim; ``jogadora`` owns the Hoplita; ``rastreadora``
  owns the Rastreador; ``mestre`` and ``arbitro`` run the table; ``outsider`` belongs to
  another campaign.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, settings

from campaigns.models import Campaign, Membership
from garganta_site.demo import DEMO_PASSWORD, demo_seed
from garganta_site.founding import campaign_create
from sessions.models import Scene
from sheets.models import Character

# No test may depend on how fast the machine is: on a busy two-core CI machine a property's
# example can take seconds to generate or run, which says nothing about the rule it checks.
settings.register_profile("garganta", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("garganta")


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache: the count of failed bearer tokens per address
    (campaigns.auth.BearerFailures) of one test is not another's."""
    from django.core.cache import cache

    cache.clear()
    yield


# The demo is seeded once per test database, not once per test: seeding costs about 0.2 s, and
# most tests ask for it. A test on ``db`` runs in a transaction rolled back after it, so the
# demo it sees is always the seeded one. A transactional test (``transaction=True``, a live
# server) empties every table when it ends, so the demo is seeded again before the next test
# sets up (never after the last one: by then the test database is gone). The pattern is
# pytest-django's own ("Populate the test database", its documentation on database fixtures).
_db_blocker = None
_demo_emptied = False


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    global _db_blocker
    _db_blocker = django_db_blocker
    with django_db_blocker.unblock():
        demo_seed()


def _empties_the_database(item) -> bool:
    """Whether the test ran on a transactional database, which pytest-django flushes after it."""
    fixtures = getattr(item, "fixturenames", ())
    if "transactional_db" in fixtures or "live_server" in fixtures:
        return True
    marker = item.get_closest_marker("django_db")
    return bool(
        marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences"))
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    global _demo_emptied
    result = yield
    _demo_emptied = _demo_emptied or (_db_blocker is not None and _empties_the_database(item))
    return result


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before the test's fixtures: the demo again, if a transactional test emptied it (the test
    database is still up: the session's fixtures outlive every test but the last)."""
    global _demo_emptied
    if _demo_emptied:
        _demo_emptied = False
        with _db_blocker.unblock():
            demo_seed()


@pytest.fixture
def demo(db):
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
