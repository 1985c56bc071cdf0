# swarm.sh - the swarm test (sourced by tests/cli.sh): a seeded random
# matrix of machine profile x RAM (from each profile's minimum up) x swap x
# policy x tunables x a mix of one to three workloads, every run under
# --check and a --max-time bound.  Each run must finish, OOM-kill or stop
# at --max-time: an exit status of 1 (--check failed) or a crash fails the
# test, with the command and the seed to replay it.
#
#   SWARM_SEED=N   the matrix's seed (default 1; the seed is printed)
#   SWARM_RUNS=N   how many runs (default 48, 10 under make sancheck)
#
# A replay of one failing run is its printed command; a longer swarm is
# e.g. SWARM_SEED=7 SWARM_RUNS=2000 PAGELAB=build/pagelab sh tests/cli.sh.
# Cost: about 10 s in make check (48 runs of machines of 16 frames to a
# few MB), 1-2 minutes under the sanitizers.

swarm_seed=${SWARM_SEED:-1}
if [ -n "${PAGELAB_SANITIZED:-}" ]; then
	swarm_runs=${SWARM_RUNS:-10}
else
	swarm_runs=${SWARM_RUNS:-48}
fi
S="$T/swarm"
mkdir -p "$S"

# Runs that would be refused are no test: the axes are probed first.
# accepted ARGS...: does `pagelab run ARGS` start (exit 0 or 3)?
swarm_accepted() {
	$P run --no-progress --max-time 0.001 "$@" >/dev/null 2>&1
	case $? in 0|3) return 0 ;; esac
	return 1
}

# The smallest RAM, in pages, each profile accepts: bisection between the
# kernel's base (refused) and the profile's own RAM (accepted).
: >"$S/machines"
for m in $($P machines | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $1 }'); do
	hi=$($P machines --show "$m" | awk '$1 == "ram" { print $2 }')
	case $hi in
	*G) hi=$(( ${hi%G} * 262144 )) ;;
	*M) hi=$(( ${hi%M} * 256 )) ;;
	*K) hi=$(( ${hi%K} / 4 )) ;;
	*) hi=$(( hi / 4096 )) ;;
	esac
	lo=1
	swarm_accepted --machine "$m" --ram "${hi}p" --policy fifo usemem -m 1 || continue
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(( (lo + hi) / 2 ))
		if swarm_accepted --machine "$m" --ram "${mid}p" --policy fifo usemem -m 1; then
			hi=$mid
		else
			lo=$mid
		fi
	done
	echo "$m $hi" >>"$S/machines"
done

# Tunable settings: every policy's tunables at half, twice and 0/1 of their
# defaults, and a few vm sysctls of other eras; those refused are left out.
: >"$S/sets"
for pol in $($P policies --names); do
	echo "$pol -" >>"$S/sets"
	$P policies --tunables "$pol" | awk '/^[A-Za-z_]/ && $2 ~ /^[0-9.]+$/ { print $1, $2 }' |
	while read -r name def; do
		for v in $(awk -v d="$def" 'BEGIN { h = int(d / 2); t = int(d * 2); if (d < 1) { h = 0; t = 1 }
			print h; if (t != h) print t; if (d > 1) print 1 }'); do
			[ "$v" = "$def" ] && continue
			if swarm_accepted --machine ideal --ram 64p --policy "$pol" --set "$name=$v" usemem -m 1 ||
			   { [ "$pol" = opt ] && printf '1 r\n' >"$S/one.trace" &&
			     swarm_accepted --machine ideal --ram 64p --policy opt --set "$name=$v" trace "$S/one.trace"; }; then
				echo "$pol $name=$v" >>"$S/sets"
			fi
		done
	done
done
for s in vm.swap_token=1 vm.page_cluster=0 vm.page_cluster=1 vm.ra_era=22 vm.ra_era=24 vm.flusher=1 \
	vm.flusher=2 vm.flusher=4 vm.flusher=5 vm.drop_behind=0 vm.fault_mark_accessed=1 vm.dirty_ratio=1 \
	vm.dirty_background_ratio=0 vm.ra_pages=0 vm.ra_pages=4 cpus=1 cpus=3 disk.kind=ssd; do
	swarm_accepted --machine ideal --ram 64p --policy fifo --set "$s" usemem -m 1 && echo "* $s" >>"$S/sets"
done

printf '1 w\n2 w\n3 r\n1 r\n4 w\n5 r\n1 r\n6 w\n2 r\n7 r\n3 w\n1 r\n8 r\n9 w\n4 r\n1 r\n' >"$S/swarm.trace"
# The workload menu: small sizes, as the machines are small.
cat >"$S/workloads" <<EOF
usemem -m 1
usemem -m 4 -r 2
usemem -R -m 2
usemem -n 2 -m 2 -s 1
usemem -M -m 2
usemem -o -Z -m 3
usemem -F -m 8
fileio -c -w -r 2 /f 2M
fileio -c -R -b 4 /g 1M
fileio -c -m -s /ramfs/h 512K
fileio -c -d -R /i 1M
qsbench -p 2 -m 1
mtest01 -b 4M -w
memeater -n 2 -r 50
workingset -m 2 -n 3 -t 10
dd if=/dev/sda bs=64K count=16
dd if=/dev/zero of=/j bs=1M count=2 conv=fsync
dbench 1
mmap001 -m 200
bonnie -s 2
kbuild -j 2 --units 3 --headers 24 --cc1 1
innodb --pool 2 --data 32M --transactions 20 --scan
trace $S/swarm.trace
EOF

