"""Schemathesis fuzzes every operation of /api/v1/ from the API's own OpenAPI schema, served
in-process by the Django WSGI app (no server), as the Mestre, the Árbitro and a jogador, each
with a Bearer token, over the demo campaign a few weeks on (week 1 homologated, corrected and
closed; week 2 open with a fight and a descent under way), so that real ids exist.

What it tries, per operation: as the Mestre, schemathesis's coverage phase (every boundary,
wrong type, missing field, NUL byte and unexpected method it derives from the schema) plus
``MAX_EXAMPLES`` fuzzed cases, positive and negative; as the Árbitro and the jogador, the fuzzed
cases only (permissions answer differently; the coverage phase would only repeat itself).
Generation is derandomized, so CI sends the same requests every run. In the fuzzed cases each
id (path or body) keeps its random value or takes a real one, as drawn; in the coverage cases a
well-formed id that is not the value under test becomes a real one, so the boundaries of the
other fields reach the services and not only a 404. Each operation starts from the same world
(a savepoint rolled back after it).

Every response must pass the checks: no 5xx (``not_a_server_error``), a status the operation
declares, a declared content type, a body and headers matching the declared schema. The test
prints ``schemathesis as ROLE: N operations, N requests (…), N failures`` and fails listing
every failing operation with schemathesis's report and a curl line to reproduce it.

No operation is excluded. (The operations are driven through
``schemathesis.pytest.lazy.get_all_tests``, the builder behind ``schemathesis.pytest.from_fixture``,
because that loader's own pytest collection breaks on pytest 9.2: ``'Function' object has no
attribute '_nodeid'``.)
"""

from __future__ import annotations

