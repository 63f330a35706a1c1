# snap-poem: the two commands of the README, plus the benchmark.
#   make demo   install what is missing, build, read SampleImages/Lenore.png with Lenore=Alex
#   make bench  install what is missing, build (release), measure (see BENCHMARKS.md)
#   make docs   the library's DocC documentation in .build/docs (see README, "Library")
#   make fuzz   build the libFuzzer targets (Fuzz/) and fuzz each for FUZZ_SECONDS (see SECURITY.md)
#   make soak   snap-poem serve under a hostile mix next to honest clients for SOAK_SECONDS (see SECURITY.md)
# The tests, in three tiers (see "Tests in tiers" below):
#   make check        the quick loop: format lint, debug build, the in-process tests
#   make test         everything that leaves the machine as it was (but the build's own packages)
#   make test-system  for CI: what must change the machine (packages, the .deb, a Slurm
#                     cluster, browsers, shells, root's steps), then the sanitizers
#   make test-asan    the whole suite under AddressSanitizer + LeakSanitizer (CI runs a part)
#   make test-debian13  for CI: the current commit built and tested in a Debian 13 root (debootstrap)
SHELL := /bin/bash
.DEFAULT_GOAL := demo

# Debian packages: the C libraries (with pkg-config to find them; libpng and libjpeg because
# the shim quiets the codecs Leptonica decodes with, CodecMessages.cpp), python3 (the tests'
# MIME parser and the CER tool).
APT_PACKAGES := pkg-config libtesseract-dev libleptonica-dev libpng-dev libjpeg-dev python3
# snap-poem serve is built on libmicrohttpd.
APT_PACKAGES += libmicrohttpd-dev
# HEIC and AVIF are decoded by libheif. Debian 12's libheif 1.15 has its HEVC and AV1 decoders
# built in; from Debian 13 (libheif 1.19) they are plugins that libheif1 only recommends.
APT_PACKAGES += libheif-dev
APT_PACKAGES += $(shell grep -qs '^VERSION_CODENAME=bookworm' /etc/os-release || echo libheif-plugin-libde265 libheif-plugin-dav1d)
SWIFT_BUILD_FLAGS ?=
# What make test's checks use beside the build, as the build's own packages (tools its tests
# run, none a service, a shell or a browser): python3-venv (the tools from PyPI, in a virtual
# environment under .build: deps-service), nodejs (node --check page.js), man-db (man -l and
# lexgrog render and index the manual page).
TEST_APT_PACKAGES := python3-venv nodejs man-db
# Batches on a real scheduler (make test-slurm, in make test-system): a one-node Slurm cluster
# (slurm-wlm, munge). munge's package adds a system user and a service, and slurm-wlm pulls in
# dozens of packages: not the build's own, so make test does not install them.
DEPLOY_APT_PACKAGES := slurm-wlm munge
# make bench's profile of a batch (perf record); the held-out set's renderer (Pillow, numpy,
# fonts that SampleImages/ does not use); the tesseract CLI and wrk, the baselines of the
# command and of the service; RapidOCR, the modern peer, in a virtualenv under .build.
BENCH_APT_PACKAGES := linux-perf python3-pil python3-numpy fonts-linuxlibertine fonts-freefont-ttf fonts-urw-base35 python3-venv \
  tesseract-ocr wrk
