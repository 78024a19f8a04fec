"""The demo campaign: the canon's own characters with the canon's numbers.

What the canon gives (ST 13 and Escudo 14 of the jurado, shield PD 2 and mail PD 3; the
hoplita's ST 12, Lança 17 (16) and gládio; the rastreador's ST 11 and DX 14) is kept exactly;
the rest is plausible demo data and says so on the sheet (``Character.demo_note``).
Idempotent: running it twice changes nothing.

Beside it, ``demo_fight_seed`` (``manage.py demo_fight``): a second campaign on the sistema001
with a fight under way, so a new user sees a fight its ruleset plays whole.
"""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign, Membership
from garganta_site.founding import campaign_create
from rulesets.registry import GURPS3E, SISTEMA001
from sessions.demo import demo_week_seed
from sessions.models import Scene
from sheets.models import Character, Item, Possession, SheetVersion, Skill, Trait
from sheets.possessions import possessions_sync
from sheets.reads import state_of

DEMO_PASSWORD = "garganta"

USERS = (
    ("jogador", Membership.Role.JOGADOR),
    ("jogadora", Membership.Role.JOGADOR),
    ("rastreadora", Membership.Role.JOGADOR),
    ("mestre", Membership.Role.MESTRE),
    ("arbitro", Membership.Role.ARBITRO),
)

# name, attribute, difficulty, level, points — each line bought as the cost table says (MB pp.
# 43–44, the Árbitro's table): the canon's levels kept, the demo's points made to add up.
JURADO_SKILLS = (
    ("Escudo", "dx", "E", 14, 4),  # DX 12 + 2: 4 points in Physical/Easy
    ("Espada Curta", "dx", "A", 13, 4),
    ("Observação", "iq", "A", 10, 2),
)
HOPLITA_SKILLS = (
    ("Lança", "dx", "A", 17, 16),
    ("Espada Curta", "dx", "A", 14, 2),
    ("Escudo", "dx", "E", 14, 1),
)
RASTREADOR_SKILLS = (
    ("Rastreamento", "iq", "A", 13, 4),
    ("Observação", "iq", "A", 13, 4),
    ("Arco", "dx", "H", 15, 8),  # DX 14 + 1: 8 points in Physical/Hard
    ("Faca", "dx", "E", 14, 1),
    ("Furtividade", "dx", "A", 14, 2),
)
# No Escalada: the canon's Rastreador lacks it and "escala em 9, não em 6" by default (§3.3).

# name, kg, qty, PD, RD, shield, damage, skill, parry
JURADO_ITEMS = (
    ("Cota de malha", "11.5", 1, 3, 4, False, "", "", ""),
    ("Escudo médio", "7", 1, 2, 0, True, "", "Escudo", ""),
    ("Gládio", "1.5", 1, 0, 0, False, "Bal corte", "Espada Curta", "normal"),
    ("Mochila, odre e ração", "3", 1, 0, 0, False, "", "", ""),
)
HOPLITA_ITEMS = (
    ("Lança", "2.5", 1, 0, 0, False, "GDP+1 perf", "Lança", "normal"),
    ("Gládio", "1.5", 1, 0, 0, False, "Bal corte", "Espada Curta", "normal"),
    ("Aspis", "8", 1, 2, 0, True, "", "Escudo", ""),
    ("Couraça de couro", "5", 1, 2, 2, False, "", "", ""),
)
RASTREADOR_ITEMS = (
    ("Arco curto", "1", 1, 0, 0, False, "GDP perf", "Arco", ""),
    ("Flechas", "0.05", 20, 0, 0, False, "", "", ""),
    ("Faca", "0.5", 1, 0, 0, False, "GDP perf", "Faca", "knife"),
    ("Jaqueta de couro", "3", 1, 1, 1, False, "", "", ""),
    ("Corda (10 m)", "1.5", 1, 0, 0, False, "", "", ""),
)

# Two companions' loot lying beside the jurado: 23 kg + 11 kg = 34 kg, Média (≤ 39).
JURADO_LOOT = (
    ("Espólio de Barnabé (morto no andar 6)", "5"),
    ("Espólio de Tálio (morto no andar 6)", "6"),
)


def demo_user(username: str):
    """The demo login ``username`` (created once, with ``DEMO_PASSWORD``)."""
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    return user


def _version(character, *, number, st, dx, iq, ht, skills, items, traits=(), status, arbitro):
    version, created = SheetVersion.objects.get_or_create(
        character=character,
        number=number,
        defaults={
            "st": st,
            "dx": dx,
            "iq": iq,
            "ht": ht,
            "status": status,
            "created_by": character.owner,
        },
    )
    if not created:
        return version
    Skill.objects.bulk_create(
        Skill(version=version, name=n, attribute=a, difficulty=d, level=lvl, points=Decimal(p))
        for n, a, d, lvl, p in skills
    )
    Item.objects.bulk_create(
        Item(
            version=version,
            name=n,
            weight_kg=Decimal(kg),
            quantity=q,
            passive_defense=pd,
            damage_resistance=dr,
            is_shield=shield,
            damage=dmg,
            skill_name=skill,
            parry=parry,
        )
        for n, kg, q, pd, dr, shield, dmg, skill, parry in items
    )
    Trait.objects.bulk_create(
        Trait(version=version, name=n, kind=k, key=key, points=p) for n, k, key, p in traits
    )
    if status == SheetVersion.Status.HOMOLOGATED:
        version.decided_at = timezone.now()
        version.decided_by = arbitro
        version.save(update_fields=["decided_at", "decided_by"])
        possessions_sync(character=character, version=version)
    elif status == SheetVersion.Status.SUBMITTED:
        version.submitted_at = timezone.now()
        version.save(update_fields=["submitted_at"])
    return version


