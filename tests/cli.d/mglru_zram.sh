# The kernel build on zram, linux6 against mglru (docs/mglru/
# kbuild-zram.exp, issue 41): its five verdicts, computed from the runs,
# each against the statement it cites.  Sourced by tests/cli.sh (P, T,
# t, ok, bad).  Cost: about a second (quick mode: one seed).

t "docs/mglru/kbuild-zram.exp: five verdicts, computed from the runs"
$P reproduce docs/mglru/kbuild-zram.exp >"$T/kz" 2>"$T/kz.err"; rc=$?
if [ $rc -eq 0 ] && grep -qx 'experiment 8: 4 agree, 1 disagree, 0 too noisy to tell, 0 n/a' "$T/kz" &&
	grep -q 'pagelab 118 / 150 = 0.79 (1 seed): linux6-zram is not worse than' "$T/kz" &&
	grep -q 'pagelab 165934 / 55605 = 2.98 (1 seed): linux6-zram is worse than' "$T/kz" &&
	grep -q '(mglru_v7_05.txt:133-148)' "$T/kz" && grep -q '(compressed-swap-native.txt:2-4)' "$T/kz"
then ok; else bad "rc $rc: $(grep '^experiment' "$T/kz") $(head -2 "$T/kz.err")"; fi
