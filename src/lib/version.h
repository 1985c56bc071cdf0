/* version.h - which pagelab this is: `git describe` of the tree it was
 * built from, or the VERSION file of a release tarball. */
#ifndef PAGELAB_VERSION_H
#define PAGELAB_VERSION_H

/* "v0.3-12-gabc1234", "v0.3-12-gabc1234-dirty", or "unknown" when the
 * build had neither git nor a VERSION file. */
const char *pagelab_version(void);

#endif
