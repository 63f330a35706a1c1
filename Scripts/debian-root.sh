#!/usr/bin/env bash
# A Debian root made with debootstrap, to build and test snap-poem on another Debian release
# than the machine's (make test-debian13). Needs root, debootstrap, unshare and chroot.
#
#   Scripts/debian-root.sh create SUITE ROOT
#       debootstrap --variant=minbase SUITE into ROOT from the archive apt already uses here
#       (the first non-security URI of /etc/apt/sources.list.d/debian.sources or
#       /etc/apt/sources.list; DEBIAN_MIRROR overrides it), with SUITE-updates and
#       SUITE-security in its sources, then the packages the Swift toolchain needs to run in it
#       (plus git, make, python3). dpkg runs with force-unsafe-io there (no fsync: a throwaway
#       root). A root that exists is reused if its stamp (ROOT/.debian-root-stamp: suite,
#       archive, architecture, packages, a digest of how create makes a root) is the one this
#       script would write and it is younger than DEBIAN_ROOT_MAX_DAYS (7); otherwise it is made
#       again. A root is made in ROOT.partial and renamed to ROOT once complete, so an
#       interrupted run leaves no root that looks finished. With DEBIAN_ROOT_CACHE=DIR, the
#       packages downloaded are kept in DIR.
#   Scripts/debian-root.sh run ROOT [--bind PATH]... [--cache HOSTDIR:PATH] [--overlay DIR] -- COMMAND...
#       COMMAND in ROOT (chroot, as root, with a clean environment: HOME=/root, LANG=C.UTF-8,
#       PATH with the usr/bin of each --bind that has one first), in a mount namespace of its
#       own, with: /proc; a read-only /sys; a /dev of its own (a tmpfs with null, zero, full,
#       random, urandom, tty, a private devpts and a /dev/shm tmpfs), so nothing run there
#       writes to the machine's /dev; each --bind PATH read-only at the same path (the
#       toolchain: --bind /opt/swift); each --cache HOSTDIR:PATH writable at PATH (apt's
#       downloaded packages, kept between runs); /etc/resolv.conf copied into the root's /etc.
#       With --overlay DIR, ROOT is the lower layer of an overlay whose changes go to DIR (made
#       if missing, kept for the next run with the same DIR: the caller removes it), so ROOT
#       itself is not changed. The mounts exist only in that namespace, are unmounted
#       (umount -l) when COMMAND ends, fails or is interrupted, and any process left running in
#       the root is stopped by its pid. Exits with COMMAND's status. One run or create at a
#       time per ROOT (ROOT.lock; COMMAND does not get the descriptors 7 to 9 of the locks).
#   Scripts/debian-root.sh remove ROOT
#       Unmounts anything still mounted under ROOT (umount -l) and deletes ROOT, ROOT.partial
#       and ROOT.lock (never across a mount point: rm --one-file-system).
set -euo pipefail

# What Swift 6.3 needs to run in a Debian root (checked on Debian 13), and what the project's
# make targets need before their `make deps` can run. binutils-gold: Swift links with gold
# where it is installed, as on Debian 12 (whose binutils has it; Swift.org's list for Debian 12
# names binutils-gold); Debian 13 has it in a package of its own, and without it GNU ld
# links the .deb's binary without RELRO (see Scripts/make-deb.sh).
TOOLCHAIN_PACKAGES="libncurses6 binutils binutils-gold gcc g++ libc6-dev libcurl4-openssl-dev libedit2 libsqlite3-0 libxml2-dev zlib1g-dev pkg-config tzdata"
TOOLCHAIN_PACKAGES+=" git make python3"
STAMP_NAME=.debian-root-stamp
MAX_DAYS=${DEBIAN_ROOT_MAX_DAYS:-7}
PATH_IN_ROOT=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

