"""The production configuration, run as `make serve` runs it.

Tries: Django's deploy check with the production environment passes with no warning; with
DEBUG off and no DJANGO_SECRET_KEY every manage.py command refuses to start and names the
variable; and the real stack (collectstatic, migrate, seed_demo, gunicorn with two uvicorn
workers on a free port, behind a TLS proxy as the `X-Forwarded-Proto` header says) serves the
login page, logs in with Secure + HttpOnly cookies, serves the hashed stylesheet through
ServeStatic with a long cache header and gzip, answers MCP at /mcp with a bearer token, answers an
unknown URL with the site's 404 page and writes its logs on stdout.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).with_name("gunicorn")
# A ceiling only a hang reaches: a loaded two-core CI took over 20 s to start gunicorn.
HANG_SECONDS = 180


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment `make serve` gives Django, on a SQLite file of this test's own."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "GARGANTA_", "WEB_CONCURRENCY")) and key != "DATABASE_URL"
    }
    env.update(
        DJANGO_SETTINGS_MODULE="garganta_site.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(60),
        DJANGO_ALLOWED_HOSTS="garganta.example,127.0.0.1",
        DJANGO_BEHIND_HTTPS_PROXY="1",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'garganta.sqlite3'}",
    )
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deploy_check_passes_with_the_production_environment(tmp_path):
    done = manage(production_env(tmp_path), "check", "--deploy", "--fail-level", "WARNING")
    print(f"check --deploy: exit {done.returncode}: {done.stdout.strip()}")
    assert done.returncode == 0, done.stdout + done.stderr


def test_deploy_check_fails_on_a_weak_secret_key(tmp_path):
    """The check above can fail: a short key is a warning, and warnings fail the check."""
    done = manage(
        production_env(tmp_path, DJANGO_SECRET_KEY="curta"),  # pragma: allowlist secret
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert done.returncode != 0
    assert "security.W009" in done.stderr, done.stdout + done.stderr


@pytest.mark.parametrize("command", [["check"], ["migrate", "--no-input"], ["seed_demo"]])
def test_without_a_secret_key_debug_off_refuses_to_start(tmp_path, command):
    env = production_env(tmp_path)
    del env["DJANGO_SECRET_KEY"]
    done = manage(env, *command)
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in done.stderr, done.stderr
    assert not (tmp_path / "garganta.sqlite3").exists(), "nothing ran before the refusal"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Client:
    """HTTP on loopback as the TLS proxy forwards it: the browser's cookies, by hand.

    The cookies are Secure, so a client speaking plain HTTP would (rightly) keep them to
    itself; the proxy in front is what makes the connection HTTPS for the browser.
    """

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.set_cookies: list[SimpleCookie] = []

    def request(self, method: str, path: str, body: dict | None = None, **headers: str):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HANG_SECONDS)
        all_headers = {
            "Host": f"127.0.0.1:{self.port}",
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": "203.0.113.7",
            **headers,
        }
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urlencode(body)
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
            all_headers["Origin"] = f"https://127.0.0.1:{self.port}"
        conn.request(method, path, body=data, headers=all_headers)
        response = conn.getresponse()
        content = response.read()
        for header in response.msg.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            self.set_cookies.append(cookie)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        conn.close()
        return response, content.decode("utf-8", "replace")

    def request_json(self, method: str, path: str, body, **headers: str):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HANG_SECONDS)
        all_headers = {"Host": f"127.0.0.1:{self.port}", "X-Forwarded-Proto": "https", **headers}
        conn.request(method, path, body=json.dumps(body), headers=all_headers)
        response = conn.getresponse()
        content = response.read().decode("utf-8", "replace")
        conn.close()
        return response, content

    def morsel(self, name: str):
        found = [c[name] for c in self.set_cookies if name in c]
        assert found, f"no Set-Cookie for {name}"
        return found[-1]


@pytest.fixture
def gunicorn_site(tmp_path):
    """collectstatic + migrate + seed_demo, then gunicorn with two workers on a free port."""
    env = production_env(tmp_path, WEB_CONCURRENCY="2")
    collect = subprocess.Popen(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # migrate + seed_demo in one process (one Django start less), while collectstatic runs.
    done = manage(
        env,
        "shell",
        "-c",
        "from django.core.management import call_command; "
        "call_command('migrate', interactive=False, verbosity=0); call_command('seed_demo')",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out, _ = collect.communicate(timeout=120)
    assert collect.returncode == 0, out

    port = free_port()
    env["GARGANTA_BIND"] = f"127.0.0.1:{port}"
    stdout_path, stderr_path = tmp_path / "stdout.log", tmp_path / "stderr.log"
    with open(stdout_path, "w") as stdout, open(stderr_path, "w") as stderr:
        server = subprocess.Popen(
            [str(GUNICORN), "--config", "gunicorn.conf.py"],
            cwd=ROOT,
            env=env,
            stdout=stdout,
            stderr=stderr,
        )
    try:
        # Waits for the socket to listen; the ceiling is for a hang, not for a slow machine.
        deadline = time.monotonic() + HANG_SECONDS
        while True:
            assert server.poll() is None, f"gunicorn exited: {stderr_path.read_text()}"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, f"gunicorn did not listen in {HANG_SECONDS} s"
                time.sleep(0.1)
        yield port, stdout_path, stderr_path, server
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=HANG_SECONDS)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


MCP_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}


def test_the_production_stack_serves_the_site(gunicorn_site, tmp_path):
    port, stdout_path, stderr_path, server = gunicorn_site
    client = Client(port)
    made = manage(production_env(tmp_path), "api_token", "mestre")
    assert made.returncode == 0, made.stderr
    mcp_token = made.stdout.strip()

    # Without the proxy's header the site insists on HTTPS.
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_SECONDS)
    conn.request("GET", "/entrar/", headers={"Host": f"127.0.0.1:{port}"})
    plain = conn.getresponse()
    plain.read()
    conn.close()
    assert plain.status == 301
    assert plain.getheader("Location") == f"https://127.0.0.1:{port}/entrar/"

    response, page = client.request("GET", "/entrar/")
    assert response.status == 200
    assert "max-age=3600" in response.getheader("Strict-Transport-Security")
    assert client.morsel("csrftoken")["secure"]

    # The login: a session cookie the browser sends only over HTTPS and never shows to scripts.
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response, _ = client.request(
        "POST",
        "/entrar/",
        {"csrfmiddlewaretoken": token, "username": "jogador", "password": "garganta"},
    )
    assert response.status == 302, response.status
    session = client.morsel("sessionid")
    assert session["secure"] and session["httponly"]
    response, home = client.request("GET", "/")
    assert response.status == 200
    assert "Jurado de Gapheim" in home

    # The stylesheet: collectstatic's hashed name, served by ServeStatic, cached for years.
    href = re.search(r'href="(/static/garganta\.[0-9a-f]{12}\.css)"', home)
    assert href, "the stylesheet's link has no hashed name"
    response, css = client.request("GET", href.group(1))
    assert response.status == 200
    assert "text/css" in response.getheader("Content-Type")
    cache = response.getheader("Cache-Control")
    assert "immutable" in cache and int(re.search(r"max-age=(\d+)", cache).group(1)) >= 31536000
    response, _ = client.request("GET", href.group(1), **{"Accept-Encoding": "gzip"})
    assert response.getheader("Content-Encoding") == "gzip"

    # MCP on the same address: refused without a token, the tools listed with one.
    mcp_headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    response, _ = client.request_json("POST", "/mcp", MCP_LIST, **mcp_headers)
    assert response.status == 401
    response, listed = client.request_json(
        "POST", "/mcp", MCP_LIST, Authorization=f"Bearer {mcp_token}", **mcp_headers
    )
    assert response.status == 200, listed
    assert "roll_check" in listed and "campaign_overview" in listed

    # An unknown page: the site's 404, no traceback, no debug page.
    response, missing = client.request("GET", "/nao-existe/")
    assert response.status == 404
    assert "Não encontrado" in missing
    assert "Traceback" not in missing and "URLconf" not in missing

    server.send_signal(signal.SIGTERM)
    server.wait(timeout=HANG_SECONDS)
    stdout = stdout_path.read_text()
    stderr = stderr_path.read_text()
    print(
        f"gunicorn on :{port}: login, hashed css ({len(css)} bytes), 404; "
        f"{len(stdout.splitlines())} log lines on stdout"
    )
    # Access lines (gunicorn) and Django's own log lines, both on stdout.
    # uvicorn takes the client's address from the proxy's X-Forwarded-For.
    assert re.search(r'203\.0\.113\.7:\d+ - "GET /entrar/ HTTP/1\.1" 200', stdout), stdout
    assert re.search(r'"POST /entrar/ HTTP/1\.1" 302', stdout), stdout
    assert re.search(r'"POST /mcp HTTP/1\.1" 200', stdout), stdout
    assert "WARNING django.request Not Found: /nao-existe/" in stdout, stdout
    # gunicorn's own messages go to stderr: two workers booted, then a clean shutdown.
    assert stderr.count("Booting worker") == 2, stderr
    assert "Shutting down" in stderr, stderr
    assert "Control socket" not in stderr, "a second gunicorn would take over its socket"
    assert "Traceback" not in stdout + stderr
