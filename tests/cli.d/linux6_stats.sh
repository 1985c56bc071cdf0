# linux6's stats_flush_ms: reclaim reading the memcg's statistics as of the
# last periodic rstat flush (6.x lruvec_page_state(), FLUSH_TIME 2 s).
# Sourced by tests/cli.sh (P, T, t, ok, bad, counter).  Cost: about 3 s
# (three 0.3 s simulations of two small sorts in a 14 MB cgroup).
#
# The run lasts about 0.27 simulated seconds.  With live counts (0)
# reclaim deactivates and refaults are found recent; with a 2 s period
# (the default) and phase 0 the first flush is due at 2 s, after the run
# ends, so the copies stay 0: inactive_is_low() is never true, the
# refault count never moves, the workingset is empty - no page is
# deactivated and no refault activated.  Flushed every 50 ms,
# deactivation comes back (every 100 ms, the two flushes of the run
# found the inactive list long enough: swap readahead fills it).

t "linux6: stats_flush_ms: no deactivation before the first flush"
l6s() {
	$P run --machine modern --cpus 2 --swap 64M --memcg 14M --set memcg.v1=1 --policy linux6 \
		--set stats_flush_ms="$1" --set stats_flush_phase_ms=0 qsbench -p 2 -m 8 --distinct >"$T/l6s.$1" 2>&1
}
if $P policies --tunables linux6 2>&1 | grep -q '^stats_flush_ms  *2000 .*FLUSH_TIME' &&
	l6s 0 && l6s 2000 && l6s 50 &&
	[ "$(counter pgdeactivate "$T/l6s.0")" -gt 1000 ] &&
	[ "$(counter workingset_activate_anon "$T/l6s.0")" -gt 100 ] &&
	[ "$(counter pgdeactivate "$T/l6s.2000")" -eq 0 ] &&
	[ "$(counter workingset_activate_anon "$T/l6s.2000")" -eq 0 ] &&
	[ "$(counter pswpout "$T/l6s.2000")" -gt 1000 ] &&
	[ "$(counter pgdeactivate "$T/l6s.50")" -gt 1000 ]; then ok
else bad "$(for f in 0 2000 50; do echo "$f: $(grep -E '^(pgdeactivate|workingset_activate_anon|pswpout) ' "$T/l6s.$f" | tr '\n' ' ')"; done)"; fi
