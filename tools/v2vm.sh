#!/bin/sh
# tools/v2vm.sh - pagelab kernel's cgroup v2 executor on a real cgroup v2
# kernel, in a virtual machine of its own (docs/native.md, "On a cgroup
# v2 kernel: tools/v2vm.sh").  For a host whose memory controller is on
# cgroup v1 (or whose cgroups must not be touched): the VM's kernel is
# Debian's, booted with cgroup_no_v1=all, so cgroup2 holds the memory
# controller, and the runs below (two cgroups with memory.low and
# memory.max, memreclaim, senpai and oomd, memory.reclaim's EAGAIN,
# SIGINT and --timeout) are checked to leave nothing under
# /sys/fs/cgroup, in /proc/swaps or in /var/tmp.
#
# NOT part of make check or CI: it needs qemu-system-x86, busybox-static,
# kmod and e2fsprogs (apt-get install them), a Debian kernel package
# (downloaded with apt-get download: the network to Debian's archive)
# and minutes of CPU (KVM where /dev/kvm works, else TCG, ten times
# slower).  Run it as root or as a user in group kvm, from the
# repository, after `make build/pagelab`:
#
#   tools/v2vm.sh                  # the checks; exit 0 when all pass
#   V2VM_KERNEL=file.deb tools/v2vm.sh   # another kernel package
#
# Environment: V2VM_DIR (default /var/tmp/pagelab-v2vm: the kernel
# package, the extracted kernel, the initramfs, the disk image and the
# log, console.log; nothing of it is in the repository), V2VM_KERNEL (a
# .deb file or a package name; default linux-image-6.12-amd64's
# dependency, else linux-image-amd64's), V2VM_MEM (MiB, default 2048),
# V2VM_ACCEL (kvm or tcg; default kvm when it starts, else tcg),
# V2VM_ONLY (some of the checks: plain,knobs,protection,agents,eagain,
# stop,more),
# PAGELAB (default build/pagelab).
#
# How: dpkg-deb -x unpacks the kernel package (nothing is installed in
# /boot or /lib/modules of the host); depmod and modprobe --show-depends
# on that copy list the modules the guest loads (virtio_blk, ext4 and
# their dependencies, zram, lz4), unpacked from .ko.xz; the initramfs is
# busybox-static, pagelab with the shared libraries ldd names, those
# modules and this script, whose --guest part is the guest's test; a
# sparse disk image formatted ext4 on the host (mkfs.ext4 on a file) is
# the guest's /var/tmp, where pagelab kernel puts its swapfile and
# input files (tmpfs holds no swapfile).  The guest's console is the
# serial port, copied to V2VM_DIR/console.log and to stdout (with
# no_timer_check: under TCG on a loaded host the kernel's check of the
# IO-APIC timer failed and panicked, "IO-APIC + timer doesn't work"); the guest
# powers off at the end.  Each check prints "V2VM PASS name" or "V2VM
# FAIL name: why"; the script exits 1 if any failed or the guest never
# said "V2VM DONE".
#
# The guest never touches the host: its cgroups, swap and sysctls are
# the VM's.
set -eu

