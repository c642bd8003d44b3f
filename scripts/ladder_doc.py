"""Reading a ladder results document, for report.py, compare.py and readme_tables.py.

load() returns the document or raises DocumentError, whose text is one sentence that names the
file and what is wrong with it (the line and column of a JSON syntax error, the missing field and
which record lacks it), so that every script says the same thing about the same bad file.
Fields added within schema 1 (complete, contention, contended, noisy, hung, the tensor ceilings) are
optional: older documents lack them.
"""
import json
import math
import os
import re

SCHEMA = 1

# What every script relies on; everything else is read with .get().
DOCUMENT_FIELDS = {"schema": int, "device": dict, "results": list}
DEVICE_FIELDS = {"name": str}
RECORD_FIELDS = {"case": str, "variant": str, "index": int, "size": str, "baseline": bool, "skipped": bool,
                 "valid": bool}
NUMBER_OR_NULL = ("median_ms", "rel_spread", "gbps", "gflops", "bytes", "flops", "ratio_to_baseline")


class DocumentError(Exception):
    """str() is "PATH: what is wrong"; .path and .reason apart, for callers that phrase it their way."""

    def __init__(self, text):
        super().__init__(text)
        self.path, _, self.reason = text.partition(": ")


def type_name(t):
    return {int: "a number", float: "a number", str: "a string", bool: "true or false", dict: "an object",
            list: "a list"}[t]


def check_fields(path, obj, fields, where):
    for name, kind in fields.items():
        if name not in obj:
            raise DocumentError(f"{path}: {where} has no \"{name}\" field")
        value = obj[name]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            raise DocumentError(f"{path}: {where}'s \"{name}\" is not {type_name(kind)}")


# A results document nests five levels (document, results, record, counters); far deeper is
# not one. Checked before parsing, which makes the answer the same on every Python: how deep
# json.loads goes before a RecursionError depends on the version.
MAX_DEPTH = 64
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def too_deep(text):
    depth = 0
    for bracket in re.finditer(r"[\[\]{}]", STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


def load(path):
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise DocumentError(f"{path}: cannot read it: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DocumentError(f"{path}: not UTF-8 text (byte {e.start})") from None
    if not text.strip():
        raise DocumentError(f"{path}: the file is empty, not a ladder results document")
    if too_deep(text):
        raise DocumentError(f"{path}: invalid JSON: nested too deeply")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        # A string left open runs to the end of the file: that too is a file cut short.
        if e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string"):
            what = "the JSON ends early (a truncated file?)"
        else:
            # json's own words, some of which end in "at" ("... starting at"): no second "at".
            what = f"invalid JSON: {e.msg.removesuffix(' at')}"
        raise DocumentError(f"{path}: {what}, line {e.lineno}, column {e.colno}") from None
    if not isinstance(doc, dict):
        raise DocumentError(f"{path}: the JSON is not an object, so not a ladder results document")
    if doc.get("tool", "ladder") != "ladder":
        raise DocumentError(f"{path}: written by \"{doc.get('tool')}\", not by ladder")
    check_fields(path, doc, DOCUMENT_FIELDS, "the document")
    if doc["schema"] != SCHEMA:
        raise DocumentError(f"{path}: schema {doc['schema']}, but this ladder reads schema {SCHEMA}")
    check_fields(path, doc["device"], DEVICE_FIELDS, "the device")
    ceilings = doc["device"].get("ceilings")
    if ceilings is not None and not isinstance(ceilings, dict):
        raise DocumentError(f"{path}: the device's \"ceilings\" is not an object")
    for i, r in enumerate(doc["results"]):
        if not isinstance(r, dict):
            raise DocumentError(f"{path}: result {i} is not an object")
        where = f"result {i} ({r.get('case', '?')} {r.get('variant', '?')})"
        check_fields(path, r, RECORD_FIELDS, where)
        for name in NUMBER_OR_NULL:
            v = r.get(name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise DocumentError(f"{path}: {where}'s \"{name}\" is not a number")
        if not r["skipped"] and r.get("median_ms") is None:
            raise DocumentError(f"{path}: {where} ran but has no \"median_ms\"")
    summaries = doc.get("summaries", [])
    if not isinstance(summaries, list) or not all(isinstance(s, dict) for s in summaries):
        raise DocumentError(f"{path}: \"summaries\" is not a list of objects")
    return doc


def is_partial(doc):
    return doc.get("complete") is False


def partial_text(doc):
    """One clause that says how a partial document came to be, or '' for a whole one."""
    if not is_partial(doc):
        return ""
    how = doc.get("stopped_by")
    running = doc.get("running_case")
    text = "partial: the run " + (f"was stopped ({how})" if how else "did not finish")
    if running:
        text += f" while {running} was running"
    return text + f"; it holds the {len(cases(doc))} case(s) finished before"


def cases(doc):
    seen = []
    for r in doc["results"]:
        if r["case"] not in seen:
            seen.append(r["case"])
    return seen


def contention_text(doc):
    """One sentence about other processes on the GPU, or '' when the run had it alone (or never looked)."""
    c = doc.get("contention")
    if not isinstance(c, dict):
        return ""
    if c.get("checked") is False:
        return "Whether other processes shared the GPU could not be checked" + (
            f" ({c['note']})" if c.get("note") else "") + "."
    procs = [p for p in c.get("processes") or [] if isinstance(p, dict)]
    if not procs:
        return ""
    named = ", ".join(f"{p.get('name', '?')} (pid {p.get('pid', '?')}, "
                      f"{(p.get('used_memory_bytes') or 0) / 2**20:.0f} MiB)" for p in procs)
    return f"Other processes held the GPU during the run: {named}."


def record_flags(r):
    """The reasons a record's median is not to be trusted as is."""
    flags = []
    if r.get("throttled"):
        flags.append("throttled")
    if r.get("contended"):
        flags.append("contended")
    if r.get("noisy"):
        flags.append("noisy")
    if r.get("hung"):
        flags.append("hung")
    return flags


def finite(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


# What the device's ceilings are called on a page or in a table, by their key in "ceilings".
CEILING_NAMES = {"bandwidth_gbps": "bandwidth", "fma_gflops": "FP32", "sgemm_gflops": "cuBLAS",
                 "tensor_bf16_gflops": "tensor"}


def limiter(r):
    """(fraction, ceiling name or None) of what limits a record.

    A record's fraction_of_ceiling divides by its case's ceiling. A tensor-core case's ceiling is the
    tensor rate, but its decode shapes (1 x 4096 x 4096) are bound by reading the matrix: a fraction
    of a percent of the tensor rate, more than half of the bandwidth. For such a record the higher of the two
    fractions is the one that says how close it comes, and the name says which it is; for any other
    record the case's ceiling is the only one, and the name is None."""
    fraction = r.get("fraction_of_ceiling")
    if r.get("ceiling") != "tensor_bf16_gflops":
        return fraction, None
    bandwidth = r.get("fraction_of_bandwidth")
    if finite(bandwidth) and not (finite(fraction) and fraction >= bandwidth):
        return bandwidth, "bandwidth"
    return fraction, "tensor"


def write_atomically(path, content):
    """The file is whole or absent: written beside its target, then renamed."""
    tmp = os.path.join(os.path.dirname(path) or ".", f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(content)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
