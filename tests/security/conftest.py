"""The world of the security tests: the demo campaign played a little (``demo_week``'s scene with
its hidden roll, ``demo_combat``'s fight, an exploration in a second scene, a written report, a
correction), and a second campaign, "outra", with one of everything of its own (its mestre is
the ``outsider``), so an id of one campaign can be tried by the people of the other.

``world`` is built once per test that asks for it (the demo seed runs per test anyway);
``send`` makes one request inside a savepoint that is rolled back afterwards, so every
request of a matrix sees the same database, and says whether the request wrote anything.
"""

from __future__ import annotations

import json
import logging
import random
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaigns.auth import api_token_create
from campaigns.models import ApiToken, Campaign, Membership
from canon import services as canon_services
from canon.models import Decision, Divergence, SkillCatalogueEntry, SkillCostTable
from garganta_site import demo as sheet_demo
from garganta_site.demo import DEMO_PASSWORD
from garganta_site.founding import campaign_create
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import state as combat_state
from sessions.combat import turns as combat_turns
from sessions.demo import (
    DEMO_BITE,
    DEMO_CREATURE,
    demo_combat_start,
    demo_week_play,
    demo_week_seed,
)
from sessions.exploration import services as exploration_services
from sessions.log import services as log_services
from sessions.models import Combat, Declaration, Exploration, RandomTable, WorldAction
from sessions.weeks import services as weeks_services
from sheets.models import Character, Possession, SheetVersion
from sheets.possessions import loot_add

ACTORS = ("anon", "owner", "other", "mestre", "arbitro", "outsider")
ACTOR_USERS = {
    "owner": "jogador",  # owns the Jurado de Gapheim
    "other": "jogadora",  # owns the Hoplita, not the Jurado
    "mestre": "mestre",
    "arbitro": "arbitro",
    "outsider": "outsider",  # the mestre of "outra", member of nothing in the demo
}


@dataclass
class Place:
    """The ids of one campaign's objects, as they go into URLs and bodies."""

    campaign: str
    week: int
    char: str  # the character the matrix looks at (the owner's)
    mate: str  # another character of the same scenes
    poss: str  # a loot possession of that character
    scene: str  # the scene with the fight and the hidden roll
    xscene: str  # the scene with the exploration
    combat: str
    fight: str  # a fight the sistema001 plays whole (the demo's «Ponte de Cordas»; for
    # "outra", which has none, its GURPS fight: no such fight, 404 to everyone)
    exploration: str
    version: str  # a submitted sheet version, waiting for the Árbitro
    divergence: str  # an open one
    decision: str
    correction: str
    table: str  # a procedure table
    costtable: str  # the physical skill cost table (the Árbitro's)
    skill: str  # an entry of the skill catalogue
    number: int  # the number of that character's homologated version
    declaration: str
    fighter: str  # the combatant whose turn it is
    foe: str  # another combatant of the fight
    own: str  # the combatant of the character the matrix looks at (its owner's)
    player: str  # a jogador's username (for the folder of hidden rolls)
    token: str  # an API token of that jogador (the account page revokes it)
    action: str  # a world action of the week, spent by that jogador

    def fill(self, template: str) -> str:
        return template.format(**vars(self))


@dataclass
class World:
    demo: Place
    outra: Place
    users: dict

    def page_client(self, actor: str) -> Client:
        client = Client(raise_request_exception=False)
        if actor != "anon":
            client.force_login(self.users[actor])
        return client

    def api_client(self, actor: str) -> Client:
        if actor == "anon":
            return Client(raise_request_exception=False)
        token = api_token_create(user=self.users[actor])
        return Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Bearer {token}")


def _second_scene(week, mestre, characters, title):
    return log_services.scene_create(
        week=week, user=mestre, title=title, floor=4, terrain="rocha", characters=characters
    )


def _token_of(user) -> ApiToken:
    api_token_create(user=user)
    return ApiToken.objects.filter(user=user).latest("pk")


