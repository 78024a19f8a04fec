"""Campaign backups that round-trip (garganta_site.backup, ``export_campaign`` / ``import_campaign``).

What it tries: every model of sheets, mesa and canon is either exported or named as not a
campaign's; the demo campaign, played (week 1 with its hidden roll revealed, a fight with an
attack, a descent with a torch and an encounter check, loot, an API token, a procedure row
changed, a canon correction, a report correction, week 2 open), is exported, the database is
flushed (post_migrate runs again: an empty, freshly seeded database), the file is imported,
and a second export is identical to the first apart from ``exported_at`` — every model, every
field, every roll with its hash — and ``verify_rolls`` says the chain is intact; rows made
after the import take fresh ids (the PostgreSQL sequences were reset); a later seeding adds
nothing. The commands run end to end in a subprocess on a fresh SQLite file. And the
refusals, in pt-BR, each leaving nothing behind: unknown slug, file not found, not an export,
unsupported version, campaign already there, ids taken, header that does not match, a row
pointing outside, a broken chain, a chain head that differs.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from campaigns.auth import api_token_create
from campaigns.models import ApiToken, Campaign, Membership
from canon.models import Decision
from canon.services import correction_create, divergence_create, registers_seed_all
from canon.skills import skill_catalogue_entry_edit, skill_cost_row_edit
from garganta_site import backup
from garganta_site.demo import DEMO_PASSWORD, demo_seed
from garganta_site.founding import campaign_create
from sessions import entries
from sessions.combat import attack as combat_attack
from sessions.combat import maneuvers as combat_maneuvers
from sessions.combat import services as combat_services
from sessions.combat import specs as combat_specs
from sessions.combat import state as combat_state
from sessions.combat import turns as combat_turns
from sessions.demo import demo_combat_start, demo_week_play
from sessions.exploration import journey, supplies
from sessions.exploration import services as exploration_services
from sessions.log import chain, scene_ops
from sessions.log import services as log_services
from sessions.models import Combatant, Roll, Scene, Week
from sessions.procedure.services import procedure_tables_seed_all, random_table_row_edit
from sessions.weeks import services as weeks_services
from sheets.models import Character, Possession
from sheets.possessions import loot_add
from tests.gurps.helpers import ScriptedSource
from tests.sessions.combat.helpers import HOPLITA_FELLS_A

ROOT = Path(__file__).resolve().parents[2]
User = get_user_model()


# --- building the campaign -------------------------------------------------------------------


def scripted(monkeypatch, *faces: int) -> None:
    source = ScriptedSource(faces)
    monkeypatch.setattr(entries, "dice_source", lambda: source)


def play(monkeypatch, *, full: bool = True) -> Campaign:
    """The demo campaign played through the services; another campaign beside it."""
    demo_seed()
    campaign = Campaign.objects.get(slug="a-garganta")
    users = {u.username: u for u in User.objects.all()}
    mestre, arbitro = users["mestre"], users["arbitro"]
    # another campaign in the same database: none of it may travel with a-garganta
    other = campaign_create(slug="outra", name="Outra campanha")
    outsider = User.objects.create_user("outsider", password=DEMO_PASSWORD)
    Membership.objects.create(user=outsider, campaign=other, role=Membership.Role.MESTRE)
    api_token_create(user=outsider)
    Week.objects.create(campaign=other, number=1)

    scene = demo_week_play(campaign)  # declaration, modifiers, roll, hidden roll, contest …
    week = scene.week
    if full:
        # the fight: the hoplita's spear fells cavador A (tests/sessions/combat/helpers.py)
        combat = demo_combat_start(campaign)
        for _ in range(8):
            combat.refresh_from_db()
            now = combat_state.current(combat)
            if now is not None and now.name == "Hoplita de Ônfalos":
                break
            combat_turns.combat_next_turn(combat=combat, user=mestre)
        combat_maneuvers.maneuver_declare(
            combat=combat, combatant=now, user=mestre, maneuver="move_and_attack"
        )
        scripted(monkeypatch, *HOPLITA_FELLS_A)
        combat_attack.attack_resolve(
            combat=combat,
            attacker=now,
            defender=Combatant.objects.get(combat=combat, name="Cavador-cinzento A"),
            user=mestre,
            attack=combat_specs.AttackSpec(weapon=0, lighting=-2),
            defence_choice=combat_specs.DefenceSpec(defences=("dodge",)),
        )
        combat_services.combat_end(combat=combat, user=mestre, spoils="Dentes do cavador.")
        # a descent: a torch, two turns (Arriscado checks on turn 2: a 6, nothing); then a
        # journey: its weather, three rounds of Avançar and the forced march's test of one
        scripted(monkeypatch, 6, 6, 4, *[6, 6, 6, 5] * 3)
        descent = exploration_services.exploration_start(scene=scene, user=mestre, danger="risky")
        exploration_services.exploration_timer_add(
            exploration=descent, user=mestre, name="Tocha", turns=6
        )
        for _ in range(2):
            exploration_services.exploration_turn_start(exploration=descent, user=mestre)
            exploration_services.exploration_turn_end(exploration=descent, user=mestre)
        journey.exploration_journey_start(
            exploration=descent, user=mestre, season="spring", region="plains"
        )
        for _ in range(3):
            journey.exploration_travel(
                exploration=descent, user=mestre, activity="advance", mode="walking"
            )
        asked = descent.tests.first()
        rolled = log_services.roll_create(
            scene=scene, user=mestre, attribute="ht",
            character=scene.characters.get(name=asked.character),
            source=ScriptedSource((3, 3, 3)),
        )  # fmt: skip
        journey.exploration_journey_test(
            exploration=descent, user=mestre, test=asked.code, roll=rolled.sequence
        )
        supplies.exploration_supply_adjust(
            exploration=descent,
            user=mestre,
            holder="",
            kind="food",
            delta=6,
            reason="Rações compradas antes de partir",
        )
        exploration_services.exploration_end(exploration=descent, user=mestre)
        monkeypatch.undo()
        jurado = Character.objects.get(campaign=campaign, name="Jurado de Gapheim")
        scene_ops.state_change_create(
            scene=scene, user=mestre, character=jurado, hp=-1, reason="Pânico", roll=rolled
        )
        loot_add(character=jurado, name="Dente de cavador", weight_kg="0.050", user=mestre)
        api_token_create(user=mestre)
        row = campaign.random_tables.filter(kind="reference").first().rows.first()
        random_table_row_edit(
            row=row, user=arbitro, cells=[c + " (revisto)" for c in row.cells], reason="Errata."
        )
        # the Árbitro's skill tables: a cost row and a catalogue entry changed, with history
        cost_row = campaign.skill_cost_tables.get(kind="physical").rows.get(relative=0)
        skill_cost_row_edit(row=cost_row, user=arbitro, cells=["1", "2", "3"], reason="Teste.")
        skill_catalogue_entry_edit(
            entry=campaign.skills.get(name="Arco"),
            user=arbitro,
            reason="A descrição do livro.",
            name="Arco",
            attribute="dx",
            difficulty="H",
            defaults_rule="listed",
            defaults="DX−6",
            source="MB",
        )
        decision = Decision.objects.filter(campaign=campaign).first()
        correction_create(
            entry=decision, field="title", after=decision.title + " (corrigido)",
            reason="Título revisto.", user=arbitro,
        )  # fmt: skip
        divergence_create(
            campaign=campaign, user=mestre, title="Backup", description="Uma pendência aberta."
        )
    weeks_services.report_write(week=week, user=mestre, text="Semana 1: a galeria do andar 3.")
    weeks_services.report_submit(week=week, user=mestre)
    weeks_services.report_homologate(week=week, user=arbitro)  # reveals the hidden roll
    if full:
        weeks_services.report_correct(
            week=week, user=arbitro, new_text="Semana 1: a galeria.", reason="Mais curto."
        )
        weeks_services.week_publish_bulletin(week=week, user=mestre, text="Boletim: a grade caiu.")
        week2 = weeks_services.week_open(campaign=campaign, user=mestre)
        log_services.scene_create(
            week=week2, user=mestre, title="O andar 4", floor=4, characters=[jurado]
        )
    return campaign


def export(slug: str, path: Path) -> dict:
    call_command("export_campaign", slug, output=str(path), stdout=StringIO())
    return json.loads(path.read_text(encoding="utf-8"))


def import_(path: Path) -> str:
    out = StringIO()
    call_command("import_campaign", str(path), stdout=out)
    return out.getvalue()


def without_time(document: dict) -> dict:
    return {k: v for k, v in document.items() if k != "exported_at"}


def write(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


def flush() -> None:
    """An empty database: every table emptied, post_migrate (and its seeding) run again."""
    call_command("flush", interactive=False, verbosity=0)


# --- every model is accounted for ------------------------------------------------------------


def test_every_model_of_the_three_apps_is_exported_or_named():
    assert backup.unaccounted_models() == []
    labels = {backup.label_of(m) for m in backup.campaign_paths()}
    assert {"mesa.roll", "mesa.explorationevent", "canon.correction", "sheets.skill"} <= labels
    paths = {backup.label_of(m): p for m, p in backup.campaign_paths().items()}
    assert paths["mesa.roll"] == "campaign"
    assert paths["mesa.scene"] == "week__campaign"
    assert paths["mesa.randomtablerowchange"] == "row__table__campaign"


def test_a_model_without_a_campaign_would_be_caught(monkeypatch):
    """The guard is real: a model that reaches no campaign shows up as unaccounted."""
    monkeypatch.setattr(backup, "USER_SCOPED", {})
    assert backup.unaccounted_models() == ["sheets.apitoken"]


def test_no_model_of_another_app_points_into_a_campaign():
    ours = set(backup.app_models())
    outside = [
        f"{m._meta.label}.{f.name}"
        for m in apps.get_models(include_auto_created=True)
        if m not in ours and not m._meta.auto_created
        for f in m._meta.get_fields()
        if f.concrete and f.is_relation and f.related_model in ours
    ]
    assert outside == []


# --- the round trip ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_export_flush_import_export_is_identical(tmp_path, monkeypatch):
    campaign = play(monkeypatch)
    rolls_before = list(
        Roll.objects.filter(campaign=campaign).values_list("sequence", "previous_hash", "hash")
    )
    first = export("a-garganta", tmp_path / "first.json")

    counts = first["counts"]
    assert [label for label, n in counts.items() if n == 0] == [], "every model has rows"
    assert set(counts) == {backup.label_of(m) for m in backup.ordered_models()}
    # 4 of the week, 3 of the attack, 1 check; the journey: its weather, 3 × 4 of its rounds, 1 HT
    assert counts["mesa.roll"] == len(rolls_before) == 22
    assert first["roll_chain"] == {
        "count": len(rolls_before),
        "last_sequence": rolls_before[-1][0],
        "last_hash": rolls_before[-1][2],
    }
    users = {o["fields"]["username"] for o in first["objects"] if o["model"] == "auth.user"}
    assert users == {"jogador", "jogadora", "rastreadora", "mestre", "arbitro"}
    assert counts["sheets.apitoken"] == 1  # the mestre's; the outsider's stays home
    other = Campaign.objects.get(slug="outra").pk
    assert not [o for o in first["objects"] if o["fields"].get("campaign") == other], (
        "nothing of the other campaign travels"
    )
    assert any(o["model"] == "mesa.roll" and o["fields"]["hidden"] for o in first["objects"]), (
        "the hidden roll travels"
    )

    flush()
    assert not Campaign.objects.exists() and not User.objects.exists()
    assert not Decision.objects.exists(), "post_migrate seeded nothing: no campaign yet"

    said = import_(tmp_path / "first.json")
    assert "cadeia íntegra" in said
    out = StringIO()
    call_command("verify_rolls", stdout=out)
    assert out.getvalue().strip() == f"a-garganta: íntegra, {len(rolls_before)} rolagens"
    campaign = Campaign.objects.get(slug="a-garganta")
    assert (
        list(
            Roll.objects.filter(campaign=campaign).values_list("sequence", "previous_hash", "hash")
        )
        == rolls_before
    )
    mestre = User.objects.get(username="mestre")
    assert mestre.check_password(DEMO_PASSWORD), "the password hash travelled"
    assert not mestre.is_superuser and mestre.is_active

    second = export("a-garganta", tmp_path / "second.json")
    assert without_time(second) == without_time(first)

    # a later migrate's seeding finds the imported items by their source_key: adds nothing
    registers_seed_all()
    procedure_tables_seed_all()
    third = export("a-garganta", tmp_path / "third.json")
    assert without_time(third) == without_time(first)

    # new rows take fresh ids (sequences reset after the explicit ids of the import)
    max_roll = max(o["pk"] for o in first["objects"] if o["model"] == "mesa.roll")
    jurado = Character.objects.get(campaign=campaign, name="Jurado de Gapheim")
    scene = Scene.objects.get(title="O andar 4")
    roll = log_services.roll_create(scene=scene, user=mestre, skill="Escudo", character=jurado)
    assert roll.pk > max_roll and roll.sequence == len(rolls_before) + 1
    newcomer = Character.objects.create(campaign=campaign, name="Recém-chegado")
    assert newcomer.pk > max(o["pk"] for o in first["objects"] if o["model"] == "sheets.character")
    log_services.declaration_create(
        scene=scene,
        character=jurado,
        user=User.objects.get(username="jogador"),
        text="Ergo o escudo.",
    )
    loot = loot_add(character=jurado, name="Pedra", weight_kg="1", user=mestre)
    assert loot.pk > max(o["pk"] for o in first["objects"] if o["model"] == "sheets.possession")
    api_token_create(user=mestre)
    assert ApiToken.objects.filter(user=mestre).count() == 2
    assert chain.rolls_verify(campaign).ok

    models_with_rows = sum(1 for n in counts.values() if n)
    print(
        f"backup round trip: {models_with_rows} models, {sum(counts.values())} rows, "
        f"{len(rolls_before)} rolls, chain intact, re-export identical"
    )


def test_the_commands_round_trip_through_a_fresh_sqlite_file(db, tmp_path, monkeypatch):
    play(monkeypatch)
    first = export("a-garganta", tmp_path / "first.json")
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "garganta_site.test_settings",
    }

    def manage(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    steps = [
        ("migrate", "-v0"),
        ("import_campaign", str(tmp_path / "first.json")),
        ("verify_rolls",),
        ("export_campaign", "a-garganta", "--output", str(tmp_path / "second.json")),
        ("import_campaign", str(tmp_path / "first.json")),
    ]
    results = [manage(*step) for step in steps]
    for step, result in zip(steps[:-1], results[:-1], strict=True):
        assert result.returncode == 0, f"{step}: {result.stderr}"
    assert "importada" in results[1].stdout and "cadeia íntegra" in results[1].stdout
    assert f"a-garganta: íntegra, {first['roll_chain']['count']} rolagens" in results[2].stdout
    second = json.loads((tmp_path / "second.json").read_text(encoding="utf-8"))
    assert without_time(second) == without_time(first)
    assert results[-1].returncode != 0
    assert "A campanha «a-garganta» já existe neste banco" in results[-1].stderr
    print(
        f"backup subprocess: migrate, import, verify_rolls, export on a fresh SQLite file: "
        f"{sum(first['counts'].values())} rows identical"
    )


# --- refusals ----------------------------------------------------------------------------------


def refused(*args) -> str:
    with pytest.raises(CommandError) as caught:
        call_command(*args, stdout=StringIO())
    return str(caught.value)


def test_an_unknown_slug_is_refused(db):
    assert refused("export_campaign", "nao-existe") == "Campanha não encontrada: «nao-existe»."


def test_a_missing_file_is_refused(db, tmp_path):
    missing = tmp_path / "nada.json"
    assert refused("import_campaign", str(missing)) == f"Arquivo não encontrado: {missing}."


@pytest.mark.parametrize("content", ["não é json", "[]", '{"format": "outro", "version": 1}'])
def test_a_file_that_is_not_an_export_is_refused(db, tmp_path, content):
    path = tmp_path / "x.json"
    path.write_text(content, encoding="utf-8")
    assert refused("import_campaign", str(path)) == (
        f"{path} não é uma exportação de campanha da Garganta."
    )


@pytest.fixture
def light(db, monkeypatch, tmp_path):
    """The demo week played and homologated, exported (in the same database)."""
    play(monkeypatch, full=False)
    return export("a-garganta", tmp_path / "light.json")


def test_an_unsupported_version_is_refused(light, tmp_path):
    path = write(tmp_path / "v2.json", {**light, "version": 2})
    assert refused("import_campaign", str(path)) == (
        "Versão de exportação não suportada: 2 (este site lê a versão 1)."
    )


def test_a_campaign_already_present_is_refused(light, tmp_path):
    before = Roll.objects.count()
    message = refused("import_campaign", str(tmp_path / "light.json"))
    assert message == (
        "A campanha «a-garganta» já existe neste banco: importe num banco vazio (recém-migrado)."
    )
    assert Roll.objects.count() == before and Campaign.objects.count() == 2


def test_ids_already_taken_are_refused_not_overwritten(light, tmp_path):
    """The same file under another slug would overwrite a-garganta's rows: refused."""
    renamed = copy.deepcopy(light)
    renamed["campaign"] = "copia"
    for obj in renamed["objects"]:
        if obj["model"] == "sheets.campaign":
            obj["fields"]["slug"] = "copia"
    path = write(tmp_path / "copia.json", renamed)
    message = refused("import_campaign", str(path))
    assert message.startswith("O banco já tem registros com os ids do arquivo (")
    assert "sheets.campaign: " in message and "mesa.roll: " in message
    assert not Campaign.objects.filter(slug="copia").exists()


