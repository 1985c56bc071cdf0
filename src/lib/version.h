/* version.h - which pagelab this is: the release number of the VERSION
 * file (bumped by hand at each release) and, when it was built in a git
 * checkout, the commit (see the Makefile's version rule). */
#ifndef PAGELAB_VERSION_H
#define PAGELAB_VERSION_H

/* "0.21.0-g54f12eb", "0.21.0-g54f12eb-dirty" (uncommitted changes), or
 * "0.21.0" when the build had no git; a release tarball's VERSION holds
 * the whole string it was made from. */
const char *pagelab_version(void);

#endif
