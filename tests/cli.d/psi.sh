# --set psi=1: the machine's /proc/pressure/memory (src/mm/psi.c,
# src/machine/pressure.c; docs/psi.md).  About 1 s.

# psi_field some|full avg10|avg60|avg300|total FILE: one figure of the
# section's lines ("some avg10=1.23 ... total=456").
psi_field() {
	awk -v l="$1" -v k="$2" '$1 == l && NF == 5 {
		for (i = 2; i <= 5; i++) { split($i, kv, "="); if (kv[1] == k) { print kv[2]; f = 1 } } }
		END { if (!f) print -1 }' "$3"
}

t "no memory pressure: some and full totals 0"
$P run --ram 32M --swap 64M --set psi=1 usemem -m 4 >"$T/none" 2>&1
grep -q '^# /proc/pressure/memory$' "$T/none" \
	&& grep -qx 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0' "$T/none" \
	&& grep -qx 'full avg10=0.00 avg60=0.00 avg300=0.00 total=0' "$T/none" && ok || bad "$(grep -A2 pressure "$T/none")"

t "usemem beyond --memcg: some > 0, full <= some"
$P run --ram 32M --swap 64M --memcg 8M --set psi=1 --policy linux6 usemem -m 12 -r 30 >"$T/mc" 2>&1
s=$(psi_field some total "$T/mc"); f=$(psi_field full total "$T/mc")
s10=$(psi_field some avg10 "$T/mc"); f10=$(psi_field full avg10 "$T/mc")
[ "$s" -gt 0 ] && [ "$f" -ge 0 ] && [ "$f" -le "$s" ] \
	&& awk -v s="$s10" -v f="$f10" 'BEGIN { exit !(s > 0 && f <= s && s <= 100) }' && ok || bad "some $s/$s10 full $f/$f10"

t "global reclaim: kswapd and direct reclaim stall, some > 0"
$P run --ram 32M --swap 64M --set psi=1 --policy linux6 usemem -m 40 >"$T/gl" 2>&1
s=$(psi_field some total "$T/gl"); f=$(psi_field full total "$T/gl")
[ "$s" -gt 0 ] && [ "$f" -le "$s" ] && ok || bad "some $s full $f"

t "without psi=1 the output is the same, less the section"
$P run --ram 32M --swap 64M --memcg 8M --policy linux6 usemem -m 12 -r 30 >"$T/off" 2>&1
grep -v -e '^# /proc/pressure/memory$' -e '^some avg10=' -e '^full avg10=' "$T/mc" | cmp -s - "$T/off" \
	&& ! grep -q pressure "$T/off" && ok || bad "outputs differ beyond the section"

t "--json: a pressure object with psi=1, none without"
$P run --ram 32M --swap 64M --memcg 8M --set psi=1 --json usemem -m 12 >"$T/j" 2>&1
$P run --ram 32M --swap 64M --memcg 8M --json usemem -m 12 >"$T/j0" 2>&1
grep -q '^  "pressure": {"memory": {"some": {"avg10": [0-9]*\.[0-9][0-9], "avg60": [0-9.]*, "avg300": [0-9.]*, "total": [1-9][0-9]*}, "full": {' "$T/j" \
	&& ! grep -q '"pressure"' "$T/j0" && ok || bad "$(grep pressure "$T/j" | cut -c1-200)"

t "same output twice, and with 4 CPUs"
$P run --ram 32M --swap 64M --memcg 8M --set psi=1 --policy linux6 usemem -m 12 -r 30 >"$T/mc2" 2>&1
$P run --ram 32M --swap 64M --cpus 4 --set psi=1 --policy linux6 usemem -n 4 -m 10 >"$T/c4" 2>&1
cmp -s "$T/mc" "$T/mc2" && [ "$(psi_field some total "$T/c4")" -gt 0 ] \
	&& [ "$(psi_field full total "$T/c4")" -le "$(psi_field some total "$T/c4")" ] && ok || bad "differs or no stall on 4 CPUs"

for v in 2 x ""; do
	t "bad input: --set psi=$v"
	$P run --set "psi=$v" usemem -m 4 >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done

t "the dirty throttle and fsync are no memory stall"
$P run --ram 256M --swap 64M --set psi=1 --policy linux6 dd if=/dev/zero of=big bs=1M count=150 conv=fsync >"$T/dd" 2>&1
grep -q '^157286400 bytes (157 MB) copied' "$T/dd" && [ "$(counter pgscan_kswapd "$T/dd")" -eq 0 ] \
	&& [ "$(psi_field some total "$T/dd")" -eq 0 ] && ok || bad "some $(psi_field some total "$T/dd")"
