# run --json and kernel --json: each workload's "tasks", one object per
# task (src/report/report.c json_tasks, src/cli/kernel.c json_tasks), whose
# faults add up to the workload's.

# The n-th (1-based) value of KEY on line LINE of a JSON file.
json_nth() {
	sed -n "$3p" "$4" | tr ',' '\n' | sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p" | sed -n "$2p"
}

t "run --json: qsbench -p 3 lists three tasks whose faults add up"
$P run --machine modern --json qsbench -p 3 -m 8 -s 2 >"$T/jt" 2>"$T/jt.err"
rc=$?
msg=""
[ $rc -eq 0 ] || msg="exit $rc: $(head -1 "$T/jt.err")"
line=$(grep -n '"command": "qsbench' "$T/jt" | head -1 | cut -d: -f1)
[ -n "$line" ] || msg="$msg; no workload line"
if [ -n "$line" ]; then
	n=$(sed -n "${line}p" "$T/jt" | grep -o '{"user_s"' | wc -l)
	[ "$n" -eq 3 ] || msg="$msg; $n tasks"
	# minflt: the workload's, then its three tasks'.
	tot=$(json_nth minflt 1 "$line" "$T/jt")
	sum=0
	for i in 2 3 4; do
		v=$(json_nth minflt $i "$line" "$T/jt")
		[ -n "$v" ] && [ "$v" -gt 0 ] || msg="$msg; task $i minflt '$v'"
		sum=$((sum + ${v:-0}))
	done
	[ "$sum" = "$tot" ] || msg="$msg; tasks' minflt $sum, workload's $tot"
fi
[ -z "$msg" ] && ok || bad "$msg"
