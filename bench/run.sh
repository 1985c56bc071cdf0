#!/bin/sh
# make bench: simulation speed figures (printed, never asserted).
P=${PAGELAB:-./pagelab}
echo "bench: usemem 4 GiB sequential sweep on 'modern'"
/usr/bin/time -f "%e s host, %M KiB max RSS" $P run --machine modern --ram 8G usemem 4G | grep total
