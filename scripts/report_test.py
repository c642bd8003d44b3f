#!/usr/bin/env python3
"""ctest: `ladder report` as a user meets it.

report_test.py LADDER               the page from a committed run and from two overlaid: every case has
                                    its section, the roofline one point per placeable record and labels
                                    that do not print over each other, the sweeps as lines with the
                                    transfer fit, flags and partial runs marked; each case's colour the
                                    same in every document; an all-skipped case one line; skip reasons
                                    whole; a decode shape's fraction the bandwidth's; a reference at
                                    another precision off the bars' scale
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


def legend_colours(page):
    return dict(re.findall(r'class="legend" data-case="([^"]+)" style="border-color:(#[0-9a-f]+)"', page))


def overprinted(svg_text):
    """Pairs of the roofline's upright labels that print over each other, judged generously: a character
    at least 0.45 em wide, a line 0.7 em high (the page's own estimate is wider; this one allows for
    another font)."""
    boxes = []
    for x, y, anchor, size, attrs, label in re.findall(
            r'<text x="([-\d.]+)" y="([-\d.]+)" text-anchor="(\w+)" font-size="(\d+)"([^>]*)>([^<]*)</text>', svg_text):
        if "rotate" in attrs or float(x) < 70:  # the bandwidth's name runs along its roof; the axes' ticks
            continue
        x, y, size = float(x), float(y), int(size)
        width = 0.45 * size * len(label)
        x0 = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
        boxes.append((x0, y - 0.7 * size, x0 + width, y, label))
    return [(a[4], b[4]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]


def case_part(page, case, size=None):
    text = page.split(f"id='case-{case}'")[1].split("</section>")[0]
    return text.split(f"<h3>{case} {size}</h3>")[1].split("<h3>")[0] if size else text


def placeable(doc):
    return sum(1 for r in doc["results"] if not r["skipped"] and r["valid"] and (r.get("flops") or 0) > 0
               and (r.get("bytes") or 0) > 0 and (r.get("gflops") or 0) > 0)


def pages():
    h200 = os.path.join(ROOT, "tests/fixtures/nvidia-h200-2026-11-23.json")
    h100 = os.path.join(ROOT, "tests/fixtures/nvidia-h100-80gb-hbm3-2026-11-23.json")
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
        clash = overprinted(roof)
        check(not clash, f"no two labels of the roofline print over each other: {clash[:5]}")
        sgemm = case_part(page, "sgemm")
        check(sgemm.count("<p>Fraction of the measured ceiling") == 1 and sgemm.count('class="bars"') == 3,
              "the bars' legend is said once per case, not once per size")
        check("…" not in page, "no text is cut short")

        # A kernel tried with `ladder try` (index -1) is a point named "you" beside the ladder, not a
        # step of its path, and its bar row says "you".
        tried_doc = copy.deepcopy(doc)
        mine = copy.deepcopy(next(r for r in doc["results"] if r["case"] == "sgemm" and r["variant"] == "naive"
                                  and not r["skipped"] and r["size"] == "4096"))
        mine.update(variant="mine.cu", index=-1, user=True)
        tried_doc["results"].append(mine)
        tried_path = os.path.join(tmp, "tried.json")
        with open(tried_path, "w") as f:
            json.dump(tried_doc, f)
        rc, err = report(tried_path, "-o", out)
        tried_page = open(out, encoding="utf-8").read()
        tried_roof = re.search(r'<svg[^>]*id="roofline-svg".*?</svg>', tried_page, re.S).group(0)
        check(rc == 0 and "#you mine.cu" in tried_roof and ">you<" in tried_roof, "a tried kernel is a point named you")
        check(">-1" not in tried_page and "#-1" not in tried_page, "no rung number -1 anywhere")
        check("you  mine.cu" in case_part(tried_page, "sgemm", "4096"), "its bar row says you")

        # A case's colour follows its name: the same in a document that lists the cases in another
        # order, and in one that holds that case alone.
        colours = legend_colours(page)
        reordered = copy.deepcopy(doc)
        reordered["results"] = sorted(doc["results"], key=lambda r: r["case"], reverse=True)
        alone = copy.deepcopy(doc)
        alone["results"] = [r for r in doc["results"] if r["case"] == "spmv"]
        for name, other_doc in (("reordered", reordered), ("alone", alone)):
            path = os.path.join(tmp, f"{name}.json")
            with open(path, "w") as f:
                json.dump(other_doc, f)
            rc, err = report(path, "-o", out)
            other = legend_colours(open(out, encoding="utf-8").read())
            check(rc == 0 and other and all(colours[c] == other[c] for c in other),
                  f"{name}: each case keeps its colour: {colours} vs {other}")
            check(name != "reordered" or list(other) != list(colours), "the reordered document lists its cases in another order")
        check(len(set(colours.values())) == len(colours), f"the roofline's cases have colours of their own: {colours}")

        # On a one-GPU run p2p and allreduce skip every rung, at every size, for one reason: one line
        # each, not an empty heading or a row per rung. A long skip reason is written whole, wrapped.
        one_gpu = copy.deepcopy(doc)
        for case, routes, points in (("p2p", ("staged", "peer_copy", "peer_load"), ("4KiB", "1MiB", "1GiB")),
                                     ("allreduce", ("host", "ring", "one_shot", "two_shot", "nccl", "gather_broadcast",
                                                    "one_shot_signal"), ("8B", "64B", "1KiB", "4KiB", "1MiB", "64MiB", "1GiB"))):
            for size in ("1073741824", "65536"):
                for i, (route, point) in enumerate((r, p) for r in routes for p in points):
                    one_gpu["results"].append({
                        "case": case, "variant": f"{route}_{point}", "index": i, "size": size, "baseline": route == "nccl",
                        "host": False, "skipped": True, "reason": "needs two GPUs; this run sees 1", "median_ms": None,
                        "valid": True})
        long_reason = ("the serial CPU loop would take seconds above 512^3 multiply-adds, and this reason goes on "
                       "for long enough that it needs a second line and then a third one: try --size 512 instead")
        next(r for r in one_gpu["results"] if r["case"] == "sgemm" and r["skipped"])["reason"] = long_reason
        path = os.path.join(tmp, "one_gpu.json")
        with open(path, "w") as f:
            json.dump(one_gpu, f)
        rc, err = report(path, "-o", out)
        page = open(out, encoding="utf-8").read()
        for case, count in (("p2p", 18), ("allreduce", 98)):
            part = case_part(page, case)
            check(rc == 0 and part.count("class='skipped'") == 1 and "<h3>" not in part and "<svg" not in part,
                  f"{case}: one line, no heading per size, no chart: {part[:300]}")
            check(f"skipped: needs two GPUs; this run sees 1 ({count} rungs at 2 sizes)" in part,
                  f"{case}: the line gives the reason and the count: {part[:300]}")
        spans = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", case_part(page, "sgemm"))
        joined = " ".join(spans)
        check(f"skipped: {long_reason}" in joined and len([t for t in spans if t]) >= 2 and "…" not in page,
              f"a long skip reason is whole, on more than one line: {spans[:4]}")

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
        clash = overprinted(roof)
        check(not clash, f"no two labels of the overlay's roofline print over each other: {clash[:5]}")
        check("FP32 FMA: A 65,170 / B 65,120 GFLOP/s" in roof, "two runs' roofs of one name share one label")

        # hgemm's decode shapes read the matrix at a fraction of a percent of the tensor rate: their bars
        # give the bandwidth's fraction, named; a square shape's is the tensor rate's.
        hgemm_path = os.path.join(ROOT, "tests/fixtures/nvidia-h100-80gb-hbm3-hgemm-2026-11-25.json")
        with open(hgemm_path) as f:
            hgemm = json.load(f)
        rc, err = report(hgemm_path, "-o", out)
        page = open(out, encoding="utf-8").read()
        for size in ("1x4096x4096", "16x4096x4096"):
            part = case_part(page, "hgemm", size)
            for variant in ("gemv_mma", "cublas"):
                r = next(r for r in hgemm["results"] if r["size"] == size and r["variant"] == variant)
                check(r["fraction_of_bandwidth"] > 10 * r["fraction_of_ceiling"], f"{size} {variant} is bound by bandwidth")
                shown = f">{100 * r['fraction_of_bandwidth']:.1f}% (bandwidth), {r['speedup']:.2f}×<"
                check(rc == 0 and shown in part, f"hgemm {size} {variant} shows '{shown}'")
        r = next(r for r in hgemm["results"] if r["size"] == "4095x4097x4093" and r["variant"] == "persistent")
        check(f">{100 * r['fraction_of_ceiling']:.1f}% (tensor)," in case_part(page, "hgemm", "4095x4097x4093"),
              "a square shape's fraction is the tensor rate's, named")

        # A vendor reference at another precision (cuBLAS TF32, 6.25 times the FP32 rate) does not set the
        # scale of sgemm's bars: the dashed line at the ceiling stays where the FP32 ladder needs it (its
        # best rung is under 1), the reference's bar is cut at the edge and its label gives its value.
        reference = copy.deepcopy(doc)
        cublas = next(r for r in reference["results"] if r["case"] == "sgemm" and r["size"] == "4096" and r["variant"] == "cublas")
        tf32 = copy.deepcopy(cublas)
        tf32.update(variant="cublas_tf32", index=cublas["index"] + 1, baseline=False, reference=True,
                    precision="TF32 (reduced precision)", fraction_of_ceiling=6.25, fraction_of_fp32=6.25)
        reference["results"].insert(reference["results"].index(cublas) + 1, tf32)
        path = os.path.join(tmp, "reference.json")
        with open(path, "w") as f:
            json.dump(reference, f)
        rc, err = report(path, "-o", out)
        part = case_part(open(out, encoding="utf-8").read(), "sgemm", "4096")
        ceiling_x = float(re.search(r'<line x1="([\d.]+)"[^>]*stroke-dasharray="4 3"', part).group(1))
        bars_x = [(float(a), float(b)) for a, b in re.findall(r'class="bar" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', part)]
        left, widest = bars_x[0][0], max(w for _, w in bars_x)
        check(rc == 0 and abs(ceiling_x - (left + widest)) < 1, f"the ceiling line ends the scale, at {ceiling_x}, not "
              f"{left + 1 / 6.25 * widest:.0f} (the FP32 ladder in the left sixth)")
        check(">625.0%, " in part and "TF32 (reduced precision), off the scale" in part and 'class="cut"' in part,
              "the reference's bar is cut and its label gives its value and precision")

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
