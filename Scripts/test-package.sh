#!/usr/bin/env bash
# make test-package (part of make test-system, as root): the Debian package built by make deb,
# checked, installed on this machine with apt-get, used, and purged again.
#
#   Scripts/test-package.sh .build/deb/snap-poem_VERSION_ARCH.deb
#
# This is a step of make test-system that writes system paths, because installing a package
# does: it runs alone (a lock in /tmp keeps two runs on one machine apart), refuses to start
# when snap-poem is already installed, and purges the package on any exit. It checks:
#   - the package: its version is the binary's, Depends is there, every file is in a Debian
#     place, there are no maintainer scripts and no conffiles (nothing is enabled or started);
#   - lintian reports no error and no warning (its info tags are printed);
#   - apt-get install ./PACKAGE installs exactly the package's files; /usr/bin/snap-poem reads
#     SampleImages/Lenore.png from another folder with /usr/share/snap-poem/tessdata; man finds
#     the page; systemd-analyze verify accepts the unit; bash, zsh and fish find the
#     completions where they look; no unit is enabled;
#   - apt-get purge leaves nothing behind: the names of every file and folder under /usr, /etc,
#     /opt, /srv and /var (but logs and apt's lists and caches) are the same as before.
set -euo pipefail
cd "$(dirname "$0")/.."
package=$(realpath "${1:?usage: test-package.sh PACKAGE.deb}")
fail() { echo "test-package: FAILED: $*" >&2; exit 1; }
say() { echo "test-package: $*"; }
[ "$(id -u)" -eq 0 ] || fail "run as root (it installs the package)"
[ -f "$package" ] || fail "$package is missing; run 'make deb'"
version=$(sed -n 's/^public let version = "\(.*\)"$/\1/p' Sources/SnapPoem/Support/Version.swift)

