"""The exploration tracker through the API: a turn on a deadly floor, a torch, sleep; the same
refusals as the page; no die from the client."""

from __future__ import annotations

import pytest

from procedure.tables import ACTIVITIES, REGIONS
from sessions import entries
from sessions.exploration import journey as journey_services
from sessions.exploration import services as exploration_services
from sessions.log import chain
from sessions.models import Roll
from tests.api.conftest import post_json
from tests.gurps.helpers import ScriptedSource

BASE = "/api/v1/explorations"


@pytest.fixture
def server_dice(monkeypatch):
    def script(*faces: int) -> None:
        source = ScriptedSource(faces)
        monkeypatch.setattr(entries, "dice_source", lambda: source)

    return script


@pytest.fixture
def started(client, bearer, mestre, scene):
    headers = bearer(mestre)
    response = post_json(
        client, BASE, {"scene": str(scene.code), "danger": "deadly", "region": "Andar 3"}, **headers
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"], headers


def test_a_turn_with_a_torch_an_encounter_and_its_arrival(client, started, server_dice, scene):
    code, headers = started
    server_dice(1, 4)
    torch = post_json(client, f"{BASE}/{code}/timers", {"name": "Tocha", "turns": 3}, **headers)
    assert torch.status_code == 201
    begun = client.post(f"{BASE}/{code}/turns", **headers).json()
    assert begun["exploration"]["encounter_pending"] is True and len(begun["rolls"]) == 1
    ended = post_json(client, f"{BASE}/{code}/turn-end", {"note": "escutam"}, **headers)
    assert ended.status_code == 201
    state = ended.json()["exploration"]
    assert state["timers"][0]["remaining_turns"] == 2 and not state["encounter_pending"]
    assert any("sala adjacente" in line for line in ended.json()["lines"])
    assert Roll.objects.filter(scene=scene).count() == 2
    assert chain.rolls_verify(scene.week.campaign).ok


def test_the_same_request_twice_is_one_action(client, started, server_dice):
    code, headers = started
    server_dice(6)
    a = client.post(f"{BASE}/{code}/turns", HTTP_IDEMPOTENCY_KEY="k", **headers).json()
    b = client.post(f"{BASE}/{code}/turns", HTTP_IDEMPOTENCY_KEY="k", **headers).json()
    assert a["event"] == b["event"] and b["exploration"]["turn"] == 1


def test_no_body_takes_a_die(client, started):
    code, headers = started
    response = post_json(client, f"{BASE}/{code}/sleep", {"hours": 8, "dice": [10]}, **headers)
    assert response.status_code == 422


def test_bad_input_names_the_field(client, started):
    code, headers = started
    response = post_json(client, f"{BASE}/{code}/timers", {"name": "Tocha", "turns": 0}, **headers)
    assert response.status_code == 422
    assert response.json()["code"] == "invalid" and response.json()["field"] == "turns"


def test_a_service_refusal_is_a_4xx_with_code_and_field(client, started, server_dice):
    code, headers = started
    body = {"marching_order": ["Hoplita", "hoplita"]}
    response = post_json(client, f"{BASE}/{code}/marching-order", body, **headers)
    assert response.status_code == 422
    assert response.json() == {
        "code": "invalid",
        "detail": exploration_services.MARCHING_DUPLICATE.format(name="hoplita"),
        "field": "marching_order",
    }
    server_dice(6)
    client.post(f"{BASE}/{code}/turns", **headers)
    again = client.post(f"{BASE}/{code}/turns", **headers)
    assert again.status_code == 422 and again.json()["code"] == "turn_started"


def test_a_jogador_reads_but_does_not_run_it(client, started, bearer, jogador):
    code, _ = started
    headers = bearer(jogador)
    assert client.get(f"{BASE}/{code}", **headers).status_code == 200
    response = client.post(f"{BASE}/{code}/turns", **headers)
    assert response.status_code == 403 and response.json()["code"] == "forbidden"


def test_an_outsider_gets_404(client, started, bearer, outsider):
    code, _ = started
    assert client.get(f"{BASE}/{code}", **bearer(outsider)).status_code == 404


# --- the journey ---------------------------------------------------------------------------------


def test_a_journey_through_the_api(client, started, server_dice, scene):
    code, headers = started
    server_dice(5)
    begun = post_json(
        client, f"{BASE}/{code}/journey", {"season": "autumn", "region": "forest"}, **headers
    )
    assert begun.status_code == 201, begun.json()
    state = begun.json()["exploration"]["journey"]
    assert (state["season"], state["weather"], state["weather_text"]) == (
        "autumn",
        5,
        "Ameno e chuvoso",
    )
    assert state["region"] == "forest" and state["next_day"] == 1 and state["next_round"] == 1
    names = [m["name"] for m in state["party"]]
    # weather 1 (Diminua), encounter 6, the group explores (Tabela D 1d8 = 1), one crafts
    server_dice(1, 6, 1)
    body = {"activity": "explore", "per_character": [{"character": names[0], "activity": "craft"}]}
    round_ = post_json(client, f"{BASE}/{code}/travel", body, **headers)
    assert round_.status_code == 201, round_.json()
    answer = round_.json()
    assert len(answer["rolls"]) == 3
    keys = {p["key"] for p in answer["pendencies"]}
    assert {"procedure:craft-ammunition-des", "procedure:activities-per-player"} <= keys
    assert all(p["status"] == "open" and p["id"] for p in answer["pendencies"])
    journey = answer["exploration"]["journey"]
    assert (journey["day"], journey["day_round"], journey["weather"]) == (1, 1, 4)
    last = answer["exploration"]["events"][-1]
    assert (last["kind"], last["day"], last["round"]) == ("travel", 1, 1)
    assert Roll.objects.filter(scene=scene).count() == 4
    assert chain.rolls_verify(scene.week.campaign).ok


def test_a_round_without_a_region_is_refused_naming_region(client, started, server_dice):
    code, headers = started
    server_dice(5)
    post_json(client, f"{BASE}/{code}/journey", {"season": "spring"}, **headers)
    response = post_json(client, f"{BASE}/{code}/travel", {"activity": "explore"}, **headers)
    assert response.status_code == 422
    assert response.json() == {
        "code": "invalid",
        "detail": journey_services.REGION_REQUIRED,
        "field": "region",
    }
    unknown = post_json(
        client, f"{BASE}/{code}/travel", {"activity": "explore", "region": "Pântano"}, **headers
    )
    assert unknown.status_code == 422 and unknown.json()["field"] == "region"
    twice = {
        "activity": "explore",
        "region": "swamp",
        "per_character": [{"character": "A", "activity": "rest"}] * 2,
    }
    response = post_json(client, f"{BASE}/{code}/travel", twice, **headers)
    assert response.status_code == 422 and response.json()["field"] == "per_character"
    assert Roll.objects.count() == 1  # the initial weather only


def test_no_round_takes_a_die(client, started, server_dice):
    code, headers = started
    server_dice(5)
    post_json(client, f"{BASE}/{code}/journey", {"season": "spring"}, **headers)
    body = {"activity": "explore", "region": "forest", "weather": 3}
    assert post_json(client, f"{BASE}/{code}/travel", body, **headers).status_code == 422


def test_the_vocabularies_are_enums_with_their_labels(client):
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    travel = schema["TravelIn"]["properties"]
    assert travel["activity"]["enum"] == [c.key for c in ACTIVITIES]
    assert "make_camp: Levantar Acampamento" in travel["activity"]["description"]
    region = travel["region"]["anyOf"][0]
    assert region["enum"] == [r.key for r in REGIONS]
    assert "swamp: Pântano" in travel["region"]["description"]
    assert "sailing: Navegando" in travel["mode"]["description"]
    season = schema["JourneyIn"]["properties"]["season"]
    assert season["enum"] == ["spring", "summer", "autumn", "winter"]
    assert "autumn: Outono" in season["description"]
    assert "deadly: Mortal" in schema["ExplorationDeclareIn"]["properties"]["danger"]["description"]
    assert "spell: Magia" in schema["TimerIn"]["properties"]["kind"]["description"]
    # None for a journey without a dungeon: the enum is the non-null branch
    danger = schema["ExplorationOut"]["properties"]["danger"]
    enum = next(b["enum"] for b in danger.get("anyOf", [danger]) if "enum" in b)
    assert enum == ["unsafe", "risky", "deadly"]


def test_a_test_the_text_asks_is_resolved_by_a_gurps_roll(client, started, server_dice, scene):
    code, headers = started
    server_dice(5)
    post_json(client, f"{BASE}/{code}/journey", {"season": "spring"}, **headers)
    for _ in range(3):
        server_dice(6, 6, 6, 5)
        body = {"activity": "advance", "region": "plains", "mode": "walking"}
        answer = post_json(client, f"{BASE}/{code}/travel", body, **headers).json()
    tests = answer["exploration"]["journey"]["tests"]
    assert {t["asks"] for t in tests} == {"teste de CON DC 12"} and all(t["open"] for t in tests)
    first = tests[0]
    server_dice(3, 3, 3)
    rolled = post_json(
        client,
        f"/api/v1/scenes/{scene.code}/rolls",
        {"label": "HT", "base_level": 12, "kind": "attribute"},
        **headers,
    ).json()
    resolved = post_json(
        client,
        f"{BASE}/{code}/journey/tests",
        {"test": first["id"], "roll": rolled["sequence"]},
        **headers,
    )
    assert resolved.status_code == 201, resolved.json()
    after = resolved.json()["exploration"]["journey"]["tests"]
    done = next(t for t in after if t["id"] == first["id"])
    assert (done["open"], done["passed"], done["roll"]) == (False, True, rolled["sequence"])
    waiting = post_json(client, f"{BASE}/{code}/travel", {"activity": "rest"}, **headers)
    assert waiting.status_code == 422 and waiting.json()["code"] == "tests_pending"


# --- the journey keeps its books (issue 25) ------------------------------------------------------


def _ht(client, scene, headers, name, modifier=0, dice=None):
    """The Mestre's HT roll for ``name`` (its sheet's level), the reading's modifier announced;
    its 3d6 come up 3, 3, 3."""
    dice(3, 3, 3)
    character = scene.characters.get(name=name)
    body = {"character": str(character.code), "attribute": "ht"}
    if modifier:
        body["modifiers"] = [{"label": "Tabela B (leitura)", "value": modifier}]
    answer = post_json(client, f"/api/v1/scenes/{scene.code}/rolls", body, **headers)
    assert answer.status_code == 201, answer.json()
    return answer.json()["sequence"]


def test_days_of_a_journey_with_no_dungeon_keep_their_books_through_the_api(
    client, bearer, mestre, arbitro, scene, server_dice
):
    from sessions.procedure import services as procedure_services

    table = procedure_services.random_table_add(
        campaign=scene.week.campaign,
        user=arbitro,
        name="Encontros da Planície",
        die="1d6",
        region="plains",
    )
    procedure_services.random_table_row_add(
        table=table, user=arbitro, label="1-6", text="Uma caravana", reason="Da campanha"
    )
    headers = bearer(mestre)
    start = post_json(client, BASE, {"scene": str(scene.code)}, **headers)
    assert start.status_code == 201 and start.json()["danger"] is None
    code = start.json()["id"]
    server_dice(4)
    post_json(client, f"{BASE}/{code}/journey", {"season": "spring", "region": "plains"}, **headers)
    party = start.json()["marching_order"]
    for name in party[:2]:  # the last one carries no water
        for kind in ("food", "water"):
            body = {"character": name, "kind": kind, "delta": 2, "reason": "Do Limiar"}
            added = post_json(client, f"{BASE}/{code}/supplies", body, **headers)
            assert added.status_code == 201, added.json()
    # Day 1: lost on the first Avançar (Planície 2:6), on course after
    server_dice(6, 6, 1, 5)
    lost = post_json(
        client, f"{BASE}/{code}/travel", {"activity": "advance", "mode": "walking"}, **headers
    ).json()
    assert lost["exploration"]["journey"]["hexes"] == "0"
    assert "procedure:lost" in {p["key"] for p in lost["pendencies"]}
    for _ in range(2):
        server_dice(6, 6, 6, 5)
        answer = post_json(client, f"{BASE}/{code}/travel", {"activity": "advance"}, **headers)
    tests = answer.json()["exploration"]["journey"]["tests"]
    for t in tests:
        post_json(
            client,
            f"{BASE}/{code}/journey/tests",
            {
                "test": t["id"],
                "roll": _ht(client, scene, headers, t["character"], dice=server_dice),
            },
            **headers,
        )
    # the 4th Avançar in a row: DC 15, HT −1 by the reading; a plain roll is refused
    server_dice(6, 6, 6, 5)
    fourth = post_json(client, f"{BASE}/{code}/travel", {"activity": "advance"}, **headers).json()
    open_tests = [t for t in fourth["exploration"]["journey"]["tests"] if t["open"]]
    assert {(t["asks"], t["modifier"]) for t in open_tests} == {("teste de CON DC 15", -1)}
    first = open_tests[0]
    plain = post_json(
        client,
        f"{BASE}/{code}/journey/tests",
        {
            "test": first["id"],
            "roll": _ht(client, scene, headers, first["character"], dice=server_dice),
        },
        **headers,
    )
    assert plain.status_code == 422 and plain.json()["field"] == "roll"
    for t in open_tests:
        roll = _ht(client, scene, headers, t["character"], modifier=-1, dice=server_dice)
        done = post_json(
            client, f"{BASE}/{code}/journey/tests", {"test": t["id"], "roll": roll}, **headers
        )
        assert done.status_code == 201, done.json()
    # a rest the encounter interrupts: the Árbitro's table rolled, a test for each
    server_dice(6, 1, 3, 4)
    rest = post_json(client, f"{BASE}/{code}/travel", {"activity": "rest"}, **headers).json()
    assert any("Uma caravana" in line for line in rest["lines"])
    journey = rest["exploration"]["journey"]
    assert journey["encounter_now"] is True
    assert {t["asks"] for t in journey["tests"] if t["open"]} == {"teste de CON DC 12"}
    books = {m["name"]: m["supplies"] for m in journey["party"]}
    assert [books[n]["food"] for n in party] == [1, 1, 0]
    assert [books[n]["water"] for n in party] == [1, 1, 0]
    assert "procedure:running-out" in {p["key"] for p in rest["pendencies"]}
    assert any(party[2] in line and "Sem água" in line for line in rest["lines"])
    assert chain.rolls_verify(scene.week.campaign).ok
