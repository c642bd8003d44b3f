#!/usr/bin/env python3
"""ctest: a report of a committed run, rendered in headless Chromium, as a person would open it.

Checks the rendered DOM, not the file: every case has its section, the roofline holds one point per
record it can place, the page's script ran to its end (it marks <html data-script="ran">), and the
console shows no script error. A broken page is rendered first, to prove the console check sees
errors. Exits 77 (skipped) where no Chromium is installed. LADDER_SCREENSHOT=FILE keeps a screenshot.
Usage: report_chromium_test.py LADDER
"""
import json
import os
import re
import shutil
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


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def render(browser, page, tmp, *extra):
    """(DOM after load, console errors) of a page."""
    p = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        f"--user-data-dir={os.path.join(tmp, 'profile')}", "--enable-logging=stderr", "--v=0",
                        "--virtual-time-budget=5000", *extra, "file://" + os.path.abspath(page)],
                       capture_output=True, text=True, timeout=180)
    errors = [l for l in p.stderr.splitlines() if "CONSOLE" in l and ("Uncaught" in l or "Error" in l)]
    return p.stdout, errors


def main():
    browser = chromium()
    if not browser:
        print("no chromium on PATH: skipped")
        return 77
    results = os.path.join(ROOT, "tests/fixtures/nvidia-h200-2026-11-23.json")
    with open(results) as f:
        doc = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        broken = os.path.join(tmp, "broken.html")
        with open(broken, "w") as f:
            f.write("<!doctype html><html><body><p>x</p><script>no_such_function();</script></body></html>")
        _, errors = render(browser, broken, tmp)
        check(errors, "the console check sees a script error in a broken page")

        page = os.path.join(tmp, "report.html")
        p = subprocess.run([LADDER, "report", results, "-o", page], capture_output=True, text=True)
        check(p.returncode == 0, f"ladder report: {p.stderr}")
        dom, errors = render(browser, page, tmp, "--dump-dom")
        check(not errors, f"no script error in the console: {errors[:3]}")
        check(re.search(r'<html[^>]*data-script="ran"', dom), "the page's script ran to its end")
        cases = list(dict.fromkeys(r["case"] for r in doc["results"]))
        for case in cases:
            check(f'<section class="case" id="case-{case}"' in dom, f"{case} has its section in the rendered page")
        check(dom.count('<section class="case"') == len(cases), "one section per case, no more")
        roof = re.search(r'<svg[^>]*id="roofline-svg".*?</svg>', dom, re.S)
        placeable = sum(1 for r in doc["results"] if not r["skipped"] and r["valid"] and (r.get("flops") or 0) > 0
                        and (r.get("bytes") or 0) > 0 and (r.get("gflops") or 0) > 0)
        points = roof.group(0).count('class="pt"') if roof else -1
        check(points == placeable, f"the rendered roofline has {placeable} points, one per valid record with flops, not {points}")

        overlay = os.path.join(tmp, "overlay.html")
        h100 = os.path.join(ROOT, "tests/fixtures/nvidia-h100-80gb-hbm3-2026-11-23.json")
        subprocess.run([LADDER, "report", h100, results, "-o", overlay], check=True)
        dom, errors = render(browser, overlay, tmp, "--dump-dom")
        check(not errors and 'data-script="ran"' in dom, f"the overlay of two runs renders cleanly: {errors[:3]}")

        shot = os.environ.get("LADDER_SCREENSHOT") or os.path.join(tmp, "shot.png")
        render(browser, page, tmp, "--hide-scrollbars", "--window-size=1000,1600", f"--screenshot={shot}")
        check(os.path.exists(shot) and os.path.getsize(shot) > 20000, "a screenshot of the report was taken")
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
