"""Phone (390×844) and desktop (1280×900) screenshots of every page of tests/browser/pages.py,
as the jogador, the Mestre and the Árbitro see it, into docs/shots/.

    .venv/bin/python scripts/screenshots.py                # a fresh live site (gunicorn)
    .venv/bin/python scripts/screenshots.py --base-url http://127.0.0.1:8000 --world world.json
    .venv/bin/python scripts/screenshots.py --check        # also: width and axe-core findings

The fresh site is tests/live/server.py's (a throwaway SQLite database, the demo seeded, then
``pages.layout_world()`` played in it). Each PNG is the full page, or its top 3,000 or
1,800 px, or the viewport: the first under 300 KB. Debian's chromium through Playwright.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "garganta_site.settings")

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, login  # noqa: E402
from tests.browser.pages import PAGES, SHOWN, cases, page_path  # noqa: E402

SHOTS = ROOT / "docs" / "shots"
SIZES = {390: {"width": 390, "height": 844}, 1280: {"width": 1280, "height": 900}}
MAX_BYTES = 300_000
WORLD_CODE = (
    "import json\nfrom tests.browser.pages import layout_world\n"
    "print('WORLD=' + json.dumps(layout_world()))\n"
)


@contextlib.contextmanager
def live_site():
    """A fresh site with the layout world played in it: (base URL, world)."""
    from tests.live.server import SQLITE, running_site

    with running_site(workers=1, backend=SQLITE, tokens=()) as site:
        found = re.search(r"^WORLD=(.*)$", site.shell(WORLD_CODE), re.M)
        yield site.base_url, json.loads(found.group(1))


def capture(page, path: Path, width: int) -> None:
    """The full page, else its top 3,000 or 1,800 px, else the viewport: under MAX_BYTES."""
    page.screenshot(path=str(path), full_page=True)
    height = page.evaluate("document.documentElement.scrollHeight")
    for top in (3000, 1800):
        if path.stat().st_size <= MAX_BYTES:
            return
        if top < height:
            clip = {"x": 0, "y": 0, "width": width, "height": top}
            page.screenshot(path=str(path), full_page=True, clip=clip)
    if path.stat().st_size > MAX_BYTES:
        page.screenshot(path=str(path))


def shoot(browser, base_url, world, *, check: bool, only: str = "") -> list[str]:
    """Take every screenshot; return what --check found (overflow, axe violations)."""
    from tests.browser.axe import axe_violations

    problems = []
    for name, who in cases(SHOWN):
        if only and not re.search(only, f"{name}-{who}"):
            continue
        for width, viewport in SIZES.items():
            context = browser.new_context(base_url=base_url, viewport=viewport, locale="pt-BR")
            page = context.new_page()
            login(page, who)
            page.goto(page_path(name, world))
            page.wait_for_load_state("networkidle")
            path = SHOTS / f"{name}-{who}-{width}.png"
            capture(page, path, viewport["width"])
            if check:
                if page.locator("h1").count() == 0:
                    problems.append(f"{name} {who} {width}: no <h1>")
                scroll = page.evaluate("document.documentElement.scrollWidth")
                if scroll > width:
                    problems.append(f"{name} {who} {width}: {scroll} px wide")
                for v in axe_violations(page):
                    targets = "; ".join(n["target"] for n in v["nodes"])
                    problems.append(f"{name} {who} {width}: {v['impact']} {v['id']} {targets}")
            print(f"{path.relative_to(ROOT)} {path.stat().st_size // 1024} KB", flush=True)
            context.close()
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", help="a running site (default: start a fresh one)")
    parser.add_argument("--world", help="with --base-url: a JSON file of pages.layout_world()")
    parser.add_argument("--check", action="store_true", help="report overflow and axe findings")
    parser.add_argument("--only", default="", help="a regex on 'page-login' (e.g. 'sheet')")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        if args.base_url:
            base_url, world = args.base_url, json.loads(Path(args.world).read_text())
        else:
            base_url, world = stack.enter_context(live_site())
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        problems = shoot(browser, base_url, world, check=args.check, only=args.only)
        browser.close()
    print("\n".join(problems) if problems else ("nothing found" if args.check else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    assert PAGES
    raise SystemExit(main())
