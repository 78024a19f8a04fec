"""The demo week as the AI Mestre plays it — a new scene, the players' declarations, announced
modifiers, skill rolls, a hidden Observação, a contest, a damage roll, a table roll, a combat of
up to seven rounds, the report, its homologation, the Boletim, the next week — written once
against ``Table`` and played through either of two doors:

- ``McpTable``: the MCP tools at /mcp (the SDK's client, one session per person);
- ``RestTable``: the REST API under /api/v1, as a client that knows it well would call it.

Each door counts its calls, so the bench (bench/run.py) can print how many a whole week takes
through each, and tests/mcp/test_demo_week.py plays it through MCP alone. Nothing here imports
pytest; everything goes through the site's HTTP, in this process (httpx's ASGI transport).
"""

from __future__ import annotations

import json
import uuid
from contextlib import AsyncExitStack
from dataclasses import dataclass, field

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from garganta_site import mcp
from garganta_site.asgi import build_application

BASE = "http://127.0.0.1:8000"
# Five rounds, as the week the AI Mestre played for issue 27: the call count varies only with
# what the dice refuse (a fallen weapon, shock), so the bound of 70 keeps a wide margin.
ROUNDS = 5
SCENE_TITLE = "O poço das vozes"
CREATURES = [
    {
        "name": name,
        "kind": "creature",
        "st": 12,
        "dx": 10,
        "iq": 4,
        "ht": 12,
        "hp": 40,
        "move": 5,
        "dodge": 5,
        "passive_defense": 1,
        "damage_resistance": 2,
        "weapons": [{"name": "Mordida", "skill": 9, "damage": "1d-2 cort", "weapon_class": "bite"}],
        "demo_note": "Números de demonstração, entrados pelo Mestre; não são do cânone.",
    }
    for name in ("Vulto do poço A", "Vulto do poço B")
]


class WeekRefused(RuntimeError):
    """A call of the week was refused (the site's message)."""


@dataclass
class Counts:
    calls: int = 0  # tool calls (MCP) or API requests (REST)
    by_name: dict[str, int] = field(default_factory=dict)

    def add(self, name: str) -> None:
        self.calls += 1
        self.by_name[name] = self.by_name.get(name, 0) + 1


# --- the doors -----------------------------------------------------------------------------------


class _Door:
    """What both doors share: the idempotency keys of one playing of the week (a prefix of its
    own, so the week may be played twice by the same people)."""

    def __init__(self, tokens: dict[str, str]):
        self.tokens = tokens
        self.prefix = uuid.uuid4().hex[:8]

    def k(self, key: str) -> str:
        return f"{self.prefix}-{key}"


class McpTable(_Door):
    """The week through MCP: ``await table.call(person, tool, **arguments)``."""

    door = "MCP"

    def __init__(self, tokens: dict[str, str]):
        super().__init__(tokens)
        self.counts = Counts()
        self.clients: dict[str, Client] = {}

    async def __aenter__(self):
        self.stack = AsyncExitStack()
        self.server = mcp.build_server()
        app = build_application(self.server)
        await self.stack.enter_async_context(self.server.session_manager.run())
        for person, token in self.tokens.items():
            http = await self.stack.enter_async_context(
                httpx2.AsyncClient(
                    transport=httpx2.ASGITransport(app=app),
                    base_url=BASE,
                    headers={"authorization": f"Bearer {token}"},
                )
            )
            self.clients[person] = await self.stack.enter_async_context(
                Client(streamable_http_client(f"{BASE}/mcp", http_client=http))
            )
        return self

    async def __aexit__(self, *exc):
        await self.stack.aclose()

    async def call(self, person: str, tool: str, **arguments):
        self.counts.add(tool)
        result = await self.clients[person].call_tool(tool, arguments)
        if result.is_error:
            raise WeekRefused(f"{tool}: {result.content[0].text}")
        if result.structured_content is not None:
            content = result.structured_content
            return content["result"] if set(content) == {"result"} else content
        return json.loads(result.content[0].text)


