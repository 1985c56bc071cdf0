# tests/fidelity_summary.awk, which writes docs/fidelity.md's summary from
# the compare tables make fidelity collected: on two hand-written cases,
# one with the p column (runs and seeds) and one without, the values and
# "(no)" marks it takes from each row and the counts it makes of them.

t "fidelity summary: values, marks and counts, with and without p"
cat >"$T/fid.md" <<'TABLES'
### qs case
# policy linux6; within +-25% or the kernel's min..max, or both under 100
counter                    kernel median (min..max)   pagelab ratio  within     p
pswpout                     184679 (109382..247034)    225803  1.22  yes    0.310
pgmajfault                                        -     34710     -  missing
pgdeactivate                157163 (120554..168773)     11892  0.08  no     0.008
19 of 22 counters within +-25%; not counted: the kernel leaves them
### usemem case
# policy linux6; within +-25%, or both under 100
counter                    kernel median (min..max)   pagelab ratio  within
pswpout                     159960 (159949..160011)    160001  1.00  yes
pgdeactivate                               0 (0..0)         0     -  yes
pgactivate                                 2 (2..2)       300 >99  no
20 of 22 counters within +-25%; not counted: the kernel leaves them
TABLES
awk -f "$(dirname "$0")/fidelity_summary.awk" "$T/fid.md" >"$T/fid.out" 2>&1
msg=
grep -q '^| \*\*qs case\*\* | issue 11.s counters meeting the bar | | 1/11 |$' "$T/fid.out" || msg="qs count"
grep -q '^| | all counters within the tolerance | | 19/22 |$' "$T/fid.out" || msg="$msg; qs agree"
grep -q '^| | pswpout | 184679 | 225803 |$' "$T/fid.out" || msg="$msg; qs pswpout"
grep -q '^| | pgdeactivate | 157163 | 11892 (no) |$' "$T/fid.out" || msg="$msg; qs pgdeactivate"
grep -q '^| | pgmajfault | - | 34710 (no) |$' "$T/fid.out" || msg="$msg; qs pgmajfault"
grep -q '^| \*\*usemem case\*\* | issue 11.s counters meeting the bar | | 2/11 |$' "$T/fid.out" || msg="$msg; usemem count"
grep -q '^| | pgactivate | 2 | 300 (no) |$' "$T/fid.out" || msg="$msg; usemem pgactivate"
grep -q '^| | pgdeactivate | 0 | 0 |$' "$T/fid.out" || msg="$msg; usemem pgdeactivate"
[ -z "$msg" ] && ok || bad "$msg: $(cat "$T/fid.out")"

