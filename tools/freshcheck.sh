#!/bin/sh
# freshcheck.sh [--quick] [--keep] - the README's two commands on a fresh
# Debian 12 that has only what the README asks for (gcc, make, libc6-dev;
# git to clone): no zlib or zstd headers, no zstd or gzip tools, no
# valgrind, clang, pkg-config or man-db.  Run as root (debootstrap,
# chroot); the commands themselves run as an unprivileged user inside.
#
# The root is made by debootstrap once and kept as a tarball,
# build/freshcheck/bookworm.tar (about 460 MB); a rerun unpacks it again in
# seconds.  The repository goes in as a clean `git clone` of HEAD: what a
# user gets, whatever is uncommitted here.
#   --quick  only the first command (make && ./pagelab reproduce)
#   --keep   keep the unpacked root (build/freshcheck/root) afterwards, and
#            reuse it as it is on the next run (a build already done in it
#            then stays done)
# Prints each command's exit status and wall time; exits 1 if one failed.
# MIRROR overrides the Debian mirror.
set -eu
cd "$(dirname "$0")/.."
REPO=$(pwd)
DIR=$REPO/build/freshcheck
ROOT=$DIR/root
TAR=$DIR/bookworm.tar
MIRROR=${MIRROR:-http://deb.debian.org/debian}
USER_NAME=fresh
quick=0
keep=0
for a in "$@"; do
	case $a in
	--quick) quick=1 ;;
	--keep) keep=1 ;;
	*) echo "usage: tools/freshcheck.sh [--quick] [--keep]" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "freshcheck: needs root (debootstrap, chroot)" >&2; exit 2; }
mkdir -p "$DIR"

# Nothing may stay mounted in the root: rm -rf would go through it.
mounted() { awk -v r="$ROOT" '$2 == r "/proc" || $2 == r "/dev" { n++ } END { exit !n }' /proc/mounts; }
cleanup() {
	umount "$ROOT/proc" 2>/dev/null || true
	umount "$ROOT/dev" 2>/dev/null || true
	if [ $keep -eq 0 ] && ! mounted; then rm -rf "$ROOT"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ ! -f "$TAR" ]; then
	command -v debootstrap >/dev/null || { echo "freshcheck: no debootstrap (apt-get install debootstrap)" >&2; exit 2; }
	echo "== debootstrap bookworm (once; kept in $TAR)"
	rm -rf "$DIR/boot"
	debootstrap --variant=minbase --include=gcc,make,libc6-dev,git bookworm "$DIR/boot" "$MIRROR" >"$DIR/debootstrap.log" 2>&1 ||
		{ tail -5 "$DIR/debootstrap.log"; echo "freshcheck: debootstrap failed (log: $DIR/debootstrap.log)" >&2; exit 1; }
	rm -rf "$DIR/boot/var/cache/apt/archives"/*.deb
	tar -C "$DIR/boot" -cf "$TAR.tmp" . && mv "$TAR.tmp" "$TAR"
	rm -rf "$DIR/boot"
fi

if [ $keep -eq 1 ] && [ -d "$ROOT/home/$USER_NAME/pagelab" ]; then
	echo "== reusing $ROOT"
else
	mounted && { echo "freshcheck: something is still mounted under $ROOT" >&2; exit 1; }
	rm -rf "$ROOT" && mkdir -p "$ROOT"
	tar -C "$ROOT" -xf "$TAR"
	chroot "$ROOT" useradd -m "$USER_NAME"
	src=$ROOT/home/$USER_NAME/pagelab
	git clone -q --no-checkout "$REPO" "$src"
	git -C "$src" checkout -q --detach "$(git rev-parse HEAD)"
	chroot "$ROOT" chown -R "$USER_NAME:$USER_NAME" "/home/$USER_NAME/pagelab"
	echo "== $(git rev-parse --short HEAD) cloned into a Debian 12 minbase with gcc, make, libc6-dev, git"
fi
mount -t proc proc "$ROOT/proc"
[ -c "$ROOT/dev/null" ] || mount --bind /dev "$ROOT/dev"

# The README's commands: the first lines of its first sh block.
cmds=$(awk '/^```sh$/ { on = 1; next } on && /^```/ { exit } on { print }' README.md | head -2)
[ $quick -eq 1 ] && cmds=$(echo "$cmds" | head -1)
summary=""
fail=0
nl='
'
IFS=$nl
for c in $cmds; do
	echo "== $c"
	t0=$(date +%s)
	rc=0
	chroot "$ROOT" setpriv --reuid="$USER_NAME" --regid="$USER_NAME" --init-groups --reset-env \
		sh -c "cd && cd pagelab && $c" || rc=$?
	t1=$(date +%s)
	summary="$summary$c: exit $rc, $((t1 - t0)) s$nl"
	[ $rc -eq 0 ] || fail=1
done
unset IFS
# What the build says it reads (no zstd, no zlib: their -dev packages are
# not there).
v=$(chroot "$ROOT" setpriv --reuid="$USER_NAME" --regid="$USER_NAME" --init-groups --reset-env \
	sh -c 'cd && pagelab/pagelab --version' 2>&1) || v="no ./pagelab"
echo "== freshcheck (Debian 12 with gcc, make, libc6-dev, git):"
printf '%s' "$summary"
echo "./pagelab --version: $v"
exit $fail
