#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package installs and runs in a clean root (issue 16 item 6).
#   1. `cpack -G DEB` builds the package from this build tree into a
#      temporary folder; its Depends come from dpkg-shlibdeps.
#   2. A clean Debian 12 root: `debootstrap --variant=minbase bookworm` from
#      the Debian mirror apt is configured with (apt-cache policy; override
#      with BC_DEBIAN_MIRROR), made once and kept as a tarball in
#      $BC_CACHE/debootstrap (default <source>/.cache), then unpacked per run.
#   3. apt-get installs the .deb with its dependencies in the chroot, from
#      the same mirror (the package lists debootstrap left; `apt-get update`
#      and a second try if they went stale).
#   4. In the chroot: the files are where Debian puts them, `bondcheck
#      --version` prints this build's version, and `bondcheck inspect
#      --from-proc` on a case file prints exactly what the built binary
#      prints (text and -j, same exit status).
# /proc and /sys are mounted in the root for apt and bondcheck and always
# unmounted (trap); the root is removed only when nothing is mounted in it.
# usage: deb-root.sh BUILD_DIR CPACK BONDCHECK SOURCE_DIR     (root)
set -u
build=$1
cpack=$2
bc=$3
src=$4
cache=${BC_CACHE:-$src/.cache}/debootstrap
suite=bookworm
case_file=$src/tests/data/proc-net-bonding/10-8023ad-el8-2x100G-healthy-slow-rate.txt
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
die() { echo "deb-root: $*"; exit 1; }
now() { date +%s; }

[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot, mount); found uid $(id -u)"
for t in debootstrap dpkg-deb dpkg-shlibdeps chroot mount umount tar gzip; do
	command -v "$t" >/dev/null ||
		die "$t not found: run tools/install-deps (packages debootstrap, dpkg-dev)"
done
[ -x "$cpack" ] || die "cpack not found at '$cpack'"
[ -f "$case_file" ] || die "case file $case_file missing"
arch=$(dpkg --print-architecture)
mirror=${BC_DEBIAN_MIRROR:-$(apt-cache policy 2>/dev/null |
	awk -v s="$suite/main" -v a="$arch" '$3 == s && $4 == a {print $2; exit}')}
[ -n "$mirror" ] ||
	die "no Debian mirror for $suite/main $arch in apt's sources (apt-cache policy); set BC_DEBIAN_MIRROR"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bc-deb-root.XXXXXX") || exit 1
root=$tmp/root
# every mount under the root, deepest first: ours, and any debootstrap left
# behind when it failed
mounts_in_root() {
	awk -v r="$root/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r
}
cleanup() {
	for m in $(mounts_in_root); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	if [ -n "$(mounts_in_root)" ]; then
		echo "deb-root: still mounted under $root, not removing $tmp:"
		mounts_in_root
		exit 1
	fi
	rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
mount_in() { # TYPE DIR
	mount -t "$1" "$1" "$root/$2" || die "mount -t $1 $root/$2 failed"
}

# 1. the package
t0=$(now)
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 ||
	{ cat "$tmp/cpack.log"; die "cpack -G DEB failed"; }
deb=$(ls "$tmp"/pkg/bondcheck_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { cat "$tmp/cpack.log"; die "cpack made no bondcheck_*.deb"; }
depends=$(dpkg-deb -f "$deb" Depends)
echo "package: $(basename "$deb"), Depends: $depends"
for lib in libc6 libjson-c5 libnl-3-200 libpcap0.8 libsodium23 libplplot17; do
	case ", $depends" in *", $lib "*) ;; *) fail "Depends lacks $lib (dpkg-shlibdeps)" ;; esac
done
t1=$(now)

# 2. the clean root, from the cache or debootstrap
key=$suite-minbase-$arch-$(printf '%s' "$mirror" | md5sum | cut -c1-8)
tarball=$cache/$key.tar.gz
if [ -f "$tarball" ]; then
	mkdir "$root" && tar -C "$root" --numeric-owner -xzf "$tarball" ||
		die "cannot unpack $tarball (remove it to rebuild)"
	how="unpacked from $tarball"
