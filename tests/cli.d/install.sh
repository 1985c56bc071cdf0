# Version, install, tables (issue 15).

t "--version prints pagelab, the build's version and its decompressors"
out=$($P --version 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] &&
	echo "$out" | grep -Eq '^pagelab [0-9][-.0-9a-zA-Z+]* \((no )?zstd, (no )?zlib\)$' && ok || bad "rc $rc: $out"

t "listings fit 80 columns, with a header row"
msg=""
for cmd in "policies" "workloads" "machines"; do
	$P $cmd >"$T/out" 2>&1 || msg="$msg $cmd failed;"
	w=$(awk 'length > 80 { print NR ": " length }' "$T/out" | head -1)
	[ -n "$w" ] && msg="$msg $cmd line $w;"
	head -1 "$T/out" | grep -Eq '^[A-Z]+ +[A-Z]+' || msg="$msg $cmd: no header row;"
done
for pol in $($P policies --names); do
	$P policies --tunables $pol >"$T/out" 2>&1 || msg="$msg tunables $pol failed;"
	w=$(awk 'length > 80 { print NR ": " length }' "$T/out" | head -1)
	[ -n "$w" ] && msg="$msg tunables $pol line $w;"
done
for m in $($P machines --names); do
	$P machines --show $m >"$T/out" 2>&1 || msg="$msg --show $m failed;"
	w=$(awk 'length > 80 { print NR ": " length }' "$T/out" | head -1)
	[ -n "$w" ] && msg="$msg --show $m line $w;"
	grep -q '^# PARAMETER ' "$T/out" || msg="$msg --show $m: no header row;"
done
[ -z "$msg" ] && ok || bad "$msg"

# The library and plugin examples (make check builds them into EXAMPLES).
if [ -n "${EXAMPLES:-}" ] && [ -x "$EXAMPLES/embed" ]; then
	t "libpagelab example: two policies, counters, events, errors"
	out=$("$EXAMPLES/embed" 60 2>&1); rc=$?
	[ $rc -eq 0 ] && echo "$out" | grep -q '^clock .*pswpout [1-9]' &&
		echo "$out" | grep -q '^splitlru .*pswpout [1-9]' &&
		echo "$out" | grep -q 'exit: usemem -m 60' &&
		echo "$out" | grep -q "^bad policy: unknown policy 'nosuch'" && ok || bad "rc $rc: $out"

	t "plugin lifo.so: --check on usemem, its tunable, --tunables"
	$P run --ram 32M --swap 64M --check --policy "$EXAMPLES/lifo.so" usemem -m 40 -r 2 >"$T/out" 2>&1; rc=$?
	$P run --ram 32M --swap 64M --check --policy "$EXAMPLES/lifo.so" --set keep_mapped=1 usemem -m 40 -r 2 >"$T/out2" 2>&1; rc2=$?
	tun=$($P policies --tunables "$EXAMPLES/lifo.so" 2>&1)
	[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ "$(counter pswpout "$T/out")" -gt 0 ] &&
		grep -q '^pagelab: .*policy lifo' "$T/out" &&
		echo "$tun" | grep -q '^keep_mapped ' && ok || bad "rc $rc/$rc2: $(head -3 "$T/out") $tun"

	t "plugin of a newer interface version, or not a plugin: exit 2"
	msg=""
	sed 's/\.abi = PAGELAB_POLICY_ABI/.abi = PAGELAB_POLICY_ABI + 1/' "$(dirname "$0")/../examples/policy-lifo/lifo.c" >"$T/lifo2.c"
	if ${CC:-cc} -std=c11 -I"$(dirname "$0")/../include" -fPIC -shared -o "$T/lifo2.so" "$T/lifo2.c" 2>"$T/err"; then
		$P run --policy "$T/lifo2.so" usemem -m 4 >"$T/out" 2>"$T/err"; rc=$?
		[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
			grep -q "policy interface version 3, newer than this pagelab's 2 " "$T/err" || msg="$msg abi: rc $rc $(cat "$T/err");"
	else
		msg="$msg cannot build: $(head -2 "$T/err");"
	fi
	$P run --policy ./nosuch.so usemem -m 4 >/dev/null 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] || msg="$msg missing file: rc $rc;"
	printf 'int x;\n' >"$T/empty.c"
	${CC:-cc} -fPIC -shared -o "$T/empty.so" "$T/empty.c" 2>/dev/null
	$P run --policy "$T/empty.so" usemem -m 4 >/dev/null 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && grep -q 'not a pagelab policy plugin' "$T/err" || msg="$msg not a plugin: rc $rc $(cat "$T/err");"
	[ -z "$msg" ] && ok || bad "$msg"
fi

t "--json records the version, the command line and every machine parameter"
$P run --json --ram 32M --set disk.bandwidth=50M usemem -m 8 >"$T/out" 2>&1
v=$($P --version | awk '{ print $2 }')
grep -q "\"pagelab_version\": \"$v\"" "$T/out" &&
	grep -q '"command": \[".*pagelab", "run", "--json", "--ram", "32M", "--set", "disk.bandwidth=50M", "usemem", "-m", "8"\]' "$T/out" &&
	grep -q '"machine_params": {"cpus": "2", "ram": "32M", ' "$T/out" &&
	grep -q '"disk.bandwidth": "50M"' "$T/out" && ok || bad "$(grep -E 'version|command|machine_params' "$T/out" | cut -c1-200)"
