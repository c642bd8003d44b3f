#!/usr/bin/env python3
"""ctest: `ladder report` as a user meets it.

report_test.py LADDER               the page from a committed run and from two overlaid: every case has
                                    its section, the roofline one point per placeable record, the sweeps
                                    as lines with the transfer fit, flags and partial runs marked
report_test.py LADDER CORPUS_FILE   one broken document of tests/corpus/report: the exit code and the
                                    one-line message of expected.tsv, and no output file unless exit 0
"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LADDER = sys.argv[1]
failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAIL:", what)
        failures += 1


def report(*args):
    p = subprocess.run([LADDER, "report", *args], capture_output=True, text=True)
    return p.returncode, p.stderr


def corpus(path):
    name = os.path.basename(path)
    with open(os.path.join(os.path.dirname(path), "expected.tsv")) as f:
        rows = [l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#")]
    expected = {r[0]: (int(r[1]), r[2]) for r in rows}
    check(name in expected, f"{name} has a line in expected.tsv")
    if name not in expected:
        return
    code, message = expected[name]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.html")
        rc, err = report(path, "-o", out)
        check(rc == code, f"{name}: exit {code}, not {rc} ({err.strip()})")
        check(message in err, f"{name}: the message has '{message}': '{err.strip()}'")
        check(len(err.strip().splitlines()) == 1, f"{name}: one line, not {len(err.strip().splitlines())}")
        check(os.path.exists(out) == (code == 0), f"{name}: an output file only on success")
        check(os.listdir(tmp) == (["out.html"] if code == 0 else []), f"{name}: no temporary file left: {os.listdir(tmp)}")
        if code == 0:
            page = open(out, encoding="utf-8").read()
            check("class='partial'" in page and "SIGTERM" in page, f"{name}: the page says the run is partial")
            check("contended" in page and "noisy" in page, f"{name}: the page marks contended and noisy records")
            check("python3 (pid 4242, 1024 MiB)" in page, f"{name}: the page names the other process")


def placeable(doc):
    return sum(1 for r in doc["results"] if not r["skipped"] and r["valid"] and (r.get("flops") or 0) > 0
               and (r.get("bytes") or 0) > 0 and (r.get("gflops") or 0) > 0)


def pages():
    h200 = os.path.join(ROOT, "docs/results/nvidia-h200.json")
    h100 = os.path.join(ROOT, "docs/results/nvidia-h100-80gb-hbm3.json")
    with open(h200) as f:
        doc = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.html")
        rc, err = report(h200, "-o", out)
        check(rc == 0 and err == "", f"a committed run makes a report: {rc} {err}")
        page = open(out, encoding="utf-8").read()
        for case in dict.fromkeys(r["case"] for r in doc["results"]):
            check(f"id='case-{case}'" in page, f"{case} has its section")
        roof = re.search(r'<svg[^>]*id="roofline-svg".*?</svg>', page, re.S).group(0)
        points = roof.count('class="pt"')
        check(points == placeable(doc), f"the roofline has one point per record with bytes and flops ({points} of {placeable(doc)})")
        check(roof.count("<polyline") >= 8, "each ladder is a path on the roofline")
        for name in ("bandwidth 4,283 GB/s", "FP32 FMA 65,120 GFLOP/s", "cuBLAS SGEMM 51,266 GFLOP/s"):
            check(name in roof, f"the roofline names its ceiling '{name}'")
        check("sgemm 4096 #20 tile_by_size: " in roof, "a roofline point is named by case, size, rung and variant")
        coalescing = page.split("id='case-coalescing'")[1].split("</section>")[0]
        check(coalescing.count('class="sweep"') >= 2, "coalescing's offset and stride sweeps are line plots")
        check(coalescing.count('class="sweep-pt"') == 130, "every offset (0 to 32) and stride (1 to 32) point of both widths is drawn")
        check(coalescing.count('class="bar"') < 20, "the sweep points are not drawn as bars too")
        transfer = page.split("id='case-transfer'")[1].split("</section>")[0]
        check("fit: 7.12 µs + bytes / 55.4 GB/s" in transfer, "the pinned host-to-device sizes have their fitted line")
        for case, what in (("smem_banks", "w4_stride_N"), ("occupancy", "blocks_per_sm_N"), ("occupancy", "block_N")):
            section = page.split(f"id='case-{case}'")[1].split("</section>")[0]
            check(f">{what}</text>" in section or f">{what}<" in section, f"{case}'s {what} is a line")
        check("data-script=" not in page, "the status attribute is set by the script at load, not written in")

        # Two runs overlaid: both devices named, both runs' points, B dashed.
        rc, err = report(h100, h200, "-o", out)
        check(rc == 0, f"two runs overlay: {err}")
        page = open(out, encoding="utf-8").read()
        with open(h100) as f:
            other = json.load(f)
        roof = re.search(r'<svg[^>]*id="roofline-svg".*?</svg>', page, re.S).group(0)
        check("NVIDIA H100 80GB HBM3 vs NVIDIA H200" in page, "the overlay names both GPUs")
        check(roof.count('class="pt"') == placeable(doc) + placeable(other), "the overlay has both runs' points")
        check('data-run="1"' in roof and 'stroke-dasharray="6 4"' in roof, "run B is drawn dashed")

        # A tensor ceiling is drawn when the run has one; flags are marked; an unwritable output is one line.
        tensor = copy.deepcopy(doc)
        tensor["device"]["ceilings"]["tensor_bf16_gflops"] = 700000.0
        tensor["results"][0]["noisy"] = True
        path = os.path.join(tmp, "tensor.json")
        with open(path, "w") as f:
            json.dump(tensor, f)
        rc, err = report(path, "-o", out)
        page = open(out, encoding="utf-8").read()
        check(rc == 0 and "BF16 tensor 700,000 GFLOP/s" in page, "the tensor ceiling is drawn and named")
        check("1 record(s) flagged (noisy)" in page, "a noisy record is counted at the top")
        check('class="energy"' not in page, "a run without energy has no energy chart")

        # Energy: transpose's rungs get a work-per-joule chart in GB/J (its ceiling is bandwidth), one
        # bar per rung that has energy, the reason where a rung has none; the header names the power.
        energy = copy.deepcopy(doc)
        energy["device"].update(power_limit_w=700.0, idle_power_w=121.0, energy_counter_period_ms=100.0,
                                energy_note=None)
        transpose = [r for r in energy["results"] if r["case"] == "transpose"]
        for r in transpose:
            r.update(energy_j=0.1, power_w=400.0, energy_ms_per_run=0.25, gflop_per_j=None,
                     gb_per_j=(r.get("bytes") or 0) / 0.1 / 1e9, energy_reason=None)
        transpose[0].update(energy_j=None, power_w=None, gb_per_j=None, energy_reason="the energy counter stood still")
        path = os.path.join(tmp, "energy.json")
        with open(path, "w") as f:
            json.dump(energy, f)
        rc, err = report(path, "-o", out)
        page = open(out, encoding="utf-8").read()
        section = page.split("id='case-transpose'")[1].split("</section>")[0]
        check(rc == 0 and 'class="energy"' in section, f"transpose has an energy chart: {err}")
        check(section.count('class="energy-bar"') == len(transpose) - 1, "one energy bar per rung with energy")
        check("GB/J, 400 W" in section and "the energy counter stood still" in section,
              "the bars say GB/J and watts; a rung without energy says why")
        check("Board power limit 700 W, idle 121 W" in page, "the header names the board's limit and idle power")
        rc, err = report(h200, "-o", os.path.join(tmp, "no/such/dir/r.html"))
        check(rc == 1 and "cannot write" in err and len(err.strip().splitlines()) == 1, f"unwritable output: {err}")
        rc, err = report(h200, h200, h200, "-o", out)
        check(rc == 2 and "not 3" in err, f"three documents are a usage error: {err}")


if __name__ == "__main__":
    if len(sys.argv) > 2:
        corpus(sys.argv[2])
    else:
        pages()
    print(f"{failures} failure(s)")
    sys.exit(1 if failures else 0)
