"""Every page reads as the site writes for people (issue «What the table sees», part 6): no
plain hyphen as a minus sign ("Esquiva -2" is "Esquiva −2", U+2212), no quantity of four
digits or more without the thousands dot ("10034 kg" is "10.034 kg"), no raw backticks, and
no code key (``critical_success``) where a person reads.

The pages are the permission matrix's (tests/security/test_permission_matrix.py), filled with
the demo world of tests/security/conftest.py (its fight, its descent, a written report …), as
the jogador who owns the character, the Mestre and the Árbitro. What a page shows as code
(``<code>``, ``<pre>``), what people typed (``<textarea>``), scripts and the API's own pages
are not read; dates, ``semana-NN-rolagem-NN`` names, hashes and ids never match, as their
hyphens sit between digits and letters."""

from __future__ import annotations

import re
from html import unescape

from tests.security.test_permission_matrix import page_rows
from tests.security.test_permission_matrix import schema_once as schema_once
from tests.sheets.pages import content

ACTORS = ("owner", "mestre", "arbitro")
NOT_FOR_PEOPLE = {"openapi-json", "openapi-view", "api-root", "scene-export-json"}
NOT_TEXT = {"week-export-json", "folder-download", "folder-download-for"}

_CODE_SPAN = re.compile(r"`[^`\n]+`")  # Markdown's code, in the .md exports
_HIDDEN = re.compile(r"<(script|style|code|pre|textarea)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")

# A hyphen used as a minus: after a space, a bracket or punctuation, or in dice ("1d-1").
MINUS = re.compile(r"(?:^|[\s(\[,;:=/])-\d+|\b\d+d-\d+")
# A quantity of 4+ digits with no thousands dot.
BARE_THOUSANDS = re.compile(
    r"(?<![\d.,])\d{4,}(?:,\d+)?\s?(?:kg\b|pontos\b|pts\b|PV\b|m\b)|\$\s?\d{4,}"
)
# A decimal point where the site writes a comma: "8.0" is "8", "2.5 kg" is "2,5 kg" (§4.11
# and the other section numbers keep their dot).
DECIMAL_POINT = re.compile(r"(?<![\d.§])\d+\.(?:0(?![\d.])|\d{1,2}(?=\s?(?:kg|pontos?|pts)\b))")
BACKTICK = re.compile(r"`")
CODE_KEY = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")

CHECKS = {
    "hyphen as minus": MINUS,
    "thousands without a dot": BARE_THOUSANDS,
    "decimal point": DECIMAL_POINT,
    "raw backtick": BACKTICK,
    "code key": CODE_KEY,
}


def visible_text(html: str) -> str:
    return unescape(_TAG.sub(" ", _HIDDEN.sub(" ", html)))


def findings(text: str) -> list[str]:
    found = []
    for name, pattern in CHECKS.items():
        for match in pattern.finditer(text):
            start, end = max(match.start() - 40, 0), match.end() + 40
            context = " ".join(text[start:end].split())
            found.append(f"{name}: {match.group().strip()!r} in “…{context}…”")
    return found


def test_the_readers_catch_what_the_issue_saw():
    seen = "Esquiva -2; PV -67/12; 10034 kg; (o `06` diz); critical_success, margem +9; 1d-1; 8.0"
    matched = [line.split(" in ")[0] for line in findings(seen)]
    assert matched == [
        "hyphen as minus: '-2'",
        "hyphen as minus: '-67'",
        "hyphen as minus: '1d-1'",
        "thousands without a dot: '10034 kg'",
        "decimal point: '8.0'",
        "raw backtick: '`'",
        "raw backtick: '`'",
        "code key: 'critical_success'",
    ]


def test_the_readers_leave_dates_names_and_ids_alone():
    fine = (
        "2026-11-30 semana-01-rolagem-02 3f2a9c1e-5b7d-4c2e-9a1f-0e6b2d3c4a5b "
        "Esquiva −2, 10.034 kg, 1d−1, 3–5, 1.000 m"
    )
    assert findings(fine) == []


def test_every_page_reads_as_written_for_people(world, schema_once):
    problems = []
    for row in page_rows():
        if row.method != "GET" or row.name in NOT_FOR_PEOPLE | NOT_TEXT:
            continue
        for actor in ACTORS:
            if row.expected[actor] != "200":
                continue
            client = world.page_client(actor)
            response = client.get(world.demo.fill(row.path))
            assert response.status_code == 200, f"{row.label} as {actor}"
            body = content(response)
            if row.path.endswith(".md"):
                text = _CODE_SPAN.sub(" ", body)
            else:
                text = visible_text(body)
            problems += [f"{row.label} as {actor}: {f}" for f in findings(text)]
    assert not problems, "\n".join(sorted(set(problems)))


WOUNDED_PAGES = ("/fichas/{char}/", "/cenas/{scene}/", "/cenas/{scene}/combate/")


def test_a_character_past_minus_5_times_ht_reads_with_the_minus_sign(world):
    """The Jurado (12 PV) down 79: PV −67/12, as the issue saw it, on the sheet, the scene
    and the combat card, with the fight's wounds and the Carga that costs Dodge."""
    from sessions.models import Combatant
    from sheets.models import CharacterState, Possession

    place = world.demo
    state = CharacterState.objects.get(character__code=place.char)
    CharacterState.objects.filter(pk=state.pk).update(hp_lost=79, fatigue_lost=3)
    Combatant.objects.filter(character__code=place.char).update(hp_lost=79, hp_before=12)
    Possession.objects.filter(character__code=place.char).update(carried=True)
    problems = []
    for path in WOUNDED_PAGES:
        for actor in ACTORS:
            response = world.page_client(actor).get(place.fill(path))
            assert response.status_code == 200, path
            text = visible_text(content(response))
            problems += [f"{path} as {actor}: {f}" for f in findings(text)]
    assert not problems, "\n".join(sorted(set(problems)))
