# The two commands of the README: `make run` and `make test`. Everything installs with uv
# from uv.lock; Python comes from the machine (3.13, see .python-version).
export UV_PYTHON_DOWNLOADS := never
export UV_NO_PROGRESS := 1

# uv from PATH, or else a private copy installed from PyPI into var/tools.
UV := $(shell command -v uv 2>/dev/null || echo var/tools/bin/uv)
PORT ?= 8000
# 127.0.0.1: the site answers this machine only; HOST=0.0.0.0 lets a phone on the same
# network open it too (run_stack then names the machine's network address in its links).
HOST ?= 127.0.0.1

.PHONY: isolation run test lint install install-dev fmt messages bench vendor types

## No step of `make run` is silent for more than 10 s: each that downloads, builds or
## fills the database runs through tools/progress.py, which names it, passes its output on
## and says «still working» after 8 s of silence (docs/benchmarks.md, «A fresh machine»).
PROGRESS := python3 tools/progress.py

var/tools/bin/uv:
	@$(PROGRESS) "Installing uv into var/tools" sh -c \
	  'python3 -m venv var/tools && var/tools/bin/pip install --quiet --disable-pip-version-check uv'

## make install: what the site runs on, without the test and lint tools (pyproject.toml's
## dev group: pytest, Playwright, mypy, ruff, …), which only `make test` and `make lint`
## add (install-dev). --inexact: a run after a test leaves the tools in place.
install: $(if $(filter var/tools/bin/uv,$(UV)),var/tools/bin/uv) vendor
	@$(PROGRESS) "Installing the Python packages (uv sync)" $(UV) sync --frozen --no-dev --inexact
install-dev: install
	@$(PROGRESS) "Installing the test and lint tools (uv sync)" $(UV) sync --frozen

## make vendor: the browser-side packages (package-lock.json pins them) from the npm
## registry into static/vendor: htmx and Pico for every page, Pyodide for the host's offline
## screen, axe-core for the accessibility checks. The pages never load anything from a CDN. TypeScript, the host
## screen's type checker, stays in node_modules.
## Pyodide's standard library is not copied as it comes (Python sources, compiled again at
## every start of the phone's engine): tools/engine-stdlib.mjs writes the part the engine
## needs as bytecode, again whenever games/rules changes.
NODE_MODULES := node_modules/.package-lock.json
VENDOR := static/vendor/pyodide/pyodide.asm.wasm static/vendor/axe-core/axe.min.js \
	static/vendor/htmx/htmx.min.js static/vendor/pico/pico.min.css
ENGINE_STDLIB := static/vendor/pyodide/engine_stdlib.zip
vendor: $(VENDOR) $(ENGINE_STDLIB)
$(NODE_MODULES): package.json package-lock.json
	@$(PROGRESS) "Installing the browser packages (npm ci)" npm ci --no-audit --no-fund --silent
$(VENDOR): $(NODE_MODULES)
	rm -rf static/vendor/pyodide static/vendor/axe-core static/vendor/htmx static/vendor/pico
	mkdir -p static/vendor/pyodide static/vendor/axe-core static/vendor/htmx static/vendor/pico
	cp node_modules/pyodide/pyodide.mjs node_modules/pyodide/pyodide.asm.mjs \
	   node_modules/pyodide/pyodide.asm.wasm node_modules/pyodide/pyodide-lock.json \
	   static/vendor/pyodide/
	cp node_modules/axe-core/axe.min.js static/vendor/axe-core/
	cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx/
	cp node_modules/@picocss/pico/css/pico.min.css static/vendor/pico/
	touch $(VENDOR)
$(ENGINE_STDLIB): $(VENDOR) tools/engine-stdlib.mjs $(shell find games/rules -name "*.py")
	@$(PROGRESS) "Precompiling the phone engine's standard library" node tools/engine-stdlib.mjs

## make run: the club site on the embedded defaults (SQLite, a SQLite Celery broker, console
## bot): web, Celery worker and beat together (a crashed one restarts); Ctrl-C stops all three.
run: install
	@$(PROGRESS) "Migrating the database" $(UV) run --frozen --no-dev python manage.py migrate --no-input
	@$(PROGRESS) "Loading the demo data" $(UV) run --frozen --no-dev python manage.py demo_data
	$(UV) run --frozen --no-dev python manage.py run_stack --host $(HOST) --port $(PORT)

## make test: the host screen's JavaScript unit tests (Node), then the whole suite on
## PostgreSQL and Redis (local defaults or DATABASE_URL and CELERY_BROKER_URL); it stops at
## once, naming the service, when one is missing. Two pytest processes share the work, each
## taking the next test when it is free (pytest-xdist's worksteal: a file at a time can leave
## one process idle behind the longest browser file; each has its own test database and
## Redis databases): `make test PYTEST_WORKERS=` runs them in one.
PYTEST_WORKERS ?= -n 2 --dist worksteal
## The suite and the linters write Python's bytecode (under var/pycache, not beside the
## sources) even where PYTHONDONTWRITEBYTECODE is set, as on the CI machine: without it
## every process compiles Django, Hypothesis, schemathesis, … from source again, each
## pytest process (the two workers, the linters') and each server or worker a test starts.
## Collecting the suite took 28.0 s of CPU without it, 8.4 s with; `manage.py check` 5.7 s,
## 2.4 s (docs/testing.md).
test lint: export PYTHONDONTWRITEBYTECODE :=
test lint: export PYTHONPYCACHEPREFIX := $(CURDIR)/var/pycache
test: install-dev
	node --test tests/js/
	$(UV) run pytest $(PYTEST_WORKERS) $(PYTEST_ARGS)

## make isolation: the cross-club probe alone (tests/isolation, docs/clubs.md; `make test`
## runs it too): every door as every role of one club against another club's rows.
isolation: install-dev
	$(UV) run pytest $(PYTEST_WORKERS) tests/isolation $(PYTEST_ARGS)

lint: install-dev
	$(UV) run ruff check .
	$(UV) run ruff format --check .
	$(UV) run mypy accounts bot club games history leagues live notifications tournaments tests bench
	$(UV) run lint-imports --no-logo
	@complex="$$($(UV) run radon cc --min D --show-complexity accounts bot club games history leagues live notifications tournaments)"; \
	  if [ -n "$$complex" ]; then echo "Above cyclomatic complexity 20:"; echo "$$complex"; exit 1; fi
	$(UV) run pytest -q -p no:tests.services tests/test_task_names.py tests/test_cited_paths.py
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.workers.json
	$(UV) run python manage.py makemigrations --check --dry-run

## make types: the host screen's TypeScript types (static/games/host/table.d.ts) from the
## TypedDicts of its JSON; commit the file (a test fails while it is stale).
types: install-dev
	$(UV) run python manage.py host_types

fmt: install-dev
	$(UV) run ruff check --fix .
	$(UV) run ruff format .

## Refresh the translation catalogues after changing UI strings.
MESSAGES_IGNORE := --ignore '.venv/*' --ignore 'var/*' --ignore 'node_modules/*' --ignore 'static/vendor/*'
messages: install
	$(UV) run python manage.py makemessages --locale ru --locale en $(MESSAGES_IGNORE) --no-obsolete
	$(UV) run python manage.py makemessages -d djangojs --locale ru --locale en $(MESSAGES_IGNORE) --no-obsolete
	$(UV) run python manage.py compilemessages $(MESSAGES_IGNORE)