def _place(
    campaign, *, owner, arbitro, character, mate, scene, combat_scene, xscene, fight=None
) -> Place:
    combat = Combat.objects.filter(scene=combat_scene).order_by("-pk").first()
    fighter = combat_state.current(combat)
    foe = combat.combatants.exclude(pk=fighter.pk).order_by("pk").first()
    own = combat.combatants.filter(character=character).first() or fighter
    exploration = Exploration.objects.get(scene=xscene)
    decision = Decision.objects.filter(campaign=campaign).order_by("pk").first()
    correction = canon_services.correction_create(
        entry=decision,
        field="title",
        after=decision.title + " (corrigido)",
        reason="Teste de permissões.",
        user=arbitro,
    )
    return Place(
        campaign=campaign.slug,
        week=scene.week.number,
        char=str(character.code),
        mate=str(mate.code),
        poss=str(
            Possession.objects.filter(character=character, item__isnull=True)
            .order_by("pk")
            .first()
            .code
        ),
        scene=str(scene.code),
        xscene=str(xscene.code),
        combat=str(combat.code),
        fight=str((fight or combat).code),
        exploration=str(exploration.code),
        version=str(
            SheetVersion.objects.filter(character__campaign=campaign, status="submitted")
            .order_by("pk")
            .first()
            .code
        ),
        divergence=str(
            Divergence.objects.filter(campaign=campaign, status=Divergence.Status.OPEN)
            .order_by("pk")
            .first()
            .code
        ),
        decision=str(decision.code),
        correction=str(correction.code),
        table=str(RandomTable.objects.filter(campaign=campaign).order_by("pk").first().code),
        costtable=str(SkillCostTable.objects.get(campaign=campaign, kind="physical").code),
        skill=str(
            SkillCatalogueEntry.objects.filter(campaign=campaign).order_by("pk").first().code
        ),
        number=SheetVersion.objects.get(character=character, status="homologated").number,
        declaration=str(Declaration.objects.filter(scene=scene).order_by("pk").first().code),
        fighter=str(fighter.code),
        foe=str(foe.code),
        own=str(own.code),
        player=owner.username,
        token=str(_token_of(owner).code),
        action=str(
            WorldAction.objects.filter(week=scene.week, character=character)
            .order_by("pk")
            .first()
            .code
        ),
    )


def build_world() -> World:
    """The demo campaign and "outra", each with one of everything."""
    User = get_user_model()
    sheet_demo.demo_seed()
    demo = Campaign.objects.get(slug="a-garganta")
    people = {u.username: u for u in User.objects.all()}
    mestre, arbitro = people["mestre"], people["arbitro"]

    # The demo: the week played (a hidden roll among its rolls), the fight, an exploration in
    # a second scene, the report written (not yet sent: the week still takes entries).
    scene = demo_week_play(demo)
    demo_combat_start(demo)
    jurado = Character.objects.get(campaign=demo, name="Jurado de Gapheim")
    hoplita = Character.objects.get(campaign=demo, name="Hoplita de Ônfalos")
    xscene = _second_scene(scene.week, mestre, [jurado, hoplita], "A descida do andar 4")
    exploration_services.exploration_start(scene=xscene, user=mestre, danger="risky")
    weeks_services.report_write(week=scene.week, user=mestre, text="Relatório da semana 1.")
    ponte = sheet_demo.demo_fight_seed(random.Random(23))
    demo_place = _place(
        demo,
        fight=ponte["combat"],
        owner=people["jogador"],
        arbitro=arbitro,
        character=jurado,
        mate=hoplita,
        scene=scene,
        combat_scene=scene,
        xscene=xscene,
    )

    # "outra": its mestre is the outsider; its own árbitro and jogador, a homologated sheet
    # with a change submitted, loot, a week with a scene, a declaration, a hidden roll, a
    # fight, an exploration, a written report, a correction.
    outra = campaign_create(slug="outra", name="Outra campanha")
    outsider = User.objects.create_user("outsider", password=DEMO_PASSWORD)
    o_arbitro = User.objects.create_user("outra-arbitro", password=DEMO_PASSWORD)
    o_jogador = User.objects.create_user("outra-jogador", password=DEMO_PASSWORD)
    for user, role in (
        (outsider, Membership.Role.MESTRE),
        (o_arbitro, Membership.Role.ARBITRO),
        (o_jogador, Membership.Role.JOGADOR),
    ):
        Membership.objects.create(user=user, campaign=outra, role=role)
    sentinela = Character.objects.create(campaign=outra, name="Sentinela", owner=o_jogador)
    companion = Character.objects.create(campaign=outra, name="Batedora", owner=o_jogador)
    for character, number, status in (
        (sentinela, 1, "homologated"),
        (sentinela, 2, "submitted"),
        (companion, 1, "homologated"),
    ):
        sheet_demo._version(
            character,
            number=number,
            st=12,
            dx=12,
            iq=10,
            ht=11,
            skills=sheet_demo.JURADO_SKILLS,
            items=sheet_demo.JURADO_ITEMS,
            status=status,
            arbitro=o_arbitro,
        )
    loot_add(character=sentinela, user=o_jogador, name="Moeda velha", weight_kg="0.1", quantity=1)
    week = demo_week_seed(outra)
    o_scene = _second_scene(week, outsider, [sentinela, companion], "A ponte de outra")
    log_services.declaration_create(
        scene=o_scene, character=sentinela, user=o_jogador, text="Atravesso a ponte."
    )
    log_services.roll_create(
        scene=o_scene,
        user=outsider,
        label="Noção do Perigo",
        skill="Observação",
        character=sentinela,
        hidden=True,
    )
    combat = combat_services.combat_start(scene=o_scene, user=outsider, characters=[sentinela])
    combat_services.combatant_add(
        combat=combat,
        user=outsider,
        creature=combat_specs.CreatureSpec(
            name="Cavador",
            weapons=(combat_specs.WeaponSpec(**DEMO_BITE),),
            **DEMO_CREATURE,
        ),
    )
    combat_turns.combat_next_turn(combat=combat, user=outsider)
    o_xscene = _second_scene(week, outsider, [sentinela, companion], "A descida de outra")
    exploration_services.exploration_start(scene=o_xscene, user=outsider, danger="unsafe")
    weeks_services.report_write(week=week, user=outsider, text="Relatório de outra campanha.")
    weeks_services.world_action_create(
        week=week, character=sentinela, user=o_jogador, text="Vigiar a ponte."
    )
    canon_services.divergence_create(
        campaign=outra, user=outsider, title="Uma pendência de outra", description="Teste."
    )
    outra_place = _place(
        outra,
        owner=o_jogador,
        arbitro=o_arbitro,
        character=sentinela,
        mate=companion,
        scene=o_scene,
        combat_scene=o_scene,
        xscene=o_xscene,
    )

    users = {actor: User.objects.get(username=name) for actor, name in ACTOR_USERS.items()}
    return World(demo=demo_place, outra=outra_place, users=users)


