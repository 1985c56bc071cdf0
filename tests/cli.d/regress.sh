# Regressions found while integrating branches (one check per bug).

t "s3fifo: a shrink that spends its budget ends (tiny machine)"
printf '1 w\n2 w\n3 r\n1 r\n4 w\n5 r\n1 r\n6 w\n2 r\n7 r\n3 w\n1 r\n8 r\n9 w\n4 r\n1 r\n' >"$T/regress.trace"
# The budget counter wrapped past 0 (a post-decrement in a loop test) and
# the pass never ended; `timeout` only keeps a regression from hanging
# the suite, it is not a time bound.
timeout 300 $P run --check --no-progress --max-time 2 --machine athlon-2001 --ram 537p --swap 134p \
	--policy s3fifo --seed 967 trace "$T/regress.trace" + innodb --pool 2 --data 32M --transactions 20 --scan \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] && ok || bad "exit $rc: $(tail -1 "$T/err")"
