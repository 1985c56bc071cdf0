# libcachesim_diff.sh - the small cases where pagelab and libCacheSim
# differ by design (docs/trace-format.md, "Where pagelab and libCacheSim
# differ"): pagelab's exact miss counts, worked out by hand.

# lcs_misses POLICY FRAMES "REFS" [--set ...]: misses of a cache-only replay.
lcs_misses() {
	_p=$1 _f=$2 _r=$3
	shift 3
	printf '%s\n' $_r >"$T/lcs.txt"
	$P run --machine ideal --ram "${_f}p" --policy "$_p" "$@" trace "$T/lcs.txt" >"$T/lcs.out" 2>&1 &&
		sed -n 's/^cache: \([0-9]*\) misses.*/\1/p' "$T/lcs.out"
}

# LIRS, 3 frames: Lhirs = max(1, floor(0.01 x 3)) = 1, Llirs = 2.  A B
# LIR, C resident HIR (S: C B A, Q: C).  A, B hits; B's move prunes C from
# S (it stays in Q).  C: a hit on Q's only page, which stays resident
# (libCacheSim evicts it here and still counts the next C a hit).  D: a
# miss, evicting C from Q (C stays in S, non-resident).  C: a miss.
# Misses A B C D C = 5 under both variants (libCacheSim: 4).
t "lirs, hit on Q's only page: A B C A B C D C in 3 frames = 5"
a=$(lcs_misses lirs 3 "A B C A B C D C")
b=$(lcs_misses lirs 3 "A B C A B C D C" --set variant=1)
[ "$a" = 5 ] && [ "$b" = 5 ] && ok || bad "got $a and $b, expected 5 and 5"

# Small caches libCacheSim leaves degenerate: 2Q's A1in of floor(0.25 c)
# = 0 pages below 4 frames, S3-FIFO's S of floor(0.1 c) <= 1 page below
# 20 frames (libCacheSim admits no object as large as S), LIRS' Llirs = 0
# at 1 frame.  pagelab caches: three distinct pages in 3 or more frames
# miss 3 times; in 1 frame every change of page misses (7 of 7).
t "2q in 3, s3fifo in 5 and 15, lirs in 1 frame: exact misses"
r="1 2 1 2 1 3 1"
got="$(lcs_misses 2q 3 "$r") $(lcs_misses s3fifo 5 "$r") $(lcs_misses s3fifo 15 "$r") $(lcs_misses lirs 1 "$r")"
[ "$got" = "3 3 3 7" ] && ok || bad "got $got, expected 3 3 3 7"