say() { echo "debian-root: $*" >&2; }
fail() { echo "debian-root: $*" >&2; exit 1; }
usage() {
    sed -n '/^#   Scripts/,/^set -euo/{/^#   Scripts/p}' "$0" | sed 's/^#   /usage: /' >&2
    exit 2
}
require_root() { [ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap, mount and chroot need it)"; }

# An absolute ROOT that is not / or a top-level folder, so that no mistake removes much.
checked_root() {
    local root=${1:?root}
    [[ $root == /* ]] || root="$PWD/$root"
    root=$(realpath -m "$root")
    [[ $root =~ ^/[^/]+/.+ ]] || fail "refusing '$root' as a root: give a folder at least two levels deep"
    echo "$root"
}

# The mount points at or under $1 in this mount namespace, deepest first.
mounts_under() {
    awk -v root="$1" '{
        path = $5; gsub(/\\040/, " ", path)
        if (path == root || index(path, root "/") == 1) print path
    }' /proc/self/mountinfo | sort -r
}

# The archive's URI: the first deb URI in apt's sources that is not the security archive.
archive_uri() {
    if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
    local uri=""
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        uri=$(awk '
            BEGIN { RS = ""; FS = "\n" }
            {
                types = ""; uris = ""; suites = ""
                for (i = 1; i <= NF; i++) {
                    if ($i ~ /^Types:/) types = $i
                    if ($i ~ /^URIs:/) uris = $i
                    if ($i ~ /^Suites:/) suites = $i
                }
                if (types ~ /[ \t]deb([ \t]|$)/ && suites !~ /-security/ && uris != "") {
                    sub(/^URIs:[ \t]*/, "", uris); split(uris, list, /[ \t]+/); print list[1]; exit
                }
            }' /etc/apt/sources.list.d/debian.sources)
    fi
    if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
        uri=$(awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ } if ($(i + 1) !~ /security/) { print $i; exit } }' /etc/apt/sources.list)
    fi
    [ -n "$uri" ] || fail "no archive URI in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list; set DEBIAN_MIRROR"
    echo "${uri%/}"
}

# The security archive's URI, if apt's sources here name one.
security_uri() {
    cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | grep -v '^[[:space:]]*#' |
        grep -o -E 'https?://[^ ]*debian-security' | head -n 1 || true
}

# What a root is made of; recipe is a digest of create's own code, so a root made otherwise
# than this script now would make it is not reused.
stamp_for() {
    local suite=$1 archive=$2
    printf 'suite=%s\narchive=%s\narchitecture=%s\npackages=%s\nrecipe=%s\n' "$suite" "$archive" "$(dpkg --print-architecture)" \
        "$(tr ' ' '\n' <<<"$TOOLCHAIN_PACKAGES" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')" \
        "$(declare -f create | sha256sum | cut -c1-16)"
}

