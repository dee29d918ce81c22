# hdrslim — plain Makefile.  `make` builds ./hdrslim, `make check` runs every
# test, `make asan` builds ./hdrslim-asan (ASan+UBSan) and runs the tests with
# it, `make bench` runs the kernel-scale benchmarks, `make fuzz` the fuzzers,
# `make install` (PREFIX, DESTDIR) installs.
# `make corpus` compares check with clang-include-cleaner on Debian projects.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Werror -std=c11 -D_GNU_SOURCE
LIBS    := -lxxhash -lcjson -lpthread -lm

SRCS    := $(wildcard src/*.c)
HDRS    := $(wildcard src/*.h)
OBJS    := $(SRCS:src/%.c=build/%.o) build/report_html.o
AOBJS   := $(SRCS:src/%.c=build/asan/%.o) build/asan/report_html.o
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

all: hdrslim

hdrslim: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS) $(LIBS)

build/%.o: src/%.c $(HDRS)
	@mkdir -p build
	$(CC) $(WARN) $(CFLAGS) -c -o $@ $<

# The report's page is compiled in: src/report.html as one C string.
build/report_html.c: src/report.html
	@mkdir -p build
	{ echo '/* made from src/report.html by the Makefile: do not edit */'; \
	  echo 'const char report_template[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@

build/report_html.o: build/report_html.c
	$(CC) $(WARN) $(CFLAGS) -c -o $@ $<

build/asan/report_html.o: build/report_html.c
	@mkdir -p build/asan
	$(CC) $(WARN) $(SANFLAGS) -c -o $@ $<

hdrslim-asan: $(AOBJS)
	$(CC) $(SANFLAGS) -o $@ $(AOBJS) $(LIBS)

build/asan/%.o: src/%.c $(HDRS)
	@mkdir -p build/asan
	$(CC) $(WARN) $(SANFLAGS) -c -o $@ $<

check: hdrslim check-headers
	HDRSLIM=$(CURDIR)/hdrslim tests/run

# Every header compiles on its own (it includes what it uses).
check-headers:
	@for h in $(HDRS); do \
		echo "#include \"$$(basename $$h)\"" | \
		$(CC) $(WARN) -Isrc -x c -fsyntax-only - || { echo "check-headers: $$h"; exit 1; }; \
	done

asan: hdrslim-asan
	HDRSLIM=$(CURDIR)/hdrslim-asan tests/run

bench: hdrslim
	scripts/bench; b=$$?; scripts/bench-verify; v=$$?; test $$b = 0 && test $$v = 0

# One real sched.h step verified plain, with the memo, and a breaking one
# with --fail-fast (also the last part of make bench).
bench-verify: hdrslim
	scripts/bench-verify

# hdrslim check against clang-include-cleaner-19 on a clang-built part of
# the kernel (sets itself up; see scripts/bench-peer).
bench-peer: hdrslim
	scripts/bench-peer --mode both

verify-kernel: hdrslim
	scripts/verify-kernel

# Apply N of check's removal findings one at a time on the kernel build
# (PRECISION_FLAGS, e.g. --n 100 --seed 1) and recompile what they touch.
precision: hdrslim
	scripts/precision $(PRECISION_FLAGS)

# hdrslim check against clang-include-cleaner-19 on tmux, redis, curl and git
# from Debian source packages (or CORPUS_TREES), with both tools' precision
# (CORPUS_FLAGS, e.g. --n 40; see scripts/corpus --help).
corpus: hdrslim
	scripts/corpus $(CORPUS_FLAGS)

fuzz:
	$(MAKE) -C fuzz run

# PREFIX and DESTDIR as every Makefile has them: the binary, the man page
# and the bash completion.
install: hdrslim
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 hdrslim $(DESTDIR)$(PREFIX)/bin/hdrslim
	install -m 644 doc/hdrslim.1 $(DESTDIR)$(PREFIX)/share/man/man1/hdrslim.1
	install -m 644 doc/hdrslim.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/hdrslim

clean:
	rm -rf build hdrslim hdrslim-asan
	$(MAKE) -C fuzz clean 2>/dev/null || true

.PHONY: all install check check-headers asan bench bench-verify bench-peer verify-kernel precision corpus fuzz clean
