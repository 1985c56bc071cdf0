# Version 2 of the plugin interface (include/pagelab_policy.h, docs/
# bpf-hooks.md) from outside: the lifo example built for version 1
# (-DPAGELAB_POLICY_ABI=1, build/tests/plugins/lifo_abi1.so) runs as
# the same source built for version 2 does, byte for byte; the cache_ext
# example's admit_folio and per-memcg lists, exact counts on small runs.
# (The hooks one by one: tests/test_plugin_abi2.c.)  Sourced by
# tests/cli.sh (P, T, t, ok, bad).  Cost: under 1 s.

EX="${EXAMPLES:-build/examples}"
V1="$(dirname "$EX")/tests/plugins/lifo_abi1.so"
CE="$EX/cache_ext_fifo.so"

t "lifo built for ABI 1 runs as built for ABI 2: the same report"
if [ ! -f "$V1" ] || [ ! -f "$EX/lifo.so" ]; then skip "no $V1 or $EX/lifo.so (make check builds them)"; else
$P run --ram 16M --swap 32M --policy "$V1" --check usemem -m 24 >"$T/v1" 2>"$T/v1.err"; rc=$?
$P run --ram 16M --swap 32M --policy "$EX/lifo.so" --check usemem -m 24 >"$T/v2" 2>&1
if [ $rc -eq 0 ] && [ ! -s "$T/v1.err" ] && grep -qx 'pswpout 4288' "$T/v1" &&
	cmp -s "$T/v1" "$T/v2"
then ok; else bad "rc $rc: $(grep '^pswpout' "$T/v1") $(head -2 "$T/v1.err")"; fi
fi

# dd reads a 256-page file twice (the second 1 s later) on 64M: no
# reclaim.  cache_max=64: the first read keeps 64 pages and drops the
# other 192 after copying them; the second finds the 64 and reads the
# 192 again: 448 pages in.  cache_max=0 admits all: 256 in, 256 kept.
ce_dd() {
	$P run --ram 64M --make-inputs --set start.1=1 --policy "$CE" --set cache_max="$1" \
		dd if=data bs=64K count=16 of=/dev/null + dd if=data bs=64K count=16 of=/dev/null
}

t "cache_ext_fifo.so admit_folio: cache_max=64 keeps 64 of 256"
if [ ! -f "$CE" ]; then skip "no $CE"; else
ce_dd 64 >"$T/adm" 2>&1; rc=$?
ce_dd 0 >"$T/all" 2>&1
if [ $rc -eq 0 ] && grep -qx 'pgpgin 1792' "$T/adm" && grep -qx 'nr_file_pages 64' "$T/adm" &&
	grep -qx 'pgpgin 1024' "$T/all" && grep -qx 'nr_file_pages 256' "$T/all"
then ok; else bad "rc $rc: $(grep -E '^(pgpgin|nr_file_pages)' "$T/adm" "$T/all" | tr '\n' ' ')"; fi
fi

# usemem -m 12 in /a (max 8M) after dd cached 256 pages in /c: /a's limit
# reclaim must free 1024 pages, and with a FIFO per memcg it looks only
# at /a's: pgscan = pgsteal = 1024 (one list for all, as version 1's
# example, scanned /c's 32 oldest first: 1056), /c keeps its 256.
t "cache_ext_fifo.so per-memcg lists: /a's reclaim scans only /a"
if [ ! -f "$CE" ]; then skip "no $CE"; else
$P run --ram 64M --swap 32M --make-inputs --check --cgroup /a:max=8M --cgroup /c --policy "$CE" \
	usemem -m 12 @/a + dd if=data bs=64K count=16 of=/dev/null @/c >"$T/cg" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -Eq '^/a +0 +0 +1024 +1024 ' "$T/cg" && grep -qx 'nr_file_pages 256' "$T/cg"
then ok; else bad "rc $rc: $(grep -E '^(/a |nr_file_pages)' "$T/cg" | tr '\n' ' ')"; fi
fi
