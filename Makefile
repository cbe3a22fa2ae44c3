# Parlour: every target installs what it needs into .venv in this checkout.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed

.PHONY: play serve test bench fuzz playthroughs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(BENCH_STAMP)

play: $(STAMP)
	$(BIN)/parlour play venture --seats human,greedy,greedy,greedy

# The table server at http://127.0.0.1:8000 (its SQLite database in var/, made on first start).
serve: $(STAMP)
	$(BIN)/parlour serve --db var/parlour.db

# Browser tests drive Debian's Chromium (Playwright's own download does not work here).
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	apt-get install -y chromium || (apt-get update && apt-get install -y chromium)

test: $(STAMP) $(CHROMIUM)
	$(BIN)/ruff check parlour tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest -n 2

bench: $(BENCH_STAMP)
	$(BIN)/python bench/run.py $(if $(ONLY),--only $(ONLY))

# A long fuzzing run over positions, records, action texts, command lines, HTTP requests and WebSocket
# messages (INPUTS per surface and game).
INPUTS ?= 20000
fuzz: $(STAMP)
	$(BIN)/python tests/fuzz/run.py --inputs $(INPUTS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

# Golden playthroughs (the spectator's text and every seat's view) of every game that has them
# (tests/games/*/test_playthroughs.py): regenerate, then check the diff.
playthroughs: $(STAMP)
	for test in tests/games/*/test_playthroughs.py; do \
		$(BIN)/python -m tests.games.$$(basename $$(dirname $$test)).test_playthroughs || exit 1; \
	done
