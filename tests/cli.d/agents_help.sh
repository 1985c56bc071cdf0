# senpai's and oomd's --help say what each command needs for their
# memory.pressure: pagelab run --set psi=1, pagelab kernel a cgroup v2
# host with PSI and CGROUP among its --cgroup paths (pagelab kernel
# refuses --set psi, the simulator's switch); each line fits 80 columns.

t "senpai, oomd --help: what run and kernel each need, 80 columns"
msg=""
for a in senpai oomd; do
	$P run $a --help >"$T/h" 2>&1
	tr '\n' ' ' <"$T/h" | tr -s ' ' >"$T/flat"
	grep -q 'pagelab run needs --set psi=1' "$T/flat" &&
		grep -q 'pagelab kernel needs CGROUP among its --cgroup paths on a cgroup v2 host whose kernel counts PSI' "$T/flat" &&
		! grep -q 'Needs --set psi=1' "$T/flat" &&
		awk 'length > 80 { exit 1 }' "$T/h" || msg="$msg $a: $(cat "$T/h");"
done
$P kernel --set psi=1 --cgroup /a --cgroup /g usemem -m 4 @/a + senpai /a @/g >/dev/null 2>"$T/e"
[ $? -eq 2 ] && grep -q 'kernel: --set psi: not a cgroup knob' "$T/e" || msg="$msg kernel --set psi=1: $(cat "$T/e")"
[ -z "$msg" ] && ok || bad "$msg"
