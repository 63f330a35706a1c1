# snap-poem: the two commands of the README, plus the benchmark.
#   make demo   install what is missing, build, read SampleImages/Lenore.png with Lenore=Alex
#   make test   install what is missing, build, run the whole test suite
#   make bench  install what is missing, build (release), measure (see BENCHMARKS.md)
#   make docs   the library's DocC documentation in .build/docs (see README, "Library")
#   make fuzz   build the libFuzzer targets (Fuzz/) and fuzz each for FUZZ_SECONDS (see SECURITY.md)
#   make test-asan  the whole suite under AddressSanitizer + LeakSanitizer
SHELL := /bin/bash
.DEFAULT_GOAL := demo

# Debian packages: the C libraries (with pkg-config to find them), the tesseract CLI
# (benchmark baseline), python3 (the tests' MIME parser and the CER tool).
APT_PACKAGES := pkg-config libtesseract-dev libleptonica-dev libpng-dev tesseract-ocr python3
# snap-poem serve is built on libmicrohttpd.
APT_PACKAGES += libmicrohttpd-dev
SWIFT_BUILD_FLAGS ?=
# Batches on a real scheduler (make test-deploy, run by make test): a one-node Slurm cluster
# (slurm-wlm, munge); kubernetes-validate comes with deps-service's virtualenv.
DEPLOY_APT_PACKAGES := slurm-wlm munge python3-venv
# make bench's profile of a batch (perf record).
BENCH_APT_PACKAGES := linux-perf
FUZZ_SECONDS ?= 600

.PHONY: demo test bench deps build release clean samples lint format deps-deploy deps-bench deps-service test-deploy fuzz fuzz-smoke test-asan

deps:
	@missing=""; for package in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $$missing; \
	fi

deps-deploy:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(DEPLOY_APT_PACKAGES)"

deps-bench:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(BENCH_APT_PACKAGES)"

# What the service's tests and benchmark use besides the build: Debian's chromium and
# chromium-driver (the page in a real browser), systemd (systemd-analyze checks
# deploy/snap-poem.service), wrk (make bench's load test), and from PyPI selenium,
# kubernetes-validate (deploy/kubernetes-service.yaml), schemathesis (the API against its
# OpenAPI document) and axe-selenium-python (axe-core, offline: the page's accessibility),
# installed with pip into a virtual environment under .build, since Debian's python3 refuses
# system-wide installs.
SERVICE_APT_PACKAGES := chromium chromium-driver wrk python3-venv systemd
SERVICE_VENV := .build/service-venv
SERVICE_PIP_PACKAGES := 'selenium>=4.20,<5' 'kubernetes-validate==1.37.0' 'schemathesis==4.32.5'
# axe-selenium-python 3.0.0 ships axe-core 4.10.2 (2.1.6 has 2018's 3.1.1, which misses contrast
# findings 4.x makes). It declares Python >= 3.12, but its two small modules run on the 3.11
# here (checked), so it is installed on its own with pip's --ignore-requires-python.
SERVICE_AXE_PACKAGE := 'axe-selenium-python==3.0.0'

deps-service: deps
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(SERVICE_APT_PACKAGES)"
	@[ -x $(SERVICE_VENV)/bin/python ] || python3 -m venv $(SERVICE_VENV)
	@$(SERVICE_VENV)/bin/python -c 'import selenium, kubernetes_validate, schemathesis, importlib.metadata as m; assert m.version("axe-selenium-python") == "3.0.0"' 2>/dev/null || \
	  { echo "Installing into $(SERVICE_VENV): $(SERVICE_PIP_PACKAGES) $(SERVICE_AXE_PACKAGE)"; \
	    $(SERVICE_VENV)/bin/pip install -q --disable-pip-version-check $(SERVICE_PIP_PACKAGES) && \
	    $(SERVICE_VENV)/bin/pip install -q --disable-pip-version-check --ignore-requires-python --no-deps $(SERVICE_AXE_PACKAGE); }

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

release: deps
	swift build -c release $(SWIFT_BUILD_FLAGS)

demo: release
	@echo '$$ snap-poem SampleImages/Lenore.png --replace Lenore=Alex'
	@"$$(swift build -c release --show-bin-path)/snap-poem" SampleImages/Lenore.png --replace Lenore=Alex

