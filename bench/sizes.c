/* sizes.c - the host-side size of what pagelab keeps per simulated frame,
 * per mapped page and per swap slot, for make bench. */
#include <stdio.h>
#include <stdint.h>
#include "../src/mm/page.h"
#include "../src/mm/pte.h"

int main(void)
{
	printf("sizeof(struct page) %zu bytes per frame\n", sizeof(struct page));
	printf("sizeof(pte_t)       %zu bytes per mapped virtual page\n", sizeof(pte_t));
	printf("swap map + cache    %zu bytes per swap slot (+%zu for shadow entries)\n",
	       sizeof(uint16_t) + sizeof(pfn_t), sizeof(uint64_t));
	return 0;
}
