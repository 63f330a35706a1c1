# snap-poem: the two commands of the README, plus the benchmark.
#   make demo   install what is missing, build, read SampleImages/Lenore.png with Lenore=Alex
#   make test   install what is missing, build, run the whole test suite
#   make bench  install what is missing, build (release), measure (see BENCHMARKS.md)
#   make docs   the library's DocC documentation in .build/docs (see README, "Library")
#   make fuzz   build the libFuzzer targets (Fuzz/) and fuzz each for FUZZ_SECONDS (see SECURITY.md)
#   make test-asan  the whole suite under AddressSanitizer + LeakSanitizer
#   make soak   snap-poem serve under a hostile mix next to honest clients for SOAK_SECONDS (see SECURITY.md)
#   make test-debian13  as root: the current commit in a Debian 13 root made with debootstrap (see below)
SHELL := /bin/bash
.DEFAULT_GOAL := demo

# Debian packages: the C libraries (with pkg-config to find them; libpng and libjpeg because
# the shim quiets the codecs Leptonica decodes with, CodecMessages.cpp), the tesseract CLI
# (benchmark baseline), python3 (the tests' MIME parser and the CER tool).
APT_PACKAGES := pkg-config libtesseract-dev libleptonica-dev libpng-dev libjpeg-dev tesseract-ocr python3
# snap-poem serve is built on libmicrohttpd.
APT_PACKAGES += libmicrohttpd-dev
SWIFT_BUILD_FLAGS ?=
# Batches on a real scheduler (make test-deploy, run by make test): a one-node Slurm cluster
# (slurm-wlm, munge); kubernetes-validate comes with deps-service's virtualenv.
DEPLOY_APT_PACKAGES := slurm-wlm munge python3-venv
# make bench's profile of a batch (perf record); the held-out set's renderer (Pillow, numpy,
# fonts that SampleImages/ does not use); RapidOCR, the modern peer, in a virtualenv under .build.
BENCH_APT_PACKAGES := linux-perf python3-pil python3-numpy fonts-linuxlibertine fonts-freefont-ttf fonts-urw-base35 python3-venv
RAPIDOCR_VENV := .build/rapidocr-venv
RAPIDOCR_PIP_PACKAGES := 'rapidocr==3.10.0' onnxruntime
FUZZ_SECONDS ?= 600
SOAK_SECONDS ?= 600
# Installing like a Linux tool (make install, make deb, and their tests in make test): dpkg-dev
# (dpkg-deb, dpkg-shlibdeps), lintian, man-db (man -l renders the page), and the three shells
# whose completions are installed and tested for real.
PACKAGE_APT_PACKAGES := dpkg-dev lintian man-db bash-completion zsh fish

.PHONY: demo test bench deps build release clean samples lint format deps-deploy deps-bench deps-service deps-package test-deploy fuzz fuzz-smoke test-asan soak

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

deps-package:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(PACKAGE_APT_PACKAGES)"

deps-bench:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(BENCH_APT_PACKAGES)"
	@[ -x $(RAPIDOCR_VENV)/bin/python ] || python3 -m venv $(RAPIDOCR_VENV)
	@$(RAPIDOCR_VENV)/bin/python -c 'import rapidocr, onnxruntime' 2>/dev/null || \
	  { echo "Installing into $(RAPIDOCR_VENV): $(RAPIDOCR_PIP_PACKAGES)"; \
	    $(RAPIDOCR_VENV)/bin/pip install -q --disable-pip-version-check $(RAPIDOCR_PIP_PACKAGES); }

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

