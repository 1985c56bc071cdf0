# pagelab ablate -o and the records of OOM-killed runs (issue 41): an
# ablation's runs in sweep -o's shape, a run the OOM killer ended never
# recorded as finished, compare counting it.  Sourced by tests/cli.sh (P,
# T, t, ok, bad).  Cost: under a second.

# usemem -m 24 in a 16M cgroup without swap: the OOM killer ends it in
# every seed, whatever the design.
OOM="--policy linux6 --seeds 2 --off bailout --memcg 16M --swap 0"

t "ablate -o: the records; OOM-killed runs \"finished\": false"
$P ablate $OOM -o "$T/oom.jsonl" -- usemem -m 24 >"$T/oom.txt" 2>"$T/oom.err"; rc=$?
n=$(wc -l <"$T/oom.jsonl")
fin=$(grep -c '"finished": true' "$T/oom.jsonl")
kil=$(grep -c '"killed": true' "$T/oom.jsonl")
if [ $rc -eq 0 ] && [ "$n" -eq 4 ] && [ "$fin" -eq 0 ] && [ "$kil" -eq 4 ] &&
	grep -qx 'OOM kill in 2 runs of linux6' "$T/oom.txt" && ! grep -q 'max-time' "$T/oom.txt"
then ok; else bad "rc $rc, $n records, $fin finished, $kil killed: $(head -3 "$T/oom.txt") $(cat "$T/oom.err")"; fi

t "compare of those records counts the OOM kills as not finished"
$P compare "$T/oom.jsonl" >"$T/cmp.txt" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q '4 runs (about 2 per design), 4 did not finish (OOM kill or --max-time)' "$T/cmp.txt"
then ok; else bad "rc $rc: $(head -4 "$T/cmp.txt")"; fi

t "ablate -o again: the runs already in FILE are not run again"
$P ablate $OOM -o "$T/oom.jsonl" -- usemem -m 24 >"$T/oom2.txt" 2>&1; rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l <"$T/oom.jsonl")" -eq 4 ] && cmp -s "$T/oom.txt" "$T/oom2.txt"
then ok; else bad "rc $rc, $(wc -l <"$T/oom.jsonl") records"; fi

t "ablate: the median column beside the mean"
if grep -qx 'elapsed_s                   mean     median     stddev    change       p' "$T/oom.txt" &&
	! awk 'length > 80' "$T/oom.txt" | grep -q .
then ok; else bad "$(sed -n '/^elapsed_s/p' "$T/oom.txt")"; fi