# The matrix: Park-Miller's minimal standard generator (its products stay
# below 2^46, exact in any awk's doubles), so a seed is the same runs
# everywhere.  One command line per run, tab-separated from its number.
awk -v seed="$swarm_seed" -v runs="$swarm_runs" -v S="$S" '
function rnd(n) { x = (x * 16807) % 2147483647; return int(x / 2147483647 * n) }
BEGIN {
	x = seed % 2147483646 + 1; nm = nw = np = ns = 0
	for (i = 0; i < 5; i++) rnd(2)
	while ((getline l < (S "/machines")) > 0) { split(l, f, " "); mach[nm] = f[1]; minram[nm++] = f[2] }
	while ((getline l < (S "/workloads")) > 0) wl[nw++] = l
	while ((getline l < (S "/sets")) > 0) {
		split(l, f, " ")
		if (f[2] == "-") pol[np++] = f[1]
		else { setpol[ns] = f[1]; setval[ns++] = f[2] }
	}
	split("0 0 1 2 5 16 64 256 1024", extra, " ")
	for (r = 1; r <= runs; r++) {
		m = rnd(nm); p = pol[rnd(np)]
		ram = minram[m] + extra[1 + rnd(9)]
		sw = rnd(4); swap = sw == 0 ? 0 : sw == 1 ? int(ram / 4) : sw == 2 ? ram : 2 * ram
		cmd = "--machine " mach[m] " --ram " ram "p --swap " swap "p --policy " p " --seed " (1 + rnd(1000))
		k = rnd(3)
		for (j = 0; j < k; j++) {
			s = rnd(ns)
			if (setpol[s] == p || setpol[s] == "*") cmd = cmd " --set " setval[s]
		}
		n = 1 + rnd(3)
		if (p == "opt") n = 0
		mix = ""
		for (j = 0; j < n; j++) mix = mix (j ? " + " : "") wl[rnd(nw)]
		if (p == "opt") mix = "trace " S "/swarm.trace"
		print r "\t" cmd " " mix
	}
}' >"$S/matrix"

swarm_timeout=""
command -v timeout >/dev/null 2>&1 && swarm_timeout="timeout 600"

t "swarm: $swarm_runs runs, SWARM_SEED=$swarm_seed"
fin=0 oom=0 bounded=0 refused=0 msg=""
while IFS="	" read -r r cmd; do
	# The words of cmd are the arguments (no quoting in the matrix).
	# shellcheck disable=SC2086
	# --max-time bounds simulated time; a loop that never advances it
	# is bounded by the host's timeout(1) where there is one (exit 124).
	$swarm_timeout $P run --check --no-progress --max-time 2 $cmd >"$S/out" 2>"$S/err"
	rc=$?
	if grep -q 'stopped at the simulated time limit' "$S/out" || [ $rc -eq 3 ]; then
		bounded=$((bounded + 1))
	elif [ $rc -eq 0 ] && [ "$(counter oom_kill "$S/out")" -gt 0 ]; then
		oom=$((oom + 1))
	elif [ $rc -eq 0 ]; then
		fin=$((fin + 1))
	elif [ $rc -eq 2 ]; then
		refused=$((refused + 1))
		echo "$r: refused: $(head -1 "$S/err")" >>"$S/refused"
	fi
	case $rc in
	0|2|3) ;;
	124) msg="$msg run $r did not finish in 600 s of host time: pagelab run --check --max-time 2 $cmd;" ;;
	*) msg="$msg run $r exit $rc: pagelab run --check --max-time 2 $cmd: $(grep -v '^pagelab: simulated' "$S/err" | head -2 | tr '\n' ' ');" ;;
	esac
done <"$S/matrix"
# Refusals mean the matrix tests less than it says: most runs must start.
[ $((refused * 4)) -le "$swarm_runs" ] || msg="$msg $refused of $swarm_runs runs refused: $(head -3 "$S/refused" | tr '\n' ' ')"
[ -z "$msg" ] && ok || bad "$msg (replay: SWARM_SEED=$swarm_seed SWARM_RUNS=$swarm_runs)"
echo "  swarm: $fin finished, $oom with an OOM kill, $bounded stopped at --max-time, $refused refused"

# What the swarm found (SWARM_SEED=1): s3fifo's shared scan budget
# wrapped below zero and its shrink loop never ended, inside one event, so
# --max-time could not stop it.
t "s3fifo on 537 pages with innodb --scan finishes (swarm find)"
$swarm_timeout $P run --max-time 2 --machine athlon-2001 --ram 537p --swap 134p --policy s3fifo --seed 967 \
	innodb --pool 2 --data 32M --transactions 20 --scan >"$S/out" 2>"$S/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^innodb' "$S/out" && ok || bad "exit $rc: $(head -2 "$S/err")"
