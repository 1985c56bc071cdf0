# pagelab run's options from its table (src/cli/run.c, issue 37): the
# options it takes are the ones it took, each bad one said as before the
# table, with exit 2; and the machine options group's --set keeps a NAME
# of any length.  About 2 s.
# Bug (integ before this branch): the machine options group cut a --set
# NAME at 127 characters, so sweep's "unknown parameter" named another
# (run copied it whole, with its own loop).
t "--set NAME of 200 characters: named whole (run and sweep)"
long=$(printf '%0200d' 0 | tr 0 x)
msg=
for c in run sweep; do
	sep=; [ $c = sweep ] && sep=--
	$P $c --set "$long=1" $sep usemem -m 10 >/dev/null 2>"$T/err"; rc=$?
	grep -q "unknown parameter '$long'" "$T/err" && [ $rc -eq 2 ] || msg="$msg $c rc $rc: $(cut -c1-60 "$T/err");"
done
[ -z "$msg" ] && ok || bad "$msg"
