"""Hidden is not invisible (canon §1.6, docs/DESIGN.md, invariant 4 (Hidden is not invisible)), end
to end.

Before the week's report is homologated, a hidden roll's values are absent from every page,
API answer and export its player (or any other jogador) can reach; its player sees its name,
its time and its commitment. After homologation they are everywhere, and the commitment
shown before checks out against them.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest
from django.urls import reverse
from django.utils.timezone import localtime

from sessions.log import chain
from sessions.log import services as log_services
from sessions.models import Roll
from tests.sessions.conftest import homologate_week
from tests.sheets.pages import content

LABEL = "Sentir a emboscada nas sombras"


@pytest.fixture
def hidden_roll(scene, mestre, rastreador, server_dice):
    server_dice(2, 5, 6)
    return log_services.roll_create(
        scene=scene,
        user=mestre,
        label=LABEL,
        skill="Observação",
        kind="skill",
        character=rastreador,
        modifiers=[log_services.Modifier("névoa do poço", -3)],
        hidden=True,
    )


def _reachable(client, scene) -> dict[str, str]:
    """Every page, API answer and export a member can reach that could show the roll."""
    week = scene.week
    slug, number = week.campaign.slug, week.number
    urls = {
        "scene page": reverse("scene", kwargs={"code": scene.code}),
        "scene log": reverse("scene-log", kwargs={"code": scene.code}),
        "scene md": reverse("scene-export-md", kwargs={"code": scene.code}),
        "scene json": reverse("scene-export-json", kwargs={"code": scene.code}),
        "week page": reverse("week", kwargs={"campaign": slug, "number": number}),
        "weeks page": reverse("weeks", kwargs={"campaign": slug}),
        "report page": reverse("week-report", kwargs={"campaign": slug, "number": number}),
        "week md": reverse("week-export-md", kwargs={"campaign": slug, "number": number}),
        "week json": reverse("week-export-json", kwargs={"campaign": slug, "number": number}),
        "verify page": reverse("rolls-verify-page"),
        "api rolls": f"/api/v1/scenes/{scene.code}/rolls",
        "api log": f"/api/v1/scenes/{scene.code}/log",
        "api scene export": f"/api/v1/scenes/{scene.code}/export",
        "api week": f"/api/v1/weeks/{slug}/{number}",
        "api week export": f"/api/v1/weeks/{slug}/{number}/export",
        "api weeks": "/api/v1/weeks",
        "api verify": "/api/v1/rolls/verify",
    }
    answers = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, name
        answers[name] = content(response)
    folder = client.get(reverse("folder-download", kwargs={"campaign": slug}))
    with zipfile.ZipFile(io.BytesIO(folder.content)) as archive:
        for name in archive.namelist():
            answers[f"folder {name}"] = archive.read(name).decode()
    return answers


def _secrets(roll: Roll) -> list[str]:
    """What only the values give away: the target, the modifier, the salt, the content."""
    return [LABEL, "névoa do poço", roll.salt, chain.roll_canonical_content(roll)[:40]]


@pytest.mark.parametrize("username", ["rastreadora", "jogador"])
def test_before_homologation_no_page_api_or_export_shows_its_values(
    client_for, django_user_model, scene, hidden_roll, username
):
    user = django_user_model.objects.get(username=username)
    for where, text in _reachable(client_for(user), scene).items():
        for secret in _secrets(hidden_roll):
            assert secret not in text, f"{secret!r} in {where}"
            assert json.dumps(secret)[1:-1] not in text, f"{secret!r} in {where}"


def test_before_homologation_its_player_sees_name_time_and_commitment(
    client_for, rastreadora, scene, hidden_roll
):
    answers = _reachable(client_for(rastreadora), scene)
    assert hidden_roll.name == "semana-01-rolagem-01"
    for where in ("scene page", "scene json", "api rolls", "scene md"):
        assert hidden_roll.name in answers[where], where
        assert hidden_roll.hash in answers[where], where
    assert localtime(hidden_roll.created_at).strftime("%d/%m %H:%M:%S") in answers["scene page"]
    shown = json.loads(answers["folder semana-01-rolagem-01.json"])
    assert (shown["name"], shown["hash"], shown["revealed"]) == (
        hidden_roll.name,
        hidden_roll.hash,
        False,
    )
    assert shown["dice"] is None and shown["canonical"] is None and shown["salt"] is None


def test_other_jogadores_do_not_even_see_its_name_before_homologation(
    client_for, jogador, scene, hidden_roll
):
    answers = _reachable(client_for(jogador), scene)
    for where, text in answers.items():
        assert hidden_roll.name not in text, where
    assert list(k for k in answers if k.startswith("folder ")) == ["folder LEIA-ME.txt"]


@pytest.mark.parametrize("username", ["rastreadora", "jogador"])
def test_after_homologation_its_values_are_everywhere(
    client_for, django_user_model, scene, hidden_roll, mestre, arbitro, username
):
    homologate_week(scene.week, mestre=mestre, arbitro=arbitro)
    answers = _reachable(client_for(django_user_model.objects.get(username=username)), scene)
    places = ["scene page", "scene md", "scene json", "report page", "week md", "week json"]
    places += ["api rolls", "api log", "api scene export", "api week export"]
    for where in places:
        assert LABEL in answers[where], where
        assert hidden_roll.name in answers[where], where
    for where in ("scene json", "api rolls", "api scene export"):
        assert hidden_roll.salt in answers[where], where
    assert (
        '<span class="die">2</span><span class="die">5</span><span class="die">6</span>'
        in (answers["scene page"])
    )
    assert "contra <strong>10</strong>" in answers["scene page"]


def test_after_homologation_its_commitment_checks_out(client_for, rastreadora, scene, hidden_roll):
    client = client_for(rastreadora)
    (before,) = client.get(f"/api/v1/scenes/{scene.code}/rolls").json()
    homologate_week(scene.week, mestre=hidden_roll.rolled_by, arbitro=_arbitro())
    (after,) = client.get(f"/api/v1/scenes/{scene.code}/rolls").json()

    assert after["hash"] == before["hash"] == hidden_roll.hash
    assert (after["dice"], after["total"], after["effective_level"]) == ([2, 5, 6], 13, 10)
    recomputed = hashlib.sha256((after["previous_hash"] + after["canonical"]).encode()).hexdigest()
    assert recomputed == before["hash"]
    content_ = json.loads(after["canonical"])
    assert (content_["dice"], content_["label"], content_["salt"]) == (
        [2, 5, 6],
        LABEL,
        after["salt"],
    )


def test_the_folder_file_checks_out_after_homologation(
    client_for, rastreadora, scene, hidden_roll, mestre, arbitro
):
    homologate_week(scene.week, mestre=mestre, arbitro=arbitro)
    url = reverse("folder-download", kwargs={"campaign": scene.week.campaign.slug})
    response = client_for(rastreadora).get(url)
    assert response["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        assert sorted(archive.namelist()) == ["LEIA-ME.txt", "semana-01-rolagem-01.json"]
        shown = json.loads(archive.read("semana-01-rolagem-01.json"))
    assert shown["revealed"] is True
    assert (shown["label"], shown["dice"]) == (LABEL, [2, 5, 6])
    digest = hashlib.sha256((shown["previous_hash"] + shown["canonical"]).encode()).hexdigest()
    assert digest == shown["hash"] == hidden_roll.hash


def test_the_page_shows_the_revealed_roll_with_what_its_commitment_covers(
    client_for, rastreadora, scene, hidden_roll, mestre, arbitro
):
    homologate_week(scene.week, mestre=mestre, arbitro=arbitro)
    html = content(client_for(rastreadora).get(reverse("scene", kwargs={"code": scene.code})))
    assert "revelada na homologação" in html
    assert hidden_roll.previous_hash in html
    assert "O servidor recalculou agora: confere." in html


def test_the_folder_has_one_file_per_roll_named_by_week_and_player(
    client_for, rastreadora, scene, mestre, rastreador, jurado
):
    for character in (rastreador, rastreador, jurado):
        log_services.roll_create(
            scene=scene,
            user=mestre,
            label="Observação",
            kind="skill",
            character=character,
            hidden=True,
        )
    url = reverse("folder-download", kwargs={"campaign": scene.week.campaign.slug})
    with zipfile.ZipFile(io.BytesIO(client_for(rastreadora).get(url).content)) as archive:
        assert sorted(archive.namelist()) == [
            "LEIA-ME.txt",
            "semana-01-rolagem-01.json",
            "semana-01-rolagem-02.json",
        ]


def test_only_the_table_downloads_someone_elses_folder(
    client_for, jogador, mestre, rastreadora, scene, hidden_roll
):
    url = reverse(
        "folder-download-for",
        kwargs={"campaign": scene.week.campaign.slug, "username": "rastreadora"},
    )
    assert client_for(jogador).get(url).status_code == 403
    response = client_for(mestre).get(url)
    assert response.status_code == 200
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        assert "semana-01-rolagem-01.json" in archive.namelist()


def test_the_folder_checks_membership(client_for, outsider, scene):
    url = reverse("folder-download", kwargs={"campaign": scene.week.campaign.slug})
    assert client_for(outsider).get(url).status_code == 404


def test_the_polling_page_of_its_player_refreshes_when_it_is_revealed(
    client_for, rastreadora, scene, hidden_roll, mestre, arbitro
):
    from tests.sessions.log.test_scene_log import tail_url

    client = client_for(rastreadora)
    tail = tail_url(content(client.get(scene.get_absolute_url())))
    assert "r=0" in tail
    assert client.get(tail).status_code == 204
    homologate_week(scene.week, mestre=mestre, arbitro=arbitro)
    # The same entries show more now: the whole region again, in place of the old one.
    response = client.get(tail)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#log"
    assert LABEL in content(response)
    assert "r=1" in tail_url(content(response))


def _arbitro():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username="arbitro")


def test_another_jogadors_hidden_roll_is_not_even_counted_on_the_week_page(
    client_for, mestre, jogador, rastreadora, rastreador, scene
):
    from django.urls import reverse

    log_services.roll_create(
        scene=scene,
        user=mestre,
        label="Observação",
        kind="skill",
        character=rastreador,
        hidden=True,
    )
    url = reverse("week", args=[scene.week.campaign.slug, scene.week.number])
    assert "0 rolagens" in client_for(jogador).get(url).content.decode()
    assert "1 rolagem" in client_for(rastreadora).get(url).content.decode()
