# The two README commands: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test venv lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dask,suber]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/segagree run sample_corpora -o demo_output

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

bench: $(STAMP)
	$(BIN)/python bench/bench_sf.py

clean:
	rm -rf $(VENV) demo_output
