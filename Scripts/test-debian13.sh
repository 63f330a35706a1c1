#!/usr/bin/env bash
# make test-debian13 (run by .ci/run, as root): the current commit on Debian 13,
# in a Debian 13 root made with debootstrap (Scripts/debian-root.sh), from a clean clone.
#
#   Scripts/test-debian13.sh
#
# Steps, each printed before it runs and timed:
#   1. the root: .build/debian13-root, debootstrap trixie plus what the Swift toolchain needs
#      (made once, reused while its stamp matches and it is younger than a week);
#   2. git clone of this repository into the root, checked out at HEAD (uncommitted changes
#      are not tested: a warning says so). Every later step works in an overlay over the root
#      (.build/debian13-run), removed at the end, so each run starts from the same root;
#   3. make demo, the README's first command: its own `make deps` installs the Debian 13
#      packages, then the poem must come out with every "Lenore" replaced by "Alex" and read
#      as well as on Debian 12 (SampleImages/cer.py against SampleImages/Lenore.txt);
#   4. make test-install test-package: make deb (its binary linked from make demo's release
#      objects; Depends from dpkg-shlibdeps, in the root), lintian (no error,
#      no warning), apt-get install, use, purge, and nothing left (Scripts/test-package.sh);
#      then Depends is checked to name Debian 13's library packages (libleptonica6, not
#      Debian 12's liblept5);
#   5. swift test, the SnapPoemTests target, then the SnapPoemCLITests target on the binary
#      that ships (make install's, staged in .build/shipped; SNAP_POEM_TEST_BINARY), which is
#      also quicker than the debug build's (SnapPoemServiceTests, the sanitizers, the fuzzing
#      seeds, the docs and the deploy/ files are make test's and make test-system's, on
#      Debian 12);
#   6. the timed suite alone: when SNAP_POEM_CI_LOCK names a lock (.ci/run, which runs make
#      test-system beside this and holds it shared meanwhile), it is taken exclusively first.
# The mounts live only in each step's mount namespace and are gone after it, also on failure
# or Ctrl-C; nothing is written to the machine's /dev or /etc. Downloaded packages are kept
# in .build/debian13-cache. Needs root, debootstrap and the Swift toolchain (/opt/swift).
set -euo pipefail
cd "$(dirname "$0")/.."
here=$PWD
fail() { echo "test-debian13: FAILED: $*" >&2; exit 1; }
say() { echo "test-debian13: $*"; }
[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap, mount and chroot need it)"

# --- Inside the root, in the clone (the clone's copy of this script runs there).
if [ "${1:-}" = --in-root ]; then
    targets='^(SnapPoemTests|SnapPoemCLITests)\.'
    timed=$(sed -n 's/^TIMED_IN_PROCESS := //p' Makefile)
    [ -n "$timed" ] || fail "no TIMED_IN_PROCESS in the Makefile"
    case ${2:-} in
        swift-tests)
            # Every test of these targets but the suites whose subject is a latency (the
            # Makefile's TIMED_IN_PROCESS), in parallel; those run alone afterwards
            # (timed-tests). Tests that need a tool this root lacks (Chromium, zsh, fish) or a
            # root step skip themselves, as in make test.
            echo "--- make deps deps-test deps-package: what the manual page tests (and make test-package) use"
            make --no-print-directory deps deps-test deps-package > /tmp/deps.log 2>&1 || { cat /tmp/deps.log; fail "make deps deps-test deps-package"; }
            echo "--- swift build --build-tests"
            swift build --build-tests > /tmp/build-tests.log 2>&1 ||
                { grep -A 3 'error:' /tmp/build-tests.log | head -n 60; fail "swift build --build-tests"; }
            tail -n 1 /tmp/build-tests.log
            echo "--- every test of SnapPoemTests but ${timed//|/, }"
            SNAP_POEM_TESTS_SYSTEM_TOOLS=no swift test --skip-build --filter '^SnapPoemTests\.' --skip "$timed"
            # The command's suites run the binary that ships (make install's, linked from
            # make demo's release objects, as the .deb's is): tests that need the debug build's
            # fault hooks skip themselves (TestedExecutable.isShipped).
            echo "--- make install DESTDIR=.build/shipped: the binary the .deb ships, staged"
            rm -rf .build/shipped
            make --no-print-directory install DESTDIR="$PWD/.build/shipped" PREFIX=/usr DIST_SCRATCH=.build > /tmp/install.log 2>&1 ||
                { cat /tmp/install.log; fail "make install DESTDIR=.build/shipped"; }
            echo "--- every test of SnapPoemCLITests, on .build/shipped/usr/bin/snap-poem"
            SNAP_POEM_TEST_BINARY=$PWD/.build/shipped/usr/bin/snap-poem SNAP_POEM_TESTS_SYSTEM_TOOLS=no \
                swift test --skip-build --filter '^SnapPoemCLITests\.' --skip "$timed"
            ;;
        timed-tests)
            echo "--- ${timed//|/, } alone (bounds on wall-clock time)"
            swift test --skip-build --filter "${targets}($timed)/"
            ;;
        *) fail "--in-root swift-tests|timed-tests" ;;
    esac
    exit 0