else
	# dpkg in the root without an fsync per file while debootstrap runs it
	# (a throw-away root; the setting is removed before the tarball)
	mkdir -p "$root/etc/dpkg/dpkg.cfg.d" &&
		echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/bc-unsafe-io" ||
		die "cannot create $root"
	debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$tmp/debootstrap.log" 2>&1 ||
		{ tail -20 "$tmp/debootstrap.log"; die "debootstrap --variant=minbase $suite from $mirror failed"; }
	rm -f "$root/etc/dpkg/dpkg.cfg.d/bc-unsafe-io" "$root"/var/cache/apt/archives/*.deb
	mkdir -p "$cache" || die "cannot create $cache"
	tar -C "$root" --numeric-owner -cf - . | gzip -1 >"$tarball.tmp.$$" &&
		mv "$tarball.tmp.$$" "$tarball" || { rm -f "$tarball.tmp.$$"; die "cannot write $tarball"; }
	how="debootstrap from $mirror, cached as $tarball"
fi
t2=$(now)
grep -q "^VERSION_CODENAME=$suite" "$root/etc/os-release" ||
	die "the root is not Debian $suite: $(cat "$root/etc/os-release" 2>/dev/null | head -3)"
[ -e "$root/usr/sbin/bondcheck" ] && die "the clean root already holds bondcheck"
echo "root: $how ($((t2 - t1)) s)"

# 3. the package and its dependencies, by apt in the chroot
mount_in proc proc
mount_in sysfs sys
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
cp "$deb" "$root/tmp/" || die "cannot copy the package into the root"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"; }
apt_install() {
	in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-unsafe-io "/tmp/$(basename "$deb")" >"$tmp/apt.log" 2>&1
}
if ! apt_install; then
	echo "apt-get install failed with the cached package lists; apt-get update and again"
	in_root apt-get update -q >"$tmp/apt-update.log" 2>&1 ||
		{ cat "$tmp/apt-update.log"; die "apt-get update in the root failed (mirror $mirror)"; }
	apt_install || { cat "$tmp/apt.log"; die "apt-get install of the package failed in the root"; }
fi
t3=$(now)
echo "apt-get: $(grep -c '^Setting up' "$tmp/apt.log") packages set up ($((t3 - t2)) s)"
in_root dpkg-query -W -f='${Status}\n' bondcheck | grep -qx 'install ok installed' ||
	fail "dpkg does not list bondcheck as installed"

# 4. the files and the binary in the root
for f in /usr/sbin/bondcheck /usr/share/man/man8/bondcheck.8 \
	/lib/systemd/system/bondcheck-serve.service /usr/share/doc/bondcheck/copyright \
	/usr/share/doc/bondcheck/examples/bondcheck.default; do
	in_root dpkg -S "$f" >/dev/null 2>&1 || fail "$f is not a file of the package"
	[ -f "$root$f" ] || fail "$f missing in the root"
done
grep -qx 'ExecStart=/usr/sbin/bondcheck serve --auth-key %d/auth-key $BONDCHECK_SERVE_OPTS' \
	"$root/lib/systemd/system/bondcheck-serve.service" ||
	fail "the packaged unit's ExecStart: $(grep ExecStart= "$root/lib/systemd/system/bondcheck-serve.service")"

want=$("$bc" --version)
got=$(in_root bondcheck --version 2>&1)
rc=$?
if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
	echo "ok   chroot: bondcheck --version: $got"
else
	fail "chroot: bondcheck --version: exit $rc, '$got' (the build says '$want')"
fi
# the same file name: inspect names a bond after it when the text does not
in_case=/tmp/$(basename "$case_file")
cp "$case_file" "$root$in_case"
for fmt in text json; do
	opt=""
	[ "$fmt" = json ] && opt=-j
	# SOURCE_DATE_EPOCH fixes generated_at: the outputs must be equal
	SOURCE_DATE_EPOCH=1700000000 "$bc" inspect $opt --from-proc "$case_file" >"$tmp/want.$fmt" 2>&1
	want_rc=$?
	in_root env SOURCE_DATE_EPOCH=1700000000 bondcheck inspect $opt --from-proc "$in_case" \
		>"$tmp/got.$fmt" 2>&1
	rc=$?
	# the case file's path is the only difference
	sed -i "s#$case_file#$in_case#g" "$tmp/want.$fmt"
	if [ "$rc" = "$want_rc" ] && [ -s "$tmp/got.$fmt" ] && cmp -s "$tmp/want.$fmt" "$tmp/got.$fmt"; then
		echo "ok   chroot: bondcheck inspect ${opt:+$opt }--from-proc: exit $rc, $(wc -l <"$tmp/got.$fmt") lines as the build prints"
	else
		fail "chroot: bondcheck inspect ${opt:+$opt }--from-proc: exit $rc (build: $want_rc), output differs:"
		diff "$tmp/want.$fmt" "$tmp/got.$fmt" | head -20
	fi
done
grep -q '"mode": *"802.3ad"' "$tmp/got.json" || fail "chroot: inspect -j did not report the 802.3ad bond"
t4=$(now)
echo "times: cpack $((t1 - t0)) s, root $((t2 - t1)) s, apt $((t3 - t2)) s, checks $((t4 - t3)) s"

[ "$fails" = 0 ] || { echo "deb-root: $fails failure(s)"; exit 1; }
echo "deb-root: ok"
