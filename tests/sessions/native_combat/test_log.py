"""A sistema001 fight's dice in the scene's log: each roll's kind in Portuguese, as the campaign's
ruleset names it (``Ruleset.roll_kind_label``, the adapter's ``roll_kinds``), never its key;
the scene page, its JSON and its Markdown export read them without a level to pass."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from django.urls import reverse

import rulesets.sistema001.combat as sistema001_combat
from rulesets.registry import ruleset_for
from sessions.models import Roll
from sessions.native_combat import services
from tests.sessions.native_combat.conftest import KEY, SWORD, numbers


def _fight(scene, people, server_dice):
    """Initiative (Aria 7 + 6 = 13 first, Ogro 3 + 4 = 7), then Aria's attack and the Ogro's
    defence."""
    server_dice(7, 3)
    combat = services.fight_start(
        scene=scene,
        user=people["mestre"],
        combatants=[
            {"name": "Aria", "numbers": numbers(mobilidade=6, side="jogadores", weapons=[SWORD])},
            {"name": "Ogro", "numbers": numbers(mobilidade=4, forca=10, pv=20)},
        ],
    )
    server_dice(8, 2)
    services.fight_turn(
        combat=combat,
        user=people["mestre"],
        combatant=combat.combatants.get(name="Aria"),
        plan="movimento_execucao",
        actions=[
            {
                "kind": "ataque",
                "target": str(combat.combatants.get(name="Ogro").code),
                "weapon": "Espada",
            }
        ],
    )
    return combat


def _kinds_written() -> set[str]:
    """Every roll kind the sistema001's fight writes (the third argument of each
    ``fight.rolled(...)`` call of its combat part)."""
    tree = ast.parse(Path(sistema001_combat.__file__).read_text(encoding="utf-8"))
    kinds = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "rolled"
            and len(node.args) >= 3
        ):
            kind = node.args[2]
            assert isinstance(kind, ast.Constant), ast.dump(kind)
            kinds.add(kind.value)
    return kinds


def test_every_kind_the_fight_rolls_has_its_portuguese_label():
    written = _kinds_written()
    assert {"iniciativa", "ataque", "defesa", "teste", "camuflagem"} <= written
    ruleset = ruleset_for(KEY)
    for kind in written:
        label = ruleset.roll_kind_label(kind)
        assert label != kind and label[0].isupper(), kind
    assert ruleset.roll_kind_label("iniciativa") == "Iniciativa"
    assert ruleset.roll_kind_label("desconhecido") == "desconhecido"


def test_gurps_and_the_roll_model_keep_their_own_labels():
    assert ruleset_for("gurps3e").roll_kind_label("skill") == "Perícia"
    assert Roll(kind="defence", ruleset="gurps3e").kind_label == "Defesa"
    assert Roll(kind="ataque", ruleset=KEY).kind_label == "Ataque"


def test_the_scene_log_shows_each_fight_roll_with_its_kind_in_portuguese(
    client, scene, people, server_dice
):
    """«Iniciativa = Dado de Mobilidade + Mobilidade + Modificadores» — in the scene's log each
    die says which roll it was, as the chapter names it."""
    _fight(scene, people, server_dice)
    client.force_login(people["jogador"])
    page = client.get(reverse("scene", kwargs={"code": scene.code}))
    assert page.status_code == 200
    text = page.content.decode()
    kinds = [
        r.kind_label
        for r in Roll.objects.filter(scene=scene).order_by("sequence")
        if r.kind_label in text
    ]
    assert kinds == ["Iniciativa", "Iniciativa", "Ataque", "Defesa"]
    for key in ("iniciativa", "ataque", "defesa"):
        assert f'data-testid="roll-kind">{key}<' not in text
    assert 'data-testid="roll-kind">Iniciativa<' in text
    assert "Iniciativa de Aria: d10: 7 + Mobilidade 6 = 13." in text
    assert "§4.10" not in text  # GURPS's attack steps are not this system's

    exported = client.get(reverse("scene-export-json", kwargs={"code": scene.code}))
    rolls = json.loads(b"".join(exported.streaming_content))
    labels = [(e["kind"], e["kind_label"]) for e in rolls["entries"] if e["type"] == "roll"]
    assert sorted(labels) == sorted(
        [("iniciativa", "Iniciativa")] * 2 + [("ataque", "Ataque"), ("defesa", "Defesa")]
    )
    markdown = client.get(reverse("scene-export-md", kwargs={"code": scene.code}))
    assert markdown.status_code == 200
    body = b"".join(markdown.streaming_content) if markdown.streaming else markdown.content
    assert "Iniciativa: dados 7 = 13" in body.decode()
