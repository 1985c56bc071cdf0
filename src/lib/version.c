/* version.c - the version string, from the generated version.h of the
 * build directory (see the Makefile's version rule). */
#include "version.h"
#include "pagelab_version.h"

const char *pagelab_version(void)
{
	return PAGELAB_VERSION;
}
