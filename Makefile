# The two README commands: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test fuzz venv bytecode lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dask,suber]'
	touch $(STAMP)

# An editable install leaves the sources uncompiled, and with PYTHONDONTWRITEBYTECODE set (as
# in many containers) every command would compile every module it imports, a fifth of a
# second each time: compile them once (only what changed; it writes regardless of the variable).
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q src >/dev/null

venv: $(STAMP) bytecode

demo: $(STAMP) bytecode
	$(BIN)/segagree run sample_corpora -o demo_output --workbooks
	$(BIN)/segagree compare sample_corpora/garden.ann1.txt sample_corpora/garden.ann2.txt --ops demo_output/garden.operations.csv
	$(BIN)/segagree convert sample_corpora/garden.ann1.txt -o demo_output/garden.ann1.eaf
	$(BIN)/segagree review sample_corpora/recording/talk.kim.eaf sample_corpora/recording/talk.lee.eaf -o demo_output/talk.review.html

# The whole test suite, after the code-health gate (ruff, ruff format, mypy: 0 findings).
test: $(STAMP) bytecode lint
	$(BIN)/python -m pytest -q

# Seeded damage for every adapter (tests/adapters/test_damage_*.py), 10,000 cases per adapter (make test runs 200).
fuzz: $(STAMP)
	SEGAGREE_FUZZ_CASES=10000 $(BIN)/python -m pytest -q $(wildcard tests/adapters/test_damage_*.py)

# Code health: ruff's lint and format checks and mypy (settings in pyproject.toml), 0 findings.
lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

bench: $(STAMP) bytecode
	for script in bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) demo_output