RAPIDOCR_VENV := .build/rapidocr-venv
RAPIDOCR_PIP_PACKAGES := 'rapidocr==3.10.0' onnxruntime
FUZZ_SECONDS ?= 600
SOAK_SECONDS ?= 600
# The package and its test (make deb, make test-package, in make test-system): dpkg-dev
# (dpkg-deb, dpkg-shlibdeps), lintian, man-db; and the shells whose completions the package
# installs and the tests load for real (bash-completion, zsh, fish: make test skips those
# checks without them).
PACKAGE_APT_PACKAGES := dpkg-dev lintian man-db
SHELL_APT_PACKAGES := bash-completion zsh fish
# The page and the HTML exports in a real browser (make test-system): Debian's chromium and
# chromium-driver; and systemd, whose systemd-analyze checks deploy/snap-poem.service (the
# init system itself: containers lack it, and make test does not install it).
BROWSER_APT_PACKAGES := chromium chromium-driver
SYSTEMD_APT_PACKAGES := systemd
SYSTEM_APT_PACKAGES := $(DEPLOY_APT_PACKAGES) $(PACKAGE_APT_PACKAGES) $(SHELL_APT_PACKAGES) $(BROWSER_APT_PACKAGES) $(SYSTEMD_APT_PACKAGES)

.PHONY: demo bench deps build release clean samples lint format deps-test deps-deploy deps-bench deps-service deps-package deps-system \
  fuzz fuzz-smoke soak

deps:
	@missing=""; for package in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $$missing; \
	fi

deps-test:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(TEST_APT_PACKAGES)"

deps-deploy:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(DEPLOY_APT_PACKAGES)"

deps-system:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(SYSTEM_APT_PACKAGES)"

deps-package:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(PACKAGE_APT_PACKAGES)"

deps-bench:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(BENCH_APT_PACKAGES)"
	@[ -x $(RAPIDOCR_VENV)/bin/python ] || python3 -m venv $(RAPIDOCR_VENV)
	@$(RAPIDOCR_VENV)/bin/python -c 'import rapidocr, onnxruntime' 2>/dev/null || \
	  { echo "Installing into $(RAPIDOCR_VENV): $(RAPIDOCR_PIP_PACKAGES)"; \
	    $(RAPIDOCR_VENV)/bin/pip install -q --disable-pip-version-check $(RAPIDOCR_PIP_PACKAGES); }

# What the service's tests use from PyPI: selenium (the browser tests, which make test-system
# runs with Debian's Chromium), kubernetes-validate (deploy/kubernetes-service.yaml),
# schemathesis (the API against its OpenAPI document) and axe-selenium-python (axe-core,
# offline: the page's accessibility), installed with pip into a virtual environment under
# .build, since Debian's python3 refuses system-wide installs.
SERVICE_VENV := .build/service-venv
SERVICE_PIP_PACKAGES := 'selenium>=4.20,<5' 'kubernetes-validate==1.37.0' 'schemathesis==4.32.5'
# axe-selenium-python 3.0.0 ships axe-core 4.10.2 (2.1.6 has 2018's 3.1.1, which misses contrast
# findings 4.x makes). It declares Python >= 3.12, but its two small modules run on the 3.11
# here (checked), so it is installed on its own with pip's --ignore-requires-python.
SERVICE_AXE_PACKAGE := 'axe-selenium-python==3.0.0'

deps-service: deps deps-test
	@[ -x $(SERVICE_VENV)/bin/python ] || python3 -m venv $(SERVICE_VENV)
	@$(SERVICE_VENV)/bin/python -c 'import selenium, kubernetes_validate, schemathesis, importlib.metadata as m; assert m.version("axe-selenium-python") == "3.0.0"' 2>/dev/null || \
	  { echo "Installing into $(SERVICE_VENV): $(SERVICE_PIP_PACKAGES) $(SERVICE_AXE_PACKAGE)"; \
	    $(SERVICE_VENV)/bin/pip install -q --disable-pip-version-check $(SERVICE_PIP_PACKAGES) && \
	    $(SERVICE_VENV)/bin/pip install -q --disable-pip-version-check --ignore-requires-python --no-deps $(SERVICE_AXE_PACKAGE); }

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

