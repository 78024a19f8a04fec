"""Failed logins are limited by django-axes: 5 wrong passwords for one username from one address
lock that pair out for 15 minutes, with the site's own pt-BR page and status 429.

Tries, with the Django test client and ``REMOTE_ADDR`` (never ``client.login()``: axes needs
the request): the first failures still get the login form's own error; the fifth locks, and
then even the right password is refused and nobody is logged in; another user from the same
address and the same user from another address still get in; ``axes_reset`` and an expired
cool-off let the user in again; a success resets the count; the admin's login is held by the
same lock; a bad bearer token on the API is a 401, not a failed password login, and many of
them lock nothing. Behind the proxy (``DJANGO_BEHIND_HTTPS_PROXY=1``) the address is the one
the proxy appended to X-Forwarded-For, and a client cannot escape the lock by writing its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from io import StringIO

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from garganta_site.demo import DEMO_PASSWORD

LOCKED = "Muitas tentativas de entrada erradas com este usuário. Tente de novo em 15 minutos."
WRONG = "Usuário ou senha não conferem."  # templates/login.html
ALICE_IP = "10.0.0.1"
BOB_IP = "10.0.0.2"


def _login(client, username, password, ip=ALICE_IP, **extra):
    return client.post(
        "/entrar/", {"username": username, "password": password}, REMOTE_ADDR=ip, **extra
    )


def _fail(client, username, times, ip=ALICE_IP, **extra):
    return [_login(client, username, "errada", ip, **extra) for _ in range(times)]


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_the_settings_are_the_ones_this_file_tests():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME == timedelta(minutes=15)
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_LOCKOUT_TEMPLATE == "lockout.html"


def test_the_first_four_failures_get_the_login_forms_own_error(client, jogador):
    responses = _fail(client, "jogador", 4)
    assert [r.status_code for r in responses] == [200, 200, 200, 200]
    for response in responses:
        assert WRONG in response.content.decode()
        assert LOCKED not in response.content.decode()
    assert AccessAttempt.objects.get(username="jogador").failures_since_start == 4


def test_five_failures_lock_the_user_out_even_with_the_right_password(client, jogador):
    *first, fifth = _fail(client, "jogador", 5)
    assert [r.status_code for r in first] == [200, 200, 200, 200]
    # The fifth failure already answers with the lockout page.
    assert fifth.status_code == 429
    assert LOCKED in fifth.content.decode()

    response = _login(client, "jogador", DEMO_PASSWORD)

    assert response.status_code == 429
    page = response.content.decode()
    assert LOCKED in page
    assert '<html lang="pt-BR">' in page  # the site's layout, not axes' bare line
    assert "Entrada bloqueada" in page
    assert "lockout.html" in [t.name for t in response.templates]
    assert not _logged_in(client)
    assert client.get("/").status_code == 302  # home still sends them to the login


def test_the_admin_login_is_held_by_the_same_lock(client, jogador):
    jogador.is_staff = True
    jogador.save(update_fields=["is_staff"])
    _fail(client, "jogador", 5)
    response = client.post(
        "/admin/login/", {"username": "jogador", "password": DEMO_PASSWORD}, REMOTE_ADDR=ALICE_IP
    )
    assert response.status_code == 429
    assert not _logged_in(client)


def test_another_user_from_the_same_address_is_not_locked(client, jogador, jogadora):
    _fail(client, "jogador", 5)
    response = _login(client, "jogadora", DEMO_PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(jogadora.pk)


def test_the_same_user_from_another_address_is_not_locked(client, jogador):
    _fail(client, "jogador", 5, ip=ALICE_IP)
    response = _login(client, "jogador", DEMO_PASSWORD, ip=BOB_IP)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(jogador.pk)
    # ...and from the locked address it is still refused.
    client.logout()
    assert _login(client, "jogador", DEMO_PASSWORD, ip=ALICE_IP).status_code == 429


def test_axes_reset_lets_the_user_in_again(client, jogador):
    _fail(client, "jogador", 5)
    assert _login(client, "jogador", DEMO_PASSWORD).status_code == 429
    out = StringIO()
    call_command("axes_reset", stdout=out)
    assert "1 attempts removed" in out.getvalue()
    response = _login(client, "jogador", DEMO_PASSWORD)
    assert response.status_code == 302
    assert _logged_in(client)


def test_the_cool_off_ending_lets_the_user_in_again(client, jogador):
    _fail(client, "jogador", 5)
    # 14 minutes later: still locked (and this failure restarts the cool-off clock).
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=14))
    assert _login(client, "jogador", DEMO_PASSWORD).status_code == 429
    # 16 minutes after the last failure: the attempt has expired.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    response = _login(client, "jogador", DEMO_PASSWORD)
    assert response.status_code == 302
    assert _logged_in(client)


def test_a_successful_login_resets_the_count(client, jogador):
    _fail(client, "jogador", 4)
    assert _login(client, "jogador", DEMO_PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="jogador").exists()
    client.post("/sair/")
    # Four more failures: had the count not been reset, the first would have locked.
    responses = _fail(client, "jogador", 4)
    assert [r.status_code for r in responses] == [200, 200, 200, 200]
    assert _login(client, "jogador", DEMO_PASSWORD).status_code == 302


def test_an_invalid_bearer_is_a_401_and_never_locks_the_password_login(client, jogador):
    for attempt in range(20):
        response = client.get(
            "/api/v1/sheets",
            HTTP_AUTHORIZATION=f"Bearer nao-e-um-token-{attempt}",
            REMOTE_ADDR=ALICE_IP,
        )
        assert response.status_code == 401
        assert response.json()["code"] == "unauthenticated"
    # The bearer path never goes through authenticate(): axes saw no failed login at all.
    assert not AccessAttempt.objects.exists()
    response = _login(client, "jogador", DEMO_PASSWORD)
    assert response.status_code == 302
    print("login limits: 20 invalid bearers -> 20 x 401, 0 axes attempts, password login works")


# --- behind the HTTPS proxy ------------------------------------------------------------------

BEHIND_PROXY = {
    "AXES_IPWARE_META_PRECEDENCE_ORDER": ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"),
    "AXES_IPWARE_PROXY_ORDER": "left-most",
    "AXES_IPWARE_PROXY_COUNT": 0,
    "IPWARE_STRICT": False,
}


def _settings_under(env: dict[str, str]) -> dict[str, str]:
    """The proxy-related settings as a fresh interpreter reads them under ``env``."""
    code = (
        "import garganta_site.settings as s\n"
        "for name in ('AXES_IPWARE_META_PRECEDENCE_ORDER', 'AXES_IPWARE_PROXY_ORDER',"
        " 'AXES_IPWARE_PROXY_COUNT', 'IPWARE_STRICT'):\n"
        "    print(name, repr(getattr(s, name, None)))\n"
    )
    base = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, "DJANGO_DEBUG": "1", **env},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(line.split(" ", 1) for line in result.stdout.splitlines())


def test_the_proxy_settings_are_set_only_behind_the_proxy():
    direct = _settings_under({})
    assert set(direct.values()) == {"None"}, direct
    behind = _settings_under({"DJANGO_BEHIND_HTTPS_PROXY": "1"})
    assert behind == {name: repr(value) for name, value in BEHIND_PROXY.items()}


def test_axes_reads_the_address_through_ipware():
    # Without django-ipware the AXES_IPWARE_* settings would be silently ignored.
    from axes import helpers

    assert helpers.IPWARE_INSTALLED


@override_settings(**BEHIND_PROXY)
def test_behind_the_proxy_each_client_address_has_its_own_count(client, jogador):
    proxy = "127.0.0.1"  # every request reaches gunicorn from the proxy
    _fail(client, "jogador", 5, ip=proxy, HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert AccessAttempt.objects.get().ip_address == "203.0.113.9"
    response = _login(
        client, "jogador", DEMO_PASSWORD, ip=proxy, HTTP_X_FORWARDED_FOR="203.0.113.7"
    )
    assert response.status_code == 302


@override_settings(**BEHIND_PROXY)
def test_behind_the_proxy_a_forged_forwarded_for_does_not_escape_the_lock(client, jogador):
    proxy = "127.0.0.1"
    _fail(client, "jogador", 5, ip=proxy, HTTP_X_FORWARDED_FOR="203.0.113.9")
    # The locked client writes its own X-Forwarded-For; the proxy appends the real address.
    for forged in ("198.51.100.1", "198.51.100.1, 10.9.9.9", "lixo"):
        response = _login(
            client,
            "jogador",
            DEMO_PASSWORD,
            ip=proxy,
            HTTP_X_FORWARDED_FOR=f"{forged}, 203.0.113.9",
        )
        assert response.status_code == 429, forged
    assert not _logged_in(client)


@pytest.mark.parametrize("header", ["", "lixo"])
@override_settings(**BEHIND_PROXY)
def test_behind_the_proxy_a_missing_or_bad_header_falls_back_to_remote_addr(
    client, jogador, header
):
    extra = {"HTTP_X_FORWARDED_FOR": header} if header else {}
    _fail(client, "jogador", 1, ip="192.0.2.50", **extra)
    assert AccessAttempt.objects.get().ip_address == "192.0.2.50"
