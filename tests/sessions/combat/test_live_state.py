"""The state is live (docs/DESIGN.md, invariant 12 (The state is live)): a wound is on the sheet
page and in the sheets API while the fight runs; a death reaches the sheet, which says so and takes
no proposal; ending the fight applies nothing twice."""

from __future__ import annotations

import pytest

from campaigns.errors import ServiceError
from sessions.combat import services as combat_services
from sessions.models import Combatant
from sheets.drafts import DEAD_NO_PROPOSAL, sheet_draft_create
from sheets.reads import state_of


@pytest.fixture
def in_a_fight(scene, mestre, jurado):
    combat = combat_services.combat_start(scene=scene, user=mestre, characters=[jurado])
    return combat, Combatant.objects.get(combat=combat, character=jurado)


def _wound(combat, c, mestre, hp):
    combat_services.combatant_adjust(
        combat=combat, combatant=c, user=mestre, hp_lost=hp, reason="erro crítico 5 (§4.8)"
    )


def test_a_wound_is_on_the_sheet_page_and_in_the_api_while_the_fight_runs(
    in_a_fight, mestre, jogador, jurado, client_for
):
    combat, c = in_a_fight
    _wound(combat, c, mestre, 10)  # HT 12: 2 HP left
    owner = client_for(jogador)
    page = owner.get(f"/fichas/{jurado.code}/").content.decode()
    assert ">2/12<" in page
    assert 'data-testid="condition-staggered"' in page
    api = owner.get(f"/api/v1/sheets/{jurado.code}").json()
    assert api["hp_lost"] == 10 and api["derived"]["hp_remaining"] == 2
    combat_services.combat_end(combat=combat, user=mestre)
    assert state_of(jurado).hp_lost == 10


def test_a_dead_characters_sheet_says_so_and_takes_no_proposal(
    in_a_fight, mestre, jogador, jurado, client_for
):
    combat, c = in_a_fight
    _wound(combat, c, mestre, 72)  # HT 12: −60 = −5 × HT, automatic death (§5.4)
    page = client_for(jogador).get(f"/fichas/{jurado.code}/").content.decode()
    assert 'data-testid="condition-dead"' in page and "Morto" in page
    assert "Propor alteração da ficha" not in page
    with pytest.raises(ServiceError) as refused:
        sheet_draft_create(character=jurado, user=jogador)
    assert refused.value.message == DEAD_NO_PROPOSAL


def test_a_death_in_the_fight_stays_when_the_fight_ends(in_a_fight, mestre, jurado):
    combat, c = in_a_fight
    c.status = Combatant.Status.DEAD
    c.save()
    from sessions.combat.state import sync_character_state

    sync_character_state(c)
    combat_services.combat_end(combat=combat, user=mestre)
    assert state_of(jurado).dead
