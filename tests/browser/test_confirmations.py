"""With JavaScript on, an irreversible action asks in a dialog (garganta_site/confirm.py,
static/garganta.js): Cancel writes nothing, yes writes once. A session that lapsed in another
tab sends the whole page to the login and back, with what was typed in "Declarar" kept."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from campaigns.confirm import CONFIRMATIONS
from sessions.combat import services as combat_services
from sessions.models import Combat, Declaration, Scene
from sheets.models import Character, SheetVersion
from tests.browser.conftest import PASSWORD, login

SCENE = "A galeria do andar 3"


def test_homologating_a_version_asks_cancel_writes_nothing_yes_writes_once(new_page):
    version = SheetVersion.objects.get(character__name="Hoplita de Ônfalos", status="submitted")
    page = new_page()
    login(page, "arbitro")
    page.goto("/homologacao/")
    item = page.locator("article.queue-item", has_text="Hoplita de Ônfalos — versão 2")
    asked = []

    def cancel(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", cancel)
    item.get_by_role("button", name="Homologar", exact=True).click()
    expect(item).to_be_visible()
    assert asked == [CONFIRMATIONS["version_homologate"].prompt]
    version.refresh_from_db()
    assert version.status == SheetVersion.Status.SUBMITTED

    page.once("dialog", lambda dialog: dialog.accept())
    item.get_by_role("button", name="Homologar", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("versão 2 homologada")
    version.refresh_from_db()
    assert version.status == SheetVersion.Status.HOMOLOGATED
    assert (
        SheetVersion.objects.filter(character=version.character, status="homologated").count() == 2
    )


def test_ending_the_combat_asks_over_htmx(new_page):
    scene = Scene.objects.get(title=SCENE)
    jurado = Character.objects.get(name="Jurado de Gapheim")
    mestre_user = get_user_model().objects.get(username="mestre")
    combat = combat_services.combat_start(scene=scene, user=mestre_user, characters=[jurado])
    page = new_page()
    login(page, "mestre")
    page.goto(scene.get_absolute_url())
    panel = page.locator("#combat")
    panel.get_by_text("Encerrar o combate", exact=True).click()
    end = panel.get_by_role("button", name="Encerrar", exact=True)

    posts = []
    page.on(
        "request", lambda request: posts.append(request.url) if request.method == "POST" else None
    )
    dismissed = []
    page.once("dialog", lambda dialog: (dismissed.append(dialog.message), dialog.dismiss()))
    end.click()
    # The dialog is answered inside the click: by now a dismissed one has sent nothing.
    assert dismissed and posts == []
    combat.refresh_from_db()
    assert combat.status == Combat.Status.ACTIVE

    page.once("dialog", lambda dialog: dialog.accept())
    end.click()
    expect(panel).to_contain_text("Encerrado")
    combat.refresh_from_db()
    assert combat.status == Combat.Status.ENDED
    assert len(posts) == 1, posts  # only the accepted click ended the combat


def test_a_lapsed_session_goes_to_the_login_and_back_with_the_draft(new_page):
    scene = Scene.objects.get(title=SCENE)
    page = new_page()
    login(page, "rastreadora")
    page.goto(scene.get_absolute_url())
    text = "Subo pela fenda da esquerda, devagar, com a corda presa ao cinto"
    page.get_by_label("O que faz, e com quê").fill(text)

    # Another tab of the same browser logs out; the scene's log panel polls every second.
    other = page.context.new_page()
    other.goto("/")
    other.get_by_role("button", name="Sair").click()
    page.wait_for_url(re.compile(r"/entrar/\?next="), timeout=5_000)
    expect(page.get_by_role("heading", name="Entrar")).to_have_count(1)
    assert page.url.endswith(f"next=%2Fcenas%2F{scene.code}%2F") or page.url.endswith(
        f"next=/cenas/{scene.code}/"
    )

    page.locator('input[name="username"]').fill("rastreadora")
    page.locator('input[name="password"]').fill(PASSWORD)
    page.get_by_role("button", name="Entrar", exact=True).click()
    page.wait_for_url(re.compile(rf"/cenas/{scene.code}/$"))
    area = page.get_by_label("O que faz, e com quê")
    expect(area).to_have_value(text)
    expect(page.locator(".draft-note")).to_contain_text("Rascunho recuperado")

    # Sent, the draft is forgotten: the page drawn again has an empty field.
    page.get_by_role("button", name="Declarar", exact=True).click()
    expect(page.locator("#log")).to_contain_text(text, timeout=5_000)
    assert Declaration.objects.filter(text=text).count() == 1
    page.reload()
    expect(page.get_by_label("O que faz, e com quê")).to_have_value("")


def test_saving_the_draft_does_not_ask_and_sending_it_asks(new_page):
    jurado = Character.objects.get(name="Jurado de Gapheim")
    page = new_page()
    login(page, "jogador")
    page.goto(f"/fichas/{jurado.code}/")
    page.get_by_role("link", name="Propor alteração da ficha").click()
    page.get_by_role("button", name="Começar rascunho").click()
    asked, answers = [], [False, True]  # Cancel first, then yes

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept() if answers.pop(0) else dialog.dismiss()

    page.on("dialog", answer)
    page.get_by_role("button", name="Salvar rascunho").click()
    expect(page.locator(".messages")).to_contain_text("Rascunho salvo.")
    assert asked == []

    send = page.get_by_role("button", name="Salvar e enviar ao Árbitro")
    send.click()
    # The dialog is answered inside the click: a dismissed one has sent nothing.
    assert asked == [CONFIRMATIONS["draft_submit"].prompt]
    draft = SheetVersion.objects.get(character=jurado, number=2)
    assert draft.status == SheetVersion.Status.DRAFT

    send.click()
    expect(page.locator(".messages")).to_contain_text("enviada ao Árbitro para homologação")
    draft.refresh_from_db()
    assert draft.status == SheetVersion.Status.SUBMITTED