# Three runs: the concurrency tests under ThreadSanitizer (in a build folder of their own);
# the time-limit and cancellation tests alone, because they measure wall-clock bounds that
# other tests' CPU load on a 2-core machine would blur; then every other test. Then every
# fuzzing seed is replayed once through the libFuzzer targets (built with ASan). Last, the
# library as other packages see it: the documentation's code blocks compile, the DocC build has
# no warnings, and the example package builds and prints what the command prints.
test: deps deps-service lint
	swift test --sanitize=thread --scratch-path .build/tsan --filter 'ConcurrencyTests|BatchTests|BatchChannelTests|BatchResultsTests/(progress|cancellation)' $(SWIFT_BUILD_FLAGS)
	swift test --filter RecognizerControlTests $(SWIFT_BUILD_FLAGS)
	swift test --skip-build --skip RecognizerControlTests $(SWIFT_BUILD_FLAGS)
	Scripts/fuzz.sh --smoke
	$(MAKE) --no-print-directory snippets docs examples
	@$(MAKE) --no-print-directory test-deploy

# The whole suite under AddressSanitizer + LeakSanitizer, in a build folder of its own, the
# wall-clock tests alone first as in make test. Not part of make test (a second full build,
# and the suite runs about twice as slow); the memory-limit tests skip themselves here
# (ASan's shadow memory cannot live under ulimit -v). Third-party leaks kept until exit are
# listed in Scripts/lsan-suppressions.txt; children get the symbolizer to name their frames.
ASAN_ENV := SNAP_POEM_TESTS_SANITIZER=address LSAN_OPTIONS=suppressions=$(CURDIR)/Scripts/lsan-suppressions.txt \
  ASAN_SYMBOLIZER_PATH=$$(dirname $$(readlink -f $$(command -v swift)))/llvm-symbolizer
test-asan: deps deps-service
	$(ASAN_ENV) swift test --sanitize=address --scratch-path .build/asan --filter RecognizerControlTests $(SWIFT_BUILD_FLAGS)
	$(ASAN_ENV) swift test --sanitize=address --scratch-path .build/asan --skip-build --skip RecognizerControlTests $(SWIFT_BUILD_FLAGS)

# Each libFuzzer target in Fuzz/Targets for FUZZ_SECONDS, one after another (niced).
fuzz: deps
	Scripts/fuzz.sh --seconds $(FUZZ_SECONDS)

# Every committed seed input of every fuzz target, once (part of make test).
fuzz-smoke: deps
	Scripts/fuzz.sh --smoke

# The deploy/ files on the real things: deploy/slurm-array.sh submitted to a one-node Slurm
# cluster that Scripts/slurm-local.sh starts (as root) and stops again, and the Kubernetes
# Job checked against the Kubernetes schemas, offline.
test-deploy: deps-deploy deps-service build
	Scripts/slurm-local.sh
	Scripts/validate-kubernetes.sh

bench: release deps-bench deps-service
	mkdir -p bench-results
	Scripts/bench.sh | tee bench-results/latest.md

# The toolchain's formatter, configured in .swift-format; make test fails on any finding.
lint:
	swift format lint --strict --recursive Sources Tests Package.swift $(EXAMPLE_SOURCES)

format:
	swift format --in-place --recursive Sources Tests Package.swift $(EXAMPLE_SOURCES)

samples:
	SampleImages/make-samples.sh

# Using snap-poem from other packages (issue 12).
#   make docs       DocC archive + static website of the SnapPoem library in .build/docs, with
#                   the toolchain's swift-symbolgraph-extract and docc; any warning fails
#   make snippets   compiles every Swift code block of README.md, Docs/, the DocC articles and
#                   the library's doc comments
#   make examples   builds Examples/PoemTools (depends on snap-poem by path) and checks its output
.PHONY: docs snippets examples
EXAMPLE_SOURCES := Examples/PoemTools/Sources Examples/PoemTools/Package.swift
DOCUMENTED := README.md $(wildcard Docs/*.md) $(wildcard Sources/SnapPoem/SnapPoem.docc/*.md) \
  $(shell find Sources/SnapPoem -name '*.swift' | sort)

docs: deps
	Scripts/docs.sh

snippets: deps
	swift build --target SnapPoem $(SWIFT_BUILD_FLAGS)
	swift build --target SnapPoemService $(SWIFT_BUILD_FLAGS)
	Scripts/check-snippets.py --self-test
	Scripts/check-snippets.py $(DOCUMENTED)

examples: deps
	Scripts/test-examples.py

clean:
	rm -rf .build
