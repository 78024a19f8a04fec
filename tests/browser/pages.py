"""The pages every layout, accessibility and screenshot check visits, and the world they show.

``layout_world()`` plays the demo a little — the week's scene with its rolls, the demo fight at
its first turn, an exploration in a second scene, a loot line with a 200-character unbroken name
on the jurado's sheet — seeds the Xuleta's demo beside it (Aina, the wolves' fight, the journey
day) and returns the ids the page paths need. ``PAGES`` names each page with
its path and the demo logins that may open it. Used by tests/browser/test_layout.py and
scripts/screenshots.py (which runs it in ``manage.py shell`` against a live server).
"""

from __future__ import annotations

# One word with no break opportunity: it must wrap, not widen the page (issue 15 §5).
LONG_NAME = "Espólio" + "x" * 193

ALL = ("jogador", "mestre", "arbitro")

# name → (path template, logins that open it)
PAGES = {
    "sheet": ("/fichas/{char}/", ALL),
    "scene": ("/cenas/{scene}/", ALL),
    "combat": ("/cenas/{scene}/combate/", ALL),
    "exploration": ("/cenas/{xscene}/exploracao/", ALL),
    "week": ("/campanhas/{campaign}/semanas/{week}/", ALL),
    "console": ("/console/", ("arbitro",)),
    "pendencias": ("/console/pendencias/", ("arbitro",)),
    "rules": ("/regras/", ALL),
    "calculator": ("/regras/calculadora/", ALL),
    # The other pages a person reaches from the navigation.
    "home": ("/", ALL),
    "weeks": ("/campanhas/{campaign}/semanas/", ALL),
    "history": ("/fichas/{char}/historico/", ALL),
    "defaults": ("/fichas/{char}/sem-a-pericia/", ("jogador",)),
    "queue": ("/homologacao/", ("arbitro",)),
    "decisions": ("/console/decisoes/", ("arbitro",)),
    "skill-costs": ("/console/custo-de-pericias/", ("arbitro",)),
    "catalogue": ("/console/catalogo-de-pericias/", ("arbitro",)),
    "tables": ("/mesa/tabelas/", ("mestre",)),
    "house": ("/regras/casa/", ("jogador",)),
    "readings": ("/regras/leituras/", ("jogador",)),
    "account": ("/conta/", ("jogador",)),
    # The Xuleta's campaign («O Vau das Brumas», garganta_site.demo_xuleta): Aina's sheet and
    # draft form, the fight against the wolves, the journey day, its rules (no calculator page of
    # its own: /regras/calculadora/ is GURPS's, the Xuleta's odds are the API's).
    "xuleta-sheet": ("/fichas/{xchar}/", ALL),
    "xuleta-draft": ("/fichas/{xchar}/rascunho/", ("jogador",)),
    "xuleta-fight-scene": ("/cenas/{xfight}/", ALL),
    "xuleta-fight": ("/cenas/{xfight}/combate/", ALL),
    "xuleta-journey": ("/cenas/{xjourney}/", ALL),
    "xuleta-exploration": ("/cenas/{xjourney}/exploracao/", ALL),
    "xuleta-rules": ("/regras/?campanha={xcampaign}", ALL),
}
# What the screenshots show (the rest is only measured).
SHOWN = (
    "sheet",
    "scene",
    "combat",
    "exploration",
    "week",
    "console",
    "pendencias",
    "rules",
    "calculator",
    "xuleta-sheet",
    "xuleta-fight",
    "xuleta-journey",
)


def layout_world() -> dict[str, str]:
    """Play the demo campaign far enough that every page has something on it; the path ids."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Campaign
    from garganta_site.demo import demo_seed
    from garganta_site.demo_xuleta import demo_xuleta_seed
    from sessions.demo import demo_combat_start, demo_week_play
    from sessions.exploration import services as exploration_services
    from sessions.log import services as log_services
    from sessions.models import Scene
    from sheets.models import Character
    from sheets.possessions import loot_add

    demo_seed()
    campaign = Campaign.objects.get(slug="a-garganta")
    scene = demo_week_play(campaign)
    demo_combat_start(campaign)
    users = {u.username: u for u in get_user_model().objects.all()}
    jurado = Character.objects.get(campaign=campaign, name="Jurado de Gapheim")
    hoplita = Character.objects.get(campaign=campaign, name="Hoplita de Ônfalos")
    xscene = Scene.objects.filter(week=scene.week, title="A descida do andar 4").first()
    if xscene is None:
        xscene = log_services.scene_create(
            week=scene.week,
            user=users["mestre"],
            title="A descida do andar 4",
            floor=4,
            terrain="rocha",
            characters=[jurado, hoplita],
        )
        exploration_services.exploration_start(scene=xscene, user=users["mestre"], danger="risky")
        loot_add(character=jurado, name=LONG_NAME, weight_kg="0.5", user=users["jogador"])
    xuleta = demo_xuleta_seed()
    aina = next(c for c in xuleta["characters"] if c.name == "Aina")
    return {
        "xchar": str(aina.code),
        "xfight": str(xuleta["fight_scene"].code),
        "xjourney": str(xuleta["journey_scene"].code),
        "xcampaign": xuleta["campaign"].slug,
        "char": str(jurado.code),
        "scene": str(scene.code),
        "xscene": str(xscene.code),
        "campaign": campaign.slug,
        "week": str(scene.week.number),
    }


def page_path(page: str, world: dict[str, str]) -> str:
    return PAGES[page][0].format(**world)


def cases(pages=PAGES) -> list[tuple[str, str]]:
    """Every (page, login) pair of ``pages``."""
    return [(page, who) for page in pages for who in PAGES[page][1]]
