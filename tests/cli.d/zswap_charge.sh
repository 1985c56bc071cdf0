# Who pays for compressed swap under --cgroup (docs/zram.md): zswap's
# compressed bytes are charged to the page's cgroup, rounded up to pages
# and forced (6.18 obj_cgroup_charge_zswap()), zram's pool to nobody.
# usemem's same-filled pages, held at --max-time (exit 3).  About 0.5 s.

TABLE="$(dirname "$0")/../src/mm/compress_table.c"
C="--ram 64M --cgroup /a:max=6M --check --max-time 1"

# /a's memory.current less its anon and file pages, in kB
zcharge() {
	awk '/^# cgroups: memory.current/ { t = 1 } /^# cgroups: memory.stat/ { t = 2 }
	     t == 1 && $1 == "/a" { cur = $2; peak = $3 } t == 2 && $1 == "/a" { print cur - $2 - $3, peak; exit }' "$1"
}

t "--cgroup: zswap's compressed bytes are in memory.current, past max"
$P run $C --swap 32M --set zswap=1 usemem -m 12 -s 100 @/a >"$T/z" 2>&1
rc=$?
st=$(counter stored_pages "$T/z")
# lz4 of a same-filled page: the table's size, the sum rounded up to pages
same=$(awk '/\/\* same \*\//{getline; gsub(/[{},]/, " "); print $3; exit}' "$TABLE")
want=$(( (st * same + 4095) / 4096 * 4 ))
set -- $(zcharge "$T/z")
[ $rc -eq 3 ] && [ "$st" -gt 1000 ] && [ "$1" -eq "$want" ] && [ "$2" -gt 6144 ] && ok ||
	bad "exit $rc, stored $st x $same bytes: charged $1 kB, expected $want; peak $2"

t "--cgroup: zram's pool is charged to nobody"
$P run $C --swap zram:32M usemem -m 12 -s 100 @/a >"$T/r" 2>&1
rc=$?
set -- $(zcharge "$T/r")
[ $rc -eq 3 ] && [ "$(counter mm_stat.same_pages "$T/r")" -gt 1000 ] && [ "$1" -eq 0 ] && [ "$2" -le 6144 ] && ok ||
	bad "exit $rc: charged $1 kB beyond its pages, peak $2"
