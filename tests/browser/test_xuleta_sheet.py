"""A Xuleta sheet on a phone (issue 22, item 7): the jogador opens Aina's sheet («O Vau das
Brumas», ``garganta_site.demo_xuleta``) on a 390×844 window, asks for a DC the page does not show
and sees a column of chances against it beside every check, save and skill — the engine's exact
chance, the same as the sheet's function gives. The DC picker is a plain GET form (``?cd=``): the
page is drawn again with the DC in its address (no htmx), so the address can be shared. A DC out
of 1–40 is refused in Portuguese with the range, and the page still fits the phone."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.axe import axe_violations, describe
from tests.browser.conftest import login, screenshot

PHONE = {"width": 390, "height": 844}
ASKED = 13  # not one of the page's usual DCs


def _aina_and_expected(dc: int):
    """Aina, and what the sheet's function says of each row's chance against ``dc``."""
    from garganta_site.demo_xuleta import demo_xuleta_seed
    from rulesets.registry import ruleset_for
    from sheets import ruleset_data
    from sheets.models import SheetVersion

    aina = next(c for c in demo_xuleta_seed()["characters"] if c.name == "Aina")
    version = SheetVersion.objects.get(character=aina, status=SheetVersion.Status.HOMOLOGATED)
    sheets = ruleset_for(aina.campaign.ruleset).sheets
    assert dc not in sheets.dcs(None)
    page = sheets.page(version.data, ruleset_data.data_state(aina), str(dc))
    expected = {
        row["key"]: next(c for c in row["chances"] if c["dc"] == dc)
        for group in ("checks", "saves", "skills")
        for row in page[group]
    }
    return aina, expected


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    violations = axe_violations(page)
    assert not violations, describe(violations)


def test_the_jogador_picks_a_dc_on_aina_s_sheet_on_a_phone(new_page):
    aina, expected = _aina_and_expected(ASKED)
    page = new_page()
    page.set_viewport_size(PHONE)
    login(page, "jogador")
    page.goto(f"/fichas/{aina.code}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Aina")
    checks = page.get_by_test_id("checks")
    expect(checks.get_by_role("columnheader", name=f"CD {ASKED}")).to_have_count(0)
    _fits(page)

    picker = page.get_by_test_id("dc-picker")
    picker.get_by_label("CD").fill(str(ASKED))
    picker.get_by_role("button", name="Ver a chance").click()
    page.wait_for_url(f"**/fichas/{aina.code}/?cd={ASKED}")
    expect(checks.get_by_role("columnheader", name=f"CD {ASKED}").first).to_be_visible()
    expect(picker.get_by_label("CD")).to_have_value(str(ASKED))
    for key, chance in expected.items():
        cell = page.get_by_test_id(f"chance-{key}-{ASKED}")
        expect(cell).to_have_text(chance["percent"])
        expect(cell).to_have_attribute("title", chance["exact"])
    _fits(page)
    screenshot(page, "xuleta-sheet-phone-dc")

    # The field itself keeps to 1–40 (the browser will not send 41); a link with one is
    # refused by the server in Portuguese, saying the range and what came.
    page.goto(f"/fichas/{aina.code}/?cd=41")
    expect(page.get_by_test_id("dc-error")).to_have_text("A CD vai de 1 a 40; veio «41».")
    _fits(page)
