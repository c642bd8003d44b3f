#!/usr/bin/env python3
"""ladder report: one HTML page from a results JSON.

A roofline of every variant that does arithmetic, a chart per ladder (fraction
of the ceiling, with the speedup over variant 0), and the long sweeps as line
plots. Plain SVG, no plotting library needed.

Usage: report.py RESULTS.json -o REPORT.html
"""
import argparse
import html
import json
import math
import os
import sys

WIDTH, HEIGHT, MARGIN = 720, 360, 60


def svg(body, width=WIDTH, height=HEIGHT):
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">{body}</svg>'


def text(x, y, s, anchor="start", size=11, extra=""):
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" {extra}>{html.escape(str(s))}</text>'


def log_axis(lo, hi, n=None):
    """Decades covering [lo, hi]."""
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    return a, max(b, a + 1)


def roofline(doc):
    ceilings = doc["device"].get("ceilings") or {}
    bw, fma = ceilings.get("bandwidth_gbps"), ceilings.get("fma_gflops")
    points = [r for r in doc["results"] if not r["skipped"] and r.get("flops") and r.get("bytes") and r.get("gflops")]
    if not points or not bw or not fma:
        return "<p>No variant with both bytes and flops: no roofline.</p>"
    intensities = [r["flops"] / r["bytes"] for r in points]
    x0, x1 = log_axis(min(intensities + [fma / bw]) / 2, max(intensities + [fma / bw]) * 2)
    y0, y1 = log_axis(min(r["gflops"] for r in points) / 2, fma * 1.5)
    sx = lambda v: MARGIN + (math.log10(v) - x0) / (x1 - x0) * (WIDTH - 2 * MARGIN)
    sy = lambda v: HEIGHT - MARGIN + (math.log10(v) - y0) / (y1 - y0) * -(HEIGHT - 2 * MARGIN)
    parts = [f'<rect x="{MARGIN}" y="{MARGIN}" width="{WIDTH - 2 * MARGIN}" height="{HEIGHT - 2 * MARGIN}" fill="none" stroke="#999"/>']
    for d in range(x0, x1 + 1):
        parts.append(text(sx(10**d), HEIGHT - MARGIN + 15, f"1e{d}", "middle"))
    for d in range(y0, y1 + 1):
        parts.append(text(MARGIN - 5, sy(10**d) + 4, f"1e{d}", "end"))
    ridge = fma / bw
    roof = [(10**x0, bw * 10**x0), (ridge, fma), (10**x1, fma)]
    roof = [(x, min(y, 10**y1)) for x, y in roof]
    parts.append('<polyline fill="none" stroke="#c00" stroke-width="2" points="' +
                 " ".join(f"{sx(x):.1f},{sy(max(y, 10**y0)):.1f}" for x, y in roof) + '"/>')
    parts.append(text(sx(ridge), sy(fma) - 6, f"FMA {fma:.0f} GFLOP/s, copy {bw:.0f} GB/s, ridge {ridge:.1f} FLOP/B", "middle"))
    for r, ai in zip(points, intensities):
        label = f"{r['case']} {r['variant']}: {r['gflops']:.0f} GFLOP/s at {ai:.2f} FLOP/B"
        parts.append(f'<circle cx="{sx(ai):.1f}" cy="{sy(r["gflops"]):.1f}" r="4" fill="#06c" fill-opacity="0.7"><title>{html.escape(label)}</title></circle>')
    parts.append(text(WIDTH / 2, HEIGHT - 15, "arithmetic intensity (FLOP per byte of the problem)", "middle"))
    parts.append(text(15, HEIGHT / 2, "GFLOP/s", "middle", extra=f'transform="rotate(-90 15 {HEIGHT / 2})"'))
    return svg("".join(parts))


def bars(records):
    """Fraction of the ceiling per variant, speedup over variant 0 as a label."""
    rows = [r for r in records]
    height = 30 + 18 * len(rows)
    left, right = 200, WIDTH - 140
    top = max([1.0] + [r["fraction_of_ceiling"] or 0 for r in rows])
    parts = []
    for i, r in enumerate(rows):
        y = 20 + 18 * i
        parts.append(text(left - 6, y + 12, r["variant"] + (" *" if r["baseline"] else ""), "end"))
        if r["skipped"]:
            reason = r["reason"] if len(r["reason"]) <= 60 else r["reason"][:57] + "..."
            parts.append(text(left + 4, y + 12, "skipped: " + reason, extra='fill="#888"'))
            continue
        f = r["fraction_of_ceiling"] or 0
        colour = "#c33" if not r["valid"] else ("#999" if r["baseline"] else "#06c")
        parts.append(f'<rect x="{left}" y="{y + 2}" width="{(right - left) * f / top:.1f}" height="13" fill="{colour}"/>')
        speedup = f", {r['speedup']:.2f}x" if r.get("speedup") else ""
        parts.append(text(left + (right - left) * f / top + 4, y + 12, f"{100 * f:.1f}%{speedup}"))
    x1 = left + (right - left) / top
    parts.append(f'<line x1="{x1:.1f}" y1="10" x2="{x1:.1f}" y2="{height - 5}" stroke="#c00" stroke-dasharray="4 3"/>')
    return svg("".join(parts), height=height)


