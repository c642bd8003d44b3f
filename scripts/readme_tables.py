#!/usr/bin/env python3
"""Regenerate the results pages under docs/results/ from docs/results/*.json.

Usage: scripts/readme_tables.py [RESULTS_DIR] [RESULTS.json ...]   (RESULTS_DIR: docs/results)
RESULTS_DIR/README.md gets the best rung of each ladder on each GPU and links to one generated page
per GPU, RESULTS_DIR/NAME.md (NAME: the device name in lower case, dashes between words), which holds
every rung of every ladder. Nothing in them is typed by hand. For each GPU each case at each size
comes from the newest timing run of that GPU that has it; runs made with --ncu (records with
counters) are shown apart, with their counters. A partial document (a run stopped before its end) is
used for the cases it holds, and said to be partial; contended, noisy and throttled records say so
in their check column.
"""
import glob
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
import ladder_doc  # noqa: E402



def number(value, fmt):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return fmt.format(value)


def percent(fraction):
    return None if fraction is None else 100 * fraction


def time_text(ms):
    if ms is None:
        return "-"
    if ms < 1:
        return f"{ms * 1e3:.1f} µs"
    if ms < 1e3:
        return f"{ms:.3f} ms"
    return f"{ms / 1e3:.2f} s"


def device_text(doc, path):
    d = doc["device"]
    c = d.get("ceilings") or {}
    return (
        f"**{d['name']}** (cc {d.get('cc', '?')}, {d.get('sm_count', '?')} SMs), `{os.path.basename(path)}`"
        f"{', ' + doc['date'] if 'date' in doc else ''}, "
        f"command `{doc.get('command', '?')}`. Measured ceilings: cudaMemcpy D2D {c.get('memcpy_gbps', 0):.0f} GB/s, "
        f"copy kernel {c.get('copy_kernel_gbps', 0):.0f} GB/s, FMA {c.get('fma_gflops', 0):.0f} GFLOP/s, "
        f"cuBLAS SGEMM {c.get('sgemm_gflops', 0):.0f} GFLOP/s (FP32, no TF32); theoretical DRAM "
        f"{d.get('peak_dram_gbps', 0):.0f} GB/s, FP32 {d.get('peak_fp32_gflops', 0):.0f} GFLOP/s."
        + (f" **This document is {ladder_doc.partial_text(doc)}.**" if ladder_doc.is_partial(doc) else "")
        + (" " + ladder_doc.contention_text(doc) if ladder_doc.contention_text(doc) else "")
    )


SWEEP_POINTS_SHOWN = {0, 1, 2, 4, 8, 16, 32, 33}


def condensed(records):
    """Long sweeps (shift 0..32, stride 1..33) keep their powers of two."""
    if len(records) <= 30:
        return records, ""
    def shown(r):
        tail = r["variant"].rsplit("_", 1)[-1]
        return not tail.isdigit() or int(tail) in SWEEP_POINTS_SHOWN
    kept = [r for r in records if shown(r)]
    note = (f"_{len(records) - len(kept)} of {len(records)} rows left out here (sweep points other than "
            f"0, 1, 2, 4, 8, 16, 32, 33); the JSON has them all._")
    return kept, note


def per_joule(r):
    """(value, unit) of a record's work per joule in its ceiling's unit: GB/J for a bandwidth-bound case."""
    if r.get("ceiling") == "bandwidth_gbps":
        return r.get("gb_per_j"), "GB/J"
    return r.get("gflop_per_j"), "GFLOP/J"