# The release build is compiled and linked as the package ships it (DIST_FLAGS below), so that
# make demo and make bench run the binary that ships, and make dist with DIST_SCRATCH=.build
# only links (SwiftPM compiles every module with -static-stdlib under --static-swift-stdlib: a
# plain release build there would be compiled again). Product by product: the test support
# target imports Testing, which has no static library.
RELEASE_PRODUCTS := snap-poem snap-poem-bench snap-poem-generate
release: deps
	for product in $(RELEASE_PRODUCTS); do swift build -c release $(DIST_FLAGS) $(SWIFT_BUILD_FLAGS) --product $$product || exit 1; done

demo: release
	@echo '$$ snap-poem SampleImages/Lenore.png --replace Lenore=Alex'
	@"$$(swift build -c release --show-bin-path)/snap-poem" SampleImages/Lenore.png --replace Lenore=Alex

# Tests in tiers (DESIGN.md; Docs/testing.md).
#
#   make check        the quick loop, for a change just made: format lint, the debug build, and
#                     the in-process tests (no snap-poem process, no server, no browser) in
#                     parallel. Installs nothing but the build's packages.
#   make test         everything that leaves the machine as it found it, but for the build's
#                     own Debian packages (APT_PACKAGES, TEST_APT_PACKAGES) and the tools from
#                     PyPI in .build/service-venv: the whole suite with the end-to-end tests
#                     on the built executable, the fuzz seeds, the documentation's code, the
#                     example package, make install staged and the installed binary tested
#                     (test-install, test-shipped), the Kubernetes files validated. It never
#                     installs or removes snap-poem, starts no service and takes no root step.
#                     Tests that need a tool it does not install (Chromium, zsh, fish,
#                     bash-completion, systemd-analyze) or a root step skip themselves, saying
#                     that make test-system runs them, whatever this machine has installed.
#   make test-system  for CI, as root: first says what it will change, then installs the tools
#                     above (SYSTEM_APT_PACKAGES), runs the tests that need them or a root step,
#                     make test-install again with zsh and fish, deploy/slurm-array.sh on a
#                     one-node Slurm cluster (test-slurm), the .deb built, installed with
#                     apt-get and purged (test-package), then the sanitizers (test-asan-ci,
#                     test-tsan). Run make test first: it builds what these use.
#   make test-debian13  for CI, as root: the commit built and tested in a Debian 13 root.
#
# The suites that run the snap-poem executable, a server, or batch worker processes: make
# check leaves them to make test. (Test IDs are TARGET.SUITE/...; a suite of that name in
# another target still runs.)
END_TO_END_SUITES := SnapPoemCLITests\.($\
AnnotateCommandTests|ArgumentBytesTests|BatchCommandTests|EndToEndTests|ExportCommandLineTests|ExportEndToEndTests|$\
FolderInputTests|BadInputCorpusTests|BatchBoundsTests|OnePathTests|TestHookTests|CodecMessageTests|InputOutputRowsTests|$\
MultiPageCommandTests|LayoutTimeLimitTests|MemoryLimitTests|ReplacementBoundsTests|StreamFailureTests|ManualPageTests|$\
ShellCompletionTests|ManifestResumeTests|OutputShapeTests|BrickMorphologyBindingTests|InlineOpenMPBindingTests|$\
LineImageEncodingTests|UniversalAmbiguitiesTests|PersonaliseEndToEndTests|ProgressOutputTests|ShardManifestTests|$\
SupervisorConcurrencyTests|WorkerIsolationTests)|SnapPoemServiceTests\.($\
BrowserTests|DeployFilesTests|DeployMemoryTests|HostileClientTests|OpenAPITests|PageEditorTests|ReadingBrowserTests|$\
ServerTests)
# The suites with tests that need a tool make test does not install (SystemTool in
# Tests/Support): make test and make check skip those tests (SNAP_POEM_TESTS_SYSTEM_TOOLS=no),
# make test-system runs these suites with the tools.
SYSTEM_SUITES := SideBySideBrowserTests|BrowserTests|ReadingBrowserTests|ShellCompletionTests|DeployFilesTests
# The tests that take a step only root can take and that changes the machine while it lasts
# (RootStep in Tests/Support: a tmpfs mounted to fill a disk, a folder made immutable): make
# test skips them, even as root; make test-system runs them as root with
# SNAP_POEM_TESTS_ROOT_STEPS=1.
ROOT_STEP_TESTS := OutputFileTests/(unwritableFolder|diskFull)|ExportEndToEndTests/(unwritableFolder|diskFull)|$\
StreamFailureTests|BadInputCorpusTests/badInputOnFullDisk|BatchBoundsTests/fullDiskManifest
# The suites whose very subject is a latency: an in-process recognition stopped within a few
# hundred milliseconds of its time limit or cancellation (RecognizerControlTests), and
# /healthz answered within 2-3 s while hostile clients attack the server (HostileClientTests).
# They run first, on their own: beside the other tests, two cores' worth of their work would
# be measured instead. Every other test waits on events and bounds processor time, not wall
# time, and runs in parallel. When .ci/run runs two targets at once, it names a lock in
# SNAP_POEM_CI_LOCK that the other work holds shared: the timed suites take it exclusively
# (TIMED_ALONE), so that they still run alone on the machine.
TIMED_IN_PROCESS := RecognizerControlTests
TIMED_SUITES := $(TIMED_IN_PROCESS)|HostileClientTests
TIMED_ALONE = $(if $(SNAP_POEM_CI_LOCK),flock -x $(SNAP_POEM_CI_LOCK))
SWIFT_TEST = swift test --skip-build $(SWIFT_BUILD_FLAGS)
TIER_TEST = env SNAP_POEM_TESTS_SYSTEM_TOOLS=no $(SWIFT_TEST)

