# --set swap.cluster=1/2 (issue 40, docs/zram.md): 6.18's per-CPU swap
# clusters (percpu_swap_cluster) on a solid-state device, the device's
# one global_cluster on a rotational one; 2 = per-CPU on both.  Two
# usemem tasks swapping on two CPUs.  About 1 s.

R="--ram 64M --memcg 8M --swap 32M"
W="usemem -n 2 -Z 12m"

t "swap.cluster: 2 CPUs, solid-state: 1 = 2 (both per-CPU)"
$P run $R --set swap.cluster=1 $W >"$T/a" 2>&1
$P run $R --set swap.cluster=2 $W >"$T/b" 2>&1
cmp -s "$T/a" "$T/b" && [ "$(counter pswpin "$T/a")" -gt 0 ] && ok || bad "differs or no swap-in"

t "swap.cluster: 2 CPUs, rotational: global cluster != per-CPU"
$P run $R --set swap.cluster=1 --set vm.swap_rotational=1 $W >"$T/c" 2>&1
$P run $R --set swap.cluster=2 --set vm.swap_rotational=1 $W >"$T/d" 2>&1
# per-CPU clusters do not depend on the device: 2 on a rotational one
# is 1 (or 2) on a solid-state one, whose readahead here is the same
! cmp -s "$T/c" "$T/d" && cmp -s "$T/a" "$T/d" && ok || bad "global = per-CPU"

t "swap.cluster: 1 CPU, rotational: its cluster is the global one"
$P run $R --cpus 1 --set swap.cluster=1 --set vm.swap_rotational=1 $W >"$T/e" 2>&1
$P run $R --cpus 1 --set swap.cluster=2 --set vm.swap_rotational=1 $W >"$T/f" 2>&1
cmp -s "$T/e" "$T/f" && ok || bad "differs"

t "swap.cluster=3 is refused: one line, exit 2"
$P run $R --set swap.cluster=3 $W >"$T/g" 2>"$T/ge"
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$T/ge")" -eq 1 ] && ok || bad "exit $rc: $(cat "$T/ge")"