class RestTable(_Door):
    """The week through the REST API: ``await table.request(person, method, path, body)``."""

    door = "REST"

    def __init__(self, tokens: dict[str, str]):
        super().__init__(tokens)
        self.counts = Counts()

    async def __aenter__(self):
        self.stack = AsyncExitStack()
        server = mcp.build_server()
        app = build_application(server)
        await self.stack.enter_async_context(server.session_manager.run())
        self.http = await self.stack.enter_async_context(
            httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE)
        )
        return self

    async def __aexit__(self, *exc):
        await self.stack.aclose()

    async def request(self, person, method, path, body=None, *, key="", query=None):
        self.counts.add(f"{method} {path.split('/')[1]}")
        headers = {"authorization": f"Bearer {self.tokens[person]}"}
        if key:
            headers["idempotency-key"] = key
        answer = await self.http.request(
            method, f"/api/v1{path}", json=body, params=query, headers=headers
        )
        if answer.status_code >= 400:
            raise WeekRefused(f"{method} {path}: {answer.text}")
        return answer.json()


# --- what the Mestre does, through either door ------------------------------------------------


async def overview(table, person):
    if table.door == "MCP":
        return await table.call(person, "campaign_overview")
    me = await table.request(person, "GET", "/me")
    weeks = await table.request(person, "GET", "/weeks")
    scenes = await table.request(person, "GET", "/scenes")
    sheets = await table.request(person, "GET", "/sheets")
    slug = me["memberships"][0]["campaign"]
    return {
        "campaigns": [
            {
                **me["memberships"][0],
                "weeks": [w for w in weeks if w["campaign"] == slug],
                "open_scenes": [s for s in scenes if s["campaign"] == slug],
                "sheets": [s for s in sheets if s["campaign"] == slug],
            }
        ]
    }


async def scene_open(table, campaign, week, characters):
    body = {"title": SCENE_TITLE, "floor": 4, "characters": characters}
    if table.door == "MCP":
        return await table.call(
            "mestre",
            "scene_open",
            campaign=campaign,
            week=week,
            scene=body,
            idempotency_key=table.k("s1"),
        )
    return await table.request(
        "mestre", "POST", f"/weeks/{campaign}/{week}/scenes", body, key=table.k("s1")
    )


async def scene_write(table, person, scene, tool, path, argument, body, key):
    """One write of the scene's log: ``tool`` through MCP, ``POST /scenes/<id>/<path>`` through
    REST."""
    if table.door == "MCP":
        return await table.call(
            person, tool, scene=scene, **{argument: body}, idempotency_key=table.k(key)
        )
    return await table.request(person, "POST", f"/scenes/{scene}/{path}", body, key=table.k(key))


def _next_fighter(state, *, current_acted: bool) -> dict | None:
    """Who acts next (§4.2): the one whose turn it is, if he has not acted yet; else the next
    in the order after him."""
    fighting = sorted(
        (c for c in state["combatants"] if c["status"] == "fighting"),
        key=lambda c: c["position"],
    )
    if not fighting:
        return None
    current = next((c for c in state["combatants"] if c["current"]), None)
    if current is None:
        return fighting[0]
    if current["status"] == "fighting" and not current_acted:
        return current
    later = [c for c in fighting if c["position"] > current["position"]]
    if not later and state["round"] >= ROUNDS:
        return None  # the seventh round is over
    return later[0] if later else fighting[0]


def _is_pc(combatant) -> bool:
    return combatant["character"] is not None


def _sides_standing(state) -> bool:
    sides = {_is_pc(c) for c in state["combatants"] if c["status"] == "fighting"}
    return sides == {True, False}


async def combat_start(table, scene, characters):
    if table.door == "MCP":
        return await table.call(
            "mestre",
            "combat_start",
            scene=scene,
            characters=characters,
            creatures=CREATURES,
            idempotency_key=table.k("c1"),
        )
    state = await table.request(
        "mestre", "POST", "/combats", {"scene": scene, "characters": characters}, key=table.k("c1")
    )
    for n, creature in enumerate(CREATURES):
        added = await table.request(
            "mestre", "POST", f"/combats/{state['id']}/combatants", creature, key=table.k(f"c1/{n}")
        )
        state = added["combat"]
    return state


async def combat_turn(table, combat, body, key):
    if table.door == "MCP":
        return await table.call(
            "mestre",
            "combat_act",
            combat=combat,
            act={"act": "turn", "turn": body},
            idempotency_key=key,
        )
    return await table.request("mestre", "POST", f"/combats/{combat}/act", body, key=key)


