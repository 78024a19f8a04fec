"""The Árbitro answers the sistema001's pendência «does a test against an ND pass on a tie?»
(reading ``test_pass_comparison``) with a decision of his register that names one of the
ruleset's house settings (``rulesets.sistema001.house``). Before it, the Ataque Furtivo and the
Ataque Interno refuse without rolling (422 ``awaits_arbitro``, saying what to record in the
console); after it, both run, a tie failing under «supera» and passing under «iguala»; the
newest decision among the options is in force; only the Árbitro records it; the fight's read
says which answer is in force."""

from __future__ import annotations

import pytest

from campaigns.auth import api_token_create
from canon.models import Divergence
from sessions.models import Roll
from tests.sessions.native_combat.conftest import numbers

pytestmark = pytest.mark.django_db

BASE = "/api/v1/fights"
CONSOLE = "/api/v1/console"
SUPERA = "sistema001_teste_supera_nd"
IGUALA = "sistema001_teste_iguala_nd"
# Aria: Acuidade 5, Dado de Acuidade d10 → the sneak attack's ND is 10 // 2 + 5 = 10;
# Resistência 3 on a d10.
ARIA = {"name": "Aria", "numbers": numbers(mobilidade=6, side="jogadores")}
OGRO = {"name": "Ogro", "numbers": numbers(mobilidade=4, pv=20)}


def _headers(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user)}"}


def _post(client, url, body, user):
    return client.post(url, body, content_type="application/json", **_headers(user))


def _start(client, scene, people, server_dice) -> tuple[dict, str, str]:
    """Aria 3 + 6 = 9, Ogro 7 + 4 = 11: the Ogro acts first."""
    server_dice(3, 7)
    answer = _post(
        client, BASE, {"scene": str(scene.code), "combatants": [ARIA, OGRO]}, people["mestre"]
    )
    assert answer.status_code == 201, answer.json()
    fight = answer.json()
    found = {r["name"]: r["id"] for r in fight["order"]}
    return fight, found["Ogro"], found["Aria"]


def _sneak(aria: str) -> dict:
    return {"kind": "ataque", "target": aria, "situations": ["ataque_furtivo"]}


def _internal(aria: str, nd: int = 8) -> dict:
    return {
        "kind": "ataque",
        "target": aria,
        "attack_kind": "interno",
        "resisted_with": "resistencia",
        "nd": nd,
        "damage": [{"type": "psiquico", "amount": 3}],
        "condition": "amedrontado",
    }


def _turn(client, fight, ogro, action, user):
    return _post(
        client,
        f"{BASE}/{fight['id']}/turns",
        {"combatant": ogro, "plan": "movimento_execucao", "actions": [action]},
        user,
    )


def _pendencia(campaign) -> Divergence:
    return Divergence.objects.get(
        campaign=campaign, source_key="reading:sistema001:test_pass_comparison"
    )


def _decide(client, people, house_key: str, *, resolves=(), title="Empate com o ND"):
    return _post(
        client,
        f"{CONSOLE}/decisions",
        {
            "title": title,
            "text": "O Árbitro decide se empatar com o ND passa no teste.",
            "house_key": house_key,
            "resolves": [str(d.code) for d in resolves],
        },
        people["arbitro"],
    )


def test_before_the_decision_both_attacks_refuse_without_rolling(
    client, scene, people, server_dice
):
    """«Atacante: faz um teste de Mobilidade contra metade do Dado de Acuidade + Acuidade do
    alvo.» «Ataque Interno: O alvo faz um teste de resistência, com ND e efeito de acordo com a
    descrição da vantagem ou magia.» — the chapter never says whether a tie passes: both refuse,
    no die rolled, and the refusal says what the Árbitro records in the console."""
    fight, ogro, aria = _start(client, scene, people, server_dice)
    rolls = Roll.objects.filter(scene=scene).count()
    for action, field in ((_sneak(aria), "situations"), (_internal(aria), "attack_kind")):
        answer = _turn(client, fight, ogro, action, people["mestre"])
        body = answer.json()
        assert answer.status_code == 422 and body["code"] == "awaits_arbitro"
        assert body["field"] == f"actions.0.{field}"
        assert "console" in body["detail"] and SUPERA in body["detail"]
        assert IGUALA in body["detail"] and "O teste passa só quando supera o ND" in body["detail"]
    assert Roll.objects.filter(scene=scene).count() == rolls
    (pending,) = client.get(f"{BASE}/{fight['id']}", **_headers(people["jogador"])).json()[
        "arbitro"
    ]
    assert pending["awaits_arbitro"] and pending["answer"] is None
    assert pending["text"].startswith("Aguarda o Árbitro")
    assert [o["house_key"] for o in pending["options"]] == [SUPERA, IGUALA]


