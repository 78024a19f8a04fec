"""The MCP server at /mcp, driven by the SDK's own client over streamable HTTP: who may call
it, what a jogador's token may do, the Idempotency-Key as an argument, hidden rolls, Portuguese
refusals, and the roll chain intact afterwards."""

from __future__ import annotations

import uuid

import pytest

from campaigns.models import Campaign
from garganta_site.mcp import TOOL_MODULES
from sessions.log import chain
from sessions.models import Roll, Scene
from tests.api.test_vocabularies import FREE_TEXT
from tests.mcp.conftest import connect, data, error_text, http_client, orm

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]


@pytest.fixture
def scene(demo):
    return Scene.objects.get(title="A galeria do andar 3")


def _roll(label="Observação", level=12, **extra):
    """A roll of nobody's: the Mestre's level (a character's comes from its sheet)."""
    return {"label": label, "base_level": level, "kind": "attribute", **extra}


def _sheet_roll(character: str, **named):
    """A roll for a character of the scene: the skill or attribute named, never a level."""
    return {"character": character, **named}


@orm
def _rolls(scene_code) -> list[Roll]:
    return list(Roll.objects.filter(scene__code=scene_code).order_by("sequence"))


@orm
def _chain_ok() -> bool:
    report = chain.rolls_verify(Campaign.objects.get(slug="a-garganta"))
    return report.ok and report.first_broken is None


# --- the endpoint -----------------------------------------------------------------------------


async def test_without_a_token_mcp_answers_401_and_names_its_metadata(demo):
    async with http_client() as http:
        answer = await http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        metadata = await http.get("/.well-known/oauth-protected-resource/mcp")
    assert answer.status_code == 401
    assert "resource_metadata" in answer.headers["www-authenticate"]
    assert metadata.status_code == 200
    assert metadata.json()["resource"] == "http://127.0.0.1:8000/mcp"


async def test_a_revoked_or_unknown_token_is_refused(demo):
    async with http_client({"authorization": "Bearer nao-existe"}) as http:
        answer = await http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert answer.status_code == 401


async def test_guessed_tokens_at_mcp_are_throttled_per_address_as_on_the_api(tokens):
    """Issue 27: 20 failed tokens from one address in 10 minutes; then that address gets a 429
    in Portuguese with Retry-After at /mcp, even with a right token; another address does not.
    Calls without a token (a client finding the metadata) do not count."""
    from campaigns.auth import TOO_MANY_BAD_TOKENS, BearerFailures

    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"accept": "application/json, text/event-stream"}
    async with http_client(accept, address="10.9.9.9") as http:
        for _ in range(3):
            assert (await http.post("/mcp", json=ping)).status_code == 401  # no token
        for attempt in range(BearerFailures().num_requests):
            guess = {"authorization": f"Bearer palpite-{attempt}"}
            assert (await http.post("/mcp", json=ping, headers=guess)).status_code == 401
        right = {"authorization": f"Bearer {tokens['mestre']}"}
        throttled = await http.post("/mcp", json=ping, headers=right)
    assert throttled.status_code == 429
    assert int(throttled.headers["retry-after"]) >= 1
    assert throttled.json()["detail"].startswith(TOO_MANY_BAD_TOKENS.split("{count}")[0])
    async with http_client(accept, address="10.9.9.10") as http:
        answer = await http.post("/mcp", json=ping, headers=right)
    assert answer.status_code == 200


async def test_the_pages_and_the_api_are_still_served_beside_mcp(demo):
    async with http_client() as http:
        login = await http.get("/entrar/")
        api = await http.get("/api/v1/scenes")
    assert login.status_code == 200 and "Entrar" in login.text
    assert api.status_code == 401 and api.json()["code"] == "unauthenticated"