.PHONY: check test test-system build-tests test-suite test-library test-sanitizers test-asan test-asan-ci test-tsan \
  test-slurm test-system-suites test-deploy build-asan build-tsan

build-tests: deps
	swift build --build-tests $(SWIFT_BUILD_FLAGS)

# Swift's driver leaves an empty TemporaryDirectory.XXXXXX (holding .keep-directory) in the
# temporary folder each time it runs (swiftlang/swift-driver#1613 and #2049): some 900 in
# /tmp after a make test. make check, make test and make test-system give it, and everything
# they start, a temporary folder of the build's own (TMPDIR), so that they leave /tmp as they
# found it.
BUILD_TMPDIR := $(CURDIR)/.build/tmp
WITH_BUILD_TMPDIR = mkdir -p $(BUILD_TMPDIR) && TMPDIR=$(BUILD_TMPDIR)

check: deps
	@$(WITH_BUILD_TMPDIR) $(MAKE) --no-print-directory check-steps

.PHONY: check-steps
check-steps:
	@$(MAKE) --no-print-directory -j2 lint build-tests
	$(TIMED_ALONE) $(TIER_TEST) --filter '$(TIMED_IN_PROCESS)'
	$(TIER_TEST) --skip '$(TIMED_IN_PROCESS)|$(END_TO_END_SUITES)|$(SYSTEM_SUITES)'

# The fuzz seeds' build keeps one core busy for minutes (one compiler process, the library in
# one module): it runs beside the checks after the suite, which leave a core idle for as long.
test: deps deps-service
	@$(WITH_BUILD_TMPDIR) $(MAKE) --no-print-directory -j2 lint build-tests
	@$(WITH_BUILD_TMPDIR) $(MAKE) --no-print-directory test-suite
	@$(WITH_BUILD_TMPDIR) $(MAKE) --no-print-directory -j2 fuzz-smoke test-after-suite

# What make test checks after the suite, one after another (beside the fuzz seeds).
.PHONY: test-after-suite
test-after-suite:
	@$(MAKE) --no-print-directory -j1 test-library test-deploy test-install test-shipped

