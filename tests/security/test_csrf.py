"""CSRF: a form or an API call that rides on someone's session needs the CSRF token; a Bearer
token does not.

The routes come from the permission matrix (test_permission_matrix.py), whose completeness test
fails when a route is missing, so a new form is covered here without touching this file:

- every page, POSTed by a logged-in user of the role the matrix lets through, without the
  token: 403 (Django's CSRF refusal) and nothing written; the same POST with the token gets
  the matrix's answer (so the 403 was the token's, not the role's);
- every unsafe API operation through a session cookie, without ``X-CSRFToken``: 403 and
  nothing written; with it, the matrix's answer;
- every unsafe API operation with a Bearer token and no cookie, under the same strict client:
  the matrix's answer (no CSRF needed); a bad Bearer token next to a good session is a 401;
- every ``<form method="post">`` on the pages the table and the players use carries the
  ``csrfmiddlewaretoken`` input, and the pages' htmx requests send ``X-CSRFToken``.
"""

from __future__ import annotations

from html.parser import HTMLParser

from django.test import Client

from campaigns.confirm import CONFIRMED
from tests.security.conftest import ACTORS, World, send
from tests.security.test_permission_matrix import (
    BODIES,
    Row,
    api_rows,
    describe,
    matches,
    page_rows,
)

# Django's csrf_failure page ("Verificação CSRF falhou", in the site's language) and
# django-ninja's SessionAuth ("CSRF check Failed") both name it.
CSRF_REFUSED = API_CSRF_REFUSED = b"CSRF"
PREFERRED = ("mestre", "arbitro", "owner", "other", "outsider")


def _allowed(row: Row) -> str | None:
    """The actor the matrix lets through this row (the Mestre first), or None."""
    return next((a for a in PREFERRED if row.expected[a] in ("done", "4xx")), None)


def _strict(world: World, actor: str, **defaults) -> Client:
    client = Client(enforce_csrf_checks=True, raise_request_exception=False, **defaults)
    if actor != "anon":
        client.force_login(world.users[actor])
    return client


def _csrf_token(client: Client) -> str:
    if "csrftoken" not in client.cookies:
        client.get("/")  # base.html renders {% csrf_token %}: the cookie is set
    return client.cookies["csrftoken"].value


def _body(row: Row, world: World) -> dict:
    return BODIES[row.body](world.demo) if row.body != "-" else {}


def test_no_page_takes_a_post_without_the_csrf_token(world):
    """Every page (each URL pattern of the matrix), POSTed without the token by a logged-in
    user, is refused by the CSRF check and writes nothing; the pages that take a POST, posted
    with the token by the role the matrix allows, give the matrix's answer."""
    rows = {row.name: row for row in page_rows() if not row.path.startswith("/api/")}
    posts = {row.name: row for row in page_rows() if row.method == "POST"}
    clients: dict[str, Client] = {}
    unrefused, problems, controls = [], [], 0
    for name, row in rows.items():
        row = posts.get(name, row)
        actor = _allowed(row) if row.method == "POST" else "mestre"
        assert actor, f"{row.label}: the matrix lets nobody POST here"
        client = clients.setdefault(actor, _strict(world, actor))
        url = world.demo.fill(row.path)
        sent = send(client, "POST", url)
        if sent.status != 403 or CSRF_REFUSED not in sent.content or sent.wrote:
            unrefused.append(
                f"{row.label} as {actor} without the token: got {sent.status}, "
                f"wrote {sent.writes[:3]}"
            )
        if row.method == "POST":
            controls += 1
            token = _csrf_token(client)
            # confirm=1: past the confirmation step, as the matrix posts (tests/test_confirmations.py).
            data = {"csrfmiddlewaretoken": token, **CONFIRMED}
            sent = send(client, "POST", url, data=data)
            if not matches(row.expected[actor], sent):
                problems.append(describe(row, actor, row.expected[actor], sent) + " (with token)")
    refused = len(rows) - len(unrefused)
    print(
        f"csrf, pages: {len(rows)} page routes POSTed without the token, {refused} refused "
        f"and nothing written; {controls - len(problems)} of {controls} POST routes answered "
        f"as the matrix says with it"
    )
    assert not unrefused + problems, "\n".join(unrefused + problems)
    assert len(rows) >= 80 and controls >= 50


