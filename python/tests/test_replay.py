"""pagelab.replay: the cache-only replay from Python (pagelab_cache_replay
in libpagelab), for C policies by name and pagelab.Policy classes: the
counts of `pagelab run` on the same trace, exactly."""
import os
import tempfile
import unittest

import pagelab

from policies import LRU, Raises
from test_pagelab import CP, cli_counters, zstd_built


@unittest.skipUnless(zstd_built(), "pagelab was built without zstd")
class Replay(unittest.TestCase):
    def test_python_lru_equals_c_lru(self):
        """libCacheSim's LRU misses at 4897 frames (tests/cli.d/
        policies.sh) for the Python LRU and the C lru, and the CLI's
        major faults."""
        py = pagelab.replay(CP, 4897, LRU)
        c = pagelab.replay(CP, 4897, "lru")
        cli = cli_counters(["--machine", "ideal", "--ram", "4897p",
                            "--policy", "lru", "trace", CP])
        self.assertEqual(py, c)
        self.assertEqual((py["refs"], py["misses"], py["pages"]),
                         (113872, 91657, 48974))
        self.assertEqual(py["major"], cli["pgmajfault"])

    def test_c_policy_by_name(self):
        self.assertEqual(pagelab.replay(CP, 490, "fifo")["misses"], 96515)


class ReplaySmall(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp(suffix=".trace")
        with os.fdopen(fd, "w") as f:
            f.write("".join("%d r\n" % p for p in (1, 2, 3, 1, 4, 1)))

    def tearDown(self):
        os.unlink(self.path)

    def test_by_hand(self):
        """1 2 3 1 4 1 in 2 frames, LRU: 1 2 3 miss (3 evicts 1), 1 misses
        (evicts 2), 4 misses (evicts 3), 1 hits: 5 misses, 1 refault."""
        r = pagelab.replay(self.path, 2, LRU)
        self.assertEqual((r["refs"], r["misses"], r["major"]), (6, 5, 1))
        self.assertEqual(r, pagelab.replay(self.path, 2, "lru"))

    def test_raising_hook(self):
        with self.assertRaisesRegex(pagelab.PolicyError, "no victim"):
            pagelab.replay(self.path, 2, Raises)

    def test_bad_input(self):
        for args, msg in (((self.path, 2, "mglru"), "not a cache policy"),
                          ((self.path, 0, "lru"), "1 to"),
                          ((self.path + ".none", 2, "lru"), "none"),
                          ((self.path, 2, "nosuch"), "nosuch")):
            with self.assertRaisesRegex(pagelab.PagelabError, msg):
                pagelab.replay(*args)
