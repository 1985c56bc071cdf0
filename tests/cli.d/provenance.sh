# Provenance in every --json (issue 15): the version, the command line and
# every machine parameter, in run, sweep's records, reproduce and kernel.
# The kernel's only when asked (tests/kernel_lib.sh).  A few s.
. "$(dirname "$0")/kernel_lib.sh"

t "run, sweep, reproduce --json: version, command, machine params"
msg=
$P run --json --machine vmm-2008 --ram 32M --policy lru usemem -m 4 >"$T/prov-run" 2>&1 || msg="$msg run failed;"
for k in '"pagelab_version"' '"command": \["' '"machine_params": {"cpus": "2", "ram": "32M"'; do
	grep -q "$k" "$T/prov-run" || msg="$msg run lacks $k;"
done
rm -f "$T/prov.jsonl"
$P sweep --no-progress --policy lru --ram 32M -o "$T/prov.jsonl" -- usemem -m 4 >/dev/null 2>&1 || msg="$msg sweep failed;"
for k in '"version"' '"cmd": "pagelab run ' '"machine_params": {"cpus": "2", "ram": "32M"'; do
	grep -q "$k" "$T/prov.jsonl" || msg="$msg sweep lacks $k;"
done
$P reproduce --no-progress --only 3 --json >"$T/prov-rep" 2>&1 || msg="$msg reproduce failed;"
grep -q '"params": {"cpus": "4", "ram": "256M", "swap": "128M"' "$T/prov-rep" || msg="$msg reproduce lacks params;"
[ -z "$msg" ] && ok || bad "$msg"

t "kernel --json: version, command and the host's reclaim settings"
kernel_ready
if [ -n "$why" ]; then
	skip "$why"
else
	$P kernel --memcg 64M --swap 64M --json usemem -m 4 >"$T/prov-k" 2>"$T/prov-kerr"; rc=$?
	msg=
	for k in '"pagelab_version"' '"command": \[".*", "kernel", "--memcg", "64M"' \
		'"machine_params": {"cpus": "[0-9]*", "ram": "[0-9]*", "vm.swappiness": "[0-9]*", "vm.page-cluster"'; do
		grep -q "$k" "$T/prov-k" || msg="$msg lacks $k;"
	done
	[ $rc -eq 0 ] && [ -z "$msg" ] && ok || bad "rc $rc:$msg $(kernel_err "$T/prov-kerr" | head -2)"
fi

t "run, sweep, compare, reproduce --html: every machine parameter"
msg=
$P run --machine vmm-2008 --ram 32M --html "$T/prov-run.html" usemem -m 4 >/dev/null 2>&1 || msg="$msg run failed;"
rm -f "$T/prov-h.jsonl"
$P sweep --no-progress --policy lru,clock --ram 32M,48M -o "$T/prov-h.jsonl" --html "$T/prov-sweep.html" \
	-- usemem -m 4 >/dev/null 2>&1 || msg="$msg sweep failed;"
$P compare --html "$T/prov-cmp.html" "$T/prov-h.jsonl" >/dev/null 2>&1 || msg="$msg compare failed;"
$P reproduce --no-progress --only 3 --html "$T/prov-rep.html" >/dev/null 2>&1 || msg="$msg reproduce failed;"
for f in run sweep cmp rep; do
	h="$T/prov-$f.html"
	grep -q '<p class="prov">pagelab ' "$h" || msg="$msg $f: no provenance;"
	grep -q '<summary>every .*parameter' "$h" || msg="$msg $f: no machine parameters;"
	grep -q '<td>swappiness</td>\|<td>cost.fault</td>' "$h" || msg="$msg $f: no parameter rows;"
done
[ "$(grep -c '<summary>every machine parameter: --machine vmm-2008 --ram' "$T/prov-sweep.html")" -eq 2 ] ||
	msg="$msg sweep: not one table per machine;"
[ -z "$msg" ] && ok || bad "$msg"
