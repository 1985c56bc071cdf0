# --set cpu_grain (src/machine/machine.c): the longest stretch one CPU
# runs before the other CPUs' events; 200 us in every profile.

t "cpu_grain: 200us is the default; 5us interleaves two CPUs' sorts finer"
a="--machine modern --cpus 2 --memcg 48M --swap 64M --policy linux6 qsbench -p 4 -m 14 --distinct"
# shellcheck disable=SC2086
$P run $a >"$T/g0" 2>&1
# shellcheck disable=SC2086
$P run --set cpu_grain=200us $a >"$T/g200" 2>&1
# shellcheck disable=SC2086
$P run --set cpu_grain=5us $a >"$T/g5" 2>&1
msg=""
for g in g0 g200 g5; do grep -v '^pagelab' "$T/$g" >"$T/$g.c"; done
cmp -s "$T/g0.c" "$T/g200.c" || msg="200us differs from the default"
cmp -s "$T/g0.c" "$T/g5.c" && msg="$msg; 5us changed nothing"
grep -q '^pswpin [1-9]' "$T/g5" || msg="$msg; no swap-in at 5us: $(grep '^pswpin' "$T/g5")"
[ -z "$msg" ] && ok || bad "$msg"

for v in 0 500ns 20ms x; do
	t "cpu_grain=$v: bad input"
	$P run --set cpu_grain=$v usemem -m 1 >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done
