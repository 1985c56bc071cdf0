/* integrity.c - --check's content versions (see integrity.h).
 *
 * Not a kernel mechanism: the kernel has no way to know its data is
 * stale, which is why a lost write there is silent corruption.  Here the
 * simulator's data paths are checked against a model of what the data
 * must be, the way a file-system test writes a pattern and reads it back
 * (fsx, xfstests' generic/ tests): each logical page's last written
 * version is kept beside the mm core's structures, and every copy of the
 * data carries the version it was made from. */
#include "integrity.h"
#include "mm.h"
#include "filemap.h"
#include "../lib/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct integrity *integrity_new(uint64_t frames, uint64_t swap_slots)
{
	struct integrity *ig = xcalloc(1, sizeof(*ig));
	ig->frame = xcalloc(frames, sizeof(*ig->frame));
	ig->slot = xcalloc(swap_slots, sizeof(*ig->slot));
	ig->nr_slots = (uint32_t)swap_slots;
	return ig;
}

void integrity_free(struct integrity *ig)
{
	if (!ig)
		return;
	for (uint32_t i = 0; i < ig->nr_file; i++) {
		free(ig->file[i].ver);
		free(ig->file[i].disk);
	}
	free(ig->file);
	free(ig->frame);
	free(ig->slot);
	free(ig);
}

void integrity_vma_init(struct mm *mm, struct vma *v)
{
	v->ver = mm->integrity ? xcalloc(v->npages ? v->npages : 1, sizeof(*v->ver)) : NULL;
}