async def test_about_twenty_tools_each_described_in_portuguese(tokens):
    async with connect(tokens["mestre"]) as client:
        tools = (await client.list_tools()).tools
    names = {t.name for t in tools}
    asked = {
        "campaign_overview",
        "sheet_read",
        "scene_open",
        "scene_log_read",
        "modifiers_announce",
        "roll_check",
        "roll_damage",
        "roll_table",
        "roll_contest",
        "narrate",
        "combat_start",
        "combat_add",
        "combat_act",
        "combat_read",
        "combat_end",
        "exploration_turn",
        "week_report_write",
        "rules_lookup",
    }
    assert asked <= names
    assert len(tools) == len({t for module in TOOL_MODULES for t in module.TOOLS}) == 43
    for t in tools:
        assert t.description and any(w in t.description for w in (" o ", " a ", " de ")), t.name


def _free_strings(schema, defs, path, found, seen=()):
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            _free_strings(defs[name], defs, path, found, (*seen, name))
        return
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, []):
            _free_strings(sub, defs, path, found, seen)
    if schema.get("type") == "string" and not {"enum", "const", "format"} & set(schema):
        found.append(path)
    if schema.get("type") == "array":
        _free_strings(schema.get("items", {}), defs, path, found, seen)
    for prop, sub in (schema.get("properties") or {}).items():
        _free_strings(sub, defs, prop, found, seen)


async def test_the_tools_schemas_have_no_free_string_where_a_fixed_set_is_taken(tokens):
    """Invariant 13 (Closed sets are published) of docs/DESIGN.md for the tools: every closed set is
    an enum in the tool's input schema."""
    async with connect(tokens["mestre"]) as client:
        tools = (await client.list_tools()).tools
    free = []
    for t in tools:
        found = []
        _free_strings(t.input_schema, t.input_schema.get("$defs", {}), "", found)
        ids = {"idempotency_key", "campaign", "after", "before"}
        free += [f"{t.name}.{f}" for f in found if f not in FREE_TEXT | ids]
    assert not free, free


# --- permissions --------------------------------------------------------------------------------


async def test_a_jogador_token_may_not_roll_and_nothing_is_written(tokens, scene):
    before = await _rolls(scene.code)
    async with connect(tokens["jogador"]) as client:
        result = await client.call_tool("roll_check", {"scene": str(scene.code), "roll": _roll()})
    assert error_text(result).startswith("Só o Mestre de Cena ou o Árbitro conduzem a cena")
    assert "HTTP 403" in error_text(result)
    assert await _rolls(scene.code) == before


async def test_a_jogador_may_declare_for_his_own_character_only(tokens, scene, jogador):
    own = await orm(lambda: str(scene.characters.get(owner=jogador).code))()
    other = await orm(lambda: str(scene.characters.exclude(owner=jogador).first().code))()
    async with connect(tokens["jogador"]) as client:
        mine = await client.call_tool(
            "declaration_write",
            {"scene": str(scene.code), "declaration": {"character": own, "text": "Escuto."}},
        )
        theirs = await client.call_tool(
            "declaration_write",
            {"scene": str(scene.code), "declaration": {"character": other, "text": "Corro."}},
        )
    assert not mine.is_error and data(mine)["type"] == "declaration"
    assert "suas próprias personagens" in error_text(theirs)


async def test_an_outsider_does_not_learn_the_scene_exists(tokens, scene, outsider):
    from campaigns.auth import api_token_create

    outsider_token = await orm(api_token_create)(user=outsider)
    async with connect(outsider_token) as client:
        result = await client.call_tool("scene_log_read", {"scene": str(scene.code)})
    assert "HTTP 404" in error_text(result)


# --- idempotency ----------------------------------------------------------------------------------


async def test_a_replayed_key_rolls_once_and_answers_the_same_roll(tokens, scene):
    before = len(await _rolls(scene.code))
    args = {"scene": str(scene.code), "roll": _roll(), "idempotency_key": "obs-1"}
    async with connect(tokens["mestre"]) as client:
        first = data(await client.call_tool("roll_check", args))
        again = data(await client.call_tool("roll_check", args))
        other = await client.call_tool("roll_check", {**args, "roll": _roll(label="Outra coisa")})
    assert again["id"] == first["id"] and again["dice"] == first["dice"]
    assert len(await _rolls(scene.code)) == before + 1
    assert "HTTP 409" in error_text(other)
    # The caller sent the tool's idempotency_key, not the API's header: said as it sent it.
    assert "campo: idempotency_key" in error_text(other)
    assert "Idempotency-Key" not in error_text(other)
    assert await _chain_ok()


