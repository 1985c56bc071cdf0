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

# tests/fidelity_rate.awk: the host's read rate for the simulated disk.
# Rates above 2^31 bytes/s came out as 2147483647 under mawk's %d.
t "fidelity: the host's read rate, median of three, above 2 GB/s"
printf '%s\n' "1073741824 bytes (1.1 GB) copied, 0.446374 seconds, 2.4 GB/s" \
	"some other line" "1073741824 bytes (1.1 GB) copied, 0.520765 seconds, 2.1 GB/s" \
	"1073741824 bytes (1.1 GB) copied, 0.451259 seconds, 2.4 GB/s" >"$T/dd3"
r3=$(awk -f "$(dirname "$0")/fidelity_rate.awk" "$T/dd3")
head -2 "$T/dd3" | awk -f "$(dirname "$0")/fidelity_rate.awk" >"$T/r2"
rc2=$?
# 1073741824 / 0.451259 s = 2 379 435 810; the other two 2 405 M, 2 062 M
[ "$r3" = 2379435810 ] && [ $rc2 -eq 1 ] && [ ! -s "$T/r2" ] && ok || bad "rate '$r3', two runs: exit $rc2"

# With WAIT=1: the write rate, bytes over the time off the CPU (the
# fsync's wait) of each run's zsh-style line, median of three.
t "fidelity: the host's write rate, bytes over dd's time off the CPU"
for s in "0.00s user 0.29s system 21% cpu 1.414 total" "0.01s user 0.30s system 20% cpu 1.611 total" \
	"0.00s user 0.28s system 22% cpu 1.282 total"; do
	echo "1073741824 bytes (1.1 GB) copied, 1.4 seconds, 767 MB/s"
	echo "dd if=/dev/zero of=out bs=1M count=1024 conv=fsync  $s"
done >"$T/ddw"
w3=$(awk -v WAIT=1 -f "$(dirname "$0")/fidelity_rate.awk" "$T/ddw")
# off the CPU 1.124, 1.301, 1.002 s: 955 286 320, 825 320 387, 1 071 598 627
head -4 "$T/ddw" | awk -v WAIT=1 -f "$(dirname "$0")/fidelity_rate.awk" >"$T/w2"
rc2=$?
[ "$w3" = 955286320 ] && [ $rc2 -eq 1 ] && [ ! -s "$T/w2" ] && ok || bad "rate '$w3', two runs: exit $rc2"
