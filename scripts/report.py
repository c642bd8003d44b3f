#!/usr/bin/env python3
"""ladder report: one self-contained HTML page from one results document, or two overlaid.

A roofline with each ladder drawn as a path from rung to rung in ladder order, every point named
(its rung number beside it, its name and figures on hover) under the measured ceilings (copy
bandwidth, FP32 FMA, cuBLAS SGEMM, the tensor-core rate when the run measured it); each label is
put where it covers no other. Then a section per case: the fraction of the ceiling per rung (the
ceiling that limits it: a tensor-core case's thin shapes are bound by the bandwidth), and its sweeps
(offsets, strides, sizes, occupancy levels: variants named PREFIX_N) as line plots, the transfer
sizes with their fitted line, and where the run measured energy, the work per joule per rung with
the board's average watts. A case whose rungs were all skipped is one line per reason. A case's
colour comes from its name, the same in every report. With two documents, B is drawn dashed and
hollow over A. Partial documents, contended, noisy and throttled records are marked. Hand-written
SVG and a few lines of script: the page opens offline.

Usage: report.py RESULTS.json [B.json] -o REPORT.html
"""
import argparse
import html
import math
import os
import re
import sys
import textwrap
import zlib

sys.path.insert(0, os.path.dirname(__file__))
import ladder_doc  # noqa: E402

WIDTH, HEIGHT = 900, 460
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 20, 50
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
           "#bcbd22", "#393b79", "#637939", "#843c39", "#7b4173", "#3182bd", "#e6550d"]
RUN_DASH = ["", ' stroke-dasharray="6 4"']
FLAG_COLOUR = "#f90"


def esc(s):
    return html.escape(str(s), quote=True)


def text(x, y, s, anchor="start", size=11, extra=""):
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}"{extra}>{esc(s)}</text>'


def svg(body, width=WIDTH, height=HEIGHT, extra=""):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" font-family="sans-serif" font-size="11"{extra}>{body}</svg>')


def rate_text(v, unit):
    return f"{v:.3g} {unit}" if v < 100 else f"{v:,.0f} {unit}"


def flags_text(r):
    f = ladder_doc.record_flags(r) + ([] if r["valid"] else ["FAILED validation"])
    return f" ({', '.join(f)})" if f else ""