exec 9> /tmp/snap-poem-package-test.lock
flock -w 1800 9 || fail "another package test has held /tmp/snap-poem-package-test.lock for 30 minutes"
work=$(mktemp -d)
installed_by_us=false
cleanup() {
    if $installed_by_us && dpkg-query -W -f='${Status}' snap-poem 2> "$work/query.err" | grep -q -v 'not-installed'; then
        echo "test-package: purging snap-poem after a failure" >&2
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 purge -y -qq snap-poem >&2 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

status=$(dpkg-query -W -f='${Status}' snap-poem 2> "$work/query.err" || true)
[ -z "$status" ] || [[ $status == *not-installed ]] ||
    fail "snap-poem is already known to dpkg here ($status); remove it first ('apt-get purge snap-poem')"
[ ! -e /usr/bin/snap-poem ] || fail "/usr/bin/snap-poem exists already and is not from the package"

# --- The package itself.
dpkg-deb --field "$package" > "$work/control"
say "control:"
sed 's/^/  /' "$work/control"
[ "$(dpkg-deb --field "$package" Version)" = "$version" ] || fail "Version is not $version"
[[ $(basename "$package") == "snap-poem_${version}_$(dpkg --print-architecture).deb" ]] || fail "the file is not named snap-poem_VERSION_ARCH.deb"
grep -q '^Depends: .*libtesseract5' "$work/control" || fail "Depends does not name libtesseract5"
dpkg-deb --ctrl-tarfile "$package" | tar -t | LC_ALL=C sort > "$work/control-files"
[ "$(cat "$work/control-files")" = "$(printf './\n./control\n./md5sums')" ] ||
    fail "the package has maintainer scripts or conffiles: $(tr '\n' ' ' < "$work/control-files")"
dpkg-deb --fsys-tarfile "$package" | tar -t | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^$' | LC_ALL=C sort > "$work/contents"
files=$(dpkg-deb --fsys-tarfile "$package" | tar -tv | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' | LC_ALL=C sort)
say "files in the package:"
sed 's/^/  /' <<<"$files"
while read -r file; do
    case $file in
        /usr/bin/snap-poem | /usr/share/snap-poem/tessdata/*.traineddata | /usr/share/man/man1/snap-poem.1.gz | \
            /usr/share/doc/snap-poem/copyright | /usr/share/doc/snap-poem/changelog.gz | \
            /usr/share/bash-completion/completions/snap-poem | /usr/share/zsh/vendor-completions/_snap-poem | \
            /usr/share/fish/vendor_completions.d/snap-poem.fish | /usr/lib/systemd/system/snap-poem.service) ;;
        *) fail "$file is not in a place of the package's" ;;
    esac
done <<<"$files"
grep -q -x '/usr/lib/systemd/system/snap-poem.service' <<<"$files" || fail "the systemd unit is missing"

# --- lintian.
lintian --pedantic --display-info --fail-on error,warning "$package" > "$work/lintian" 2>&1 || {
    cat "$work/lintian" >&2
    fail "lintian reports errors or warnings"
}
say "lintian --pedantic --display-info (no error, no warning):"
grep -v -e 'running with root privileges' -e 'spelling-error-in-binary' "$work/lintian" | sed 's/^/  /'
# Strings of the statically linked libraries (Swift's runtime, Foundation, ICU), and French
# words of the service's page ("dont"), that lintian's English word list flags: on one line.
spelling=$(grep 'spelling-error-in-binary' "$work/lintian" | awk '{ print $4 }' | tr '\n' ' ' || true)
[ -z "$spelling" ] || echo "  I: snap-poem: spelling-error-in-binary, $(wc -w <<<"$spelling") words: $spelling"

# --- The machine before.
snapshot() {
    find /usr /etc /opt /srv /var -xdev \( -path /var/log -o -path /var/tmp -o -path /var/cache/apt -o -path /var/lib/apt \
        -o -path /var/backups -o -path /var/lib/dpkg/updates -o -path /var/lib/dpkg/triggers \) -prune -o -print 2> "$work/find.err" |
        LC_ALL=C sort
}
owned() { cat /var/lib/dpkg/info/*.list 2> "$work/owned.err" | LC_ALL=C sort -u; }
packages() { dpkg-query -W -f='${Package}:${Architecture} ${Version} ${Status}\n' | grep -v '^snap-poem:' | LC_ALL=C sort; }
snapshot > "$work/before"
owned > "$work/owned-before"
packages > "$work/packages-before"
while read -r path; do
    [ ! -e "$path" ] || [ -d "$path" ] || fail "$path exists before the package is installed"
done <<<"$files"
say "before install: $(wc -l < "$work/before") paths; none of the package's files exist"

# --- Install, use.
installed_by_us=true
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "$package" > "$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; fail "apt-get install failed"; }
snapshot > "$work/during"
added=$(LC_ALL=C comm -13 "$work/before" "$work/during")
say "after apt-get install ./$(basename "$package"): $(wc -l < "$work/during") paths; added:"
sed 's/^/  /' <<<"$added"
for file in $files; do [ -f "$file" ] || fail "$file was not installed"; done
[ "$(dpkg-query -L snap-poem | grep -v '^/\.$' | LC_ALL=C sort)" = "$(cat "$work/contents")" ] ||
    fail "dpkg -L snap-poem differs from the package's contents"
extra=$(LC_ALL=C comm -23 <(printf '%s\n' "$added") <(LC_ALL=C sort -u "$work/contents" <(printf '%s\n' "$files")) |
    grep -v -e '^/var/lib/dpkg/info/snap-poem\.\(list\|md5sums\)$' -e '^/var/cache/man' || true)
[ -z "$extra" ] || fail "installing wrote more than the package's files: $extra"
if compgen -G '/etc/systemd/system/*.wants/snap-poem.service' > "$work/wants" || [ -e /var/lib/systemd/deb-systemd-helper-enabled/snap-poem.service.dsh-also ]; then
    fail "the unit was enabled: $(cat "$work/wants")"
fi
if [ -d /run/systemd/system ] && systemctl is-active --quiet snap-poem; then fail "the service was started"; fi
say "the unit is installed and neither enabled nor started"

elsewhere="$work/elsewhere"
mkdir -p "$elsewhere"
cp SampleImages/Lenore.png "$elsewhere/"
clean=(env -i PATH=/usr/bin:/bin HOME="$elsewhere" LANG=C.UTF-8)
(cd "$elsewhere" && "${clean[@]}" /usr/bin/snap-poem --version) | grep -q "^snap-poem $version (Tesseract " ||
    fail "/usr/bin/snap-poem --version does not say $version"
(cd "$elsewhere" && "${clean[@]}" /usr/bin/snap-poem --list-langs > "$work/languages" 2> "$work/languages.folder")
[ "$(cat "$work/languages.folder")" = "Languages in /usr/share/snap-poem/tessdata:" ] ||
    fail "--list-langs: $(cat "$work/languages.folder")"
poem=$(cd "$elsewhere" && "${clean[@]}" /usr/bin/snap-poem Lenore.png --replace Lenore=Alex)
[[ $poem == Alex$'\n'* ]] && [[ $poem != *Lenore* ]] && [[ $poem == *"low lies thy love, Alex!"* ]] ||
    fail "/usr/bin/snap-poem did not read Lenore.png: $poem"
say "/usr/bin/snap-poem read Lenore.png in $elsewhere with /usr/share/snap-poem/tessdata ($(wc -l <<<"$poem") lines)"

[ "$("${clean[@]}" man -w snap-poem)" = /usr/share/man/man1/snap-poem.1.gz ] || fail "man -w snap-poem"
# Rendered from a copy: man-db keeps a formatted copy of a page of its hierarchy in
# /var/cache/man/cat1, a file the test, not the package, would leave behind.
cp /usr/share/man/man1/snap-poem.1.gz "$work/"
"${clean[@]}" MANWIDTH=100 man -l "$work/snap-poem.1.gz" > "$work/page.txt" 2> "$work/page.err" ||
    fail "man snap-poem: $(cat "$work/page.err")"
grep -q '^SERVE$' "$work/page.txt" && grep -q '^       /usr/lib/systemd/system/snap-poem.service$' "$work/page.txt" ||
    fail "man snap-poem lacks SERVE or the unit's path"
if [ -x /usr/bin/systemd-analyze ]; then
    # --man=no: its own check of Documentation=man:snap-poem(1) runs man, which would leave a
    # formatted copy in /var/cache/man; man -w above found the page.
    systemd-analyze verify --man=no /usr/lib/systemd/system/snap-poem.service > "$work/verify" 2>&1 ||
        { cat "$work/verify" >&2; fail "systemd-analyze verify"; }
    ! grep -q -e Unknown -e ignoring "$work/verify" || { cat "$work/verify" >&2; fail "systemd-analyze verify warned"; }
    say "systemd-analyze verify accepts the installed unit"
fi
grep -q '^ExecStart=/usr/bin/snap-poem serve .*--tessdata /usr/share/snap-poem/tessdata' /usr/lib/systemd/system/snap-poem.service ||
    fail "the unit does not run /usr/bin/snap-poem with /usr/share/snap-poem/tessdata"
[ "$("${clean[@]}" bash --norc --noprofile -c 'source /usr/share/bash-completion/bash_completion; __load_completion snap-poem && complete -p snap-poem')" = \
    "complete -F _snap_poem snap-poem" ] || fail "bash-completion does not load the completion"
[ "$("${clean[@]}" zsh -fc "autoload -Uz compinit && compinit -u -d $work/zcompdump && print -r -- \$_comps[snap-poem]")" = _snap-poem ] ||
    fail "zsh's compinit does not find _snap-poem"
"${clean[@]}" fish -c 'complete -C"snap-poem --for"' | grep -q '^--format' || fail "fish does not load the completion"
say "bash, zsh and fish load the installed completions"

# --- Purge, and nothing left.
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 purge -y -qq snap-poem > "$work/purge.log" 2>&1 ||
    { cat "$work/purge.log" >&2; fail "apt-get purge failed"; }
installed_by_us=false
[ -z "$(dpkg-query -W -f='${Status}' snap-poem 2> "$work/query.err")" ] || fail "dpkg still knows snap-poem: $(dpkg-query -W -f='${Status}' snap-poem)"
snapshot > "$work/after"
owned > "$work/owned-after"
packages > "$work/packages-after"
for file in $files; do [ ! -e "$file" ] || fail "$file is left after purge"; done
differences=$(LC_ALL=C comm -3 "$work/before" "$work/after" | sed 's/^\t/+ /; t; s/^/- /')
if [ -n "$differences" ]; then
    # Another helper's apt-get may have installed or removed packages meanwhile: a path of
    # such a package is theirs. Any other difference fails.
    if cmp -s "$work/packages-before" "$work/packages-after"; then
        fail "the machine differs after purge: $differences"
    fi
    others=$(LC_ALL=C sort -u "$work/owned-before" "$work/owned-after" | grep -v -x -F -f <(printf '%s\n' "$files"))
    unexplained=$(while read -r sign path; do grep -q -x -F "$path" <<<"$others" || echo "$sign $path"; done <<<"$differences")
    [ -z "$unexplained" ] || fail "the machine differs after purge: $unexplained"
    say "paths of other packages changed meanwhile (not snap-poem's): $(wc -l <<<"$differences")"
fi
say "after apt-get purge: $(wc -l < "$work/after") paths, the same as before install; none of the package's files exist"
say "passed"
