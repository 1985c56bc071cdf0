# fidelity_summary.awk - from the compare tables fidelity.sh collected,
# a summary in markdown: per case the key counters, the kernel's median
# beside each policy's value, and how many counters agreed.
BEGIN {
	nk = split("pswpout pswpin pgmajfault pgscan_anon pgscan_file pgactivate workingset_refault_file", key, " ")
	for (i = 1; i <= nk; i++) want[key[i]] = 1
}
/^### / { c = ++nc; title[c] = substr($0, 5); next }
/^# policy / { p = $3; sub(/;$/, "", p); if (!(p in pseen)) { pseen[p] = 1; pol[++np] = p } next }
c && ($1 in want) && NF >= 5 { kern[c, $1] = $2; val[c, p, $1] = $4; next }
c && / counters within / { agree[c, p] = $1 "/" $3 }
END {
	printf "| case | counter | kernel median |"
	for (j = 1; j <= np; j++) printf " %s |", pol[j]
	printf "\n|---|---|---:|"
	for (j = 1; j <= np; j++) printf "---:|"
	printf "\n"
	for (c = 1; c <= nc; c++) {
		printf "| **%s** | counters within the tolerance | |", title[c]
		for (j = 1; j <= np; j++) printf " %s |", agree[c, pol[j]]
		printf "\n"
		for (i = 1; i <= nk; i++) {
			printf "| | %s | %s |", key[i], kern[c, key[i]]
			for (j = 1; j <= np; j++) printf " %s |", val[c, pol[j], key[i]]
			printf "\n"
		}
	}
}
