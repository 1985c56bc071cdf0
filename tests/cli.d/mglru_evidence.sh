# MGLRU's evidence as an experiment file (issue 41, docs/mglru.md): the
# memcached run gives its verdicts, computed; a file naming a metric
# function this build lacks is refused.  Sourced by tests/cli.sh (P, T,
# t, ok, bad).  Cost: about a second.

t "docs/mglru/memcached.exp: four verdicts, computed from the runs"
$P reproduce docs/mglru/memcached.exp >"$T/mc" 2>"$T/mc.err"; rc=$?
if [ $rc -eq 0 ] && grep -qx 'experiment 7: 0 agree, 4 disagree, 0 too noisy to tell, 0 n/a' "$T/mc" &&
	grep -q 'thread  972526 / 476772 = 2.04 (mglru_v7_05.txt:67-70)' "$T/mc" &&
	grep -q 'thread  15 / 38 = 0.393 (mglru_v7_05.txt:133-148)' "$T/mc"
then ok; else bad "rc $rc: $(grep '^experiment' "$T/mc") $(head -2 "$T/mc.err")"; fi

t "an unknown metric function: one line, exit 2"
sed 's/custom:rmap_per_100/custom:rmap_per_1000/' docs/mglru/memcached.exp >"$T/bad.exp"
$P reproduce "$T/bad.exp" >"$T/bad" 2>&1; rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$T/bad")" -eq 1 ] && grep -q "no metric function named 'rmap_per_1000'" "$T/bad"
then ok; else bad "rc $rc: $(cat "$T/bad")"; fi
