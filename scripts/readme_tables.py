#!/usr/bin/env python3
"""Regenerate README.md's results section from docs/results/*.json.

Usage: scripts/readme_tables.py [README.md] [RESULTS.json ...]
The section between the markers <!-- results:begin --> and <!-- results:end -->
is replaced; nothing in it is typed by hand.
"""
import glob
import json
import math
import os
import sys

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"


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
        f"**{d['name']}** (cc {d['cc']}, {d['sm_count']} SMs), `{os.path.basename(path)}`"
        f"{', ' + doc['date'] if 'date' in doc else ''}, "
        f"command `{doc['command']}`. Measured ceilings: cudaMemcpy D2D {c.get('memcpy_gbps', 0):.0f} GB/s, "
        f"copy kernel {c.get('copy_kernel_gbps', 0):.0f} GB/s, FMA {c.get('fma_gflops', 0):.0f} GFLOP/s, "
        f"cuBLAS SGEMM {c.get('sgemm_gflops', 0):.0f} GFLOP/s (FP32, no TF32); theoretical DRAM "
        f"{d['peak_dram_gbps']:.0f} GB/s, FP32 {d['peak_fp32_gflops']:.0f} GFLOP/s."
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


def case_table(records):
    head = records[0]
    records, note = condensed(records)
    lines = [
        f"#### {head['case']} {head['size']}",
        "",
        *([note, ""] if note else []),
        "| # | variant | median | spread | GB/s | GFLOP/s | of bandwidth | of FP32 | speedup | vs baseline | check |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in records:
        name = r["variant"] + (" (baseline)" if r["baseline"] else "")
        if r["skipped"]:
            lines.append(f"| {r['index']} | {name} | skipped: {r['reason']} | | | | | | | | |")
            continue
        lines.append(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                r["index"], name, time_text(r["median_ms"]), number(percent(r["rel_spread"]), "{:.1f}%"),
                number(r["gbps"], "{:.0f}"), number(r["gflops"], "{:.0f}"),
                number(percent(r.get("fraction_of_bandwidth")), "{:.1f}%"),
                number(percent(r.get("fraction_of_fp32")), "{:.1f}%"),
                number(r["speedup"], "{:.2f}×"), number(r["ratio_to_baseline"], "{:.3f}"),
                ("ok" if r["valid"] else "FAIL") + (" (throttled)" if r["throttled"] else ""),
            )
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


def section(paths):
    """Each case from the newest file that has it (files without a date count as oldest)."""
    docs = []
    for path in paths:
        with open(path) as f:
            docs.append((path, json.load(f)))
    docs.sort(key=lambda item: item[1].get("date", ""), reverse=True)
    owner = {}
    for path, doc in docs:
        for r in doc["results"]:
            owner.setdefault(r["case"], path)
    out = ["_Generated by `scripts/readme_tables.py` from the JSON files in `docs/results/`: each case from the "
           "newest run that has it._", ""]
    for path, doc in reversed(docs):
        by_case = {}
        for r in doc["results"]:
            if owner[r["case"]] == path:
                by_case.setdefault((r["case"], r["size"]), []).append(r)
        if not by_case:
            continue
        out += [device_text(doc, path), ""]
        for records in by_case.values():
            out += [case_table(records), ""]
    return "\n".join(out)


def main():
    readme = sys.argv[1] if len(sys.argv) > 1 else "README.md"
    paths = sys.argv[2:] or sorted(glob.glob(os.path.join(os.path.dirname(readme) or ".", "docs/results/*.json")))
    text = open(readme).read()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    new = text[:start] + "\n" + section(paths) + "\n" + text[end:]
    tmp = readme + ".tmp"
    with open(tmp, "w") as f:
        f.write(new)
    os.replace(tmp, readme)


if __name__ == "__main__":
    main()
