"""The Xuleta demo (``manage.py demo_xuleta``, in ``make run``): a short campaign on the Xuleta's
d20 rules beside *A Garganta*, so a new user sees the second ruleset whole (issue 22, item 8).

Three characters, each drafted by its jogador and homologated by the Árbitro through the same
services as a GURPS sheet; week 1 with two open scenes — one where the Mestre has prepared a
fight against a group of identical monsters (three wolves, one initiative), one where the party
has travelled a day with a forced march (the site rolled each Constitution save from the
sheets). The numbers are demo data, entered as a jogador and a Mestre would. Idempotent.
"""

from __future__ import annotations

from django.db import transaction

from campaigns.models import Campaign, Membership
from garganta_site.demo import demo_user
from garganta_site.founding import campaign_create
from rulesets.registry import XULETA5E
from sessions.models import Combat, Exploration, Scene, Week
from sheets import ruleset_data
from sheets.homologation import sheet_homologate, sheet_submit
from sheets.models import Character, SheetVersion

CAMPAIGN = ("vau-das-brumas", "O Vau das Brumas")
USERS = (
    ("mestre", Membership.Role.MESTRE),
    ("arbitro", Membership.Role.ARBITRO),
    ("jogador", Membership.Role.JOGADOR),
    ("jogadora", Membership.Role.JOGADOR),
    ("rastreadora", Membership.Role.JOGADOR),
)
NOTE = "Ficha de demonstração: números escolhidos para a demo, dentro das regras da Xuleta."

# (owner, sheet data): the inputs only; every derived number is the engine's.
SHEETS = (
    (
        "jogador",
        {
            "name": "Aina",
            "level": 3,
            "abilities": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 12, "cha": 8},
            "proficiencies": {
                "skills": ["Atletisme", "Intimidació", "Percepció"],
                "saves": ["str", "con"],
            },
            "ac": 16,
            "max_hp": 28,
            "hit_die": 10,
            "attacks": [
                {"name": "Espasa llarga", "damage": "1d8", "damage_type": "slashing"},
                {
                    "name": "Arc curt",
                    "damage": "1d6",
                    "damage_type": "piercing",
                    "ranged": True,
                    "range_m": [24, 96],
                },
            ],
            "notes": NOTE,
        },
    ),
    (
        "jogadora",
        {
            "name": "Bru",
            "level": 3,
            "abilities": {"str": 12, "dex": 10, "con": 14, "int": 10, "wis": 16, "cha": 12},
            "proficiencies": {
                "skills": ["Medicina", "Religió", "Perspicàcia"],
                "saves": ["wis", "cha"],
            },
            "ac": 18,
            "max_hp": 24,
            "hit_die": 8,
            "attacks": [{"name": "Maça", "damage": "1d6", "damage_type": "bludgeoning"}],
            "spellcasting": {
                "class": "clergue",
                "slots": {"1": 4, "2": 2},
                "cantrips": ["Flama sagrada"],
                "spells": ["Paraula curativa", "Beneir"],
            },
            "notes": NOTE,
        },
    ),
    (
        "rastreadora",
        {
            "name": "Ona",
            "level": 3,
            "abilities": {"str": 10, "dex": 16, "con": 12, "int": 12, "wis": 14, "cha": 10},
            "proficiencies": {
                "skills": ["Sigil", "Supervivència", "Percepció", "Acrobàcies"],
                "saves": ["str", "dex"],
            },
            "ac": 14,
            "max_hp": 24,
            "hit_die": 10,
            "darkvision_m": 18,
            "attacks": [
                {
                    "name": "Arc llarg",
                    "damage": "1d8",
                    "damage_type": "piercing",
                    "ranged": True,
                    "range_m": [45, 180],
                },
                {
                    "name": "Punyal",
                    "damage": "1d4",
                    "damage_type": "piercing",
                    "finesse": True,
                    "light": True,
                    "thrown": True,
                    "range_m": [6, 18],
                },
            ],
            "notes": NOTE,
        },
    ),
)