fi

suite=trixie
root=$here/.build/debian13-root
overlay=$here/.build/debian13-run
# Downloaded packages, kept: debootstrap's and apt's of the root, apt's of the steps.
export DEBIAN_ROOT_CACHE=$here/.build/debian13-cache
apt_cache=$DEBIAN_ROOT_CACHE/apt
clone=/root/snap-poem
commit=$(git rev-parse HEAD)
git_dir=$(realpath "$(git rev-parse --git-common-dir)")
swift=$(command -v swift) || fail "swift is not on PATH"
toolchain=$(realpath "$(dirname "$(readlink -f "$swift")")/../..")
started=$(date +%s)
number=0
timings=()
# step TITLE COMMAND...: prints what it does, runs it, prints how long it took.
step() {
    local title=$1 begin status=0
    shift
    number=$((number + 1))
    echo
    echo "=== test-debian13 step $number: $title"
    begin=$(date +%s)
    cpu_seconds
    local cpu_before=$cpu
    "$@" || status=$?
    cpu_seconds
    local took=$(($(date +%s) - begin))
    cpu=$((cpu - cpu_before))
    timings+=("$(printf '%5d s %6s  %d. %s' "$took" "($cpu)" "$number" "$title")")
    echo "=== step $number: $([ "$status" -eq 0 ] && echo done || echo "FAILED (status $status)") in $took s" \
        "($cpu s of CPU; load average $(cut -d' ' -f1-3 /proc/loadavg))"
    return "$status"
}
# Sets cpu to the CPU seconds (user and system) of every process this script has waited for:
# all that ran in the root, which the machine's other work does not change (wall-clock time
# it does). `times` runs in this shell (in a subshell it would count the subshell's).
cpu=0
cpu_seconds() {
    times > "$here/.build/debian13-times"
    cpu=$(tail -n 1 "$here/.build/debian13-times" | awk '{
        total = 0
        for (i = 1; i <= 2; i++) { split($i, part, /[ms]/); total += part[1] * 60 + part[2] }
        printf "%d\n", total
    }')
}
in_root() {
    Scripts/debian-root.sh run "$root" --overlay "$overlay" --bind "$toolchain" --bind "$git_dir" \
        --cache "$apt_cache:/var/cache/apt/archives" -- "$@"
}
in_clone() { in_root bash -c "set -euo pipefail; cd $clone; $1"; }

