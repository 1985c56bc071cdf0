# pagelab compare's --kernel-cache, --seeds and --floor (src/cli/
# compare_kernel.c, src/engine/kcompare*.c), on kernel runs' records
# written by hand into the cache's records file: no kernel run, no root; the simulator side is usemem -m 80 in 64M, seven
# times (about 2 s in all).

for args in "--seeds 0 -- usemem -m 4" "--seeds x -- usemem -m 4" "--floor -1 -- usemem -m 4" "--jobs 0 -- usemem -m 4" \
	    "--kernel-cache $T/nosuch -- usemem -m 4"; do
	t "bad input: compare $(echo "$args" | sed "s|$T|T|")"
	# shellcheck disable=SC2086
	$P compare $args >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done

# cached_report DIR N PSWPOUT PGACTIVATE [FIELD...]: the record of kernel
# run N of the command compare runs below, in DIR/kernel.jsonl (the
# records of DIR/run.* in order).
cached_report() {
	d=$1 n=$2 so=$3 pa=$4
	shift 4
	kernel_record "$n" "--memcg 64M --swap 128M --seed 1 --timeout 600 usemem -m 80" user=0.01 sys=0.05 \
		"m:pgfault=$((20490 + 10 * n))" m:pgpgin=999 "c:pgfault=9000$n" "c:pswpout=$so" \
		"c:pgactivate=$pa" "$@" >"$d/run.$n"
	cat "$d"/run.* >"$d/kernel.jsonl"
}

# The host's TLB flush cost, as compare keeps it in the kernel cache: a
# measurement on a busy host may fail, and the runs after it measure
# again, so that two compares ran other simulations (seen under make
# check's parallel jobs).  A fixed one keeps every run below the same.
tlb_cost() { echo "cost.tlb_ipi=4200ns cost.tlb_ipi_recv=1300ns" >"$1/tlb_cost"; }

t "compare --kernel-cache reuses reports; --seeds --floor --jobs"
mkdir -p "$T/kc"
tlb_cost "$T/kc"
cached_report "$T/kc" 1 1000 50
cached_report "$T/kc" 2 20000 60
$P compare --repeat 2 --kernel-cache "$T/kc" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 80 >"$T/c1" 2>"$T/c1.err"
rc1=$?
$P compare --repeat 2 --seeds 2 --floor 100 --kernel-cache "$T/kc" --memcg 64M --swap 128M \
	--policy linux6 --html "$T/c2.html" -- usemem -m 80 >"$T/c2" 2>"$T/c2.err"
rc2=$?
$P compare --repeat 2 --seeds 2 --floor 100 --jobs 2 --kernel-cache "$T/kc" --memcg 64M --swap 128M \
	--policy linux6 -- usemem -m 80 >"$T/c2j" 2>&1
msg=""
cmp -s "$T/c2" "$T/c2j" || msg="--jobs 2 changed the output: $(diff "$T/c2" "$T/c2j" | head -5)"
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || msg="exit $rc1/$rc2: $(cat "$T/c1.err" "$T/c2.err")"
grep -q '^memcg 64M, swap 128M; kernel: 2 runs of pagelab kernel (cached); ' "$T/c1" || msg="$msg; not cached"
# The setup lines wrap where the host's --set options end (joined here).
sed -n "2,/^kernel:/p" "$T/c2" | tr '\n' ' ' | grep -q 'median of seeds 1\.\.2 ' || msg="$msg; no seeds in the header"
# pagelab swaps out about 4100 pages: not within 25% of the median 10500,
# though inside the kernel's 1000..20000, which is no part of the verdict
# (docs/fidelity.md: strictly +-T of the median).
grep -Eq '^pswpout +10500 \(1000\.\.20000\) +[0-9]+ +0\.[0-9]+  no$' "$T/c1" || msg="$msg; pswpout without --seeds"
# With two runs and two seeds a side, the p of Mann-Whitney's U beside
# the verdict, not merged into it: pagelab's two equal values rank
# between the kernel's 1000 and 20000, the middle of all six splits (p 1).
grep -Eq '^pswpout +10500 \(1000\.\.20000\) +[0-9]+ +0\.[0-9]+  no     1\.000$' "$T/c2" || msg="$msg; pswpout with --seeds"
# pgactivate 55 in the kernel, 0 in pagelab: both under --floor 100.
grep -Eq '^pgactivate +55 \(50\.\.60\) +0 +0\.00  no$' "$T/c1" || msg="$msg; pgactivate without --floor"
# Both kernel runs above both seeds: 2 of the 6 splits are as far apart.
grep -Eq '^pgactivate +55 \(50\.\.60\) +0 +0\.00  yes    0\.333$' "$T/c2" || msg="$msg; pgactivate with --floor"
grep -q '^counter .* within     p$' "$T/c2" || msg="$msg; no p in the header"
grep -q '^p: exact Mann-Whitney U of the 2 kernel runs against the 2 seeds, two-sided;$' "$T/c2" ||
	msg="$msg; no line saying what p is"
