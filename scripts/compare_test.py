#!/usr/bin/env python3
"""ctest: `ladder compare` on small hand-written documents.

A regression beyond noise must be caught (exit 1), noise must not (exit 0); CPU rungs and records
flagged noisy or contended are shown but do not set the exit code; missing and extra variants are
listed; bad input, and two runs with nothing in common, exit 2 with one line naming the files; --json
is written whole.
Usage: compare_test.py LADDER
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

LADDER = sys.argv[1]
failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAIL:", what)
        failures += 1


def record(case, variant, median, spread, index=0, **extra):
    r = {"case": case, "variant": variant, "index": index, "size": "1024", "baseline": False, "host": False,
         "skipped": False, "reason": None, "samples": 10, "median_ms": median, "rel_spread": spread,
         "bytes": 8192, "flops": 0, "gbps": 8192 / median / 1e6, "gflops": None, "ceiling": "bandwidth_gbps",
         "valid": True}
    r.update(extra)
    return r


def document(name, bandwidth, records):
    return {"tool": "ladder", "schema": 1, "command": "ladder run", "date": "2026-11-24T00:00:00Z",
            "device": {"name": name, "ceilings": {"bandwidth_gbps": bandwidth, "fma_gflops": 60000.0,
                                                  "sgemm_gflops": 50000.0}},
            "results": records, "summaries": []}


def run(tmp, a, b, *args):
    paths = []
    for name, doc in (("a.json", a), ("b.json", b)):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        paths.append(path)
    p = subprocess.run([LADDER, "compare", *paths, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    base = document("GPU A", 3000.0, [record("reduce", "naive", 1.0, 0.01, 0),
                                      record("reduce", "fast", 0.5, 0.01, 1),
                                      record("reduce", "cub", 0.45, 0.01, 2, baseline=True)])
    with tempfile.TemporaryDirectory() as tmp:
        # Same run twice: nothing changes, exit 0, every ratio 1.
        rc, out, err = run(tmp, base, base)
        check(rc == 0, f"identical runs exit 0, not {rc}: {err}")
        check("nothing slower beyond noise" in out, "identical runs: 'nothing slower' line")

        # A 10 % regression with 1 % spreads is caught, named, and sets exit 1.
        slow = copy.deepcopy(base)
        slow["results"][1]["median_ms"] = 0.55
        rc, out, err = run(tmp, base, slow)
        check(rc == 1, f"a 10% regression exits 1, not {rc}")
        line = next((l for l in out.splitlines() if " fast " in l), "")
        check("slower" in line and "0.909" in line, f"the regression's row says slower with B/A 0.909: '{line}'")
        check("1 rung(s) slower beyond noise" in out, "the closing line counts one regression")

        # The same 10 % inside a 15 % spread is noise: exit 0.
        noisy = copy.deepcopy(slow)
        noisy["results"][1]["rel_spread"] = 0.15
        rc, out, err = run(tmp, base, noisy)
        check(rc == 0, f"a change inside the measured spread is noise (exit 0), not {rc}")

        # 2 % with tight spreads is below the 3 % threshold; a 1 % threshold catches it.
        small = copy.deepcopy(base)
        small["results"][0]["median_ms"] = 1.02
        rc, _, _ = run(tmp, base, small)
        check(rc == 0, f"2% is under the default 3% threshold, not exit {rc}")
        small["results"][0]["rel_spread"] = 0.001
        base_tight = copy.deepcopy(base)
        base_tight["results"][0]["rel_spread"] = 0.001
        rc, _, _ = run(tmp, base_tight, small, "--threshold", "1")
        check(rc == 1, f"2% with --threshold 1 is a regression, not exit {rc}")
        rc, _, _ = run(tmp, base, slow, "--threshold", "20")
        check(rc == 0, f"10% with --threshold 20 is not, not exit {rc}")

        # Faster is never a failure; the geometric mean of 2 and 0.5 is 1; ceilings' ratio shown.
        mixed = document("GPU B", 4500.0, [record("reduce", "naive", 0.5, 0.01, 0),
                                           record("reduce", "fast", 1.0, 0.01, 1),
                                           record("reduce", "cub", 0.45, 0.01, 2, baseline=True)])
        rc, out, _ = run(tmp, base, mixed, "--json", os.path.join(tmp, "cmp.json"))
        check(rc == 1, "one rung twice as slow exits 1")
        row = next((l for l in out.splitlines() if l.startswith("| reduce |")), "")
        check("| 1.000 |" in row, f"geometric mean of 2 and 0.5 is 1.000: '{row}'")
        check("bandwidth 1.500" in out, "the bandwidth ceilings' ratio B/A is 1.500")
        with open(os.path.join(tmp, "cmp.json")) as f:
            cmp = json.load(f)
        check(cmp["regressions"] == 1 and len(cmp["variants"]) == 3, "--json holds the pairs and the count")
        check(abs(cmp["cases"][0]["geomean_ratio"] - 1) < 1e-9, "--json geomean")
        check(not [n for n in os.listdir(tmp) if n.endswith(".tmp")], "no temporary file left beside --json")

        # Missing and extra variants are listed, not errors; skipped ones are not compared.
        other = copy.deepcopy(base)
        other["results"][0]["variant"] = "renamed"
        other["results"][1].update(skipped=True, reason="too big", median_ms=None)
        rc, out, err = run(tmp, base, other)
        check(rc == 0, f"missing and extra variants do not fail, exit {rc}: {err}")
        check("in A, not in B (1): reduce 1024 naive" in out, "the missing variant is listed")
        check("in B, not in A (1): reduce 1024 renamed" in out, "the extra variant is listed")
        check("reduce 1024 fast (skipped in B)" in out, "the skipped variant is listed as not compared")

        # A CPU rung 30 % slower is shown as slower but times the host, not the GPU: exit 0, and the
        # row and a closing line say it was not counted.
        with_cpu = copy.deepcopy(base)
        with_cpu["results"].insert(0, record("reduce", "cpu_omp", 10.0, 0.01, 0, host=True))
        cpu_slower = copy.deepcopy(with_cpu)
        cpu_slower["results"][0]["median_ms"] = 13.0
        rc, out, err = run(tmp, with_cpu, cpu_slower, "--json", os.path.join(tmp, "cmp.json"))
        check(rc == 0, f"a CPU rung 30% slower does not set the exit code, exit {rc}: {err}")
        line = next((l for l in out.splitlines() if " cpu_omp " in l), "")
        check("slower" in line and "(CPU rung, not counted)" in line, f"the CPU rung's row is slower, not counted: '{line}'")
        check("not counted (1 slower)" in out and "reduce 1024 cpu_omp (0.769, CPU rung)" in out,
              "a closing line names the slower rung that was not counted and why")
        check("nothing slower beyond noise" in out, "the count of regressions leaves the CPU rung out")
        row = next((l for l in out.splitlines() if l.startswith("| reduce |")), "")
        check("| 0 (+1 not counted) |" in row, f"the per-case table says one slower rung was not counted: '{row}'")
        with open(os.path.join(tmp, "cmp.json")) as f:
            cmp = json.load(f)
        pair = next(p for p in cmp["variants"] if p["variant"] == "cpu_omp")
        check(cmp["regressions"] == 0 and cmp["slower_not_counted"] == 1 and pair["verdict"] == "slower"
              and pair["counted"] is False and pair["host"] is True, "--json: slower, host, not counted")
        # ... while a clean GPU rung 10 % slower beside it still does.
        cpu_slower["results"][2]["median_ms"] = 0.55
        rc, out, _ = run(tmp, with_cpu, cpu_slower)
        check(rc == 1 and "1 rung(s) slower beyond noise" in out, f"a clean GPU rung slower beyond noise exits 1, not {rc}")

        # A GPU rung 10 % slower with a record flagged noisy or contended, in either run, has a median
        # not to be trusted: shown, marked, exit 0.
        for flag, flagged_in in (("noisy", "B"), ("contended", "B"), ("noisy", "A")):
            flagged = copy.deepcopy(slow)
            before = copy.deepcopy(base)
            (flagged if flagged_in == "B" else before)["results"][1][flag] = True
            rc, out, _ = run(tmp, before, flagged)
            check(rc == 0, f"a slower rung {flag} in {flagged_in} does not set the exit code, exit {rc}")
            line = next((l for l in out.splitlines() if " fast " in l), "")
            check("slower" in line and f"({flagged_in} {flag}, not counted)" in line,
                  f"the {flag} rung is shown slower and marked: '{line}'")
            check(f"reduce 1024 fast (0.909, {flagged_in} {flag})" in out, f"the closing line names the {flag} rung")
        flagged = copy.deepcopy(base)
        flagged["results"][2]["contended"] = True
        rc, out, _ = run(tmp, base, flagged)
        check(rc == 0 and "(B contended, not counted)" in out, "a contended record is marked even when not slower")

        # Nothing in common: no rung of one run is in the other. An empty comparison is not a clean
        # one: exit 2, one line that says what each run holds, nothing on stdout, no --json.
        out_json = os.path.join(tmp, "none-in-common.json")
        spmv = document("GPU A", 3000.0, [record("spmv", "scalar", 1.0, 0.01, 0), record("spmv", "vector", 0.5, 0.01, 1)])
        attention = document("GPU A", 3000.0, [record("attention", "three_kernels", 1.0, 0.01, 0)])
        rc, out, err = run(tmp, spmv, attention, "--json", out_json)
        check(rc == 2, f"an spmv run against an attention run exits 2, not {rc}")
        check(len(err.strip().splitlines()) == 1 and "have nothing in common" in err
              and "A holds spmv; B holds attention" in err, f"one line naming what each holds: '{err}'")
        check(out == "" and not os.path.exists(out_json), "nothing on stdout and no --json")
        other_size = copy.deepcopy(base)
        for r in other_size["results"]:
            r["size"] = "2048"
        rc, _, err = run(tmp, base, other_size)
        check(rc == 2 and "A holds reduce at 1024; B holds reduce at 2048" in err,
              f"the same case at other sizes: the line names the sizes: '{err}'")
        all_skipped = copy.deepcopy(base)
        for r in all_skipped["results"]:
            r.update(skipped=True, reason="needs two GPUs; this run sees 1", median_ms=None)
        rc, _, err = run(tmp, all_skipped, all_skipped)
        check(rc == 2 and "no rung that ran in both" in err and len(err.strip().splitlines()) == 1,
              f"rungs in common but none ran in both: exit 2, one line: '{err}'")

        # A partial document is compared and said to be partial.
        partial = copy.deepcopy(base)
        partial.update(complete=False, running_case="sgemm", stopped_by="SIGTERM")
        rc, out, _ = run(tmp, base, partial)
        check(rc == 0 and "partial: the run was stopped (SIGTERM) while sgemm was running" in out,
              "a partial document is compared and named partial")

        # Energy: a rung 10 % costlier in joules at the same time is reported, the exit code stays
        # tied to time unless --fail-on-energy; a record without energy is not compared for it.
        with_energy = copy.deepcopy(base)
        for r, joules in zip(with_energy["results"], (0.30, 0.15, 0.14)):
            r["energy_j"] = joules
        costlier = copy.deepcopy(with_energy)
        costlier["results"][1]["energy_j"] = 0.165
        costlier["results"][2]["energy_j"] = None
        rc, out, err = run(tmp, with_energy, costlier, "--json", os.path.join(tmp, "cmp.json"))
        check(rc == 0, f"energy alone does not fail the comparison, exit {rc}: {err}")
        line = next((l for l in out.splitlines() if " fast " in l), "")
        check("0.909" in line and "costlier" in line, f"the costlier rung's row says so with energy B/A 0.909: '{line}'")
        line = next((l for l in out.splitlines() if " cub " in l), "")
        check("costlier" not in line and " - " in line, f"a rung without energy in B has none compared: '{line}'")
        check("energy compared for 2 rung(s): 1 costlier beyond noise: reduce 1024 fast (0.909)" in out,
              "the closing energy line names the costlier rung")
        with open(os.path.join(tmp, "cmp.json")) as f:
            cmp = json.load(f)
        check(cmp["energy_regressions"] == 1 and cmp["energy_compared"] == 2, "--json counts the energy regressions")
        rc, _, _ = run(tmp, with_energy, costlier, "--fail-on-energy")
        check(rc == 1, f"--fail-on-energy makes the costlier rung exit 1, not {rc}")
        rc, out, _ = run(tmp, with_energy, with_energy, "--fail-on-energy")
        check(rc == 0 and "nothing costlier beyond noise" in out, "the same energy twice exits 0")
        rc, out, _ = run(tmp, base, base)
        check("energy" not in out, "documents without energy say nothing of it")

        # Bad input: exit 2, one line naming the file and the fault; no --json left behind.
        out_json = os.path.join(tmp, "bad.json")
        for bad, expected in (("", "b.json: the file is empty"),
                              ('{"schema": 1, "device": {"name": "x"}, "results": [', "the JSON ends early"),
                              ('{"schema": 1, "results": []}', 'has no "device" field'),
                              ('{"schema": 2, "device": {"name": "x"}, "results": []}', "schema 2")):
            rc, out, err = run(tmp, base, bad, "--json", out_json)
            check(rc == 2, f"bad B ({expected}) exits 2, not {rc}")
            check(expected in err and len(err.strip().splitlines()) == 1, f"one line with '{expected}': '{err}'")
            check(not os.path.exists(out_json), "no --json written from bad input")
        p = subprocess.run([LADDER, "compare", os.path.join(tmp, "none.json"), os.path.join(tmp, "a.json")],
                           capture_output=True, text=True)
        check(p.returncode == 2 and "none.json: cannot read it" in p.stderr, f"a missing file: {p.stderr}")
        p = subprocess.run([LADDER, "compare", os.path.join(tmp, "a.json"), os.path.join(tmp, "a.json"),
                            "--threshold", "x"], capture_output=True, text=True)
        check(p.returncode == 2 and "--threshold needs a percentage" in p.stderr, "a bad threshold exits 2")
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
