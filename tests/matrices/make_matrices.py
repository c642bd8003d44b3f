#!/usr/bin/env python3
"""Writes the two small Matrix Market files that the spmv tests load through
the case (run from this folder; the output is deterministic).

general_real_97x89.mtx: 97 x 89, general, real; odd sizes, empty rows (every
  seventh), a dense row, entries listed out of order, one duplicate (summed).
symmetric_pattern_1500.mtx: 1500 x 1500, symmetric, pattern; a tridiagonal
  band plus a hub: vertex 1 joined to 1200 others, so after expansion row 1
  holds 1202 entries, longer than a thread block."""
import random

rng = random.Random(11)

entries = []
for row in range(1, 98):
    if row % 7 == 0:
        continue
    count = 89 if row == 50 else rng.randint(1, 9)
    for col in sorted(rng.sample(range(1, 90), count)):
        entries.append((row, col, rng.uniform(-4, 4)))
rng.shuffle(entries)
entries.append((entries[0][0], entries[0][1], 0.5))
with open("general_real_97x89.mtx", "w") as f:
    f.write("%%MatrixMarket matrix coordinate real general\n")
    f.write("% made by make_matrices.py: empty rows, a dense row, one duplicate\n")
    f.write(f"97 89 {len(entries)}\n")
    for row, col, value in entries:
        f.write(f"{row} {col} {value:.6g}\n")

n = 1500
lower = set()
for i in range(1, n + 1):
    lower.add((i, i))
    if i > 1:
        lower.add((i, i - 1))
for j in rng.sample(range(3, n + 1), 1200):
    lower.add((j, 1))
with open("symmetric_pattern_1500.mtx", "w") as f:
    f.write("%%MatrixMarket matrix coordinate pattern symmetric\n")
    f.write("% made by make_matrices.py: a band and a hub row of 1202 entries\n")
    f.write(f"{n} {n} {len(lower)}\n")
    for row, col in sorted(lower, key=lambda e: (e[1], e[0])):
        f.write(f"{row} {col}\n")
