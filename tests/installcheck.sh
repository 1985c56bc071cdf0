#!/bin/sh
# What `make install PREFIX=...` gives a user, tried from outside the tree
# (run by make installcheck, part of make check).  PREFIX is the install.
# The library (tests/cli_lib.sh): t / ok / bad / skip, T; the results go
# to make check's summary.
set -u
: "${PREFIX:?}"
CC=${CC:-cc}
PAGELAB=$PREFIX/bin/pagelab
. "$(dirname "$0")/cli_lib.sh"

t "installed man page renders: pagelab(1) with every command"
if ! have man; then
	skip "no man (Debian's man-db)"
else
	out=$(MANWIDTH=80 man -l "$PREFIX/share/man/man1/pagelab.1" 2>&1)
	msg=""
	echo "$out" | head -1 | grep -q '^PAGELAB(1)' || msg="no PAGELAB(1) heading;"
	for c in $("$PREFIX/bin/pagelab" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }'); do
		echo "$out" | grep -q "^   pagelab $c\$" || msg="$msg no section for $c;"
	done
	echo "$out" | grep -q 'EXIT STATUS' || msg="$msg no EXIT STATUS;"
	[ -z "$msg" ] && ok || bad "$msg"
fi

t "pagelab-policies(7) lists every policy with its tunables"
if ! have man; then
	skip "no man (Debian's man-db)"
else
	out=$(MANWIDTH=80 man -l "$PREFIX/share/man/man7/pagelab-policies.7" 2>&1)
	msg=""
	for p in $("$PREFIX/bin/pagelab" policies --names); do
		echo "$out" | grep -q "^   $p\$" || msg="$msg $p;"
	done
	echo "$out" | grep -q 'swappiness' || msg="$msg no swappiness;"
	[ -z "$msg" ] && ok || bad "missing:$msg"
fi

# Without pkg-config the example is built with the flags pagelab.pc holds.
t "pkg-config finds pagelab"
if ! have pkg-config; then
	skip "no pkg-config (Debian's pkg-config)"
	flags="-I$PREFIX/include -L$PREFIX/lib -lpagelab"
else
	flags=$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags --libs pagelab 2>&1)
	echo "$flags" | grep -q -- "-I$PREFIX/include" && echo "$flags" | grep -q -- '-lpagelab' && ok || bad "$flags"
fi

t "example program: built on the installed libpagelab.so, runs"
$CC -std=c11 -Wall -Wextra -Werror -o "$T/embed" "$PREFIX/share/doc/pagelab/examples/embed/embed.c" $flags 2>"$T/err"
rc=$?
out=$(LD_LIBRARY_PATH="$PREFIX/lib" "$T/embed" 60 2>&1)
if [ $rc -ne 0 ]; then bad "build: $(head -3 "$T/err")"
elif ! LD_LIBRARY_PATH="$PREFIX/lib" ldd "$T/embed" | grep -q "libpagelab.so.1 => $PREFIX/lib/"; then bad "not linked to the installed libpagelab.so.1"
else echo "$out" | grep -q '^clock .*pswpout [1-9]' && echo "$out" | grep -q '^splitlru ' &&
	echo "$out" | grep -q "^bad policy: unknown policy 'nosuch'" && ok || bad "$out"
fi

t "example plugin: built on the installed header, loads"
make -s -C "$PREFIX/share/doc/pagelab/examples/policy-lifo" PAGELAB_INCLUDE="$PREFIX/include" OUT="$T" CC="$CC" >"$T/err" 2>&1 &&
	"$PREFIX/bin/pagelab" run --ram 32M --swap 64M --check --policy "$T/lifo.so" usemem -m 40 >"$T/out" 2>&1 &&
	grep -q '^pswpout [1-9]' "$T/out" && ok || bad "$(cat "$T/err" "$T/out" | head -5)"

t "cache_ext example plugin: built on the installed header, loads"
make -s -C "$PREFIX/share/doc/pagelab/examples/policy-cache-ext" PAGELAB_INCLUDE="$PREFIX/include" OUT="$T" CC="$CC" >"$T/err" 2>&1 &&
	"$PREFIX/bin/pagelab" run --ram 32M --swap 64M --check --policy "$T/cache_ext_fifo.so" usemem -m 40 >"$T/out" 2>&1 &&
	grep -q 'policy cache_ext_fifo' "$T/out" && grep -q '^pswpout [1-9]' "$T/out" && ok || bad "$(cat "$T/err" "$T/out" | head -5)"

# The experiment files docs/mglru.md runs by path, beside the docs, as the
# tree has them; the installed pagelab reads each (its runs cut at 1 ms of
# simulated time: exit 3, the experiment's heading printed).
t "docs/mglru/*.exp installed beside the docs, each one runs"
msg=
for src in "$(dirname "$0")"/../docs/mglru/*.exp; do
	e="$PREFIX/share/doc/pagelab/mglru/$(basename "$src")"
	cmp -s "$src" "$e" || { msg="$msg no $(basename "$src");"; continue; }
	"$PREFIX/bin/pagelab" reproduce --max-time 1ms "$e" >"$T/l" 2>&1; rc=$?
	[ $rc -eq 3 ] && grep -q '^== Experiment ' "$T/l" || msg="$msg $(basename "$src"): rc $rc $(head -1 "$T/l");"
done
[ -z "$msg" ] && ok || bad "$msg"

# 2q: a name that starts with a digit (issue 36).
t "bash completion offers the policies after --policy"
if have bash; then
	comp() { bash -c ". '$PREFIX/share/bash-completion/completions/pagelab'; COMP_WORDS=(pagelab run --policy $1); COMP_CWORD=3; _pagelab; echo \"\${COMPREPLY[*]}\""; }
	out=$(comp spl) out2=$(comp 2)
	[ "$out" = "splitlru" ] && [ "$out2" = 2q ] && ok || bad "'$out' '$out2'"
else
	skip "no bash"
fi

exit $fail