def sweep(records):
    """A long ladder of sweep points as a line: rate by variant."""
    pts = [r for r in records if not r["skipped"] and not r["baseline"]]
    key = "gbps" if any(r.get("gbps") for r in pts) else "gflops"
    values = [r.get(key) or 0 for r in pts]
    if not values or max(values) <= 0:
        return ""
    sx = lambda i: MARGIN + i * (WIDTH - 2 * MARGIN) / max(1, len(pts) - 1)
    sy = lambda v: HEIGHT - MARGIN - v / max(values) * (HEIGHT - 2 * MARGIN)
    parts = ['<polyline fill="none" stroke="#06c" stroke-width="2" points="' +
             " ".join(f"{sx(i):.1f},{sy(v):.1f}" for i, v in enumerate(values)) + '"/>']
    for i, (r, v) in enumerate(zip(pts, values)):
        parts.append(f'<circle cx="{sx(i):.1f}" cy="{sy(v):.1f}" r="3" fill="#06c"><title>{html.escape(r["variant"])}: {v:.0f}</title></circle>')
        if len(pts) <= 40 or i % 4 == 0:
            parts.append(text(sx(i), HEIGHT - MARGIN + 12, r["variant"], "end", 9,
                              f'transform="rotate(-60 {sx(i):.1f} {HEIGHT - MARGIN + 12})"'))
    parts.append(text(MARGIN - 5, sy(max(values)) + 4, f"{max(values):.0f}", "end"))
    parts.append(text(MARGIN - 5, sy(0) + 4, "0", "end"))
    parts.append(text(WIDTH / 2, 15, "GB/s" if key == "gbps" else "GFLOP/s", "middle"))
    return svg("".join(parts), height=HEIGHT + 40)


def page(doc):
    d = doc["device"]
    c = d.get("ceilings") or {}
    out = [
        "<!doctype html><html><head><meta charset='utf-8'><title>ladder report</title>",
        "<style>body{font-family:sans-serif;max-width:760px;margin:2em auto}h2{margin-top:2em}</style></head><body>",
        f"<h1>ladder report: {html.escape(d['name'])}</h1>",
        f"<p>Compute capability {d['cc']}, {d['sm_count']} SMs. Measured ceilings: cudaMemcpy D2D "
        f"{c.get('memcpy_gbps', 0):.0f} GB/s, copy kernel {c.get('copy_kernel_gbps', 0):.0f} GB/s, FMA "
        f"{c.get('fma_gflops', 0):.0f} GFLOP/s, cuBLAS SGEMM {c.get('sgemm_gflops', 0):.0f} GFLOP/s (FP32). "
        f"GB/s are 10<sup>9</sup> bytes per second, read + written. Command: <code>{html.escape(doc['command'])}</code>, seed {doc['seed']}.</p>",
        "<h2>Roofline</h2>", roofline(doc),
    ]
    by_case = {}
    for r in doc["results"]:
        by_case.setdefault((r["case"], r["size"]), []).append(r)
    for (case, size), records in by_case.items():
        out.append(f"<h2>{html.escape(case)} {html.escape(size)}</h2>")
        out.append("<p>Fraction of the measured ceiling (dashed: the ceiling), with the speedup over variant 0; * marks the vendor baseline; red: failed validation.</p>")
        out.append(bars(records))
        if len(records) > 12:
            out.append("<p>The sweep:</p>")
            out.append(sweep(records))
    out.append("</body></html>")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(prog="ladder report", description="HTML report from a ladder results JSON")
    parser.add_argument("results")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    try:
        with open(args.results) as f:
            doc = json.load(f)
        content = page(doc)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"ladder: cannot make a report from {args.results}: {e}", file=sys.stderr)
        return 1
    tmp = args.output + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(content)
        os.replace(tmp, args.output)
    except OSError as e:
        print(f"ladder: cannot write {args.output}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