def _jurado(campaign, users, arbitro) -> Character:
    jurado, created = Character.objects.get_or_create(
        campaign=campaign,
        name="Jurado de Gapheim",
        defaults={
            "owner": users["jogador"],
            "demo_note": "ST 13, Escudo 14, escudo PD 2 e malha PD 3 são do cânone (§2.2, §4.6); "
            "DX, IQ, HT, os pontos, as outras perícias e os pesos são dados de demonstração.",
        },
    )
    _version(
        jurado,
        number=1,
        st=13,
        dx=12,
        iq=10,
        ht=12,
        skills=JURADO_SKILLS,
        items=JURADO_ITEMS,
        status=SheetVersion.Status.HOMOLOGATED,
        arbitro=arbitro,
    )
    if created:
        for name, kg in JURADO_LOOT:
            Possession.objects.create(
                character=jurado, loot_name=name, loot_weight_kg=Decimal(kg), carried=False
            )
    return jurado


HOPLITA_TRAITS = (("Reflexos em Combate", "advantage", "combat_reflexes", 15),)


def _hoplita(campaign, users, arbitro) -> Character:
    hoplita, _ = Character.objects.get_or_create(
        campaign=campaign,
        name="Hoplita de Ônfalos",
        defaults={
            "owner": users["jogadora"],
            "demo_note": "ST 12, Lança 17 (16) e o gládio são do cânone (§3.1, §4.9); "
            "DX 14 segue a nota do cânone (DX+3 em Física/Média); o resto é demonstração.",
        },
    )
    attributes = {"st": 12, "dx": 14, "iq": 10, "ht": 12}
    _version(
        hoplita,
        number=1,
        **attributes,
        skills=HOPLITA_SKILLS,
        items=HOPLITA_ITEMS,
        traits=HOPLITA_TRAITS,
        status=SheetVersion.Status.HOMOLOGATED,
        arbitro=arbitro,
    )
    # A change waiting for the Árbitro: Espada Curta from DX (2 points) to DX+1 (4 points).
    _version(
        hoplita,
        number=2,
        **attributes,
        skills=tuple(
            ("Espada Curta", "dx", "A", 15, 4) if s[0] == "Espada Curta" else s
            for s in HOPLITA_SKILLS
        ),
        items=HOPLITA_ITEMS,
        traits=HOPLITA_TRAITS,
        status=SheetVersion.Status.SUBMITTED,
        arbitro=arbitro,
    )
    return hoplita


def _rastreador(campaign, users, arbitro) -> Character:
    rastreador, _ = Character.objects.get_or_create(
        campaign=campaign,
        name="Rastreador de Uruk-Kalam",
        defaults={
            "owner": users["rastreadora"],
            "demo_note": "ST 11 e DX 14, e escalar em 9 sem a perícia, são do cânone (§3.3); "
            "IQ, HT, perícias e itens são dados de demonstração.",
        },
    )
    _version(
        rastreador,
        number=1,
        st=11,
        dx=14,
        iq=12,
        ht=11,
        skills=RASTREADOR_SKILLS,
        items=RASTREADOR_ITEMS,
        status=SheetVersion.Status.HOMOLOGATED,
        arbitro=arbitro,
    )
    return rastreador


@transaction.atomic
def demo_seed() -> dict[str, str]:
    """Create the demo campaign if missing. Returns the demo logins (username → role)."""
    campaign = Campaign.objects.filter(slug="a-garganta").first() or campaign_create(
        slug="a-garganta", name="A Garganta", ruleset=GURPS3E
    )
    users = {}
    for username, role in USERS:
        user = demo_user(username)
        Membership.objects.get_or_create(user=user, campaign=campaign, defaults={"role": role})
        users[username] = user
    arbitro = users["arbitro"]
    characters = [make(campaign, users, arbitro) for make in (_jurado, _hoplita, _rastreador)]
    for character in characters:
        state_of(character)

    week = demo_week_seed(campaign)
    scene, created_scene = Scene.objects.get_or_create(
        week=week,
        title="A galeria do andar 3",
        defaults={"floor": 3, "terrain": "rocha úmida, penumbra de tocha"},
    )
    if created_scene:
        scene.characters.set(characters)
    return {username: role.label for username, role in USERS}


# --- the demo fight on the sistema001 -----------------------------------------------------------

