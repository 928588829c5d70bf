"""The harness's own tests: the EDN reader, the history model, and that every kind finds its site in a
small legal history and plants what its docstring says (checked on the mutated lines, no zk-check)."""

import contextlib
import io
import os
import shutil
import tempfile
import unittest

from zkperturb import edn
from zkperturb.harness import main, read_bar, renumber, verdict
from zkperturb.kinds import KINDS, NEEDS_READ_ZXIDS
from zkperturb.model import History, strip_read_zxids

HERE = os.path.dirname(os.path.abspath(__file__))


def legal():
    return edn.read_history(os.path.join(HERE, "legal.edn"))


class EdnTest(unittest.TestCase):
    def test_reads_what_histories_hold(self):
        v = edn.loads('{:a 1, :b [1 2N -3], :c "x\\"y", :d #{:k}, :e nil, :f true, :g #jepsen.history.Op{:x 1.5}'
                      ' :h \\c, :i (1 2) #_ :gone :j :ns/kw}')
        self.assertEqual(v["a"], 1)
        self.assertEqual(v["b"], [1, 2, -3])
        self.assertEqual(v["c"], 'x"y')
        self.assertEqual(v["d"], frozenset({edn.Keyword("k")}))
        self.assertIsNone(v["e"])
        self.assertEqual(v["g"], {edn.Keyword("x"): 1.5})
        self.assertEqual(v["h"], "c")
        self.assertEqual(v["j"], "ns/kw")
        self.assertNotIn("gone", v)

    def test_round_trip_and_errors(self):
        for line in legal():
            self.assertEqual(edn.loads(edn.dumps(line)), line)
        with self.assertRaises(edn.EdnError):
            edn.loads("{:a 1")
        with self.assertRaises(edn.EdnError):
            edn.loads("{:a}")


class ModelTest(unittest.TestCase):
    def test_pairs_and_strips(self):
        h = History(legal())
        self.assertEqual(len(h.ops), 20)
        self.assertEqual(h.t(h.ops[-3]), "info")
        stripped = strip_read_zxids(legal())
        kept = [str(l["f"]) for l in stripped if "zxid" in l]
        self.assertNotIn("get-data", kept)
        self.assertNotIn("sync", kept)
        self.assertIn("set-data", kept)
        self.assertIn("watch-event", kept)
        self.assertEqual([l["index"] for l in renumber(legal()[::-1])], list(range(41)))

    def test_bar_file_rejects_unknown_kinds(self):
        path = os.path.join(HERE, "bad-bar.tsv")
        with open(path, "w") as f:
            f.write("no-such-kind with-read-zxids 1 0\n")
        try:
            with self.assertRaises(AssertionError):
                read_bar(path)
        finally:
            os.remove(path)


class TruthTest(unittest.TestCase):
    """The comparison with the simulator's ground truth, against a stand-in zk-check."""

    def run_truth(self, placements):
        d = tempfile.mkdtemp()
        try:
            shutil.copy(os.path.join(HERE, "legal.edn"), os.path.join(d, "sim-s1-Zab-seed1.edn"))
            with open(os.path.join(d, "sim-s1-Zab-seed1.truth.edn"), "w") as f:
                f.write("{:format :zabkit.truth/v1 :source \"t\" :placements {35 9, 27 7} :error-txns #{27}}")
            if placements is None:
                os.environ.pop("FAKE_PLACEMENTS", None)
            else:
                os.environ["FAKE_PLACEMENTS"] = placements
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = main(["truth", "--zk-check", "python3 " + os.path.join(HERE, "fake_zk_check.py"), d])
            return rc, out.getvalue()
        finally:
            shutil.rmtree(d)
            os.environ.pop("FAKE_PLACEMENTS", None)

    def test_no_placements_is_said_and_is_not_a_pass(self):
        rc, out = self.run_truth(None)
        self.assertEqual(rc, 1)
        self.assertIn("no placements reported", out)

    def test_agreement_counts(self):
        rc, out = self.run_truth("{35 9, 27 :absent}")
        self.assertIn("2 agree, 0 differ", out)  # 27 is an error txn: :absent agrees too
        rc, out = self.run_truth("{35 :absent}")
        self.assertIn("0 agree, 2 differ", out)
        self.assertEqual(rc, 0)


class BarTest(unittest.TestCase):
    def test_below_the_bar_or_nothing_injected_fails(self):
        st = dict(injected=4, caught=2, missed=1)
        key = ("ghost-child", "with-read-zxids")
        with contextlib.redirect_stdout(io.StringIO()) as out:
            self.assertEqual(verdict({key: st}, {key: (2, 1)}), 0)
            self.assertEqual(verdict({key: st}, {key: (3, 1)}), 1)  # a catch lost
            self.assertEqual(verdict({key: st}, {key: (2, 0)}), 1)  # a miss added
            self.assertEqual(verdict({key: dict(injected=9, caught=2, missed=1)}, {key: (2, 1)}), 0)  # new sites, undecided
            self.assertEqual(verdict({}, {key: (0, 0)}), 1)
        self.assertIn("nothing injected", out.getvalue())
        self.assertIn("missed 1 > bar 0", out.getvalue())

    def test_the_ci_bar_file_reads(self):
        bar = read_bar(os.path.join(HERE, "..", "ci-bar.tsv"))
        # every kind in both modes, except lost-acknowledged-write without read zxids (it needs them: n/a)
        self.assertEqual(len(bar), 2 * len(KINDS) - 1)
        self.assertNotIn(("lost-acknowledged-write", "without-read-zxids"), bar)


