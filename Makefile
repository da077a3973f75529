# Two public targets (README): `make test` and `make bench`. Everything they need is installed here.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMPS := .stamps
# System packages the build and the tests need (Debian names), and how to tell each is there: a command, or for
# libraries a header file.
APT_PACKAGES := g++ make nginx wrk nghttp2-client libssl-dev zlib1g-dev libbrotli-dev libzstd-dev libnghttp2-dev \
  tinyproxy microsocks
APT_COMMANDS := g++ make nginx wrk h2load tinyproxy microsocks
APT_HEADERS := /usr/include/openssl/ssl.h /usr/include/zlib.h /usr/include/brotli/decode.h /usr/include/zstd.h \
  /usr/include/nghttp2/nghttp2.h

# Optional: nginx's brotli filter (Debian libnginx-mod-http-brotli-filter) for the nginx brotli tests. Where this
# Debian has no such package (or it will not install), those tests skip and say why; nothing else depends on it.
NGINX_BROTLI_PACKAGE := libnginx-mod-http-brotli-filter
NGINX_BROTLI_MODULE := /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so

.PHONY: test bench build system-deps clean fuzz fuzz-build fuzz-deps sanitize soak msgspec-suite
test: system-deps build
	$(PY) -m pytest $(PYTEST_ARGS)

bench: system-deps build $(STAMPS)/bench-deps $(STAMPS)/bench-lothc
	$(PY) bench/run.py $(BENCH_ARGS)

# msgspec's own unit tests against boltwire (tools/msgspec_suite/README.md); needs network to PyPI, not in `make test`.
msgspec-suite: build
	$(PY) tools/msgspec_suite/run.py --list build/msgspec_suite/fails.txt $(SUITE_ARGS)

build: $(STAMPS)/test-deps
	$(PIP) install --no-build-isolation --no-deps -q .
	@$(PY) -c "import boltwire._core" || { echo "boltwire failed to build or import"; exit 1; }

system-deps:
	@missing=""; for c in $(APT_COMMANDS); do command -v $$c >/dev/null || [ -x /usr/sbin/$$c ] || missing="$$missing $$c"; done; \
	for h in $(APT_HEADERS); do [ -f $$h ] || missing="$$missing $$h"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "missing:$$missing; run as root or install: $(APT_PACKAGES)"; exit 1; fi; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(APT_PACKAGES); \
	fi
	@if [ ! -f $(NGINX_BROTLI_MODULE) ] && [ "$$(id -u)" = 0 ]; then \
	  apt-cache show $(NGINX_BROTLI_PACKAGE) >/dev/null 2>&1 || apt-get update -q >/dev/null 2>&1; \
	  if apt-cache show $(NGINX_BROTLI_PACKAGE) >/dev/null 2>&1; then \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(NGINX_BROTLI_PACKAGE) \
	      || echo "note: $(NGINX_BROTLI_PACKAGE) did not install: the nginx brotli tests will skip"; \
	  else echo "note: this Debian has no package $(NGINX_BROTLI_PACKAGE): the nginx brotli tests will skip"; fi; \
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

# lothc, the seed page's client, needs Python >= 3.13: the HTTP race runs its rows in a venv of their own, made
# from LOTHC_PYTHON, else pyenv's newest 3.13+, else python3.13 on PATH. When none is there (or pip fails), the
# reason goes to $(LOTHC_VENV).missing and lothc's rows print it; the stamp is then left out, so the next
# `make bench` tries again.
LOTHC_VENV := .venv-lothc
LOTHC_PYTHON ?=

$(STAMPS)/bench-lothc: bench/lothc_venv.sh
	@bench/lothc_venv.sh $(LOTHC_VENV) "$(LOTHC_PYTHON)"
	@if [ ! -e $(LOTHC_VENV).missing ]; then mkdir -p $(STAMPS) && touch $@; fi

clean:
	rm -rf build $(STAMPS) $(VENV) $(LOTHC_VENV) $(LOTHC_VENV).missing

# ---- reliability: make fuzz / make sanitize / make soak (fuzz/README.md); none of them runs in make test ----------
# clang for libFuzzer (clang-19 and its compiler-rt exist under these names in Debian 12 and 13); python3-dev for
# embedding CPython in the JSON targets (headers + libpython) when the venv's interpreter is Debian's.
FUZZ_APT_PACKAGES := clang-19 libclang-rt-19-dev python3-dev
FUZZ_CXX := clang++-19
FUZZ_CC := clang-19
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= fuzz_http_response fuzz_chunked fuzz_content_decoder fuzz_sse fuzz_request_writer fuzz_url fuzz_proxy_tunnel fuzz_tls_client fuzz_h2_client fuzz_json_untyped fuzz_json_typed fuzz_json_encode_roundtrip fuzz_msgpack fuzz_cookie fuzz_multipart atheris_api
FUZZ_BUILD := build/fuzz
TOOLS_PATH := PATH=$(CURDIR)/$(VENV)/bin:$$PATH

