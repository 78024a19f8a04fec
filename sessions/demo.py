"""The demo week: week 1 of the demo campaign dated, and, on demand, played.

``demo_week_seed`` is called by ``garganta_site.demo.demo_seed`` and only dates week 1 (it adds no
entry: the tests' fixed cast starts from an empty log). ``demo_week_play`` plays a short week
through the same services as the pages (``python manage.py demo_week``): a declaration, its
modifiers, the roll, a hidden roll, damage, a contest, narration, a world action, and with
``homologate`` the report homologated, which reveals the hidden roll.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign
from sessions.log import services as log_services
from sessions.models import Declaration, Scene, Week
from sessions.weeks import services as weeks_services
from sheets.models import Character

DECLARATION = "Procuro marcas de mordida na rocha da galeria, com a tocha baixa."
REPORT = (
    "Semana 1, a galeria do andar 3.\n\n"
    "O Rastreador procurou marcas na rocha (Observação 13, penumbra −2): achou a mordida.\n"
    "semana-01-rolagem-01: Noção do Perigo do Rastreador, escondida; narrado o que ele percebe.\n"
    "O Hoplita e o Jurado mediram forças numa Disputa Rápida de ST para erguer a grade."
)


def demo_week_seed(campaign: Campaign) -> Week:
    """Week 1 of the demo, dated when it was opened (the demo_seed made it)."""
    week, _ = Week.objects.get_or_create(campaign=campaign, number=1)
    if week.opened_at is None:
        week.opened_at = timezone.now()
        week.save(update_fields=["opened_at"])
    return week


@transaction.atomic
def demo_week_play(campaign: Campaign, *, homologate: bool = False) -> Scene:
    """Play the demo scene of week 1 once (idempotent: a played scene is left as it is)."""
    users = {u.username: u for u in get_user_model().objects.all()}
    mestre, arbitro = users["mestre"], users["arbitro"]
    week = demo_week_seed(campaign)
    scene = Scene.objects.get(week=week, title="A galeria do andar 3")
    rastreador = Character.objects.get(campaign=campaign, name="Rastreador de Uruk-Kalam")
    hoplita = Character.objects.get(campaign=campaign, name="Hoplita de Ônfalos")
    jurado = Character.objects.get(campaign=campaign, name="Jurado de Gapheim")
    if not Declaration.objects.filter(scene=scene).exists():
        declaration = log_services.declaration_create(
            scene=scene, character=rastreador, user=users["rastreadora"], text=DECLARATION
        )
        log_services.announcement_create(
            scene=scene,
            user=mestre,
            declaration=declaration,
            modifiers=[log_services.Modifier("penumbra", -2)],
            note="Rola-se Observação.",
        )
        log_services.roll_create(
            scene=scene,
            user=mestre,
            skill="Observação",
            character=rastreador,
            declaration=declaration,
        )
        log_services.roll_create(
            scene=scene,
            user=mestre,
            label="Noção do Perigo",
            attribute="iq",
            character=rastreador,
            hidden=True,
        )
        log_services.narration_create(
            scene=scene,
            user=mestre,
            text="A marca é de mordida, e fresca. Ao fundo, a grade de ferro está baixada.",
        )
        log_services.contest_create(
            scene=scene,
            user=mestre,
            a=log_services.ContestSide(hoplita, attribute="st"),
            b=log_services.ContestSide(jurado, attribute="st"),
        )
        log_services.damage_roll_create(
            scene=scene, user=mestre, expression="1d+2", label="A grade cai", character=jurado
        )
        weeks_services.world_action_create(
            week=week,
            character=jurado,
            user=users["jogador"],
            text="Vender no Limiar o espólio de Barnabé e de Tálio.",
        )
    report = week.report_or_none()
    if homologate and (report is None or not report.is_homologated):
        if report is None or report.is_editable:
            weeks_services.report_write(week=week, user=mestre, text=REPORT)
            weeks_services.report_submit(week=week, user=mestre)
        weeks_services.report_homologate(week=week, user=arbitro)
    return scene


# The demo fight's creatures: numbers the Mestre enters for the demo, not canon (the canon
# gives the cavador-cinzento none); each combatant card says so.
DEMO_NOTE = "Dados de demonstração entrados pelo Mestre; não são do cânone."
DEMO_CREATURE = dict(
    kind="creature",
    st=9,
    dx=11,
    iq=3,
    ht=9,
    hp=9,
    move=6,
    dodge=5,
    passive_defense=1,
    damage_resistance=1,
    flees=True,
    demo_note=DEMO_NOTE,
)
DEMO_BITE = dict(name="Mordida", skill=12, damage="2d cort", weapon_class="bite")
DEMO_COMBAT_KEY = "demo-combat"


@transaction.atomic
def demo_combat_start(campaign: Campaign):
    """Start, once, in the demo scene, a fight of the jurado and the hoplita against two
    cavadores-cinzentos (demo data), at its first turn, so a new user sees the tracker.
    Idempotent: a scene that already had a fight is left as it is. Returns the combat, or
    None when the scene no longer takes entries (its week's report went to the Árbitro)."""
    from sessions.combat import services as combat_services
    from sessions.combat import specs as combat_specs
    from sessions.combat import turns as combat_turns

    mestre = get_user_model().objects.get(username="mestre")
    week = demo_week_seed(campaign)
    scene = Scene.objects.get(week=week, title="A galeria do andar 3")
    existing = combat_services.combat_current(scene)
    if existing is not None:
        return existing
    if not (scene.is_open and week.accepts_entries):
        return None
    fighters = [
        Character.objects.get(campaign=campaign, name="Jurado de Gapheim"),
        Character.objects.get(campaign=campaign, name="Hoplita de Ônfalos"),
    ]
    combat = combat_services.combat_start(
        scene=scene, user=mestre, characters=fighters, request_key=DEMO_COMBAT_KEY
    )
    for name in ("Cavador-cinzento A", "Cavador-cinzento B"):
        combat_services.combatant_add(
            combat=combat,
            user=mestre,
            creature=combat_specs.CreatureSpec(
                name=name, weapons=(combat_specs.WeaponSpec(**DEMO_BITE),), **DEMO_CREATURE
            ),
        )
    combat_turns.combat_next_turn(combat=combat, user=mestre)
    return combat