@pytest.fixture
def world(db, quiet_refusals) -> World:
    return build_world()


# --- one request, rolled back -------------------------------------------------------------------

WRITES = ("INSERT", "UPDATE", "DELETE")


def _tables() -> list[str]:
    models = [
        m
        for label in ("auth", "campaigns", "sheets", "mesa", "canon", "axes")
        for m in apps.get_app_config(label).get_models()
    ]
    return sorted({m._meta.db_table for m in models})


def fingerprint() -> tuple[int, ...]:
    """The row count of every table of the site's apps, in one query."""
    quote = connection.ops.quote_name
    counts = ", ".join(f"(SELECT COUNT(*) FROM {quote(t)})" for t in _tables())
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        return tuple(cursor.fetchone())


@dataclass
class Sent:
    status: int
    location: str
    writes: list[str]
    counts_changed: bool
    error: str
    content: bytes

    @property
    def wrote(self) -> bool:
        return bool(self.writes) or self.counts_changed


def send(client: Client, method: str, url: str, *, data=None, json_body=None, **extra) -> Sent:
    """One request inside a savepoint that is rolled back: what it answered, and the write
    statements it ran (an INSERT, UPDATE or DELETE, even one rolled back by the view) and
    whether any table's row count moved."""
    with transaction.atomic():
        before = fingerprint()
        with CaptureQueriesContext(connection) as queries:
            call = getattr(client, method.lower())
            if json_body is not None:
                response = call(
                    url, json.dumps(json_body), content_type="application/json", **extra
                )
            elif method == "GET":
                response = call(url, **extra)
            else:
                response = call(url, data or {}, **extra)
        writes = [
            q["sql"][:120]
            for q in queries.captured_queries
            if q["sql"].lstrip().upper().startswith(WRITES)
        ]
        after = fingerprint()
        transaction.set_rollback(True)
    error = ""
    if getattr(response, "exc_info", None):
        error = repr(response.exc_info[1])
    return Sent(
        status=response.status_code,
        location=response.get("Location", ""),
        writes=writes,
        counts_changed=before != after,
        error=error,
        content=response.content if not response.streaming else b"",
    )


@pytest.fixture
def quiet_refusals():
    """Hundreds of refused requests: Django logs each 403/404 (with its traceback) as a
    warning, and axes each login. Only errors are kept (a 500 still shows)."""
    loggers = [logging.getLogger(name) for name in ("django.request", "django.security", "axes")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)
