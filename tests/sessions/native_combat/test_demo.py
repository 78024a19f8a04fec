"""The sistema001's demo (``manage.py demo_fight``, in ``make run``): a second campaign on the
combat chapter with the demo's mestre, arbitro and jogador, a week, an open scene and a fight
started and played a turn or two with the server's dice — made once."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign, Membership
from garganta_site.demo import FIGHT_CAMPAIGN, demo_fight_seed
from sessions.log import chain
from sessions.models import Combat, CombatEvent, Roll
from sessions.native_combat import services


def test_the_demo_fight_is_made_once_beside_the_demo_campaign(demo):
    out = StringIO()
    call_command("demo_fight", stdout=out)
    call_command("demo_fight", stdout=StringIO())
    assert "/combate/" in out.getvalue()
    campaign = Campaign.objects.get(slug=FIGHT_CAMPAIGN[0])
    assert campaign.ruleset == "sistema001"
    assert Campaign.objects.count() == 2  # A Garganta is left as it is
    roles = dict(Membership.objects.filter(campaign=campaign).values_list("user__username", "role"))
    assert roles == {
        "mestre": Membership.Role.MESTRE,
        "arbitro": Membership.Role.ARBITRO,
        "jogador": Membership.Role.JOGADOR,
    }
    combat = Combat.objects.get(scene__week__campaign=campaign)
    assert combat.status == Combat.Status.ACTIVE and combat.scene.is_open
    assert combat.events.filter(kind=CombatEvent.Kind.TURN).count() == 2
    view = services.fight_view(combat)
    assert {row["name"] for row in view["order"]} == {"Aria", "Ogro da ponte"}
    ogro = next(row for row in view["order"] if row["name"] == "Ogro da ponte")
    assert [c["key"] for c in ogro["conditions"]] == ["amedrontado"]
    rolls = Roll.objects.filter(campaign=campaign)
    assert rolls.filter(kind="iniciativa").count() == 2 and rolls.filter(kind="ataque").exists()
    assert chain.rolls_verify(campaign).ok
    assert not Roll.objects.filter(campaign__slug="a-garganta").exists()


def test_the_home_page_lists_it_with_its_ruleset(client, demo, jogador):
    made = demo_fight_seed()
    client.force_login(jogador)
    home = client.get("/").content.decode()
    assert "A Ponte de Cordas" in home and "Sistema 001 (capítulo de combate)" in home
    page = client.get(reverse("combat", kwargs={"code": made["scene"].code}))
    assert page.status_code == 200 and "Ogro da ponte" in page.content.decode()