def test_the_arbitro_decides_through_the_console_api_and_resolves_the_pendencia(
    client, campaign, scene, people, server_dice
):
    """The decision names the house setting and resolves the seeded pendência at once; the
    fight's read shows the answer in force and the decision that fixed it."""
    fight, _, _ = _start(client, scene, people, server_dice)
    pendencia = _pendencia(campaign)
    assert pendencia.status == Divergence.Status.OPEN
    made = _decide(client, people, IGUALA, resolves=[pendencia])
    assert made.status_code == 201, made.json()
    assert made.json()["house_key"] == IGUALA
    pendencia.refresh_from_db()
    assert pendencia.status == Divergence.Status.RESOLVED
    assert str(pendencia.decision.code) == made.json()["id"]
    (shown,) = client.get(f"{BASE}/{fight['id']}", **_headers(people["mestre"])).json()["arbitro"]
    assert (shown["awaits_arbitro"], shown["house_key"], shown["answer"]) == (
        False,
        IGUALA,
        "maior_ou_igual",
    )
    assert shown["decision"] == "Decisão sem número"
    assert shown["text"] == (
        "Em vigor: o teste passa quando iguala ou supera o ND (Decisão sem número)."
    )


@pytest.mark.parametrize("role", ["jogador", "mestre"])
def test_only_the_arbitro_records_the_answer(client, campaign, people, role):
    answer = _post(
        client,
        f"{CONSOLE}/decisions",
        {"title": "Empate", "text": "Empate passa.", "house_key": IGUALA},
        people[role],
    )
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    assert _pendencia(campaign).status == Divergence.Status.OPEN


@pytest.mark.parametrize(
    ("house_key", "succeeds", "defence"),
    [(SUPERA, False, 11), (IGUALA, True, 9)],
)
def test_the_sneak_attacks_tie_follows_the_decision(
    client, scene, people, server_dice, house_key, succeeds, defence
):
    """«Atacante: faz um teste de Mobilidade contra metade do Dado de Acuidade + Acuidade do
    alvo. Em sucesso, executa o ataque furtivo.» «Alvo: fica Desprevenido contra o primeiro
    ataque e sofre -2 na Defesa apenas contra esse ataque.» — the Ogro's test 6 + 4 = 10 ties
    the ND 10: under «supera» it fails (Aria defends with 5 + 6 = 11), under «iguala» it passes
    (Aria Desprevenido: 5 + 6 − 2 = 9)."""
    fight, ogro, aria = _start(client, scene, people, server_dice)
    assert _decide(client, people, house_key).status_code == 201
    server_dice(6, 5, 5)  # the sneak test, the attack (5 + 4 = 9), Aria's defence
    answer = _turn(client, fight, ogro, _sneak(aria), people["mestre"])
    assert answer.status_code == 201, answer.json()
    test = Roll.objects.get(scene=scene, label__contains="Ataque Furtivo")
    assert (test.total, test.details["nd"], test.details["house_key"]) == (10, 10, house_key)
    assert test.details["comparison"] == ("maior_ou_igual" if succeeds else "maior")
    lines = " ".join(answer.json()["lines"])
    assert ("sucesso" in lines) is succeeds
    assert "Em vigor: o teste passa" in lines
    assert Roll.objects.get(scene=scene, kind="defesa").total == defence


