"""The real site in real processes: a fresh database, ``migrate``, ``seed_demo``, gunicorn.

``running_site()`` is a context manager for the live tests (tests/live/) and the benchmark
(bench/run.py); nothing here imports pytest. It

1. makes a FRESH database of the backend in use — Django's settings when they are configured
   (a pytest run), else ``DATABASE_URL`` — or of ``backend="sqlite"|"postgresql"``: SQLite is
   a file in a temporary folder; PostgreSQL is a new database ``garganta_live_<random>`` on
   the server of the current database, created and dropped with psycopg;
2. runs ``manage.py migrate``, ``collectstatic`` and ``seed_demo`` in subprocesses with that
   ``DATABASE_URL``, and creates Bearer tokens for the demo users asked for;
3. starts ``gunicorn garganta_site.asgi`` (uvicorn workers, as in production) with N workers on a free 127.0.0.1 port, with the
   production settings (DJANGO_DEBUG=0, a random secret key), and waits until it answers;
4. yields a :class:`Site` (base URL, tokens, pids, ``kill_workers()``, ``restart()``,
   ``request()``, ``browser()``, ``query()``, ``writer_in_transaction()`` …);
5. on exit stops gunicorn and drops the database.

HTTP clients use only the standard library (http.client, urllib) with timeouts.
"""

from __future__ import annotations

import atexit
import contextlib
import http.client
import http.cookiejar
import json
import os
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
PYTHON = str(_VENV_PYTHON if _VENV_PYTHON.exists() else Path(sys.executable))
GUNICORN = str(Path(PYTHON).with_name("gunicorn"))
DB_PREFIX = "garganta_live_"
SQLITE = "sqlite"
POSTGRESQL = "postgresql"
# What gunicorn serves, and with which workers.
SERVERS = {
    "asgi": ("garganta_site.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker"),
    "wsgi": ("garganta_site.wsgi:application", "--worker-class", "sync"),
}


class SiteError(RuntimeError):
    """The site could not be set up or did not come back."""


# --- which database ---------------------------------------------------------------------------


def current_database() -> dict:
    """The default database of this process, as Django's settings dict (ENGINE, NAME, HOST…):
    the configured settings when there are (a pytest run, a script after django.setup()),
    else ``DATABASE_URL`` parsed the way the settings parse it."""
    try:
        from django.conf import settings

        if settings.configured:
            return dict(settings.DATABASES["default"])
    except ImportError:  # pragma: no cover - Django is a dependency
        pass
    import dj_database_url

    return dict(dj_database_url.parse(os.environ.get("DATABASE_URL", "sqlite:///unused")))


def current_backend() -> str:
    engine = current_database().get("ENGINE", "")
    return POSTGRESQL if "postgresql" in engine else SQLITE


class _SqliteDatabase:
    backend = SQLITE

    def __init__(self, folder: Path) -> None:
        self.path = folder / "site.sqlite3"
        self.url = f"sqlite:///{self.path}"
        self.name = str(self.path)
        self.server = ""
        self._poller: sqlite3.Connection | None = None

    def create(self, template: str | None = None) -> None:
        if template:
            shutil.copyfile(template, self.path)

    def save_as_template(self) -> str:
        """A consistent copy of the database (sqlite3's backup API), to start the next site
        of this process from."""
        target = Path(tempfile.mkdtemp(prefix=DB_PREFIX + "tpl_")) / "template.sqlite3"
        with (
            contextlib.closing(self.connect()) as source,
            contextlib.closing(sqlite3.connect(target)) as copy,
        ):
            source.backup(copy)
        atexit.register(shutil.rmtree, target.parent, True)
        return str(target)

    def drop(self) -> None:
        self.close()  # the file goes with the temporary folder

    def connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=20, isolation_level=None)

    def query(self, sql: str, params=()) -> list[tuple]:
        with contextlib.closing(self.connect()) as conn:
            return conn.execute(sql.replace("%s", "?"), params).fetchall()

    def writer_in_transaction(self) -> bool:
        """True when another connection holds the write lock: it is inside a write transaction
        (the site's SQLite transactions start with BEGIN IMMEDIATE). Tried with BEGIN IMMEDIATE
        and no wait; when it succeeds the lock is given back at once."""
        if self._poller is None:
            self._poller = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        try:
            self._poller.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                return True
            raise
        self._poller.execute("ROLLBACK")
        return False

    def close(self) -> None:
        if self._poller is not None:
            self._poller.close()
            self._poller = None