@pytest.fixture
def emptied(transactional_db, monkeypatch, tmp_path):
    """A light export, and then an empty database to import it into."""
    play(monkeypatch, full=False)
    document = export("a-garganta", tmp_path / "light.json")
    flush()
    return document


def nothing_stayed() -> None:
    assert not Campaign.objects.exists()
    assert not User.objects.exists()
    assert not apps.get_model("mesa", "Roll").objects.exists()
    assert not Possession.objects.exists()


def tamper_dice(document: dict) -> dict:
    roll = next(o for o in document["objects"] if o["model"] == "mesa.roll" and o["pk"] > 1)
    roll["fields"]["details"] = {**roll["fields"]["details"], "forjado": True}
    return document


def tamper_count(document: dict) -> dict:
    document["counts"]["mesa.roll"] += 1
    return document


def tamper_head(document: dict) -> dict:
    document["roll_chain"]["last_hash"] = "0" * 64
    return document


def tamper_outside(document: dict) -> dict:
    character = next(o for o in document["objects"] if o["model"] == "sheets.character")
    character["fields"]["campaign"] = 999_999
    return document


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [
        (tamper_dice, "A cadeia de rolagens ficou quebrada depois da importação, na rolagem #"),
        (tamper_count, "O arquivo não confere com o próprio cabeçalho: mesa.roll: esperado "),
        (tamper_head, "A cadeia de rolagens importada termina em #"),
        (tamper_outside, "Há registros que apontam para registros ausentes do arquivo: "),
    ],
    ids=["chain-broken", "header-counts", "chain-head", "row-outside"],
)
def test_a_damaged_file_is_refused_and_nothing_stays(emptied, tmp_path, tamper, expected):
    path = write(tmp_path / "damaged.json", tamper(copy.deepcopy(emptied)))
    message = refused("import_campaign", str(path))
    assert message.startswith(expected), message
    if tamper is not tamper_count:
        assert message.endswith("Nada foi importado."), message
    nothing_stayed()
    # and the intact file still goes in
    assert "cadeia íntegra" in import_(write(tmp_path / "ok.json", emptied))


def test_a_user_already_there_is_kept_as_it_is(emptied, tmp_path):
    """A server where the admin made a superuser "mestre" before importing: the rows point
    at that user (the chain hashes the username, not the id) and the user is not changed."""
    admin = User.objects.create_superuser("mestre", "admin@example.org", "outra-senha")
    said = import_(write(tmp_path / "ok.json", emptied))
    assert "usuários já existentes mantidos: mestre" in said
    admin.refresh_from_db()
    assert admin.is_superuser and admin.check_password("outra-senha")
    assert admin.email == "admin@example.org"
    campaign = Campaign.objects.get(slug="a-garganta")
    assert set(Roll.objects.filter(campaign=campaign).values_list("rolled_by", flat=True)) == {
        admin.pk
    }
    assert chain.rolls_verify(campaign).ok
