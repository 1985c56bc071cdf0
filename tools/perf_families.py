#!/usr/bin/env python3
"""perf_families.py PERF.data [PID...] - where a kernel run's system time
goes (docs/fidelity.md, "Where the kernel's system time goes").

PERF.data is `perf record -F 999 -g -- pagelab kernel ... WORKLOAD`.  The
samples counted are the workloads' (every pid but the first, pagelab
kernel itself, and commands that are not pagelab, such as mkswap), or
the PIDs given.  A sample whose leaf is in user space is user time; a
kernel sample goes to the family of the first frame, from the leaf up,
that names one (so a spin lock's or an IPI's sample goes to its caller's
family), and to a context: reclaim (under try_to_free_mem_cgroup_pages
and the like), a fault, a system call, exit.  Families are named after
Linux 6.18's functions; a frame no family names falls through to its
caller."""
import re, subprocess, sys, collections
FAM = [  # (family, regex on a frame's symbol)
 ("tlb flush (IPI)", r"arch_tlbbatch_flush|flush_tlb_|try_to_unmap_flush|native_flush_tlb"),
 ("zero page", r"clear_page|folio_zero_user|clear_user"),
 ("copy to/from user", r"copy_user|rep_movs|copy_page_to_iter|copy_page_from_iter|_copy_to_iter|_copy_from_iter|copy_mc|copy_page$"),
 ("I/O submit (bio, blk-mq, virtio kick)", r"^submit_bio|blk_mq_|blk_finish_plug|__blk_flush_plug|virtqueue|vp_notify|bio_alloc|bio_add|bio_associate|^blk_|swap_writepage|swap_writeout|__swap_writepage|swap_read_folio|ext4_bio|ext4_io_submit|mpage_|iomap_|ext4_mpage_readpages|read_pages$"),
 ("I/O completion, irq/softirq", r"handle_softirqs|irq_exit|__irq_exit|blk_complete|bio_endio|end_swap_bio|folio_end_writeback|vring_interrupt|common_interrupt|asm_common_interrupt|sysvec_"),
 ("memcg charge/uncharge/stats", r"charge_memcg|try_charge|page_counter|mem_cgroup|memcg|lruvec_stat|mod_lruvec|count_memcg|__count_memcg|mod_memcg|obj_cgroup|refill_stock|consume_stock|css_|__folio_throttle_swaprate"),
 ("swap slot + swap cache", r"swap_cache|folio_alloc_swap|alloc_swap|swap_alloc|__swap_|swap_free|folio_free_swap|get_swap|swap_range|_swap_info_get|swap_entry|swap_duplicate|add_to_swap|delete_from_swap|swapcache|cluster_|free_swap|put_swap|swp_|swap_count"),
 ("rmap walk/unmap/referenced", r"folio_referenced|try_to_unmap|rmap_walk|page_vma_mapped|folio_lock_anon_vma|anon_vma|invalid_folio_referenced|folio_add_.*rmap|folio_remove_rmap|__folio_.*rmap|page_add_.*rmap"),
 ("LRU add/move/isolate, lru_lock", r"folio_batch|lru_add|folio_add_lru|move_folios_to_lru|isolate_lru|lru_gen|folio_putback_lru|__folio_batch|lru_note_cost|folio_activate|folio_mark_accessed|lru_deactivate|shrink_active_list|folio_isolate_lru|lruvec_lru|list_lru"),
 ("page allocator/free", r"get_page_from_freelist|__alloc_pages|__alloc_frozen|alloc_pages|rmqueue|free_unref|free_pcppages|__free_pages|free_frozen|__free_one_page|free_pages_prepare|folio_alloc|alloc_anon_folio|vma_alloc_folio|policy_nodemask|__folio_put|folios_put|free_folio|destroy_large|release_pages"),
 ("page cache (filemap/xarray/mapping)", r"filemap_|__filemap|page_cache|__remove_mapping|remove_mapping|delete_from_page_cache|folio_unmap_invalidate|mapping_|pagecache|ext4_|__folio_mark_dirty|folio_mark_dirty|block_|create_empty_buffers|mark_buffer|jbd2|buffer_|readahead|ra_|generic_perform_write|generic_file"),
 ("reclaim: shrink_folio_list/shrink_*", r"shrink_folio_list|shrink_inactive_list|shrink_lruvec|shrink_node|do_try_to_free_pages|try_to_free_mem_cgroup|folio_check_references|pageout$|__remove_mapping|shrink_"),
 ("scheduler, context switch", r"schedule|finish_task_switch|__schedule|pick_next|enqueue_task|dequeue_task|try_to_wake_up|update_curr|sched_"),
 ("fault path (trap, VMA, PTE)", r"handle_mm_fault|do_anonymous_page|do_swap_page|exc_page_fault|do_user_addr_fault|asm_exc_page_fault|lock_vma|do_fault|do_read_fault|do_wp_page|wp_page|do_pte_missing|set_pte|pte_offset|__pte_|mas_|pmd_|lock_mm_and_find_vma|do_page_fault|irqentry|error_entry"),
 ("mmap/munmap/exit (zap)", r"unmap_page_range|zap_|unmap_vmas|exit_mmap|do_exit|tlb_finish_mmu|free_pgtables|do_vmi|mmap_region|vm_area"),
 ("syscall entry/other syscalls", r"entry_SYSCALL|do_syscall|syscall_exit|__x64_sys|ksys_|vfs_|do_sys|__sys_|exit_to_user|fput|path_|do_open|open"),
 ("tracepoints, perf (measurement)", r"trace_|perf_|ring_buffer|rb_|__trace|tracing"),
]
CRE = [(n, re.compile(r)) for n, r in FAM]
def fam_of(frames):
    for sym in frames:
        for n, rx in CRE:
            if rx.search(sym):
                return n
    return "other: " + (frames[0] if frames else "?")