@pytest.mark.parametrize(("house_key", "resisted"), [(SUPERA, False), (IGUALA, True)])
def test_the_internal_attacks_tie_follows_the_decision(
    client, scene, people, server_dice, house_key, resisted
):
    """«Ataque Interno: O alvo faz um teste de resistência, com ND e efeito de acordo com a
    descrição da vantagem ou magia.» «Teste de Resistência: veneno, doença, exaustão, paralisia
    etc.» — no attack and no Defesa: Aria's Resistência 5 + 3 = 8 ties the ND 8; under «supera»
    she fails and suffers the description's effect (3 psíquico, Amedrontado), under «iguala»
    she resists."""
    fight, ogro, aria = _start(client, scene, people, server_dice)
    assert _decide(client, people, house_key).status_code == 201
    server_dice(5)  # Aria's resistance test, the only die
    answer = _turn(client, fight, ogro, _internal(aria), people["mestre"])
    assert answer.status_code == 201, answer.json()
    (test,) = Roll.objects.filter(scene=scene, label__contains="Ataque Interno")
    assert (test.total, test.details["nd"], test.details["resisted"]) == (8, 8, resisted)
    assert not Roll.objects.filter(scene=scene, kind__in=["ataque", "defesa"]).exists()
    row = next(r for r in answer.json()["fight"]["order"] if r["name"] == "Aria")
    assert row["pv"] == (10 if resisted else 7)
    assert bool(row["conditions"]) is not resisted


def test_the_newest_decision_among_the_options_wins(client, scene, people, server_dice):
    fight, _, _ = _start(client, scene, people, server_dice)
    url = f"{BASE}/{fight['id']}"
    for house_key, answer in ((SUPERA, "maior"), (IGUALA, "maior_ou_igual"), (SUPERA, "maior")):
        assert _decide(client, people, house_key).status_code == 201
        (shown,) = client.get(url, **_headers(people["mestre"])).json()["arbitro"]
        assert (shown["house_key"], shown["answer"]) == (house_key, answer)


def test_an_internal_attack_says_what_it_lacks(client, scene, people, server_dice):
    """The ND, the resisting attribute and the effect are the description's: the Mestre gives
    them, and a missing one is named."""
    fight, ogro, aria = _start(client, scene, people, server_dice)
    assert _decide(client, people, IGUALA).status_code == 201
    for missing, field in (("nd", "nd"), ("resisted_with", "resisted_with")):
        action = _internal(aria)
        del action[missing]
        answer = _turn(client, fight, ogro, action, people["mestre"])
        assert answer.status_code == 422 and answer.json()["field"] == f"actions.0.{field}"
    bare = {**_internal(aria), "damage": [], "condition": None}
    answer = _turn(client, fight, ogro, bare, people["mestre"])
    assert answer.status_code == 422 and answer.json()["field"] == "actions.0.damage"
    wrong = {**_internal(aria), "resisted_with": "forca"}
    assert _turn(client, fight, ogro, wrong, people["mestre"]).status_code == 422


def test_the_panel_shows_each_rule_awaiting_the_arbitro_then_the_answer_in_force(
    client, scene, people, server_dice
):
    """«rules that can only run once the Árbitro has answered say so in Portuguese» — the scene's
    fight panel too: the rule awaiting him with the options he records in the console, then the
    answer in force and the decision that fixed it."""
    from django.urls import reverse

    _start(client, scene, people, server_dice)
    page = reverse("combat", kwargs={"code": scene.code})
    client.force_login(people["jogador"])
    text = client.get(page).content.decode()
    assert "Regras que dependem do Árbitro — 1 aguardando" in text
    assert "Aguarda o Árbitro:" in text and SUPERA in text and IGUALA in text
    assert _decide(client, people, IGUALA).status_code == 201
    client.force_login(people["jogador"])
    text = client.get(page).content.decode()
    assert "Regras que dependem do Árbitro — respondidas" in text
    assert "Aguarda o Árbitro:" not in text and "Em vigor:" in text
