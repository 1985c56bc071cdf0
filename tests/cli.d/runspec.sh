# One run spec (src/engine/runspec.c): a cgroup given to sweep, to an
# experiment file and to pagelab run is the same run.  About 2 s.

# A figure of a JSON line: "NAME": N.
jnum() { sed -n "s/.*\"$1\": \([0-9][0-9]*\).*/\1/p" "$2" | head -1; }

t "sweep --memcg 8M,12M: two cells, each pagelab run --memcg's figures"
msg=""
$P sweep --no-progress --memcg 8M,12M --ram 32M --swap 64M --policy linux6 -- usemem -m 16 >"$T/sw" 2>"$T/sw.err" \
	|| msg="sweep exit $?: $(cat "$T/sw.err")"
[ "$(wc -l <"$T/sw")" -eq 2 ] || msg="$msg; $(wc -l <"$T/sw") cells"
for k in 1 2; do
	sed -n "${k}p" "$T/sw" >"$T/cell$k"
	lim=$(sed -n 's/.*"memcg": "\([0-9]*M\)".*/\1/p' "$T/cell$k")
	$P run --ram 32M --swap 64M --memcg "$lim" --policy linux6 usemem -m 16 >"$T/run$k" 2>&1
	for c in pswpout pgscan_anon pgsteal_anon; do
		[ "$(jnum $c "$T/cell$k")" = "$(counter $c "$T/run$k")" ] \
			|| msg="$msg; cell $k ($lim): $c $(jnum $c "$T/cell$k") vs run's $(counter $c "$T/run$k")"
	done
done
[ "$(jnum pswpout "$T/cell1")" != "$(jnum pswpout "$T/cell2")" ] || msg="$msg; both cells swapped alike"
grep -q '"cmd": "pagelab run --machine vmm-2008 --memcg 8M --ram 32M --swap 64M --policy linux6 --seed 1 usemem -m 16"' "$T/cell1" \
	|| msg="$msg; cell 1's command line: $(head -c 200 "$T/cell1")"
[ -z "$msg" ] && ok || bad "$msg"

t "sweep --memcg: bad limits, a policy without cgroups: exit 2"
msg=""
$P sweep --memcg 8K --list -- usemem -m 1 >/dev/null 2>"$T/e1"; rc=$?
[ $rc -eq 2 ] && grep -q '^pagelab: .*memcg 8K: a cgroup needs at least 16 pages' "$T/e1" || msg="8K: $rc $(cat "$T/e1")"
$P sweep --set memcg.v1=1 --list -- usemem -m 1 >/dev/null 2>"$T/e2"; rc=$?
[ $rc -eq 2 ] && grep -q 'memcg.v1 needs --memcg' "$T/e2" || msg="$msg; v1 alone: $rc $(cat "$T/e2")"
$P sweep --set memcg.v1=0,1 --memcg 8M --ram 32M --list -- usemem -m 1 >"$T/l" 2>&1 \
	&& [ "$(grep -c -- '--set memcg.v1=[01] --memcg 8M --ram 32M --policy clock' "$T/l")" -eq 2 ] \
	|| msg="$msg; v1 before --memcg: $(cat "$T/l")"
$P sweep --no-progress --policy clock,riel24 --memcg 8M --ram 32M -- usemem -m 1 >"$T/nm" 2>"$T/nm.err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/nm" ] && grep -q '^pagelab: .*policy riel24 cannot run under --memcg' "$T/nm.err" \
	|| msg="$msg; riel24 in a cgroup: $rc $(head -c 300 "$T/nm") $(cat "$T/nm.err")"
[ -z "$msg" ] && ok || bad "$msg"

cat >"$T/cg.exp" <<'EXP'
experiment 9 cgroup
title "A cgroup run"
machine vmm-2008
machine-set "ram=32M swap=64M"
design A linux6 modern
run u "usemem in a cgroup"
  wl "usemem -m 16"
  machine-set "memcg=8M"
run f "usemem without one"
  wl "usemem -m 16"
metric so u 0 counter:pswpout lower "pages swapped out"
metric sf f 0 counter:pswpout lower "pages swapped out, no cgroup"
EXP

