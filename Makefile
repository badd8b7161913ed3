# whist-sim: every target works from a fresh clone with only Python 3.11+ and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DATA   ?= data/default
# make run's report: outside the tracked files (make results writes the curated ones to results/)
RUN_OUT ?= data/results
LOCK   := requirements.lock
# The compiled kernels' cache: whist-sim itself chooses .venv/numba-cache inside the environment
# (whist_sim/compiled/ground/_cache.py), so `make run`, `.venv/bin/whist-sim` and `python -m whist_sim` share it.
# Set NUMBA_CACHE_DIR to put it elsewhere.

.PHONY: install run test lint bench results train docs dispatch lock clean

install: $(STAMP)

# Reinstall only when the project metadata or the lock changed (the package is installed editable).
# The lock file pins every dependency (pip constraints), so every machine gets the same versions.
# editable_mode=compat: a plain path in a .pth file, which type checkers (mypy) follow; the default
# import hook they cannot see.
EDITABLE := --config-settings editable_mode=compat -e ".[dev,web]"
$(STAMP): pyproject.toml setup.py $(LOCK)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c $(LOCK) $(EDITABLE)
	@touch $(STAMP)

# Renew the lock: the newest versions pyproject.toml allows, then `make test` before committing it.
lock:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --upgrade --upgrade-strategy eager $(EDITABLE)
	$(BIN)/python scripts/lock_requirements.py --out $(LOCK)
	@touch $(STAMP)

# The main job on the embedded default: simulate the default workload and write its report to
# $(RUN_OUT)/default/report.md (untracked: the tree stays clean; `make results` renews results/).
run: install
	$(BIN)/python scripts/run_default.py --data $(DATA) --out $(RUN_OUT)

test: install
	$(BIN)/python -m pytest -q -n auto

lint: install
	$(BIN)/ruff check whist_sim tests scripts
	$(BIN)/mypy

bench: install
	$(BIN)/whist-sim bench

# Regenerate every curated report and chart in results/ (each script is one analysis).
results: install
	$(BIN)/python scripts/make_results.py --data $(DATA) --out results
	$(BIN)/python scripts/make_docs.py

# Renew the generated blocks of the README and docs/ (counts, tables and figures rendered from
# the code and from results/; tests/test_docs_generated.py fails when one is stale). Run it after
# `make results`, `make train` or an edit of what a block shows.
docs: install
	$(BIN)/python scripts/make_docs.py

# Write the deal loop's dispatch (whist_sim/compiled/strategies/decisions.py) from the registry
# (whist_sim/core/registry.py) after adding or changing a strategy's entry; the compiled engine
# refuses a stale one, and tests/test_dispatch_table.py fails on it.
dispatch: install
	$(BIN)/python -m whist_sim.compiled.strategies.generate

# Fit the weights of the learned play policy to the values of search (whist_sim/core/play_model.py:
# four players, then each three-player deck from the four-player weights) and write its data card
# (docs/PLAY_MODEL.md), then the learned bidder's contract model (whist_sim/core/bid_model.py,
# docs/BID_MODEL.md); deterministic from their seeds. The time of each part is in its data card.
# Then `make test` before committing the weights.
train: install
	$(BIN)/python scripts/train_play.py
	$(BIN)/python scripts/train_play.py --deck no_suit
	$(BIN)/python scripts/train_play.py --deck no_low
	$(BIN)/python scripts/train_play.py --deck one_random
	$(BIN)/python scripts/train_bidding.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache data
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
