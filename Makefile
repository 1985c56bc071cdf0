# pagelab - a laboratory for Linux page reclaim.
# make            build ./pagelab
# make check      build and run every test
# make sancheck   the tests under ASan + UBSan
# make bench      print simulation speed figures
# make fuzz       build the libFuzzer harnesses (clang) and run each briefly
# make valgrind   the unit tests and a few runs under valgrind's memcheck
# make lib        build/libpagelab.a and build/libpagelab.so (include/pagelab.h)
# make install    the binary, man pages, completion, docs, the library, its
#                 headers and pagelab.pc under $(PREFIX) (default /usr/local;
#                 DESTDIR for staging); make uninstall removes them
# make dist       pagelab-VERSION.tar.gz, which builds with make alone
# make htmlcheck  write the `pagelab reproduce --html` report and check it in
#                 headless Chromium (Debian's chromium package)

CC ?= cc
PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
LDLIBS = -lzstd -lz -lm -pthread -ldl

# Every folder of src/ but cli is a layer of the library; a new layer is a
# new folder, no Makefile edit.
LIB_SRC = $(filter-out src/cli/%,$(wildcard src/*/*.c))
CLI_SRC = $(wildcard src/cli/*.c)
# tests/fuzz/*.c but the fuzz_*.c entry points: the properties the
# harnesses and the mutation test share.
FUZZ_LIB_SRC = $(filter-out tests/fuzz/fuzz_%.c,$(wildcard tests/fuzz/*.c))
TEST_SRC = $(wildcard tests/*.c) $(FUZZ_LIB_SRC)

BUILD ?= build
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ = $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/%.o)
# The subcommands without main(): the fuzz targets and their unit test run
# `pagelab run` in-process.
CMD_OBJ = $(filter-out $(BUILD)/src/cli/main.o,$(CLI_OBJ))

all: pagelab

pagelab: $(BUILD)/pagelab
	cp $< $@

# -rdynamic: policy plugins call the pagelab_* functions of the binary.
$(BUILD)/pagelab: $(LIB_OBJ) $(CLI_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -rdynamic -o $@ $^ $(LDLIBS)

# The unit-test list, generated from the test definitions.
$(BUILD)/tests/list.h: $(filter tests/test_%.c,$(TEST_SRC))
	@mkdir -p $(dir $@)
	{ echo '#define TESTS(X) \\'; \
	  sed -n 's/^void \(test_[a-z0-9_]*\)(void)$$/\tX(\1) \\/p' $^; echo; } > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/main.o: $(BUILD)/tests/list.h
$(BUILD)/tests/main.o: WARN += -I$(BUILD)/tests

$(BUILD)/unit-tests: $(LIB_OBJ) $(CMD_OBJ) $(TEST_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The version: `git describe` of the tree, else the VERSION file a release
# tarball carries, else "unknown".  The header is rewritten only when the
# string changes, so an unchanged tree does not rebuild.
VERSION_STRING = $(shell git describe --tags --always --dirty 2>/dev/null || cat VERSION 2>/dev/null || echo unknown)
$(BUILD)/pagelab_version.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define PAGELAB_VERSION "$(VERSION_STRING)"' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(BUILD)/src/lib/version.o: $(BUILD)/pagelab_version.h
$(BUILD)/src/lib/version.o: WARN += -I$(BUILD)
FORCE:

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -MMD -MP -c -o $@ $<

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

check: $(BUILD)/pagelab $(BUILD)/unit-tests $(BUILD)/examples/embed $(BUILD)/examples/lifo.so
	$(BUILD)/unit-tests
	PAGELAB=$(BUILD)/pagelab EXAMPLES=$(BUILD)/examples sh tests/cli.sh
	@[ -n "$${PAGELAB_SANITIZED:-}" ] || $(MAKE) --no-print-directory installcheck

# The examples: a program on libpagelab, and the plugin built by its own
# Makefile, as a user outside the tree would.
$(BUILD)/examples/embed: examples/embed/embed.c include/pagelab.h $(BUILD)/libpagelab.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -Iinclude $(LDFLAGS) -o $@ $< $(BUILD)/libpagelab.a $(LDLIBS)
$(BUILD)/examples/lifo.so: examples/policy-lifo/lifo.c include/pagelab_policy.h
	@mkdir -p $(dir $@)
	$(MAKE) --no-print-directory -C examples/policy-lifo OUT=$(abspath $(dir $@)) CC="$(CC)" CFLAGS="$(CFLAGS)"

SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
sancheck:
	PAGELAB_SANITIZED=1 $(MAKE) BUILD=build-san CFLAGS="-O1 -g $(SAN)" LDFLAGS="$(SAN)" check

# The benchmark's helpers: a random-trace generator and a probe of the
# host-side size of the simulator's structures.
$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -o $@ $<

bench: $(BUILD)/pagelab $(BUILD)/bench/gentrace $(BUILD)/bench/sizes
	PAGELAB=$(BUILD)/pagelab GENTRACE=$(BUILD)/bench/gentrace SIZES=$(BUILD)/bench/sizes sh bench/run.sh
	PAGELAB=$(BUILD)/pagelab GENTRACE=$(BUILD)/bench/gentrace sh bench/trace.sh

# libFuzzer harnesses (tests/fuzz/): not part of make check.  Each runs
# FUZZ_RUNS inputs from a fixed seed (the whole-simulation target sim
# FUZZ_SIM_RUNS: each input is a --check run), starting from
# tests/fuzz/seeds/ and the corpus it grew on earlier runs
# (build-fuzz/corpus-*).  An input slower than 20 s or above 2 GB of host
# memory counts as a failure.
FUZZ_CC ?= clang
FUZZ_RUNS ?= 100000
FUZZ_SIM_RUNS ?= 5000
FUZZ_SAN = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_TARGETS = $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_OBJ = $(LIB_OBJ) $(CMD_OBJ) $(filter $(BUILD)/tests/fuzz/%,$(TEST_OBJ))
fuzz:
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) CFLAGS="-O1 -g $(FUZZ_SAN)" $(FUZZ_TARGETS:%=build-fuzz/fuzz_%)
	for t in $(FUZZ_TARGETS); do \
		runs=$(FUZZ_RUNS); [ $$t = sim ] && runs=$(FUZZ_SIM_RUNS); \
		mkdir -p build-fuzz/corpus-$$t && \
		build-fuzz/fuzz_$$t -runs=$$runs -seed=1 -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
			-print_final_stats=1 build-fuzz/corpus-$$t tests/fuzz/seeds/$$t || exit 1; \
	done

$(BUILD)/fuzz_%: $(FUZZ_OBJ) $(BUILD)/tests/fuzz/fuzz_%.o
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# memcheck: any error or definite leak fails (exit 99); bad-input runs must
# still exit 2.
VALGRIND = valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
valgrind: $(BUILD)/pagelab $(BUILD)/unit-tests
	$(VALGRIND) $(BUILD)/unit-tests
	$(VALGRIND) $(BUILD)/pagelab run --machine vmm-2008 --ram 48M --swap 64M --check --vmstat 0.1 usemem -m 60 >/dev/null
	$(VALGRIND) $(BUILD)/pagelab run --machine vmm-2008 --ram 32M --swap 8M --json usemem -R -m 30 + usemem -M -m 4 >/dev/null
	$(VALGRIND) $(BUILD)/pagelab run --machine modern --ram 64M --swap 16M usemem -n 3 -r 2 -m 20 >/dev/null
	for p in $$($(BUILD)/pagelab policies | awk 'NR > 1 && /^[a-z]/ && $$1 != "opt" { print $$1 }'); do \
		$(VALGRIND) $(BUILD)/pagelab run --machine vmm-2008 --ram 24M --swap 32M --check --policy $$p usemem -r 2 -m 20 >/dev/null || exit 1; \
	done
	printf '1 r\n2 w\n3 r\n4 w\n1 r\n2 r\n5 w\n1 r\n2 r\n3 r\n4 r\n5 r\n' >$(BUILD)/belady.trace
	for p in opt lru clock fifo; do \
		$(VALGRIND) $(BUILD)/pagelab run --machine ideal --ram 3p --check --policy $$p trace $(BUILD)/belady.trace >/dev/null || exit 1; \
	done
	$(VALGRIND) $(BUILD)/pagelab policies >/dev/null
	$(VALGRIND) $(BUILD)/pagelab run --set cpus=2 usemem -m 1 + usemem --help >/dev/null
	$(VALGRIND) $(BUILD)/pagelab machines --show pe1950-2008 >/dev/null
	for args in "--ram 0 usemem -m 1" "--policy opt usemem -m 1" "usemem -t 2" "--ram 8M usemem -m 1"; do \
		$(VALGRIND) $(BUILD)/pagelab run $$args 2>/dev/null; test $$? -eq 2 || exit 1; \
	done

htmlcheck: $(BUILD)/pagelab
	PAGELAB=$(BUILD)/pagelab sh tests/htmlcheck.sh

# docs/fidelity.md's tables: pagelab compare on this host (root, a memory
# cgroup; several minutes of real runs, one at a time).  Not in make check.
fidelity: $(BUILD)/pagelab
	PAGELAB=$(BUILD)/pagelab sh tests/fidelity.sh docs/fidelity.md

# --- The library ------------------------------------------------------
# Static: the library objects as they are.  Shared: the same sources
# built position-independent with hidden symbols, so only what the two
# public headers declare is exported.
SONAME = libpagelab.so.1
PIC_OBJ = $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
lib: $(BUILD)/libpagelab.a $(BUILD)/libpagelab.so
$(BUILD)/libpagelab.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^
$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c -o $@ $<
$(BUILD)/pic/src/lib/version.o: $(BUILD)/pagelab_version.h
$(BUILD)/pic/src/lib/version.o: WARN += -I$(BUILD)
-include $(PIC_OBJ:.o=.d)
$(BUILD)/libpagelab.so: $(PIC_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -o $(BUILD)/$(SONAME) $^ $(LDLIBS)
	ln -sf $(SONAME) $@

# Man pages and shell completion, generated from the built binary's own
# listings and --help texts, so they cannot drift from it.
$(BUILD)/man/pagelab.1: $(BUILD)/pagelab tools/genman.sh
	sh tools/genman.sh $(BUILD)/pagelab $(BUILD)/man
$(BUILD)/completion/pagelab.bash: $(BUILD)/pagelab tools/gencompletion.sh
	sh tools/gencompletion.sh $(BUILD)/pagelab $(BUILD)/completion
man: $(BUILD)/man/pagelab.1 $(BUILD)/completion/pagelab.bash

# --- Install -----------------------------------------------------------
BINDIR = $(PREFIX)/bin
LIBDIR = $(PREFIX)/lib
INCDIR = $(PREFIX)/include
MANDIR = $(PREFIX)/share/man
DOCDIR = $(PREFIX)/share/doc/pagelab
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(PREFIX)/share/zsh/site-functions
PCDIR = $(LIBDIR)/pkgconfig
DOCS = README.md $(wildcard docs/*.md)

install: $(BUILD)/pagelab lib man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(DOCDIR) \
		$(DESTDIR)$(DOCDIR)/examples/policy-lifo $(DESTDIR)$(DOCDIR)/examples/embed \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(PCDIR)
	install -m 755 $(BUILD)/pagelab $(DESTDIR)$(BINDIR)/pagelab
	install -m 644 $(BUILD)/libpagelab.a $(DESTDIR)$(LIBDIR)/libpagelab.a
	install -m 755 $(BUILD)/$(SONAME) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libpagelab.so
	install -m 644 include/pagelab.h include/pagelab_policy.h $(DESTDIR)$(INCDIR)/
	install -m 644 $(BUILD)/man/pagelab.1 $(DESTDIR)$(MANDIR)/man1/pagelab.1
	install -m 644 $(BUILD)/man/pagelab-policies.7 $(DESTDIR)$(MANDIR)/man7/pagelab-policies.7
	install -m 644 $(BUILD)/completion/pagelab.bash $(DESTDIR)$(BASHCOMPDIR)/pagelab
	install -m 644 $(BUILD)/completion/_pagelab $(DESTDIR)$(ZSHCOMPDIR)/_pagelab
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	install -m 644 examples/policy-lifo/lifo.c examples/policy-lifo/Makefile $(DESTDIR)$(DOCDIR)/examples/policy-lifo/
	install -m 644 examples/embed/embed.c $(DESTDIR)$(DOCDIR)/examples/embed/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCDIR@|$(INCDIR)|' \
		-e 's|@VERSION@|$(VERSION_STRING)|' tools/pagelab.pc.in > $(DESTDIR)$(PCDIR)/pagelab.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pagelab $(DESTDIR)$(LIBDIR)/libpagelab.a \
		$(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libpagelab.so \
		$(DESTDIR)$(INCDIR)/pagelab.h $(DESTDIR)$(INCDIR)/pagelab_policy.h \
		$(DESTDIR)$(MANDIR)/man1/pagelab.1 $(DESTDIR)$(MANDIR)/man7/pagelab-policies.7 \
		$(DESTDIR)$(BASHCOMPDIR)/pagelab $(DESTDIR)$(ZSHCOMPDIR)/_pagelab \
		$(DESTDIR)$(PCDIR)/pagelab.pc
	rm -rf $(DESTDIR)$(DOCDIR)

# What make install gives a user, checked from outside the tree: the man
# page renders, pkg-config finds the library, the example program builds
# against the installed shared library and runs, the example plugin builds
# against the installed header and loads; make uninstall leaves nothing.
INSTALLCHECK = $(abspath $(BUILD))/installcheck
installcheck: $(BUILD)/pagelab lib man
	rm -rf $(INSTALLCHECK)
	$(MAKE) --no-print-directory install PREFIX=$(INSTALLCHECK)/usr >/dev/null
	PREFIX=$(INSTALLCHECK)/usr CC="$(CC)" sh tests/installcheck.sh
	$(MAKE) --no-print-directory uninstall PREFIX=$(INSTALLCHECK)/usr >/dev/null
	@left=$$(find $(INSTALLCHECK)/usr -type f | head -3); \
	if [ -n "$$left" ]; then echo "make uninstall left: $$left"; exit 1; fi
	rm -rf $(INSTALLCHECK)

# A release tarball: the tracked tree and a VERSION file (no git needed to
# build it).
dist:
	rm -rf $(BUILD)/dist && mkdir -p $(BUILD)/dist/pagelab-$(VERSION_STRING)
	git archive HEAD | tar -x -C $(BUILD)/dist/pagelab-$(VERSION_STRING)
	echo '$(VERSION_STRING)' > $(BUILD)/dist/pagelab-$(VERSION_STRING)/VERSION
	tar -C $(BUILD)/dist -czf pagelab-$(VERSION_STRING).tar.gz pagelab-$(VERSION_STRING)
	@echo pagelab-$(VERSION_STRING).tar.gz

# The tarball of HEAD builds with make alone (no git) and knows its version.
distcheck:
	$(MAKE) --no-print-directory dist >/dev/null
	rm -rf $(BUILD)/distcheck && mkdir -p $(BUILD)/distcheck
	tar -C $(BUILD)/distcheck -xzf pagelab-$(VERSION_STRING).tar.gz
	cd $(BUILD)/distcheck/pagelab-$(VERSION_STRING) && GIT_DIR=/nonexistent $(MAKE) --no-print-directory -j2 >/dev/null
	v=$$($(BUILD)/distcheck/pagelab-$(VERSION_STRING)/pagelab --version); \
	[ "$$v" = "pagelab $(VERSION_STRING)" ] || { echo "distcheck: tarball says '$$v'"; exit 1; }
	rm -rf $(BUILD)/distcheck pagelab-$(VERSION_STRING).tar.gz
	@echo "distcheck: pagelab-$(VERSION_STRING).tar.gz builds with make alone"

clean:
	rm -rf build build-san build-fuzz build-clang pagelab pagelab-*.tar.gz

.PHONY: FORCE all check sancheck bench fuzz valgrind htmlcheck fidelity install uninstall installcheck lib man dist distcheck clean