# --- run
# The part of `run` that runs inside the mount namespace (unshare re-executes the script).
# (target and mounted are global: the EXIT trap runs cleanup after this function returned.)
run_inside() {
    local root=$1 overlay=$2 binds=$3 caches=$4
    shift 4
    local status=0
    target=$root
    mounted=()
    cleanup() {
        local pid own
        # Processes still running in the root (a server a test left behind): stopped by pid.
        for own in TERM KILL; do
            for pid in $(leftovers "$target"); do kill -s "$own" "$pid" 2>/dev/null || true; done
            [ -n "$(leftovers "$target")" ] || break
            sleep 2
        done
        local i
        for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
        mounted=()
    }
    trap 'cleanup' EXIT
    trap 'say "interrupted"; exit 130' INT TERM HUP
    if [ -n "$overlay" ]; then
        mkdir -p "$overlay/upper" "$overlay/work" "$overlay/merged"
        mount -t overlay overlay -o "lowerdir=$root,upperdir=$overlay/upper,workdir=$overlay/work" "$overlay/merged"
        mounted+=("$overlay/merged")
        target=$overlay/merged
    fi
    mount -t proc -o nosuid,nodev,noexec proc "$target/proc"
    mounted+=("$target/proc")
    mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$target/sys"
    mounted+=("$target/sys")
    # A /dev of the root's own: the device files programs use, nothing of the machine's.
    mount -t tmpfs -o mode=0755,nosuid,size=64m tmpfs "$target/dev"
    mounted+=("$target/dev")
    local node
    for node in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
        IFS=: read -r name major minor <<<"$node"
        mknod -m 0666 "$target/dev/$name" c "$major" "$minor"
    done
    mkdir -m 0755 "$target/dev/pts"
    mkdir -m 1777 "$target/dev/shm"
    mount -t devpts -o newinstance,ptmxmode=0666,mode=0620,gid=5 devpts "$target/dev/pts"
    mounted+=("$target/dev/pts")
    mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$target/dev/shm"
    mounted+=("$target/dev/shm")
    ln -s pts/ptmx "$target/dev/ptmx"
    ln -s /proc/self/fd "$target/dev/fd"
    ln -s /proc/self/fd/0 "$target/dev/stdin"
    ln -s /proc/self/fd/1 "$target/dev/stdout"
    ln -s /proc/self/fd/2 "$target/dev/stderr"
    local path search=$PATH_IN_ROOT
    while IFS= read -r path; do
        [ -n "$path" ] || continue
        [ ! -d "$path/usr/bin" ] || search="$path/usr/bin:$search"
        mkdir -p "$target$path"
        mount --bind "$path" "$target$path"
        mounted+=("$target$path")
        mount -o remount,bind,ro "$target$path"
    done <<<"$binds"
    local cache host
    while IFS= read -r cache; do
        [ -n "$cache" ] || continue
        host=${cache%%:*} path=${cache#*:}
        mkdir -p "$host" "$target$path"
        mount --bind "$host" "$target$path"
        mounted+=("$target$path")
    done <<<"$caches"
    cp /etc/resolv.conf "$target/etc/resolv.conf.snap-poem" && mv -f "$target/etc/resolv.conf.snap-poem" "$target/etc/resolv.conf"
    env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" PATH="$search" ${SOURCE_DATE_EPOCH:+SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH} \
        chroot "$target" "$@" 7>&- 8>&- 9>&- || status=$?
    cleanup
    return "$status"
}

# The pids of processes whose root folder is $1 (seen from this mount namespace).
leftovers() {
    local entry pid
    for entry in /proc/[0-9]*; do
        pid=${entry#/proc/}
        [ "$pid" != "$$" ] || continue
        [ "$(readlink "$entry/root" 2>/dev/null)" = "$1" ] && echo "$pid"
    done
    return 0
}

run() {
    require_root
    local root
    root=$(checked_root "${1:?usage: debian-root.sh run ROOT [--bind PATH]... [--cache HOSTDIR:PATH] [--overlay DIR] -- COMMAND...}")
    shift
    local binds="" caches="" overlay=""
    while [ $# -gt 0 ]; do
        case $1 in
            --bind) binds+="$(realpath -e "${2:?--bind PATH}")"$'\n'; shift 2 ;;
            --cache) [[ ${2:-} == /*:/* ]] || fail "--cache HOSTDIR:PATH, both absolute"; caches+="$2"$'\n'; shift 2 ;;
            --overlay) overlay=$(checked_root "${2:?--overlay DIR}"); shift 2 ;;
            --) shift; break ;;
            *) usage ;;
        esac
    done
    [ $# -gt 0 ] || usage
    [ -f "$root/$STAMP_NAME" ] || [ -n "${DEBIAN_ROOT_UNSTAMPED:-}" ] || fail "$root is not a finished root (no $STAMP_NAME); run 'create' first"
    exec 8> "$root.lock"
    flock -w 3600 8 || fail "another run has held $root.lock for an hour"
    local status=0 before
    before=$(mounts_under "$root"; [ -z "$overlay" ] || mounts_under "$overlay")
    unshare --mount --propagation private "$0" _run-inside "$root" "$overlay" "$binds" "$caches" "$@" || status=$?
    # The mounts were the namespace's own, so none can be left in this one: checked.
    local after
    after=$(mounts_under "$root"; [ -z "$overlay" ] || mounts_under "$overlay")
    [ "$after" = "$before" ] || fail "mounts are left under $root: $(comm -13 <(sort <<<"$before") <(sort <<<"$after") | tr '\n' ' ')"
    return "$status"
}

# --- create
create() {
    require_root
    local suite=${1:?usage: debian-root.sh create SUITE ROOT} root
    root=$(checked_root "${2:?usage: debian-root.sh create SUITE ROOT}")
    command -v debootstrap > /dev/null || fail "debootstrap is missing (apt-get install debootstrap)"
    local archive security stamp
    archive=$(archive_uri)
    security=$(security_uri)
    stamp=$(stamp_for "$suite" "$archive")
    mkdir -p "$(dirname "$root")"
    exec 7> "$root.lock"
    flock -w 3600 7 || fail "another run has held $root.lock for an hour"
    if [ -f "$root/$STAMP_NAME" ] && [ "$(cat "$root/$STAMP_NAME")" = "$stamp" ] &&
        [ -z "$(find "$root/$STAMP_NAME" -mtime "+$((MAX_DAYS - 1))")" ]; then
        say "$root: reused (made $(date -r "$root/$STAMP_NAME" '+%F %T'), $suite from $archive)"
        return 0
    fi
    [ ! -e "$root" ] || { say "$root: out of date or unfinished; made again"; remove_paths "$root"; }
    remove_paths "$root.partial"
    local partial=$root.partial
    say "debootstrap --variant=minbase $suite $partial $archive"
    # In a mount namespace of its own: the mounts debootstrap makes cannot outlive it.
    local cache_options=() apt_cache=()
    if [ -n "${DEBIAN_ROOT_CACHE:-}" ]; then
        mkdir -p "$DEBIAN_ROOT_CACHE/debootstrap" "$DEBIAN_ROOT_CACHE/apt"
        cache_options=(--cache-dir="$(realpath "$DEBIAN_ROOT_CACHE/debootstrap")")
        apt_cache=(--cache "$(realpath "$DEBIAN_ROOT_CACHE/apt"):/var/cache/apt/archives")
    fi
    unshare --mount --propagation private \
        debootstrap --variant=minbase --include=ca-certificates "${cache_options[@]}" "$suite" "$partial" "$archive" > "$root.debootstrap.log" 2>&1 ||
        { tail -n 30 "$root.debootstrap.log" >&2; fail "debootstrap failed (log: $root.debootstrap.log)"; }
    # dpkg without fsync in this throwaway root (as container images do): several times faster.
    echo force-unsafe-io > "$partial/etc/dpkg/dpkg.cfg.d/snap-poem-unsafe-io"
    {
        echo "deb $archive $suite main"
        echo "deb $archive $suite-updates main"
        [ -z "$security" ] || echo "deb $security $suite-security main"
    } > "$partial/etc/apt/sources.list"
    say "apt-get install in $partial: $TOOLCHAIN_PACKAGES"
    DEBIAN_ROOT_UNSTAMPED=1 run "$partial" "${apt_cache[@]}" -- bash -c '
        set -e
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends '"$TOOLCHAIN_PACKAGES"' > /tmp/apt.log 2>&1 || { tail -n 30 /tmp/apt.log; exit 1; }
        apt-get clean
        rm -f /tmp/apt.log' || fail "installing the toolchain's packages failed"
    printf '%s\n' "$stamp" > "$partial/$STAMP_NAME"
    mv "$partial" "$root"
    rm -f "$root.debootstrap.log" "$partial.lock"
    say "$root: made ($suite from $archive)"
}

# --- remove
remove_paths() {
    local path
    for path in "$@"; do
        [ -e "$path" ] || continue
        local mount
        for mount in $(mounts_under "$path"); do
            say "unmounting $mount"
            umount -l "$mount"
        done
        [ -z "$(mounts_under "$path")" ] || fail "still mounted under $path: $(mounts_under "$path" | tr '\n' ' ')"
        rm -rf --one-file-system "$path"
    done
}

remove() {
    require_root
    local root
    root=$(checked_root "${1:?usage: debian-root.sh remove ROOT}")
    if [ -e "$root" ] && [ ! -f "$root/$STAMP_NAME" ] && [ -n "$(ls -A "$root")" ] && [ ! -d "$root/var/lib/dpkg" ]; then
        fail "$root does not look like a Debian root; not removing it"
    fi
    remove_paths "$root" "$root.partial"
    rm -f "$root.lock" "$root.partial.lock" "$root.debootstrap.log"
    say "$root: removed"
}

command=${1:-}
[ $# -eq 0 ] || shift
case $command in
    create) create "$@" ;;
    run) run "$@" ;;
    remove) remove "$@" ;;
    _run-inside) run_inside "$@" ;;
    *) usage ;;
esac
