# The two README commands: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PACKAGES := $(VENV)/.packages
STAMP := $(VENV)/.installed
# Test workers: one more than the CPUs. A worker waiting on a program it started (an interrupted
# run, a browser playing media) leaves its CPU to the spare one, and on a machine others share,
# the suite keeps its share (measured with two busy processes beside it: 432 s against 479 s).
WORKERS ?= $(shell $(PYTHON) -c 'import os; print((os.cpu_count() or 1) + 1)')

.PHONY: demo test fuzz venv bytecode testcache lint bench clean

# pip would byte-compile every module of every package in one process (8,000 files, 27 s of CPU):
# install without ($(PACKAGES)), then compile on every CPU (with PYTHONDONTWRITEBYTECODE set, an
# uncompiled module would be compiled again by every process that imports it) all but what no
# later process imports from source: the packages' own test suites, the installers, and mypy
# (compiled with mypyc). compileall's status is not checked: like pip, it leaves alone the odd
# third-party file that does not compile.
$(PACKAGES): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --no-compile -e '.[test,dask,suber]'
	touch $(PACKAGES)

$(STAMP): $(PACKAGES)
	-$(BIN)/python -m compileall -q -j 0 -x '/tests?/|/site-packages/(pip|setuptools|pkg_resources|_distutils_hack|mypyc?)/' $(VENV)/lib >/dev/null 2>&1
	touch $(STAMP)

# An editable install leaves the sources uncompiled, and with PYTHONDONTWRITEBYTECODE set (as
# in many containers) every command would compile every module it imports, a fifth of a
# second each time: compile them once (only what changed; it writes regardless of the variable).
# The numba kernels compile into their on-disk cache once here (about 8 s of CPU, then 1.5 s
# to check), not in every test worker or run worker at once.
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q src >/dev/null
	$(BIN)/python bench/warm_kernels.py >/dev/null

# pytest rewrites each test module's asserts when it imports it, and with PYTHONDONTWRITEBYTECODE
# set it keeps nothing: every test worker rewrote all of them again (4 s of CPU each, half of a
# worker's collection). Rewrite them once here, into pytest's own cache (tests/rewrite_asserts.py,
# 2 s); the tests' helper modules get ordinary bytecode.
testcache: $(PACKAGES)
	$(BIN)/python -m compileall -q -x '/test_[^/]*\.py$$' tests >/dev/null
	$(BIN)/python tests/rewrite_asserts.py >/dev/null

venv: $(STAMP) bytecode

demo: $(STAMP) bytecode
	$(BIN)/segagree run sample_corpora -o demo_output --review-pages
	$(BIN)/segagree compare sample_corpora/garden.ann1.txt sample_corpora/garden.ann2.txt --ops demo_output/garden.operations.csv
	$(BIN)/segagree convert sample_corpora/garden.ann1.txt -o demo_output/garden.ann1.eaf
	$(BIN)/segagree review sample_corpora/recording/talk.kim.eaf sample_corpora/recording/talk.lee.eaf -o demo_output/talk.review.html

# The whole test suite on every CPU (WORKERS pytest-xdist workers; tests marked xdist_group share
# a worker) and the code-health gate (ruff, ruff format, mypy: 0 findings); both must pass. The
# gate needs only the installed packages: it starts at once, beside the byte-compiling and the
# numba kernels' compilation (one CPU; mypy's first run takes 18 s of one CPU), then beside the
# tests; its output is shown if it fails.
test: $(PACKAGES)
	@gate=$$(mktemp); $(MAKE) --no-print-directory lint >$$gate 2>&1 & pid=$$!; \
	$(MAKE) --no-print-directory -j 2 bytecode testcache && $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadgroup; status=$$?; \
	wait $$pid; lint=$$?; \
	if [ $$lint -ne 0 ]; then cat $$gate; rm -f $$gate; echo "make test: make lint failed" >&2; exit 1; fi; \
	rm -f $$gate; exit $$status

# Seeded damage for every adapter (tests/adapters/test_damage_*.py) and the hostile-input suite
# (tests/hostile: bombs, blow-ups, attacks), 10,000 cases per adapter and kind (make test runs a few).
fuzz: $(STAMP)
	SEGAGREE_FUZZ_CASES=10000 SEGAGREE_HOSTILE_CASES=10000 $(BIN)/python -m pytest -q \
		$(wildcard tests/adapters/test_damage_*.py) tests/hostile

# Code health: ruff's lint and format checks and mypy (settings in pyproject.toml), 0 findings.
lint: $(PACKAGES)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

bench: $(STAMP) bytecode
	for script in bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) demo_output
