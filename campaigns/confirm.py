"""The confirmation step of an irreversible action, the same with and without JavaScript.

A form that cannot be undone carries ``data-confirm="{{ confirmations.<key>.prompt }}"``
(or its one button that cannot, when the form's others can, e.g. "Salvar e enviar ao Árbitro"):
with JavaScript, static/garganta.js asks in a dialog and adds ``confirm=1`` when the user
says yes (Cancel sends nothing). Without it, the POST arrives without ``confirm=1`` and the
view answers :func:`confirmation_step`: a page "Tem certeza? … [Confirmar] [Voltar]" whose
form posts the same fields again with ``confirm=1``. The API is not asked: it is explicit.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_htmx.http import reswap, retarget

# The field the dialog and the step add: what a test posts to act past the step.
CONFIRMED = {"confirm": "1"}


@dataclass(frozen=True)
class Confirmation:
    action: str  # what the button did, as the page names it
    consequence: str  # why it cannot be undone

    @property
    def prompt(self) -> str:
        return f"Tem certeza? {self.action}: {self.consequence}"


CONFIRMATIONS = {
    "report_submit": Confirmation(
        "Enviar ao Árbitro",
        "enviado, o relatório não se edita e o registro da semana se fecha até a decisão.",
    ),
    "report_homologate": Confirmation(
        "Homologar o relatório",
        "homologado, o relatório nunca mais se edita e as rolagens escondidas da semana "
        "aparecem com dado e alvo para todos.",
    ),
    "report_return": Confirmation(
        "Devolver o relatório ao Mestre", "a devolução e o motivo ficam no registro."
    ),
    "report_correct": Confirmation(
        "Registrar a correção do relatório",
        "a correção é uma entrada nova e fica no registro para sempre.",
    ),
    "bulletin_publish": Confirmation(
        "Publicar o Boletim",
        "publicado, o Boletim não muda e a semana se encerra.",
    ),
    "version_homologate": Confirmation(
        "Homologar a versão da ficha",
        "homologada, a versão não muda mais; uma mudança depois é uma versão nova.",
    ),
    "version_return": Confirmation(
        "Devolver a versão ao jogador", "a devolução e o motivo ficam no histórico da ficha."
    ),
    "combat_end": Confirmation(
        "Encerrar o combate", "encerrado, o combate não recomeça e nada mais se rola nele."
    ),
    "exploration_end": Confirmation(
        "Encerrar a descida",
        "encerrada, a descida não continua e nada mais se rola nela.",
    ),
    "correction": Confirmation(
        "Registrar a correção", "a correção fica no registro para sempre, com o motivo."
    ),
    "sheet_correct": Confirmation(
        "Corrigir a ficha homologada",
        "a correção é uma versão homologada nova; a anterior fica no histórico.",
    ),
    "divergence_resolve": Confirmation(
        "Resolver a pendência", "resolvida, a pendência sai da lista das abertas."
    ),
    "decision_create": Confirmation(
        "Registrar a decisão", "a decisão é numerada e fica no registro para sempre."
    ),
    "draft_submit": Confirmation(
        "Salvar e enviar ao Árbitro",
        "enviada, a versão não se edita mais até o Árbitro homologá-la ou devolvê-la.",
    ),
    "combat_adjust": Confirmation(
        "Registrar o ajuste de PV",
        "o ajuste entra no registro do combate com o motivo e não se apaga nem se desfaz.",
    ),
    "state_change": Confirmation(
        "Registrar a mudança de estado",
        "a mudança de PV e de fadiga entra no registro da cena com o motivo "
        "e não se apaga nem se desfaz.",
    ),
}


def confirmations(request) -> dict:
    """Context processor: ``confirmations.<key>.prompt`` for the forms' ``data-confirm``."""
    return {"confirmations": CONFIRMATIONS}


def confirmation_step(
    request: HttpRequest, key: str, *, back: str, confirmation: Confirmation | None = None
) -> HttpResponse | None:
    """``None`` when the POST carries ``confirm=1``; else the confirmation page (200), which
    writes nothing and posts the same fields back with ``confirm=1``. ``back``: where
    "Voltar" goes; ``confirmation``: this request's own words in place of ``key``'s (what it
    would replace, listed). Call it after the permission check (and the form's validation,
    when there is a form), right before the service writes."""
    if request.POST.get("confirm") == CONFIRMED["confirm"]:
        return None
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "confirm")
        for value in values
    ]
    context = {
        "confirmation": confirmation if confirmation is not None else CONFIRMATIONS[key],
        "action": request.get_full_path(),
        "fields": fields,
        "back": back,
    }
    if getattr(request, "htmx", False):
        # A region asked without the dialog (a script that failed): the step takes the page's
        # main area, and its form posts without htmx.
        response = render(request, "confirm.html#step", context)
        return reswap(retarget(response, "main"), "innerHTML")
    return render(request, "confirm.html", context)