def case_table(records):
    head = records[0]
    records, note = condensed(records)
    energy = any(r.get("energy_j") is not None for r in records)
    unit = per_joule(head)[1]
    lines = [
        f"### {head['case']} {head['size']}",
        "",
        *([note, ""] if note else []),
        "| # | variant | median | spread | GB/s | GFLOP/s | of bandwidth | of FP32 | speedup | vs baseline | "
        + (f"W | {unit} | " if energy else "") + "check |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if energy else "") + "---|",
    ]
    for r in records:
        name = r["variant"] + (" (baseline)" if r["baseline"] else "")
        if r["skipped"]:
            lines.append(f"| {r['index']} | {name} | skipped: {r.get('reason')} | | | | | | | | |" + (" | |" if energy else ""))
            continue
        energy_cells = ([number(r.get("power_w"), "{:.0f}"), number(per_joule(r)[0], "{:.3g}")] if energy else [])
        lines.append(
            "| " + " | ".join([
                str(r["index"]), name, time_text(r["median_ms"]), number(percent(r.get("rel_spread")), "{:.1f}%"),
                number(r.get("gbps"), "{:.0f}"), number(r.get("gflops"), "{:.0f}"),
                number(percent(r.get("fraction_of_bandwidth")), "{:.1f}%"),
                number(percent(r.get("fraction_of_fp32")), "{:.1f}%"),
                number(r.get("speedup"), "{:.2f}×"), number(r.get("ratio_to_baseline"), "{:.3f}"),
                *energy_cells,
                ("ok" if r["valid"] else "FAIL") + "".join(f" ({f})" for f in ladder_doc.record_flags(r)),
            ]) + " |"
        )
    if any(r.get("counters") for r in records):
        lines += ["", counters_table(records)]
    return "\n".join(lines)


def megabytes(value):
    return None if value is None else value / 1e6


def counters_table(records):
    """The --ncu counters of a case, one launch of each variant (the sweep rows condensed alike)."""
    lines = [
        "Nsight Compute counters (`--ncu`), one launch of each variant:",
        "",
        "| # | variant | kernels | DRAM read | DRAM written | of DRAM peak | L2 read | load sectors/request "
        "| store sectors/request | smem wavefronts/load | bank conflicts | occupancy |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in records:
        c = r.get("counters")
        if not c:
            continue
        lines.append(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                r["index"], r["variant"], c["kernels"], number(megabytes(c["dram_bytes_read"]), "{:.1f} MB"),
                number(megabytes(c["dram_bytes_written"]), "{:.1f} MB"), number(c["dram_throughput_pct"], "{:.0f}%"),
                number(megabytes(c["l2_read_bytes"]), "{:.1f} MB"),
                number(c["global_load_sectors_per_request"], "{:.2f}"),
                number(c.get("global_store_sectors_per_request"), "{:.2f}"),
                number(c["shared_load_wavefronts_per_instruction"], "{:.2f}"),
                number(c["shared_bank_conflicts"], "{:.3g}"), number(c["achieved_occupancy_pct"], "{:.0f}%"),
            )
        )
    return "\n".join(lines)


def summaries_table(doc, case, size):
    """A case's derived figures (fits, best-rung ratios), when the run has any."""
    rows = [x for x in doc.get("summaries", []) if x["case"] == case and x["size"] == size]
    if not rows:
        return ""
    lines = ["| summary | value | note |", "|---|---:|---|"]
    for x in rows:
        value = number(x["value"], "{:.4g}") + (" " + x["unit"] if x["unit"] and x["unit"] != "ratio" else "")
        lines.append(f"| {x['name']} | {value} | {x['note']} |")
    return "\n".join(lines)


# Cases whose rows measure an effect (offsets, strides, conflicts, shifts,
# occupancy levels, copy sizes, instruction forms) rather than climb toward the
# baseline: their "fastest row" says nothing, so the summary leaves them out.
EFFECT_CASES = {"coalescing", "smem", "smem_banks", "texture", "occupancy", "instr", "transfer"}
# Rungs that measure what a case aims at rather than do its task (transpose's
# copies move the bytes without transposing): never its best rung.
REFERENCE_RUNGS = {("transpose", "copy"), ("transpose", "copy_shared")}


