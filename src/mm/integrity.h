/* integrity.h - --check's content versions: is the data a page holds the
 * data last written to it?
 *
 * Every write reference (a write touch, write(), a direct write) gives
 * the logical page it writes - an anonymous page (address space, vma,
 * offset) or a file page (inode, index) - a new version from one global
 * counter, and the frame holding it that version.  The copies follow the
 * data: a swap-out or writeback stores the frame's version in the swap
 * slot or on the file's disk block, a swap-in or file read (readahead
 * included) gives the frame the stored one, a copy-on-write copies it.
 * So a write that never reached the disk, a read of the wrong slot or
 * block, or a page mapped to the wrong frame shows as a version older
 * than the last write: a swap-in or read returning such a version, or a
 * resident page holding one, is an invariant failure naming the page.
 *
 * Everything lives in shadow arrays allocated only with --check (a NULL
 * mm->integrity costs the hot paths one predictable branch, none inside
 * mm_touch's per-page loop).  Versions are 32-bit: 4 billion write
 * page-references per --check run.
 */
#ifndef PAGELAB_INTEGRITY_H
#define PAGELAB_INTEGRITY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "page.h"

struct mm;
struct vma;
struct inode;

/* Deliberately broken data paths, for the tests that prove --check sees
 * them (tests/test_integrity.c). */
enum integrity_break {
	BREAK_NONE,
	BREAK_SWAP_WRITE,   /* swap-outs write nothing: the slot keeps what it had */
	BREAK_FILE_WRITE,   /* file writeback writes nothing */
	BREAK_SWAP_READ,    /* swap-ins read the slot after the right one */
};

struct file_versions {
	uint32_t *ver;      /* last version written, per page index (0: zeroes) */
	uint32_t *disk;     /* version on the disk block */
	uint64_t cap;
};

struct integrity {
	uint32_t clock;             /* the last version handed out */
	uint32_t *frame;            /* version each frame holds */
	uint32_t *slot;             /* version each swap slot holds */
	uint32_t nr_slots;
	struct file_versions *file; /* per inode id */
	uint32_t nr_file;
	enum integrity_break broken;
	char failed[400];           /* the first failure, reported by mm_check */
};

/* With --check (mm_init's cfg->check). */
struct integrity *integrity_new(uint64_t frames, uint64_t swap_slots);
void integrity_free(struct integrity *ig);

/* A vma's versions (mm_mmap_anon), freed by munmap. */
void integrity_vma_init(struct mm *mm, struct vma *v);

/* Writes: the page mapped at pfn was written (a write reference through
 * a PTE, or write() into the page cache). */
void integrity_write(struct mm *mm, pfn_t pfn);
/* A direct write of file page `index`: the disk gets a new version (and a
 * cached copy that invalidation had to leave, too). */
void integrity_direct_write(struct mm *mm, struct inode *ino, uint64_t index);
/* Truncate: pages at and beyond npages read as zeroes again. */
void integrity_truncate(struct mm *mm, const struct inode *ino, uint64_t npages);

/* The data moving: a copy-on-write of src into the anonymous page dst; a
 * swap-in of slot into pfn; a file read into pfn; a writeback of pfn to
 * its swap slot or disk block. */
void integrity_cow(struct mm *mm, pfn_t dst, pfn_t src);
void integrity_swapin(struct mm *mm, pfn_t pfn, uint32_t slot);
void integrity_file_read(struct mm *mm, pfn_t pfn);
void integrity_writeback(struct mm *mm, pfn_t pfn);

/* mm_check's part: the first failure seen while the data moved, then
 * every resident page against its last write.  Prints problems to err. */
bool integrity_check(struct mm *mm, FILE *err);

#endif
