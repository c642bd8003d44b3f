#!/usr/bin/env python3
"""Every GPU test holds ctest's resource lock "gpu" (CMakeLists.txt, ladder_gpu_test), so that
`make test` on a GPU machine never runs two GPU tests at once, whatever -j is: tests that measure
(energy, timing, contention) fail beside another GPU test. Reads the test list as ctest sees it,
from the build folder. Usage: ctest_lock_test.py path/to/ctest (run in the build folder)."""
import json
import subprocess
import sys


def main():
    listing = json.loads(subprocess.check_output([sys.argv[1], "--show-only=json-v1"], text=True))
    gpu_tests, unlocked = [], []
    for test in listing["tests"]:
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        if "gpu" not in props.get("LABELS", []):
            continue
        gpu_tests.append(test["name"])
        if "gpu" not in props.get("RESOURCE_LOCK", []):
            unlocked.append(test["name"])
    # No GPU test at all would make this test pass by finding nothing: that is a broken listing.
    if len(gpu_tests) < 10:
        print(f"ctest_lock_test: only {len(gpu_tests)} tests labelled gpu; the listing is not what CMake defines")
        return 1
    for name in unlocked:
        print(f"ctest_lock_test: {name} is labelled gpu but does not hold RESOURCE_LOCK gpu")
    print(f"ctest_lock_test: {len(gpu_tests) - len(unlocked)} of {len(gpu_tests)} GPU tests hold the lock")
    return 1 if unlocked else 0


if __name__ == "__main__":
    sys.exit(main())
