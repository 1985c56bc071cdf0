#!/bin/sh
# make bench: simulation speed figures (printed, never asserted).
P=${PAGELAB:-./pagelab}
echo "bench: usemem 4 GiB sequential sweep on 'modern'"
/usr/bin/time -f "%e s host, %M KiB max RSS" $P run --machine modern --ram 8G usemem 4G | grep total
echo "bench: qsbench -p 4 -m 230 on vmm-2008 at 1.1 x the threshold of swapping (--ram 836M), per policy"
for pol in $($P policies | awk '{print $1}'); do
	[ "$pol" = opt ] && continue
	/usr/bin/time -f "  $pol: %e s host, %M KiB max RSS" $P run --machine vmm-2008 --ram 836M --policy $pol qsbench -p 4 -m 230 | grep total
done