/* The first failure is kept for mm_check to report and stop the run. */
static void failed(struct integrity *ig, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failed(struct integrity *ig, const char *fmt, ...)
{
	if (ig->failed[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ig->failed, sizeof(ig->failed), fmt, ap);
	va_end(ap);
}

/* File page `index` of inode id, its arrays grown to cover it. */
static struct file_versions *file_versions(struct integrity *ig, uint32_t id, uint64_t index)
{
	if (id >= ig->nr_file) {
		uint32_t n = id + 1 > ig->nr_file * 2 ? id + 1 : ig->nr_file * 2;
		ig->file = xrealloc(ig->file, n * sizeof(*ig->file));
		memset(ig->file + ig->nr_file, 0, (n - ig->nr_file) * sizeof(*ig->file));
		ig->nr_file = n;
	}
	struct file_versions *fv = &ig->file[id];
	if (index >= fv->cap) {
		uint64_t n = index + 1 > fv->cap * 2 ? index + 1 : fv->cap * 2;
		fv->ver = xrealloc(fv->ver, n * sizeof(*fv->ver));
		fv->disk = xrealloc(fv->disk, n * sizeof(*fv->disk));
		memset(fv->ver + fv->cap, 0, (n - fv->cap) * sizeof(*fv->ver));
		memset(fv->disk + fv->cap, 0, (n - fv->cap) * sizeof(*fv->disk));
		fv->cap = n;
	}
	return fv;
}

/* Where the last written version of the page in pfn is kept, or NULL if
 * the page belongs to nobody alive (a readahead page not yet claimed, the
 * swap cache of an exited process, a truncated page still under I/O). */
static uint32_t *last_written(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	if ((p->flags & PG_free) || !p->owner)
		return NULL;
	if (p->flags & PG_file) {
		struct inode *ino = page_inode(mm, p);
		return &file_versions(mm->integrity, ino->id, p->index)->ver[p->index];
	}
	if (!(p->flags & PG_anon) || p->owner > mm->nr_as)
		return NULL;
	struct aspace *as = mm->as[p->owner - 1];
	uint32_t vma = ANON_INDEX_VMA(p->index);
	uint64_t off = ANON_INDEX_OFF(p->index);
	if (as->dead || vma >= as->nr_vmas || !as->vmas[vma].ver || off >= as->vmas[vma].npages)
		return NULL;
	return &as->vmas[vma].ver[off];
}

/* "anon page 5 of vma 1 of address space 2" / "page 7 of file /f". */
static void describe(struct mm *mm, pfn_t pfn, char *buf, size_t n)
{
	struct page *p = mm_page(mm, pfn);
	if (p->flags & PG_file)
		snprintf(buf, n, "page %llu of file %s", (unsigned long long)p->index, page_inode(mm, p)->name);
	else
		snprintf(buf, n, "anon page %llu of vma %u of address space %u",
			 (unsigned long long)ANON_INDEX_OFF(p->index), ANON_INDEX_VMA(p->index), p->owner - 1);
}

void integrity_write(struct mm *mm, pfn_t pfn)
{
	struct integrity *ig = mm->integrity;
	uint32_t *last = last_written(mm, pfn);
	ig->frame[pfn] = ++ig->clock;
	if (last)
		*last = ig->clock;
}

void integrity_direct_write(struct mm *mm, struct inode *ino, uint64_t index)
{
	struct integrity *ig = mm->integrity;
	struct file_versions *fv = file_versions(ig, ino->id, index);
	fv->ver[index] = fv->disk[index] = ++ig->clock;
	/* invalidate_inode_pages2_range() leaves mapped and busy pages: they
	 * are taken to hold what the write wrote (the kernel warns, and what
	 * such a page holds afterwards is not defined). */
	pfn_t pfn = pc_page(ino, index);
	if (pfn != PFN_NONE)
		ig->frame[pfn] = ig->clock;
}

void integrity_truncate(struct mm *mm, const struct inode *ino, uint64_t npages)
{
	struct integrity *ig = mm->integrity;
	if (ino->id >= ig->nr_file)
		return;
	struct file_versions *fv = &ig->file[ino->id];
	for (uint64_t i = npages; i < fv->cap; i++)
		fv->ver[i] = fv->disk[i] = 0;
}

void integrity_cow(struct mm *mm, pfn_t dst, pfn_t src)
{
	struct integrity *ig = mm->integrity;
	ig->frame[dst] = ig->frame[src];
	uint32_t *last = last_written(mm, dst);
	if (last)
		*last = ig->frame[src];
}

void integrity_swapin(struct mm *mm, pfn_t pfn, uint32_t slot)
{
	struct integrity *ig = mm->integrity;
	uint32_t from = ig->broken == BREAK_SWAP_READ ? (slot + 1) % ig->nr_slots : slot;
	ig->frame[pfn] = ig->slot[from];
	uint32_t *last = last_written(mm, pfn);
	if (last && *last != ig->frame[pfn]) {
		char what[160];
		describe(mm, pfn, what, sizeof(what));
		failed(ig, "swap-in of %s from slot %u returned version %u; the last write was version %u",
		       what, slot, ig->frame[pfn], *last);
	}
}

void integrity_file_read(struct mm *mm, pfn_t pfn)
{
	struct integrity *ig = mm->integrity;
	struct page *p = mm_page(mm, pfn);
	struct inode *ino = page_inode(mm, p);
	struct file_versions *fv = file_versions(ig, ino->id, p->index);
	ig->frame[pfn] = fv->disk[p->index];
	if (fv->disk[p->index] != fv->ver[p->index])
		failed(ig, "read of page %llu of file %s returned version %u; the last write was version %u",
		       (unsigned long long)p->index, ino->name, fv->disk[p->index], fv->ver[p->index]);
}

void integrity_writeback(struct mm *mm, pfn_t pfn)
{
	struct integrity *ig = mm->integrity;
	struct page *p = mm_page(mm, pfn);
	if (p->flags & PG_file) {
		if (ig->broken == BREAK_FILE_WRITE || !p->owner)
			return;
		struct inode *ino = page_inode(mm, p);
		file_versions(ig, ino->id, p->index)->disk[p->index] = ig->frame[pfn];
	} else if (p->swap && ig->broken != BREAK_SWAP_WRITE) {
		ig->slot[p->swap - 1] = ig->frame[pfn];
	}
}

bool integrity_check(struct mm *mm, FILE *err)
{
	struct integrity *ig = mm->integrity;
	if (!ig)
		return true;
	if (ig->failed[0]) {
		fprintf(err, "check: %s\n", ig->failed);
		return false;
	}
	int bad = 0;
	for (pfn_t pfn = 0; pfn < mm->fr.nr && bad < 4; pfn++) {
		uint32_t *last = last_written(mm, pfn);
		if (!last || *last == ig->frame[pfn])
			continue;
		char what[160];
		describe(mm, pfn, what, sizeof(what));
		fprintf(err, "check: pfn %u (%s) holds version %u; the last write was version %u\n",
			pfn, what, ig->frame[pfn], *last);
		bad++;
	}
	return bad == 0;
}
