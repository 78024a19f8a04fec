"""The account page ``/conta/``: a user's own API tokens, created and revoked from the site.

Tries: anonymous visitors are sent to the login and change nothing; the page lists the user's
tokens only (prefix, creation, active or revoked) and never a token's secret after the answer
that created it; a created token opens the API at once and a revoked one gets a 401 at once,
while the row stays; someone else's token is a 404, as if it did not exist; a double click on
"Criar" (the same form posted twice, even at the same instant) makes one token and says so with
a 409; htmx gets the tokens region alone; posts need the CSRF token.
"""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.db.models import QuerySet
from django.test import Client
from django.urls import reverse

from campaigns.auth import TOKEN_ALREADY_CREATED, api_token_create
from campaigns.errors import ServiceError
from campaigns.models import ApiToken
from tests.pins import SESSION_QUERIES

ACCOUNT = "/conta/"
CREATE = "/conta/tokens/"
REVOKE_ALL = "/conta/tokens/revogar-todos/"


def _revoke_url(token: ApiToken) -> str:
    return f"/conta/tokens/{token.code}/revogar/"


def _api(client, token: str) -> int:
    return client.get("/api/v1/sheets", HTTP_AUTHORIZATION=f"Bearer {token}").status_code


def _request_key(page: str) -> str:
    return re.search(r'name="request_key" value="([0-9a-f]{32})"', page).group(1)


@pytest.fixture
def mestre_client(client, mestre):
    client.force_login(mestre)
    return client


def test_it_requires_login(client, mestre):
    token = api_token_create(user=mestre)
    stored = ApiToken.objects.get()
    for method, url in (
        ("get", ACCOUNT),
        ("post", CREATE),
        ("post", _revoke_url(stored)),
        ("post", REVOKE_ALL),
    ):
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"/entrar/?next={url}"
    assert ApiToken.objects.count() == 1
    assert _api(client, token) == 200


def test_it_works_and_lists_only_the_users_own_tokens(mestre_client, mestre, arbitro):
    api_token_create(user=mestre)
    api_token_create(user=mestre)
    api_token_create(user=arbitro)
    first = ApiToken.objects.filter(user=mestre).order_by("pk").first()
    ApiToken.objects.filter(pk=first.pk).update(revoked_at=first.created_at)

    response = mestre_client.get(ACCOUNT)

    assert response.status_code == 200
    page = response.content.decode()
    for token in ApiToken.objects.filter(user=mestre):
        assert f"{token.prefix}…" in page
        assert str(token.code) in page
    other = ApiToken.objects.get(user=arbitro)
    assert other.prefix not in page and str(other.code) not in page
    assert page.count("<strong>ativo</strong>") == 1
    assert page.count("revogado em") == 1
    assert page.count("Sim, revogar ") == 1 + 1  # the active token's button, and "todos"


def test_the_account_page_costs_three_queries(mestre_client, mestre, django_assert_num_queries):
    for _ in range(3):
        api_token_create(user=mestre)
    # the session, its user, the tokens (however many)
    with django_assert_num_queries(2 + SESSION_QUERIES):
        mestre_client.get(ACCOUNT)


def test_the_nav_links_to_the_account(mestre_client):
    assert 'href="/conta/">Conta</a>' in mestre_client.get("/").content.decode()


def test_creating_shows_the_token_once_and_it_opens_the_api(mestre_client, mestre):
    key = _request_key(mestre_client.get(ACCOUNT).content.decode())

    response = mestre_client.post(CREATE, {"request_key": key})

    assert response.status_code == 201
    assert "no-store" in response["Cache-Control"]
    page = response.content.decode()
    token = re.search(r'data-testid="token-value" value="([^"]+)"', page).group(1)
    assert "Copie este token agora: ele não será mostrado de novo." in page
    stored = ApiToken.objects.get(user=mestre)
    assert stored.prefix == token[:8] and stored.request_key == key
    assert _api(Client(), token) == 200

    # From now on the page shows its prefix, never the token or its hash.
    later = mestre_client.get(ACCOUNT).content.decode()
    assert f"{stored.prefix}…" in later
    assert token not in later
    assert stored.key_hash not in later
    assert token[:12] not in later  # not even more of it than the stored prefix


def test_the_page_never_shows_the_secret_of_a_token_made_elsewhere(mestre_client, mestre):
    tokens = [api_token_create(user=mestre) for _ in range(3)]  # e.g. by `manage.py api_token`
    page = mestre_client.get(ACCOUNT).content.decode()
    for token in tokens:
        assert token not in page
        assert token[:8] in page


def test_a_double_click_makes_one_token(mestre_client, mestre):
    key = _request_key(mestre_client.get(ACCOUNT).content.decode())
    first = mestre_client.post(CREATE, {"request_key": key})
    second = mestre_client.post(CREATE, {"request_key": key})

    assert first.status_code == 201
    assert second.status_code == 409
    stored = ApiToken.objects.get(user=mestre)
    token = re.search(r'data-testid="token-value" value="([^"]+)"', first.content.decode()).group(1)
    page = second.content.decode()
    assert TOKEN_ALREADY_CREATED.format(prefix=stored.prefix) in page.replace("&#x27;", "'")
    assert token not in page
    assert 'data-testid="new-token"' not in page
    # The one token made is the one the first answer showed, and it works.
    assert _api(Client(), token) == 200
    print(f"account: same form posted twice -> {first.status_code}, {second.status_code}; 1 token")


