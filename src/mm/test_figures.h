/* test_figures.h - figures of the mm core that no report prints: the
 * unit tests read them to assert what a run did inside (tests/).  They
 * are kept apart in struct mm (its `test` member) so that a reader sees
 * no output depends on them; the core only updates them.
 */
#ifndef PAGELAB_MM_TEST_FIGURES_H
#define PAGELAB_MM_TEST_FIGURES_H

#include <stdint.h>

struct mm_test_figures {
	/* The most pages one reclaim pass (mm_shrink) put under writeback:
	 * the size of the largest write storm (test_linux6.c). */
	uint64_t max_pass_writeback;
};

#endif
