#!/bin/sh
# sameout.sh - the outputs of a set of pagelab commands, one file each, to
# show a refactoring changes none of them:
#
#	sh tools/sameout.sh OLD-BUILD /tmp/before   # from main's build
#	sh tools/sameout.sh build /tmp/after        # from yours
#	diff -r /tmp/before /tmp/after && echo same
#
# BUILD is a build directory with pagelab, examples/embed and
# examples/lifo.so.  Each command's stdout, stderr and exit status go to
# OUT/NN.out; --html and -o files to OUT/NN.*.  HTML pages are dated from
# SOURCE_DATE_EPOCH, so they compare too.  Traces come from TRACES
# (default ../shared/traces/libcachesim beside the source tree or its
# parent, as a worktree's).
set -u
b=${1:?usage: sameout.sh BUILD OUT}
out=${2:?usage: sameout.sh BUILD OUT}
here=$(cd "$(dirname "$0")/.." && pwd)
tr=${TRACES:-}
for d in "$here/../shared" "$here/../../shared"; do
	[ -z "$tr" ] && [ -d "$d/traces/libcachesim" ] && tr=$d/traces/libcachesim
done
P=$(cd "$b" && pwd)/pagelab
EX=$(cd "$b" && pwd)/examples
mkdir -p "$out"
out=$(cd "$out" && pwd)
export SOURCE_DATE_EPOCH=1700000000
n=0
# c CMD...: run pagelab CMD..., @ in an argument is this command's file
# prefix (OUT/NN).
c() {
	n=$((n + 1))
	f=$(printf '%s/%02d' "$out" "$n")
	args=
	for a in "$@"; do
		args="$args '$(printf '%s' "$a" | sed "s|@|$f|g")'"
	done
	( cd "$out" && eval "\"$P\" $args" >"$f.out" 2>"$f.err"; echo "rc $?" >>"$f.out" )
	printf '%02d pagelab %s\n' "$n" "$*" >>"$out/commands"
}
: >"$out/commands"
c run --ram 64M usemem -m 80
c run --policy splitlru --ram 64M --swap 256M usemem -m 100
c run --policy linux6 --ram 96M qsbench -m 40 -p 2
c run --policy mglru --ram 128M --json usemem -m 150
c run --policy workingset --ram 128M --vmstat 1 dbench 2
c run --policy aa24 --machine athlon-2001 mtest01 -p 60 -w
c run --policy linux26 --ram 64M --vmstat -a 0.5 usemem -m 60 + fileio -c f 40M
c run --ram 64M --memcg 48M usemem -m 60
c run --ram 256M --memcg 64M --set memcg.v1=1 --json --make-inputs dd if=big bs=1M count=40
c run --memcg 32M --policy linux6 usemem -m 40
c run --set swappiness=100 --policy splitlru --ram 64M usemem -m 80
c run --set vm.dirty_ratio=5 --ram 128M --html @.html fileio -w f 60M
c run --policy clock --ram 32M --max-time 2 --html @.html usemem -m 60
c run --ram 48M --swap 0 usemem -m 80
c run --machine ideal --ram 10% --policy lru trace "$tr/cloudPhysicsIO.txt"
c run --machine ideal --ram 5% --policy arc trace "$tr/cloudPhysicsIO.oracleGeneral.bin"
c run --machine ideal --ram 5% --policy opt --json trace "$tr/cloudPhysicsIO.txt"
c run --ram 5% --policy clock --full-machine trace "$tr/cloudPhysicsIO.txt"
c run --machine ideal --ram 8M --policy s3fifo --json trace "$tr/cloudPhysicsIO.vscsi"
c run --ram 64M --policy "$EX/lifo.so" usemem -m 70
c run --ram 32M --check --policy linux6 usemem -m 40
c run --ram 96M --cpus 2 --disk ssd bonnie -s 40
c run --ram 64M --policy linux22 mmap001 -m 40
c run --make-inputs --ram 64M dd if=data bs=64K count=300
c run --ram 64M bogus
c run --ram 96M usemem -m 10 + usemem -m 10 + usemem -m 10 + usemem -m 10 + usemem -m 30
c run --ram 64M --vmstat 0.001 --html @.html --json usemem -m 70 -r 3
c run --ram 48M --vmstat 2 --html @.html --max-time 3 qsbench -m 40 -p 2
c run --memcg 8K usemem -m 1
c sweep --policy clock,splitlru --ram 48M,64M --seeds 2 -o @.jsonl --html @.html -- usemem -m 60
c sweep --memcg 32M,48M --policy linux6 --set memcg.v1=0,1 -- usemem -m 40
c sweep --policy lru,arc --machine ideal --ram 5%,10% --csv -- trace "$tr/cloudPhysicsIO.txt"
c sweep --list --policy clock --ram 64M:128M:x2 -- usemem -m 60
c reproduce --only 1
c reproduce --only 3 --json
c reproduce --only 4
c reproduce --only 3 --html @.html
c reproduce --only 2 --max-time 20 --html @.html
c mrc --policy lru,arc --sizes 1%:16%:x2 "$tr/cloudPhysicsIO.txt"
c mrc --json --policy clock --sizes 2%,8% "$tr/cloudPhysicsIO.txt"
n=$((n + 1))
n=$((n + 1))
( "$EX/embed" 60 >"$out/$n.out" 2>&1; echo "rc $?" >>"$out/$n.out" )
echo "$n examples/embed 60" >>"$out/commands"
# What differs by design between two builds: where they are, where the
# outputs go, the version string.
for f in "$out"/[0-9]* "$out/commands"; do
	sed -i -e "s|$P|PAGELAB|g" -e "s|$out|OUT|g" -e "s|$(dirname "$EX")|BUILD|g" \
		-E -e 's/[0-9]+\.[0-9]+\.[0-9]+-g[0-9a-f]+(-dirty)?/VERSION/g' "$f"
done
