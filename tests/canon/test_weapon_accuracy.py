"""A ranged weapon without Prec (the demo's Arco curto): aiming would add +0 silently; the
audit (the Árbitro's queue, the draft page) and the sheet page say it is missing (§4.3, §4.11)."""

from __future__ import annotations

from django.urls import reverse

from gurps.audit import NO_ACCURACY, FindingCode, Severity
from sheets.homologation import version_audit
from sheets.models import SheetVersion
from tests.sheets.pages import content
from tests.sheets.proposals import submit_three_problems


def test_the_rastreadors_bow_without_prec_is_noted_in_the_audit(demo, rastreador):
    version = SheetVersion.objects.get(character=rastreador, number=1)
    found = [f for f in version_audit(version).findings if f.code == FindingCode.NO_ACCURACY]
    assert [(f.what, f.severity, f.message) for f in found] == [
        ("Arco curto", Severity.NOTE, NO_ACCURACY)
    ]


def test_a_bow_with_prec_and_a_hand_weapon_are_not_noted(demo, jurado, rastreador):
    version = SheetVersion.objects.get(character=rastreador, number=1)
    version.items.filter(name="Arco curto").update(ranged_accuracy=1)
    for v in (version, SheetVersion.objects.get(character=jurado, number=1)):
        codes = {f.code for f in version_audit(v).findings}
        assert FindingCode.NO_ACCURACY not in codes


def test_the_queue_shows_the_missing_prec(client_for, arbitro, rastreador, rastreadora):
    submit_three_problems(rastreador, rastreadora)
    html = content(client_for(arbitro).get("/homologacao/"))
    assert NO_ACCURACY in html


def test_the_sheet_page_says_the_bow_has_no_prec(client_for, rastreadora, rastreador):
    html = content(client_for(rastreadora).get(reverse("sheet", kwargs={"code": rastreador.code})))
    assert 'data-testid="weapon-missing"' in html and NO_ACCURACY in html