class _PostgresDatabase:
    backend = POSTGRESQL

    def __init__(self, conf: dict) -> None:
        self.conf = {
            "host": conf.get("HOST") or "127.0.0.1",
            "port": int(conf.get("PORT") or 5432),
            "user": conf.get("USER") or "postgres",
            "password": conf.get("PASSWORD") or None,
        }
        self.name = DB_PREFIX + secrets.token_hex(5)
        self.server = f"{self.conf['host']}:{self.conf['port']}"
        auth = urllib.parse.quote(self.conf["user"])
        if self.conf["password"]:
            auth += ":" + urllib.parse.quote(self.conf["password"])
        self.url = f"postgres://{auth}@{self.conf['host']}:{self.conf['port']}/{self.name}"
        self._poller = None

    def _connect(self, dbname: str, **kwargs):
        import psycopg

        return psycopg.connect(dbname=dbname, autocommit=True, connect_timeout=5, **self.conf)

    def create(self, template: str | None = None) -> None:
        with self._connect("postgres") as conn:
            if template:
                conn.execute(f'CREATE DATABASE "{self.name}" TEMPLATE "{template}"')
            else:
                conn.execute(f'CREATE DATABASE "{self.name}"')

    def save_as_template(self) -> str:
        """A copy of the database (nobody connected to it yet), to start the next site of
        this process from; dropped when the process ends."""
        template = DB_PREFIX + "tpl_" + secrets.token_hex(5)
        with self._connect("postgres") as conn:
            conn.execute(f'CREATE DATABASE "{template}" TEMPLATE "{self.name}"')

        def drop_template() -> None:
            with contextlib.suppress(Exception), self._connect("postgres") as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)')

        atexit.register(drop_template)
        return template

    def drop(self) -> None:
        self.close()
        deadline = time.monotonic() + 30
        while True:
            try:
                with self._connect("postgres") as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
                return
            except Exception:
                # A cluster being restarted by a test comes back in a few seconds.
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def query(self, sql: str, params=()) -> list[tuple]:
        with self._connect(self.name) as conn:
            return conn.execute(sql, params).fetchall()

    def writer_in_transaction(self) -> bool:
        """True when a backend of the site's database (other than this poller) is inside a
        transaction that writes: ``xact_start`` set and a transaction id assigned (a row was
        written or locked FOR UPDATE), or idle between the statements of an open BEGIN."""
        import psycopg

        for attempt in (1, 2):
            try:
                if self._poller is None or self._poller.closed:
                    self._poller = self._connect(self.name)
                row = self._poller.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s"
                    " AND pid <> pg_backend_pid() AND xact_start IS NOT NULL"
                    " AND (backend_xid IS NOT NULL OR state LIKE 'idle in transaction%%')",
                    (self.name,),
                ).fetchone()
                return row[0] > 0
            except psycopg.OperationalError:
                self.close()
                if attempt == 2:
                    raise
        return False

    def close(self) -> None:
        if self._poller is not None:
            with contextlib.suppress(Exception):
                self._poller.close()
            self._poller = None


# --- HTTP -------------------------------------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def is_json(self) -> bool:
        return self.headers.get("content-type", "").startswith("application/json")

    def json(self):
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # urllib then raises HTTPError with the 3xx, which _open returns


