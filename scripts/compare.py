#!/usr/bin/env python3
"""ladder compare: two results documents side by side (two GPUs, or one kernel before and after).

Records are matched by case, size and variant. For each pair: both medians, B/A (A's median over
B's: how many times faster B runs, above 1 is faster), and whether the change is beyond noise: more
than the threshold (default 3 %) and more than either run's measured spread (interquartile range
over median). Per case, the geometric mean of B/A, beside the ratio of the two documents' measured
ceilings (bandwidth, FP32 FMA, cuBLAS SGEMM), so that a rung that scales with bandwidth shows it.

Energy is compared the same way where both records have it: A's joules per run over B's (above 1:
B spends less), a change beyond noise by the same rule (the threshold and both runs' time spreads,
the energy being watts times time), and the rungs that got costlier are listed. The exit code stays
tied to time unless --fail-on-energy is given.

What a CI job gates on is what the two runs can tell. A rung on the CPU (a record with "host") times
the host, not the GPU; a record flagged noisy, contended, throttled or hung in either run has a
median not to be trusted. Their rows are shown, with their verdicts, but marked "not counted", and
they never set the exit code.

Exit 0 when no counted rung got slower (or, with --fail-on-energy, costlier) beyond noise, 1 when
one did, 2 for bad input, and 2 when the two runs have nothing to compare: no case, size and variant
in both (an spmv run against an attention run), or none that ran in both.
Usage: compare.py A.json B.json [--threshold PCT] [--json FILE] [--fail-on-energy]
"""
import argparse
import json
import math
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
import ladder_doc  # noqa: E402

CEILINGS = tuple((name, key) for key, name in ladder_doc.CEILING_NAMES.items())


def ceiling_ratios(a, b):
    # The tensor ceilings may sit in "ceilings" or beside it in "device".
    ca = {**a["device"], **(a["device"].get("ceilings") or {})}
    cb = {**b["device"], **(b["device"].get("ceilings") or {})}
    out = {}
    for name, key in CEILINGS:
        if ladder_doc.finite(ca.get(key)) and ladder_doc.finite(cb.get(key)) and ca[key] > 0:
            out[name] = cb[key] / ca[key]
    return out


def keyed(doc):
    out = {}
    for r in doc["results"]:
        out.setdefault((r["case"], r["size"], r["variant"]), r)
    return out


def not_counted(x, y):
    """Why a pair's verdict does not set the exit code ('' when it does): its rung runs on the CPU, or its
    median is not to be trusted in one of the runs."""
    if x.get("host") or y.get("host"):
        return "CPU rung"
    return ", ".join(["A " + f for f in ladder_doc.record_flags(x)] + ["B " + f for f in ladder_doc.record_flags(y)])


def compare(a, b, threshold):
    ra, rb = keyed(a), keyed(b)
    pairs, missing, extra, not_compared = [], [], [], []
    for key, x in ra.items():
        y = rb.get(key)
        if y is None:
            missing.append(key)
            continue
        if x["skipped"] or y["skipped"] or not (x["median_ms"] or 0) > 0 or not (y["median_ms"] or 0) > 0:
            why = ("skipped in both" if x["skipped"] and y["skipped"] else "skipped in A" if x["skipped"]
                   else "skipped in B" if y["skipped"] else "no time")
            not_compared.append((key, why))
            continue
        ratio = x["median_ms"] / y["median_ms"]
        noise = max(x.get("rel_spread") or 0, y.get("rel_spread") or 0)
        change = abs(ratio - 1)
        beyond = change > threshold and change > noise
        energy_ratio = energy_verdict = None
        if (x.get("energy_j") or 0) > 0 and (y.get("energy_j") or 0) > 0:
            energy_ratio = x["energy_j"] / y["energy_j"]
            energy_change = abs(energy_ratio - 1)
            energy_verdict = (("cheaper" if energy_ratio > 1 else "costlier")
                              if energy_change > threshold and energy_change > noise else "same")
        why_not = not_counted(x, y)
        pairs.append({
            "case": key[0], "size": key[1], "variant": key[2], "baseline": x["baseline"],
            "host": bool(x.get("host") or y.get("host")), "counted": not why_not, "not_counted": why_not or None,
            "a_median_ms": x["median_ms"], "b_median_ms": y["median_ms"],
            "a_spread": x.get("rel_spread"), "b_spread": y.get("rel_spread"),
            "ratio": ratio, "beyond_noise": beyond,
            "verdict": ("faster" if ratio > 1 else "slower") if beyond else "same",
            "a_energy_j": x.get("energy_j"), "b_energy_j": y.get("energy_j"),
            "energy_ratio": energy_ratio, "energy_verdict": energy_verdict,
            "flags": sorted(set(["A " + f for f in ladder_doc.record_flags(x)] +
                                ["B " + f for f in ladder_doc.record_flags(y)] +
                                (["A FAIL"] if not x["valid"] else []) + (["B FAIL"] if not y["valid"] else []))),
        })
    extra = [key for key in rb if key not in ra]
    ratios = ceiling_ratios(a, b)
    cases = []
    for case in dict.fromkeys(p["case"] for p in pairs):
        rows = [p for p in pairs if p["case"] == case]
        geo = math.exp(sum(math.log(p["ratio"]) for p in rows) / len(rows))
        limits = [r.get("ceiling") for r in a["results"] if r["case"] == case and r.get("ceiling")]
        cases.append({"case": case, "compared": len(rows), "geomean_ratio": geo,
                      "faster": sum(p["verdict"] == "faster" for p in rows),
                      "slower": sum(p["verdict"] == "slower" and p["counted"] for p in rows),
                      "slower_not_counted": sum(p["verdict"] == "slower" and not p["counted"] for p in rows),
                      "ceiling": max(set(limits), key=limits.count) if limits else None})
    return {"threshold": threshold, "ceiling_ratios": ratios, "variants": pairs, "cases": cases,
            "missing_in_b": [list(k) for k in missing], "extra_in_b": [list(k) for k in extra],
            "not_compared": [list(k) + [why] for k, why in not_compared],
            "regressions": sum(p["verdict"] == "slower" and p["counted"] for p in pairs),
            "slower_not_counted": sum(p["verdict"] == "slower" and not p["counted"] for p in pairs),
            "energy_compared": sum(p["energy_ratio"] is not None for p in pairs),
            "energy_regressions": sum(p["energy_verdict"] == "costlier" and p["counted"] for p in pairs)}


