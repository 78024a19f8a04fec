"""The log region's fragments (sessions.log.views.scene_log): the new entries after the newest
one a page has, per viewer, inserted at the top; "ver anteriores", with and without
JavaScript; the page costs the same queries with 10 or 500 entries."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from unittest import mock

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.log import services as log_services
from sessions.models import Narration
from tests.sheets.pages import content

TAIL = re.compile(r'id="log-tail" hidden hx-get="([^"]+)"')
MORE = re.compile(r'id="log-more"><a href="([^"]+)" hx-get="([^"]+)"')


def tail_url(page_html: str) -> str:
    """The URL the page asks for its new entries (the tail's hx-get)."""
    (url,) = TAIL.findall(page_html)
    return html.unescape(url)


def _declare(scene, rastreador, rastreadora, text="Subo pela parede da galeria."):
    return log_services.declaration_create(
        scene=scene, character=rastreador, user=rastreadora, text=text
    )


def _narrate(scene, mestre, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        log_services.narration_create(scene=scene, user=mestre, text=f"Narração número {i}.")


def _page(client, scene, query="") -> str:
    response = client.get(reverse("scene", kwargs={"code": scene.code}) + query)
    assert response.status_code == 200
    return content(response)


def test_the_region_alone(client_for, rastreadora, scene, rastreador):
    _declare(scene, rastreador, rastreadora)
    response = client_for(rastreadora).get(reverse("scene-log", kwargs={"code": scene.code}))
    assert response.status_code == 200
    text = content(response)
    assert "<html" not in text
    assert text.lstrip().startswith('<section id="log"')
    assert "Subo pela parede da galeria." in text
    assert "depois=" in tail_url(text)


def test_it_requires_login(client, scene):
    response = client.get(reverse("scene-log", kwargs={"code": scene.code}))
    assert response.status_code == 302
    assert response.url.startswith("/entrar/")


def test_it_checks_membership(client_for, outsider, scene):
    url = reverse("scene-log", kwargs={"code": scene.code}) + "?depois="
    assert client_for(outsider).get(url).status_code == 404


def test_it_answers_204_when_nothing_is_new(client_for, mestre, scene):
    client = client_for(mestre)
    log_services.roll_create(
        scene=scene, user=mestre, label="Percepção", base_level=10, kind="attribute"
    )
    tail = tail_url(_page(client, scene))
    assert client.get(tail).status_code == 204


def test_only_the_new_entries_newest_first_to_the_top(
    client_for, mestre, rastreadora, scene, rastreador
):
    client = client_for(mestre)
    _declare(scene, rastreador, rastreadora)
    page = _page(client, scene)
    tail = tail_url(page)
    log_services.roll_create(
        scene=scene, user=mestre, label="Escalada", base_level=14, kind="skill"
    )
    _narrate(scene, mestre, 1)
    response = client.get(tail)
    assert response.status_code == 200
    text = content(response)
    # Not the log again: the two new entries, the newest first, for the top of the list.
    entries = text.split('<ol hx-swap-oob="afterbegin:#entries">', 1)[1].split("</ol>")[0]
    assert "Subo pela parede da galeria." not in entries
    assert entries.count('<li class="entry') == 2
    assert entries.index("Narração número 0.") < entries.index("Escalada")
    # The next ask starts after the narration: nothing new then.
    assert client.get(tail_url(text)).status_code == 204
    # The Mestre's "responde à declaração" lists come along (out of band).
    assert 'hx-swap-oob="true"' in text


def test_an_entry_that_commits_behind_the_newest_still_comes(client_for, mestre, scene):
    """Its time was taken before a later entry's, its commit came after: the tail asks again
    for the last seconds, knowing what it has there, and gets it once."""
    client = client_for(mestre)
    _narrate(scene, mestre, 1)
    newest = Narration.objects.get(text="Narração número 0.")
    tail = tail_url(_page(client, scene))
    with mock.patch(
        "django.utils.timezone.now", return_value=newest.created_at - timedelta(seconds=1)
    ):
        log_services.narration_create(scene=scene, user=mestre, text="Tarde.")
    text = content(client.get(tail))
    entries = text.split('<ol hx-swap-oob="afterbegin:#entries">', 1)[1].split("</ol>")[0]
    assert "Tarde." in entries and "Narração número 0." not in entries
    assert client.get(tail_url(text)).status_code == 204


def test_the_new_entries_are_per_viewer(
    client_for, mestre, jogador, rastreadora, scene, rastreador
):
    """A hidden roll reaches the table in full, its player masked, another jogador not at
    all — through the new-entries fragment as through the page (docs/DESIGN.md,
    invariant 4 (Hidden is not invisible))."""
    tails = {}
    for user in (mestre, rastreadora, jogador):
        tails[user.username] = tail_url(_page(client_for(user), scene))
    roll = log_services.roll_create(
        scene=scene,
        user=mestre,
        label="Sentir a emboscada",
        skill="Rastreamento",
        kind="skill",
        character=rastreador,
        hidden=True,
    )
    table = client_for(mestre).get(tails["mestre"])
    assert "Sentir a emboscada" in content(table)
    owner = content(client_for(rastreadora).get(tails["rastreadora"]))
    assert f"Rolagem escondida {roll.name}" in owner and roll.hash in owner
    assert "Sentir a emboscada" not in owner
    other = client_for(jogador).get(tails["jogador"])
    assert other.status_code == 204


def test_the_page_opens_at_the_newest_and_older_ones_come_on_demand(client_for, mestre, scene):
    client = client_for(mestre)
    _narrate(scene, mestre, 60)
    page = _page(client, scene)
    assert page.index("Narração número 59.") < page.index("Narração número 10.")
    assert "Narração número 9." not in page  # 50 on the page, the newest
    (link, fragment) = (html.unescape(u) for u in MORE.search(page).groups())
    # Without JavaScript: the link is the page, at the older entries.
    older = _page(client, scene, "?" + link.split("?", 1)[1].split("#")[0])
    assert "Narração número 9." in older and "Narração número 0." in older
    assert "Narração número 10." not in older
    assert "Voltar às entradas mais novas" in older
    assert 'id="log-tail"' not in older
    # With htmx: only the older entries (and no further link: these are the first).
    response = client.get(fragment)
    assert response.status_code == 200
    text = content(response)
    assert "<section" not in text
    assert text.index("Narração número 9.") < text.index("Narração número 0.")
    assert "Narração número 10." not in text


def test_a_cursor_the_site_did_not_give_is_refused(client_for, mestre, scene):
    client = client_for(mestre)
    for query in ("?depois=xyz", "?antes=!!", "?depois=MTIzLjkuNA"):
        response = client.get(reverse("scene-log", kwargs={"code": scene.code}) + query)
        assert response.status_code == 400, query
        assert "Cursor inválido" in content(response)
    assert client.get(reverse("scene", kwargs={"code": scene.code}) + "?antes=x").status_code == 400


def _bulk(scene, mestre, n: int) -> None:
    Narration.objects.bulk_create(
        Narration(scene=scene, author=mestre, text=f"Em massa {i}.") for i in range(n)
    )


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_page_costs_the_same_with_10_or_500_entries(client_for, mestre, jogador, scene):
    for user in (mestre, jogador):
        client = client_for(user)
        url = reverse("scene", kwargs={"code": scene.code})
        _bulk(scene, mestre, 10)
        _queries(client, url)  # warm what is read once per process
        small = _queries(client, url)
        _bulk(scene, mestre, 490)
        large = _queries(client, url)
        assert small == large, user
        Narration.objects.filter(text__startswith="Em massa").delete()
