#!/usr/bin/env python3
"""ctest: scripts/readme_tables.py on a scratch tree: the results' front page and one page per GPU are
generated, a partial document is used and said to be partial, flagged records are marked, and a
broken document is one line, exit 1, with the README left as it was.
Usage: readme_tables_test.py [LADDER] (the tool is not needed; ctest passes it to every script test)
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAIL:", what)
        failures += 1


def main():
    with open(os.path.join(HERE, "../tests/fixtures/nvidia-h200-2026-11-23.json")) as f:
        full = json.load(f)
    doc = copy.deepcopy(full)
    doc["results"] = [r for r in full["results"] if r["case"] in ("transpose", "reduce")]
    doc["summaries"] = []
    # A reduced-precision rung, however fast, is not the best of its ladder.
    cheat = next(r for r in doc["results"] if r["case"] == "reduce" and not r["baseline"] and not r["skipped"]
                 and r["ratio_to_baseline"] is not None)
    cheat.update(variant="reduced_precision_rung", ratio_to_baseline=99.0, precision="FP8 (reduced precision)")
    # A tensor-core ladder: at a thin shape the bandwidth limits it, and the table says so; a vendor
    # reference row, however fast, is not a best rung.
    thin = copy.deepcopy(cheat)
    thin.update(case="hgemm", size="1x4096x4096", variant="gemv_mma", ratio_to_baseline=1.02, precision=None,
                ceiling="tensor_bf16_gflops", fraction_of_ceiling=0.001, fraction_of_bandwidth=0.81)
    square = copy.deepcopy(thin)
    square.update(size="4096x4096x4096", variant="persistent", fraction_of_ceiling=0.75, fraction_of_bandwidth=0.02)
    padded = copy.deepcopy(thin)
    padded.update(variant="cublas_c_aligned", ratio_to_baseline=5.0, reference=True)
    # A kernel tried with `ladder try` is the user's, not a rung: never the best, however fast.
    tried = copy.deepcopy(cheat)
    tried.update(variant="mine.cu", index=-1, user=True, ratio_to_baseline=50.0, precision=None)
    doc["results"] += [thin, square, padded, tried]
    # Energy on transpose's rungs: the page gains W and GB/J columns, the README the best rung's and
    # the baseline's GB/J; reduce has none and shows none.
    for r in doc["results"]:
        if r["case"] == "transpose" and not r["skipped"]:
            r.update(energy_j=0.05, power_w=410.0, gb_per_j=(r["bytes"] or 0) / 0.05 / 1e9, gflop_per_j=None)
    partial = copy.deepcopy(doc)
    partial["device"]["name"] = "Test GPU 2"
    partial["results"] = [r for r in doc["results"] if r["case"] == "transpose"]
    partial["results"][3]["contended"] = True
    partial.update(complete=False, running_case="reduce", stopped_by="SIGINT")
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "docs/results"))
        results = os.path.join(tmp, "docs/results")
        readme = os.path.join(results, "README.md")
        with open(readme, "w") as f:
            f.write("stale page\n")
        top = os.path.join(tmp, "README.md")
        with open(top, "w") as f:
            f.write("# x\n\nkept\n")
        # A --quick run (as `ladder try` runs are committed), newer than the rest, enters no table.
        quick = copy.deepcopy(partial)
        quick.update(quick=True, date="2099-01-01T00:00:00Z", complete=True, running_case=None, stopped_by=None)
        quick["results"] = [dict(r, variant="quick_only_rung") for r in quick["results"]]
        for name, d in (("nvidia-h200.json", doc), ("test-gpu-2.json", partial), ("test-gpu-2-quick.json", quick)):
            with open(os.path.join(tmp, "docs/results", name), "w") as f:
                json.dump(d, f)
        script = os.path.join(HERE, "readme_tables.py")
        p = subprocess.run([sys.executable, script, results], capture_output=True, text=True)
        check(p.returncode == 0, f"readme_tables on good documents: {p.stderr}")
        text = open(readme).read()
        check("stale page" not in text and text.startswith("# Results") and open(top).read() == "# x\n\nkept\n",
              "the front page is rewritten whole, the project's README is not touched")
        check("| transpose | 8192x8192 |" in text and "| reduce | 268435456 |" in text, "the best-rung table")
        check("reduced_precision_rung" not in text, "a reduced-precision rung is not a best rung")
        check("| hgemm | 1x4096x4096 | gemv_mma | 1.020 | 81.0% (bandwidth) |" in text,
              "a thin tensor-core shape shows its bandwidth fraction, named")
        check("| hgemm | 4096x4096x4096 | persistent | 1.020 | 75.0% (tensor) |" in text,
              "a square tensor-core shape shows its tensor fraction, named")
        check("cublas_c_aligned" not in text, "a vendor reference row is not a best rung")
        row = next((l for l in text.splitlines() if l.startswith("| transpose | 8192x8192 |")), "")
        check("| 10.7 / 10.7 GB/J |" in row, f"the best rung's and the baseline's GB/J: '{row}'")
        row = next((l for l in text.splitlines() if l.startswith("| reduce | 268435456 |")), "")
        check(row.count("| - |") >= 1 and "GB/J" not in row, f"a case without energy has '-': '{row}'")
        h200_page = open(os.path.join(tmp, "docs/results/nvidia-h200.md")).read()
        check("mine.cu" not in open(readme).read() and "mine.cu" not in h200_page, "a tried kernel is in no table")
        check("quick_only_rung" not in open(os.path.join(tmp, "docs/results/test-gpu-2.md")).read(),
              "a --quick run is in no table")
        check("| vs baseline | W | GB/J | check |" in h200_page and "| 410 | 10.7 |" in h200_page,
              "transpose's table has the W and GB/J columns")
        reduce_part = h200_page.split("### reduce")[1]
        check("| W |" not in reduce_part.split("###")[0], "reduce's table has no energy columns")
        check("reduced_precision_rung" in open(os.path.join(tmp, "docs/results/nvidia-h200.md")).read(),
              "a reduced-precision rung is on its GPU's page")
        check("(test-gpu-2.md) (from partial runs: test-gpu-2.json)" in text, "the front page says which run is partial")
        page = open(os.path.join(tmp, "docs/results/test-gpu-2.md")).read()
        check("partial: the run was stopped (SIGINT) while reduce was running" in page, "the GPU page says partial")
        check("ok (contended)" in page, "a contended record is marked in its table")
        check(os.path.exists(os.path.join(tmp, "docs/results/nvidia-h200.md")), "one page per GPU")
        with open(os.path.join(tmp, "docs/results/broken.json"), "w") as f:
            f.write('{"schema": 1, "device": {"name": "x"}, "results": [{"case": "a"')
        p = subprocess.run([sys.executable, script, results], capture_output=True, text=True)
        check(p.returncode == 1 and "broken.json: the JSON ends early" in p.stderr
              and len(p.stderr.strip().splitlines()) == 1, f"a broken document is one line, exit 1: {p.stderr}")
        check(open(readme).read() == text, "the front page is untouched after an error")
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
