# snap-poem: the two commands of the README, plus the benchmark.
#   make demo   install what is missing, build, read SampleImages/Lenore.png with Lenore=Alex
#   make test   install what is missing, build, run the whole test suite
#   make bench  install what is missing, build (release), measure (see BENCHMARKS.md)
#   make fuzz   build the libFuzzer targets (Fuzz/) and fuzz each for FUZZ_SECONDS (see SECURITY.md)
#   make test-asan  the whole suite under AddressSanitizer + LeakSanitizer
SHELL := /bin/bash
.DEFAULT_GOAL := demo

# Debian packages: the C libraries (with pkg-config to find them), the tesseract CLI
# (benchmark baseline), python3 (the tests' MIME parser and the CER tool).
APT_PACKAGES := pkg-config libtesseract-dev libleptonica-dev libpng-dev tesseract-ocr python3
SWIFT_BUILD_FLAGS ?=
FUZZ_SECONDS ?= 600

.PHONY: demo test bench deps build release clean samples lint format fuzz fuzz-smoke test-asan

deps:
	@missing=""; for package in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

release: deps
	swift build -c release $(SWIFT_BUILD_FLAGS)

demo: release
	@echo '$$ snap-poem SampleImages/Lenore.png --replace Lenore=Alex'
	@"$$(swift build -c release --show-bin-path)/snap-poem" SampleImages/Lenore.png --replace Lenore=Alex

# Three runs: the concurrency tests under ThreadSanitizer (in a build folder of their own);
# the time-limit and cancellation tests alone, because they measure wall-clock bounds that
# other tests' CPU load on a 2-core machine would blur; then every other test. Last, every
# fuzzing seed is replayed once through the libFuzzer targets (built with ASan).
test: deps lint
	swift test --sanitize=thread --scratch-path .build/tsan --filter 'ConcurrencyTests|BatchTests' $(SWIFT_BUILD_FLAGS)
	swift test --filter RecognizerControlTests $(SWIFT_BUILD_FLAGS)
	swift test --skip-build --skip RecognizerControlTests $(SWIFT_BUILD_FLAGS)
	Scripts/fuzz.sh --smoke

# The whole suite under AddressSanitizer + LeakSanitizer, in a build folder of its own, the
# wall-clock tests alone first as in make test. Not part of make test (a second full build,
# and the suite runs about twice as slow); the memory-limit tests skip themselves here
# (ASan's shadow memory cannot live under ulimit -v). Third-party leaks kept until exit are
# listed in Scripts/lsan-suppressions.txt; children get the symbolizer to name their frames.
ASAN_ENV := SNAP_POEM_TESTS_SANITIZER=address LSAN_OPTIONS=suppressions=$(CURDIR)/Scripts/lsan-suppressions.txt \
  ASAN_SYMBOLIZER_PATH=$$(dirname $$(readlink -f $$(command -v swift)))/llvm-symbolizer
test-asan: deps
	$(ASAN_ENV) swift test --sanitize=address --scratch-path .build/asan --filter RecognizerControlTests $(SWIFT_BUILD_FLAGS)
	$(ASAN_ENV) swift test --sanitize=address --scratch-path .build/asan --skip-build --skip RecognizerControlTests $(SWIFT_BUILD_FLAGS)

# Each libFuzzer target in Fuzz/Targets for FUZZ_SECONDS, one after another (niced).
fuzz: deps
	Scripts/fuzz.sh --seconds $(FUZZ_SECONDS)

# Every committed seed input of every fuzz target, once (part of make test).
fuzz-smoke: deps
	Scripts/fuzz.sh --smoke

bench: release
	mkdir -p bench-results
	Scripts/bench.sh | tee bench-results/latest.md

# The toolchain's formatter, configured in .swift-format; make test fails on any finding.
lint:
	swift format lint --strict --recursive Sources Tests Package.swift

format:
	swift format --in-place --recursive Sources Tests Package.swift

samples:
	SampleImages/make-samples.sh

clean:
	rm -rf .build