FIGHT_SCENE = "Els llops del gual"
FIGHT_KEY = "demo-xuleta-fight"
WOLF_BITE = {
    "name": "Mossegada",
    "bonus": 4,
    "damage": "2d4",
    "damage_modifier": 2,
    "damage_type": "piercing",
}
WOLF = {
    "side": "inimigos",
    "abilities": {"str": 12, "dex": 15, "con": 12, "int": 3, "wis": 12, "cha": 6},
    "ac": 13,
    "max_hp": 11,
    "speed_m": 12,
    "attacks": [WOLF_BITE],
    "group": 1,  # three identical wolves: one initiative for the pack
    "dies_at_zero": True,
}
WOLVES = ("Llop 1", "Llop 2", "Llop 3")
JOURNEY_SCENE = "A estrada das brumas"
JOURNEY_KEY = "demo-xuleta-journey"
# The journey day: two rounds of walking, a third past the eighth hour (the forced march), camp.
JOURNEY_ROUNDS = (("advance", "walking"), ("advance", ""), ("advance", ""), ("make_camp", ""))


def _character(campaign: Campaign, owner, arbitro, data: dict) -> Character:
    """The character with a homologated version of ``data``: drafted by its jogador, submitted,
    homologated by the Árbitro (the same services as the site's)."""
    character, _ = Character.objects.get_or_create(
        campaign=campaign, name=data["name"], defaults={"owner": owner}
    )
    homologated = SheetVersion.objects.filter(
        character=character, status=SheetVersion.Status.HOMOLOGATED
    )
    if not homologated.exists():
        draft = ruleset_data.data_draft_create(character=character, user=owner, data=data)
        sheet_submit(version=draft, user=owner)
        sheet_homologate(version=draft, user=arbitro)
    return character


@transaction.atomic
def demo_xuleta_seed(source=None) -> dict:
    """Create, once, the Xuleta demo campaign: its members (the demo's logins), Aina, Bru and
    Ona homologated, week 1, a scene with a fight begun against three wolves (one initiative for
    the pack) and a scene with a journey day of four rounds, the third a forced march. The dice
    are the server's (``source`` for a test). Returns the campaign, the scenes, the fight and the
    journey."""
    from sessions.exploration import journey as journeys
    from sessions.exploration import services as explorations
    from sessions.log import services as log_services
    from sessions.native_combat import services as fights
    from sessions.weeks import services as weeks_services

    slug, name = CAMPAIGN
    campaign = Campaign.objects.filter(slug=slug).first() or campaign_create(
        slug=slug, name=name, ruleset=XULETA5E
    )
    users = {}
    for username, role in USERS:
        users[username] = demo_user(username)
        Membership.objects.get_or_create(
            user=users[username], campaign=campaign, defaults={"role": role}
        )
    mestre, arbitro = users["mestre"], users["arbitro"]
    characters = [_character(campaign, users[owner], arbitro, data) for owner, data in SHEETS]
    week = Week.objects.filter(campaign=campaign, number=1).first() or weeks_services.week_open(
        campaign=campaign, user=mestre
    )

    def scene_of(title: str, terrain: str) -> Scene:
        scene = Scene.objects.filter(week=week, title=title).first()
        if scene is None:
            scene = log_services.scene_create(week=week, user=mestre, title=title, terrain=terrain)
            scene.characters.set(characters)
        return scene

    fight_scene = scene_of(FIGHT_SCENE, "gual de pedres, boira baixa")
    combat = Combat.objects.filter(scene=fight_scene, request_key=FIGHT_KEY).first()
    if combat is None:
        combat = fights.fight_start(
            scene=fight_scene,
            user=mestre,
            combatants=[{"name": c.name, "character": c} for c in characters]
            + [{"name": wolf, "numbers": dict(WOLF)} for wolf in WOLVES],
            request_key=FIGHT_KEY,
            source=source,
        )

    journey_scene = scene_of(JOURNEY_SCENE, "camí de terra entre aiguamolls")
    exploration = Exploration.objects.filter(scene=journey_scene, request_key=JOURNEY_KEY).first()
    if exploration is None:
        exploration = explorations.exploration_start(
            scene=journey_scene, user=mestre, danger="", request_key=JOURNEY_KEY
        )
        journeys.exploration_journey_start(
            exploration=exploration, user=mestre, season="autumn", region="plains"
        )
        for activity, mode in JOURNEY_ROUNDS:
            journeys.exploration_travel(
                exploration=exploration, user=mestre, activity=activity, mode=mode
            )
    return {
        "campaign": campaign,
        "characters": characters,
        "fight_scene": fight_scene,
        "combat": combat,
        "journey_scene": journey_scene,
        "exploration": exploration,
    }
