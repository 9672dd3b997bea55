"""Writes a library of small OBJ models for the catalog benchmarks: COUNT files in folders of 1,000,
each a box (or a few) with object and material names drawn from a fixed vocabulary, so queries and
searches select a realistic share of them. Deterministic: the same COUNT gives the same files.

    python3 Benchmarks/make_catalog_library.py OUT_DIR COUNT
"""
import random
import sys
from pathlib import Path

THINGS = ["chair", "table", "lamp", "door", "crate", "barrel", "tree", "rock", "wall", "window",
          "shelf", "sofa", "bed", "desk", "car", "wheel", "robot", "sword", "shield", "helmet"]
STYLES = ["wood", "metal", "stone", "glass", "plastic", "fabric", "gold", "rusty", "old", "modern"]


def box(rng, offset, lines):
    sx, sy, sz = (round(rng.uniform(0.1, 3.0), 3) for _ in range(3))
    ox = round(rng.uniform(-5, 5), 3)
    for x in (0, sx):
        for y in (0, sy):
            for z in (0, sz):
                lines.append(f"v {x + ox} {y} {z}")
    for a, b, c, d in [(1, 2, 4, 3), (5, 7, 8, 6), (1, 5, 6, 2), (3, 4, 8, 7), (1, 3, 7, 5), (2, 6, 8, 4)]:
        lines.append(f"f {a + offset} {b + offset} {c + offset} {d + offset}")


def main():
    out, count = Path(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(20)
    for i in range(count):
        folder = out / f"pack{i // 1000:03d}"
        if i % 1000 == 0:
            folder.mkdir(parents=True, exist_ok=True)
        thing, style = rng.choice(THINGS), rng.choice(STYLES)
        lines = [f"# {i}", f"mtllib {style}.mtl"]
        for part in range(rng.randint(1, 4)):
            lines.append(f"o {thing.capitalize()}{part}_{style}")
            lines.append(f"usemtl {style}_{rng.choice(STYLES)}")
            box(rng, part * 8, lines)
        (folder / f"{style}_{thing}_{i:06d}.obj").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
