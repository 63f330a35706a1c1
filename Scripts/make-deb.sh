#!/usr/bin/env bash
# make deb: the Debian package of snap-poem, from the stripped release build of make dist.
#
#   Scripts/make-deb.sh DIST OUT      (DIST: .build/dist, OUT: .build/deb)
#
# Writes OUT/snap-poem_VERSION_ARCH.deb, VERSION being what the binary reports, with the files
# in Debian's places: /usr/bin/snap-poem; every file of tessdata/ but its README in
# /usr/share/snap-poem/tessdata (the binary finds them from its own location); the man page
# and the bash, zsh and fish completions generated from the option table; deploy/snap-poem.service
# as /usr/lib/systemd/system/snap-poem.service with /usr paths; the copyright file
# (packaging/debian/copyright, which covers the models' licence) and a changelog made from
# CHANGELOG.md. Depends comes from dpkg-shlibdeps, for the libraries the binary links. There
# are no maintainer scripts and no conffiles: installing enables and starts nothing, and purging
# leaves nothing behind. Dates and timestamps come from SOURCE_DATE_EPOCH (the last commit's,
# set by the Makefile), so the same source makes the same package.
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${1:?usage: make-deb.sh DIST OUT}
out=${2:?usage: make-deb.sh DIST OUT}
fail() { echo "make-deb: $*" >&2; exit 1; }
for program in dpkg-deb dpkg-shlibdeps gzip md5sum readelf; do
    [ -n "$(type -P "$program")" ] || fail "$program is missing; run 'make deps-package'"
done
[ -x "$dist/snap-poem" ] && [ -x "$dist/snap-poem-generate" ] || fail "$dist has no build; run 'make dist'"
# Hardened as Debian's binaries are (lintian: hardening-no-relro, hardening-no-bindnow). The
# Makefile links with -z now; the RELRO segment comes from the linker. Swift uses gold where
# it is installed, and gold makes one; GNU ld 2.44 (Debian 13, where gold is the package
# binutils-gold of its own) leaves it out of this --static-swift-stdlib binary.
readelf -lW "$dist/snap-poem" | grep -q GNU_RELRO ||
    fail "$dist/snap-poem has no RELRO segment: install binutils-gold (Swift links with gold where it is installed), then rm -rf $dist and make deb again"
readelf -dW "$dist/snap-poem" | grep -q BIND_NOW || fail "$dist/snap-poem is not linked with -z now"

version=$("$dist/snap-poem-generate" version)
reported=$("$dist/snap-poem" --version | awk '{ print $2 }')
[ "$version" = "$reported" ] || fail "the binary says version '$reported', the source '$version'"
arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-snap-poem maintainers <snap-poem@example.org>}
epoch=${SOURCE_DATE_EPOCH:?SOURCE_DATE_EPOCH is not set (the Makefile sets it)}
commit=$(git rev-parse --short HEAD 2>/dev/null || true)

umask 022
root="$out/root"
rm -rf "$root"
mkdir -p "$root/DEBIAN"
share="$root/usr/share"
install -d "$root/usr/bin" "$share/snap-poem/tessdata" "$share/man/man1" "$share/doc/snap-poem" \
    "$share/bash-completion/completions" "$share/zsh/vendor-completions" "$share/fish/vendor_completions.d" \
    "$root/usr/lib/systemd/system"

install -m 0755 "$dist/snap-poem" "$root/usr/bin/snap-poem"
found=0
for model in tessdata/*; do
    [ -f "$model" ] && [[ $model != *.md ]] || continue
    install -m 0644 "$model" "$share/snap-poem/tessdata/"
    found=$((found + 1))
done
[ "$found" -gt 0 ] || fail "tessdata/ holds no models"

unit=/usr/lib/systemd/system/snap-poem.service
"$dist/snap-poem-generate" man --tessdata /usr/share/snap-poem/tessdata --unit "$unit" | gzip -9n > "$share/man/man1/snap-poem.1.gz"
"$dist/snap-poem-generate" completion bash > "$share/bash-completion/completions/snap-poem"
"$dist/snap-poem-generate" completion zsh > "$share/zsh/vendor-completions/_snap-poem"
"$dist/snap-poem-generate" completion fish > "$share/fish/vendor_completions.d/snap-poem.fish"

# The unit of deploy/, with the package's paths and its manual page as Documentation (which
# systemd-analyze verify checks is installed); its opening comment (how to install it from a
# clone) gives way to one about the package.
{
    echo "# snap-poem serve as a systemd service, installed by the snap-poem package: neither"
    echo "# enabled nor started. 'systemctl enable --now snap-poem' starts it (127.0.0.1:8080, for a"
    echo "# reverse proxy in front of it); 'systemctl edit snap-poem' changes its options. See"
    echo "# snap-poem(1), section SERVE."
    echo
    awk 'started || !/^(#|$)/ { started = 1; print }' deploy/snap-poem.service |
        sed -e 's|/usr/local/bin/snap-poem|/usr/bin/snap-poem|g' -e 's|/usr/local/share/snap-poem/|/usr/share/snap-poem/|g' \
            -e '/^Description=/a Documentation=man:snap-poem(1)'
} > "$root$unit"
chmod 0644 "$root$unit"
if grep -n '/usr/local' "$root$unit"; then fail "the unit still names /usr/local"; fi

install -m 0644 packaging/debian/copyright "$share/doc/snap-poem/copyright"
Scripts/debian-changelog.py CHANGELOG.md "$version" "$maintainer" "$(date -u -R -d "@$epoch")" "$commit" |
    gzip -9n > "$share/doc/snap-poem/changelog.gz"
chmod 0644 "$share/doc/snap-poem/changelog.gz" "$share/man/man1/snap-poem.1.gz" \
    "$share/bash-completion/completions/snap-poem" "$share/zsh/vendor-completions/_snap-poem" \
    "$share/fish/vendor_completions.d/snap-poem.fish"

# Depends: the packages of the libraries the binary links, from dpkg-shlibdeps (which reads a
# debian/control; this one names the package only).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
printf 'Source: snap-poem\nMaintainer: %s\n\nPackage: snap-poem\nArchitecture: any\n' "$maintainer" > "$work/debian/control"
binary=$(realpath "$root/usr/bin/snap-poem")
depends=$(cd "$work" && dpkg-shlibdeps -O -e"$binary" 2>"$work/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') ||
    { cat "$work/shlibdeps.log" >&2; fail "dpkg-shlibdeps failed"; }
[ -n "$depends" ] || { cat "$work/shlibdeps.log" >&2; fail "dpkg-shlibdeps found no dependencies"; }
# libheif is opened at run time (dlopen, the first time a HEIC or AVIF file is met), so
# dpkg-shlibdeps cannot see it; its package is named here (on Debian 13 it recommends the
# HEVC and AV1 decoder plugins).
depends="$depends, libheif1"

installed_size=$(du -sk --apparent-size "$root/usr" | cut -f1)
control=$(<packaging/debian/control.in)
control=${control//@VERSION@/$version}
control=${control//@ARCH@/$arch}
control=${control//@MAINTAINER@/$maintainer}
control=${control//@INSTALLED_SIZE@/$installed_size}
control=${control//@DEPENDS@/$depends}
printf '%s\n' "$control" > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -exec touch -h -d "@$epoch" {} +

package="$out/snap-poem_${version}_${arch}.deb"
rm -f "$package"
dpkg-deb --build --root-owner-group -Zxz "$root" "$package" > "$work/dpkg-deb.log" || { cat "$work/dpkg-deb.log" >&2; fail "dpkg-deb failed"; }
echo "make-deb: $package (Depends: $depends)"