fuzz: fuzz-build
	@$(PY) fuzz/run_fuzz.py --bin $(FUZZ_BUILD)/targets --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-deps:
	@missing=""; for p in $(FUZZ_APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "missing:$$missing; run as root or install them"; exit 1; fi; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

# -fno-sanitize=function,vptr: atheris's bundled ASan runtime (older than clang-19) lacks those checks' handlers
# (vptr checks appear since the HTTP client's polymorphic types joined the module).
FUZZ_CORE_SANITIZE := -fsanitize=address,undefined,fuzzer-no-link -fno-sanitize=function,vptr -fno-sanitize-recover=all
# The Python targets import a boltwire._core built with clang, ASan + UBSan and libFuzzer coverage
# (-fsanitize=fuzzer-no-link) from the top-level CMakeLists, laid out as a package in $(FUZZ_BUILD)/pkg.
fuzz-build: $(STAMPS)/build-deps fuzz-deps
	@$(TOOLS_PATH); set -e; mkdir -p $(FUZZ_BUILD); \
	$(PY) -c "import atheris" 2>/dev/null || $(PIP) install -q "atheris>=2.3"; \
	cmake -S . -B $(FUZZ_BUILD)/core -G Ninja -DCMAKE_C_COMPILER=$(FUZZ_CC) -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) -DPython_EXECUTABLE=$(CURDIR)/$(PY) \
	  -DBOLTWIRE_SANITIZE=ON -DBOLTWIRE_SANITIZE_FLAGS="$(FUZZ_CORE_SANITIZE)" >/dev/null; \
	cmake --build $(FUZZ_BUILD)/core >$(FUZZ_BUILD)/build.log 2>&1 || { tail -40 $(FUZZ_BUILD)/build.log; exit 1; }; \
	rm -rf $(FUZZ_BUILD)/pkg && mkdir -p $(FUZZ_BUILD)/pkg && cp -r src/boltwire $(FUZZ_BUILD)/pkg/; \
	rm -f $(FUZZ_BUILD)/pkg/boltwire/*.so && cp $(FUZZ_BUILD)/core/_core*.so $(FUZZ_BUILD)/pkg/boltwire/; \
	cmake -S fuzz -B $(FUZZ_BUILD)/targets -G Ninja -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) \
	  -DPython_EXECUTABLE=$(CURDIR)/$(PY) -DBW_FUZZ_PKG_DIR=$(CURDIR)/$(FUZZ_BUILD)/pkg >/dev/null; \
	cmake --build $(FUZZ_BUILD)/targets >>$(FUZZ_BUILD)/build.log 2>&1 || { tail -40 $(FUZZ_BUILD)/build.log; exit 1; }

# make sanitize: boltwire built by the default compiler with ASan + UBSan (BOLTWIRE_SANITIZE) into its own build dir
# and package dir, the whole suite run against it (PYTHONPATH puts it before the venv's copy) with the ASan runtime
# preloaded into CPython and PYTHONMALLOC=malloc (so ASan sees every object). The native codec tests build and run
# their own ASan binary (BOLTWIRE_NATIVE_SANITIZE=1). Leak checking is off: LSan cannot tell CPython's
# process-lifetime allocations from leaks (leaks are covered by the refcount tests and make soak).
SANITIZE_BUILD := build/sanitize
SANITIZE_ENV = PYTHONPATH=$(CURDIR)/$(SANITIZE_BUILD)/pkg PYTHONMALLOC=malloc BOLTWIRE_NATIVE_SANITIZE=1 \
  ASAN_OPTIONS=detect_leaks=0:suppressions=$(CURDIR)/fuzz/sanitize/asan.supp \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 LD_PRELOAD=$$($${CXX:-g++} -print-file-name=libasan.so)

sanitize: $(STAMPS)/test-deps
	@$(TOOLS_PATH); set -e; mkdir -p $(SANITIZE_BUILD); \
	cmake -S . -B $(SANITIZE_BUILD)/core -G Ninja -DPython_EXECUTABLE=$(CURDIR)/$(PY) -DBOLTWIRE_SANITIZE=ON \
	  "-DBOLTWIRE_SANITIZE_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all" >/dev/null; \
	cmake --build $(SANITIZE_BUILD)/core >$(SANITIZE_BUILD)/build.log 2>&1 || { tail -40 $(SANITIZE_BUILD)/build.log; exit 1; }; \
	rm -rf $(SANITIZE_BUILD)/pkg && mkdir -p $(SANITIZE_BUILD)/pkg && cp -r src/boltwire $(SANITIZE_BUILD)/pkg/; \
	rm -f $(SANITIZE_BUILD)/pkg/boltwire/*.so && cp $(SANITIZE_BUILD)/core/_core*.so $(SANITIZE_BUILD)/pkg/boltwire/; \
	$(SANITIZE_ENV) $(PY) -c "import boltwire._core as c, sys; sys.exit(0 if '$(SANITIZE_BUILD)/pkg' in c.__file__ else 'not the sanitized build: ' + c.__file__)"; \
	start=$$(date +%s); \
	$(SANITIZE_ENV) $(PY) -m pytest -p no:cacheprovider $(PYTEST_ARGS); \
	echo "sanitize: test suite under ASan + UBSan passed in $$(( $$(date +%s) - start )) s"

# make soak: long leak/soak runs, each a script printing its figures and failing on growth or drift.
# soak_http.py: 10^6 async requests at concurrency 100, 2*10^5 sync, 10^5 async https and 5*10^3 https handshakes,
# against a private nginx (system-deps).
SOAK_SCRIPTS := soak/soak_json.py soak/soak_http.py

soak: system-deps build
	@for s in $(SOAK_SCRIPTS); do $(PY) $$s || exit 1; done
