# Tabula: `make run` starts everything, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
LINT_STAMP := $(VENV)/.installed-lint
export PYTHONPATH := $(CURDIR):$(CURDIR)/gen
NPM ?= npm

.PHONY: install install-test install-lint proto proto-update deploy-update run test test-unit test-integration lint bench clean browser node buf ts bundle oidc

# `make run` installs only what running needs (pyproject's dependencies); the test and lint tools
# (pyproject's `test` and `lint` extras) come with `make test` and `make lint`, each with its own stamp.
install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	echo "$(CURDIR)/gen" > "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/tabula-gen.pth"
	touch $(STAMP)

install-test: $(TEST_STAMP)

$(TEST_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[test]'
	touch $(TEST_STAMP)

install-lint: $(LINT_STAMP)

$(LINT_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[lint]'
	touch $(LINT_STAMP)

# Game .proto files are generated from the rules and committed (`make proto-update` after a rules
# change, which also rewrites docs/reason-codes.md); the Python code of every .proto goes to gen/
# (not committed).
proto: install
	$(PY) -m services.cli proto

proto-update: install
	$(PY) -m services.cli proto --update
	$(PY) -m services.cli reasons

# Each game's rule service in docker-compose.yml, deploy/Procfile and deploy/k8s/, from the registry
# (after adding or removing a game); committed, and checked fresh by the tests.
deploy-update: install
	$(PY) -m services.cli deploy --update

# tabula run's options, e.g. make run RUN_ARGS='--ports auto' (a free port for each one taken)
RUN_ARGS ?=
run: proto
	$(PY) -m services.cli run $(RUN_ARGS)

# Two pytest-xdist workers (the machine and CI have 2 cores) take about half the time of one;
# `make test PYTEST_JOBS=` runs the suite in one process. loadgroup would run the tests of a module
# marked `xdist_group` on one worker, but pytest-xdist 3.8 on pytest 9.2 ignores the mark
# (pytest-xdist#1386), so no test may rely on another's having run in its worker.
PYTEST_JOBS ?= -n 2 --dist loadgroup

test: proto $(TEST_STAMP) browser node oidc
	$(PY) -m services.cli proto --check
	$(PY) -m services.cli deploy --check
	$(PY) -m pytest -q -p no:cacheprovider $(PYTEST_JOBS) $(PYTEST_ARGS)

# Debian's Chromium for the browser tests (apt-get only when /usr/bin/chromium is missing; never a download).
browser:
	bash deploy/setup-browser.sh

# The TypeScript client (clients/ts): its npm packages exactly as pinned in its package-lock.json, the
# code buf generates from proto/, a type check, the Node.js tests' build and the pages' bundles
# (clients/ts/web/tabula-client.js for the spectator page, tabula-play.js for /play: committed so a
# machine without npm serves them). Without npm this says so and does nothing: the Node.js tests are
# skipped and the committed bundles are served.
TS := clients/ts
node: ts

ts:
	@if command -v $(NPM) >/dev/null; then $(MAKE) --no-print-directory buf $(TS)/node_modules/.package-lock.json \
		&& cd $(TS) && $(NPM) run -s generate && $(NPM) run -s typecheck && $(NPM) run -s bundle; \
	else echo "npm not found: the TypeScript client test is skipped; the page serves the committed bundle (Debian: apt-get install nodejs npm)"; fi

bundle: ts

$(TS)/node_modules/.package-lock.json: $(TS)/package.json $(TS)/package-lock.json
	cd $(TS) && $(NPM) ci --no-audit --no-fund

test-unit: proto $(TEST_STAMP)
	$(PY) -m pytest -q -m unit $(PYTEST_ARGS)

test-integration: proto $(TEST_STAMP)
	$(PY) -m pytest -q -m "integration or e2e" $(PYTEST_ARGS)

lint: proto $(LINT_STAMP) buf
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy shared services bench
	$(VENV)/bin/lint-imports
	bash tools/buf/check.sh

# The buf CLI (proto lint and breaking-change check), exactly as pinned in tools/buf/package-lock.json.
buf: tools/buf/node_modules/.package-lock.json

tools/buf/node_modules/.package-lock.json: tools/buf/package.json tools/buf/package-lock.json
	@command -v $(NPM) >/dev/null || { echo "npm not found: cannot install buf, the proto linter of make lint (tools/buf). Debian: apt-get install nodejs npm" >&2; exit 1; }
	cd tools/buf && $(NPM) ci --no-audit --no-fund

# The OpenID Connect provider the external sign-in tests start (tests/support/oidc: oidc-provider, exactly
# as pinned in its package-lock.json). Without npm this says so: those tests are skipped.
oidc:
	@if command -v $(NPM) >/dev/null; then $(MAKE) --no-print-directory tests/support/oidc/node_modules/.package-lock.json; \
	else echo "npm not found: the external sign-in tests are skipped (Debian: apt-get install nodejs npm)"; fi

tests/support/oidc/node_modules/.package-lock.json: tests/support/oidc/package.json tests/support/oidc/package-lock.json
	cd tests/support/oidc && $(NPM) ci --no-audit --no-fund

bench: proto
	$(PY) -m services.cli bench

clean:
	rm -rf gen .pytest_cache .mypy_cache .ruff_cache