from collections import Counter
from uuid import UUID

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Err
from schemathesis.pytest.lazy import get_all_tests
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from campaigns.auth import api_token_create
from canon.models import Correction, Decision, Divergence
from sessions import demo as demo_play
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import turns as combat_turns
from sessions.exploration import services as exploration_services
from sessions.log import services as log_services
from sessions.models import Combat, Combatant, Declaration, Exploration, Scene
from sessions.weeks import services as weeks_services
from sheets.models import Character

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
MAX_EXAMPLES = {"mestre": 10, "arbitro": 5, "jogador": 5}
# The coverage phase (every boundary, wrong type and missing field of every operation) runs as
# the Mestre, who may do the most; the other two roles get the fuzzing phase only.
COVERAGE = {"mestre": True, "arbitro": False, "jogador": False}
FUZZ_SETTINGS = dict(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.fixture
def wsgi_app():
    """Django's WSGI app inside the test's transaction: like Django's test client, a request
    must not close the connection (that would end the test's transaction)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def world(demo):
    """The demo campaign a few weeks on: week 1 played, its report homologated (the hidden roll
    revealed), corrected by the Árbitro, its Boletim out; week 2 open, with a fight at its first
    turn (the demo's two cavadores against the jurado and the hoplita), a descent under way in
    another scene, and the jurado's declaration. Returns the pools of real ids to draw from."""
    users = {u.username: u for u in get_user_model().objects.all()}
    mestre, arbitro = users["mestre"], users["arbitro"]
    gallery = demo_play.demo_week_play(demo, homologate=True)
    first = gallery.week
    weeks_services.report_correct(
        week=first,
        user=arbitro,
        new_text=demo_play.REPORT + "\n\nA grade era de bronze.",
        reason="O Mestre trocou o metal da grade.",
    )
    weeks_services.week_publish_bulletin(week=first, user=mestre, text="Boletim: a galeria caiu.")
    second = weeks_services.week_open(campaign=demo, user=mestre, number=2)
    fighters = list(gallery.characters.all())
    fight = log_services.scene_create(
        week=second, user=mestre, title="A luta no andar 4", floor=4, characters=fighters
    )
    combat = combat_services.combat_start(scene=fight, user=mestre)
    for name in ("Cavador-cinzento A", "Cavador-cinzento B"):
        combat_services.combatant_add(
            combat=combat,
            user=mestre,
            creature=combat_specs.CreatureSpec(
                name=name,
                weapons=(combat_specs.WeaponSpec(**demo_play.DEMO_BITE),),
                **demo_play.DEMO_CREATURE,
            ),
        )
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    descent = log_services.scene_create(
        week=second, user=mestre, title="A descida ao andar 5", floor=5, characters=fighters
    )
    exploration_services.exploration_start(scene=descent, user=mestre, danger="risky")
    jurado = Character.objects.get(name="Jurado de Gapheim")
    log_services.declaration_create(
        scene=fight, character=jurado, user=users["jogador"], text="Ergo o escudo e avanço."
    )

    def codes(model) -> list[str]:
        return [str(c) for c in model.objects.order_by("pk").values_list("code", flat=True)]

    return {
        "scenes": codes(Scene),
        "combats": codes(Combat),
        "explorations": codes(Exploration),
        "sheets": codes(Character),
        "divergences": codes(Divergence),
        "decisions": codes(Decision),
        "entries": codes(Decision) + codes(Divergence),
        "corrections": codes(Correction),
        "declarations": codes(Declaration),
        "combatants": codes(Combatant),
        "campaigns": [demo.slug],
        "weeks": [1, 2],
    }


# Which pool a path's ``{code}`` comes from, by the path's first segment after /api/v1/.
PATH_POOLS = {
    "scenes": "scenes",
    "combats": "combats",
    "explorations": "explorations",
    "sheets": "sheets",
    "divergences": "divergences",
    "decisions": "decisions",
    "corrections": "corrections",
}
# Which pool a body field's id comes from.
BODY_POOLS = {
    "scene": "scenes",
    "character": "sheets",
    "characters": "sheets",
    "declaration": "declarations",
    "combatant": "combatants",
    "attacker": "combatants",
    "defender": "combatants",
    "target": "combatants",
    "boss": "combatants",
    "decision": "decisions",
    "replaces": "decisions",
    "resolves": "divergences",
    "target_id": "entries",
}


def _slots(case) -> dict[tuple[str, str], str]:
    """Where the case carries an id the world has one of: (location, name) → pool."""
    slots = {}
    path = case.path_parameters or {}
    parts = [p for p in case.operation.path.split("/") if p and not p.startswith("{")][2:]
    if parts[:1] == ["console"]:
        parts = parts[1:]
    if "code" in path and parts and parts[0] in PATH_POOLS:
        slots[("path", "code")] = PATH_POOLS[parts[0]]
    if "campaign" in path:
        slots[("path", "campaign")] = "campaigns"
    if "number" in path:
        slots[("path", "number")] = "weeks"
    if isinstance(case.body, dict):
        for field, pool in BODY_POOLS.items():
            if field in case.body:
                slots[("body", field)] = pool
    return slots


def _well_formed(value) -> bool:
    """A value the schema accepts where an id goes (so swapping it keeps the case as it was
    meant: a positive case stays positive, a mutated value is left alone)."""
    if isinstance(value, list):
        return all(_well_formed(item) for item in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return True
    if not isinstance(value, str):
        return False
    try:
        UUID(value)
    except ValueError:
        return value.isascii() and value.replace("-", "").isalnum()  # a slug
    return True


def _with(case, values: dict):
    """The case with ``values`` ((location, name) → value) put in place."""
    path = dict(case.path_parameters or {})
    body = dict(case.body) if isinstance(case.body, dict) else case.body
    for (where, name), value in values.items():
        (path if where == "path" else body)[name] = value
    if path != (case.path_parameters or {}):
        case.path_parameters = path
    if body != case.body:
        case.body = body
    return case


def _schema(app, world, role: str):
    config = schemathesis.Config.from_dict({"phases": {"coverage": {"enabled": COVERAGE[role]}}})
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app, config=config)
    turn = Counter()

    @schema.hook
    def flatmap_case(context, case):
        """Fuzzing: each id slot keeps its random value or takes a real one, as drawn."""
        choices = {}
        for slot, pool in _slots(case).items():
            ids = st.sampled_from(world[pool])
            many = isinstance(case.body.get(slot[1]), list) if slot[0] == "body" else False
            choices[slot] = st.none() | (st.lists(ids, max_size=3) if many else ids)
        if not choices:
            return st.just(case)
        picked = st.fixed_dictionaries(choices)
        return picked.map(lambda p: _with(case, {k: v for k, v in p.items() if v is not None}))

    @schema.hook
    def map_case(context, case):
        """Coverage: a well-formed id that is not the value under test becomes a real one, in
        turn, so the boundaries and wrong types of the other fields reach the services."""
        meta = case.meta
        if meta is None or meta.phase.name != "coverage":
            return case
        tested = getattr(meta.phase.data, "parameter", None)
        values = {}
        for slot, pool in _slots(case).items():
            current = (case.path_parameters or {}).get(slot[1]) if slot[0] == "path" else None
            if slot[0] == "body":
                current = case.body.get(slot[1])
            if slot[1] == tested or not _well_formed(current):
                continue
            turn[pool] += 1
            real = world[pool][turn[pool] % len(world[pool])]
            values[slot] = [real] if isinstance(current, list) else real
        return _with(case, values) if values else case

    return schema


def _token(username: str) -> dict:
    user = get_user_model().objects.get(username=username)
    return {"Authorization": f"Bearer {api_token_create(user=user)}"}


def _declared_operations(schema) -> int:
    methods = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
    return sum(len(methods & set(item)) for item in schema.raw_schema["paths"].values())


@pytest.mark.parametrize("role", ["mestre", "arbitro", "jogador"])
def test_every_operation_answers_as_its_schema_says(role, wsgi_app, world):
    schema = _schema(wsgi_app, world, role)
    headers = _token(role)
    tally = Counter()
    failures = []

    def check(case):
        tally["requests"] += 1
        response = case.call_and_validate(headers=headers, checks=CHECKS)
        tally[f"{response.status_code // 100}xx"] += 1

    fuzz = settings(max_examples=MAX_EXAMPLES[role], **FUZZ_SETTINGS)
    for result in get_all_tests(schema=schema, test_func=check, settings=fuzz, given_kwargs=None):
        if isinstance(result, Err):
            failures.append(f"schema error: {result.err()}")
            continue
        operation, test = result.ok()
        tally["operations"] += 1
        try:
            with transaction.atomic():  # each operation starts from the same world
                test()
                transaction.set_rollback(True)
        except (Exception, FailureGroup) as error:  # every operation runs; all failures listed
            failures.append(f"{operation.label}: {error}")
    line = (
        f"schemathesis as {role}: {tally['operations']} operations, {tally['requests']} requests "
        f"({tally['2xx']} 2xx, {tally['4xx']} 4xx, {tally['5xx']} 5xx), {len(failures)} failures"
    )
    print(line)
    assert tally["operations"] == _declared_operations(schema), line
    assert not failures, line + "\n\n" + "\n\n".join(failures)


def test_the_checks_catch_a_response_the_schema_does_not_declare(wsgi_app, demo):
    """The control of the run above: the same checks against a copy of the schema that is
    wrong on purpose must fail, so that a run with no failure means something."""
    from django.test import Client

    raw = Client().get("/api/v1/openapi.json").json()
    odds = raw["paths"]["/api/v1/rules/odds"]["get"]
    schema = schemathesis.openapi.from_dict(raw)
    operation = schema["/api/v1/rules/odds"]["GET"]
    operation.Case(query={"level": 10}).call_and_validate(app=wsgi_app, checks=CHECKS)

    raw["components"]["schemas"]["OddsOut"]["properties"]["success"] = {"type": "string"}
    del odds["responses"]["422"]
    schema = schemathesis.openapi.from_dict(raw)
    operation = schema["/api/v1/rules/odds"]["GET"]
    with pytest.raises(FailureGroup, match="Response violates schema"):
        operation.Case(query={"level": 10}).call_and_validate(app=wsgi_app, checks=CHECKS)
    with pytest.raises(FailureGroup, match="Undocumented status code"):
        operation.Case(query={"level": 1000}).call_and_validate(app=wsgi_app, checks=CHECKS)


def test_no_two_schemas_of_the_api_share_a_name():
    """Ninja names each body's OpenAPI component after its class, so two classes of one name
    publish one of the two bodies for both (POST /combats once showed the descent's StartIn;
    the weekly report's correction, the console's)."""
    from ninja import Schema

    import garganta_site.urls  # noqa: F401 - every router imported

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    ours = {
        cls
        for cls in subclasses(Schema)
        if cls.__module__.split(".")[0] in {"canon", "garganta_site", "sessions", "sheets"}
    }
    names = Counter(cls.__name__ for cls in ours)
    shared = {
        name: sorted(f"{c.__module__}.{c.__name__}" for c in ours if c.__name__ == name)
        for name, count in names.items()
        if count > 1
    }
    assert not shared


def _body_properties(raw: dict, path: str, method: str = "post") -> set[str]:
    ref = raw["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    return set(raw["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]["properties"])


def test_the_published_bodies_are_the_operations_own(demo):
    """What the name clash had published: the descent's start body for POST /combats, the
    console's correction for the weekly report's, the combat's weapon for /rules/derived."""
    from django.test import Client

    raw = Client().get("/api/v1/openapi.json").json()
    assert _body_properties(raw, "/api/v1/combats") == {"scene", "characters"}
    assert _body_properties(raw, "/api/v1/combats/{code}/declarations") == {"terrain", "boss"}
    assert _body_properties(raw, "/api/v1/weeks/{campaign}/{number}/report/corrections") == {
        "new_text",
        "reason",
    }
    weapon = raw["components"]["schemas"]["WeaponIn"]["properties"]
    assert set(weapon) == {"name", "skill", "parry"}


def test_an_api_url_no_operation_matches_answers_the_api_404(client, demo):
    """An id that is not a UUID, a week number that is not a number: Django's URL resolver finds
    no operation, and the answer is the API's JSON 404, not the site's HTML page."""
    for url in ("/api/v1/scenes/not-a-uuid/log", "/api/v1/weeks/a-garganta/one", "/api/v1/nada"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/json; charset=utf-8", url
        assert response.json()["code"] == "not_found", url
    page = client.get("/nada/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