def best_rungs(records):
    """(case, size) -> the fastest non-baseline rung that has a ratio to its baseline, at the case's own
    precision: a rung that trades precision (sgemm's tf32: "precision" set) is not the best of an FP32
    ladder, so it stays on the GPU's page only."""
    best = {}
    for r in records:
        if (r["case"] in EFFECT_CASES or (r["case"], r["variant"]) in REFERENCE_RUNGS or r["skipped"] or r["baseline"]
                or r.get("reference") or r.get("ratio_to_baseline") is None or r.get("precision")):
            continue
        key = (r["case"], r["size"])
        if key not in best or r["ratio_to_baseline"] > best[key]["ratio_to_baseline"]:
            best[key] = r
    return best


def ceiling_cell(r):
    """The fraction of the ceiling that limits the rung, named where there is a choice (ladder_doc.limiter)."""
    fraction, name = ladder_doc.limiter(r)
    return number(percent(fraction), "{:.1f}%" + (f" ({name})" if name else ""))


def newest_per_case(docs):
    """Each case's records at each size from the newest timing run (not an --ncu run) that has that case
    at that size (a run of a few sizes again replaces those sizes only: each size is a whole ladder with
    its own baseline), the cases in the order of the run that has the most of them (the ladder's order,
    whichever case was rerun last)."""
    owner, records = {}, []
    # A --quick run is a look at small sizes (`ladder try` is run so here), and a tried kernel is the
    # user's, not a rung: the tables hold the ladders' own runs at their sizes.
    docs = [(path, doc) for path, doc in docs if not doc.get("quick")]
    for path, doc in sorted(docs, key=lambda item: item[1].get("date", ""), reverse=True):
        for r in doc["results"]:
            if r.get("user"):
                continue
            if owner.setdefault((r["case"], r["size"]), path) == path:
                records.append((path, doc, r))
    widest = max((doc for _, doc in docs), key=lambda doc: len({r["case"] for r in doc["results"]}), default=None)
    rank = {}
    for r in widest["results"] if widest else []:
        rank.setdefault(r["case"], len(rank))
    return sorted(records, key=lambda item: rank.get(item[2]["case"], len(rank)))


