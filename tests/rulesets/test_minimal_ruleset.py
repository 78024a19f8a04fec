"""Issue 21's proof: a campaign on a second, minimal ruleset defined in the tests ("1d10 + bônus
≥ 6", ``tests.rulesets.minimal``) runs a scene, a roll, a hidden roll and a sheet homologation
through the same services and API as a GURPS campaign, and its chain verifies. Nothing in the
agnostic parts may assume GURPS: where this fails, the agnostic code is at fault."""

from __future__ import annotations

import random

import pytest

from campaigns.errors import ServiceError
from sessions.log import chain
from sessions.log import services as log_services
from sessions.models import Roll
from sheets import ruleset_data
from sheets.homologation import sheet_homologate, sheet_submit, version_warnings
from sheets.models import SheetVersion
from sheets.reads import homologated_version
from tests.api.conftest import post_json
from tests.rulesets.minimal import BONUS_ABOVE_3, KEY
from tests.sessions.conftest import homologate_week


class Dice(random.Random):
    """The server's d10s, scripted."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 10)
        return self.faces.pop(0)


@pytest.fixture
def minimal_scene(minimal_week, heroine, people):
    return log_services.scene_create(
        week=minimal_week, user=people["mestre"], title="A ponte", characters=[heroine]
    )


def test_the_sheet_is_homologated_as_json_with_no_gurps_columns(heroine):
    version = homologated_version(heroine)
    assert version.ruleset == KEY
    assert version.data == {"skills": {"Furtividade": 2, "Luta": 1}, "notes": ""}
    assert (version.st, version.dx, version.iq, version.ht) == (None, None, None, None)


def test_the_sheet_data_is_validated_by_the_ruleset_model(heroine, people):
    with pytest.raises(ServiceError) as refused:
        ruleset_data.data_draft_create(
            character=heroine, user=people["jogador"], data={"skills": {"Luta": "muito"}}
        )
    assert refused.value.field == "data.skills.Luta"


def test_only_the_jogador_or_the_arbitro_write_the_sheet(heroine, people):
    with pytest.raises(ServiceError) as refused:
        ruleset_data.data_draft_create(character=heroine, user=people["mestre"], data={})
    assert refused.value.code == "forbidden"


def test_the_arbitro_homologates_past_the_rulesets_own_warnings_with_a_note(heroine, people):
    draft = ruleset_data.data_draft_create(
        character=heroine, user=people["jogador"], data={"skills": {"Luta": 4}}
    )
    sheet_submit(version=draft, user=people["jogador"])
    warnings, digest = version_warnings(draft)
    assert warnings == [f"skills.Luta: {BONUS_ABOVE_3}"]
    with pytest.raises(ServiceError):
        sheet_homologate(version=draft, user=people["arbitro"])
    sheet_homologate(
        version=draft, user=people["arbitro"], seen_digest=digest, note="Veterana da ponte."
    )
    draft.refresh_from_db()
    assert draft.status == SheetVersion.Status.HOMOLOGATED
    assert draft.decision_warnings == warnings


def test_a_roll_reads_the_sheet_and_the_ruleset_decides(minimal_scene, heroine, people):
    roll = log_services.roll_create(
        scene=minimal_scene,
        user=people["mestre"],
        skill="Furtividade",
        character=heroine,
        modifiers=[log_services.Modifier("escuro", -1)],
        source=Dice(4),
    )
    assert roll.ruleset == KEY
    assert (roll.kind, roll.base_level, roll.effective_level) == ("check", 2, 1)
    assert (roll.dice, roll.total, roll.margin, roll.outcome) == ([4], 5, -1, "failure")
    assert roll.outcome_label == "Falha"
    assert roll.details["level"]["text"] == "Furtividade +2 (ficha)"


def test_a_mestres_level_for_a_creature_and_a_contest(minimal_scene, heroine, people):
    goblin = log_services.roll_create(
        scene=minimal_scene,
        user=people["mestre"],
        label="Goblin espreita",
        base_level=0,
        source=Dice(9),
    )
    assert (goblin.total, goblin.outcome) == (9, "success")
    contest = log_services.contest_create(
        scene=minimal_scene,
        user=people["mestre"],
        a=log_services.ContestSide(character=heroine, skill="Luta"),
        b=log_services.ContestSide(character=None, name="Goblin", base_level=0, label="Luta"),
        source=Dice(5, 8),
    )
    assert contest.details["winner"] == "b"
    assert (contest.details["a"]["total"], contest.details["b"]["total"]) == (6, 8)


def test_a_hidden_roll_is_a_name_and_a_commitment_until_the_report_is_homologated(
    minimal_scene, minimal_week, heroine, people, client
):
    roll = log_services.roll_create(
        scene=minimal_scene,
        user=people["mestre"],
        skill="Furtividade",
        character=heroine,
        hidden=True,
        source=Dice(7),
    )
    assert roll.name == "semana-01-rolagem-01"
    client.force_login(people["jogador"])
    before = client.get(f"/api/v1/scenes/{minimal_scene.code}/rolls").json()
    shown = next(r for r in before if r["sequence"] == roll.sequence)
    assert shown["name"] == roll.name and shown["hash"] == roll.hash
    assert shown["dice"] is None and shown["outcome"] is None
    homologate_week(minimal_week, mestre=people["mestre"], arbitro=people["arbitro"])
    after = client.get(f"/api/v1/scenes/{minimal_scene.code}/rolls").json()
    shown = next(r for r in after if r["sequence"] == roll.sequence)
    assert (shown["dice"], shown["total"], shown["outcome"]) == ([7], 9, "success")
    assert chain.roll_hash(roll.previous_hash, shown["canonical"]) == roll.hash


def test_the_chain_names_the_ruleset_and_verifies(minimal_scene, minimal_campaign, heroine, people):
    for face in (1, 10):
        log_services.roll_create(
            scene=minimal_scene,
            user=people["mestre"],
            skill="Luta",
            character=heroine,
            source=Dice(face),
        )
    first = Roll.objects.get(campaign=minimal_campaign, sequence=1)
    assert f'"ruleset":"{KEY}"' in chain.roll_canonical_content(first)
    report = chain.rolls_verify(minimal_campaign)
    assert (report.ok, report.count) == (True, 2)


def test_the_api_runs_the_scene_and_its_rolls(
    minimal_week, minimal_campaign, heroine, people, client
):
    client.force_login(people["mestre"])
    created = post_json(
        client,
        f"/api/v1/weeks/{minimal_campaign.slug}/{minimal_week.number}/scenes",
        {"title": "O vau", "characters": [str(heroine.code)]},
    )
    assert created.status_code == 201, created.json()
    scene = created.json()["id"]
    rolled = post_json(
        client,
        f"/api/v1/scenes/{scene}/rolls",
        {"character": str(heroine.code), "skill": "Luta", "hidden": True},
    )
    assert rolled.status_code == 201, rolled.json()
    answer = rolled.json()
    assert answer["kind"] == "check" and answer["level_text"] == "Luta +1 (ficha)"
    unknown = post_json(
        client, f"/api/v1/scenes/{scene}/rolls", {"character": str(heroine.code), "skill": "Voo"}
    )
    assert unknown.status_code == 422
    assert unknown.json()["detail"] == "Voo não está na ficha."
    verified = client.get(f"/api/v1/rolls/verify?campaign={minimal_campaign.slug}").json()
    assert verified["ok"] is True
