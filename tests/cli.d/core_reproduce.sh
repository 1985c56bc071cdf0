# pagelab reproduce: tables, verdicts, --jobs, bad input.

t "reproduce: tables, verdicts and a summary"
out=$($P reproduce --no-progress --only 5 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^== Experiment 5:' && echo "$out" | grep -q '^summary: 1 experiment, ' &&
	echo "$out" | grep -q 'thread    usemem -m 1000  0.10s user 10.27s system 62% cpu 16.567 total' && ok || bad "$out"

t "reproduce: same output for any --jobs"
a=$($P reproduce --no-progress --only 5 --jobs 1 --json 2>&1)
b=$($P reproduce --no-progress --only 5 --jobs 3 --json 2>&1)
[ "$a" = "$b" ] && echo "$a" | grep -q '"summary": {"agree": ' && ok || bad "outputs differ"

t "reproduce: bad input exits 2"
msg=""
for args in "--only 0" "--only 9" "--jobs 0" "--bogus" "--html" "--html /nonexistent/dir/r.html" "--only"; do
	$P reproduce --no-progress $args >/dev/null 2>&1; rc=$?
	[ $rc -eq 2 ] || msg="$msg pagelab reproduce $args exited $rc;"
done
[ -z "$msg" ] && ok || bad "$msg"

