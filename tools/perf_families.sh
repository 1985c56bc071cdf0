#!/bin/sh
# perf_families.sh PERF.data [PID...] - where a kernel run's system time
# goes (docs/fidelity.md, "Where the kernel's system time goes").
#
# PERF.data is `perf record -F 999 -g -- pagelab kernel ... WORKLOAD`.
# The samples counted are the workloads' (every pid but the first,
# pagelab kernel itself, and commands that are not pagelab, such as
# mkswap), or the PIDs given.  A sample whose leaf is in user space is
# user time; a kernel sample goes to the family of the first frame, from
# the leaf up, that names one (so a spin lock's or an IPI's sample goes
# to its caller's family), and to a context: reclaim (under
# try_to_free_mem_cgroup_pages and the like), a fault, a system call,
# exit.  Families are named after Linux 6.18's functions; a frame no
# family names falls through to its caller.
set -eu
usage() { echo "usage: tools/perf_families.sh PERF.data [PID...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
data=$1
shift
for p in "$@"; do
	case $p in '' | *[!0-9]*) usage ;; esac
done
command -v perf >/dev/null || { echo "perf_families.sh: no perf (Debian's linux-perf)" >&2; exit 2; }
[ -r "$data" ] || { echo "perf_families.sh: cannot read $data" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
perf script -i "$data" -F comm,pid,ip,sym,dso >"$out" 2>/dev/null ||
	{ echo "perf_families.sh: perf script -i $data failed" >&2; exit 2; }

awk -v want="$*" '
BEGIN {
	nf = 0
	fam("tlb flush (IPI)", "arch_tlbbatch_flush|flush_tlb_|try_to_unmap_flush|native_flush_tlb")
	fam("zero page", "clear_page|folio_zero_user|clear_user")
	fam("copy to/from user", "copy_user|rep_movs|copy_page_to_iter|copy_page_from_iter|_copy_to_iter|_copy_from_iter|copy_mc|copy_page$")
	fam("I/O submit (bio, blk-mq, virtio kick)", "^submit_bio|blk_mq_|blk_finish_plug|__blk_flush_plug|virtqueue|vp_notify|bio_alloc|bio_add|bio_associate|^blk_|swap_writepage|swap_writeout|__swap_writepage|swap_read_folio|ext4_bio|ext4_io_submit|mpage_|iomap_|ext4_mpage_readpages|read_pages$")
	fam("I/O completion, irq/softirq", "handle_softirqs|irq_exit|__irq_exit|blk_complete|bio_endio|end_swap_bio|folio_end_writeback|vring_interrupt|common_interrupt|asm_common_interrupt|sysvec_")
	fam("memcg charge/uncharge/stats", "charge_memcg|try_charge|page_counter|mem_cgroup|memcg|lruvec_stat|mod_lruvec|count_memcg|__count_memcg|mod_memcg|obj_cgroup|refill_stock|consume_stock|css_|__folio_throttle_swaprate")
	fam("swap slot + swap cache", "swap_cache|folio_alloc_swap|alloc_swap|swap_alloc|__swap_|swap_free|folio_free_swap|get_swap|swap_range|_swap_info_get|swap_entry|swap_duplicate|add_to_swap|delete_from_swap|swapcache|cluster_|free_swap|put_swap|swp_|swap_count")
	fam("rmap walk/unmap/referenced", "folio_referenced|try_to_unmap|rmap_walk|page_vma_mapped|folio_lock_anon_vma|anon_vma|invalid_folio_referenced|folio_add_.*rmap|folio_remove_rmap|__folio_.*rmap|page_add_.*rmap")
	fam("LRU add/move/isolate, lru_lock", "folio_batch|lru_add|folio_add_lru|move_folios_to_lru|isolate_lru|lru_gen|folio_putback_lru|__folio_batch|lru_note_cost|folio_activate|folio_mark_accessed|lru_deactivate|shrink_active_list|folio_isolate_lru|lruvec_lru|list_lru")
	fam("page allocator/free", "get_page_from_freelist|__alloc_pages|__alloc_frozen|alloc_pages|rmqueue|free_unref|free_pcppages|__free_pages|free_frozen|__free_one_page|free_pages_prepare|folio_alloc|alloc_anon_folio|vma_alloc_folio|policy_nodemask|__folio_put|folios_put|free_folio|destroy_large|release_pages")
	fam("page cache (filemap/xarray/mapping)", "filemap_|__filemap|page_cache|__remove_mapping|remove_mapping|delete_from_page_cache|folio_unmap_invalidate|mapping_|pagecache|ext4_|__folio_mark_dirty|folio_mark_dirty|block_|create_empty_buffers|mark_buffer|jbd2|buffer_|readahead|ra_|generic_perform_write|generic_file")
	fam("reclaim: shrink_folio_list/shrink_*", "shrink_folio_list|shrink_inactive_list|shrink_lruvec|shrink_node|do_try_to_free_pages|try_to_free_mem_cgroup|folio_check_references|pageout$|__remove_mapping|shrink_")
	fam("scheduler, context switch", "schedule|finish_task_switch|__schedule|pick_next|enqueue_task|dequeue_task|try_to_wake_up|update_curr|sched_")
	fam("fault path (trap, VMA, PTE)", "handle_mm_fault|do_anonymous_page|do_swap_page|exc_page_fault|do_user_addr_fault|asm_exc_page_fault|lock_vma|do_fault|do_read_fault|do_wp_page|wp_page|do_pte_missing|set_pte|pte_offset|__pte_|mas_|pmd_|lock_mm_and_find_vma|do_page_fault|irqentry|error_entry")
	fam("mmap/munmap/exit (zap)", "unmap_page_range|zap_|unmap_vmas|exit_mmap|do_exit|tlb_finish_mmu|free_pgtables|do_vmi|mmap_region|vm_area")
	fam("syscall entry/other syscalls", "entry_SYSCALL|do_syscall|syscall_exit|__x64_sys|ksys_|vfs_|do_sys|__sys_|exit_to_user|fput|path_|do_open|open")
	fam("tracepoints, perf (measurement)", "trace_|perf_|ring_buffer|rb_|__trace|tracing")
	nctx = split("reclaim fault exit syscall", ctxname, " ")
	ctxre["reclaim"] = "^(try_to_free_mem_cgroup_pages|try_to_free_pages|balance_pgdat|reclaim_pages)"
	ctxre["fault"] = "^(exc_page_fault|asm_exc_page_fault)"
	ctxre["exit"] = "^(do_exit|exit_mmap|do_group_exit)"
	ctxre["syscall"] = "^do_syscall_64"
	nw = split(want, w, " ")
	for (i = 1; i <= nw; i++) wanted[w[i]] = 1
	first = ""; total = 0; user = 0; nseen = 0; npid = 0; nctxseen = 0
	n = 0
}
function fam(name, re) { nf++; famname[nf] = name; famre[nf] = re }
function fam_of(   i, j) {
	for (i = 1; i <= n; i++)
		for (j = 1; j <= nf; j++)
			if (sym[i] ~ famre[j]) return famname[j]
	return "other: " (n ? sym[1] : "?")
}
function ctx_of(   c, i) {
	for (c = 1; c <= nctx; c++)
		for (i = 1; i <= n; i++)
			if (sym[i] ~ ctxre[ctxname[c]]) return ctxname[c]
	return "other"
}
function see(arr, order, key, cnt) {	# a counter that remembers first sight
	if (!(key in arr)) order[++cnt] = key
	arr[key]++
	return cnt
}
function sample(   f, x) {
	if (hdr == "") return
	split(hdr, h, " ")
	comm = h[1]; pid = h[2]
	if (first == "") first = pid
	if (nw ? !(pid in wanted) : (pid == first || comm != "pagelab")) return
	npid = see(pids, pidorder, pid, npid)
	total++
	if (n == 0 || dso[1] !~ /kernel\.kallsyms/) { user++; return }
	x = ctx_of(); f = fam_of()
	nseen = see(fams, famorder, f, nseen)
	byctx[x SUBSEP f]++
	nctxseen = see(ctxs, ctxorder, x, nctxseen)
}
/^[^ \t]/ { sample(); hdr = $0; n = 0; next }
/^[ \t]/ {
	n++
	s = $2; sub(/\+.*/, "", s); sym[n] = (NF > 1 ? s : "?")
	dso[n] = $NF
	next
}
/^$/ { sample(); hdr = ""; n = 0 }
END {
	sample()
	line = "samples " total " in pids"
	for (i = 1; i <= npid; i++) line = line " " pidorder[i] ":" pids[pidorder[i]]
	line = line "; user " user "; kernel by context"
	for (i = 1; i <= nctxseen; i++) line = line " " ctxorder[i] ":" ctxs[ctxorder[i]]
	print line
	# most frequent first; ties in the order first seen
	for (i = 1; i <= nseen; i++) rank[i] = famorder[i]
	for (i = 2; i <= nseen; i++)
		for (j = i; j > 1 && fams[rank[j]] > fams[rank[j - 1]]; j--) {
			t = rank[j]; rank[j] = rank[j - 1]; rank[j - 1] = t
		}
	split("fault reclaim syscall exit other", ctxshow, " ")
	for (i = 1; i <= nseen; i++) {
		f = rank[i]; by = ""
		for (c = 1; c <= 5; c++)
			if (byctx[ctxshow[c] SUBSEP f])
				by = by (by == "" ? "" : " ") ctxshow[c] ":" byctx[ctxshow[c] SUBSEP f]
		printf "%6d %5.1f%%  %-40s %s\n", fams[f], 100.0 * fams[f] / total, f, by
	}
}' "$out"
