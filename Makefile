# Two public targets (README): `make test` and `make bench`. Everything they need is installed here.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMPS := .stamps
# System packages the build and the tests need (Debian names).
APT_PACKAGES := g++ make nginx wrk
APT_COMMANDS := g++ make nginx wrk

.PHONY: test bench build system-deps clean
test: system-deps build
	$(PY) -m pytest $(PYTEST_ARGS)

bench: system-deps build $(STAMPS)/bench-deps
	$(PY) bench/run.py $(BENCH_ARGS)

build: $(STAMPS)/test-deps
	$(PIP) install --no-build-isolation --no-deps -q .
	@$(PY) -c "import boltwire._core" || { echo "boltwire failed to build or import"; exit 1; }

system-deps:
	@missing=""; for c in $(APT_COMMANDS); do command -v $$c >/dev/null || [ -x /usr/sbin/$$c ] || missing="$$missing $$c"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "missing:$$missing; run as root or install: $(APT_PACKAGES)"; exit 1; fi; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(APT_PACKAGES); \
	fi

$(VENV)/bin/python: | system-deps
	$(PYTHON) -m venv $(VENV)

$(STAMPS)/build-deps: $(VENV)/bin/python
	$(PIP) install -q "scikit-build-core>=0.10" cmake ninja
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/test-deps: $(STAMPS)/build-deps pyproject.toml
	$(PIP) install -q --no-build-isolation ".[test]"
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/bench-deps: $(STAMPS)/build-deps pyproject.toml
	$(PIP) install -q --no-build-isolation ".[bench]"
	@mkdir -p $(STAMPS) && touch $@

clean:
	rm -rf build $(STAMPS) $(VENV)