t "an experiment file's machine-set memcg=: pagelab run --memcg's run"
$P run --ram 32M --swap 64M --memcg 8M --policy linux6 usemem -m 16 >"$T/ecg" 2>&1
want=$(counter pswpout "$T/ecg")
$P reproduce --json "$T/cg.exp" >"$T/ej" 2>"$T/ej.err"
so=$(sed -n 's/.*"key": "so".*"simulated": {"A": \([0-9]*\)}.*/\1/p' "$T/ej")
sf=$(sed -n 's/.*"key": "sf".*"simulated": {"A": \([0-9]*\)}.*/\1/p' "$T/ej")
[ -n "$so" ] && [ "$so" = "$want" ] && [ "$sf" != "$so" ] && ok || bad "so '$so' (run: $want), sf '$sf': $(cat "$T/ej.err")"

t "an experiment file: memcg.v1 without memcg, a bad limit: exit 2"
msg=""
sed 's/"memcg=8M"/"memcg.v1=1"/' "$T/cg.exp" >"$T/v1.exp"
$P reproduce "$T/v1.exp" >/dev/null 2>"$T/v1.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'memcg.v1 needs --memcg' "$T/v1.err" || msg="v1: $rc $(cat "$T/v1.err")"
sed 's/"memcg=8M"/"memcg=1x"/' "$T/cg.exp" >"$T/bad.exp"
$P reproduce "$T/bad.exp" >/dev/null 2>"$T/bad.err"; rc=$?
[ $rc -eq 2 ] && grep -q "bad size '1x' for memcg" "$T/bad.err" || msg="$msg; 1x: $rc $(cat "$T/bad.err")"
[ -z "$msg" ] && ok || bad "$msg"

t "run --set memcg=8M is --memcg 8M; both is exit 2"
msg=""
$P run --ram 32M --swap 64M --set memcg=8M --policy linux6 usemem -m 16 >"$T/sm" 2>&1
cmp -s "$T/sm" "$T/ecg" || msg="differs: $(diff "$T/sm" "$T/ecg" | head -5)"
$P run --memcg 8M --set memcg=8M usemem -m 1 >/dev/null 2>"$T/both"; rc=$?
[ $rc -eq 2 ] && grep -q 'give --memcg or --set memcg=, not both' "$T/both" || msg="$msg; both: $rc $(cat "$T/both")"
[ -z "$msg" ] && ok || bad "$msg"

# A cell's command is the key of compare's and sweep's caches.  With a
# calibrated profile's every cost given by --set it passes 1 200
# characters, where it was cut (matrix.c formatted through a 1 200-byte
# buffer): the two policies' commands came out the same, and make
# fidelity-cases showed linux6's qsbench run for workingset and mglru.
t "sweep --list: a cell's command of over 1200 characters is whole"
L=""
for c in ref fault zero_page copy_page scan rmap io_submit free_page io_complete lru_lock isolate_batches \
	putback_batches move_folios_to_lru folio_referenced add_to_swap read_swap_cache write_begin \
	generic_perform_write folio_mark_dirty write_iter write_iter_dirtied write_iter_extend writepages \
	try_to_unmap try_to_unmap_flush_dirty inc_max_seq walk_mm walk_pmd_range walk_pmd_range_skipped \
	lru_gen_look_around swap_out_ptes try_to_swap_out tlb_ipi tlb_ipi_recv; do
	L="$L --set cost.$c=1234ns"
done
for v in dirty_ratio dirty_background_ratio ra_pages page_cluster; do L="$L --set vm.$v=3"; done
# shellcheck disable=SC2086 # L is a list of --set arguments
$P sweep --list --policy workingset,mglru $L --memcg 64M -- usemem -m 1 >"$T/long" 2>&1
n1=$(sed -n 1p "$T/long" | wc -c); n2=$(sed -n 2p "$T/long" | wc -c)
if [ "$(wc -l <"$T/long")" -eq 2 ] && [ "$n1" -gt 1200 ] && [ "$n2" -gt 1200 ] &&
	sed -n 1p "$T/long" | grep -q -- '--set vm.page_cluster=3 --memcg 64M --policy workingset --seed 1 usemem -m 1$' &&
	sed -n 2p "$T/long" | grep -q -- '--set vm.page_cluster=3 --memcg 64M --policy mglru --seed 1 usemem -m 1$'
then ok; else bad "$n1, $n2 characters: $(cut -c1100- "$T/long")"; fi