class Axis:
    """Maps a value range onto pixels, linear or logarithmic, and draws its ticks."""

    def __init__(self, lo, hi, p0, p1, log):
        self.log = log and lo > 0
        if self.log:
            lo, hi = math.log10(lo), math.log10(hi)
        if hi <= lo:
            hi = lo + 1
        self.lo, self.hi, self.p0, self.p1 = lo, hi, p0, p1

    def __call__(self, v):
        v = math.log10(max(v, 1e-300)) if self.log else v
        return self.p0 + (v - self.lo) / (self.hi - self.lo) * (self.p1 - self.p0)

    def ticks(self, fmt, base=10):
        if self.log and base == 2:
            a, b = math.ceil(self.lo / math.log10(2)), math.floor(self.hi / math.log10(2))
            step = 2 * max(1, (b - a) // 16)
            return [(2 ** e, fmt(2 ** e)) for e in range(a, b + 1) if (e - a) % step == 0]
        if self.log:
            a, b = math.floor(self.lo), math.ceil(self.hi)
            step = max(1, (b - a) // 8)
            return [(10 ** d, fmt(10 ** d)) for d in range(a, b + 1, step) if self.lo - 1e-9 <= d <= self.hi + 1e-9]
        span = self.hi - self.lo
        step = 10 ** math.floor(math.log10(span / 5)) if span > 0 else 1
        for m in (1, 2, 5, 10):
            if span / (step * m) <= 8:
                step *= m
                break
        first = math.ceil(self.lo / step) * step
        return [(first + i * step, fmt(first + i * step)) for i in range(int((self.hi - first) / step + 1e-9) + 1)]


def si(v):
    for div, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= div:
            return f"{v / div:g}{suffix}"
    return f"{v:g}"


def frame(x, y, xlabel, ylabel, xfmt=si, yfmt=si, width=WIDTH, height=HEIGHT, xbase=10):
    parts = [f'<rect x="{LEFT}" y="{TOP}" width="{width - LEFT - RIGHT}" height="{height - TOP - BOTTOM}" '
             f'fill="none" stroke="#999"/>']
    for v, label in x.ticks(xfmt, xbase):
        parts.append(f'<line x1="{x(v):.1f}" y1="{TOP}" x2="{x(v):.1f}" y2="{height - BOTTOM}" stroke="#eee"/>')
        parts.append(text(x(v), height - BOTTOM + 14, label, "middle"))
    for v, label in y.ticks(yfmt):
        parts.append(f'<line x1="{LEFT}" y1="{y(v):.1f}" x2="{width - RIGHT}" y2="{y(v):.1f}" stroke="#eee"/>')
        parts.append(text(LEFT - 5, y(v) + 4, label, "end"))
    parts.append(text((LEFT + width - RIGHT) / 2, height - 12, xlabel, "middle"))
    parts.append(text(14, (TOP + height - BOTTOM) / 2, ylabel, "middle",
                      extra=f' transform="rotate(-90 14 {(TOP + height - BOTTOM) / 2:.1f})"'))
    return parts


def vendor(r):
    """A vendor library's record: the baseline, or a reference beside it (another precision or layout)."""
    return r["baseline"] or bool(r.get("reference"))


def vendor_mark(r):
    return " *" if r["baseline"] else (" +" if r.get("reference") else "")


def rung_number(r):
    """A rung's place in its ladder; a kernel put on the ladder by `ladder try` has none (index -1): "you"."""
    return "you" if r.get("user") else str(r["index"])


# ---------------- the roofline ----------------

def roofline_points(doc):
    """The records a roofline can place: ran, checked, with both bytes and flops."""
    return [r for r in doc["results"] if not r["skipped"] and r["valid"] and (r.get("flops") or 0) > 0
            and (r.get("bytes") or 0) > 0 and (r.get("gflops") or 0) > 0]


def roof_ceilings(doc):
    """(name, GFLOP/s) of every flat roof the run measured, and its bandwidth."""
    c = doc["device"].get("ceilings") or {}
    d = doc["device"]
    flat = [("FP32 FMA", c.get("fma_gflops")), ("cuBLAS SGEMM", c.get("sgemm_gflops")),
            ("BF16 tensor", c.get("tensor_bf16_gflops") or d.get("tensor_bf16_gflops")),
            ("cuBLAS BF16", c.get("cublas_bf16_gflops") or d.get("cublas_bf16_gflops"))]
    return [(n, v) for n, v in flat if ladder_doc.finite(v) and v > 0], c.get("bandwidth_gbps")


class Occupied:
    """What the roofline already covers, as boxes (x0, y0, x1, y1) in pixels, so that each label goes
    where it covers nothing. Every rung of a ladder has the problem's intensity, so a ladder's points
    stand in one column; two runs' ceilings lie a few pixels apart: labels put at a fixed offset print
    over each other there. The boxes are filed in a grid of cells, so that a new box is checked
    against its neighbours only."""

    CELL = 32

    def __init__(self, x0, y0, x1, y1):
        self.bounds = (x0, y0, x1, y1)
        self.boxes, self.cells = [], {}

    def _cells(self, box):
        i0, j0, i1, j1 = (int(v // self.CELL) for v in box)
        return [(i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)]

    def cover(self, boxes):
        """How much of what is there the boxes would cover, in square pixels; infinite outside the plot."""
        x0, y0, x1, y1 = self.bounds
        total = 0.0
        for box in boxes:
            if box[0] < x0 or box[1] < y0 or box[2] > x1 or box[3] > y1:
                return math.inf
            near = {i for cell in self._cells(box) for i in self.cells.get(cell, ())}
            for i in near:
                other = self.boxes[i]
                total += (max(0.0, min(box[2], other[2]) - max(box[0], other[0])) *
                          max(0.0, min(box[3], other[3]) - max(box[1], other[1])))
        return total

    def add(self, boxes):
        for box in boxes:
            self.boxes.append(box)
            for cell in self._cells(box):
                self.cells.setdefault(cell, []).append(len(self.boxes) - 1)

    def place(self, candidates):
        """The first of the candidates ((boxes, where) pairs, the preferred first) that covers nothing,
        else the one that covers least; its boxes are taken. Returns its `where`."""
        best, least = None, math.inf
        for boxes, where in candidates:
            covered = self.cover(boxes)
            if best is None or covered < least:
                best, least = (boxes, where), covered
            if covered == 0:
                break
        self.add(best[0])
        return best[1]


def text_width(s, size):
    """A line of sans-serif text's width, near enough (digits and most letters are 0.56 em wide)."""
    return size * sum(0.28 if c in " ,.:;/ijl" else 0.67 if c.isupper() else 0.56 for c in str(s))


def text_box(x, y, s, size, anchor="start"):
    """The box a line of text covers."""
    width = text_width(s, size)
    x0 = x - width if anchor == "end" else x
    return (x0 - 1, y - 0.8 * size, x0 + width + 1, y + 0.25 * size)


def line_boxes(p, q, step=6):
    """A line from p to q as a row of small boxes, so that labels keep off it."""
    n = max(1, int(math.dist(p, q) / step))
    return [(p[0] + (q[0] - p[0]) * i / n - 1, p[1] + (q[1] - p[1]) * i / n - 1,
             p[0] + (q[0] - p[0]) * i / n + 1, p[1] + (q[1] - p[1]) * i / n + 1) for i in range(n + 1)]


def flat_label_candidates(right, roof_y, label):
    """Where a flat roof's name may go: ending just left of where the roof starts (left of the ridge,
    above the bandwidth roof, the plot is empty), above the roof's line; else below it, moved left
    until it clears the bandwidth roof (a higher roof's name, a few pixels up, takes the space above);
    else further up or down."""
    offsets = ([(0, -3)] + [(dx, 12) for dx in (0, 20, 40, 60, 80, 120)] +
               [(dx, dy) for dy in (-14, 23, -25) for dx in (0, 40, 80, 160)])
    for dx, dy in offsets:
        yield [text_box(right - dx, roof_y + dy, label, 10, "end")], (right - dx, roof_y + dy)


def slope_label_candidates(p0, p1, label, size=10):
    """Where the bandwidth roof's name may go: along the roof, just above it, from the ridge down,
    else just below it. Its boxes are squares along the text, which is turned to the roof's angle."""
    length = math.dist(p0, p1)
    ux, uy = (p1[0] - p0[0]) / length, (p1[1] - p0[1]) / length
    nx, ny = uy, -ux  # the text's "up"
    width = text_width(label, size)
    for offset in (3, -(size + 2)):
        for s in range(max(0, int(length - width - 8)), -1, -8):
            tx, ty = p0[0] + ux * s + nx * offset, p0[1] + uy * s + ny * offset
            boxes = []
            for t in range(0, int(width) + 1, 5):
                cx, cy = tx + ux * t + nx * 0.35 * size, ty + uy * t + ny * 0.35 * size
                boxes.append((cx - 0.45 * size, cy - 0.45 * size, cx + 0.45 * size, cy + 0.45 * size))
            yield boxes, (tx, ty)


def rung_clusters(points):
    """The rung numbers of one case in one run, one label per spot: points (px, py, index) that stand in
    one column within a label's height of each other share a label, "5,6,8", each number once (the
    ladder's sizes share their rung numbers: sgemm 4096's rung 5 and 4095's sit on one spot).
    Returns (px, py, label) with py the middle of the points labelled."""
    columns = []
    for p in sorted(points):
        if columns and p[0] - columns[-1][0][0] < 3:
            columns[-1].append(p)
        else:
            columns.append([p])
    out = []
    for column in columns:
        group = []
        for p in sorted(column, key=lambda p: p[1]):
            if group and p[1] - group[0][1] >= 9:
                out.append(group)
                group = []
            group.append(p)
        out.append(group)
    return [(g[0][0], sum(p[1] for p in g) / len(g), index_list({p[2] for p in g})) for g in out]


def index_list(indices):
    """Rung numbers as short as they read: 1,2,5-9."""
    runs = []
    for i in sorted(indices):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ",".join(f"{a}-{b}" if b - a >= 2 else ",".join(map(str, range(a, b + 1))) for a, b in runs)


def rung_label_candidates(px, py, label, sides):
    """Where a rung number may go: beside its point on the run's side first (A right, B left, so that an
    overlay's two columns keep apart), nudged up or down, then on the other side, then further out."""
    for dx in (6, 18, 30):
        for dy in (0, -6, 6, -12, 12, -18, 18):
            for anchor in sides:
                tx = px + dx if anchor == "start" else px - dx
                yield [text_box(tx, py + 3 + dy, label, 9, anchor)], (tx, py + 3 + dy, anchor)


def roofline(runs):
    all_points = [(k, r) for k, (_, doc) in enumerate(runs) for r in roofline_points(doc)]
    roofs = [roof_ceilings(doc) for _, doc in runs]
    if not all_points:
        return "<p>No rung with both bytes and flops: no roofline.</p>"
    ai = [r["flops"] / r["bytes"] for _, r in all_points]
    rates = [r["gflops"] for _, r in all_points]
    for flat, bw in roofs:
        for _, v in flat:
            rates.append(v)
            if ladder_doc.finite(bw) and bw > 0:
                ai.append(v / bw)
    x = Axis(min(ai) / 2, max(ai) * 2, LEFT, WIDTH - RIGHT, True)
    y = Axis(min(rates) / 2, max(rates) * 2, HEIGHT - BOTTOM, TOP, True)
    parts = frame(x, y, "arithmetic intensity (FLOP per byte the problem must move)", "GFLOP/s", yfmt=si)
    parts.append(f'<clipPath id="plot"><rect x="{LEFT}" y="{TOP}" width="{WIDTH - LEFT - RIGHT}" '
                 f'height="{HEIGHT - TOP - BOTTOM}"/></clipPath>')
    plot = Occupied(LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM)
    for _, r in all_points:
        px, py = x(r["flops"] / r["bytes"]), y(r["gflops"])
        plot.add([(px - 5, py - 5, px + 5, py + 5)])
    xs0, xs1 = 10 ** x.lo, 10 ** x.hi
    # The ceilings' lines first, so that every name, placed after, keeps off all of them.
    flat_names, slope_names = {}, []
    for k, (flat, bw) in enumerate(roofs):
        who = f"{tag(runs, k)}: " if len(runs) > 1 else ""
        if ladder_doc.finite(bw) and bw > 0:
            top = max(v for _, v in flat) if flat else bw * xs1
            p0, p1 = (x(xs0), y(bw * xs0)), (x(top / bw), y(top))
            parts.append(f'<line class="ceiling" x1="{p0[0]:.1f}" y1="{p0[1]:.1f}" x2="{p1[0]:.1f}" '
                         f'y2="{p1[1]:.1f}" stroke="#c00" stroke-width="1.5" clip-path="url(#plot)"{RUN_DASH[k]}>'
                         f'<title>{esc(who)}copy bandwidth {bw:,.0f} GB/s</title></line>')
            plot.add(line_boxes(p0, p1))
            slope_names.append((p0, p1, f"{who}bandwidth {bw:,.0f} GB/s"))
        for name, v in flat:
            start = v / bw if ladder_doc.finite(bw) and bw > 0 else xs0
            parts.append(f'<line class="ceiling" x1="{x(start):.1f}" y1="{y(v):.1f}" x2="{x(xs1):.1f}" y2="{y(v):.1f}" '
                         f'stroke="#c00" stroke-width="1.5"{RUN_DASH[k]} clip-path="url(#plot)">'
                         f'<title>{esc(who)}{esc(name)} {v:,.0f} GFLOP/s</title></line>')
            plot.add(line_boxes((x(start), y(v)), (x(xs1), y(v))))
            flat_names.setdefault(name, []).append((y(v), x(start) - 5, tag(runs, k), v))
    # Two runs' roofs of one name lie a few pixels apart: one label names both values, over the higher
    # and left of where the first starts. The highest roof's name is placed first, so that it takes the
    # space above its roof.
    for name, roofs_named in sorted(flat_names.items(), key=lambda item: min(item[1])):
        roof_y, right = min(y for y, _, _, _ in roofs_named), min(r for _, r, _, _ in roofs_named)
        if len(roofs_named) > 1:
            label = f"{name}: " + " / ".join(f"{who} {v:,.0f}" for _, _, who, v in roofs_named) + " GFLOP/s"
        else:
            _, _, who, v = roofs_named[0]
            label = (f"{who}: " if len(runs) > 1 else "") + f"{name} {v:,.0f} GFLOP/s"
        tx, ty = plot.place(flat_label_candidates(right, roof_y, label))
        parts.append(text(tx, ty, label, "end", 10, ' fill="#c00"'))
    for p0, p1, label in slope_names:
        tx, ty = plot.place(slope_label_candidates(p0, p1, label))
        angle = math.degrees(math.atan2(p1[1] - p0[1], p1[0] - p0[0]))
        parts.append(text(tx, ty, label, size=10,
                          extra=f' fill="#c00" transform="rotate({angle:.1f} {tx:.1f} {ty:.1f})"'))
    for k, (_, doc) in enumerate(runs):
        ladders = {}
        for r in roofline_points(doc):
            ladders.setdefault((r["case"], r["size"]), []).append(r)
        for (case, size), rs in ladders.items():
            colour = case_colour(case)
            rs = sorted(rs, key=lambda r: r["index"])
            # The path climbs the ladder's own rungs; the vendor's and a tried kernel are points beside it.
            climb = [r for r in rs if not vendor(r) and not r.get("user")]
            group = [f'<g class="ladder" data-case="{esc(case)}" data-run="{k}">']
            if len(climb) > 1:
                group.append(f'<polyline fill="none" stroke="{colour}" stroke-opacity="0.6" stroke-width="1.2"'
                             f'{RUN_DASH[k]} points="' +
                             " ".join(f"{x(r['flops'] / r['bytes']):.1f},{y(r['gflops']):.1f}" for r in climb) + '"/>')
            for r in rs:
                px, py = x(r["flops"] / r["bytes"]), y(r["gflops"])
                run_name = f"{tag(runs, k)} ({runs[k][1]['device']['name']}): " if len(runs) > 1 else ""
                title = (f"{run_name}{case} {size} #{rung_number(r)} {r['variant']}{' (baseline)' if r['baseline'] else ''}: "
                         f"{r['gflops']:,.0f} GFLOP/s at {r['flops'] / r['bytes']:.3g} FLOP/B{flags_text(r)}")
                stroke = FLAG_COLOUR if ladder_doc.record_flags(r) else colour
                fill = "white" if k else colour
                shape = (f'<rect x="{px - 4:.1f}" y="{py - 4:.1f}" width="8" height="8"' if vendor(r) else
                         f'<circle cx="{px:.1f}" cy="{py:.1f}" r="4"')
                group.append(f'{shape} class="pt" fill="{fill}" stroke="{stroke}" stroke-width="1.5">'
                             f'<title>{esc(title)}</title>{"</rect>" if vendor(r) else "</circle>"}')
            group.append("</g>")
            parts.append("".join(group))
    # The rung numbers last, over the points and lines, the longest first (the hardest to fit), each
    # case's in its own group (the legend hides it).
    sides = [("start", "end"), ("end", "start")]
    labels = []
    for k, (_, doc) in enumerate(runs):
        by_case = {}
        for r in roofline_points(doc):
            if r.get("user"):
                labels.append((k, r["case"], (x(r["flops"] / r["bytes"]), y(r["gflops"]), "you")))
            else:
                by_case.setdefault(r["case"], []).append((x(r["flops"] / r["bytes"]), y(r["gflops"]), r["index"]))
        labels += [(k, case, cluster) for case, points in by_case.items() for cluster in rung_clusters(points)]
    groups = {}
    for k, case, (px, py, label) in sorted(labels, key=lambda item: -len(item[2][2])):
        tx, ty, anchor = plot.place(rung_label_candidates(px, py, label, sides[k]))
        groups.setdefault((k, case), []).append(text(tx, ty, label, anchor, 9, f' fill="{case_colour(case)}"'))
    for (k, case), group in groups.items():
        parts.append(f'<g class="ladder rungs" data-case="{esc(case)}" data-run="{k}">' + "".join(group) + "</g>")
    return svg("".join(parts), extra=' id="roofline-svg"')


def tag(runs, k):
    """How the page names a run when there are two: A, B."""
    return "AB"[k]


def row_prefix(runs, k):
    """A row's prefix that says which run it is, when there are two."""
    return f"[{tag(runs, k)}] " if len(runs) > 1 else ""


# Each case keeps its colour from one report to the next and in both runs of an overlay: looked up by
# the case's name, never by its place in the document. The cases that share the roofline have colours
# far apart (and none red, the ceilings' colour); a case not in the table gets one from its name.
CASE_COLOURS = {"sgemm": "#ff7f0e", "hgemm": "#2ca02c", "attention": "#9467bd", "gemv": "#8c564b",
                "gemv_t": "#e377c2", "spmv": "#17becf", "reduce": "#7f7f7f", "ado": "#bcbd22", "transfer": "#1f77b4",
                "instr": "#393b79", "blur": "#e6550d", "transpose": "#637939", "coalescing": "#3182bd",
                "smem": "#843c39", "smem_banks": "#7b4173", "texture": "#31a354", "occupancy": "#756bb1",
                "p2p": "#a55194", "allreduce": "#6baed6"}


def case_colour(case):
    return CASE_COLOURS.get(case) or PALETTE[zlib.crc32(case.encode()) % len(PALETTE)]


def legend(cases):
    items = "".join(f'<button type="button" class="legend" data-case="{esc(c)}" style="border-color:{case_colour(c)}">'
                    f'<span style="background:{case_colour(c)}"></span>{esc(c)}</button>' for c in cases)
    return f'<p class="legend-row">{items} <small>(click a case to hide or show its path)</small></p>'


# ---------------- sweeps: variants named PREFIX_N[UNIT][_SUFFIX] ----------------

SERIES = re.compile(r"^(?P<pre>[A-Za-z0-9_]*?)_(?P<num>\d+)(?P<unit>B|KiB|MiB|GiB)?(?P<post>(_[A-Za-z_]+)?)$")
UNITS = {None: 1, "B": 1, "KiB": 2 ** 10, "MiB": 2 ** 20, "GiB": 2 ** 30}


def series_of(records):
    """name -> [(x, record)] for every run of at least three rungs that differ by one number."""
    out = {}
    for r in records:
        m = SERIES.match(r["variant"])
        if m and not vendor(r):
            # B, KiB, MiB and GiB rungs are one series of byte counts (allreduce's 8B to 1GiB).
            name = m["pre"] + ("_SIZE" if m["unit"] else "_N") + m["post"]
            out.setdefault(name, []).append((int(m["num"]) * UNITS[m["unit"]], r))
    return {k: sorted(v, key=lambda p: p[0]) for k, v in out.items() if len(v) >= 3}


def metric(records):
    ran = [r for r in records if not r["skipped"]]
    if ran and all((r.get("gbps") or 0) > 0 for r in ran):
        return "gbps", "GB/s", lambda r: r["gbps"]
    if ran and all((r.get("gflops") or 0) > 0 for r in ran):
        return "gflops", "GFLOP/s", lambda r: r["gflops"]
    return "time", "median time (µs), lower is faster", lambda r: r["median_ms"] * 1e3


def fitted(doc, case, size, name):
    """The transfer fit of a series (latency + bytes / bandwidth), when the run derived one."""
    prefix = re.split(r"_N|_SIZE", name, maxsplit=1)[0]
    got = {s["name"]: s["value"] for s in doc.get("summaries", [])
           if s.get("case") == case and s.get("size") == size and isinstance(s.get("name"), str)}
    lat, bw = got.get(prefix + "_latency_us"), got.get(prefix + "_bandwidth_gbps")
    return (lat, bw) if ladder_doc.finite(lat) and ladder_doc.finite(bw) and bw > 0 else None


def sweep_charts(case, size, runs_records, runs):
    """One line plot per family of series that share their x values, both runs overlaid."""
    families = {}
    for k, records in enumerate(runs_records):
        for name, pts in series_of(records).items():
            unit = "bytes" if "_SIZE" in name else ""
            post = re.split(r"_N|_SIZE", name, maxsplit=1)[1]
            key = (unit, post, tuple(p[0] for p in pts))
            families.setdefault(key, {}).setdefault(name, {})[k] = pts
    charts = []
    for (unit, post, xs), members in families.items():
        all_records = [r for m in members.values() for pts in m.values() for _, r in pts]
        key, ylabel, value = metric(all_records)
        ran = [(xv, r) for m in members.values() for pts in m.values() for xv, r in pts if not r["skipped"]]
        if not ran:
            continue
        vals = [value(r) for _, r in ran]
        log_x = min(xs) > 0 and max(xs) / min(xs) >= 64
        h = 320
        xa = Axis(min(xs), max(xs), LEFT, WIDTH - RIGHT - 170, log_x)
        ya = Axis(0, max(vals) * 1.08, h - BOTTOM, TOP, False)
        xfmt = (lambda v: byte_text(v)) if unit else si
        names = " / ".join(members)
        xlabel = ("copy size" if unit else names.replace("_N", " N")) + (" (log scale)" if log_x else "")
        parts = frame(xa, ya, xlabel, ylabel, xfmt=xfmt, height=h, xbase=2 if unit else 10)
        clip = f"clip{len(charts)}-{abs(hash((case, size, xs))) % 10**8}"
        parts.append(f'<clipPath id="{clip}"><rect x="{LEFT}" y="{TOP}" width="{WIDTH - LEFT - RIGHT}" '
                     f'height="{h - TOP - BOTTOM}"/></clipPath>')
        fits = []
        ly = TOP + 10
        for i, (name, by_run) in enumerate(members.items()):
            colour = PALETTE[i % len(PALETTE)]
            for k, pts in by_run.items():
                pts = [(xv, r) for xv, r in pts if not r["skipped"]]
                who = f" [{tag(runs, k)}]" if len(runs) > 1 else ""
                parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.8"{RUN_DASH[k]} points="' +
                             " ".join(f"{xa(xv):.1f},{ya(value(r)):.1f}" for xv, r in pts) + '"/>')
                for xv, r in pts:
                    stroke = FLAG_COLOUR if ladder_doc.record_flags(r) else colour
                    v = value(r)
                    shown = f"{v:.3g} µs" if key == "time" else rate_text(v, ylabel)
                    parts.append(f'<circle class="sweep-pt" cx="{xa(xv):.1f}" cy="{ya(v):.1f}" r="3" '
                                 f'fill="{"white" if k else colour}" stroke="{stroke}" stroke-width="1.3">'
                                 f'<title>{esc(r["variant"])}{esc(who)}: {esc(shown)}{esc(flags_text(r))}</title></circle>')
                fit = fitted(runs[k][1], case, size, name) if unit and key == "gbps" else None
                if fit:
                    lat, bw = fit
                    samples = [min(xs) * (max(xs) / min(xs)) ** (j / 60) for j in range(61)]
                    curve = [(b, b / (lat * 1e-6 + b / (bw * 1e9)) / 1e9) for b in samples]
                    fits.append(f"{name.replace('_SIZE', '')}{who}: {lat:.1f} µs + bytes / {bw:.1f} GB/s")
                    parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1" stroke-dasharray="2 3" '
                                 f'clip-path="url(#{clip})" points="' + " ".join(f"{xa(b):.1f},{ya(g):.1f}" for b, g in curve) + '">'
                                 f'<title>fit: {lat:.2f} µs + bytes / {bw:.1f} GB/s</title></polyline>')
                label = name.replace("_SIZE", "_size") + who
                parts.append(f'<line x1="{WIDTH - RIGHT - 160}" y1="{ly - 4}" x2="{WIDTH - RIGHT - 140}" y2="{ly - 4}" '
                             f'stroke="{colour}" stroke-width="2"{RUN_DASH[k]}/>')
                short = label if len(label) < 34 else label[:33] + "…"
                parts.append(f'<text x="{WIDTH - RIGHT - 136}" y="{ly}" font-size="10"><title>{esc(label)}</title>'
                             f'{esc(short)}</text>')
                ly += 14
        charts.append(svg("".join(parts), height=h, extra=' class="sweep"'))
        if fits:
            charts.append("<p class='fit'><small>Dotted: time = latency + bytes / bandwidth, fitted by the run "
                          "(each size weighted by how tightly it was measured): " + esc("; ".join(fits)) + ".</small></p>")
    return charts


def byte_text(v):
    for div, suffix in ((2 ** 30, "GiB"), (2 ** 20, "MiB"), (2 ** 10, "KiB")):
        if v >= div:
            return f"{v / div:g} {suffix}"
    return f"{v:g} B"


# ---------------- a ladder's bars ----------------

BAR_LEFT, BAR_RIGHT = 230, WIDTH - 230
NOTE_CHARS = 100  # what fits on a row right of the rungs' names at 11 px


def note(y, s):
    """A grey note on a chart's row (a skip reason, why a rung has no energy), wrapped onto as many lines
    as it needs, never cut: (svg, lines)."""
    lines = textwrap.wrap(s, NOTE_CHARS) or [""]
    spans = "".join(f'<tspan x="{BAR_LEFT + 4}" dy="{16 if i else 0}">{esc(line)}</tspan>' for i, line in enumerate(lines))
    return f'<text x="{BAR_LEFT + 4}" y="{y + 12}" font-size="11" fill="#888">{spans}</text>', len(lines)


def rung_rows(records_by_run, runs, row):
    """The rows of a chart with one row per rung (and per run when there are two): each rung's number and
    name on the left, then what row(r, k, y) draws for run k's record at y, as (svg, lines).
    Returns (svg parts, height)."""
    lookup = [{r["variant"]: r for r in records} for records in records_by_run]
    parts, y = [], 10
    for name in dict.fromkeys(r["variant"] for records in records_by_run for r in records):
        any_r = next(lk[name] for lk in lookup if name in lk)
        parts.append(text(BAR_LEFT - 6, y + 12, f"{rung_number(any_r)}  {name}" + vendor_mark(any_r), "end"))
        for k, lk in enumerate(lookup):
            body, lines = row(lk[name], k, y) if name in lk else note(y, row_prefix(runs, k) + "not in this run")
            parts.append(body)
            y += 16 * lines
        y += 4
    return parts, y + 10


def bars(records_by_run, runs):
    """Fraction of the ceiling per rung (both runs when there are two), the speedup as a label."""
    # Rungs without bytes or flops (bank conflicts, instruction forms) have no fraction of a ceiling:
    # their bars are the speedup over the first rung instead.
    by_fraction = has_fractions([r for records in records_by_run for r in records])

    def value(r):
        return (ladder_doc.limiter(r)[0] if by_fraction else r.get("speedup")) or 0

    # The scale is the case's own precision's. A rung or reference at another precision (cuBLAS TF32
    # beside sgemm's FP32 ladder, at 6 times the FP32 rate) would squeeze the ladder into the chart's
    # left tenth: its bar is cut at the edge instead, and its label gives its value.
    top = max([1.0] + [value(r) for records in records_by_run for r in records
                       if not r["skipped"] and not r.get("precision")])
    span = BAR_RIGHT - BAR_LEFT

    def row(r, k, y):
        if r["skipped"]:
            return note(y, f"{row_prefix(runs, k)}skipped: {r.get('reason') or 'no reason given'}")
        f = value(r)
        colour = "#c33" if not r["valid"] else ("#999" if vendor(r) else "#1f77b4")
        flagged = ladder_doc.record_flags(r)
        stroke = f' stroke="{FLAG_COLOUR}" stroke-width="2"' if flagged else ""
        opacity = ' fill-opacity="0.45"' if k else ""
        w = span * min(f, top) / top
        title = f"{row_prefix(runs, k)}{r['variant']}: {time_label(r)}{flags_text(r)}"
        out = [f'<rect class="bar" x="{BAR_LEFT}" y="{y + 2}" width="{w:.1f}" height="12" fill="{colour}"'
               f'{opacity}{stroke}><title>{esc(title)}</title></rect>']
        speedup = f", {r['speedup']:.2f}×" if ladder_doc.finite(r.get("speedup")) else ""
        if by_fraction:
            name = ladder_doc.limiter(r)[1]
            shown = f"{100 * f:.1f}%" + (f" ({name})" if name else "") + speedup
        else:
            shown = f"{f:.2f}× the first rung"
        out.append(text(BAR_LEFT + w + 4, y + 12, f"{row_prefix(runs, k)}{shown}{flags_text(r)}",
                        extra=f' fill="{FLAG_COLOUR}"' if flagged else ""))
        if f <= top:
            return "".join(out), 1
        out.append(f'<path class="cut" d="M{BAR_LEFT + w - 14:.1f},{y + 15} l5,-14 M{BAR_LEFT + w - 8:.1f},{y + 15} '
                   f'l5,-14" stroke="white" stroke-width="2"/>')
        why, lines = note(y + 16, f"{r.get('precision')}, off the scale: the chart's scale is the case's own precision's")
        return "".join(out) + why, 1 + lines

    parts, height = rung_rows(records_by_run, runs, row)
    x1 = BAR_LEFT + span / top
    if not by_fraction:
        parts.append(text(x1, height - 2, "1× (the first rung)", "middle", 9, ' fill="#c00"'))
    parts.append(f'<line x1="{x1:.1f}" y1="5" x2="{x1:.1f}" y2="{height - 5}" stroke="#c00" stroke-dasharray="4 3"/>')
    return svg("".join(parts), height=height, extra=' class="bars"')


def has_fractions(records):
    return any(ladder_doc.finite(r.get("fraction_of_ceiling")) and r["fraction_of_ceiling"] > 0 for r in records)


def bars_legend(records):
    """What a case's bar charts show, said once above the first, with only the marks its records use."""
    if has_fractions(records):
        said = ["Fraction of the measured ceiling (dashed line) per rung, with the speedup over the first rung."]
    else:
        said = ["Speedup over the first rung (dashed at 1×): these rungs have no bytes or flops to set against a ceiling."]
    if any(ladder_doc.limiter(r)[1] for r in records):
        said.append("A tensor-core rung may be bound by the tensor rate or by the bandwidth (a thin shape reads the "
                    "matrix at a fraction of a percent of the tensor rate): the bar is the higher fraction, named.")
    said.append("* marks the vendor baseline" + ("; + a vendor reference beside it (another precision or layout)"
                                                 if any(r.get("reference") for r in records) else "") + ".")
    if any(r.get("precision") for r in records):
        said.append("A rung or reference at another precision than the case's does not set the scale: its bar is cut "
                    "at the edge, and its label gives its value.")
    said.append("Red: failed validation; orange outline: contended, noisy or throttled.")
    return f"<p>{esc(' '.join(said))}</p>"


def per_joule_key(records):
    """Work per joule in the unit of the case's ceiling: GB/J for a bandwidth-bound case, GFLOP/J otherwise."""
    ceiling = next((r.get("ceiling") for r in records if r.get("ceiling")), "")
    return ("gb_per_j", "GB/J") if ceiling == "bandwidth_gbps" else ("gflop_per_j", "GFLOP/J")


def has_energy(records):
    return any(ladder_doc.finite(r.get("energy_j")) for r in records)


def energy_bars(records_by_run, runs):
    """Work per joule per rung (both runs when there are two), the board's average watts as a label;
    a rung without energy says why."""
    key, unit = per_joule_key([r for records in records_by_run for r in records])
    top = max([r.get(key) or 0 for records in records_by_run for r in records if ladder_doc.finite(r.get(key))] + [1e-30])

    def row(r, k, y):
        value = r.get(key)
        if not ladder_doc.finite(value):
            return note(y, row_prefix(runs, k) + ("skipped" if r["skipped"] else (r.get("energy_reason") or "no energy")))
        w = (BAR_RIGHT - BAR_LEFT) * value / top
        colour = "#999" if vendor(r) else "#2ca02c"
        opacity = ' fill-opacity="0.45"' if k else ""
        label = row_prefix(runs, k) + f"{value:.3g} {unit}, {r['power_w']:.0f} W, {r['energy_j']:.3g} J a run"
        return (f'<rect class="energy-bar" x="{BAR_LEFT}" y="{y + 2}" width="{w:.1f}" height="12" fill="{colour}"'
                f'{opacity}><title>{esc(row_prefix(runs, k) + r["variant"])}: {esc(label)}</title></rect>' +
                text(BAR_LEFT + w + 4, y + 12, label)), 1

    parts, height = rung_rows(records_by_run, runs, row)
    return svg("".join(parts), height=height, extra=' class="energy"')


def time_label(r):
    ms = r["median_ms"]
    t = f"{ms * 1e3:.1f} µs" if ms < 1 else f"{ms:.3f} ms" if ms < 1e3 else f"{ms / 1e3:.2f} s"
    return f"median {t}, spread {100 * (r.get('rel_spread') or 0):.1f}%"


# ---------------- the page ----------------

def run_header(label, path, doc):
    d = doc["device"]
    c = d.get("ceilings") or {}
    facts = []
    for name, key, unit in (("cudaMemcpy D2D", "memcpy_gbps", "GB/s"), ("copy kernel", "copy_kernel_gbps", "GB/s"),
                            ("FMA", "fma_gflops", "GFLOP/s"), ("cuBLAS SGEMM (FP32)", "sgemm_gflops", "GFLOP/s"),
                            ("BF16 tensor", "tensor_bf16_gflops", "GFLOP/s"), ("cuBLAS BF16", "cublas_bf16_gflops", "GFLOP/s")):
        v = c.get(key, d.get(key))
        if ladder_doc.finite(v):
            facts.append(f"{name} {v:,.0f} {unit}")
    peaks = [f"{name} {d[key]:,.0f} {unit}" for name, key, unit in (
        ("DRAM", "peak_dram_gbps", "GB/s"), ("FP32", "peak_fp32_gflops", "GFLOP/s"),
        ("TF32 tensor", "peak_tf32_tensor_gflops", "GFLOP/s"), ("BF16 tensor", "peak_bf16_tensor_gflops", "GFLOP/s"))
        if ladder_doc.finite(d.get(key))]
    bits = [f"<b>{esc(label)}</b> <code>{esc(path)}</code>: {esc(d['name'])}"]
    if d.get("cc"):
        bits.append(f", compute capability {esc(d['cc'])}, {esc(d.get('sm_count', '?'))} SMs")
    if isinstance(doc.get("date"), str):
        bits.append(f", {esc(doc['date'])}")
    bits.append(". ")
    if facts:
        bits.append("Measured ceilings: " + esc(", ".join(facts)) + ". ")
    if peaks:
        bits.append("Theoretical: " + esc(", ".join(peaks)) + ". ")
    if ladder_doc.finite(d.get("idle_power_w")):
        bits.append(f"Board power limit {d.get('power_limit_w') or 0:,.0f} W, idle {d['idle_power_w']:,.0f} W before "
                    f"the first case. ")
    elif d.get("energy_note"):
        bits.append(f"No energy figures: {esc(d['energy_note'])}. ")
    if isinstance(doc.get("command"), str):
        bits.append(f"Command: <code>{esc(doc['command'])}</code>" +
                    (f", seed {esc(doc['seed'])}" if "seed" in doc else "") + ".")
    out = [f"<p class='run'>{''.join(bits)}</p>"]
    if ladder_doc.is_partial(doc):
        out.append(f"<p class='partial'>⚠ {esc(os.path.basename(path))} is {esc(ladder_doc.partial_text(doc))}.</p>")
    contention = ladder_doc.contention_text(doc)
    if contention:
        out.append(f"<p class='warn'>⚠ {esc(contention)}</p>")
    flagged = [r for r in doc["results"] if ladder_doc.record_flags(r)]
    if flagged:
        kinds = sorted({f for r in flagged for f in ladder_doc.record_flags(r)})
        out.append(f"<p class='warn'>⚠ {len(flagged)} record(s) flagged ({esc(', '.join(kinds))}): drawn with an "
                   f"orange outline; their medians are not to be trusted as they are.</p>")
    return "".join(out)


SCRIPT = """
document.querySelectorAll('button.legend').forEach(function (b) {
  b.addEventListener('click', function () {
    var hide = !b.classList.contains('off');
    b.classList.toggle('off', hide);
    document.querySelectorAll('#roofline-svg g.ladder').forEach(function (g) {
      if (g.getAttribute('data-case') === b.getAttribute('data-case')) g.style.display = hide ? 'none' : '';
    });
  });
});
document.documentElement.setAttribute('data-script', 'ran');
"""

STYLE = """body{font-family:sans-serif;max-width:940px;margin:1.5em auto;padding:0 1em;color:#222}
h2{margin-top:2em;border-bottom:1px solid #ddd}svg{max-width:100%;height:auto}
.partial,.warn{background:#fff3e0;border-left:4px solid #f90;padding:.4em .8em}
button.legend{border:2px solid;background:#fff;margin:2px;padding:1px 6px;border-radius:4px;cursor:pointer}
button.legend span{display:inline-block;width:9px;height:9px;margin-right:4px;border-radius:50%}
button.legend.off{opacity:.35}code{font-size:90%}small,.skipped{color:#666}"""


def skipped_lines(records_by_run, runs):
    """Records of which none ran, as one line per run and reason instead of a row each: on a one-GPU run,
    allreduce's rungs all say "needs two GPUs", at every size."""
    out = []
    for k, records in enumerate(records_by_run):
        reasons = {}
        for r in records:
            reasons.setdefault(r.get("reason") or "no reason given", []).append(r)
        for reason, rs in reasons.items():
            sizes = len({r["size"] for r in rs})
            count = f"{len(rs)} rung{'s' if len(rs) > 1 else ''}" + (f" at {sizes} sizes" if sizes > 1 else "")
            out.append(f"<p class='skipped'>{esc(row_prefix(runs, k))}skipped: {esc(reason)} ({count})</p>")
    return "".join(out)


def ran(records_by_run):
    return any(not r["skipped"] for records in records_by_run for r in records)


def page(runs):
    cases = []
    for _, doc in runs:
        for c in ladder_doc.cases(doc):
            if c not in cases:
                cases.append(c)
    names = " vs ".join(esc(doc["device"]["name"]) for _, doc in runs)
    out = ["<!doctype html><html lang='en'><head><meta charset='utf-8'>",
           f"<title>ladder report: {names}</title><style>{STYLE}</style></head><body>",
           f"<h1>ladder report: {names}</h1>"]
    for k, (label, doc) in enumerate(runs):
        prefix = ("A (solid)" if k == 0 else "B (dashed, hollow)") if len(runs) > 1 else "Run"
        out.append(run_header(prefix, label, doc))
    out += ["<p>GB/s are 10<sup>9</sup> bytes per second, read + written, counted from the problem. The fraction of "
            "the ceiling divides by the measured bandwidth or FMA ceiling, whichever limits the case (a tensor-core case's "
            "by the measured BF16 tensor rate).</p>",
            "<h2 id='roofline'>Roofline</h2>",
            "<p>Each ladder is a path from rung to rung in ladder order (the number beside a point is its rung, "
            "the numbers of points on one spot joined, 5-9 for 5 to 9; hover for its name and figures); squares "
            "are the vendor baselines; red lines are the measured ceilings"
            + (", dashed for B" if len(runs) > 1 else "") + ". Rungs without flops (copies, transposes) are not on it.</p>",
            legend([c for c in cases if any(r["case"] == c for _, d in runs for r in roofline_points(d))]),
            roofline(runs)]
    for case in cases:
        out.append(f"<section class='case' id='case-{esc(case)}' data-case='{esc(case)}'><h2>{esc(case)}</h2>")
        for k, (label, doc) in enumerate(runs):
            if ladder_doc.is_partial(doc) and doc.get("running_case") == case:
                out.append(f"<p class='partial'>⚠ {esc(case)} was running when {esc(os.path.basename(label))} was "
                           f"written: what it holds of this case is incomplete.</p>")
        in_case = [[r for r in doc["results"] if r["case"] == case] for _, doc in runs]
        if not ran(in_case):
            out += [skipped_lines(in_case, runs), "</section>"]
            continue
        said = set()  # each explanation once per case, above the first chart it explains

        def explain(paragraph):
            if paragraph not in said:
                said.add(paragraph)
                out.append(paragraph)

        for size in dict.fromkeys(r["size"] for records in in_case for r in records):
            per_run = [[r for r in records if r["size"] == size] for records in in_case]
            out.append(f"<h3>{esc(case)} {esc(size)}</h3>")
            if not ran(per_run):
                out.append(skipped_lines(per_run, runs))
                continue
            charts = sweep_charts(case, size, per_run, runs)
            in_series = {r["variant"] for records in per_run for pts in series_of(records).values() for _, r in pts}
            rest = [[r for r in records if r["variant"] not in in_series] for records in per_run]
            if charts:
                explain("<p>The sweeps, one line per series (hover a point for its rung and figure):</p>")
                out += charts
            if any(rest):
                explain(bars_legend([r for records in in_case for r in records]))
                out.append(bars(rest, runs))
            if any(has_energy(records) for records in rest):
                _, unit = per_joule_key([r for records in rest for r in records])
                explain(f"<p>Work per joule ({unit}) per rung: the problem's work over the energy the whole board "
                        "drew while the rung ran back to back (idle power included), with the average watts and "
                        "the joules per run; * marks the vendor baseline.</p>")
                out.append(energy_bars(rest, runs))
        out.append("</section>")
    out.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(prog="ladder report", description="HTML report from one or two ladder results documents")
    parser.add_argument("results", nargs="+", metavar="RESULTS.json", help="one document, or two to overlay (A then B)")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    if len(args.results) > 2:
        parser.error("one results document, or two to overlay, not %d" % len(args.results))
    runs = []
    for path in args.results:
        try:
            runs.append((path, ladder_doc.load(path)))
        except ladder_doc.DocumentError as e:
            print(f"ladder report: cannot make a report from {e.path}: {e.reason}", file=sys.stderr)
            return 1
    try:
        content = page(runs)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        print(f"ladder report: cannot make a report from {' and '.join(args.results)}: unexpected content "
              f"({type(e).__name__}: {e})", file=sys.stderr)
        return 1
    try:
        ladder_doc.write_atomically(args.output, content)
    except OSError as e:
        print(f"ladder report: cannot write {args.output}: {e.strerror or e}", file=sys.stderr)
        return 1
    for path, doc in runs:
        if ladder_doc.is_partial(doc):
            print(f"ladder report: {path} is {ladder_doc.partial_text(doc)}; the report says so", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
