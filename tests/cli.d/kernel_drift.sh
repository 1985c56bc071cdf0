# tools/kernel_drift.sh: two sets of kernel records of the same cases,
# each case's median elapsed and system time in both and the count within
# +-25 % of the older; cases in one set only are left out; bad input and
# no common case exit 2 in one line.  Hand-made records (about 0.1 s).

R=$(dirname "$0")/..
# krec CONFIG ELAPSED SYS: a kernel record (a workload's own figures after
# the run's, as compare's records have them)
krec() { printf '{"cell": 0, "cmd": "x # run 1, executor %s", "design": "kernel", "config": "%s", "elapsed_s": %s, "user_s": 0.1, "sys_s": %s, "workloads": [{"elapsed_s": 9, "sys_s": 9}]}\n' "$1" "$2" "$3" "$4"; }
# a: elapsed medians 1.1 -> 1.4 (x1.27: out), system 0.5 -> 0.55 (in);
# c: 2.0 -> 1.6 (x0.80: in), system 1.0 -> 0.7 (x0.70: out); b: old only
{ krec 4 a 1.0 0.5; krec 4 a 1.2 0.4; krec 4 a 1.1 0.6; krec 4 b 5 5; krec 4 c 2.0 1.0
  printf '{"cell": 0, "design": "simulator", "config": "a", "elapsed_s": 99, "sys_s": 99}\n'; } >"$T/old.jsonl"
{ krec 5 a 1.5 0.55; krec 5 a 1.3 0.55; krec 5 a 1.4 0.5; krec 5 c 1.6 0.7; krec 5 d 1 1; } >"$T/new.jsonl"

t "kernel_drift: medians of both sets, the count within +-25 % of the old"
sh "$R/tools/kernel_drift.sh" "$T/old.jsonl" "$T/new.jsonl" >"$T/out" 2>"$T/err"
rc=$?
msg=
[ $rc -eq 0 ] || msg="exit $rc"
[ -s "$T/err" ] && msg="$msg; stderr: $(cat "$T/err")"
grep -Eq '^a +1\.10>1\.40 \* +0\.50>0\.55 *$' "$T/out" || msg="$msg; case a"
grep -Eq '^c +2\.00>1\.60 +1\.00>0\.70 \*$' "$T/out" || msg="$msg; case c"
grep -Eq '^[bd] ' "$T/out" && msg="$msg; a case of one set shown"
grep -qx '2 cases in both (old>new medians; \*: outside +-25% of the old)' "$T/out" || msg="$msg; count line"
grep -qx 'elapsed within +-25%: 1/2; system: 1/2' "$T/out" || msg="$msg; totals"
awk 'length > 80 { exit 1 }' "$T/out" || msg="$msg; a line over 80 columns"
[ -z "$msg" ] && ok || bad "$msg: $(cat "$T/out")"

t "kernel_drift: a missing file or no common case: one line, exit 2"
msg=
sh "$R/tools/kernel_drift.sh" "$T/old.jsonl" "$T/none" >"$T/o2" 2>"$T/e2"
rc=$?
{ [ $rc -eq 2 ] && [ ! -s "$T/o2" ] && [ "$(wc -l <"$T/e2")" -eq 1 ]; } || msg="missing: exit $rc"
krec 5 z 1 1 >"$T/other.jsonl"
sh "$R/tools/kernel_drift.sh" "$T/old.jsonl" "$T/other.jsonl" >"$T/o3" 2>"$T/e3"
rc=$?
{ [ $rc -eq 2 ] && grep -qx 'kernel_drift: no case is in both files' "$T/e3" && [ "$(wc -l <"$T/e3")" -eq 1 ]; } ||
	msg="$msg; no common case: exit $rc: $(cat "$T/e3")"
[ -z "$msg" ] && ok || bad "$msg"
