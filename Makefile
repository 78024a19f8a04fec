# The README's commands are `make run` and `make test`, and `make serve` in production;
# `make help` lists every target.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help run serve test install chromium axe lint format bench

help:  ## List the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	touch $(STAMP)

install: $(STAMP)  ## Create .venv and install the project with its test tools

chromium:  ## Install Debian's chromium for the browser tests, if missing
	@command -v chromium >/dev/null 2>&1 || { \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# axe-core for the browser tests' accessibility checks, pinned by package-lock.json.
node_modules/axe-core/axe.min.js: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

axe: node_modules/axe-core/axe.min.js  ## Install axe-core (npm) for the browser tests, if missing

run: install  ## Migrate, load the demo campaigns and serve http://127.0.0.1:8000 (SQLite)
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py demo_week
	$(BIN)/python manage.py demo_combat
	$(BIN)/python manage.py demo_fight
	$(BIN)/python manage.py demo_xuleta
	@echo "Site em http://127.0.0.1:8000 (MCP em /mcp) — entre com um dos logins acima."
	$(BIN)/uvicorn garganta_site.asgi:application --host 127.0.0.1 --port 8000

# Two passes, each on every core (pytest-xdist, whole files per worker). The SQLite pass has no
# Redis (the cache in local memory) and leaves out the tests marked `once` (browser, live
# servers, fuzzing, the production stack: tests/conftest.py), which tell the same on either
# database; the PostgreSQL pass, with a throwaway Redis as a site on more than one machine
# would have, runs everything: the browser tests in a run of their own (Playwright keeps an event
# loop running in each worker's main thread, which the tests that run or cross into async code
# cannot share, and xdist does not keep them last), then, alone, the one test that restarts
# its PostgreSQL.
PYTEST_PARALLEL := -n auto --dist loadfile
test: install chromium axe  ## Run the tests: on SQLite, then everything on a throwaway PostgreSQL and Redis
	$(BIN)/python manage.py check --fail-level WARNING
	$(BIN)/python manage.py makemigrations --check --dry-run
	@sqlite=0; postgres=0; \
	echo "== SQLite (the tests marked once run in the PostgreSQL pass) =="; \
	env -u DATABASE_URL -u REDIS_URL $(BIN)/pytest $(PYTEST_PARALLEL) -m "not once and not serial" || sqlite=$$?; \
	echo "== PostgreSQL and Redis =="; \
	scripts/test-postgres scripts/test-redis sh -c \
		'rc=0; $(BIN)/pytest $(PYTEST_PARALLEL) -m "not serial and not browser" || rc=$$?; \
		 $(BIN)/pytest $(PYTEST_PARALLEL) -m browser || rc=$$?; \
		 $(BIN)/pytest -m serial || rc=$$?; exit $$rc' || postgres=$$?; \
	echo "== SQLite: pytest exit $$sqlite; PostgreSQL: pytest exit $$postgres =="; \
	[ "$$sqlite" -eq 0 ] || exit "$$sqlite"; \
	exit "$$postgres"

# Production never runs with DEBUG, whatever the environment says.
serve: export DJANGO_DEBUG := 0
serve: install  ## Production: collectstatic, migrate, gunicorn (DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS)
	@[ -n "$${DJANGO_SECRET_KEY:-}" ] || { echo "make serve: set DJANGO_SECRET_KEY (e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(50))')" >&2; exit 1; }
	@[ -n "$${DJANGO_ALLOWED_HOSTS:-}" ] || { echo "make serve: set DJANGO_ALLOWED_HOSTS (the site's host names, comma-separated)" >&2; exit 1; }
	$(BIN)/python manage.py collectstatic --no-input -v0
	$(BIN)/python manage.py migrate --no-input
	exec $(BIN)/gunicorn --config gunicorn.conf.py

lint: install  ## ruff check
	$(BIN)/ruff check .

format: install  ## ruff format
	$(BIN)/ruff format .

bench: install  ## Print the benchmark's figures (SQLite, and PostgreSQL on a throwaway server)
	scripts/test-postgres $(BIN)/python bench/run.py