grep -q '^counter .* within$' "$T/c1" && ! grep -q '^p: ' "$T/c1" || msg="$msg; a p with one seed"
grep -q '<th>within</th><th>p</th></tr>' "$T/c2.html" &&
	grep -q '<td>pgactivate</td>.*<td class="v0">yes</td><td class="n">0.333</td></tr>' "$T/c2.html" &&
	grep -q '<p>p: exact Mann-Whitney U of the 2 kernel runs' "$T/c2.html" || msg="$msg; no p in the page"
grep -Eq '^pgscan_anon +- +[0-9]+ +-  missing$' "$T/c1" || msg="$msg; a counter the report lacks"
# pgfault from the cgroup's memory.stat, not the host's /proc/vmstat;
# pgpgin never (v1's counts charges).
grep -q "^kernel: the cgroup's own memory.stat for pgfault; the host's /proc/vmstat for" "$T/c1" ||
	msg="$msg; no line naming the cgroup's counters"
grep -Eq '^pgfault +20505 \(20500\.\.20510\) +20480 +1\.00  yes$' "$T/c1" || msg="$msg; pgfault not the cgroup's"
grep -Eq '^pgpgin +- +[0-9]+ +-  missing$' "$T/c1" || msg="$msg; pgpgin from memory.stat"
[ -z "$msg" ] && ok || bad "$msg"

# A report of another command is not reused: compare runs the kernel, which
# refuses without root (as nobody when we are root).
# A record that says its run was warmed (pagelab kernel on a host that
# takes back a guest's free pages, docs/native.md): the setup line says
# how many of the runs were.
t "compare: the setup line counts the warmed kernel runs"
mkdir -p "$T/kw"
tlb_cost "$T/kw"
cached_report "$T/kw" 1 1000 50
cached_report "$T/kw" 2 20000 60
cached_report "$T/kw" 1 1000 50 warmed
$P compare --repeat 2 --kernel-cache "$T/kw" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 80 >"$T/w1" 2>"$T/w1.err"
rc1=$?
cached_report "$T/kw" 2 20000 60 warmed
$P compare --repeat 2 --kernel-cache "$T/kw" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 80 >"$T/w2" 2>"$T/w2.err"
rc2=$?
msg=""
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || msg="exit $rc1/$rc2: $(cat "$T/w1.err" "$T/w2.err")"
grep -q '^memcg 64M, swap 128M; kernel: 2 runs of pagelab kernel, 1 warmed (cached);' "$T/w1" || msg="$msg; not 1 warmed"
grep -q '^memcg 64M, swap 128M; kernel: 2 warmed runs of pagelab kernel (cached);' "$T/w2" || msg="$msg; not all warmed"
[ "$(grep -c '^pswpout ' "$T/w2")" -eq "$(grep -c '^pswpout ' "$T/c1")" ] || msg="$msg; tables differ"
[ -z "$msg" ] && ok || bad "$msg"

