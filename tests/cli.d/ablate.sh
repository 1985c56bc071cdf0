# pagelab ablate (issue 41): a design with each mechanism switch off in
# turn, as one sweep's cells, compared with the full design.  Sourced by
# tests/cli.sh (P, T, t, ok, bad).  Cost: about 5 s.

L6="--policy linux6 --seeds 3 --memcg 64M --swap 128M"
MIX="workingset -m 16 -f 16 -t 100 -n 100 + fileio -c -R -r 1 /data 96M + dd if=/dev/sda of=/dev/null bs=1M count=128"

t "ablate: --help fits 80 columns and names the options"
$P ablate --help >"$T/help" 2>&1; rc=$?
if [ $rc -eq 0 ] && head -1 "$T/help" | grep -q '^usage: pagelab ablate --policy NAME' &&
	grep -q -- '--pairs' "$T/help" && grep -q -- '--off LIST' "$T/help" && ! awk 'length > 80' "$T/help" | grep -q .
then ok; else bad "rc $rc: $(head -2 "$T/help")"; fi

t "ablate: --list gives every variant's runs, seeds innermost"
$P ablate $L6 --list -- usemem -m 80 >"$T/list" 2>&1
if [ "$(wc -l <"$T/list")" -eq 27 ] &&
	[ "$(sed -n 1p "$T/list")" = "pagelab run --machine vmm-2008 --memcg 64M --swap 128M --policy linux6 --seed 1 usemem -m 80" ] &&
	[ "$(sed -n 6p "$T/list")" = "pagelab run --machine vmm-2008 --memcg 64M --swap 128M --policy linux6 --set two_touch=0 --seed 3 usemem -m 80" ] &&
	[ "$(sed -n 27p "$T/list")" = "pagelab run --machine vmm-2008 --memcg 64M --swap 128M --policy linux6 --set bailout=0 --seed 3 usemem -m 80" ]
then ok; else bad "$(wc -l <"$T/list") lines: $(sed -n 6p "$T/list")"; fi

t "ablate: --pairs adds every pair of --off, in list order"
$P ablate --policy mglru --seeds 1 --off bloom,walk_mmu,tiers --pairs --list -- usemem -m 8 >"$T/pairs" 2>&1
if [ "$(wc -l <"$T/pairs")" -eq 7 ] && sed -n 5p "$T/pairs" | grep -q -- '--set bloom=0 --set walk_mmu=0 --seed 1' &&
	sed -n 7p "$T/pairs" | grep -q -- '--set walk_mmu=0 --set tiers=0 --seed 1' && ! grep -q look_around "$T/pairs"
then ok; else bad "$(cat "$T/pairs")"; fi

t "ablate: a switch the user --set is the design's, not turned off"
$P ablate --policy mglru --seeds 1 --set bloom=1 --list -- usemem -m 8 >"$T/set" 2>&1
if [ "$(wc -l <"$T/set")" -eq 6 ] && ! grep -q 'bloom=0' "$T/set" &&
	[ "$(sed -n 2p "$T/set")" = "pagelab run --machine vmm-2008 --policy mglru --set bloom=1 --set walk_mmu=0 --seed 1 usemem -m 8" ]
then ok; else bad "$(cat "$T/set")"; fi

t "ablate: linux6 usemem: the table's exact shape"
$P ablate $L6 -- usemem -m 80 >"$T/l6" 2>"$T/l6.err"; rc=$?
sed -n '/^elapsed_s /,/^$/p' "$T/l6" | awk 'NF { print $1 }' >"$T/l6.rows"
printf '%s\n' elapsed_s linux6 two_touch=0 cache_trim=0 file_is_tiny=0 bailout_writeback=0 wait_writeback=0 \
	refault_activate=0 cost_balance=0 bailout=0 >"$T/l6.want"
if [ $rc -eq 0 ] && [ ! -s "$T/l6.err" ] &&
	[ "$(sed -n 1p "$T/l6")" = "ablate linux6: 8 variants and the full design, 3 seeds each" ] &&
	[ "$(sed -n 2p "$T/l6")" = "config: --machine vmm-2008 --memcg 64M --swap 128M usemem -m 80" ] &&
	grep -qx 'elapsed_s                   mean     median     stddev    change       p' "$T/l6" &&
	grep -qx '  linux6 (full)           0.6426     0.6426     0.0000' "$T/l6" &&
	grep -qx 'OOM kill in 3 runs of linux6 two_touch=0' "$T/l6" &&
	grep -qx 'every seed gave the same figures: no difference can be significant' "$T/l6" &&
	diff "$T/l6.want" "$T/l6.rows" >/dev/null && grep -q '^pgscan ' "$T/l6" && grep -q '^folio_referenced ' "$T/l6" &&
	grep -q '^0 in every run: pgmajfault workingset_refault' "$T/l6" && ! awk 'length > 80' "$T/l6" | grep -q .
then ok; else bad "rc $rc: $(head -3 "$T/l6") $(cat "$T/l6.err")"; fi

