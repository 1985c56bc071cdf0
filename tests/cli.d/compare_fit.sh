# pagelab compare --fit-cpu (src/engine/kcompare_fit.c) on kernel runs'
# records written by hand into the cache: no kernel run, no root.  The fit's runs
# (usemem -m 200 -r 8 in 256M, no pressure) have 1.50/2.00/3.00 s of user
# and 0.30/0.40/0.90 s of system time: medians 2.00 and 0.40.  About 1 s.

# fit_reports DIR USER... : the three records of the fit's kernel runs
# (user times as given, system times 0.30 0.40 0.90) and of the case's.
fit_reports() {
	d=$1
	shift
	mkdir -p "$d"
	n=0
	for s in 0.30 0.40 0.90; do
		n=$((n + 1))
		u=$1
		shift
		kernel_record "$n" "--memcg 256M --swap 128M --seed 1 --timeout 600 usemem -m 200 -r 8" \
			"user=$u" "sys=$s" c:pswpout=0 >>"$d/kernel.jsonl"
		kernel_record "$n" "--memcg 128M --swap 128M --seed 1 --timeout 600 usemem -m 200 -r 8" \
			user=0.50 sys=0.20 c:pswpout=30000 >>"$d/kernel.jsonl"
	done
}

t "compare --fit-cpu: costs scaled by the baseline's time ratios"
fit_reports "$T/kf" 1.50 2.00 3.00
$P compare --repeat 3 --kernel-cache "$T/kf" --memcg 128M --swap 128M --policy linux6 --fit-cpu 256M \
	-- usemem -m 200 -r 8 >"$T/f1" 2>"$T/f1.err"
rc=$?
# The note's figures, and the fitted --set values of the setup lines.
note=$(sed -n '/^CPU fitted/,/^$/p' "$T/f1" | tr '\n' ' ')
sets=$(sed -n '2,/^CPU fitted/p' "$T/f1" | tr '\n' ' ')
msg=$(echo "$note $sets" | awk '
	{
		if (!match($0, /kernel median [0-9.]+ s user, [0-9.]+ s system over 3 runs/)) { print "no kernel medians"; exit }
		split(substr($0, RSTART, RLENGTH), k, " ")
		if (k[3] != "2.00" || k[6] != "0.40") { print "kernel medians " k[3] ", " k[6]; exit }
		if (!match($0, /costs [0-9.]+ s, [0-9.]+ s\): cost.ref x[0-9.]+, the system costs x[0-9.]+/)) { print "no fit"; exit }
		split(substr($0, RSTART, RLENGTH), f, " ")
		su = f[2]; ss = f[4]; ru = substr(f[7], 2) + 0; rs = substr(f[11], 2) + 0
		sub(/,$/, "", ru)
		# the times of pagelab are exact in the records, the note rounds them to
		# 10 ms: the ratios agree with the figures of the note to that rounding.
		if (ru * su < 2.00 * (1 - 0.0051 / su) || ru * su > 2.00 * (1 + 0.0051 / su)) { print "cost.ref x" ru " for 2.00 / " su; exit }
		if (rs * ss < 0.40 * (1 - 0.0051 / ss) || rs * ss > 0.40 * (1 + 0.0051 / ss)) { print "system x" rs " for 0.40 / " ss; exit }
		# modern: cost.ref 1 ns, fault 700 ns, io_complete 3 us; each
		# scaled by its ratio (printed to 3 decimals).
		want["cost.ref"] = 1000 * ru; unit["cost.ref"] = "ps"
		want["cost.fault"] = 700 * rs; unit["cost.fault"] = "ns"
		want["cost.io_complete"] = 3000 * rs; unit["cost.io_complete"] = "ns"
		for (c in want) {
			if (!match($0, c "=[0-9]+" unit[c] " ")) { print "no " c; exit }
			got = substr($0, RSTART + length(c) + 1, RLENGTH - length(c) - 4) + 0
			if (got < want[c] * 0.999 - 1 || got > want[c] * 1.001 + 1) { print c "=" got ", not " want[c]; exit }
		}
		if (index($0, "cost.syscall=")) { print "cost.syscall fitted"; exit }
	}')
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/f1.err") $msg"
awk 'length > 80 { exit 1 }' "$T/f1" || msg="$msg; a line over 80 columns"
[ -z "$msg" ] && ok || bad "$msg"

t "compare --fit-cpu: a cost given with --set is kept"
$P compare --repeat 3 --kernel-cache "$T/kf" --memcg 128M --swap 128M --policy linux6 --fit-cpu 256M \
	--set cost.ref=2ns -- usemem -m 200 -r 8 >"$T/f2" 2>"$T/f2.err"
rc=$?
sets=$(sed -n '2,/^CPU fitted/p' "$T/f2" | tr '\n' ' ')
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(cat "$T/f2.err")"
[ "$(echo "$sets" | grep -o 'cost\.ref=[0-9a-z]*' | tr '\n' ' ')" = "cost.ref=2ns " ] ||
	msg="$msg; cost.ref: $(echo "$sets" | grep -o 'cost\.ref=[0-9a-z]*' | tr '\n' ' ')"
echo "$sets" | grep -q "cost.fault=" || msg="$msg; cost.fault not fitted"
[ -z "$msg" ] && ok || bad "$msg"

t "compare --fit-cpu: a baseline under 1 s of user time is refused"
fit_reports "$T/ks" 0.40 0.50 0.60
$P compare --repeat 3 --kernel-cache "$T/ks" --memcg 128M --swap 128M --policy linux6 --fit-cpu 256M \
	-- usemem -m 200 -r 8 >"$T/f3" 2>"$T/f3.err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/f3" ] && [ "$(wc -l <"$T/f3.err")" -eq 1 ] &&
	grep -q "0.50 s of user time" "$T/f3.err" && ok || bad "rc $rc: $(cat "$T/f3" "$T/f3.err")"

for v in 0 x 1Q; do
	t "bad input: compare --fit-cpu $v"
	$P compare --fit-cpu "$v" -- usemem -m 4 >"$T/o" 2>"$T/e"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/o" ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ok || bad "rc $rc: $(cat "$T/e")"
done
