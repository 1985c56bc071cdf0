# Version, install, tables (issue 15).

t "--version prints pagelab and the build's version"
out=$($P --version 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -Eq '^pagelab [0-9a-zA-Z][-.0-9a-zA-Z+]*$' && ok || bad "rc $rc: $out"

t "listings fit 80 columns, with a header row"
msg=""
for cmd in "policies" "workloads" "machines"; do
	$P $cmd >"$T/out" 2>&1 || msg="$msg $cmd failed;"
	w=$(awk 'length > 80 { print NR ": " length }' "$T/out" | head -1)
	[ -n "$w" ] && msg="$msg $cmd line $w;"
	head -1 "$T/out" | grep -Eq '^[A-Z]+ +[A-Z]+' || msg="$msg $cmd: no header row;"
done
for pol in $($P policies | awk 'NR > 1 && /^[a-z]/ { print $1 }'); do
	$P policies --tunables $pol >"$T/out" 2>&1 || msg="$msg tunables $pol failed;"
	w=$(awk 'length > 80 { print NR ": " length }' "$T/out" | head -1)
	[ -n "$w" ] && msg="$msg tunables $pol line $w;"
done
for m in $($P machines | awk 'NR > 1 && NF > 1 && $1 !~ /^disk/ { print $1 }'); do
	$P machines --show $m >"$T/out" 2>&1 || msg="$msg --show $m failed;"
	w=$(awk 'length > 80 { print NR ": " length }' "$T/out" | head -1)
	[ -n "$w" ] && msg="$msg --show $m line $w;"
	grep -q '^# PARAMETER ' "$T/out" || msg="$msg --show $m: no header row;"
done
[ -z "$msg" ] && ok || bad "$msg"