def slug(name):
    """The file name of a GPU's page: 'NVIDIA H100 80GB HBM3' -> 'nvidia-h100-80gb-hbm3'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def load_devices(paths):
    devices = {}
    for path in paths:
        doc = ladder_doc.load(path)
        profiled = any(r.get("counters") for r in doc["results"])
        devices.setdefault(doc["device"]["name"], {"timing": [], "ncu": []})["ncu" if profiled else "timing"].append(
            (path, doc))
    return devices


def summary(devices):
    """The results' front page: the best rung of each ladder on each GPU, and a link to each GPU's page."""
    order = sorted(devices)  # by name: the page does not reshuffle when one GPU gets a newer run
    chosen = {name: newest_per_case(devices[name]["timing"]) for name in order}
    best = {name: best_rungs([r for _, _, r in chosen[name]]) for name in order}
    baselines = {name: {(r["case"], r["size"]): r for _, _, r in chosen[name] if r["baseline"] and not r["skipped"]}
                 for name in order}
    keys = []
    for name in order:
        keys += [k for k in best[name] if k not in keys]
    out = ["# Results: the best rung of each ladder on each GPU", "",
           "_Generated by `scripts/readme_tables.py` from the JSON files in this folder; do not edit by hand. For "
           "each GPU, each case at each size from the newest run of that GPU that has it._", "",
           "Ratio to the case's baseline run in the same process (> 1 is faster than the baseline) and the "
           "fraction of the measured ceiling (bandwidth or FP32, whichever limits; for hgemm the higher of the "
           "measured BF16 tensor-core rate's and the bandwidth's, named, since its thin shapes are bound by "
           "reading the matrix; sgemm's 3xtf32, on tensor cores at FP32 accuracy, passes FP32's). Rungs of "
           "reduced precision (sgemm's tf32) and vendor reference rows are left out. Ladders that measure an effect "
           "(coalescing, banks, occupancy, transfers, instructions, textures) have no best rung: see each GPU's page. "
           "Work per joule: the problem's GFLOP (GB for a bandwidth-bound case) over the energy the whole board "
           "drew while the rung ran back to back, idle power included, for the best rung and the baseline "
           "([measuring.md](../measuring.md#energy-beside-every-rung) says what it includes).",
           "",
           "| case | size | " + " | ".join(f"{n}: best rung | vs baseline | of ceiling | per joule: best / baseline"
                                        for n in order) + " |",
           "|---|---|" + "---|---:|---:|---:|" * len(order)]
    for case, size in keys:
        cells = []
        for name in order:
            r = best[name].get((case, size))
            mark = "".join(f" ({f})" for f in ladder_doc.record_flags(r)) if r else ""
            base = baselines[name].get((case, size))
            work = "-"
            if r and (r.get("energy_j") is not None or (base and base.get("energy_j") is not None)):
                value, unit = per_joule(r)
                work = f"{number(value, '{:.3g}')} / {number(per_joule(base)[0] if base else None, '{:.3g}')} {unit}"
            cells += ([r["variant"] + mark, number(r["ratio_to_baseline"], "{:.3f}"), ceiling_cell(r), work]
                      if r else ["-", "-", "-", "-"])
        out.append(f"| {case} | {size} | " + " | ".join(cells) + " |")
    out.append("")
    for name in order:
        partial = [os.path.basename(p) for p, d in devices[name]["timing"] + devices[name]["ncu"] if ladder_doc.is_partial(d)]
        note = f" (from partial runs: {', '.join(partial)})" if partial else ""
        out.append(f"- [{name}: every rung of every ladder]({slug(name)}.md){note}")
    return "\n".join(out) + "\n"


def device_page(name, entry):
    """One GPU's page: every rung of every ladder, then any --ncu run's timings and counters."""
    chosen = newest_per_case(entry["timing"])
    docs_used = {}  # path -> document, in the order first used
    by_case = {}
    for path, doc, r in chosen:
        docs_used.setdefault(path, doc)
        by_case.setdefault((path, r["case"], r["size"]), []).append(r)
    out = [f"# {name}", "",
           "_Generated by `scripts/readme_tables.py` from the JSON files in `docs/results/`; do not edit by hand. "
           "Each case at each size comes from the newest run of this GPU that has it._", ""]
    for path, doc in docs_used.items():
        out += [device_text(doc, path), ""]
    out += ["## Every rung of every ladder", ""]
    for (path, case, size), records in by_case.items():
        doc = docs_used[path]
        out += [case_table(records), ""]
        extra = summaries_table(doc, case, size)
        if extra:
            out += [extra, ""]
    for path, doc in entry["ncu"]:
        out += ["## Counters from an `--ncu` run", "", device_text(doc, path), ""]
        cases = {}
        for r in doc["results"]:
            cases.setdefault((r["case"], r["size"]), []).append(r)
        for records in cases.values():
            out += [case_table(records), ""]
    return "\n".join(out).rstrip() + "\n"


def main():
    results_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "docs", "results")
    paths = sys.argv[2:] or sorted(glob.glob(os.path.join(results_dir, "*.json")))
    try:
        devices = load_devices(paths)
    except ladder_doc.DocumentError as e:
        print(f"readme_tables: cannot use {e.path}: {e.reason}", file=sys.stderr)
        return 1
    try:
        for name, entry in devices.items():
            ladder_doc.write_atomically(os.path.join(results_dir, slug(name) + ".md"), device_page(name, entry))
        ladder_doc.write_atomically(os.path.join(results_dir, "README.md"), summary(devices))
    except OSError as e:
        print(f"readme_tables: cannot write: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
