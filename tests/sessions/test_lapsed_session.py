"""A session that lapsed (logged out in another tab) answers each htmx request with
``HX-Redirect`` to the login, ``?next=`` the page the user was on (``HX-Current-URL``): the
whole page goes to the login and comes back, instead of a login form swapped into a panel
(campaigns.http.lapsed_session_redirect). The browser's side: tests/browser/test_confirmations.py."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.urls import reverse

from sheets.models import Possession

ROOT = Path(__file__).resolve().parents[2]

# Every region that refreshes itself (an ``hx-trigger`` with ``every``), by template, and the
# URL name it polls.
POLLING = {
    "sessions/log/templates/log/scene.html": "scene-log",
    "sessions/combat/templates/combat/combat.html": "combat",
    "sessions/native_combat/templates/native_combat/panel.html": "combat",
    "sessions/exploration/templates/exploration/exploration.html": "exploration",
    "sheets/templates/sheets/sheet.html": "sheet-live",
}


def _htmx(scene_url: str) -> dict:
    return {"HX-Request": "true", "HX-Current-URL": f"http://testserver{scene_url}"}


def _login_with_next(path: str) -> str:
    return f"{reverse('login')}?next={quote(path, safe='')}"


def test_every_polling_region_is_listed():
    polling = {
        str(path.relative_to(ROOT))
        for path in ROOT.glob("*/**/templates/**/*.html")
        if re.search(r'hx-trigger="[^"]*every ', path.read_text())
    }
    assert polling == set(POLLING)


@pytest.mark.parametrize("name", sorted(set(POLLING.values())))
def test_a_polling_panel_of_a_lapsed_session_redirects_the_whole_page(client, scene, name):
    page = scene.get_absolute_url()
    response = client.get(reverse(name, kwargs={"code": scene.code}), headers=_htmx(page))
    assert response.status_code == 200
    assert response["HX-Redirect"] == _login_with_next(page)
    assert b"Entrar" not in response.content


def test_pegar_on_the_sheet_of_a_lapsed_session_redirects_the_whole_page(client, jurado):
    possession = Possession.objects.filter(character=jurado).first()
    sheet = reverse("sheet", kwargs={"code": jurado.code})
    url = reverse(
        "possession-carry", kwargs={"code": jurado.code, "possession_code": possession.code}
    )
    before = possession.carried
    response = client.post(url, {"carried": "0" if before else "1"}, headers=_htmx(sheet))
    assert response["HX-Redirect"] == _login_with_next(sheet)
    possession.refresh_from_db()
    assert possession.carried == before


def test_without_htmx_the_login_redirect_stays_a_redirect(client, scene):
    response = client.get(reverse("scene-log", kwargs={"code": scene.code}))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_after_the_login_the_user_is_back_on_the_page(client, scene, rastreadora):
    page = scene.get_absolute_url()
    response = client.post(
        _login_with_next(page), {"username": "rastreadora", "password": "garganta"}
    )
    assert response.status_code == 302 and response.url == page


def test_a_logged_in_htmx_request_is_untouched(client_for, scene, mestre):
    url = reverse("scene-log", kwargs={"code": scene.code})
    response = client_for(mestre).get(url, headers=_htmx(scene.get_absolute_url()))
    assert response.status_code == 200 and "HX-Redirect" not in response