def test_the_api_through_a_session_needs_the_csrf_token(world):
    """Every unsafe API operation that needs a login, through a session cookie and no
    ``X-CSRFToken``: 403 and nothing written; with the header: the matrix's answer. The rules
    calculator (no login, no write) answers either way."""
    rows = [row for row in api_rows() if row.method != "GET"]
    clients: dict[str, Client] = {}
    problems, refused = [], 0
    for row in rows:
        public = row.expected["anon"] != "401"
        actor = "mestre" if public else _allowed(row)
        assert actor, f"{row.label}: the matrix lets nobody call it"
        client = clients.setdefault(actor, _strict(world, actor))
        url = world.demo.fill(row.path)
        body = _body(row, world)
        sent = send(client, row.method, url, json_body=body)
        if public:
            if not matches(row.expected[actor], sent) or sent.wrote:
                problems.append(describe(row, actor, row.expected[actor], sent))
            continue
        refused += 1
        if sent.status != 403 or API_CSRF_REFUSED not in sent.content:
            problems.append(describe(row, actor, "403 (CSRF)", sent) + " without the token")
        if sent.wrote:
            problems.append(f"{row.label} as {actor} without the token wrote {sent.writes[:3]}")
        token = _csrf_token(client)
        sent = send(client, row.method, url, json_body=body, HTTP_X_CSRFTOKEN=token)
        if not matches(row.expected[actor], sent):
            problems.append(describe(row, actor, row.expected[actor], sent) + " (with token)")
    print(
        f"csrf, API by session: {refused} unsafe operations refused without X-CSRFToken "
        f"(nothing written) and answered as the matrix says with it; {len(problems)} problems"
    )
    assert not problems, "\n".join(problems)
    assert refused >= 40


def test_the_api_with_a_bearer_token_needs_no_csrf_token(world):
    """Every unsafe API operation, with a Bearer token and no cookie, under the client that
    enforces CSRF: the matrix's answer. A bad Bearer token next to a good session is a 401 (the
    token alone decides), not the session's answer."""
    rows = [row for row in api_rows() if row.method != "GET"]
    problems = []
    clients: dict[str, Client] = {}
    for row in rows:
        actor = _allowed(row) or "mestre"  # the rules calculator: open to anyone
        if actor not in clients:
            plain = world.api_client(actor)  # mints the token
            clients[actor] = Client(
                enforce_csrf_checks=True,
                raise_request_exception=False,
                HTTP_AUTHORIZATION=plain.defaults["HTTP_AUTHORIZATION"],
            )
        sent = send(
            clients[actor], row.method, world.demo.fill(row.path), json_body=_body(row, world)
        )
        if not matches(row.expected[actor], sent):
            problems.append(describe(row, actor, row.expected[actor], sent) + " (Bearer)")
    mixed = _strict(world, "mestre", HTTP_AUTHORIZATION="Bearer não-é-um-token")
    token = _csrf_token(mixed)
    sent = send(
        mixed,
        "POST",
        f"/api/v1/scenes/{world.demo.scene}/narrations",
        json_body={"text": "Não deve entrar."},
        HTTP_X_CSRFTOKEN=token,
    )
    if sent.status != 401 or sent.wrote:
        problems.append(f"a bad Bearer token with a good session: got {sent.status}")
    print(
        f"csrf, API by Bearer: {len(rows)} unsafe operations answered without a CSRF token; "
        f"{len(problems)} problems"
    )
    assert not problems, "\n".join(problems)


class _Forms(HTMLParser):
    """The POST forms of a page (whether each carries the CSRF input), the elements that
    make htmx write requests, and the CSRF header the page's body gives htmx."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []  # {"action", "token"}
        self.open: list[dict | None] = []
        self.htmx_writes = 0
        self.body_headers = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.body_headers = attrs.get("hx-headers") or ""
        if any(k in attrs for k in ("hx-post", "hx-put", "hx-patch", "hx-delete")):
            self.htmx_writes += 1
        if tag == "form":
            form = None
            if (attrs.get("method") or "get").lower() == "post":
                form = {"action": attrs.get("action") or "", "token": False}
                self.forms.append(form)
            self.open.append(form)
        elif tag == "input" and attrs.get("name") == "csrfmiddlewaretoken":
            for form in reversed(self.open):
                if form is not None:
                    form["token"] = bool(attrs.get("value"))
                    break

    def handle_endtag(self, tag):
        if tag == "form" and self.open:
            self.open.pop()


def test_every_post_form_on_the_pages_carries_the_csrf_token(world):
    """Each page the matrix lets these actors read (as the Árbitro, who runs the table and
    also sees the console's forms, and as the jogador who owns the Jurado), each ``<form method="post">`` in it has a non-empty
    ``csrfmiddlewaretoken`` input; a page whose elements post with htmx gives htmx the
    ``X-CSRFToken`` header on its body."""
    readers = ("arbitro", "owner")
    problems, pages, forms = [], 0, 0
    for actor in readers:
        client = _strict(world, actor)
        for row in page_rows():
            if row.method != "GET" or row.expected[actor] != "200":
                continue
            response = client.get(world.demo.fill(row.path))
            if "text/html" not in response.get("Content-Type", ""):
                continue
            pages += 1
            parser = _Forms()
            parser.feed(response.content.decode())
            forms += len(parser.forms)
            for form in parser.forms:
                if not form["token"]:
                    problems.append(f"{row.label} as {actor}: form → {form['action']} has no token")
            if parser.htmx_writes and "X-CSRFToken" not in parser.body_headers:
                problems.append(f"{row.label} as {actor}: htmx posts without X-CSRFToken")
    print(
        f"csrf, forms: {forms} POST forms on {pages} pages "
        f"(as {', '.join(readers)}), {len(problems)} without the token"
    )
    assert not problems, "\n".join(problems)
    assert forms >= 50 and pages >= 50


assert set(PREFERRED) == set(ACTORS) - {"anon"}
