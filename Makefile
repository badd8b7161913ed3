# whist-sim: every target works from a fresh clone with only Python 3.11+ and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DATA   ?= data/default
NUMBA_CACHE_DIR ?= $(CURDIR)/.venv/numba-cache
export NUMBA_CACHE_DIR

.PHONY: install run test lint bench results clean

install: $(STAMP)

# Reinstall only when the project metadata changed (the package itself is installed editable).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

# The main job on the embedded default: simulate the default workload, write the report to results/.
run: install
	$(BIN)/python scripts/run_default.py --data $(DATA) --out results

test: install
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check whist_sim tests scripts
	$(BIN)/mypy

bench: install
	$(BIN)/whist-sim bench

# Regenerate every curated report and chart in results/ (each script is one analysis).
results: install
	$(BIN)/python scripts/make_results.py --data $(DATA) --out results

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache data
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
