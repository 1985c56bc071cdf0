# pagelab - a laboratory for Linux page reclaim.
# make            build ./pagelab
# make check      build and run every test
# make sancheck   the tests under ASan + UBSan
# make bench      print simulation speed figures
# make install    install to $(PREFIX)/bin (PREFIX=/usr/local)
# make htmlcheck  write the `pagelab reproduce --html` report and check it in
#                 headless Chromium (Debian's chromium package)

CC ?= cc
PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
WARN = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
LDLIBS = -lm -pthread

LAYERS = lib mm policy machine workload trace report
LIB_SRC = $(foreach d,$(LAYERS),$(wildcard src/$(d)/*.c))
CLI_SRC = $(wildcard src/cli/*.c)
TEST_SRC = $(wildcard tests/*.c)

BUILD ?= build
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ = $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/%.o)

all: pagelab

pagelab: $(BUILD)/pagelab
	cp $< $@

$(BUILD)/pagelab: $(LIB_OBJ) $(CLI_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/unit-tests: $(LIB_OBJ) $(TEST_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -MMD -MP -c -o $@ $<

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

check: $(BUILD)/pagelab $(BUILD)/unit-tests
	$(BUILD)/unit-tests
	PAGELAB=$(BUILD)/pagelab sh tests/cli.sh

SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
sancheck:
	$(MAKE) BUILD=build-san CFLAGS="-O1 -g $(SAN)" LDFLAGS="$(SAN)" check

bench: $(BUILD)/pagelab
	PAGELAB=$(BUILD)/pagelab sh bench/run.sh

htmlcheck: $(BUILD)/pagelab
	PAGELAB=$(BUILD)/pagelab sh tests/htmlcheck.sh

install: pagelab
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 pagelab $(DESTDIR)$(PREFIX)/bin/pagelab

clean:
	rm -rf build build-san pagelab

.PHONY: all check sancheck bench htmlcheck install clean