async def decide_for_me(table, combat, state, players: dict[str, str]) -> None:
    """Each jogador leaves «decidir por mim: a de maior total» for his character (§4.6), so the
    Mestre's turns go on without waiting for an answer at each attack."""
    for c in state["combatants"]:
        person = players.get(c["character"])
        if person is None:
            continue
        key = table.k(f"dm/{c['id']}")
        if table.door == "MCP":
            act = {"act": "defence", "combatant": c["id"], "defence": {"first": "best"}}
            await table.call(person, "combat_act", combat=combat, act=act, idempotency_key=key)
        else:
            path = f"/combats/{combat}/combatants/{c['id']}/defence"
            await table.request(person, "POST", path, {"first": "best"}, key=key)


async def fight(table, scene, characters, players: dict[str, str]) -> dict:
    """Up to seven rounds, or until one side is down: every fighter, on his turn, attacks a
    standing enemy (the PCs' defences are their players', by the standing defence each left:
    ``players``, the jogador of each character id)."""
    state = await combat_start(table, scene, characters)
    combat = state["id"]
    await decide_for_me(table, combat, state, players)
    # The order (§4.2) is set when the first turn passes; who is first is then known.
    if table.door == "MCP":
        state = await table.call(
            "mestre",
            "combat_act",
            combat=combat,
            act={"act": "next_turn"},
            idempotency_key=table.k("t0"),
        )
    else:
        state = await table.request("mestre", "POST", f"/combats/{combat}/turns", key=table.k("t0"))
    turns = 0
    while state["round"] <= ROUNDS and _sides_standing(state):
        fighter = _next_fighter(state, current_acted=turns > 0)
        if fighter is None:
            break
        enemies = [
            c
            for c in state["combatants"]
            if c["status"] == "fighting" and _is_pc(c) != _is_pc(fighter)
        ]
        body = {
            "combatant": fighter["id"],
            "maneuver": "move_and_attack",
            "attack": {"defender": enemies[0]["id"], "distance_m": 2},
        }
        turns += 1
        try:
            answer = await combat_turn(table, combat, body, key=table.k(f"t{turns}"))
        except WeekRefused as refused:
            # What the dice left may forbid the attack — shock (§5.1) at 3 or less, a weapon
            # broken or on the floor (§4.8): he readies the fallen weapon, or moves away. The
            # same key again: the refusal left it free.
            fallen = "no chão" in str(refused)
            instead = {"combatant": fighter["id"], "maneuver": "ready" if fallen else "move"}
            if fallen:
                instead["weapon"] = 0
            answer = await combat_turn(table, combat, instead, key=table.k(f"t{turns}"))
        state = answer["combat"]
    if table.door == "MCP":
        await table.call(
            "mestre", "combat_end", combat=combat, end={"spoils": ""}, idempotency_key=table.k("e1")
        )
    else:
        await table.request(
            "mestre", "POST", f"/combats/{combat}/end", {"spoils": ""}, key=table.k("e1")
        )
    return {"turns": turns, "round": state["round"]}


async def report_and_review(table, campaign, week):
    text = "Semana: o poço das vozes; a luta com os vultos; ninguém caiu."
    if table.door == "MCP":
        await table.call(
            "mestre", "week_report_write", campaign=campaign, week=week, text=text, submit=True
        )
        await table.call(
            "arbitro", "week_review", campaign=campaign, week=week, decision="homologate"
        )
        await table.call(
            "arbitro",
            "week_review",
            campaign=campaign,
            week=week,
            decision="bulletin",
            text="Boletim: o poço fica marcado no mapa.",
        )
        return await table.call("mestre", "week_open", campaign=campaign, number=week + 1)
    base = f"/weeks/{campaign}/{week}"
    await table.request("mestre", "PUT", f"{base}/report", {"text": text})
    await table.request("mestre", "POST", f"{base}/report/submit")
    await table.request("arbitro", "POST", f"{base}/report/homologate")
    await table.request(
        "arbitro", "POST", f"{base}/bulletin", {"text": "Boletim: o poço fica marcado no mapa."}
    )
    return await table.request("mestre", "POST", f"/weeks/{campaign}", query={"number": week + 1})