CTX = [("reclaim", r"try_to_free_mem_cgroup_pages|try_to_free_pages|balance_pgdat|reclaim_pages"),
       ("fault", r"exc_page_fault|asm_exc_page_fault"),
       ("exit", r"do_exit|exit_mmap|do_group_exit"),
       ("syscall", r"do_syscall_64")]
def ctx_of(frames):
    for name, rx in CTX:
        if any(re.match(rx, f) for f in frames):
            return name
    return "other"
def main():
    if len(sys.argv) < 2 or not all(a.isdigit() for a in sys.argv[2:]):
        print("usage: perf_families.py PERF.data [PID...]", file=sys.stderr)
        sys.exit(2)
    data = sys.argv[1]
    want = set(int(p) for p in sys.argv[2:])
    run = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,ip,sym,dso"],
                         capture_output=True, text=True)
    if run.returncode:
        print("perf_families.py: perf script -i %s failed" % data, file=sys.stderr)
        sys.exit(2)
    out = run.stdout
    ctxs = collections.Counter(); ctxt = collections.Counter()
    fams = collections.Counter()
    pids = collections.Counter(); total = 0; user = 0
    first = None
    for block in out.split("\n\n"):
        lines = [l for l in block.split("\n") if l.strip()]
        if not lines: continue
        hdr = lines[0].split()
        comm, pid = hdr[0], int(hdr[1])
        if first is None: first = pid
        if want and pid not in want: continue
        if not want and (pid == first or comm != "pagelab"): continue
        frames = []; dsos = []
        for l in lines[1:]:
            f = l.split()
            frames.append(f[1].split("+")[0] if len(f) > 1 else "?")
            dsos.append(f[-1])
        pids[pid] += 1; total += 1
        # a user-space leaf: user time, not the kernel's
        if not frames or "kernel.kallsyms" not in dsos[0]:
            user += 1; continue
        ctx = ctx_of(frames)
        fam = fam_of(frames)
        fams[fam] += 1; ctxs[(ctx, fam)] += 1; ctxt[ctx] += 1
    print(f"samples {total} in pids {dict(pids)}; user {user}; kernel by context {dict(ctxt)}")
    for n, c in fams.most_common():
        by = " ".join(f"{k}:{ctxs[(k, n)]}" for k in ("fault", "reclaim", "syscall", "exit", "other") if ctxs[(k, n)])
        print(f"{c:6d} {100.0*c/total:5.1f}%  {n:40s} {by}")
main()

