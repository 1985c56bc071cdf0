# Dirty file pages and 6.x limit reclaim (issue 38, gaps 3 and 4;
# tests/test_dirty_reclaim.c has the hand-checked cases).  About 1 s.

# A 48 MB file written into a 32 MB cgroup on a 16 GB machine: the node's
# dirty limits (10 % and 20 % of 16 GB) are never reached.  cgroup v1 has
# no dirty limits of its own: limit reclaim meets the dirty pages, leaves
# them to the flusher it wakes (never writes them: nr_vmscan_write 0) and
# frees them as their writes end.  Before, linux6 and mglru waited for a
# flusher nobody woke and the cgroup OOM-killed the writer.
for pol in linux6 mglru; do
	t "$pol: v1 cgroup, dirty pages the flusher writes"
	$P run --machine modern --cpus 2 --memcg 32M --swap 32M --set memcg.v1=1 --policy $pol \
		fileio -c data 48M >"$T/v1$pol" 2>&1
	if [ "$(counter oom_kill "$T/v1$pol")" = 0 ] && [ "$(counter pgpgout "$T/v1$pol")" = 49152 ] &&
		[ "$(counter nr_vmscan_write "$T/v1$pol")" = 0 ] && [ "$(counter pgrotated "$T/v1$pol")" -gt 0 ]; then ok
	else bad "$(grep -E '^(oom_kill|pgpgout|nr_vmscan_write|pgrotated) ' "$T/v1$pol" | tr '\n' ' ')"; fi
done

# cgroup v2 (cgroup writeback): the writer is throttled by the cgroup's
# own limits (20 % of about 32 MB), so reclaim never meets a dirty page.
t "linux6: a v2 cgroup's own dirty limits throttle"
$P run --machine modern --cpus 2 --memcg 32M --swap 32M --policy linux6 fileio -c data 48M >"$T/v2" 2>&1
if [ "$(counter oom_kill "$T/v2")" = 0 ] && [ "$(counter dirty_throttle "$T/v2")" -gt 0 ] &&
	[ "$(counter nr_vmscan_immediate_reclaim "$T/v2")" = 0 ] && [ "$(counter pgactivate "$T/v2")" = 0 ]; then ok
else bad "$(grep -E '^(oom_kill|dirty_throttle|nr_vmscan_immediate_reclaim|pgactivate) ' "$T/v2" | tr '\n' ' ')"; fi

t "vm.dirty_bytes: bad values are refused"
$P run --set vm.dirty_bytes=x usemem -m 1 >/dev/null 2>"$T/e1"; rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$T/e1")" -eq 1 ]; then ok; else bad "exit $rc: $(cat "$T/e1")"; fi