async def play_week(table) -> dict:
    """The whole demo week through ``table``'s door. Returns what happened (the scene, the
    rolls' sequence numbers, the fight, the next week) for the caller to check."""
    seen = await overview(table, "mestre")
    campaign_view = seen["campaigns"][0]
    campaign = campaign_view["campaign"]
    week = campaign_view["weeks"][-1]["week"]
    sheets = {s["name"]: s["id"] for s in campaign_view["sheets"]}
    jurado, hoplita, rastreador = (
        sheets["Jurado de Gapheim"],
        sheets["Hoplita de Ônfalos"],
        sheets["Rastreador de Uruk-Kalam"],
    )
    scene = (await scene_open(table, campaign, week, [jurado, hoplita, rastreador]))["id"]
    w = lambda *a: scene_write(table, *a)  # noqa: E731 - the week reads as a list of writes
    rolls = []

    declared = {}
    for person, character, text, key in (
        ("jogador", jurado, "O Jurado escuta junto à borda do poço.", "d1"),
        ("jogadora", hoplita, "A Hoplita ergue o escudo e desce primeiro.", "d2"),
        ("rastreadora", rastreador, "O Rastreador procura pegadas na lama.", "d3"),
    ):
        body = {"character": character, "text": text}
        declared[character] = (
            await w(person, scene, "declaration_write", "declarations", "declaration", body, key)
        )["id"]
    await w(
        "mestre",
        scene,
        "modifiers_announce",
        "announcements",
        "announcement",
        {"declaration": declared[rastreador], "modifiers": [{"label": "lama", "value": -2}]},
        "a1",
    )
    await w(
        "mestre",
        scene,
        "modifiers_announce",
        "announcements",
        "announcement",
        {"declaration": declared[jurado], "modifiers": [{"label": "eco", "value": -1}]},
        "a2",
    )
    for body, key in (
        (
            {
                "character": rastreador,
                "declaration": declared[rastreador],
                "skill": "Rastreamento",
            },
            "r1",
        ),
        (
            {
                "character": jurado,
                "declaration": declared[jurado],
                "label": "Audição",
                "attribute": "iq",
            },
            "r2",
        ),
        (
            {
                "character": rastreador,
                "skill": "Observação",
                "hidden": True,
            },
            "r3",
        ),
    ):
        rolls.append(
            (await w("mestre", scene, "roll_check", "rolls", "roll", body, key))["sequence"]
        )
    contest = {
        "a": {"character": hoplita, "attribute": "st"},
        "b": {"character": jurado, "attribute": "st"},
    }
    rolls.append(
        (await w("mestre", scene, "roll_contest", "contests", "contest", contest, "k1"))["sequence"]
    )
    damage = {"expression": "1d-1", "label": "Pedra que cai", "character": hoplita}
    rolls.append(
        (await w("mestre", scene, "roll_damage", "damage-rolls", "damage", damage, "x1"))[
            "sequence"
        ]
    )
    # The fright check (§5b): a Will roll; only a failure rolls on the table, which takes the
    # margin from that roll (follows) — no margin typed, none guessed.
    fright = {
        "character": jurado,
        "attribute": "will",
        "label": "Verificação de Pânico",
        "modifiers": [{"label": "os vultos do poço", "value": -6}],
    }
    will = await w("mestre", scene, "roll_check", "rolls", "roll", fright, "v1")
    rolls.append(will["sequence"])
    if will["margin"] < 0:
        table_roll = {"table": "fright_check", "follows": will["id"]}
        rolls.append(
            (await w("mestre", scene, "roll_table", "table-rolls", "table", table_roll, "p1"))[
                "sequence"
            ]
        )
    await w(
        "mestre",
        scene,
        "narrate",
        "narrations",
        "narration",
        {"text": "Do fundo do poço, dois vultos sobem."},
        "n1",
    )

    players = {jurado: "jogador", hoplita: "jogadora", rastreador: "rastreadora"}
    fought = await fight(table, scene, [jurado, hoplita, rastreador], players)
    await w(
        "mestre",
        scene,
        "narrate",
        "narrations",
        "narration",
        {"text": "Os vultos recuam para a água."},
        "n2",
    )
    next_week = await report_and_review(table, campaign, week)
    return {"scene": scene, "rolls": rolls, "fight": fought, "next_week": next_week}
