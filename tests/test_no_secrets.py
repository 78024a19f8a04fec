"""No secret in the repository.

Tries every file git tracks (skipped outside a git checkout) with Yelp's detect-secrets
(private keys, the token formats of the big services, JWTs, ``password = "…"``-style
assignments, high-entropy quoted strings such as a pasted API token of this site), plus two
things it does not know: Portuguese ``senha = "…"`` and a bearer token written out. Allowed: the
demo password (``garganta_site.demo.DEMO_PASSWORD``) and the development SECRET_KEY, in settings.py only,
which settings use only with DEBUG on (checked here: with DJANGO_DEBUG=0 and no key they refuse
to load). A deliberate fake elsewhere must say so on its line with detect-secrets' own marker,
``# pragma: allowlist secret``. The scanner is first shown to catch one of each kind.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from detect_secrets import SecretsCollection
from detect_secrets.settings import transient_settings

from garganta_site.demo import DEMO_PASSWORD

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = "garganta_site/settings.py"
DEV_KEY = "garganta-dev-only-not-secret"
ALLOWED = {
    DEMO_PASSWORD: None,  # the documented demo password, anywhere (README, tests, seed)
    DEV_KEY: SETTINGS,  # the development key, in settings.py only
}

# detect-secrets' plugins worth their time here (the IBM, Azure, Softlayer … ones find nothing a
# campaign site could hold, and the hex-entropy one would flag every SHA-256 of the roll chain).
PLUGINS = [
    "PrivateKeyDetector",
    "KeywordDetector",
    "Base64HighEntropyString",
    "BasicAuthDetector",
    "JwtTokenDetector",
    "AWSKeyDetector",
    "GitHubTokenDetector",
    "GitLabTokenDetector",
    "OpenAIDetector",
    "PypiTokenDetector",
    "NpmDetector",
    "SlackDetector",
    "StripeDetector",
    "SendGridDetector",
    "TwilioKeyDetector",
    "DiscordBotTokenDetector",
    "TelegramBotTokenDetector",
]
DETECT_SECRETS = {
    "plugins_used": [
        {"name": name, "limit": 4.5} if name == "Base64HighEntropyString" else {"name": name}
        for name in PLUGINS
    ]
}
ALLOW_MARK = "pragma: allowlist secret"
# What detect-secrets' keyword list misses: the Portuguese word, and a bearer token spelled out.
EXTRA = {
    "Senha": re.compile(r"""senha\w*["']?\s*[:=]\s*[rbfu]?["']([^"'\s]{3,})["']""", re.I),
    "Bearer token": re.compile(r"Bearer\s+([A-Za-z0-9_\-\.=]{32,})"),
}
# Files that are secrets by their very name.
SECRET_FILE = re.compile(
    r"(^|/)(\.env(\..+)?|id_(rsa|dsa|ecdsa|ed25519)|.+\.(pem|key|p12|pfx|keystore|sqlite3?))$"
)
TEXT_SUFFIXES_SKIPPED = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".pdf"}
# A documented placeholder is not a secret: postgres://garganta:SENHA@…, <token>, "…".
PLACEHOLDER = re.compile(r"^(<[^<>]+>|[A-Z][A-Z_]*|\.\.\.|…)$")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    kind: str
    value: str

    def __str__(self) -> str:
        shown = self.value if len(self.value) <= 12 else self.value[:6] + "…"
        return f"{self.path}:{self.line}: {self.kind} ({shown!r})"


def scan(root: Path, paths: list[str]) -> list[Finding]:
    """What looks like a secret in ``paths`` (relative to ``root``), less what is allowed."""
    found: set[Finding] = set()
    text_paths = [p for p in paths if Path(p).suffix.lower() not in TEXT_SUFFIXES_SKIPPED]
    cwd = os.getcwd()
    os.chdir(root)  # detect-secrets reports the paths as given
    try:
        with transient_settings(DETECT_SECRETS):
            collection = SecretsCollection(root=str(root))
            for path in text_paths:
                collection.scan_file(path)
            for path, secret in collection:
                found.add(Finding(path, secret.line_number, secret.type, secret.secret_value or ""))
    finally:
        os.chdir(cwd)
    for path in text_paths:
        try:
            lines = (root / path).read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        for number, line in enumerate(lines, 1):
            if ALLOW_MARK in line:
                continue
            for kind, pattern in EXTRA.items():
                for match in pattern.finditer(line):
                    found.add(Finding(path, number, kind, match.group(1)))
    for path in paths:
        if SECRET_FILE.search(path):
            found.add(Finding(path, 0, "Secret file name", Path(path).name))
    return sorted(
        (
            f
            for f in found
            if not PLACEHOLDER.match(f.value)
            and (f.value not in ALLOWED or ALLOWED[f.value] not in (None, f.path))
        ),
        key=lambda f: (f.path, f.line, f.kind),
    )


