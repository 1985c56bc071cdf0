# fidelity_summary.awk - from the compare tables fidelity.sh collected,
# a summary in markdown: per case issue 11's counters, the kernel's median
# beside each policy's value, how many of those met the bar (the verdict:
# within the tolerance of the kernel's median, or both under the floor)
# and how many of all counters agreed.
BEGIN {
	nk = split("pswpout pswpin pgmajfault pgscan_anon pgsteal_anon pgscan_file pgsteal_file " \
		   "pgactivate pgdeactivate workingset_refault_anon workingset_activate_anon", key, " ")
	for (i = 1; i <= nk; i++) want[key[i]] = 1
}
/^### / { c = ++nc; title[c] = substr($0, 5); next }
/^# policy / { p = $3; sub(/;$/, "", p); if (!(p in pseen)) { pseen[p] = 1; pol[++np] = p } next }
c && ($1 in want) && NF >= 5 {
	# counter, median, (min..max) when runs > 1, pagelab, ratio, verdict,
	# and p when both sides have two or more values
	f = $3 ~ /^\(/ ? 4 : 3
	v = $(f + 2)
	kern[c, $1] = $2; val[c, p, $1] = $f
	bar[c, p] += v == "yes"
	mark[c, p, $1] = v == "yes" ? "" : " (no)"
	next
}
c && / counters within / { agree[c, p] = $1 "/" $3 }
END {
	printf "| case | counter | kernel median |"
	for (j = 1; j <= np; j++) printf " %s |", pol[j]
	printf "\n|---|---|---:|"
	for (j = 1; j <= np; j++) printf "---:|"
	printf "\n"
	for (c = 1; c <= nc; c++) {
		printf "| **%s** | issue 11's counters meeting the bar | |", title[c]
		for (j = 1; j <= np; j++)
			if ((c, pol[j]) in agree) printf " %d/%d |", bar[c, pol[j]], nk
			else printf " - |"
		printf "\n| | all counters within the tolerance | |"
		for (j = 1; j <= np; j++) printf " %s |", agree[c, pol[j]]
		printf "\n"
		for (i = 1; i <= nk; i++) {
			printf "| | %s | %s |", key[i], kern[c, key[i]]
			for (j = 1; j <= np; j++) printf " %s%s |", val[c, pol[j], key[i]], mark[c, pol[j], key[i]]
			printf "\n"
		}
	}
}
