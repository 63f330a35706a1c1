# snap-poem: the two commands of the README, plus the benchmark.
#   make demo   install what is missing, build, read SampleImages/Lenore.png with Lenore=Alex
#   make test   install what is missing, build, run the whole test suite
#   make bench  install what is missing, build (release), measure (see BENCHMARKS.md)
SHELL := /bin/bash
.DEFAULT_GOAL := demo

# Debian packages: the C libraries (with pkg-config to find them), the tesseract CLI
# (benchmark baseline), python3 (the tests' MIME parser and the CER tool).
APT_PACKAGES := pkg-config libtesseract-dev libleptonica-dev libpng-dev tesseract-ocr python3
# snap-poem serve is built on libmicrohttpd.
APT_PACKAGES += libmicrohttpd-dev
SWIFT_BUILD_FLAGS ?=

.PHONY: demo test bench deps build release clean samples lint format deps-service

deps:
	@missing=""; for package in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $$missing; \
	fi

# What the service's tests and benchmark use besides the build: Debian's chromium and
# chromium-driver (the page in a real browser), systemd (systemd-analyze checks
# deploy/snap-poem.service), wrk (make bench's load test), and from PyPI selenium and
# kubernetes-validate (deploy/kubernetes-service.yaml), installed with pip into a virtual
# environment under .build, since Debian's python3 refuses system-wide installs.
SERVICE_APT_PACKAGES := chromium chromium-driver wrk python3-venv systemd
SERVICE_VENV := .build/service-venv
SERVICE_PIP_PACKAGES := 'selenium>=4.20,<5' 'kubernetes-validate>=1.30,<2'

deps-service: deps
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(SERVICE_APT_PACKAGES)"
	@[ -x $(SERVICE_VENV)/bin/python ] || python3 -m venv $(SERVICE_VENV)
	@$(SERVICE_VENV)/bin/python -c 'import selenium, kubernetes_validate' 2>/dev/null || \
	  { echo "Installing into $(SERVICE_VENV): $(SERVICE_PIP_PACKAGES)"; \
	    $(SERVICE_VENV)/bin/pip install -q --disable-pip-version-check $(SERVICE_PIP_PACKAGES); }

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

release: deps
	swift build -c release $(SWIFT_BUILD_FLAGS)

demo: release
	@echo '$$ snap-poem SampleImages/Lenore.png --replace Lenore=Alex'
	@"$$(swift build -c release --show-bin-path)/snap-poem" SampleImages/Lenore.png --replace Lenore=Alex

# Three runs: the concurrency tests under ThreadSanitizer (in a build folder of their own);
# the time-limit and cancellation tests alone, because they measure wall-clock bounds that
# other tests' CPU load on a 2-core machine would blur; then every other test.
test: deps deps-service lint
	swift test --sanitize=thread --scratch-path .build/tsan --filter 'ConcurrencyTests|BatchTests' $(SWIFT_BUILD_FLAGS)
	swift test --filter RecognizerControlTests $(SWIFT_BUILD_FLAGS)
	swift test --skip-build --skip RecognizerControlTests $(SWIFT_BUILD_FLAGS)

bench: release deps-service
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
