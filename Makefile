# pagelab - a laboratory for Linux page reclaim.
# make            build ./pagelab
# make check      build and run every test
# make sancheck   the tests under ASan + UBSan
# make bench      print simulation speed figures
# make fuzz       build the libFuzzer harnesses (clang) and run each briefly
# make valgrind   the unit tests and a few runs under valgrind's memcheck
# make install    install to $(PREFIX)/bin (PREFIX=/usr/local)
# make htmlcheck  write the `pagelab reproduce --html` report and check it in
#                 headless Chromium (Debian's chromium package)

CC ?= cc
PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
LDLIBS = -lzstd -lz -lm -pthread

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

$(BUILD)/pagelab: $(LIB_OBJ) $(CLI_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

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

check: $(BUILD)/pagelab $(BUILD)/unit-tests
	$(BUILD)/unit-tests
	PAGELAB=$(BUILD)/pagelab sh tests/cli.sh

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

install: pagelab
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 pagelab $(DESTDIR)$(PREFIX)/bin/pagelab

clean:
	rm -rf build build-san build-fuzz build-clang pagelab

.PHONY: FORCE all check sancheck bench fuzz valgrind htmlcheck fidelity install clean
