# Parlour: every target installs what it needs into .venv in this checkout.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed

.PHONY: play serve native checks test test-fast test-postgres bench fuzz playthroughs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(BENCH_STAMP)

# The hot modules compiled with mypyc beside their sources (each game's Game.hot_modules names its own;
# parlour/compiled.json records what was built; build/ holds the compiler's temporary files; the editable
# install above compiles nothing). Nothing is done while the record matches the declarations and sources.
native: $(STAMP)
	PARLOUR_NATIVE=0 $(BIN)/python -m parlour.native_build

play: native
	$(BIN)/parlour play venture --seats human,greedy,greedy,greedy

# The table server at http://127.0.0.1:8000 (its SQLite database in var/, made on first start).
serve: native
	$(BIN)/parlour serve --db var/parlour.db

# Browser tests drive Debian's Chromium (Playwright's own download does not work here).
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	apt-get install -y chromium || (apt-get update && apt-get install -y chromium)

# The cluster tests (tests/cluster) start throwaway PostgreSQL and Redis servers from Debian's packages.
POSTGRES := /usr/lib/postgresql/15/bin/initdb
REDIS := /usr/bin/redis-server
$(POSTGRES):
	apt-get install -y postgresql || (apt-get update && apt-get install -y postgresql)
$(REDIS):
	apt-get install -y redis-server || (apt-get update && apt-get install -y redis-server)
# tests/cluster/test_proxy.py runs deploy/nginx/parlour.conf with Debian's nginx and
# deploy/haproxy/parlour.cfg with Debian's HAProxy (openssl makes their test certificate; each is
# started from a temporary folder, the packages' own services never used).
NGINX := /usr/sbin/nginx
HAPROXY := /usr/sbin/haproxy
OPENSSL := /usr/bin/openssl
$(NGINX):
	apt-get install -y nginx || (apt-get update && apt-get install -y nginx)
$(HAPROXY):
	apt-get install -y haproxy || (apt-get update && apt-get install -y haproxy)
$(OPENSSL):
	apt-get install -y openssl || (apt-get update && apt-get install -y openssl)

# The reference bot in a second language (bots/reference/random_bot.js) runs under Node.js (tests/bots).
NODE := /usr/bin/node
$(NODE):
	apt-get install -y nodejs || (apt-get update && apt-get install -y nodejs)

# Lint, formatting, strict types and import layers: what `make test` and `make test-fast` check first.
checks: $(STAMP)
	$(BIN)/ruff check parlour tests bench examples bots
	$(BIN)/ruff format --check parlour tests bench examples bots
	$(BIN)/mypy
	$(BIN)/lint-imports

# The whole suite on the Python sources, slow tests included, with the coverage of `parlour` by that
# whole suite (data in .venv; `make test COVERAGE=` measures none); then the rules' tests, the
# conformance suite and the environments' on the compiled modules (parlour/native.py).
COVERAGE ?= --cov=parlour --cov-report=term:skip-covered
COMPILED_TESTS := tests/games tests/conformance tests/envs tests/test_native.py
test: checks $(CHROMIUM) $(POSTGRES) $(REDIS) $(NGINX) $(HAPROXY) $(OPENSSL) $(NODE) native
	PARLOUR_NATIVE=0 COVERAGE_FILE=$(VENV)/.coverage $(BIN)/pytest -n 2 $(COVERAGE)
	PARLOUR_NATIVE=1 $(BIN)/pytest -n 2 -p no:cacheprovider -m "not slow" $(COMPILED_TESTS)
	PARLOUR_TEST_DATABASE=postgres $(BIN)/pytest -n 2 -p no:cacheprovider $(PG_TESTS)

# The server suite on PostgreSQL (docs/testing-postgres.md): PARLOUR_TEST_DATABASE=postgres gives each test
# a fresh database on a throwaway cluster instead of a SQLite file; the tests about the SQLite file itself
# are skipped. `make test` and `make test-postgres` run every server test file but the browser ones (which
# depend little on the database); `make test PG_TESTS=...` runs others instead.
PG_BROWSER := $(wildcard tests/server/test_*browser*.py tests/server/test_table_*.py tests/server/test_phones.py \
	tests/server/test_*page*.py)
PG_ALL := $(filter-out $(PG_BROWSER),$(wildcard tests/server/test_*.py))
PG_TESTS ?= $(PG_ALL)
test-postgres: $(STAMP) $(POSTGRES)
	PARLOUR_TEST_DATABASE=postgres $(BIN)/pytest -n 2 -p no:cacheprovider $(PG_ALL)

# The suite without the tests marked slow (browser tests, whole games, long sweeps, fuzzing): about two
# minutes on two cores, more on busy ones (`pytest -n 2 -m "not slow" --durations=30` names the slowest).
test-fast: checks
	$(BIN)/pytest -n 2 -m "not slow"

bench: $(BENCH_STAMP) native
	$(BIN)/python bench/run.py $(if $(ONLY),--only $(ONLY))

# A long fuzzing run over positions, records, action texts, command lines, HTTP requests, WebSocket
# messages and network attacks on a real server process (INPUTS per surface and game).
INPUTS ?= 20000
fuzz: $(STAMP)
	$(BIN)/python tests/fuzz/run.py --inputs $(INPUTS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .coverage .coverage.* build
	find parlour -name '*.so' -delete

# Golden playthroughs (the spectator's text and every seat's view) of every game that has them
# (tests/games/*/test_playthroughs.py): regenerate, then check the diff.
playthroughs: $(STAMP)
	for test in tests/games/*/test_playthroughs.py; do \
		$(BIN)/python -m tests.games.$$(basename $$(dirname $$test)).test_playthroughs || exit 1; \
	done
