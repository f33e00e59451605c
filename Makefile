# Arcane Artificer — the README's two commands (`make play`, `make test`) and
# their friends. Each works from a clean clone: it makes .venv, installs the
# Python dependencies and builds the Rust extension in release mode.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# Rebuild the extension when the Rust side or the build config changes.
CORE_SOURCES := $(shell find rust -name '*.rs') Cargo.toml Cargo.lock pyproject.toml
STAMP  := $(VENV)/.core-built

.PHONY: play test test-rust test-python bench wheel clean

play: $(STAMP)
	$(VENV)/bin/artificer

test: $(STAMP) test-rust test-python

test-rust:
	cargo test --quiet

test-python: $(STAMP)
	$(PY) -m mypy.stubtest artificer._core
	$(PY) -m mypy --strict python/artificer
	$(PY) -m pytest

bench: $(STAMP)
	cargo bench --bench step
	$(PY) benches/frame_vs_peers.py --enemies 10000 --projectiles 20000 --layout crowd
	$(PY) benches/frame_vs_peers.py --enemies 1000 --projectiles 2000 --layout crowd

# A wheel built by maturin, installed into a fresh venv, and run.
wheel: $(VENV)/bin/maturin
	rm -rf dist /tmp/artificer-wheel-venv
	$(VENV)/bin/maturin build --release --out dist
	$(PYTHON) -m venv /tmp/artificer-wheel-venv
	/tmp/artificer-wheel-venv/bin/pip install --quiet dist/*.whl
	/tmp/artificer-wheel-venv/bin/artificer --version
	cd /tmp && /tmp/artificer-wheel-venv/bin/artificer check-content

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/bin/maturin: | $(PY)
	$(PY) -m pip install --quiet "maturin>=1.9.4,<2"

$(STAMP): $(CORE_SOURCES) $(VENV)/bin/maturin
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release --extras dev
	touch $(STAMP)

clean:
	rm -rf $(VENV) target dist python/artificer/_core*.so
