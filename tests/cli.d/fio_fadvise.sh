# fio's fadvise_hint (ioengines.c td_io_open_file(), default 1): each
# open is followed by posix_fadvise(RANDOM) for the rand* modes, which
# (FMODE_RANDOM, 6.18 page_cache_sync_ra()) reads just the pages asked
# for, else SEQUENTIAL.  Sourced by tests/cli.sh (P, T, t, ok, bad).
# Cost: well under a second.

vm() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

t "fio randread: the hint reads just the pages asked for"
# Two 4 KiB random reads of a 16-page file; seed 12 puts one at page 0,
# where without the hint the on-demand window starts: 4 pages (1 page
# asked, x4), so 5 pages (20 KB) in; with it 2 pages (8 KB).
f="fio --name=r --rw=randread --bs=4k --size=64k --io_size=8k"
$P run --seed 12 --ram 64M $f >"$T/h" 2>&1
$P run --seed 12 --ram 64M $f --fadvise_hint=0 >"$T/n" 2>&1
[ "$(vm nr_file_pages "$T/h") $(vm pgpgin "$T/h")" = "2 8" ] &&
	[ "$(vm nr_file_pages "$T/n") $(vm pgpgin "$T/n")" = "5 20" ] && ok ||
	bad "$(grep -E '^(nr_file_pages|pgpgin) ' "$T/h" "$T/n" | tr '\n' ' ')"

t "fio --fadvise_hint=2: one line, exit 2"
$P run --ram 64M fio --name=r --size=64k --fadvise_hint=2 >/dev/null 2>"$T/e"; r=$?
[ $r -eq 2 ] && [ "$(cat "$T/e")" = "pagelab: fio: bad value '2' for --fadvise_hint" ] &&
	ok || bad "$r: $(cat "$T/e")"
