# fidelity_cases.awk - the fidelity matrix's cases (docs/fidelity.md,
# "The matrix"), generated from families, never listed by hand: the
# product of six factors, of which a seeded sample is taken before any
# run (the pick sees only the factors' indices, never a result).
#   working set     0.5, 0.9, 1.3 of the cgroup limit (LIMIT_MB)
#   stream          none, 1x, 3x the limit read once by dd beside it
#   swappiness      10, 60, 150 (both sides: compare --set swappiness)
#   children        1, 3 (3, not 4: a run holds at most 4 workloads,
#                   EXP_MAX_WL, and the stream takes one)
#   backing         anonymous (usemem -n C) or a file each (fileio)
#   write share     of the two passes over each page (a page must be
#                   written once to exist): 0.5 = fill then read
#                   (usemem -Z, fileio -c -r 1), 1 = fill then write
#                   again (usemem -r 2, fileio -c -w -r 1)
# The sample: a Fisher-Yates shuffle of the 216 indices by Park-Miller's
# generator (x = 16807 x mod 2^31-1, exact in awk's doubles) from SEED,
# walked in that order keeping a case while no level of any factor would
# pass its share of the block (N/3 or N/2, rounded up): a seeded sample
# balanced on every factor.  Beyond 24, in blocks of 24, block b from
# seed SEED + b and none picked twice, so that a larger N keeps the cases
# (and the kernel runs) of a smaller one.  Printed in index order.  One line a case:
#   NAME<TAB>compare's arguments (--memcg ... -- WORKLOAD [+ WORKLOAD]...)
# Variables: N (24), SEED (38), LIMIT_MB (256), SWAP (512M).
function rnd(m) { x = (x * 16807) % 2147483647; return x % m }
function wl(i,   f, s, sw, c, file, w, mb, per, out, k) {
	f = i % 3; i = int(i / 3); s = i % 3; i = int(i / 3)
	sw = i % 3; i = int(i / 3); c = i % 2; i = int(i / 2)
	file = i % 2; i = int(i / 2); w = i % 2
	mb = int(fr[f] * LIMIT_MB + 0.5)
	c = c ? 3 : 1
	per = int(mb / c)
	name = sprintf("ws%s-st%d-sw%d-c%d-%s-w%s", fr[f], st[s], swp[sw], c, file ? "file" : "anon", w ? "1" : "0.5")
	out = sprintf("--memcg %dM --swap %s --set swappiness=%d --", LIMIT_MB, SWAP, swp[sw])
	if (!file)
		out = out sprintf(" usemem -n %d %s %dm", c, w ? "-r 2" : "-Z", per)
	else
		for (k = 1; k <= c; k++)
			out = out sprintf("%s fileio -c %s f%d %dM", k > 1 ? " +" : "", w ? "-w -r 1" : "-r 1", k, per)
	if (st[s])
		out = out sprintf(" + dd if=stream bs=1M count=%d", st[s] * LIMIT_MB)
	return name "\t" out
}
BEGIN {
	if (N == "") N = 24
	if (SEED == "") SEED = 38
	if (LIMIT_MB == "") LIMIT_MB = 256
	if (SWAP == "") SWAP = "512M"
	split("0.5 0.9 1.3", t, " "); for (j = 0; j < 3; j++) fr[j] = t[j + 1]
	split("0 1 3", t, " "); for (j = 0; j < 3; j++) st[j] = t[j + 1]
	split("10 60 150", t, " "); for (j = 0; j < 3; j++) swp[j] = t[j + 1]
	split("3 3 3 2 2 2", nl, " "); for (j = 0; j < 6; j++) nl[j] = nl[j + 1]
	total = 216
	for (b = 0; b * 24 < N; b++) {
		# block b: 24 cases (or what is left of N) from seed SEED + b
		nb = N - b * 24 < 24 ? N - b * 24 : 24
		x = (SEED + b) % 2147483646 + 1
		for (j = 0; j < total; j++) idx[j] = j
		for (j = total - 1; j > 0; j--) { k = rnd(j + 1); tmp = idx[j]; idx[j] = idx[k]; idx[k] = tmp }
		split("", cnt)
		n = 0
		for (j = 0; j < total && n < nb; j++) {
			v = idx[j]; ok = !(v in keep)
			for (a = 0; a < 6; a++) { lv[a] = v % nl[a]; v = int(v / nl[a]); if (cnt[a, lv[a]] + 1 > int((nb + nl[a] - 1) / nl[a])) ok = 0 }
			if (!ok) continue
			for (a = 0; a < 6; a++) cnt[a, lv[a]]++
			keep[idx[j]] = 1; n++
		}
	}
	for (j = 0; j < total; j++) if (keep[j]) print wl(j)
}