async def test_a_refused_call_leaves_its_key_free_for_the_corrected_one(tokens, scene):
    outside = str(uuid.uuid4())  # no character of the scene
    async with connect(tokens["mestre"]) as client:
        refused = await client.call_tool(
            "roll_check",
            {
                "scene": str(scene.code),
                "roll": _roll(character=outside),
                "idempotency_key": "k-refused",
            },
        )
        corrected = await client.call_tool(
            "roll_check",
            {"scene": str(scene.code), "roll": _roll(), "idempotency_key": "k-refused"},
        )
    assert "Esta personagem não está na cena." in error_text(refused)
    assert "campo: character" in error_text(refused)
    assert not corrected.is_error
    assert data(corrected)["effective_level"] == 12
    assert await _chain_ok()


# --- hidden rolls -----------------------------------------------------------------------------------


async def test_a_hidden_roll_is_hidden_from_the_players_and_seen_by_the_table(
    tokens, scene, jogadora
):
    hoplita = await orm(lambda: str(scene.characters.get(owner=jogadora).code))()
    async with connect(tokens["mestre"]) as client:
        rolled = data(
            await client.call_tool(
                "roll_check",
                {
                    "scene": str(scene.code),
                    "roll": _sheet_roll(hoplita, attribute="iq", label="Observação", hidden=True),
                    "idempotency_key": "h1",
                },
            )
        )
        table = data(await client.call_tool("scene_log_read", {"scene": str(scene.code)}))
    async with connect(tokens["jogadora"]) as client:
        owner = data(await client.call_tool("scene_log_read", {"scene": str(scene.code)}))
    async with connect(tokens["jogador"]) as client:
        other = data(await client.call_tool("scene_log_read", {"scene": str(scene.code)}))
    assert rolled["hidden"] is True and rolled["dice"]

    def the_roll(log):
        found = [e["roll"] for e in log["entries"] if e["id"] == rolled["id"]]
        return found[0] if found else None

    assert the_roll(table)["dice"] == rolled["dice"]
    # Its player sees that it was rolled (name, time, commitment), not the dice (§1.6).
    assert the_roll(owner)["dice"] is None and the_roll(owner)["outcome"] is None
    assert the_roll(owner)["hash"] == rolled["hash"]
    # Another jogador does not see it at all.
    assert the_roll(other) is None
    assert await _chain_ok()


# --- levels come from the sheet (docs/DESIGN.md, invariant 10 (Levels from the sheet)) ------------


async def test_a_roll_names_the_skill_and_the_sheet_gives_the_level(tokens, scene, rastreador):
    code = str(rastreador.code)
    async with connect(tokens["mestre"]) as client:
        rolled = data(
            await client.call_tool(
                "roll_check",
                {"scene": str(scene.code), "roll": _sheet_roll(code, skill="rastreamento")},
            )
        )
        climbed = data(
            await client.call_tool(
                "roll_check",
                {"scene": str(scene.code), "roll": _sheet_roll(code, skill="Escalada")},
            )
        )
        typed = await client.call_tool(
            "roll_check",
            {
                "scene": str(scene.code),
                "roll": _sheet_roll(code, skill="Rastreamento", base_level=15),
            },
        )
    assert (rolled["base_level"], rolled["level_source"]) == (13, "sheet")
    assert rolled["level_text"] == "Rastreamento 13 (ficha)"
    # §3.3: Escalada is ST−5 or DX−5; ST 11 and DX 14 climb at 9, not 6.
    assert climbed["level_text"] == "Escalada 9 por pré-definido DX−5"
    assert error_text(typed).startswith(
        "O nível 15 não confere com a ficha de Rastreador de Uruk-Kalam: Rastreamento 13 (ficha)."
    )
    assert await _chain_ok()