# A record of another command, or of an older executor (its revision,
# NATIVE_EXECUTOR_REV, is in the command), is not reused: compare would
# run the kernel, which needs root, so an unprivileged compare exits 2.
cp "$T/kc/kernel.jsonl" "$T/kernel.jsonl.good"
for stale in 's/usemem -m 80 # run 1, executor 7/usemem -m 81 # run 1, executor 7/' 's/# run 1, executor 7/# run 1, executor 5/'; do
	case $stale in *81*) what="another command" ;; *) what="an older executor" ;; esac
	t "compare --kernel-cache: not reused: $what's record"
	cp "$T/kernel.jsonl.good" "$T/kc/kernel.jsonl"
	sed -i "$stale" "$T/kc/kernel.jsonl"
	chmod 755 "$T" "$T/kc"
	chmod 644 "$T/kc/kernel.jsonl" "$T/kc/tlb_cost"
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
		setpriv --reuid=65534 --regid=65534 --clear-groups $P compare --repeat 2 --kernel-cache "$T/kc" \
			--memcg 64M --swap 128M --policy linux6 -- usemem -m 80 >"$T/c3" 2>"$T/c3.err"
		rc=$?
	elif [ "$(id -u)" -ne 0 ]; then
		$P compare --repeat 2 --kernel-cache "$T/kc" --memcg 64M --swap 128M --policy linux6 \
			-- usemem -m 80 >"$T/c3" 2>"$T/c3.err"
		rc=$?
	else
		rc=skip
	fi
	chmod 700 "$T"
	if [ "$rc" = skip ]; then
		skip "root without setpriv"
	elif head -1 "$T/kc/kernel.jsonl" | grep -q 'usemem -m 80 # run 1, executor 7'; then
		bad "the edit did not make the record stale"
	else
		[ "$rc" -eq 2 ] && grep -q 'needs root' "$T/c3.err" && ok || bad "exit $rc: $(cat "$T/c3.err")"
	fi
done
cp "$T/kernel.jsonl.good" "$T/kc/kernel.jsonl"

# --sim-cache: a second compare reads the simulator's record from its
# records file (here edited by hand, so that the reuse shows in the table).
t "compare --sim-cache: reuses the simulator's reports"
mkdir -p "$T/sc"
cached_report "$T/kc" 1 1000 50
$P compare --repeat 2 --kernel-cache "$T/kc" --sim-cache "$T/sc" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 80 >"$T/s1" 2>&1
rc1=$?
f=$(ls "$T/sc"/sim-*.jsonl 2>/dev/null | head -1)
[ -n "$f" ] && sed -i 's/"pswpout": [0-9]*/"pswpout": 7777/' "$f"
$P compare --repeat 2 --kernel-cache "$T/kc" --sim-cache "$T/sc" --memcg 64M --swap 128M --policy linux6 \
	-- usemem -m 80 >"$T/s2" 2>&1
rc2=$?
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(ls "$T/sc" | wc -l)" -eq 1 ] &&
	! grep -q '^pswpout .* 7777 ' "$T/s1" && grep -q '^pswpout .* 7777 ' "$T/s2" && ok ||
	bad "exit $rc1/$rc2; $(ls "$T/sc"); $(grep '^pswpout' "$T/s1" "$T/s2")"

# --html: the same tables as a page, a ratio chart per policy (bars for
# pgfault, pswpout and pgactivate: the counters both sides have, with a
# kernel median above 0), the text unchanged; an unwritable page is
# refused before anything runs.  Uses the --sim-cache above: no new run.
t "compare -- WORKLOAD --html: page, chart per policy, same text"
SOURCE_DATE_EPOCH=0 $P compare --repeat 2 --kernel-cache "$T/kc" --sim-cache "$T/sc" --memcg 64M --swap 128M \
	--policy linux6 --html "$T/k.html" -- usemem -m 80 >"$T/s3" 2>"$T/s3.err"
rc=$?
$P compare --repeat 2 --kernel-cache "$T/kc" --sim-cache "$T/sc" --memcg 64M --swap 128M --policy linux6 \
	--html "$T/nosuch/k.html" -- usemem -m 80 >"$T/s4" 2>"$T/s4.err"
rc4=$?
msg=
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/s3.err")"
cmp -s "$T/s2" "$T/s3" || msg="$msg; --html changed the text"
[ "$(grep -c '<section class="policy">' "$T/k.html")" -eq 1 ] || msg="$msg; not one section"
[ "$(grep -o '<rect class="bar"' "$T/k.html" | wc -l)" -eq 3 ] || msg="$msg; not 3 bars"
grep -q '<h2>linux6: [0-9]* of [0-9]* counters agree</h2>' "$T/k.html" || msg="$msg; no heading"
grep -q '1970-01-01 00:00 UTC' "$T/k.html" || msg="$msg; no provenance date"
grep -q '<td>pswpout</td><td class="n">10500</td><td class="n">1000..20000</td><td class="n">7777</td>' "$T/k.html" ||
	msg="$msg; pswpout row"
[ $rc4 -eq 2 ] && [ "$(wc -l <"$T/s4.err")" -eq 1 ] && [ ! -s "$T/s4" ] || msg="$msg; bad path: exit $rc4"
[ -z "$msg" ] && ok || bad "$msg"
