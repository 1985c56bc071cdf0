# cswap_records.sh - make compressed-swap-native (tools/compressed-swap-
# native.sh) from docs/compressed-swap-data's committed kernel records:
# its verdicts come back with no kernel run, and records of another
# executor revision are refused in one line, before compare can take them
# again as root.  Sourced by tests/cli_area.sh: uses P, T, t, ok, bad.
# Cost: about 2 s of CPU (the usemem and kbuild cases' simulator runs;
# qsbench's two, 10 s each, are left out).

R=$(dirname "$0")/..
D=$R/docs/compressed-swap-data
# The records carry their host's settings (each run's "kernel": {"host":
# ...}: 2 CPUs, cgroup v1, 6.6 or later, read_ahead_kb 8192, a rotational
# swapfile disk, the dirty sysctls' defaults), which compare simulates
# whatever host it runs on (src/engine/kcompare_rechost.c).  Not kept
# with them: a TLB flush's cost, none measured for docs/zram.md's figures.
HOST="--set cost.tlb_ipi=0ns --set cost.tlb_ipi_recv=0ns"
grep -E '^(usemem|kbuild)-' "$D/cases.txt" >"$T/cases.txt"

# cswap ARGS...: the tool with PAGELAB=$1, records $2, into $T/out, $T/err.
cswap() {
	env PAGELAB="$1" CSWAP_DATA="$2" CSWAP_CASES="$T/cases.txt" CSWAP_SIM_CACHE="$T/sim" CSWAP_OPTS="$HOST" \
		sh "$R/tools/compressed-swap-native.sh" >"$T/out" 2>"$T/err"
}

t "compressed-swap-native: usemem, kbuild verdicts, no kernel run"
mkdir -p "$T/sim"
# The records name the executor that took them; after a revision bump
# they wait to be retaken on an idle host (the tool refuses them: below).
rev=$("$P" sweep --executor kernel --memcg 256M --swap 512M --list -- usemem -m 1 |
	sed -n 's/.* # run 1, executor \([0-9][0-9]*\)$/\1/p')
held=$(sed -n '1s/.* # run [0-9]*, executor \([0-9][0-9]*\)".*/\1/p' "$D/kernel.jsonl")
if [ -n "$rev" ] && [ "$held" != "$rev" ]; then
	rc=stale
elif [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	# not root: a kernel run it would start is refused (needs root)
	printf '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups "%s" "$@"\n' "$P" >"$T/nobody"
	chmod 755 "$T" "$T/nobody" && chmod 777 "$T/sim"
	cswap "$T/nobody" "$D"
	rc=$?
	chmod 700 "$T"
elif [ "$(id -u)" -ne 0 ]; then
	cswap "$P" "$D"
	rc=$?
else
	rc=skip
fi
if [ "$rc" = stale ]; then
	skip "docs/compressed-swap-data holds executor $held's runs, this pagelab is $rev's: to be retaken"
elif [ "$rc" = skip ]; then
	skip "root without setpriv (it could start kernel runs)"
else
	msg=
	[ "$rc" -eq 0 ] || msg="exit $rc: $(tail -2 "$T/err")"
	# the matrix's strict count by case (docs/zram.md gives them with
	# this host's TLB cost: usemem 21/22 and 21/22, kbuild 10/22, 10/22),
	# every case's kernel side cached
	for c in "usemem-disk 21" "usemem-zram 21" "kbuild-disk 10" "kbuild-zram 11"; do
		grep -Eq "^${c% *} +5 +[0-9.]+ +${c#* }/22$" "$T/out" || msg="$msg; ${c% *} not ${c#* }/22"
	done
	[ "$(grep -c '; kernel: 5 warmed runs of pagelab kernel (cached);$' "$T/out")" -eq 4 ] || msg="$msg; not all cached"
	# docs/zram.md's table: kernel median / pagelab, and the verdicts
	# (kbuild swaps with compare's run queue per CPU, sched_percpu=1,
	# since wake_affine() spreads its compiles over both: docs/zram.md)
	rows=$(awk '/^== / { c = $2 } c && /^(pgmajfault|pswpin|pswpout) / { printf "%s %s %s %s %s|", c, $1, $2, $4, $6 }' "$T/out")
	want="usemem-disk pgmajfault 12304 12289 yes|usemem-disk pswpin 98335 98314 yes|"
	want="${want}usemem-disk pswpout 133742 131109 yes|usemem-zram pgmajfault 98322 98304 yes|"
	want="${want}usemem-zram pswpin 98322 98304 yes|usemem-zram pswpout 131351 131117 yes|"
	want="${want}kbuild-disk pgmajfault 201 0 no|kbuild-disk pswpin 87 0 no|"
	want="${want}kbuild-disk pswpout 21112 25307 yes|kbuild-zram pgmajfault 518 0 no|"
	want="${want}kbuild-zram pswpin 405 0 no|kbuild-zram pswpout 6638 14217 no|"
	[ "$rows" = "$want" ] || msg="$msg; rows: $rows"
	[ -z "$msg" ] && ok || bad "$msg"
fi

# Records of executor 999 (this pagelab's NATIVE_EXECUTOR_REV is less):
# compare would find none and run the kernel again.  The tool says so in
# one line, exit 2, and never starts compare (a wrapper logs what it is
# asked to run).
t "compressed-swap-native: another executor's records: refused"
mkdir -p "$T/d2"
sed 's/ # run \([0-9]*\), executor [0-9]*"/ # run \1, executor 999"/' "$D/kernel.jsonl" >"$T/d2/kernel.jsonl"
printf '#!/bin/sh\necho "$*" >>"%s/log"\n[ "$1" = compare ] && exit 99\nexec "%s" "$@"\n' "$T" "$P" >"$T/wrap"
chmod +x "$T/wrap"
cswap "$T/wrap" "$T/d2"
rc=$?
want="compressed-swap-native: $T/d2/kernel.jsonl has runs of executor 999, this pagelab's is [0-9]+: not taking them again \\(CSWAP_RERUN=1, as root, does\\)"
if [ "$(grep -c ' executor 999"' "$T/d2/kernel.jsonl")" -ne "$(wc -l <"$D/kernel.jsonl")" ]; then
	bad "the edit left other executors' records"
elif [ "$rc" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -Eqx "$want" "$T/err" && [ ! -s "$T/out" ] &&
	! grep -q '^compare' "$T/log"; then
	ok
else
	bad "exit $rc: $(head -2 "$T/err"); ran: $(tr '\n' ';' <"$T/log")"
fi