async def test_a_contest_between_a_character_and_a_creature(tokens, scene, rastreador):
    contest = {
        "a": _sheet_roll(str(rastreador.code), skill="Furtividade"),
        "b": {"name": "Rato-da-galeria", "label": "Percepção", "base_level": 11},
    }
    async with connect(tokens["mestre"]) as client:
        rolled = data(
            await client.call_tool("roll_contest", {"scene": str(scene.code), "contest": contest})
        )
    a, b = rolled["details"]["a"], rolled["details"]["b"]
    assert (a["name"], a["base_level"], a["level"]["text"]) == (
        "Rastreador de Uruk-Kalam",
        14,
        "Furtividade 14 (ficha)",
    )
    assert (b["character"], b["name"], b["base_level"], b["level"]["source"]) == (
        None,
        "Rato-da-galeria",
        11,
        "given",
    )


# --- refusals in Portuguese ---------------------------------------------------------------------------


async def test_arguments_outside_the_schema_are_refused_in_portuguese(tokens, scene):
    async with connect(tokens["mestre"]) as client:
        result = await client.call_tool(
            "roll_check",
            {
                "scene": str(scene.code),
                "roll": {"label": "x" * 201, "base_level": 99, "kind": "sorte"},
            },
        )
    text = error_text(result)
    assert text.startswith("Argumentos recusados:")
    assert "Texto longo demais" in text and "O maior valor aceito é 50." in text
    assert "Valor desconhecido" in text
    assert "Field required" not in text and "Input should" not in text


async def test_a_portuguese_label_is_accepted_for_a_closed_set(tokens, scene):
    async with connect(tokens["mestre"]) as client:
        result = await client.call_tool(
            "roll_check", {"scene": str(scene.code), "roll": _roll(kind="Atributo")}
        )
    assert not result.is_error, result
    assert data(result)["kind"] == "attribute"


async def test_an_unknown_table_is_refused_before_any_die(tokens, scene):
    before = await _rolls(scene.code)
    async with connect(tokens["mestre"]) as client:
        result = await client.call_tool(
            "roll_table", {"scene": str(scene.code), "table": {"table": "tabela-que-nao-existe"}}
        )
    assert result.is_error and "Argumentos recusados" in error_text(result)
    assert await _rolls(scene.code) == before


async def test_rules_lookup_lists_the_vocabularies_and_the_odds(tokens):
    async with connect(tokens["jogador"]) as client:
        vocabularies = data(await client.call_tool("rules_lookup", {"topic": "vocabularies"}))
        odds = data(await client.call_tool("rules_lookup", {"topic": "odds", "level": 10}))
        missing = await client.call_tool("rules_lookup", {"topic": "damage"})
    names = {v["name"] for v in vocabularies["vocabularies"]}
    assert {"maneuver", "terrain", "hit_location", "table"} <= names
    assert odds["success_exact"] == "108/216"
    assert error_text(missing) == "Para topic=damage, mande st."


# --- the journey's books (issue 25) --------------------------------------------------------------


@orm
def _active_exploration(scene_code) -> str | None:
    from sessions.models import Exploration

    found = Exploration.objects.filter(scene__code=scene_code, status="active").first()
    return str(found.code) if found else None


async def test_a_journey_without_a_dungeon_and_its_supplies_through_the_tools(tokens, scene):
    async with connect(tokens["mestre"]) as client:
        running = await _active_exploration(scene.code)
        if running:
            await client.call_tool(
                "exploration_act", {"exploration": running, "act": {"act": "end"}}
            )
        state = data(
            await client.call_tool(
                "exploration_start",
                {"exploration": {"scene": str(scene.code)}, "journey": {"season": "summer"}},
            )
        )
        assert state["danger"] is None and state["journey"]["season"] == "summer"
        supply = {"act": "supply", "supply": {"kind": "water", "delta": 3, "reason": "Odres"}}
        answer = data(
            await client.call_tool("exploration_act", {"exploration": state["id"], "act": supply})
        )
        bad = await client.call_tool(
            "exploration_act",
            {
                "exploration": state["id"],
                "act": {**supply, "supply": {**supply["supply"], "kind": "ouro"}},
            },
        )
    assert answer["exploration"]["journey"]["common_stock"] == {
        "food": 0,
        "water": 3,
        "ammunition": 0,
    }
    assert bad.is_error
