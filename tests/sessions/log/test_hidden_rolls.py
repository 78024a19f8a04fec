"""Hidden is not invisible (docs/DESIGN.md, invariant 4 (Hidden is not invisible)): a hidden roll's
owner sees at once its name ``semana-NN-rolagem-NN`` and its commitment hash, not its dice or
target; other jogadores do not see it; the Mestre and the Árbitro see everything."""

from __future__ import annotations

import copy
from itertools import product

import pytest
from django.urls import reverse

from gurps import checks
from sessions.log import chain
from sessions.log import services as log_services
from sessions.log.targets import roll_targets
from tests.sheets.pages import content

LABEL = "Sentir a emboscada"


@pytest.fixture
def hidden_roll(scene, mestre, rastreador):
    return log_services.roll_create(
        scene=scene,
        user=mestre,
        label=LABEL,
        skill="Observação",
        kind="skill",
        character=rastreador,
        hidden=True,
    )


def _page(client, scene) -> str:
    return content(client.get(reverse("scene", kwargs={"code": scene.code})))


def _api(client, scene) -> list[dict]:
    response = client.get(f"/api/v1/scenes/{scene.code}/rolls")
    assert response.status_code == 200
    return response.json()


def test_its_owner_sees_its_name_and_hash_but_not_its_dice_or_target(
    client_for, rastreadora, scene, hidden_roll
):
    html = _page(client_for(rastreadora), scene)
    assert hidden_roll.name == "semana-01-rolagem-01"
    assert f"Rolagem escondida {hidden_roll.name}" in html
    assert hidden_roll.hash in html
    assert LABEL not in html
    assert 'class="dice"' not in html
    assert 'class="total"' not in html


def test_other_jogadores_do_not_see_it(client_for, jogador, scene, hidden_roll):
    html = _page(client_for(jogador), scene)
    assert hidden_roll.name not in html
    assert hidden_roll.hash not in html
    assert LABEL not in html
    assert 'data-testid="roll-1"' not in html


@pytest.mark.parametrize("username", ["mestre", "arbitro"])
def test_the_table_sees_everything(client_for, django_user_model, scene, hidden_roll, username):
    html = _page(client_for(django_user_model.objects.get(username=username)), scene)
    assert LABEL in html
    assert f"escondida {hidden_roll.name}" in html
    assert f'<strong class="total">{hidden_roll.total}</strong>' in html


def test_the_api_masks_it_for_its_owner(client_for, rastreadora, scene, hidden_roll):
    (shown,) = _api(client_for(rastreadora), scene)
    assert (shown["name"], shown["hash"], shown["hidden"]) == (
        hidden_roll.name,
        hidden_roll.hash,
        True,
    )
    for key in ("dice", "total", "effective_level", "base_level", "modifiers", "outcome", "margin"):
        assert shown[key] is None, key
    assert shown["label"] == ""


def test_the_api_leaves_it_out_for_other_jogadores(client_for, jogador, scene, hidden_roll):
    assert _api(client_for(jogador), scene) == []


def test_the_api_shows_it_whole_to_the_mestre(client_for, mestre, scene, hidden_roll):
    (shown,) = _api(client_for(mestre), scene)
    assert (shown["label"], shown["dice"], shown["total"]) == (
        LABEL,
        hidden_roll.dice,
        hidden_roll.total,
    )


def test_the_log_count_of_its_owner_includes_it(
    client_for, rastreadora, jogador, scene, hidden_roll
):
    from tests.sessions.log.test_scene_log import tail_url

    url = reverse("scene", kwargs={"code": scene.code})
    owner = content(client_for(rastreadora).get(url))
    assert hidden_roll.hash in owner
    assert client_for(rastreadora).get(tail_url(owner)).status_code == 204
    other = content(client_for(jogador).get(url))
    assert hidden_roll.hash not in other
    # A page that has no entry asks from the start; the hidden roll is still nothing to him.
    assert client_for(jogador).get(tail_url(other)).status_code == 204


def test_its_hash_does_not_give_away_its_dice(client_for, mestre, rastreadora, scene, rastreador):
    """The owner rebuilds the hashed content from what the API shows and the sheet's targets,
    tries the 216 dice, and finds nothing: a secret part of the content (its salt) is not
    shown until the values are."""
    # The Mestre rolls Observação from the sheet, hidden, as the roll form does.
    roll = log_services.roll_create(
        scene=scene,
        user=mestre,
        label="Observação",
        base_level=13,
        kind="skill",
        character=rastreador,
        hidden=True,
    )
    (shown,) = _api(client_for(rastreadora), scene)
    targets = [t for t in roll_targets(rastreador) if t.kind == shown["kind"]]
    found = []
    for target, dice in product(targets, product(range(1, 7), repeat=3)):
        # Every field as the roll has it (the time is shown to the millisecond; guessing the
        # microseconds would cost 1,000 more tries each), but the secret only as shown.
        candidate = copy.copy(roll)
        if hasattr(candidate, "salt"):
            candidate.salt = shown.get("salt") or ""
        candidate.label, candidate.base_level = target.label, target.level
        candidate.effective_level = target.level
        candidate.dice, candidate.total = list(dice), sum(dice)
        candidate.outcome = str(checks.success_outcome(sum(dice), target.level))
        candidate.margin = target.level - sum(dice)
        hashed = chain.roll_hash(shown["previous_hash"], chain.roll_canonical_content(candidate))
        if hashed == shown["hash"]:
            found.append(list(dice))
    assert found == []
