# memtier's output (src/workload/memtier.c): the ALL STATS columns stay
# aligned when a figure is wider than memtier's 12 columns.

# col_ends: for each line, the positions past column 6 where a word ends.
col_ends() {
	awk '{ s = ""; for (i = 7; i <= length($0); i++)
		if (substr($0, i, 1) != " " && (i == length($0) || substr($0, i + 1, 1) == " "))
			s = s " " i
		print s }'
}

t "memtier ALL STATS: a 13-digit KB/sec widens every column"
# 8 threads of one client SET 50 resident 2000-byte items each, with
# system calls of 1 ns and no network wait (--rtt=0): over 10^9 KB/sec,
# 13 characters.
out=$($P run --ram 64M --set cost.syscall=1ns memtier -t 8 -c 1 -n 50 --key-maximum=4095 --preload --rtt=0 \
	--ratio=1:0 -d 2000 2>&1 |
	sed -n '/^ALL STATS$/,/^Totals/p')
ends=$(echo "$out" | grep -v '^[-=A]' | col_ends | sort -u)
[ "$ends" = " 20 34 48 62 76" ] && echo "$out" | grep -Eq '^Sets .* 1[0-9]{9}\.[0-9]{2}$' &&
[ "$(echo "$out" | grep '^==' | wc -L)" -eq 78 ] && ok || bad "$ends: $out"

t "memtier --test-time=1: 1 s of requests, each 4 system calls"
# One thread, one client, GETs of 1000 resident items: a request is the
# round trip's 4 calls of cost.syscall (vmm-2008: cost.fault, 1500 ns)
# plus two touches, so just under 10^9 / 6000 requests a second; with
# cost.syscall=10us, 10^9 / 40000.  --rtt=0: the calls alone (the round
# trip's wait: tests/cli.d/memtier_rtt.sh).
mt="memtier -t 1 -c 1 --test-time=1 --key-maximum=999 --ratio=0:1 --preload --rtt=0"
a=$($P run --ram 64M $mt 2>&1)
b=$($P run --ram 64M --set cost.syscall=10000ns $mt 2>&1)
echo "$a" | grep -q '^1         Seconds$' &&
echo "$a" | grep -Eq '^Totals +16655[0-9]\.[0-9]{2} +16655[0-9]\.[0-9]{2} +0\.00 +0\.00600 ' &&
echo "$a" | grep -Eq 'cpu 1\.00[0-9] total$' &&
echo "$b" | grep -Eq '^Totals +2499[0-9]\.[0-9]{2} +2499[0-9]\.[0-9]{2} +0\.00 +0\.04000 ' &&
ok || bad "$(echo "$a" | grep -e Totals -e total) / $(echo "$b" | grep Totals)"