guest() {
	# Runs in the VM as /init's child: PATH has busybox's applets.  Each
	# check says how it went: no check stops the others.
	set +e
	P=/bin/pagelab
	fails=0
	only=$(sed -n 's/.*v2vm\.only=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
	echo "=== guest: $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print $2 / 1024 " MiB" }' /proc/meminfo)"
	echo "=== cmdline: $(cat /proc/cmdline)"
	echo "=== cgroup2 controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"
	echo "=== /proc/pressure/memory: $(head -1 /proc/pressure/memory)"
	echo "=== MGLRU: $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null)"
	grep -q memory /sys/fs/cgroup/cgroup.controllers && pass "memory on cgroup2" ||
		fail "memory on cgroup2" "not in cgroup.controllers"
	for c in ${only:-plain knobs protection agents eagain stop more}; do
		"check_$c"
	done
	echo "V2VM DONE $fails failed"
}

pass() { echo "V2VM PASS $1"; }
fail() { echo "V2VM FAIL $1: $2"; fails=$((fails + 1)); }

# leftovers: pagelab's cgroups, swap areas, directories.
leftovers() {
	find /sys/fs/cgroup -name 'pagelab*' 2>/dev/null
	grep pagelab /proc/swaps
	ls /var/tmp | grep pagelab-kernel
	return 0
}

check_clean() {
	left=$(leftovers)
	if [ -z "$left" ]; then pass "$1: nothing left"; else fail "$1" "left: $left"; fi
}

# watch: every 2 s or so, each of the run's cgroups' memory.current and
# pressure avg10 (some, full), as the agents read them; the seconds are
# since the command began (/proc/uptime: under TCG a round of reads
# takes a second or more of its own).
watch() {
	t0=$(cut -d' ' -f1 /proc/uptime)
	while sleep 2; do
		t=$(awk -v t0="$t0" '{ printf "%.1f", $1 - t0 }' /proc/uptime)
		for d in $(find /sys/fs/cgroup -path '*pagelab-kernel-*' -name memory.pressure 2>/dev/null); do
			d=${d%/memory.pressure}
			rel=$(echo "$d" | sed 's,.*/pagelab-kernel-[0-9]*,,')
			printf 'watch %5ss %-8s current %9s some %6s full %6s\n' "$t" "${rel:-/}" \
				"$(cat $d/memory.current)" "$(sed -n '1s/.*avg10=\([^ ]*\).*/\1/p' $d/memory.pressure)" \
				"$(sed -n '2s/.*avg10=\([^ ]*\).*/\1/p' $d/memory.pressure)"
		done 2>/dev/null
	done
}

# run NAME WANT_RC ARGS...: pagelab ARGS, its output shown but
# memory.stat and /proc/vmstat (in /tmp/out.NAME), then what watch saw.
run() {
	name=$1 want=$2
	shift 2
	echo "=== $name: pagelab $*"
	watch >/tmp/watch &
	wpid=$!
	rc=0
	"$P" "$@" >/tmp/out 2>/tmp/err || rc=$?
	kill $wpid
	cp /tmp/out "/tmp/out.$name"
	awk '/^# \/proc\/vmstat/ { skip = 1 } /^# cgroup/ { skip = 0 }
		!skip && !/^memcg\.|^memory\.stat\./' /tmp/out
	sed 's/^/stderr: /' /tmp/err
	cat /tmp/watch
	echo "=== $name: exit $rc"
	if [ "$rc" = "$want" ]; then pass "$name: exit $rc"; else fail "$name" "exit $rc, not $want"; fi
	check_clean "$name"
}

# cg_line NAME PATH KEY: a counter of one cgroup's section of run NAME.
cg_line() {
	awk -v s="# cgroup $2" -v k="$3" '$0 == s { on = 1; next }
		/^# / && !/^# set / { on = 0 } on && $1 == k { print $2; exit }' "/tmp/out.$1"
}

# One cgroup, no tree: the run's own below the root, whose
# subtree_control pagelab kernel gives +memory (/init does not).
check_plain() {
	run plain 0 kernel --timeout 120 --memcg 64M --swap 128M usemem -m 80
	run zram 0 kernel --timeout 120 --memcg 64M --swap zram:128M usemem -m 80
}

# Every v2 key of --cgroup and every v2 --set knob, read back.
check_knobs() {
	run knobs 0 kernel --timeout 120 --memcg 128M --swap 128M --set memory.high=120M \
		--set memory.swap.high=100M --set memory.zswap.max=8M --set memory.zswap.writeback=0 \
		--set memory.low=4M --set memory.min=2M \
		--cgroup /a:max=32M,high=24M,low=8M,min=4M,swap.max=16M,oom.group=1 \
		--cgroup /b/c:max=16M,memory.swap.high=8M usemem -m 20 @/a + usemem -m 8 @/b/c
}

# Issue 39's Must show: two cgroups, /a protected by memory.low, /b
# with a memory.max, under a run's own cgroup too small for both: /b's
# anonymous memory presses the parent, whose reclaim spares /a (below
# its low).  The same without low: /a's set is swapped out and faults
# back in.  workingset -t 200 -d 12: a round every 0.2 s.
check_protection() {
	wl="workingset -m 48 -t 200 -d 12 @/a + usemem -m 100 -r 4 -s 4 @/b"
	run low 0 kernel --timeout 300 --memcg 128M --swap 256M --cgroup /a:low=64M --cgroup /b:max=112M $wl
	run nolow 0 kernel --timeout 300 --memcg 128M --swap 256M --cgroup /a --cgroup /b:max=112M $wl
	for f in low nolow; do
		echo "--- $f: /a pgmajfault $(cg_line $f /a memory.stat.pgmajfault)," \
			"workingset_refault_anon $(cg_line $f /a memory.stat.workingset_refault_anon)," \
			"events.low $(cg_line $f /a memory.events.low);" \
			"/b pgmajfault $(cg_line $f /b memory.stat.pgmajfault), peak $(cg_line $f /b memory.peak)"
	done
}

# The agents, each in a leaf of its own beside the workload.
check_agents() {
	run memreclaim 0 kernel --timeout 120 --memcg 256M --swap 256M --cgroup /a --cgroup /agent \
		usemem -m 64 -s 4 @/a + memreclaim -a 2s /a 16M @/agent
	run senpai 0 kernel --timeout 120 --memcg 256M --swap 256M --cgroup /a --cgroup /agent \
		workingset -m 48 -t 100 -d 15 @/a + senpai --min-size 16M /a @/agent
	# oomd: a set thrashing in a cgroup far smaller than it, killed
	# when its full pressure stays above 5 % for 2 s.
	run oomd 0 kernel --timeout 120 --memcg 256M --swap 256M --cgroup /w/a:max=16M --cgroup /agent \
		usemem -m 48 -r 20 @/w/a + oomd --limit 5 --duration 2s /w @/agent
}

# EAGAIN: without swap, anonymous memory cannot be reclaimed, so
# memory.reclaim cannot find 64M in /a (MAX_RECLAIM_RETRIES).
check_eagain() {
	run eagain 0 kernel --timeout 120 --memcg 256M --swap 0 --cgroup /a --cgroup /agent \
		usemem -m 32 -s 3 @/a + memreclaim -a 1s /a 64M @/agent
	grep -q EAGAIN /tmp/out && pass "eagain: memreclaim counted EAGAIN" ||
		fail "eagain" "no EAGAIN in memreclaim's report"
}

# The rest of the v2 path: --json, an OOM in an oom.group cgroup, the
# sweep of a run killed with its watchdog, compare's per-cgroup rows.
check_more() {
	run json 0 kernel --json --timeout 120 --memcg 64M --swap 64M --cgroup /a:max=16M usemem -m 8 @/a
	grep -q '"path": "/a"' /tmp/out && pass "json: /a in cgroups" || fail json "no /a in --json"
	run oomgroup 0 kernel --timeout 120 --memcg 64M --swap 0 --cgroup /a:max=16M,oom.group=1 \
		usemem -m 8 -s 3 @/a + usemem -m 24 @/a
	[ "$(cg_line oomgroup /a memory.events.oom_group_kill)" = 1 ] && pass "oomgroup: oom_group_kill 1" ||
		fail oomgroup "/a oom_group_kill $(cg_line oomgroup /a memory.events.oom_group_kill)"
	echo "=== stale: pagelab kernel and its watchdog killed"
	"$P" kernel --memcg 64M --swap 64M --cgroup /a --cgroup /b/c usemem -m 8 -s 60 @/a + \
		usemem -m 4 -s 60 @/b/c >/dev/null 2>&1 &
	pid=$!
	sleep 4
	kids=$(awk -v p=$pid '$4 == p { print $1 }' /proc/[0-9]*/stat 2>/dev/null)
	kill -KILL $pid $kids
	wait $pid
	sleep 1
	leftovers | sed 's/^/left: /'
	run stale 0 kernel --timeout 60 --memcg 64M --swap 64M usemem -m 4
	grep -q 'left by a killed run' /tmp/err && pass "stale: swept" || fail stale "no sweep line"
	run compare 0 compare --repeat 1 --memcg 64M --swap 64M --policy mglru --cgroup /a:max=16M \
		--cgroup /b:max=8M -- usemem -m 20 @/a + usemem -m 10 @/b
}

# SIGINT and --timeout with the tree: 130 and 3, nothing left.
check_stop() {
	echo "=== sigint"
	rc=0
	"$P" kernel --memcg 64M --swap 128M --cgroup /a:max=24M --cgroup /b/c --cgroup /agent \
		usemem -m 40 -s 60 @/a + usemem -m 8 -s 60 @/b/c + senpai /a @/agent >/tmp/out 2>/tmp/err &
	pid=$!
	sleep 4
	find /sys/fs/cgroup -name 'pagelab*' | sed 's/^/during: /'
	kill -INT $pid
	wait $pid || rc=$?
	tail -3 /tmp/err
	[ $rc = 130 ] && pass "sigint: exit 130" || fail "sigint" "exit $rc"
	check_clean sigint
	# SIGKILL: pagelab kernel's watchdog removes everything (20 s at most).
	echo "=== sigkill"
	"$P" kernel --memcg 64M --swap 128M --cgroup /a:max=24M --cgroup /b/c --cgroup /agent \
		usemem -m 40 -s 60 @/a + usemem -m 8 -s 60 @/b/c + senpai /a @/agent >/dev/null 2>/tmp/err &
	pid=$!
	sleep 4
	kill -KILL $pid
	wait $pid
	i=0
	while [ -n "$(leftovers)" ] && [ $i -lt 20 ]; do
		sleep 1
		i=$((i + 1))
	done
	check_clean sigkill
	run timeout 3 kernel --timeout 3 --memcg 64M --swap 128M --cgroup /a:max=24M --cgroup /b/c \
		--cgroup /agent usemem -m 40 -s 60 @/a + usemem -m 8 -s 60 @/b/c + oomd /a @/agent
}

if [ "${1:-}" = --guest ]; then
	guest
	exit 0
fi

D=${V2VM_DIR:-/var/tmp/pagelab-v2vm}
PL=${PAGELAB:-build/pagelab}
MEM=${V2VM_MEM:-2048}
[ -x "$PL" ] || { echo "v2vm: no $PL: make build/pagelab first" >&2; exit 2; }
for t in qemu-system-x86_64 dpkg-deb depmod modprobe mkfs.ext4 xz cpio; do
	command -v $t >/dev/null || { echo "v2vm: needs $t (apt-get install qemu-system-x86 kmod e2fsprogs xz-utils cpio)" >&2; exit 2; }
done
[ -x /bin/busybox ] && /bin/busybox --list | grep -qx insmod ||
	{ echo "v2vm: needs /bin/busybox (apt-get install busybox-static)" >&2; exit 2; }
mkdir -p "$D"

# The kernel package: a file, or downloaded once into $D.
deb=${V2VM_KERNEL:-}
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
	pkg=$deb
	for meta in linux-image-6.12-amd64 linux-image-amd64; do
		[ -n "$pkg" ] && break
		pkg=$(apt-cache depends "$meta" 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)/\1/p' | head -1)
	done
	[ -n "$pkg" ] || { echo "v2vm: no kernel package found (apt-get update?)" >&2; exit 2; }
	deb=$(ls "$D"/"${pkg}"_*.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		(cd "$D" && apt-get download "$pkg")
		deb=$(ls "$D"/"${pkg}"_*.deb | head -1)
	fi
fi
echo "v2vm: kernel package $deb"
K="$D/kernel"
rm -rf "$K" && mkdir -p "$K" && dpkg-deb -x "$deb" "$K"
KV=$(ls "$K/lib/modules" | head -1)
depmod -b "$K" "$KV"

# The initramfs.
R="$D/root"
rm -rf "$R" && mkdir -p "$R/bin" "$R/lib/mods" "$R/proc" "$R/sys" "$R/dev" "$R/run" "$R/tmp" "$R/var/tmp"
cp /bin/busybox "$R/bin/busybox"
cp "$PL" "$R/bin/pagelab"
for lib in $(ldd "$PL" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
	mkdir -p "$R$(dirname "$lib")" && cp -L "$lib" "$R$lib"
done
n=0
for m in virtio_blk ext4 crc32c_generic zram lz4; do
	modprobe -d "$K" -S "$KV" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
	n=$((n + 1))
	name=$(printf '%02d-%s' $n "$(basename "$ko" .xz)")
	xz -dc "$ko" >"$R/lib/mods/$name"
done
cp "$0" "$R/v2vm.sh"
cat >"$R/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup
for m in /lib/mods/*.ko; do insmod "$m" 2>/dev/null; done
mdev -s 2>/dev/null
mount -t ext4 /dev/vda /var/tmp || echo "V2VM FAIL mount: no /dev/vda"
sh /v2vm.sh --guest 2>&1
sync
poweroff -f
EOF
chmod 755 "$R/init" "$R/v2vm.sh"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) >"$D/initrd.gz"

# The disk: sparse, ext4, the guest's /var/tmp.
rm -f "$D/disk.img"
truncate -s 6G "$D/disk.img"
mkfs.ext4 -q -F "$D/disk.img"

# KVM where a kernel boots with it to its end (the panic for want of a
# root filesystem) within 30 s: nested KVM may start and then fail
# ("KVM internal error. Suberror: 1", an emulation failure, as in this
# project's Firecracker guest on 2026-12-06), where TCG works.
accel=${V2VM_ACCEL:-}
if [ -z "$accel" ]; then
	accel=tcg
	if [ -r /dev/kvm ]; then
		timeout 30 qemu-system-x86_64 -accel kvm -cpu host -m 256 -display none -monitor none \
			-serial "file:$D/kvmprobe.log" -no-reboot -kernel "$K/boot/vmlinuz-$KV" \
			-append "console=ttyS0 panic=-1" </dev/null >/dev/null 2>&1 || true
		grep -q 'Kernel panic' "$D/kvmprobe.log" 2>/dev/null && accel=kvm
	fi
fi
cpu=max
[ "$accel" = kvm ] && cpu=host
echo "v2vm: $KV, accel $accel, ${MEM} MiB, console in $D/console.log"
qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -m "$MEM" -smp 2 -nographic -no-reboot \
	-kernel "$K/boot/vmlinuz-$KV" -initrd "$D/initrd.gz" \
	-append "console=ttyS0 cgroup_no_v1=all psi=1 panic=-1 no_timer_check quiet${V2VM_ONLY:+ v2vm.only=$V2VM_ONLY}" \
	-drive "file=$D/disk.img,if=virtio,format=raw" </dev/null | tee "$D/console.log"
rm -f "$D/disk.img"
grep -q '^V2VM DONE' "$D/console.log" || { echo "v2vm: the guest did not finish" >&2; exit 1; }
! grep -q '^V2VM FAIL' "$D/console.log"