def test_with_htmx_the_second_click_is_a_409_that_htmx_does_not_swap_in(mestre_client, mestre):
    key = _request_key(mestre_client.get(ACCOUNT).content.decode())
    first = mestre_client.post(CREATE, {"request_key": key}, HTTP_HX_REQUEST="true")
    second = mestre_client.post(CREATE, {"request_key": key}, HTTP_HX_REQUEST="true")
    assert (first.status_code, second.status_code) == (201, 409)
    # The region alone; base.html's htmx-config swaps 2xx and not 4xx (but 422).
    assert "<html" not in first.content.decode()
    assert 'id="tokens"' in first.content.decode()
    assert ApiToken.objects.filter(user=mestre).count() == 1


def test_the_same_form_posted_twice_at_the_same_instant_makes_one_token(mestre):
    api_token_create(user=mestre, request_key="k" * 32)
    # Both requests passed the "already made?" look-up before either wrote: the database's
    # unique constraint is what stops the second.
    with mock.patch.object(QuerySet, "exists", return_value=False):
        with pytest.raises(ServiceError) as refused:
            api_token_create(user=mestre, request_key="k" * 32)
    assert refused.value.code == "idempotency_conflict"
    assert ApiToken.objects.filter(user=mestre).count() == 1


def test_each_page_load_offers_a_new_token(mestre_client, mestre):
    for _ in range(2):
        key = _request_key(mestre_client.get(ACCOUNT).content.decode())
        assert mestre_client.post(CREATE, {"request_key": key}).status_code == 201
    assert ApiToken.objects.filter(user=mestre, revoked_at__isnull=True).count() == 2


def test_the_same_request_key_of_two_users_makes_a_token_each(mestre, arbitro):
    api_token_create(user=mestre, request_key="k" * 32)
    api_token_create(user=arbitro, request_key="k" * 32)
    assert ApiToken.objects.count() == 2


def test_a_revoked_token_gets_401_at_once(mestre_client, mestre):
    token, other = api_token_create(user=mestre), api_token_create(user=mestre)
    stored = ApiToken.objects.get(prefix=token[:8])
    api = Client()
    assert _api(api, token) == 200

    response = mestre_client.post(_revoke_url(stored))

    assert response.status_code == 302 and response["Location"] == ACCOUNT
    assert _api(api, token) == 401
    assert _api(api, other) == 200  # the other token of the same user still works
    stored.refresh_from_db()
    assert stored.revoked_at is not None  # the row stays, stamped
    page = mestre_client.get(ACCOUNT).content.decode()
    assert f"Token {stored.prefix}… revogado: não abre mais a API." in page


def test_revoking_twice_keeps_the_first_time(mestre_client, mestre):
    api_token_create(user=mestre)
    stored = ApiToken.objects.get()
    mestre_client.post(_revoke_url(stored))
    stored.refresh_from_db()
    first = stored.revoked_at
    response = mestre_client.post(_revoke_url(stored), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "já estava revogado" in response.content.decode()
    stored.refresh_from_db()
    assert stored.revoked_at == first


def test_a_user_cannot_revoke_someone_elses_token(client, jogador, mestre):
    token = api_token_create(user=mestre)
    stored = ApiToken.objects.get()
    client.force_login(jogador)
    assert client.post(_revoke_url(stored)).status_code == 404
    nobodys = "00000000-0000-0000-0000-000000000000"
    assert client.post(f"/conta/tokens/{nobodys}/revogar/").status_code == 404
    stored.refresh_from_db()
    assert stored.revoked_at is None
    assert _api(Client(), token) == 200
    # "revoke all" only ever touches the asker's own tokens
    assert client.post(REVOKE_ALL).status_code == 302
    assert _api(Client(), token) == 200


def test_revoke_all_shuts_every_token_of_the_user(mestre_client, mestre):
    tokens = [api_token_create(user=mestre) for _ in range(3)]
    ApiToken.objects.filter(prefix=tokens[0][:8]).update(revoked_at="2026-01-01T00:00:00Z")

    response = mestre_client.post(REVOKE_ALL, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert "2 token(s) revogado(s)." in response.content.decode()
    assert all(_api(Client(), token) == 401 for token in tokens)
    assert ApiToken.objects.filter(user=mestre).count() == 3  # never deleted


def test_revoking_needs_a_post(mestre_client, mestre):
    api_token_create(user=mestre)
    stored = ApiToken.objects.get()
    assert mestre_client.get(_revoke_url(stored)).status_code == 405
    assert mestre_client.get(REVOKE_ALL).status_code == 405
    stored.refresh_from_db()
    assert stored.revoked_at is None


def test_opening_the_create_address_goes_back_to_the_account_page(mestre_client, mestre):
    """Without JavaScript the create form leaves /conta/tokens/ in the address bar; opening it
    again shows the account page and makes no token."""
    response = mestre_client.get(CREATE)
    assert response.status_code == 302
    assert response.url == reverse("account")
    assert not ApiToken.objects.filter(user=mestre).exists()


def test_posts_need_the_csrf_token(mestre):
    client = Client(enforce_csrf_checks=True)
    client.force_login(mestre)
    api_token_create(user=mestre)
    stored = ApiToken.objects.get()
    assert client.post(CREATE).status_code == 403
    assert client.post(_revoke_url(stored)).status_code == 403
    assert client.post(REVOKE_ALL).status_code == 403
    assert ApiToken.objects.count() == 1
    stored.refresh_from_db()
    assert stored.revoked_at is None
