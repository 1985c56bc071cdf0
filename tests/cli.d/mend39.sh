# mend39: a research policy's tables that cannot index the cache asked
# for refuse it with one line and exit 2 before anything is built
# (policy_frames_ok(), src/cachesim/cachesim.c; s3fifo's G is a ring of
# at most IDR_MOST ids, src/policy/idring.h, and a frame is a record map
# value below 2^31), not an internal error (abort) after gigabytes of
# frames.  Each run under a 2 GB address-space limit (not under ASan,
# which needs a huge one of its own): the refusal comes before any
# allocation of that size (without it, an out-of-host-memory line, or an
# abort after 10 GB).  Well under 1 s.

printf '1 r\n2 r\n1 r\n' >"$T/t"

mlimit() {
	if [ -n "${PAGELAB_SANITIZED:-}" ]; then
		"$@"
	else
		(ulimit -v 2000000; "$@")
	fi
}

# refused CASE WANT ARGS...: `pagelab run ARGS` exits 2 with one line on
# stderr holding WANT, and nothing on stdout.
refused() {
	_want=$1
	shift
	mlimit $P run --machine ideal "$@" trace "$T/t" >"$T/o" 2>"$T/e"
	rc=$?
	if [ $rc -ne 2 ] || [ "$(wc -l <"$T/e")" -ne 1 ] || [ -s "$T/o" ] || ! grep -q "$_want" "$T/e"; then
		bad "exit $rc: $(head -3 "$T/e")"
	else
		ok
	fi
}

t "s3fifo, 600G cache, ghost=4: G past IDR_MOST, one line, exit 2"
refused "^pagelab: policy s3fifo: G of 629145[0-9]* pages (ghost=4 x 15728[0-9]* frames); a cache's G holds at most 536870910$" \
	--ram 600G --policy s3fifo --set ghost=4

t "s3fifo, 9T cache: more frames than a record map value, exit 2"
refused "^pagelab: policy s3fifo: a cache of 2415919[0-9]* frames; it holds at most 2147483648$" \
	--ram 9T --policy s3fifo --set ghost=0

t "s3fifo, 600G cache at the default ghost=0.9 gets past the check"
if [ -n "${PAGELAB_SANITIZED:-}" ]; then
	skip "under the sanitizers (make check runs it)"
else
	(ulimit -v 2000000; $P run --machine ideal --ram 600G --policy s3fifo trace "$T/t") >"$T/o" 2>"$T/e"
	grep -q "out of host memory" "$T/e" && ! grep -q "policy s3fifo" "$T/e" && ok || bad "$(head -3 "$T/e")"
fi

t "2q, 600G cache, kout=4: A1out past IDR_MOST, one line, exit 2"
refused "^pagelab: policy 2q: A1out of 629145[0-9]* pages (kout=4 x 15728[0-9]* frames); a cache's A1out holds at most 536870910$" \
	--ram 600G --policy 2q --set kout=4

t "arc, 2T cache: B2's ring past IDR_MOST, one line, exit 2"
refused "^pagelab: policy arc: a cache of 5368709[0-9]* frames; it holds at most 268435455$" \
	--ram 2T --policy arc