# Every suite of the debug build, the timed ones first and alone, then the rest in parallel;
# but the command's suites (SnapPoemCLITests), which test-shipped runs on the binary that
# ships, except the tests that inject faults through the hooks only a debug build has
# (DEBUG_BUILD_ONLY; a suite's own ID must escape the pattern too, or all of it is skipped:
# BatchBoundsTests$). Running them once rather than on both executables saves about 100 s
# of CPU (2026-12-07).
DEBUG_BUILD_ONLY := WorkerIsolationTests|BatchBoundsTests($$|/readyWhileBusy)
test-suite:
	$(TIMED_ALONE) $(TIER_TEST) --filter '$(TIMED_SUITES)'
	$(TIER_TEST) --skip '$(TIMED_SUITES)|^SnapPoemCLITests\.(?!($(DEBUG_BUILD_ONLY)))'

# The library as other packages see it: the documentation's code blocks compile, the DocC
# build has no warnings, and the example package builds and prints what the command prints.
test-library: snippets docs examples

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

# The Kubernetes Job checked against the Kubernetes schemas, offline (make test).
test-deploy: deps-service
	Scripts/validate-kubernetes.sh

# deploy/slurm-array.sh submitted to a one-node Slurm cluster that Scripts/slurm-local.sh
# starts (as root: munged, slurmctld and slurmd as its children, with every file in a
# temporary folder) and stops again (make test-system).
test-slurm: deps-deploy build
	$(SUDO) env SNAP_POEM="$$(swift build --show-bin-path)/snap-poem" Scripts/slurm-local.sh

