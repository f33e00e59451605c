# Arcane Artificer — the README's two commands (`make play`, `make test`) and
# their friends. Each works from a clean clone: it makes .venv, installs the
# Python dependencies and builds the Rust extension in release mode.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# Rebuild the extension when the Rust side or the build config changes.
CORE_SOURCES := $(shell find rust -name '*.rs') Cargo.toml Cargo.lock pyproject.toml
STAMP  := $(VENV)/.core-built

.PHONY: play test lint test-rust test-python e2e-tools fuzz bench wheel clean

play: $(STAMP)
	$(VENV)/bin/artificer

test: $(STAMP) e2e-tools lint test-rust test-python

# The lint and format gate: ruff (rules and line length in pyproject.toml), rustfmt (rustfmt.toml)
# and clippy over the pure core, its tests and benches, and the PyO3 face; any warning fails.
lint: $(STAMP)
	$(VENV)/bin/ruff check python tests benches
	$(VENV)/bin/ruff format --check python tests benches
	cargo fmt --check
	cargo clippy --quiet --all-targets -- -D warnings
	cargo clippy --quiet --features python -- -D warnings

test-rust:
	cargo test --quiet

test-python: $(STAMP) e2e-tools
	$(PY) -m mypy.stubtest artificer._core --allowlist python/stubtest_allowlist.txt
	$(PY) -m mypy --strict python/artificer
	$(PY) -m pytest

# The window test (tests/e2e) drives the real game under a virtual X server:
# Xvfb, xdotool to type, xwd (x11-apps) for screenshots. Installed with
# apt-get when missing and we are root; otherwise the test skips and says why.
E2E_TOOLS    := Xvfb xdotool xwd
E2E_PACKAGES := xvfb xdotool x11-apps

e2e-tools:
	@missing=""; for tool in $(E2E_TOOLS); do command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then \
		echo "e2e-tools: missing$$missing (not root or no apt-get): the window test will skip"; exit 0; fi; \
	echo "e2e-tools: installing $(E2E_PACKAGES) for the window test"; \
	export DEBIAN_FRONTEND=noninteractive; \
	{ apt-get update -qq && apt-get install -y -qq --no-install-recommends $(E2E_PACKAGES) >/dev/null; } \
		|| echo "e2e-tools: apt-get failed: the window test will skip"

# The content property test (tests/content/test_content_fuzz.py) at length: `make test` runs 40 fixed
# examples; this runs FUZZ_EXAMPLES new random ones (whatever check-content accepts must run its
# wave to the end; whatever it refuses, it refuses with file, JSON path and reason).
FUZZ_EXAMPLES ?= 1000

fuzz: $(STAMP)
	ARTIFICER_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) SDL_VIDEODRIVER=dummy $(PY) -m pytest tests/content/test_content_fuzz.py \
		-o timeout=0 -p no:cacheprovider --hypothesis-show-statistics

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
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release --extras dev,sim,cluster
	touch $(STAMP)

clean:
	rm -rf $(VENV) target dist python/artificer/_core*.so