# Four runs: the concurrency tests under ThreadSanitizer (in a build folder of their own);
# the time-limit and cancellation tests alone, because they measure wall-clock bounds that
# other tests' CPU load on a 2-core machine would blur; the service's hostile clients and
# its worst accepted load alone, for the same reason (and their pages would slow the other
# tests past their own time limits), with the other tests that hold a server or a batch to
# a time or memory bound (ALONE_TESTS: a clean run of the whole suite at once, load 40 on
# two cores, saw a good image pass the 15 s per-image limit, a 220 MB run report the
# thread limit after its error, and a 300 s wait for a request to start); then every other
# test. Then every
# fuzzing seed is replayed once through the libFuzzer targets (built with ASan). Last, the
# library as other packages see it: the documentation's code blocks compile, the DocC build has
# no warnings, and the example package builds and prints what the command prints.
ALONE_TESTS = HostileClientTests|DeployMemoryTests|ServerTests|WorkerIsolationTests|MemoryLimitTests|LayoutTimeLimitTests
test: deps deps-service deps-package lint
	swift test --sanitize=thread --scratch-path .build/tsan --filter 'ConcurrencyTests|BatchTests|BatchChannelTests|BatchResultsTests/(progress|cancellation)' $(SWIFT_BUILD_FLAGS)
	swift test --filter RecognizerControlTests $(SWIFT_BUILD_FLAGS)
	swift test --skip-build --filter '$(ALONE_TESTS)' $(SWIFT_BUILD_FLAGS)
	swift test --skip-build --skip 'RecognizerControlTests|$(ALONE_TESTS)' $(SWIFT_BUILD_FLAGS)
	Scripts/fuzz.sh --smoke
	$(MAKE) --no-print-directory snippets docs examples
	@$(MAKE) --no-print-directory test-deploy
	@$(MAKE) --no-print-directory test-install test-package

# The whole suite under AddressSanitizer + LeakSanitizer, in a build folder of its own, the
# wall-clock tests alone first as in make test. Not part of make test (a second full build,
# and the suite runs about twice as slow); the memory-limit tests skip themselves here
# (ASan's shadow memory cannot live under ulimit -v). Third-party leaks kept until exit are
# listed in Scripts/lsan-suppressions.txt; children get the symbolizer to name their frames.
ASAN_ENV := SNAP_POEM_TESTS_SANITIZER=address LSAN_OPTIONS=suppressions=$(CURDIR)/Scripts/lsan-suppressions.txt \
  ASAN_SYMBOLIZER_PATH=$$(dirname $$(readlink -f $$(command -v swift)))/llvm-symbolizer
test-asan: deps deps-service
	$(ASAN_ENV) swift test --sanitize=address --scratch-path .build/asan --filter RecognizerControlTests $(SWIFT_BUILD_FLAGS)
	$(ASAN_ENV) swift test --sanitize=address --scratch-path .build/asan --skip-build --filter HostileClientTests $(SWIFT_BUILD_FLAGS)
	$(ASAN_ENV) swift test --sanitize=address --scratch-path .build/asan --skip-build --skip 'RecognizerControlTests|HostileClientTests' $(SWIFT_BUILD_FLAGS)

# snap-poem serve --jobs 2 (release) for SOAK_SECONDS under slow headers, part floods,
# abandoned uploads, FIND and pixel bombs, next to honest clients; fails unless every honest
# request is answered, /healthz p99 < 100 ms, memory stays within the budget and nothing
# crashes (Scripts/soak.py; figures in SECURITY.md). Not part of make test.
soak: release
	Scripts/soak.py --seconds $(SOAK_SECONDS) --binary "$$(swift build -c release --show-bin-path)/snap-poem"

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

# Installing like a Linux tool (issue 23).
#   make install    PREFIX=/usr/local (default) and DESTDIR (staging): the stripped release
#                   binary in PREFIX/bin, the models in PREFIX/share/snap-poem/tessdata (the
#                   binary finds them from its own location), the man page, and the bash, zsh
#                   and fish completions, all generated from the option table
#   make uninstall  removes exactly those files (and the two folders of snap-poem's own)
#   make deb        .build/deb/snap-poem_VERSION_ARCH.deb (Scripts/make-deb.sh)
# The release build links Swift's runtime and Foundation statically (--static-swift-stdlib),
# so that the binary needs only Debian's libraries; with no RUNPATH ($ORIGIN, which Debian
# forbids) and with bind-now relocations. It has a build folder of its own
# (.build/dist), so make release and make bench are not rebuilt by it, and the other way round.
.PHONY: dist install uninstall deb test-install test-package
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
DIST := .build/dist
DIST_BUILD = swift build -c release --static-swift-stdlib --disable-local-rpath --scratch-path $(DIST)/build \
  -Xlinker -z -Xlinker now $(SWIFT_BUILD_FLAGS)
