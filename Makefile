# The two README commands: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PACKAGES := $(VENV)/.packages
# Test workers: one more than the CPUs. A worker waiting on a program it started (an interrupted
# run, a browser playing media) leaves its CPU to the spare one, and on a machine others share,
# the suite keeps its share (measured with two busy processes beside it: 432 s against 479 s).
WORKERS ?= $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 1)')

.PHONY: demo test docs fuzz venv bytecode testcache lint bench clean

# pip would byte-compile every module of every package in one process (8,000 files, 27 s of CPU,
# most of them never imported): install without, and let Python write each module's bytecode the
# first time a process imports it. PYTHONDONTWRITEBYTECODE, set in many containers, would make
# every command and every test worker compile every module it imports again (0.2 s and more a
# command): make runs its commands without it, so what is compiled is what some process imports,
# once, into .venv, src and tests.
unexport PYTHONDONTWRITEBYTECODE

# The packages are installed by uv (one wheel from PyPI, installed by the venv's pip), which
# fetches and unpacks them several at a time: beside two busy processes on 2 cores, 10 s instead
# of pip's 22 s (9 s of CPU against 14), the same versions. Where uv cannot be had or fails
# (no PyPI, only a local index), pip installs them as before, and says so.
$(PACKAGES): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	if $(BIN)/pip install --quiet 'uv>=0.4' && $(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[test,dask,suber]'; then :; \
	else echo "make: uv could not install the packages; pip installs them" >&2; \
		$(BIN)/pip install --quiet --upgrade pip && $(BIN)/pip install --quiet --no-compile -e '.[test,dask,suber]'; fi
	touch $(PACKAGES)

# The numba kernels compile into their on-disk cache once here (about 8 s of CPU, then 1.5 s
# to check), not in every test worker or run worker at once; this first process also writes the
# bytecode of what segagree imports to score.
bytecode: $(PACKAGES)
	$(BIN)/python bench/warm_kernels.py >/dev/null

# Before the test workers start, one process does what each would otherwise do at once
# (tests/prepare_workers.py): the numba kernels into their cache (make bytecode's job); the test
# modules' asserts rewritten into pytest's own cache (tests/rewrite_asserts.py; 4 s of CPU a
# worker, half of its collection); and what the forked command-line tests load (tests/cli_process.py)
# imported, so that its bytecode is written once.
testcache: $(PACKAGES)
	$(BIN)/python tests/prepare_workers.py >/dev/null

venv: bytecode

demo: bytecode
	$(BIN)/segagree run sample_corpora -o demo_output --review-pages
	$(BIN)/segagree compare sample_corpora/garden.ann1.txt sample_corpora/garden.ann2.txt --ops demo_output/garden.operations.csv
	$(BIN)/segagree convert sample_corpora/garden.ann1.txt -o demo_output/garden.ann1.eaf
	$(BIN)/segagree review sample_corpora/recording/talk.kim.eaf sample_corpora/recording/talk.lee.eaf -o demo_output/talk.review.html
	$(BIN)/segagree panel sample_corpora/panel --machine seg -o demo_output/panel

# The whole test suite on every CPU (WORKERS pytest-xdist workers; tests marked xdist_group share
# a worker) and the code-health gate (ruff, ruff format, mypy: 0 findings); both must pass. The
# gate needs only the installed packages: it starts at once, beside the numba kernels'
# compilation and the test cache (one CPU; mypy's first run takes 12 to 18 s of one CPU), then
# beside the tests; its output is shown if it fails.
test: $(PACKAGES)
	@gate=$$(mktemp); $(MAKE) --no-print-directory lint >$$gate 2>&1 & pid=$$!; \
	$(MAKE) --no-print-directory testcache && $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadgroup; status=$$?; \
	wait $$pid; lint=$$?; \
	if [ $$lint -ne 0 ]; then cat $$gate; rm -f $$gate; echo "make test: make lint failed" >&2; exit 1; fi; \
	rm -f $$gate; exit $$status

# The documentation site (Sphinx, offline), warnings as errors: docs/_build/html/index.html. Its pages
# on the metric cards and the API reference are generated from the code at each build.
DOCS := $(VENV)/.docs
$(DOCS): $(PACKAGES)
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[docs]' || $(BIN)/pip install --quiet -e '.[docs]'
	touch $(DOCS)

docs: $(DOCS)
	$(BIN)/sphinx-build -q -W --keep-going -b html docs docs/_build/html

# Seeded damage for every adapter (tests/adapters/test_damage_*.py) and the hostile-input suite
# (tests/hostile: bombs, blow-ups, attacks), 10,000 cases per adapter and kind (make test runs a few).
fuzz: bytecode
	SEGAGREE_FUZZ_CASES=10000 SEGAGREE_HOSTILE_CASES=10000 $(BIN)/python -m pytest -q \
		$(wildcard tests/adapters/test_damage_*.py) tests/hostile

# Code health: ruff's lint and format checks and mypy (settings in pyproject.toml), 0 findings.
lint: $(PACKAGES)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

bench: bytecode
	for script in bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) demo_output docs/_build docs/_generated