mkdir -p "$here/.build"
exec 9> "$here/.build/debian13-run.lock"
flock -n 9 || fail "another make test-debian13 is running in this folder"
finish() {
    local status=$?
    rm -rf --one-file-system "$overlay"
    local mounted
    mounted=$(awk -v prefix="$here/.build/debian13" 'index($5, prefix) == 1 { print $5 }' /proc/self/mountinfo)
    if [ -n "$mounted" ]; then
        echo "test-debian13: FAILED: still mounted: $mounted" >&2
        status=1
    else
        say "nothing is mounted under .build/debian13-*; the root is kept in ${root#"$here"/} for the next run"
    fi
    echo
    echo "test-debian13: times (wall clock, and CPU seconds in brackets)"
    printf '  %s\n' "${timings[@]}"
    cpu_seconds
    echo "  $(($(date +%s) - started)) s in all ($cpu s of CPU)"
    [ "$status" -eq 0 ] && say "passed" || echo "test-debian13: FAILED (status $status)" >&2
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT TERM HUP

say "commit $(git log -1 --format='%h %s' | cut -c1-100)"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    say "warning: the working tree has uncommitted changes; they are not tested (a clean clone of HEAD is)"
fi
rm -rf --one-file-system "$overlay"

step "the Debian 13 root ($suite in ${root#"$here"/}, made or reused)" \
    Scripts/debian-root.sh create "$suite" "$root"

step "git clone of this repository into the root, at $(git rev-parse --short HEAD)" \
    in_root bash -c "git -c safe.directory='*' clone -q --no-hardlinks '$git_dir' $clone &&
        git -C $clone checkout -q --detach $commit && git -C $clone log -1 --format='  HEAD is %h, %cd' &&
        . /etc/os-release && echo \"  in \$PRETTY_NAME\""

demo_check() {
    local output=$here/.build/debian13-demo.txt
    in_clone 'nice make demo' | tee "$output" || fail "make demo failed"
    # The poem is what follows the command make demo echoes.
    sed -n '/^\$ snap-poem SampleImages\/Lenore.png --replace Lenore=Alex$/,$p' "$output" | tail -n +2 > "$output.poem"
    [ -s "$output.poem" ] || fail "make demo printed no poem"
    ! grep -q Lenore "$output.poem" || fail "make demo's poem still says Lenore: $(grep Lenore "$output.poem")"
    local expected got
    expected=$(grep -o Lenore SampleImages/Lenore.txt | wc -l)
    got=$(grep -o Alex "$output.poem" | wc -l)
    [ "$got" -eq "$expected" ] || fail "make demo's poem says Alex $got times; Lenore.txt has Lenore $expected times"
    [ "$(head -n 1 "$output.poem")" = Alex ] || fail "make demo's poem does not start with its title, Alex"
    sed 's/Lenore/Alex/g' SampleImages/Lenore.txt > "$output.truth"
    if cmp -s "$output.truth" "$output.poem"; then
        say "make demo's poem is Lenore.txt with every Lenore replaced by Alex, exactly"
        return 0
    fi
    # Debian 12 and 13 read it exactly; another Tesseract may differ by a character, not by a
    # line: the pipeline tests' bar for Lenore.png (CER <= 0.01, SampleImages/cer.py).
    local cer
    cer=$(python3 SampleImages/cer.py "$output.truth" "$output.poem") || fail "SampleImages/cer.py failed"
    say "make demo's poem differs from Lenore.txt with Lenore=Alex: $cer"
    diff "$output.truth" "$output.poem" || true
    [[ $cer =~ ^CER\ ([0-9.]+)\  ]] || fail "SampleImages/cer.py said '$cer'"
    awk -v rate="${BASH_REMATCH[1]}" 'BEGIN { exit !(rate <= 0.01) }' || fail "make demo's poem reads worse than CER 0.01: $cer"
}
step "make demo (the README's first command) in the clone: installs the Debian 13 packages, builds, reads Lenore.png" \
    demo_check

# The package first: lintian, apt-get and dpkg keep one core busy at most, which the work
# .ci/run runs beside this uses; after the tests, they were minutes with a core idle.
depends_check() {
    # What make test-install and make test-package use (lintian, dpkg-dev, man-db).
    in_clone 'make --no-print-directory deps-test deps-package > /tmp/deps.log 2>&1 || { cat /tmp/deps.log; exit 1; }' ||
        fail "make deps-test deps-package"
    # man-db's cache as on a machine where man-db has run: its trigger (mandb -pq, as the man
    # user), which installing any package with a manual page runs, first fills
    # /var/cache/man/*/ with CACHEDIR.TAG files that stay after a purge. They are man-db's,
    # not the package's, but test-package.sh would count them as left behind.
    in_root setpriv --reuid man --regid man --init-groups -- mandb -pq || fail "mandb -pq"
    # DIST_SCRATCH=.build: the package's binary is linked from make demo's release objects,
    # compiled with the same flags (the Makefile's DIST_FLAGS), rather than compiled again.
    in_clone 'nice make test-install test-package DIST_SCRATCH=.build' || fail "make test-install test-package failed"
    local depends
    depends=$(in_clone 'dpkg-deb --field .build/deb/snap-poem_*.deb Depends') || fail "the package's Depends"
    say "Depends on Debian 13: $depends"
    [[ $depends == *libleptonica6* ]] || fail "Depends does not name libleptonica6 (Debian 13's Leptonica)"
    [[ $depends != *liblept5* ]] || fail "Depends names liblept5, Debian 12's Leptonica"
    [[ $depends == *libtesseract5* ]] || fail "Depends does not name libtesseract5"
}
step "make test-install test-package in the root: make install staged; make deb, lintian, apt-get install, use, purge, nothing left" \
    depends_check

step "swift test in the clone: SnapPoemTests, then SnapPoemCLITests on the shipped binary, all but the timed suite" \
    in_clone "Scripts/test-debian13.sh --in-root swift-tests"

# The timed suite runs alone on the machine. When .ci/run runs make test-system beside this, it
# holds the lock named by SNAP_POEM_CI_LOCK shared; this step takes it exclusively first, so it
# waits until that work is done (as the Makefile's TIMED_ALONE does).
alone() {
    [ -n "${SNAP_POEM_CI_LOCK:-}" ] || { "$@"; return; }
    local status=0
    exec 6>> "$SNAP_POEM_CI_LOCK"
    say "waiting for the other CI work to end ($SNAP_POEM_CI_LOCK), so that the timed suite runs alone"
    flock -x 6
    "$@" || status=$?
    flock -u 6
    exec 6>&-
    return "$status"
}
step "swift test in the clone: the timed suite alone" \
    alone in_clone "Scripts/test-debian13.sh --in-root timed-tests"
