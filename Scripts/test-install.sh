#!/usr/bin/env bash
# make test-install (part of make test; make test-system runs it again with zsh and fish):
# make install into a staging folder (DESTDIR, with PREFIX=/usr/local), then the staged binary
# used from another folder, then make uninstall.
#
# Checks that exactly the documented files are installed, that the binary is stripped and
# reports the source's version, that it reads a poem from any working folder with the models
# it finds from its own location (never the clone's), that the man page renders and names
# that folder, and that make uninstall leaves no file and no folder of snap-poem's behind.
# Writes nothing outside its own temporary folders.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "test-install: FAILED: $*" >&2; exit 1; }
stage=$(mktemp -d)
elsewhere=$(mktemp -d)
trap 'rm -rf "$stage" "$elsewhere"' EXIT
prefix=/usr/local
version=$(sed -n 's/^public let version = "\(.*\)"$/\1/p' Sources/SnapPoem/Support/Version.swift)

listing() { (cd "$stage" && find . -mindepth 1 \( -type f -o -type l \) -printf '%P\n' | LC_ALL=C sort); }
folders() { (cd "$stage" && find . -mindepth 1 -type d -printf '%P/\n' | LC_ALL=C sort); }

echo "test-install: files before make install (DESTDIR=$stage):"
[ -z "$(listing)" ] || fail "the staging folder is not empty"
echo "  (none)"
make --no-print-directory install DESTDIR="$stage" PREFIX="$prefix" > "$elsewhere/install.log" ||
    { cat "$elsewhere/install.log" >&2; fail "make install failed"; }

expected=$({
    echo "usr/local/bin/snap-poem"
    for model in tessdata/*; do
        [ -f "$model" ] && [[ $model != *.md ]] && echo "usr/local/share/snap-poem/tessdata/${model#tessdata/}"
    done
    echo "usr/local/share/man/man1/snap-poem.1"
    echo "usr/local/share/bash-completion/completions/snap-poem"
    echo "usr/local/share/zsh/site-functions/_snap-poem"
    echo "usr/local/share/fish/vendor_completions.d/snap-poem.fish"
} | LC_ALL=C sort)
echo "test-install: files after make install:"
listing | sed 's/^/  /'
[ "$(listing)" = "$expected" ] || { diff <(echo "$expected") <(listing) >&2 || true; fail "make install installed other files than these"; }

binary="$stage$prefix/bin/snap-poem"
[ "$(stat -c %a "$binary")" = 755 ] || fail "$binary is not mode 755"
if readelf -S "$binary" | grep -q '\.symtab'; then fail "$binary is not stripped"; fi
if readelf -d "$binary" | grep -q -E 'RPATH|RUNPATH'; then fail "$binary has a library search path"; fi
"$binary" --version | grep -q "^snap-poem $version " || fail "--version does not say $version: $("$binary" --version)"

# From another folder, with nothing pointing at the clone: the models beside the binary.
cp SampleImages/Lenore.png "$elsewhere/"
(cd "$elsewhere" && env -i PATH=/usr/bin:/bin HOME="$elsewhere" "$binary" --list-langs > "$elsewhere/languages" 2> "$elsewhere/folder")
languages=$(<"$elsewhere/folder")
[ "$languages" = "Languages in $stage$prefix/share/snap-poem/tessdata:" ] || fail "--list-langs says '$languages'"
poem=$(cd "$elsewhere" && env -i PATH=/usr/bin:/bin HOME="$elsewhere" "$binary" Lenore.png --replace Lenore=Alex)
[[ $poem == Alex$'\n'* ]] && [[ $poem != *Lenore* ]] || fail "the staged binary did not read Lenore.png: $poem"
echo "test-install: $prefix/bin/snap-poem read Lenore.png in $elsewhere with the staged models"

page="$stage$prefix/share/man/man1/snap-poem.1"
MANWIDTH=200 LANG=C.UTF-8 man --warnings -l "$page" > "$elsewhere/page.txt" 2> "$elsewhere/page.warnings"
grep -q "^       $prefix/share/snap-poem/tessdata$" "$elsewhere/page.txt" || fail "the man page does not name $prefix/share/snap-poem/tessdata"
[ ! -s "$elsewhere/page.warnings" ] || fail "man warned: $(<"$elsewhere/page.warnings")"
bash -n "$stage$prefix/share/bash-completion/completions/snap-poem" || fail "the bash completion does not parse"
# zsh and fish are not the build's packages: make test does not install them, make
# test-system does (and runs this script again); without them their check is skipped, said.
if command -v zsh > /dev/null; then
    zsh -n "$stage$prefix/share/zsh/site-functions/_snap-poem" || fail "the zsh completion does not parse"
else
    echo "test-install: SKIPPED: the zsh completion's parse check: zsh is not installed (make test-system installs it and runs this)"
fi
if command -v fish > /dev/null; then
    fish --no-execute "$stage$prefix/share/fish/vendor_completions.d/snap-poem.fish" || fail "the fish completion does not parse"
else
    echo "test-install: SKIPPED: the fish completion's parse check: fish is not installed (make test-system installs it and runs this)"
fi

make --no-print-directory uninstall DESTDIR="$stage" PREFIX="$prefix" > "$elsewhere/uninstall.log" ||
    { cat "$elsewhere/uninstall.log" >&2; fail "make uninstall failed"; }
echo "test-install: files after make uninstall:"
[ -z "$(listing)" ] || { listing >&2; fail "make uninstall left files behind"; }
echo "  (none)"
# Only the standard folders make install may have created remain, none of snap-poem's own.
if folders | grep -q snap-poem; then folders >&2; fail "make uninstall left a folder of snap-poem's"; fi
echo "test-install: folders left (standard ones, created by make install if missing): $(folders | tr '\n' ' ')"
echo "test-install: passed"