t "ablate: a row is its runs' mean, as pagelab run prints it"
$P run --machine vmm-2008 --memcg 64M --swap 128M --policy linux6 --set bailout_writeback=0 --seed 2 usemem -m 80 >"$T/one" 2>&1
scan=$(awk '$1 == "pgscan_anon" || $1 == "pgscan_file" { s += $2 } END { print s }' "$T/one")
row=$(sed -n '/^pgscan /,/^$/p' "$T/l6" | awk '$1 == "bailout_writeback=0" { print $2 }')
[ -n "$scan" ] && [ "$row" = "$scan.0" ] && ok || bad "run $scan, ablate $row"

t "ablate: mglru, random reads beside dd: significance, -j1 = -j2"
$P ablate --policy mglru --seeds 5 --memcg 64M --swap 128M --jobs 1 -- $MIX >"$T/mg1" 2>&1
$P ablate --policy mglru --seeds 5 --memcg 64M --swap 128M --jobs 2 -- $MIX >"$T/mg2" 2>&1
# look_around=0 takes look-around's own work to 0 by construction
sig=$(sed -n '/^lru_gen_look_around_ptes$/,/^$/p' "$T/mg1" | awk '$1 == "look_around=0" { print $2, $5, $NF }')
if cmp -s "$T/mg1" "$T/mg2" && [ "$sig" = "0.0000 -100.0% *" ] && grep -q '^elapsed_s.2 ' "$T/mg1" &&
	[ "$(sed -n 1p "$T/mg1")" = "ablate mglru: 6 variants and the full design, 5 seeds each" ]
then ok; else bad "sig '$sig'; $(diff "$T/mg1" "$T/mg2" | head -3)"; fi

t "ablate: --json is one object, the same for --jobs 1 and 2"
$P ablate --policy mglru --seeds 2 --off walk_mmu,bloom --memcg 64M --swap 128M --json --jobs 1 -- $MIX >"$T/j1" 2>&1
$P ablate --policy mglru --seeds 2 --off walk_mmu,bloom --memcg 64M --swap 128M --json --jobs 2 -- $MIX >"$T/j2" 2>&1
if cmp -s "$T/j1" "$T/j2" && head -c 80 "$T/j1" | grep -q '^{"policy": "mglru", "seeds": 2, "oom_killed": {"mglru": 0' &&
	grep -q '"variants": \[\["walk_mmu"\], \["bloom"\]\], "comparison": {"alpha": 0.05' "$T/j1" &&
	grep -q '"metric": "lru_gen_look_around_ptes"' "$T/j1" && [ "$(tail -n 2 "$T/j1" | tr -d '\n')" = "]}}" ]
then
	if have python3; then python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/j1" && ok || bad "not JSON"
	else ok; fi
else bad "$(head -c 200 "$T/j1")"; fi

t "ablate: --html writes compare's page with every variant"
$P ablate --policy mglru --seeds 2 --off bloom --memcg 64M --swap 128M --html "$T/a.html" -- $MIX >/dev/null 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q '<html' "$T/a.html" && grep -q 'mglru bloom=0' "$T/a.html" && grep -q 'walk_pte_range' "$T/a.html"
then ok; else bad "rc $rc"; fi

t "ablate: bad input: one line, exit 2"
msg=""
chk() {
	want=$1; shift
	$P ablate "$@" >"$T/o" 2>"$T/e"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ ! -s "$T/o" ] && grep -qF -- "$want" "$T/e" ||
		msg="$msg [$*: rc $rc, $(head -c 160 "$T/e")]"
}
chk "ablate: mglru has no switch 'walk_mm' (its switches: walk_mmu, look_around, bloom, tiers, aging_trigger, memcg_lru)" \
	--policy mglru --off walk_mm -- usemem -m 8
chk "ablate: swappiness is a tunable of mglru (0..200, default 60), not a switch (0..1, default 1)" \
	--policy mglru --off swappiness -- usemem -m 8
chk "ablate: --off names bloom twice" --policy mglru --off bloom,bloom -- usemem -m 8
chk "ablate: fifo has no mechanism switch" --policy fifo -- usemem -m 8
chk "ablate: which design? --policy NAME" -- usemem -m 8
chk "ablate: no workload" --policy mglru
chk "ablate: --ram takes one value (pagelab sweep takes lists)" --policy mglru --ram 1G,2G -- usemem -m 8
chk "ablate: --set bloom and --off bloom" --policy mglru --set bloom=1 --off bloom -- usemem -m 8
chk "ablate: every switch of clock is --set: nothing to turn off" --policy clock --set first_ref=1 -- usemem -m 8
chk "unknown policy" --policy nosuch -- usemem -m 8
chk "ablate: bad --seeds '0' (1..1000)" --policy mglru --seeds 0 -- usemem -m 8
chk "usemem" --policy mglru -- usemem --nosuch
[ -z "$msg" ] && ok || bad "$msg"

t "ablate: runs stopped at --max-time: said, exit 3 as sweep"
$P ablate --policy mglru --seeds 1 --off bloom --max-time 0.01 -- usemem -m 40 >"$T/mt" 2>"$T/mt.err"; rc=$?
[ $rc -eq 3 ] && grep -qx '2 of 2 runs stopped at --max-time' "$T/mt" && grep -q '2 of 2 cells stopped' "$T/mt.err" &&
	ok || bad "rc $rc: $(cat "$T/mt.err")"