def time_text(ms):
    if ms < 1:
        return f"{ms * 1e3:.1f} us"
    if ms < 1e3:
        return f"{ms:.3f} ms"
    return f"{ms / 1e3:.2f} s"


def describe(path, doc):
    d = doc["device"]
    extra = [doc["date"]] if isinstance(doc.get("date"), str) else []
    if ladder_doc.is_partial(doc):
        extra.append("partial")
    return f"{path} ({d['name']}{', ' + ', '.join(extra) if extra else ''})"


def text(a_path, a, b_path, b, result):
    out = [f"A = {describe(a_path, a)}", f"B = {describe(b_path, b)}"]
    for path, doc in ((a_path, a), (b_path, b)):
        if ladder_doc.is_partial(doc):
            out.append(f"{path} is {ladder_doc.partial_text(doc)}.")
    ratios = result["ceiling_ratios"]
    if ratios:
        out.append("ceilings B/A: " + ", ".join(f"{n} {v:.3f}" for n, v in ratios.items()))
    energy = result["energy_compared"] > 0
    out.append(f"B/A = A's median / B's median (above 1: B is faster); a change counts when it is above "
               f"{100 * result['threshold']:.1f}% and above both runs' spreads."
               + (" Energy B/A = A's joules per run / B's (above 1: B spends less), by the same rule."
                  if energy else ""))
    for c in result["cases"]:
        rows = [p for p in result["variants"] if p["case"] == c["case"]]
        out += ["", f"{c['case']}", f"  {'size':<18} {'variant':<30} {'A median':>10} {'B median':>10} {'B/A':>7}  "
                f"{'change':<8}" + (f" {'energy B/A':>10}  energy" if energy else "")]
        for p in rows:
            name = p["variant"] + (" *" if p["baseline"] else "")
            notes = (["CPU rung"] if p["host"] else []) + p["flags"] + ([] if p["counted"] else ["not counted"])
            flags = f"  ({', '.join(notes)})" if notes else ""
            energy_cells = ""
            if energy:
                ratio = f"{p['energy_ratio']:.3f}" if p["energy_ratio"] is not None else "-"
                verdict = p["energy_verdict"] if p["energy_verdict"] not in (None, "same") else "-"
                energy_cells = f" {ratio:>10}  {verdict:<8}"
            out.append((f"  {p['size']:<18} {name:<30} {time_text(p['a_median_ms']):>10} {time_text(p['b_median_ms']):>10} "
                        f"{p['ratio']:>7.3f}  {p['verdict'] if p['verdict'] != 'same' else '-':<8}"
                        + energy_cells).rstrip() + flags)
    out += ["", "per case: geometric mean of B/A over the rungs compared, beside the ceilings' B/A", "",
            summary_table(result)]
    for title, keys in (("in A, not in B", result["missing_in_b"]), ("in B, not in A", result["extra_in_b"])):
        if keys:
            shown = ", ".join(f"{c} {s} {v}" for c, s, v in keys[:20])
            more = f" and {len(keys) - 20} more" if len(keys) > 20 else ""
            out.append(f"{title} ({len(keys)}): {shown}{more}")
    if result["not_compared"]:
        out.append(f"not compared ({len(result['not_compared'])}): " +
                   ", ".join(f"{c} {s} {v} ({why})" for c, s, v, why in result["not_compared"][:20]))
    uncounted = [p for p in result["variants"] if p["verdict"] == "slower" and not p["counted"]]
    if uncounted:
        out.append(f"not counted ({len(uncounted)} slower): CPU rungs time the host, not the GPU, and a record "
                   "flagged noisy, contended, throttled or hung in either run has a median not to be trusted; "
                   "they are shown but do not set the exit code: " +
                   ", ".join(f"{p['case']} {p['size']} {p['variant']} ({p['ratio']:.3f}, {p['not_counted']})"
                             for p in uncounted[:20]) + (f" and {len(uncounted) - 20} more" if len(uncounted) > 20 else ""))
    slower = result["regressions"]
    out.append(f"{slower} rung(s) slower beyond noise" if slower else "nothing slower beyond noise")
    if energy:
        costlier = [p for p in result["variants"] if p["energy_verdict"] == "costlier"]
        out.append(f"energy compared for {result['energy_compared']} rung(s): " +
                   (f"{len(costlier)} costlier beyond noise: " +
                    ", ".join(f"{p['case']} {p['size']} {p['variant']} ({p['energy_ratio']:.3f}"
                              f"{'' if p['counted'] else ', not counted'})" for p in costlier[:20]) +
                    (f" and {len(costlier) - 20} more" if len(costlier) > 20 else "")
                    if costlier else "nothing costlier beyond noise"))
    return "\n".join(out)


