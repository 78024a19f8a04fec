"""Readers of the rendered pages, so tests assert numbers where the page shows them.

Each reader finds one element by what a player reads next to it (a ``data-testid`` the
template sets, or the first cell of a table row) and returns its text with tags removed.
"""

from __future__ import annotations

import re
from html import unescape

_TAG = re.compile(r"<[^>]+>")


def text(html: str) -> str:
    """The text of an HTML fragment: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(unescape(_TAG.sub(" ", html)).split())


def stat(html: str, testid: str) -> str:
    """The value (``<span class="v">``) of the big stat marked ``data-testid=testid``, or
    of the value span itself when it carries the mark."""
    testid = re.escape(testid)
    match = re.search(rf'<span class="v" data-testid="{testid}">(.*?)</span>', html, re.S)
    match = match or re.search(
        rf'data-testid="{testid}"[^>]*>.*?<span class="v"[^>]*>(.*?)</span>', html, re.S
    )
    assert match, f"no stat {testid!r} on the page"
    return text(match.group(1))


def row(html: str, first_cell: str) -> list[str]:
    """The cells of the first table row whose first cell reads ``first_cell``."""
    for match in re.finditer(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        cells = [text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", match.group(1), re.S)]
        if cells and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no row {first_cell!r} on the page")


def content(response) -> str:
    if getattr(response, "streaming", False):  # a streamed export
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def section(html: str, heading: str) -> str:
    """The card whose ``<h2>`` starts with ``heading``, up to its ``</section>``."""
    match = re.search(rf"<h2[^>]*>{re.escape(heading)}.*?</section>", html, re.S)
    assert match, f"no section {heading!r} on the page"
    return match.group(0)