VERSION := $(shell sed -n 's/^public let version = "\(.*\)"$$/\1/p' Sources/SnapPoem/Support/Version.swift)
# The date of the man page and of the package's changelog: the last commit's, so that the same
# source makes the same files (https://reproducible-builds.org/specs/source-date-epoch/).
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH
# Whatever tessdata/ holds, but its README.
TESSDATA_FILES = $(shell find tessdata -maxdepth 1 -type f ! -name '*.md' | LC_ALL=C sort)
INSTALLED_COMPLETIONS = $(DATADIR)/bash-completion/completions/snap-poem $(DATADIR)/zsh/site-functions/_snap-poem \
  $(DATADIR)/fish/vendor_completions.d/snap-poem.fish

# The stripped binary, the generator, and the completions, in .build/dist; rebuilt when a
# source changes, so that `make dist` then `sudo make install` does not build as root.
dist: $(DIST)/snap-poem
$(DIST)/snap-poem: Package.swift $(shell find Sources -type f 2>/dev/null) | deps
	$(DIST_BUILD) --product snap-poem
	$(DIST_BUILD) --product snap-poem-generate
	install -m 0755 "$$($(DIST_BUILD) --show-bin-path)/snap-poem-generate" $(DIST)/snap-poem-generate
	for shell in bash zsh fish; do $(DIST)/snap-poem-generate completion $$shell > $(DIST)/completion.$$shell; done
	install -m 0755 "$$($(DIST_BUILD) --show-bin-path)/snap-poem" $(DIST)/snap-poem.unstripped
	strip --remove-section=.comment --remove-section=.note -o $(DIST)/snap-poem $(DIST)/snap-poem.unstripped

install: $(DIST)/snap-poem
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/snap-poem/tessdata $(DESTDIR)$(DATADIR)/man/man1 \
	  $(DESTDIR)$(DATADIR)/bash-completion/completions $(DESTDIR)$(DATADIR)/zsh/site-functions \
	  $(DESTDIR)$(DATADIR)/fish/vendor_completions.d
	install -m 0755 $(DIST)/snap-poem $(DESTDIR)$(BINDIR)/snap-poem
	install -m 0644 $(TESSDATA_FILES) $(DESTDIR)$(DATADIR)/snap-poem/tessdata/
	$(DIST)/snap-poem-generate man --tessdata $(DATADIR)/snap-poem/tessdata > $(DESTDIR)$(DATADIR)/man/man1/snap-poem.1
	chmod 0644 $(DESTDIR)$(DATADIR)/man/man1/snap-poem.1
	install -m 0644 $(DIST)/completion.bash $(DESTDIR)$(DATADIR)/bash-completion/completions/snap-poem
	install -m 0644 $(DIST)/completion.zsh $(DESTDIR)$(DATADIR)/zsh/site-functions/_snap-poem
	install -m 0644 $(DIST)/completion.fish $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/snap-poem.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/snap-poem $(DESTDIR)$(DATADIR)/man/man1/snap-poem.1 $(addprefix $(DESTDIR),$(INSTALLED_COMPLETIONS))
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/snap-poem/tessdata/,$(notdir $(TESSDATA_FILES)))
	for folder in $(DESTDIR)$(DATADIR)/snap-poem/tessdata $(DESTDIR)$(DATADIR)/snap-poem; do \
	  [ ! -d $$folder ] || rmdir --ignore-fail-on-non-empty $$folder; done

deb: $(DIST)/snap-poem deps-package
	Scripts/make-deb.sh $(DIST) .build/deb

# make test's checks of the two: a staged make install and uninstall (Scripts/test-install.sh),
# and the package built, checked by lintian, installed with apt-get, used and purged
# (Scripts/test-package.sh, as root: it is the one step of make test that writes system paths).
test-install: $(DIST)/snap-poem
	Scripts/test-install.sh

test-package: deb
	Scripts/test-package.sh .build/deb/snap-poem_$(VERSION)_$$(dpkg --print-architecture).deb

# Debian 13 (run by .ci/run after make test; as root): the current commit in a Debian 13 root
# made with debootstrap in .build/debian13-root (Scripts/debian-root.sh; made once, then reused
# for a week), from a clean clone of HEAD: make demo, the library's and command line's tests,
# and make test-package (the .deb built there, lintian, installed, used, purged). Each step is
# printed and timed; mounts live only in each step's mount namespace (Scripts/test-debian13.sh).
.PHONY: test-debian13
test-debian13:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="debootstrap"
	Scripts/test-debian13.sh

clean:
	rm -rf .build
