"""Issue 22's proof through the MCP tools alone: an AI Mestre runs a Xuleta fight of five rounds
— initiative, a critical, a creature resistant to the damage, a spell's condition (Paralitzat)
and its critical from 1,5 m, a character at 0 PC making death saves, stabilised and healed, a
monster dying at 0 as the Mestre says — every die rolled by the server (scripted here) and in
the campaign's chain."""

from __future__ import annotations

import pytest

from campaigns.auth import api_token_create
from sessions.log import chain
from sessions.models import Roll
from tests.mcp.conftest import connect, data, error_text, orm
from tests.xuleta5e.combat.conftest import numbers

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.anyio]

SWORD = {"name": "Espasa llarga", "bonus": 5, "damage": "1d8", "damage_modifier": 3,
         "damage_type": "slashing"}  # fmt: skip
MACE = {"name": "Maça", "bonus": 4, "damage": "1d6", "damage_modifier": 2,
        "damage_type": "bludgeoning"}  # fmt: skip
SLAM = {"name": "Cop", "bonus": 5, "damage": "2d6", "damage_modifier": 3,
        "damage_type": "bludgeoning"}  # fmt: skip

ARIA = {"name": "Aria", "numbers": numbers(side="jogadores", ac=16, attacks=[SWORD],
                                           player_character=True)}  # fmt: skip
BRU = {
    "name": "Bru",
    "numbers": numbers(
        side="jogadores", abilities={"str": 12, "dex": 10, "con": 14, "int": 10, "wis": 16,
                                     "cha": 10},
        ac=14, max_hp=10, attacks=[MACE], skills={"Medicina": 5}, spell_save_dc=13,
        player_character=True,
    ),
}  # fmt: skip
GOLEM = {
    "name": "Gòlem de fang",
    "numbers": numbers(
        abilities={"str": 18, "dex": 8, "con": 18, "int": 3, "wis": 10, "cha": 1},
        ac=10, max_hp=20, attacks=[SLAM], resistances=["slashing"], dies_at_zero=True,
        size="large",
    ),
}  # fmt: skip


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def tokens(campaign, people):
    return {name: api_token_create(user=user) for name, user in people.items()}


def ids(fight: dict) -> dict[str, str]:
    return {row["name"]: row["id"] for row in fight["order"]}


def row(fight: dict, name: str) -> dict:
    return next(r for r in fight["order"] if r["name"] == name)