class KindsTest(unittest.TestCase):
    def test_every_kind_finds_a_site_and_changes_the_history(self):
        for mode_with in (True, False):
            lines = legal() if mode_with else strip_read_zxids(legal())
            h = History(lines)
            for kind, finder in KINDS:
                sites = finder(h, mode_with)
                if kind in NEEDS_READ_ZXIDS and not mode_with:
                    self.assertEqual(sites, [], kind)
                    continue
                self.assertTrue(sites, "%s (with read zxids: %s): no site" % (kind, mode_with))
                for site in sites:
                    self.assertEqual(site.kind, kind)
                    mutated = site.apply(lines)
                    self.assertNotEqual(mutated, lines, kind)
                    self.assertEqual(lines, legal() if mode_with else strip_read_zxids(legal()), "input changed")

    def _apply(self, kind, mode_with=True):
        lines = legal()
        sites = dict(KINDS)[kind](History(lines), mode_with)
        return [s.apply(lines) for s in sites]

    def _sites(self, kind, mode_with=True):
        lines = legal()
        return [(s.where, s.apply(lines)) for s in dict(KINDS)[kind](History(lines), mode_with)]

    def test_stale_reads_show_an_mzxid_below_the_write_they_must_see(self):
        own = self._sites("stale-read-after-own-write")
        self.assertIn(8, [w for w, _ in own])
        for where, m in own:
            self.assertEqual(m[where]["stat"]["mzxid"], 1)  # the session's own write on /a was at zxid 2
        sync = self._sites("stale-read-after-sync")
        self.assertEqual([w for w, _ in sync], [12, 18, 20])
        for where, m in sync:
            self.assertLess(m[where]["stat"]["mzxid"], 2)

    def test_event_moves_and_spurious_events_name_a_zxid_of_another_path(self):
        for m in self._apply("event-before-write-invoked"):
            ev = [i for i, l in enumerate(m) if str(l["f"]) == "watch-event"][0]
            write = [i for i, l in enumerate(m) if l.get("value") == "a1" and str(l["type"]) == "invoke"][0]
            self.assertLess(ev, write)
        for m in self._apply("event-after-reply"):
            ev = [i for i, l in enumerate(m) if str(l["f"]) == "watch-event"][0]
            self.assertTrue(any("zxid" in l and l["zxid"] >= 2 and l.get("session") == 2 and str(l["f"]) != "watch-event"
                                and str(l["type"]) != "invoke" for l in m[:ev]))
        writes = {l["zxid"]: l.get("path") for l in legal() if "zxid" in l and str(l["f"]) in ("create", "set-data")}
        for m in self._apply("spurious-event"):
            ev = [l for l in m if str(l["f"]) == "watch-event" and l not in legal()][0]
            self.assertNotEqual(writes[ev["zxid"]], ev["path"])

    def test_identity_kinds(self):
        for m in self._apply("duplicated-sequential-name"):
            names = [l["value"]["created-path"] for l in m if str(l["f"]) == "create" and str(l["type"]) == "ok"
                     and "sequential" in str(l["value"]["mode"])]
            self.assertEqual(len(names), len(set(names)) + 1)
        for m in self._apply("zxid-collision"):
            zs = [l["zxid"] for l in m if "zxid" in l and str(l["type"]) == "ok" and str(l["f"]) in ("create", "set-data")]
            self.assertEqual(len(zs), len(set(zs)) + 1)
        for m in self._apply("ghost-child"):
            self.assertIn("ghost-", " ".join(m[34]["value"]))

    def test_info_write_is_both_seen_and_undone(self):
        for m in self._apply("info-write-happened-and-not"):
            self.assertEqual(m[38]["value"], "a2")
            self.assertEqual(m[40]["stat"]["mzxid"], 2)

    def test_ephemeral_after_close_shows_the_closed_sessions_node(self):
        ms = self._apply("ephemeral-after-close", mode_with=False)
        self.assertTrue(ms)
        for m in ms:
            self.assertEqual(m[32]["stat"]["ephemeral-owner"], 2)
            self.assertIs(m[32]["value"], True)


if __name__ == "__main__":
    unittest.main()


class SweepTest(unittest.TestCase):
    """The untuned sweep fails on an INVALID (a false alarm) or an error, never on an UNKNOWN (search budget)."""

    def run_sweep(self, verdict):
        d = tempfile.mkdtemp()
        try:
            shutil.copy(os.path.join(HERE, "legal.edn"), os.path.join(d, "sim-s1-Zab-seed1.edn"))
            os.environ["FAKE_VERDICT"] = verdict
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = main(["sweep", "--zk-check", "python3 " + os.path.join(HERE, "fake_zk_check.py"), d])
            return rc, out.getvalue()
        finally:
            shutil.rmtree(d)
            os.environ.pop("FAKE_VERDICT", None)

    def test_unknown_is_counted_not_failed(self):
        rc, out = self.run_sweep("unknown")
        self.assertEqual(rc, 0, out)
        self.assertIn("1 UNKNOWN", out)

    def test_invalid_and_errors_fail(self):
        self.assertEqual(self.run_sweep("invalid")[0], 1)
        self.assertEqual(self.run_sweep("error")[0], 1)
        self.assertEqual(self.run_sweep("valid")[0], 0)