# What make test-system changes, said before it changes it.
define SYSTEM_NOTICE
make test-system changes this machine:
  - installs these Debian packages if missing, and leaves them installed:
      $(SYSTEM_APT_PACKAGES)
    (munge's package adds a 'munge' user; installing systemd into a container installs the init system)
  - runs the tests that need them (Chromium, bash-completion, zsh, fish, systemd-analyze), and
    make test-install again with zsh and fish
  - as root: runs the tests that mount a small tmpfs on a temporary folder of theirs (a full
    disk) or make one immutable (chattr +i), and undo it
  - as root: starts munged, slurmctld and slurmd on free ports, with their key, state and logs
    in a temporary folder, runs deploy/slurm-array.sh on them, and stops them (test-slurm)
  - as root: builds the .deb, installs it with apt-get, uses it, and purges it; it refuses
    to start if snap-poem is installed already (test-package)
  - then the sanitizers, which change nothing outside .build (test-asan-ci, test-tsan)
endef
export SYSTEM_NOTICE
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

test-system:
	@echo "$$SYSTEM_NOTICE"
	@$(MAKE) --no-print-directory deps-system deps-service
	@$(WITH_BUILD_TMPDIR) $(MAKE) --no-print-directory test-system-suites test-install test-slurm test-package test-sanitizers

# The suites with tests that need the tools make test-system installs, and the tests that take
# root's steps.
test-system-suites: build-tests
	SNAP_POEM_TESTS_ROOT_STEPS=1 $(SWIFT_TEST) --filter '$(SYSTEM_SUITES)|$(ROOT_STEP_TESTS)'

# The sanitizers of make test-system: the two instrumented builds side by side (each has long
# stretches that keep one core busy), then AddressSanitizer's CI selection and
# ThreadSanitizer's tests.
test-sanitizers: deps deps-service
	@$(MAKE) --no-print-directory -j2 build-asan build-tsan
	@$(MAKE) --no-print-directory test-asan-ci test-tsan

# The whole suite under AddressSanitizer + LeakSanitizer, the end-to-end tests on the
# instrumented executable, whose every exit (errors and SIGTERM included) is a leak check: a
# process frees what it owns before it exits. The timed suites alone first, as in make test.
# The tests that run under ulimit -v skip themselves (ASan's shadow memory cannot live under
# it), and bounds of processor time or memory are scaled for the sanitizer
# (SNAP_POEM_TESTS_SANITIZER). Third-party leaks kept until exit are listed in
# Scripts/lsan-suppressions.txt; children get the symbolizer to name their frames. About 30
# minutes on 2 cores (2026-12-06: 27 min of tests after the build), so CI runs test-asan-ci.
ASAN_ENV := SNAP_POEM_TESTS_SANITIZER=address LSAN_OPTIONS=suppressions=$(CURDIR)/Scripts/lsan-suppressions.txt \
  ASAN_SYMBOLIZER_PATH=$$(dirname $$(readlink -f $$(command -v swift)))/llvm-symbolizer
ASAN_BUILD := --sanitize=address --scratch-path .build/asan $(SWIFT_BUILD_FLAGS)
build-asan: deps
	swift build --build-tests $(ASAN_BUILD)

test-asan: build-asan deps-service
	$(TIMED_ALONE) env $(ASAN_ENV) swift test --skip-build $(ASAN_BUILD) --filter '$(TIMED_SUITES)'
	$(ASAN_ENV) swift test --skip-build $(ASAN_BUILD) --skip '$(TIMED_SUITES)'

# What CI runs under AddressSanitizer (make test-system): the suites that reach snap-poem's
# unsafe code (pointers and C calls: decoding, images, Tesseract, batches and their workers,
# output files, the HTTP server) and every kind of exit of the command, each exit a leak check
# (a reading, usage errors, bad inputs, crashed workers, Ctrl-C, SIGTERM). Left out:
#   - the suites that judge the reading of many sample photos (the pipeline's passes, book
#     pages, tilt, keystone, page edges, orientation, annotation geometry, coverage, two
#     engines, large type, plain reading, the ground split, the ambiguity table's readings,
#     the reading service): the same C wrappers as the suites kept, on more images; but one
#     curled page flattened and one keystone correction run, whose pixel loops nothing else
#     reaches;
#   - the suites of safe Swift, where ASan has nothing to find: text and replacements,
#     the exporters, the service's request handling in process (SnapPoemService has no C),
#     engine loans;
#   - command suites that take, through the executable, paths the kept suites reach already
#     (batches, their bounds, manifests and resuming, exports, pages of a file, output
#     shapes, personalising, image options);
#   - the suites whose subject is time: the timed suites and the layout time limit;
#     ConcurrencyTests (ThreadSanitizer's); the browser, shell and systemd suites (make
#     test-system runs them above, without a sanitizer). The root steps skip themselves here.
# make asan-ci-coverage (2026-12-08): of the 5,634 lines in files with pointers or C calls
# that the whole suite reaches, the suites kept reach 5,547, in 425 tests and about a third of
# the whole suite's processor time on that build. The 87 others: the loop that levels curved
# lines (39), a manifest's refusals (23), parts of the image analysis (11) and the keystone
# correction (8), a worker's and the white point's few lines. The selection before this one
# (585 tests) took twice the processor time and never ran the flattening of a curled page or
# the keystone correction.
ASAN_CI_SKIP := $(TIMED_SUITES)|$(SYSTEM_SUITES)|ConcurrencyTests|LayoutTimeLimitTests|$\
BookPageTests/(?!switchAndReport)|CoverageCheckTests|DoubtfulLineTests|LanguageChoiceTests|LargeTypeTests|LayoutReductionTests|$\
LenorePipelineTests|PersonalisePipelineTests|PhotoPipelineTests|TiltSweepTests|TwoEngineTests|AnnotationGeometryTests|$\
OrientationDetectorTests|KeystoneTests/(?!marksComeBack)|PageEdgeTests|DeployMemoryTests|ServiceReadingTests|AnnotateCommandTests|$\
PlainReadingTests|GroundSplitTests|UniversalAmbiguitiesReadingTests|$\
SnapPoemTests\.ReplacementBoundsTests|ReplacementsFileTests|EmailDraftExporterTests|HTMLExporterTests|LayoutExportTests|$\
JSONExporterTests|MarkdownExporterTests|SnapPoemServiceTests\.PoemServiceTests|EngineLoanTests|$\
BatchCommandTests|BatchBoundsTests|ManifestResumeTests|ExportEndToEndTests|MultiPageCommandTests|OutputShapeTests|$\
PersonaliseCommandTests|PersonaliseEndToEndTests|ImageOptionTests
test-asan-ci: build-asan deps-service
	$(ASAN_ENV) swift test --skip-build $(ASAN_BUILD) --skip '$(ASAN_CI_SKIP)'

# What that selection gives up: the lines of the files with pointers or C calls that the whole
# suite (but the timed and system suites) reaches and the selection does not, from a build with
# coverage in .build/coverage (Scripts/asan-ci-coverage.py; about 13 minutes on 2 cores). Not in any tier:
# run it after changing ASAN_CI_SKIP.
.PHONY: asan-ci-coverage
asan-ci-coverage: deps deps-service
	Scripts/asan-ci-coverage.py '$(TIMED_SUITES)|$(SYSTEM_SUITES)|ConcurrencyTests' '$(ASAN_CI_SKIP)'

# The concurrency tests (engines shared by tasks, batches, their channels, progress and
# cancellation) under ThreadSanitizer, in a build folder of its own.
TSAN_SUITES := ConcurrencyTests|BatchTests|BatchChannelTests|BatchResultsTests/(progress|cancellation)
TSAN_BUILD := --sanitize=thread --scratch-path .build/tsan $(SWIFT_BUILD_FLAGS)
build-tsan: deps
	swift build --build-tests $(TSAN_BUILD)

test-tsan: build-tsan
	SNAP_POEM_TESTS_SANITIZER=thread swift test --skip-build $(TSAN_BUILD) --filter '$(TSAN_SUITES)'

# The tuning/held-out corpus (Scripts/corpus/README.md): 300 rendered poem scans and photos in
# 20 classes with randomised conditions, 40 % held out by a stable hash of each image's id.
# Tune on the tuning part (make corpus-tune); quote the held-out part (make corpus-holdout,
# side by side with the tesseract CLI and RapidOCR).
CORPUS_APT_PACKAGES := python3-pil python3-numpy fonts-linuxlibertine fonts-freefont-ttf fonts-urw-base35 \
  fonts-texgyre fonts-ebgaramond fonts-dejavu-core fonts-dejavu-extra fonts-dancingscript tesseract-ocr
CORPUS_DIR ?= .build/corpus
.PHONY: deps-corpus corpus corpus-tune corpus-holdout corpus-self-test
deps-corpus:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(CORPUS_APT_PACKAGES)"
corpus: $(CORPUS_DIR)/index.json
$(CORPUS_DIR)/index.json: $(wildcard Scripts/corpus/*.py Scripts/benchset/*.py) | deps-corpus
	rm -rf $(CORPUS_DIR)
	nice -n 10 /usr/bin/python3 Scripts/corpus/make_corpus.py $(CORPUS_DIR) --count 300 --seed 1
corpus-tune: release $(CORPUS_DIR)/index.json
	nice -n 10 /usr/bin/python3 Scripts/corpus/score.py --corpus $(CORPUS_DIR) --part tune \
	  --snap-poem "$$(swift build -c release --show-bin-path)/snap-poem" --out .build/corpus-tune.json
corpus-holdout: release deps-bench $(CORPUS_DIR)/index.json
	mkdir -p bench-results
	nice -n 10 /usr/bin/python3 Scripts/corpus/score.py --corpus $(CORPUS_DIR) --part holdout \
	  --snap-poem "$$(swift build -c release --show-bin-path)/snap-poem" --rapidocr --out bench-results/corpus-holdout.json \
	  | tee bench-results/corpus-holdout.md
corpus-self-test: deps-corpus
	/usr/bin/python3 Scripts/corpus/make_corpus.py --self-test

bench: release deps-bench deps-service deps-corpus
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
# With DIST_SCRATCH=.build it is only linked from make release's objects, which make release
# compiles with the same flags (DIST_FLAGS); make test-debian13 does this after make demo.
.PHONY: dist install uninstall deb test-install test-package
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share
DIST := .build/dist
DIST_SCRATCH ?= $(DIST)/build
DIST_FLAGS = --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now
DIST_BUILD = swift build -c release $(DIST_FLAGS) --scratch-path $(DIST_SCRATCH) $(SWIFT_BUILD_FLAGS)
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
	install -d $(DIST)
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

# The command's suites (SnapPoemCLITests) on the binary that make install and the .deb ship
# (release, Swift's runtime linked statically, stripped), staged under .build/shipped with
# PREFIX=/usr, as make test-debian13 runs them on Debian 13: a poem, exports, batches and
# their workers, interrupts and SIGTERM, ulimit -v and memory limits, damaged files, the
# overrides' bindings, --version. The tests that inject faults through debug-only hooks skip
# themselves here; test-suite runs them on the debug build.
SHIPPED := .build/shipped
.PHONY: test-shipped
test-shipped: $(DIST)/snap-poem
	rm -rf $(SHIPPED)
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(SHIPPED) PREFIX=/usr > /dev/null
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	SNAP_POEM_TEST_BINARY=$(CURDIR)/$(SHIPPED)/usr/bin/snap-poem $(TIER_TEST) --filter '^SnapPoemCLITests\.' --skip '$(TIMED_SUITES)'

# The checks of the two: a staged make install and uninstall (Scripts/test-install.sh, in make
# test; make test-system runs it again with zsh and fish), and the package built, checked by
# lintian, installed with apt-get, used and purged (Scripts/test-package.sh, as root, in make
# test-system: installing a package writes system paths).
test-install: $(DIST)/snap-poem
	Scripts/test-install.sh

test-package: deb
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(SHELL_APT_PACKAGES)"
	$(SUDO) Scripts/test-package.sh .build/deb/snap-poem_$(VERSION)_$$(dpkg --print-architecture).deb

# Debian 13 (in .ci/run, beside make test-system): the current commit in a Debian 13 root that
# Scripts/debian-root.sh makes with debootstrap in .build/debian13-root (from the archive apt
# uses here; kept for the next run while younger than a week, made again otherwise), from a
# clean clone of HEAD: make demo (the README's first command), make test-install and make
# test-package (the .deb built there, lintian, installed, used, purged), then the library's
# and the command line's tests (the timed suite last and alone). Each step is printed and timed
# (Scripts/test-debian13.sh). As root; says what it changes first.
define DEBIAN13_NOTICE
make test-debian13 changes this machine:
  - installs debootstrap if missing, and leaves it installed
  - as root: makes a Debian 13 (trixie) root in .build/debian13-root with debootstrap, and
    runs the steps in an overlay over it (.build/debian13-run, removed at the end); /proc,
    /sys, a /dev of its own, the Swift toolchain and this clone's git folder are mounted
    there only in a mount namespace of each step's own, so no mount outlives a step, even
    on failure; nothing is written to this machine's /dev or /etc
endef
export DEBIAN13_NOTICE
.PHONY: test-debian13 debian13-root
test-debian13:
	@echo "$$DEBIAN13_NOTICE"
	@$(MAKE) --no-print-directory deps APT_PACKAGES="debootstrap"
	$(SUDO) Scripts/test-debian13.sh

# Its first step on its own: the root made (or kept, as above). .ci/run makes it while make
# test runs, since debootstrap and apt mostly wait on the network.
debian13-root:
	@echo "$$DEBIAN13_NOTICE"
	@$(MAKE) --no-print-directory deps APT_PACKAGES="debootstrap"
	$(SUDO) env DEBIAN_ROOT_CACHE=$(CURDIR)/.build/debian13-cache Scripts/debian-root.sh create trixie $(CURDIR)/.build/debian13-root

clean:
	rm -rf .build