async def test_an_ai_mestre_runs_five_rounds_through_mcp(tokens, scene, server_dice, quote):
    quote("Cadascú tira una prova de Destresa (d20 + mod. de Destresa).")
    quote("Un 20 natural sempre encerta i és un cop crític.")
    quote("Tires el doble de daus de dany. Els modificadors se sumen un sol cop.")
    quote("Amb resistència reps la meitat del dany d'aquest tipus")
    quote("Quedes inconscient i comences a fer salvacions contra la mort.")
    quote("Si et toquen des d'1,5 m o menys, el cop és crític.")
    quote("Algú pot fer servir la seva acció per fer-te primers auxilis amb una prova de Saviesa "
          "(Medicina) CD 10.")  # fmt: skip
    quote("Si estàs a 0 PC, qualsevol curació et torna la consciència.")
    quote("Molts monstres moren directament en arribar a 0, si el DM vol.")
    server_dice(
        15, 8, 12,  # initiative: Aria 15 + 2, Bru 8 + 0, the golem 12 − 1
        20, 6, 5,  # R1 Aria: a natural 20 — 2d8 + 3 = 14 slashing, resisted: 7
        14, 5, 4,  # R1 golem: 14 + 5 = 19 against AC 16, 2d6 + 3 = 12: Aria to 0
        7, 8,  # R1 Bru: the golem's Saviesa save 7 + 0 fails (Paralitzat); R2 Aria's death save 8
        9, 3, 3, 4, 12,  # R2 Bru: advantage 9/3, critical from 1,5 m: 2d6 + 2 = 9; R3 Aria's save 12
        7,  # R3 Bru: Medicina 7 + 5 = 12 against DC 10 — stable
        4,  # R4 golem: 4 + 5 = 9 against AC 14, a miss
        5,  # R4 Bru: healing 1d8 + 3 = 8, Aria wakes
        11, 6,  # R5 Aria: 11 + 5 = 16 against AC 10, 1d8 + 3 = 9, resisted: 4 — the golem dies
    )  # fmt: skip
    async with connect(tokens["mestre"]) as client:

        async def call(tool: str, **arguments) -> dict:
            return data(await client.call_tool(tool, arguments))

        fight = await call(
            "fight_start",
            scene=str(scene.code),
            combatants=[ARIA, BRU, GOLEM],
            idempotency_key="x1",
        )
        code = fight["id"]
        who = ids(fight)
        assert [(r["name"], r["initiative"]) for r in fight["order"]] == [
            ("Aria", 17), ("Gòlem de fang", 11), ("Bru", 8),
        ]  # fmt: skip
        assert fight["ruleset"] == "xuleta5e" and fight["turn"]["name"] == "Aria"

        async def turn(name: str, *actions) -> dict:
            return await call("fight_turn", fight=code, combatant=who[name], actions=list(actions))

        # Round 1.
        done = await turn("Aria", {"kind": "attack", "target": who["Gòlem de fang"]})
        assert any("CRÍTICO" in line for line in done["lines"])
        assert any("resistência a tallant: 14 → 7" in line for line in done["lines"])
        assert row(done["fight"], "Gòlem de fang")["pv"] == 13
        done = await turn("Gòlem de fang", {"kind": "attack", "target": who["Aria"]})
        aria = row(done["fight"], "Aria")
        assert aria["pv"] == 0
        assert {c["key"] for c in aria["conditions"]} == {"unconscious", "prone"}
        done = await turn(
            "Bru",
            {"kind": "cast_spell", "spell": "Immobilitzar", "targets": [who["Gòlem de fang"]],
             "save": "wis", "condition": "paralyzed", "concentration": True},
        )  # fmt: skip
        golem = row(done["fight"], "Gòlem de fang")
        assert [c["label"] for c in golem["conditions"]] == ["Paralitzat"]
        assert row(done["fight"], "Bru")["concentration"] == "Immobilitzar"
        # Round 2 began: Aria's death save (8, a failure) passed her turn; the golem's turn.
        assert done["fight"]["round"] == 2
        assert row(done["fight"], "Aria")["death_saves"] == {"successes": 0, "failures": 1}
        assert done["fight"]["turn"]["name"] == "Gòlem de fang"

        # Round 2: the paralysed golem cannot act; Bru's mace from 1,5 m is a critical.
        refused = await client.call_tool(
            "fight_turn",
            {"fight": code, "combatant": who["Gòlem de fang"],
             "actions": [{"kind": "attack", "target": who["Bru"]}]},
        )  # fmt: skip
        assert "incapacitado" in error_text(refused) and "actions.0.kind" in error_text(refused)
        await turn("Gòlem de fang")
        done = await turn("Bru", {"kind": "attack", "target": who["Gòlem de fang"]})
        assert any("Paralitzat/Inconscient" in line for line in done["lines"])
        assert row(done["fight"], "Gòlem de fang")["pv"] == 4
        assert row(done["fight"], "Aria")["death_saves"] == {"successes": 1, "failures": 1}

        # Round 3: Bru stabilises Aria.
        await turn("Gòlem de fang")
        done = await turn("Bru", {"kind": "stabilize", "target": who["Aria"]})
        assert row(done["fight"], "Aria")["stable"] is True
        assert done["fight"]["round"] == 4

        # Round 4: the Mestre ends the paralysis (the spell's save); the golem misses; Bru heals.
        await call(
            "fight_condition",
            fight=code,
            condition={"target": who["Gòlem de fang"], "condition": "paralyzed", "remove": True},
        )
        done = await turn("Gòlem de fang", {"kind": "attack", "target": who["Bru"]})
        assert any("falha" in line for line in done["lines"])
        done = await turn(
            "Bru",
            {"kind": "cast_spell", "spell": "Curar ferides", "targets": [who["Aria"]],
             "heal": True, "damage": "1d8", "damage_modifier": 3},
        )  # fmt: skip
        aria = row(done["fight"], "Aria")
        assert aria["pv"] == 8 and [c["key"] for c in aria["conditions"]] == ["prone"]
        assert done["fight"]["round"] == 5 and done["fight"]["turn"]["name"] == "Aria"

        # Round 5: Aria stands and finishes the golem (the Mestre's: it dies at 0).
        done = await turn(
            "Aria", {"kind": "stand_up"}, {"kind": "attack", "target": who["Gòlem de fang"]}
        )
        golem = row(done["fight"], "Gòlem de fang")
        assert golem["dead"] and golem["out"] and golem["pv"] == 0
        bad = await client.call_tool(
            "fight_condition",
            {"fight": code, "condition": {"target": who["Bru"], "condition": "deafened",
                                          "remove": True}},
        )  # fmt: skip
        assert "Bru não está Ensordit." in error_text(bad) and "condition" in error_text(bad)
        ended = await call("fight_end", fight=code)
    assert ended["status"] == "ended"
    assert {r["key"] for r in ended["readings"]} >= {"initiative_ties", "resistance_rounding"}

    def stored():
        rolls = list(Roll.objects.filter(campaign=scene.week.campaign).order_by("sequence"))
        return [(r.kind, r.ruleset) for r in rolls], chain.rolls_verify(scene.week.campaign).ok

    rolls, ok = await orm(stored)()
    kinds = [kind for kind, _ in rolls]
    assert ok and {ruleset for _, ruleset in rolls} == {"xuleta5e"}
    assert kinds.count("initiative") == 3 and kinds.count("death_save") == 2
    assert len(rolls) == 17  # one Roll for every d20 or damage roll: 25 faces in all


async def test_bad_input_is_said_in_portuguese_naming_the_field(tokens, scene, server_dice):
    server_dice(15, 8)
    async with connect(tokens["mestre"]) as mestre:
        fight = data(
            await mestre.call_tool(
                "fight_start", {"scene": str(scene.code), "combatants": [ARIA, BRU]}
            )
        )
        who = ids(fight)
        twice = await mestre.call_tool(
            "fight_turn",
            {"fight": fight["id"], "combatant": who["Aria"],
             "actions": [{"kind": "dodge"}, {"kind": "dash"}]},
        )  # fmt: skip
        assert "Uma ação por turno" in error_text(twice) and "actions.1.kind" in error_text(twice)
        not_hers = await mestre.call_tool(
            "fight_turn", {"fight": fight["id"], "combatant": who["Bru"]}
        )
        assert "Não é o turno de Bru: é o de Aria." in error_text(not_hers)
    async with connect(tokens["jogador"]) as jogador:
        refused = await jogador.call_tool(
            "fight_turn", {"fight": fight["id"], "combatant": who["Aria"]}
        )
    assert "HTTP 403" in error_text(refused)