def _tracked_files() -> list[str]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    done = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return [p for p in done.stdout.split("\0") if p and (ROOT / p).is_file()]


def test_no_tracked_file_holds_a_secret():
    paths = _tracked_files()
    assert SETTINGS in paths
    findings = scan(ROOT, paths)
    print(f"no secrets: {len(paths)} tracked files scanned, {len(findings)} findings")
    listed = "\n".join(map(str, findings))
    assert not findings, f"Looks like a secret (a deliberate fake says '# {ALLOW_MARK}'):\n{listed}"


def test_the_scanner_catches_one_of_each_kind(tmp_path):
    begin, end = "-----BEGIN " + "RSA PRIVATE KEY-----", "-----END " + "RSA PRIVATE KEY-----"
    body = "MIIEowIBAAKCAQEA" + "q7" * 30
    # shaped like secrets.token_urlsafe(32), what `manage.py api_token` prints
    token = "Zq3" + "x9_Lk2PwT7-vBn4MRe8YhJd5sUa1cGoF6tIzW0yNQm"  # pragma: allowlist secret
    github = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # pragma: allowlist secret
    files = {
        "deploy/key.txt": f"{begin}\n{body}\n{end}\n",
        "conf.py": 'password = "hunter2-of-the-week"\n',  # pragma: allowlist secret
        "other_settings.py": f'SECRET_KEY = "{token}"\n',
        "tok.py": f'MESTRE_TOKEN = "{token}"\n',
        "gh.md": f"token: {github}\n",
        "senha.py": 'SENHA_DO_ARBITRO = "abc12345"\n',  # pragma: allowlist secret
        "README.md": f"curl -H 'Authorization: Bearer {token}' /api/v1/sheets\n",
        "copy.py": f'SECRET_KEY = "{DEV_KEY}"\n',  # the dev key anywhere but settings.py
        ".env": "X=1\n",
        # and what must stay quiet:
        "demo.py": f'DEMO_PASSWORD = "{DEMO_PASSWORD}"\npassword = DEMO_PASSWORD\n',
        "fake.py": f'KEY = "{token}"  # {ALLOW_MARK}\n',
        "hash.py": 'HASH = "' + "ab" * 32 + '"\n',
        "db.md": "DATABASE_URL=postgres://garganta:SENHA@127.0.0.1:5432/garganta\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    findings = scan(tmp_path, list(files))

    flagged = {f.path for f in findings}
    quiet = {"demo.py", "fake.py", "hash.py", "db.md"}
    assert flagged == set(files) - quiet, "\n".join(map(str, findings))
    assert {f.kind for f in findings} >= {
        "Private Key",
        "Secret Keyword",
        "GitHub Token",
        "Senha",
        "Bearer token",
        "Secret file name",
    }


def _import_settings(**env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    return subprocess.run(
        [sys.executable, "-c", "import garganta_site.settings as s; print(s.SECRET_KEY)"],
        env={**base, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_development_key_is_labelled_and_used_only_with_debug():
    text = (ROOT / SETTINGS).read_text(encoding="utf-8")
    assert text.count(DEV_KEY) == 1
    assert "not-secret" in DEV_KEY and "dev-only" in DEV_KEY  # the label is in the value
    with_debug = _import_settings(DJANGO_DEBUG="1")
    assert with_debug.returncode == 0, with_debug.stderr
    assert with_debug.stdout.strip() == DEV_KEY


def test_without_debug_and_without_a_key_the_settings_refuse_to_load():
    done = _import_settings(DJANGO_DEBUG="0")
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "DJANGO_SECRET_KEY must be set" in done.stderr
    given = _import_settings(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="k" * 50)
    assert given.returncode == 0, given.stderr
    assert given.stdout.strip() == "k" * 50
