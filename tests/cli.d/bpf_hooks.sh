# The cache_ext-shaped example plugin (examples/policy-cache-ext, issue 41,
# docs/bpf-hooks.md): built by make check, run under --check on anonymous
# and page-cache pressure.  Sourced by tests/cli.sh (P, T, t, ok, bad).
# Cost: about 4 s (a page-cache run and usemem under --check).

CE="${EXAMPLES:-build/examples}/cache_ext_fifo.so"

t "cache_ext_fifo.so: usemem beyond RAM, --check, exact swap-outs"
if [ ! -f "$CE" ]; then skip "no $CE (make $CE)"; else
$P run --ram 16M --swap 32M --policy "$CE" --check usemem -m 24 >"$T/ce" 2>"$T/ce.err"; rc=$?
# 24M written into 16M: the pages that do not fit go to swap; the count
# is this policy's (the clock policy writes 4288: FIFO reinsertion looks
# at mapped pages through the same accessed bits, in another order).
if [ $rc -eq 0 ] && [ ! -s "$T/ce.err" ] && grep -qx 'pswpout 4263' "$T/ce" && grep -q 'policy cache_ext_fifo' "$T/ce"
then ok; else bad "rc $rc: $(grep '^pswpout' "$T/ce") $(head -2 "$T/ce.err")"; fi
fi

t "cache_ext_fifo.so: random reads, --check, same without"
if [ ! -f "$CE" ]; then skip "no $CE"; else
# --swap 16M: --check's walk of the swap map costs 30 s of CPU on the
# default 2 GB of swap, and page-cache reads never use it.  The second
# run is without --check (with it: 3 s of CPU, about half of the file's
# 28 s under make sancheck; without: 0.02 s) and prints the same bytes:
# the run is deterministic and --check only looks.
$P run --ram 16M --swap 16M --policy "$CE" --check fileio -c -R -r 2 /data 24M >"$T/cf" 2>&1; rc=$?
$P run --ram 16M --swap 16M --policy "$CE" fileio -c -R -r 2 /data 24M >"$T/cf2" 2>&1
if [ $rc -eq 0 ] && grep -qx 'pgpgin 34136' "$T/cf" && cmp -s "$T/cf" "$T/cf2"
then ok; else bad "rc $rc: $(grep '^pgpgin' "$T/cf") $(grep -i check "$T/cf" | head -2)"; fi
fi
