# fidelity_rate.awk - from three runs of pagelab kernel's dd summary
# line ("1073741824 bytes (1.1 GB) copied, 0.45 seconds, 2.4 GB/s"), the
# median rate in bytes per second as a whole number; exit 1 unless there
# are three.
# Printed with %.0f: mawk's %d stops at 2^31 - 1, which turned a host
# reading at 2.38 GB/s into 2 147 483 647.
$5 == "copied," && $6 > 0 { v[++n] = $1 / $6 }
END {
	if (n != 3)
		exit 1
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	printf "%.0f\n", v[2]
}
