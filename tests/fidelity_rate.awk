# fidelity_rate.awk - from three runs of pagelab kernel's dd, the median
# rate in bytes per second as a whole number; exit 1 unless there are
# three.  Reads: the summary line ("1073741824 bytes (1.1 GB) copied,
# 0.45 seconds, 2.4 GB/s"), the bytes over dd's seconds; with -v WAIT=1,
# the bytes over the time dd spent off the CPU, from the zsh-style line
# that follows ("dd ...  0.00s user 0.29s system 21% cpu 1.41 total":
# total - user - system), the wait of a conv=fsync write for its
# writeback (tools/fidelity.sh's write rate).
# Printed with %.0f: mawk's %d stops at 2^31 - 1, which turned a host
# reading at 2.38 GB/s into 2 147 483 647.
$5 == "copied," && $6 > 0 { bytes = $1; if (!WAIT) v[++n] = $1 / $6 }
WAIT && bytes && $NF == "total" && $(NF - 4) == "system" && $(NF - 6) == "user" {
	off = $(NF - 1) - $(NF - 7) - $(NF - 5)
	if (off > 0)
		v[++n] = bytes / off
	bytes = 0
}
END {
	if (n != 3)
		exit 1
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	printf "%.0f\n", v[2]
}
