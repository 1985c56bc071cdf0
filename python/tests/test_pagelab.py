"""The pagelab package against the pagelab CLI: the same runs must give
the same figures, exactly.  Run by tests/cli.d/python.sh with PAGELAB
(the binary) and PAGELAB_LIB (build/libpagelab.so) set:
    PYTHONPATH=python python3 -m unittest discover -s python/tests
The CloudPhysics sample is the repository's tests/data copy, as
tests/cli.d/policies.sh uses it; its expected misses there come from
libCacheSim."""
import os
import subprocess
import unittest

import pagelab
from pagelab import _table

from policies import FIFO, LRU, Interrupted, Raises, Stranger

TREE = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
CP = os.path.join(TREE, "tests", "data",
                  "cloudPhysicsIO.oracleGeneral.bin.zst")
P = os.environ.get("PAGELAB", os.path.join(TREE, "build", "pagelab"))


def cli_counters(args):
    """`pagelab run ARGS`'s `name value` counter lines."""
    out = subprocess.run([P, "run"] + args, stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 2 and w[1].isdigit():
            found[w[0]] = int(w[1])
    return found


def zstd_built():
    """--version ends "(zstd, zlib)", "(no zstd, zlib)" or "(no zstd, no
    zlib)" (src/trace/input.c)."""
    v = subprocess.run([P, "--version"], stdout=subprocess.PIPE,
                       universal_newlines=True).stdout
    return "zstd" in v and "no zstd" not in v


USEMEM = ["--machine", "vmm-2008", "--ram", "16M", "--swap", "32M",
          "--policy", "clock", "usemem", "-m", "24"]


class Library(unittest.TestCase):
    def test_run_equals_cli(self):
        r = pagelab.run("usemem -m 24", ram="16M", swap="32M",
                        policy="clock")
        want = cli_counters(USEMEM)
        self.assertEqual(r.status, 0)
        for k in ("pgfault", "pgmajfault", "pswpin", "pswpout",
                  "pgscan_kswapd", "pgsteal_direct"):
            self.assertEqual(r[k], want[k], k)
        self.assertEqual(r["pswpout"], 4288)

    def test_report_is_the_cli_s(self):
        r = pagelab.run("usemem -m 24", ram="16M", swap="32M",
                        policy="clock")
        out = subprocess.run([P, "run", "--no-progress"] + USEMEM,
                             stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
        self.assertIn("pswpout 4288\n", r.report())
        self.assertIn('"pswpout": 4288', r.report(json=True))
        self.assertIn("pswpout 4288\n", out)

    def test_times_and_events(self):
        r = pagelab.run(["usemem", "-m", "24"], ram="16M", swap="32M")
        w = r.workloads if isinstance(r.workloads, list) \
            else r.workloads.to_dict("records")
        e = r.events if isinstance(r.events, list) \
            else r.events.to_dict("records")
        self.assertEqual(len(w), 1)
        self.assertEqual(w[0]["minor_faults"], r["pgfault"])
        self.assertEqual([x["kind"] for x in e], ["exit"])
        self.assertEqual(e[0]["text"], "usemem -m 24")

    def test_bad_input(self):
        with self.assertRaisesRegex(pagelab.PagelabError,
                                    "unknown policy 'nosuch'"):
            pagelab.run("usemem -m 24", policy="nosuch")
        with self.assertRaisesRegex(pagelab.PagelabError, "nosuch"):
            pagelab.run("usemem -m 24", machine="nosuch")


@unittest.skipUnless(zstd_built(), "pagelab was built without zstd")
class PythonPolicies(unittest.TestCase):
    def test_lru_equals_c_lru(self):
        """libCacheSim's LRU misses (tests/cli.d/policies.sh) at two
        sizes, and the C lru's major faults."""
        for frames, misses in ((490, 95415), (4897, 91657)):
            py = pagelab.run_trace(CP, frames, policy=LRU)
            c = cli_counters(["--machine", "ideal", "--ram", "%dp" % frames,
                              "--policy", "lru", "trace", CP])
            self.assertEqual(py["pgfault"], misses)
            self.assertEqual(c["pgfault"], misses)
            self.assertEqual(py["pgmajfault"], c["pgmajfault"])

    def test_fifo_equals_c_fifo(self):
        py = pagelab.run_trace(CP, 490, policy=FIFO)
        self.assertEqual(py["pgfault"], 96515)

    def test_raising_hook(self):
        with self.assertRaisesRegex(pagelab.PolicyError,
                                    "KeyError: 'no victim'"):
            pagelab.run_trace(CP, 490, policy=Raises)

    def test_interrupt(self):
        """Ctrl-C in a hook: the run ends, then KeyboardInterrupt."""
        with self.assertRaises(KeyboardInterrupt):
            pagelab.run_trace(CP, 490, policy=Interrupted)
        self.assertEqual(pagelab.run_trace(CP, 490, policy=LRU)["pgfault"],
                         95415)

    def test_stranger_victim(self):
        with self.assertRaisesRegex(pagelab.PolicyError,
                                    r"Stranger.evict\(\) returned -1"):
            pagelab.run_trace(CP, 490, policy=Stranger)


class Cli(unittest.TestCase):
    @unittest.skipUnless(zstd_built(), "pagelab was built without zstd")
    def test_sweep_3x3(self):
        """3 policies x 3 sizes on the CloudPhysics sample: libCacheSim's
        misses (tests/cli.d/policies.sh), and the library's run of one
        cell gives its figures."""
        rows = pagelab.sweep(["trace", CP], machine="ideal",
                             policy=["lru", "fifo", "arc"],
                             ram=["490p", "1224p", "4897p"])
        if not isinstance(rows, list):
            self.assertEqual(rows.shape[0], 9)
            rows = rows.to_dict("records")
        got = [(r["design"], r["ram"], r["pgfault"]) for r in rows]
        self.assertEqual(got, [
            ("lru", "490p", 95415), ("lru", "1224p", 94695),
            ("lru", "4897p", 91657), ("fifo", "490p", 96515),
            ("fifo", "1224p", 95232), ("fifo", "4897p", 91716),
            ("arc", "490p", 94228), ("arc", "1224p", 93885),
            ("arc", "4897p", 88002)])
        r = pagelab.run_trace(CP, 1224, policy="arc")
        self.assertEqual(r["pgmajfault"], rows[7]["pgmajfault"])

    def test_sweep_usemem(self):
        rows = pagelab.sweep("usemem -m 24", policy=["clock"],
                             ram=["16M", "20M"], swap="32M")
        if not isinstance(rows, list):
            rows = rows.to_dict("records")
        self.assertEqual([r["pswpout"] for r in rows], [4288, 3296])
        r = pagelab.run("usemem -m 24", policy="clock", ram="20M",
                        swap="32M")
        self.assertEqual(r["pswpout"], 3296)

    @unittest.skipUnless(zstd_built(), "pagelab was built without zstd")
    def test_mrc(self):
        rows = pagelab.mrc(CP, policy=["lru", "fifo"],
                           sizes=["490p", "4897p"])
        if not isinstance(rows, list):
            rows = rows.to_dict("records")
        got = [(r["curve"], r["method"], r["pages"], r["misses"])
               for r in rows]
        self.assertEqual(got, [("lru", "exact", 490, 95415),
                               ("lru", "exact", 4897, 91657),
                               ("fifo", "simulated", 490, 96515),
                               ("fifo", "simulated", 4897, 91716)])

    def test_sweep_args(self):
        from pagelab.cli import sweep_args
        self.assertEqual(
            sweep_args("usemem -m 24", policy=["a", "b"], ram="1M",
                       seeds=2, sets={"swappiness": [0, 60]}, memcg="8M"),
            ["sweep", "--policy", "a,b", "--ram", "1M", "--memcg", "8M",
             "--set", "swappiness=0,60", "--seeds", "2", "--",
             "usemem", "-m", "24"])

    def test_cli_error(self):
        with self.assertRaisesRegex(pagelab.PagelabError, "exit 2"):
            pagelab.sweep("usemem -m 24", policy="nosuch")


KERNEL_TESTS = (os.environ.get("PAGELAB_KERNEL_TESTS") == "1"
                or os.environ.get("CI") == "true")


class Kernel(unittest.TestCase):
    """pagelab.kernel: on the host kernel only where make check runs the
    kernel tests (KERNEL=1, or CI) and as root; a few seconds."""

    @unittest.skipUnless(KERNEL_TESTS and os.geteuid() == 0,
                         "the host-kernel tests: root, make check KERNEL=1")
    def test_kernel_run(self):
        k = pagelab.kernel("usemem -m 40", memcg="64M", swap="128M",
                           timeout=300)
        self.assertIs(k["finished"], True)
        self.assertEqual(k["memcg"]["limit_bytes"], 64 << 20)
        self.assertEqual(k["memcg"]["swap_bytes"], 128 << 20)
        self.assertEqual(k["workloads"][0]["command"], "usemem -m 40")
        self.assertGreaterEqual(k["counters"]["pgfault"], (40 << 20) >> 12)

    def test_kernel_needs_root(self):
        saved = os.geteuid
        os.geteuid = lambda: 1000
        try:
            with self.assertRaisesRegex(pagelab.PagelabError, "needs root"):
                pagelab.kernel("usemem -m 40")
        finally:
            os.geteuid = saved


class NoPandas(unittest.TestCase):
    def test_lists_of_dicts(self):
        saved = _table.pandas
        _table.pandas = None
        try:
            rows = pagelab.sweep("usemem -m 24", policy="fifo",
                                 ram=["12M", "16M"], swap="32M")
        finally:
            _table.pandas = saved
        self.assertIsInstance(rows, list)
        self.assertEqual([r["pswpout"] for r in rows], [5248, 4288])


if __name__ == "__main__":
    unittest.main()
