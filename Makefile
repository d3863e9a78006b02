# schedperf — see README.md. GNU make.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
LIBEXECDIR = $(PREFIX)/libexec/schedperf
MANDIR = $(PREFIX)/share/man
VERSION = 0.1.0

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS = sqlite3 libpq jansson libRmath yaml-0.1 libelf
# libpq is not linked: src/store/postgres/lib.c loads it when a PostgreSQL
# store is opened, so that workloads' processes never map its libraries.
LINK_PKGS = $(filter-out libpq,$(PKGS))

# $(BUILD) holds every object; sanitizer builds use their own directory so
# that `make asan` never mixes objects with the normal build.
BUILD ?= build

OPT ?= -O2
CFLAGS ?= $(OPT) -g
# GCC's -Wall warns of snprintf() calls whose output may be cut short,
# which is not taken for an error here. A compiler without that warning
# (clang 14) refuses the option under -Werror: it is passed only to one that
# knows it, asked once (:=), not at each compile.
NO_FORMAT_TRUNCATION := $(shell $(CC) -Werror -Wformat-truncation -E -x c /dev/null \
	>/dev/null 2>&1 && echo -Wno-format-truncation)
WARN = -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wformat=2 $(NO_FORMAT_TRUNCATION)
# git's developer warnings (its config.mak.dev), for those who change the
# code: make DEVELOPER=1. Its -pedantic and -std=gnu99 are left out:
# schedperf is C17 with GNU's extensions on purpose (_GNU_SOURCE, %m).
ifdef DEVELOPER
WARN += -Wdeclaration-after-statement -Wformat-security -Wold-style-definition -Woverflow \
	-Wpointer-arith -Wstrict-prototypes -Wunused -Wvla -Wwrite-strings -fno-common \
	-Wunreachable-code -Wmissing-prototypes
endif
ALL_CFLAGS = -std=c17 -D_GNU_SOURCE -Isrc $(WARN) $(CFLAGS) $(SANITIZE) \
	-DSCHEDPERF_VERSION='"$(VERSION)"' -DSCHEDPERF_LIBEXECDIR='"$(LIBEXECDIR)"' -MMD -MP \
	$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LIBS = $(shell $(PKG_CONFIG) --libs $(LINK_PKGS) 2>/dev/null) -lpthread -lm
TEST_CFLAGS = $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
TEST_LIBS = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

# src/store/*/ are the store's drivers, each a directory (doc/design.md, "The store").
LIB_SRC = $(sort $(wildcard src/cmd/*.c src/cli/*.c src/experiment/*.c src/workload/*.c \
	src/runner/*.c src/monitor/*.c src/stats/*.c src/results/*.c src/store/*.c src/store/*/*.c \
	src/interchange/*.c src/analysis/*.c src/report/*.c src/util/*.c src/fleet/*.c))
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ = $(BUILD)/src/main.o
HELPER_SRC = $(wildcard src/helper/*.c)
HELPER_BIN = $(HELPER_SRC:src/helper/%.c=$(BUILD)/%)
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

SCHEDPERF = $(BUILD)/schedperf

# The builds that run, check, asan, fuzz and valgrind make for themselves
# use every CPU: a plain `make check` would build on one, which took
# longer than some of the tests. `make -jN TARGET` keeps its own N (the
# sub-make joins its jobserver).
SUBMAKE = $(MAKE) --no-print-directory $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(shell nproc))

.PHONY: all run check test unit asan ubsan fuzz fuzz-ci valgrind install uninstall clean deps

all: $(SCHEDPERF) $(HELPER_BIN)

$(SCHEDPERF): $(MAIN_OBJ) $(BUILD)/libschedperf.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS)
	@[ "$(BUILD)" != build ] || ln -sf $(BUILD)/schedperf schedperf

$(BUILD)/libschedperf.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libschedperf.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(TEST_CFLAGS) -o $@ $< $(BUILD)/libschedperf.a $(LIBS) $(TEST_LIBS)

$(BUILD)/%: src/helper/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $<

deps:
	@scripts/install-deps.sh

# The main job: set up, build, run the quick suite on this kernel and show it.
run: deps
	@$(SUBMAKE) all
	@scripts/run-quick.sh $(SCHEDPERF)

check: deps
	@$(SUBMAKE) all tests
	@tests/run.sh $(SCHEDPERF) $(UNIT_BIN)

# The same as check, under the name other projects use.
test: check

# The unit tests alone: no root, no server, nothing installed; the compiler
# and the libraries' headers (README.md) are all they need. aim9's, reaim's
# and spawn's tests run the exec helper, which they find in $(BUILD).
unit: tests $(HELPER_BIN)
	@tests/run.sh --unit $(UNIT_BIN)

.PHONY: tests
tests: $(UNIT_BIN)

# handle_segv=0: tests kill workload children with SIGSEGV on purpose and
# expect them to die of it; a real wild access is still caught by ASan's checks.
asan:
	@scripts/install-deps.sh
	@$(SUBMAKE) BUILD=build-asan OPT=-O1 DEVELOPER=1 \
		SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		all tests
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:handle_segv=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/run.sh build-asan/schedperf $(UNIT_SRC:tests/unit/%.c=build-asan/tests/%)

ubsan:
	@scripts/install-deps.sh
	@$(SUBMAKE) BUILD=build-ubsan OPT=-O1 \
		SANITIZE="-fsanitize=undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		all tests
	@UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/run.sh build-ubsan/schedperf $(UNIT_SRC:tests/unit/%.c=build-ubsan/tests/%)

# libFuzzer targets (tests/fuzz/fuzz_*.c) built with clang, ASan and UBSan,
# each run for FUZZ_SECONDS from its seed corpus in tests/fuzz/corpus/.
FUZZ_SECONDS ?= 60
FUZZ_SRC = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES = $(FUZZ_SRC:tests/fuzz/%.c=%)
# The targets compiled (not linked: that needs libFuzzer) with every test
# build too, so that a change of an interface they call fails there, not
# in CI's fuzz stage alone.
tests: $(FUZZ_SRC:%.c=$(BUILD)/%.o)
FUZZ_SANITIZE = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all

fuzz:
	@scripts/install-deps.sh
	@$(SUBMAKE) BUILD=build-fuzz CC=clang OPT=-O1 \
		SANITIZE="$(FUZZ_SANITIZE)" fuzz-targets
	@tests/fuzz/run.sh $(FUZZ_SECONDS) build-fuzz $(FUZZ_NAMES)

# What CI runs: every target for 30 seconds.
fuzz-ci:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=30

.PHONY: fuzz-targets
fuzz-targets: $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)

$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/libschedperf.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/libschedperf.a $(LIBS)

# valgrind memcheck over a representative set of commands.
valgrind:
	@$(SUBMAKE) all
	@tests/valgrind.sh $(SCHEDPERF)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(LIBEXECDIR)
	install -m 755 $(SCHEDPERF) $(DESTDIR)$(BINDIR)/schedperf
	install -m 755 $(HELPER_BIN) $(DESTDIR)$(LIBEXECDIR)/
	install -m 644 doc/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 doc/*.5 $(DESTDIR)$(MANDIR)/man5/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/schedperf
	rm -f $(addprefix $(DESTDIR)$(LIBEXECDIR)/,$(notdir $(HELPER_BIN)))
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(wildcard doc/*.1)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(wildcard doc/*.5)))

clean:
	rm -rf build build-asan build-ubsan build-fuzz schedperf

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