# A second campaign, on the combat chapter (issue 23): the same logins as A Garganta's, a week, an
# open scene and a fight the Mestre has started and played a turn or two of, so a new user sees
# the fight's panel and its dice in the log. The numbers are the Mestre's, for the demo.
FIGHT_CAMPAIGN = ("ponte-de-cordas", "A Ponte de Cordas")
FIGHT_USERS = (
    ("mestre", Membership.Role.MESTRE),
    ("arbitro", Membership.Role.ARBITRO),
    ("jogador", Membership.Role.JOGADOR),
)
FIGHT_SCENE = "A ponte de cordas"
FIGHT_NOTE = "Números de demonstração entrados pelo Mestre (o capítulo não traz ficha)."
FIGHT_KEY = "demo-fight"


def _fighter_numbers(*, side, mobilidade, acuidade, forca, resistencia, pv, weapons, **more):
    attributes = {
        "mobilidade": mobilidade,
        "acuidade": acuidade,
        "forca": forca,
        "resistencia": resistencia,
        "espirito": 3,
        "astucia": 3,
    }
    return {
        "attributes": attributes,
        "dice": dict.fromkeys(attributes, 10),
        "pv_max": pv,
        "side": side,
        "weapons": weapons,
        **more,
    }


FIGHT_COMBATANTS = (
    {
        "name": "Aria",
        "note": FIGHT_NOTE,
        "numbers": _fighter_numbers(
            side="jogadores",
            mobilidade=6,
            acuidade=5,
            forca=5,
            resistencia=3,
            pv=12,
            weapons=[
                {
                    "name": "Espada",
                    "kind": "corpo_a_corpo",
                    "damage_increase": 1,
                    "damage_types": ["corte"],
                },
                {"name": "Tocha", "kind": "corpo_a_corpo", "damage_types": ["fogo"]},
            ],
        ),
    },
    {
        "name": "Ogro da ponte",
        "note": FIGHT_NOTE,
        "numbers": _fighter_numbers(
            side="inimigos",
            mobilidade=4,
            acuidade=3,
            forca=10,
            resistencia=2,
            pv=20,
            resistances=["fogo"],
            weapons=[{"name": "Clava", "kind": "corpo_a_corpo", "damage_types": ["contusao"]}],
        ),
    },
)
# The turns the demo plays: whoever's turn it is attacks the other with its first weapon.
FIGHT_TURNS = 2


@transaction.atomic
def demo_fight_seed(source=None) -> dict:
    """Create, once, the sistema001 demo campaign with the demo's mestre, arbitro and jogador,
    its week 1, an open scene and a fight started and played ``FIGHT_TURNS`` turns (a condition
    the Mestre puts on the Ogro, so the panel says when it ends). The dice are the server's
    (``source`` for a test). Idempotent: a scene that has its fight is left as it is. Returns
    the campaign, the scene and the fight."""
    from sessions.log import services as log_services
    from sessions.models import Combat, Week
    from sessions.native_combat import services as fights
    from sessions.weeks import services as weeks_services

    slug, name = FIGHT_CAMPAIGN
    campaign = Campaign.objects.filter(slug=slug).first() or campaign_create(
        slug=slug, name=name, ruleset=SISTEMA001
    )
    users = {}
    for username, role in FIGHT_USERS:
        users[username] = demo_user(username)
        Membership.objects.get_or_create(
            user=users[username], campaign=campaign, defaults={"role": role}
        )
    mestre = users["mestre"]
    week = Week.objects.filter(campaign=campaign, number=1).first() or weeks_services.week_open(
        campaign=campaign, user=mestre
    )
    scene = Scene.objects.filter(week=week, title=FIGHT_SCENE).first() or (
        log_services.scene_create(
            week=week, user=mestre, title=FIGHT_SCENE, terrain="tábuas gastas sobre o abismo"
        )
    )
    combat = Combat.objects.filter(scene=scene, request_key=FIGHT_KEY).first()
    if combat is None:
        combat = fights.fight_start(
            scene=scene,
            user=mestre,
            combatants=[dict(c) for c in FIGHT_COMBATANTS],
            request_key=FIGHT_KEY,
            source=source,
        )
        ogro = combat.combatants.get(name="Ogro da ponte")
        fights.fight_condition(
            combat=combat, user=mestre, target=ogro, condition="amedrontado", rounds=2
        )
        for _ in range(FIGHT_TURNS):
            _demo_turn(fights, combat, mestre, source)
        combat.refresh_from_db()
    return {"campaign": campaign, "scene": scene, "combat": combat}


def _demo_turn(fights, combat, mestre, source) -> None:
    """The current fighter attacks the first other one still fighting with its first weapon."""
    combat.refresh_from_db()
    view = fights.fight_view(combat)
    actor = view["turn"]["fighter"]
    target = next(r for r in view["order"] if r["id"] != actor and not r["out"])
    weapon = combat.combatants.get(code=actor).data["weapons"][0]["name"]
    fights.fight_turn(
        combat=combat,
        user=mestre,
        combatant=fights.combatant_of(combat, actor, "combatant"),
        plan="movimento_execucao",
        actions=[{"kind": "ataque", "target": target["id"], "weapon": weapon}],
        source=source,
    )