def summary_table(result):
    names = list(result["ceiling_ratios"])
    lines = ["| case | rungs | geomean B/A | faster | slower | ceiling | " + " | ".join(f"{n} B/A" for n in names) + " |",
             "|---|---:|---:|---:|---:|---|" + "---:|" * len(names)]
    for c in result["cases"]:
        uncounted = f" (+{c['slower_not_counted']} not counted)" if c["slower_not_counted"] else ""
        lines.append(f"| {c['case']} | {c['compared']} | {c['geomean_ratio']:.3f} | {c['faster']} | {c['slower']}{uncounted} | "
                     f"{ladder_doc.CEILING_NAMES.get(c['ceiling'], c['ceiling'] or '-')} | " +
                     " | ".join(f"{result['ceiling_ratios'][n]:.3f}" for n in names) + " |")
    return "\n".join(lines)


def holdings(doc, other):
    """What a run holds, for the line that says two runs have nothing in common: its cases, with their
    sizes where the other run has the same case (then the sizes are what differ)."""
    if not doc["results"]:
        return "no records"
    theirs = set(ladder_doc.cases(other))
    parts = []
    for case in ladder_doc.cases(doc):
        sizes = list(dict.fromkeys(r["size"] for r in doc["results"] if r["case"] == case))
        parts.append(f"{case} at {', '.join(sizes[:4])}{' and more' if len(sizes) > 4 else ''}" if case in theirs else case)
    return "; ".join(parts[:8]) + (f" and {len(parts) - 8} more cases" if len(parts) > 8 else "")


def nothing_in_common(a_path, a, b_path, b, result):
    """One line when the runs share no rung that ran in both, '' when they do: an empty comparison
    must not pass for a clean one."""
    if result["variants"]:
        return ""
    if result["not_compared"]:
        return (f"{a_path} and {b_path} have no rung that ran in both: the {len(result['not_compared'])} they share "
                f"were skipped or have no time")
    return (f"{a_path} and {b_path} have nothing in common (no case, size and variant in both): "
            f"A holds {holdings(a, b)}; B holds {holdings(b, a)}")


def threshold_arg(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--threshold needs a percentage, such as 3, not '{text}'")
    if not 0 <= value < 100 or not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"--threshold needs a percentage from 0 to 100, not '{text}'")
    return value / 100


def main():
    parser = argparse.ArgumentParser(prog="ladder compare", description="compare two ladder results documents")
    parser.add_argument("a", metavar="A.json")
    parser.add_argument("b", metavar="B.json")
    parser.add_argument("--threshold", type=threshold_arg, default=0.03, metavar="PCT",
                        help="smallest change that counts, in percent (default 3)")
    parser.add_argument("--json", metavar="FILE", help="also write the comparison as JSON")
    parser.add_argument("--fail-on-energy", action="store_true",
                        help="exit 1 also when a rung got costlier in energy beyond noise")
    args = parser.parse_args()
    try:
        a = ladder_doc.load(args.a)
        b = ladder_doc.load(args.b)
    except ladder_doc.DocumentError as e:
        print(f"ladder compare: {e}", file=sys.stderr)
        return 2
    result = compare(a, b, args.threshold)
    empty = nothing_in_common(args.a, a, args.b, b, result)
    if empty:
        print(f"ladder compare: {empty}", file=sys.stderr)
        return 2
    if args.json:
        document = {"tool": "ladder", "comparison": 1,
                    "a": {"path": args.a, "device": a["device"]["name"], "date": a.get("date"),
                          "complete": not ladder_doc.is_partial(a)},
                    "b": {"path": args.b, "device": b["device"]["name"], "date": b.get("date"),
                          "complete": not ladder_doc.is_partial(b)}, **result}
        try:
            ladder_doc.write_atomically(args.json, json.dumps(document, indent=1) + "\n")
        except OSError as e:
            print(f"ladder compare: cannot write {args.json}: {e.strerror or e}", file=sys.stderr)
            return 2
    print(text(args.a, a, args.b, b, result))
    return 1 if result["regressions"] or (args.fail_on_energy and result["energy_regressions"]) else 0


if __name__ == "__main__":
    sys.exit(main())