class Browser:
    """A person's browser, in the standard library: cookies, CSRF token, redirects followed."""

    def __init__(self, base_url: str, timeout: float = 15) -> None:
        self.base_url = base_url
        self.timeout = timeout
        self.cookies = http.cookiejar.CookieJar()
        cookies = urllib.request.HTTPCookieProcessor(self.cookies)
        self._opener = urllib.request.build_opener(cookies)
        self._opener_no_redirect = urllib.request.build_opener(cookies, _NoRedirect)

    def _cookie(self, name: str) -> str:
        for cookie in self.cookies:
            if cookie.name == name:
                return cookie.value
        return ""

    def _open(self, request: urllib.request.Request, follow: bool = True) -> tuple[int, str, str]:
        opener = self._opener if follow else self._opener_no_redirect
        try:
            with opener.open(request, timeout=self.timeout) as answer:
                return answer.status, answer.geturl(), answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            where = error.headers.get("Location") or error.geturl()
            return error.code, where, error.read().decode("utf-8", "replace")

    def get(self, path: str) -> tuple[int, str, str]:
        """(status, final URL, page) after the redirects."""
        return self._open(urllib.request.Request(self.base_url + path))

    def post(
        self, path: str, data: dict | list[tuple[str, str]], *, follow: bool = True
    ) -> tuple[int, str, str]:
        """A form posted with the CSRF token, as the page posts it; (status, final URL, page)
        after the redirects, or with ``follow=False`` the answer itself (a 302: the
        ``Location`` for URL)."""
        if not self._cookie("csrftoken"):
            self.get("/entrar/")
        fields = list(data.items()) if isinstance(data, dict) else list(data)
        fields.append(("csrfmiddlewaretoken", self._cookie("csrftoken")))
        body = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(
            self.base_url + path,
            data=body,
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        return self._open(request, follow)

    def login(self, username: str, password: str) -> None:
        self.get("/entrar/")
        self.post("/entrar/", {"username": username, "password": password})
        if not self._cookie("sessionid"):
            raise SiteError(f"login as {username} failed")


class EventStream:
    """An open Server-Sent Events stream: ``next_event()`` reads until the next event."""

    def __init__(self, conn: http.client.HTTPConnection, answer: http.client.HTTPResponse):
        self.conn, self.answer = conn, answer

    def next_event(self) -> tuple[str, str]:
        """(event, data) of the next event (heartbeats and the retry line skipped); raises
        TimeoutError when none comes within the connection's timeout."""
        event, data = "", ""
        while True:
            line = self.answer.readline().decode()
            if not line:
                raise SiteError("the stream ended")
            line = line.rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data = line[5:].strip()
            elif line == "" and event:
                return event, data

    def close(self) -> None:
        self.conn.close()


# --- the site ---------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(part) for part in text.split()]


class Site:
    """A running site. Made by :func:`running_site`; see the module's docstring."""

    def __init__(
        self,
        database,
        folder: Path,
        *,
        workers: int,
        threads: int,
        timeout: int,
        preload: bool = True,
        server: str = "asgi",
    ):
        self.database = database
        self.server = server
        self.backend: str = database.backend
        self.database_url: str = database.url
        self.folder = folder
        self.workers = workers
        self.threads = threads
        self.worker_timeout = timeout
        self.preload = preload
        self.host = "127.0.0.1"
        self.port = _free_port()
        self.base_url = f"http://{self.host}:{self.port}"
        self.tokens: dict[str, str] = {}
        self.log_path = folder / "gunicorn.log"
        self._process: subprocess.Popen | None = None
        self.env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "DJANGO_SETTINGS_MODULE": "garganta_site.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_COOKIES": "0",
            "DJANGO_BEHIND_HTTPS_PROXY": "0",  # plain HTTP on 127.0.0.1, no TLS proxy
            "DJANGO_LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }

    # -- commands against the site's database

    def manage(self, *args: str, check: bool = True, timeout: float = 180) -> str:
        """``manage.py ARGS`` with the site's environment; its stdout."""
        done = subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if check and done.returncode != 0:
            raise SiteError(
                f"manage.py {' '.join(args)} failed ({done.returncode}):\n"
                f"{done.stdout}\n{done.stderr}"
            )
        return done.stdout

    def shell(self, code: str) -> str:
        """Python run by ``manage.py shell -c`` on the site's database; its stdout."""
        return self.manage("shell", "-c", code)

    def prepare(self, setup: str = "", tokens=()) -> dict[str, str]:
        """In one ``manage.py shell``: run ``setup`` (Python), then make a Bearer token for
        each username of ``tokens`` (``self.tokens[name]``)."""
        names = list(tokens)
        out = self.shell(
            f"{setup}\n"
            "import json\n"
            "from django.contrib.auth import get_user_model\n"
            "from campaigns.auth import api_token_create\n"
            f"names = {names!r}\n"
            "U = get_user_model()\n"
            "tokens = {n: api_token_create(user=U.objects.get(username=n)) for n in names}\n"
            "print('TOKENS=' + json.dumps(tokens))\n"
        )
        found = re.search(r"^TOKENS=(.*)$", out, re.M)
        if found is None:
            raise SiteError(f"no tokens in: {out!r}")
        self.tokens.update(json.loads(found.group(1)))
        return self.tokens

    def verify_rolls(self) -> str:
        """``manage.py verify_rolls``'s output; raises SiteError when the chain is broken."""
        return self.manage("verify_rolls").strip()

    def query(self, sql: str, params=()) -> list[tuple]:
        """A query on the site's database from this process (``%s`` placeholders)."""
        return self.database.query(sql, params)

    def writer_in_transaction(self) -> bool:
        """Is a write transaction of the site open right now? (see each backend's method)"""
        return self.database.writer_in_transaction()

    # -- HTTP

    def request(
        self,
        method: str,
        path: str,
        body=None,
        *,
        token: str | None = None,
        user: str | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 15,
    ) -> Response:
        """One request on a new connection. ``user`` picks a token from ``self.tokens``.
        Raises OSError (refused, reset, timeout) and http.client errors as they come."""
        sent = dict(headers or {})
        if user is not None:
            token = self.tokens[user]
        if token:
            sent["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.request(method, path, body=data, headers=sent)
            answer = conn.getresponse()
            return Response(
                answer.status,
                {k.lower(): v for k, v in answer.getheaders()},
                answer.read(),
            )
        finally:
            conn.close()

    def browser(self, username: str | None = None, password: str = "garganta") -> Browser:
        """A cookie-keeping browser, logged in as ``username`` when given."""
        browser = Browser(self.base_url)
        if username:
            browser.login(username, password)
        return browser

    # -- processes

    @property
    def master_pid(self) -> int | None:
        return self._process.pid if self._process else None

    @property
    def worker_pids(self) -> list[int]:
        return _children(self.master_pid) if self.master_pid else []

    def start(self, ready_timeout: float = 60) -> None:
        log = open(self.log_path, "ab")  # handed to the child
        if self.server not in SERVERS:
            raise ValueError(f"server must be one of {sorted(SERVERS)}, not {self.server!r}")
        command = [
            GUNICORN,
            # As in production (gunicorn.conf.py): ASGI, uvicorn workers. garganta_site.asgi
            # loads the URLconf at import: with --preload the master holds it, so a worker
            # forked after a kill answers at once. server="wsgi": the same code under
            # gunicorn's sync workers, to compare (the benchmark).
            *SERVERS[self.server],
            "--bind",
            f"{self.host}:{self.port}",
            "--workers",
            str(self.workers),
            "--threads",
            str(self.threads),
            "--timeout",
            str(self.worker_timeout),
            "--graceful-timeout",
            "3",
            "--chdir",
            str(ROOT),
            *(["--preload"] if self.preload else []),
        ]
        try:
            self._process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        finally:
            log.close()
        self.wait_ready(ready_timeout)

    def wait_ready(self, timeout: float = 60) -> float:
        """Wait until the site answers (the login page, 200) and all its workers exist;
        the seconds it took."""
        started = time.monotonic()
        deadline = started + timeout
        while time.monotonic() < deadline:
            if self._process is None or self._process.poll() is not None:
                raise SiteError(f"gunicorn exited; log:\n{self.log_tail()}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                if (
                    self.request("GET", "/entrar/", timeout=5).status == 200
                    and len(self.worker_pids) >= self.workers
                ):
                    return time.monotonic() - started
            time.sleep(0.05)
        raise SiteError(f"the site did not answer in {timeout} s; log:\n{self.log_tail()}")

    def kill_workers(self) -> list[int]:
        """SIGKILL every worker (the master starts new ones); the pids killed."""
        pids = self.worker_pids
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return pids

    def _kill_all(self) -> None:
        if self._process is None:
            return
        pids = [*self.worker_pids, self._process.pid]
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self._process.wait(timeout=10)
        # Workers notice their master is gone; wait until none is left holding the port.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() for p in pids):
            time.sleep(0.02)
        self._process = None

    def restart(self, ready_timeout: float = 60) -> None:
        """SIGKILL the master and its workers, then start again on the same port and DB."""
        self._kill_all()
        self.start(ready_timeout)

    def stop(self) -> None:
        if self._process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._kill_all()
        self._process = None

    @contextlib.contextmanager
    def twin(self, workers: int | None = None) -> Iterator[Site]:
        """A second app server on the same database (as on a second machine): another
        gunicorn, its own port, the same tokens."""
        folder = Path(tempfile.mkdtemp(prefix=DB_PREFIX))
        other = Site(
            self.database,
            folder,
            workers=workers or self.workers,
            threads=self.threads,
            timeout=self.worker_timeout,
            preload=self.preload,
            server=self.server,
        )
        other.tokens = dict(self.tokens)
        other.env["DJANGO_STATIC_ROOT"] = self.env.get("DJANGO_STATIC_ROOT", "")
        try:
            other.start()
            yield other
        finally:
            try:
                other.stop()
            finally:
                shutil.rmtree(folder, ignore_errors=True)

    def events(self, browser: Browser, path: str, timeout: float = 10) -> EventStream:
        """Open the Server-Sent Events stream at ``path`` with ``browser``'s session."""
        cookie = "; ".join(f"{c.name}={c.value}" for c in browser.cookies)
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        conn.request("GET", path, headers={"Cookie": cookie, "Accept": "text/event-stream"})
        answer = conn.getresponse()
        if answer.status != 200:
            raise SiteError(f"GET {path}: {answer.status}")
        return EventStream(conn, answer)

    def log_tail(self, chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


_STATIC_ROOT: list[str] = []


def _collectstatic(site: Site) -> None:
    """DJANGO_DEBUG=0 serves the hashed files of collectstatic's manifest: collect them once
    per process, into a temporary DJANGO_STATIC_ROOT (the repository's var/ is left alone)."""
    if not _STATIC_ROOT:
        folder = tempfile.mkdtemp(prefix=DB_PREFIX + "static_")
        atexit.register(shutil.rmtree, folder, True)
        site.env["DJANGO_STATIC_ROOT"] = folder
        site.manage("collectstatic", "--no-input", "-v0")
        _STATIC_ROOT.append(folder)
    site.env["DJANGO_STATIC_ROOT"] = _STATIC_ROOT[0]


_TEMPLATES: dict[tuple[str, str], str] = {}


@contextlib.contextmanager
def running_site(
    workers: int = 4,
    threads: int = 1,
    *,
    backend: str | None = None,
    tokens=("mestre",),
    setup: str = "",
    timeout: int = 30,
    preload: bool = True,
    database_url: str | None = None,
    server: str = "asgi",
    env: dict[str, str] | None = None,
) -> Iterator[Site]:
    """A fresh database with the demo campaign and gunicorn serving it; see the module.

    ``tokens``: demo usernames to make Bearer tokens for (``site.tokens[name]``).
    ``setup``: Python run by ``manage.py shell -c`` after the seed, before the tokens are
    made (e.g. another member). ``timeout``: gunicorn's worker timeout, in seconds.
    ``preload``: gunicorn loads the application once in its master, so a killed worker is
    replaced at once by a fork (as a production server is usually run).
    ``database_url``: the PostgreSQL server to make the database on, instead of the current
    one (the benchmark measures in-process on SQLite and serves from PostgreSQL).
    ``server``: ``"asgi"`` as in production, or ``"wsgi"`` (gunicorn's sync workers over
    garganta_site.wsgi; ``site.server`` may change between ``stop()`` and ``start()``).
    ``env``: more environment for the site's processes.
    """
    backend = backend or current_backend()
    folder = Path(tempfile.mkdtemp(prefix=DB_PREFIX))
    if backend == SQLITE:
        database = _SqliteDatabase(folder)
    elif backend == POSTGRESQL:
        conf = current_database()
        if database_url:
            import dj_database_url

            conf = dict(dj_database_url.parse(database_url))
        if "postgresql" not in conf.get("ENGINE", ""):
            conf = {}  # the default server: 127.0.0.1:5432 as postgres
        database = _PostgresDatabase(conf)
    else:
        raise ValueError(f"backend must be {SQLITE!r} or {POSTGRESQL!r}, not {backend!r}")
    site = Site(
        database,
        folder,
        workers=workers,
        threads=threads,
        timeout=timeout,
        preload=preload,
        server=server,
    )
    site.env.update(env or {})
    # The first site of a process migrates and seeds; the next ones start from a copy of it.
    template_key = (backend, database.server)
    template = _TEMPLATES.get(template_key)
    database.create(template)
    try:
        if template is None:
            site.shell(
                "from django.core.management import call_command\n"
                "call_command('migrate', interactive=False, verbosity=0)\n"
                "call_command('seed_demo', verbosity=0)\n"
            )
            _TEMPLATES[template_key] = database.save_as_template()
        _collectstatic(site)
        if setup or tokens:
            site.prepare(setup, tokens)
        for attempt in range(3):
            try:
                site.start()
                break
            except SiteError:
                # Another process took the free port between the look and gunicorn's bind.
                if attempt == 2 or "Address already in use" not in site.log_tail():
                    raise
                site.port = _free_port()
                site.base_url = f"http://{site.host}:{site.port}"
        yield site
    finally:
        try:
            site.stop()
        finally:
            try:
                database.drop()
            finally:
                shutil.rmtree(folder, ignore_errors=True)
