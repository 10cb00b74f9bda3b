#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# Writes the project's models (models/*.obj and models/models.mtl). The .obj files are committed; run
# this script (python3 models/make_models.py) only to regenerate them after changing it. Units are
# metres, y is up, faces are counter-clockwise seen from outside. Naming follows the .obj scene
# convention of the README: "static..."/"ground..." objects are static, "compound_..." objects are
# compounds of their `g` parts, other objects are dynamic convex hulls.
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


class Obj:
    """Accumulates vertices and faces; indices are global and 1-based as in the format."""

    def __init__(self, comment):
        self.lines = ["# " + line for line in comment.strip().splitlines()]
        self.count = 0

    def line(self, text):
        self.lines.append(text)

    def vertex(self, p):
        self.lines.append("v %.6f %.6f %.6f" % tuple(p))
        self.count += 1
        return self.count

    def face(self, *idx):
        self.lines.append("f " + " ".join(str(i) for i in idx))

    def box(self, lo, hi):
        """An axis-aligned box as 6 outward quads."""
        (x0, y0, z0), (x1, y1, z1) = lo, hi
        v = [self.vertex(p) for p in [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0),
                                       (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]]
        for a, b, c, d in [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (3, 7, 6, 2), (0, 4, 7, 3), (1, 2, 6, 5)]:
            self.face(v[a], v[b], v[c], v[d])

    def sphere(self, centre, radius, rings, segments, noise=None):
        """A UV sphere; noise(direction) scales the radius (rocks and blobs)."""
        top = self.vertex((centre[0], centre[1] + radius * (noise((0, 1, 0)) if noise else 1), centre[2]))
        rows = []
        for r in range(1, rings):
            theta = math.pi * r / rings
            row = []
            for s in range(segments):
                phi = 2 * math.pi * s / segments
                d = (math.sin(theta) * math.cos(phi), math.cos(theta), math.sin(theta) * math.sin(phi))
                k = radius * (noise(d) if noise else 1)
                row.append(self.vertex((centre[0] + k * d[0], centre[1] + k * d[1], centre[2] + k * d[2])))
            rows.append(row)
        bottom = self.vertex((centre[0], centre[1] - radius * (noise((0, -1, 0)) if noise else 1), centre[2]))
        n = segments
        for s in range(n):
            self.face(top, rows[0][(s + 1) % n], rows[0][s])
        for r in range(len(rows) - 1):
            for s in range(n):
                self.face(rows[r][s], rows[r][(s + 1) % n], rows[r + 1][(s + 1) % n], rows[r + 1][s])
        for s in range(n):
            self.face(bottom, rows[-1][s], rows[-1][(s + 1) % n])

    def write(self, name):
        with open(os.path.join(HERE, name), "w", newline="\n") as f:
            f.write("\n".join(self.lines) + "\n")


def write_mtl():
    materials = {
        "wood": (0.55, 0.36, 0.2), "dark_wood": (0.35, 0.22, 0.12), "stone": (0.5, 0.5, 0.52),
        "grass": (0.3, 0.55, 0.25), "red": (0.8, 0.15, 0.12), "blue": (0.15, 0.3, 0.8),
        "yellow": (0.9, 0.75, 0.2), "white": (0.85, 0.85, 0.82), "slime": (0.3, 0.8, 0.5),
        "cloth": (0.6, 0.2, 0.5),
    }
    with open(os.path.join(HERE, "models.mtl"), "w", newline="\n") as f:
        f.write("# Materials of the project's models: diffuse colours only.\n")
        for name, kd in materials.items():
            f.write("newmtl %s\nKd %.3f %.3f %.3f\nd 1\n\n" % ((name,) + kd))


def crate():
    o = Obj("A 1 m crate centred on the origin.")
    o.line("mtllib models.mtl")
    o.line("o crate")
    o.line("usemtl wood")
    o.box((-0.5, -0.5, -0.5), (0.5, 0.5, 0.5))
    o.write("crate.obj")


def ramp():
    o = Obj("A ramp: a wedge 4 m long, 2 m wide, rising to 1.5 m (convex; used static).")
    o.line("mtllib models.mtl")
    o.line("o static_ramp")
    o.line("usemtl stone")
    v = [o.vertex(p) for p in [(-2, 0, -1), (2, 0, -1), (2, 1.5, -1), (-2, 0, 1), (2, 0, 1), (2, 1.5, 1)]]
    o.face(v[0], v[2], v[1])          # back side (z = -1)
    o.face(v[3], v[4], v[5])          # front side (z = +1)
    o.face(v[0], v[1], v[4], v[3])    # bottom
    o.face(v[1], v[2], v[5], v[4])    # high end
    o.face(v[0], v[3], v[5], v[2])    # slope
    o.write("ramp.obj")


def chair_parts(o, x=0.0, z=0.0, y=0.0):
    """Seat, back and four legs: each a `g` part (convex), together a concave chair."""
    s = 0.45  # half width of the seat (m)
    parts = [("seat", "wood", (-s, 0.45, -s), (s, 0.52, s)),
             ("back", "dark_wood", (-s, 0.52, s - 0.06), (s, 1.05, s))]
    for i, (lx, lz) in enumerate([(-1, -1), (1, -1), (-1, 1), (1, 1)]):
        cx, cz = lx * (s - 0.05), lz * (s - 0.05)
        parts.append(("leg%d" % (i + 1), "dark_wood", (cx - 0.04, 0.0, cz - 0.04), (cx + 0.04, 0.45, cz + 0.04)))
    for name, mat, lo, hi in parts:
        o.line("g " + name)
        o.line("usemtl " + mat)
        o.box((lo[0] + x, lo[1] + y, lo[2] + z), (hi[0] + x, hi[1] + y, hi[2] + z))


def chair():
    o = Obj("A chair made of convex parts (seat, back, 4 legs as `g` groups): load it as a compound.\n"
            "Its origin is on the floor under the seat's centre.")
    o.line("mtllib models.mtl")
    o.line("o compound_chair")
    chair_parts(o)
    o.write("chair.obj")


def heightfield(x, z):
    return 0.6 * math.sin(0.55 * x) * math.cos(0.45 * z) + 0.35 * math.sin(0.9 * z + 0.4 * x)


def terrain():
    n, size = 24, 16.0
    o = Obj("A 16 m x 16 m terrain patch of rolling hills: concave, load it as a static triangle mesh.")
    o.line("mtllib models.mtl")
    o.line("o static_terrain")
    o.line("usemtl grass")
    idx = {}
    for i in range(n + 1):
        for j in range(n + 1):
            x, z = -size / 2 + size * i / n, -size / 2 + size * j / n
            idx[i, j] = o.vertex((x, heightfield(x, z), z))
    o.line("s 1")
    for i in range(n):
        for j in range(n):
            # Counter-clockwise seen from above (+y).
            o.face(idx[i, j], idx[i, j + 1], idx[i + 1, j + 1], idx[i + 1, j])
    o.write("terrain.obj")


def bowl():
    o = Obj("A bowl 6 m across: a concave shell (static triangle mesh), open at the top.")
    o.line("mtllib models.mtl")
    o.line("o static_bowl")
    o.line("usemtl white")
    rings, segments, r_out = 8, 32, 3.0
    rows = []
    for k in range(rings + 1):
        a = (math.pi / 2) * k / rings  # 0 at the bottom centre, pi/2 at the rim
        row = []
        for s in range(segments):
            phi = 2 * math.pi * s / segments
            p = (r_out * math.sin(a) * math.cos(phi), r_out * (1 - math.cos(a)), r_out * math.sin(a) * math.sin(phi))
            row.append(o.vertex(p) if k > 0 or s == 0 else row[0])
        rows.append(row)
    o.line("s 1")
    for s in range(segments):  # the inner side faces up and inwards
        o.face(rows[0][0], rows[1][(s + 1) % segments], rows[1][s])
    for k in range(1, rings):
        for s in range(segments):
            o.face(rows[k][s], rows[k][(s + 1) % segments], rows[k + 1][(s + 1) % segments], rows[k + 1][s])
    o.write("bowl.obj")


def rock():
    rng = random.Random(7)
    bumps = [(tuple(rng.uniform(-1, 1) for _ in range(3)), rng.uniform(0.1, 0.25)) for _ in range(9)]

    def noise(d):
        k = 1.0
        for (b, h) in bumps:
            dot = sum(x * y for x, y in zip(d, b)) / math.sqrt(sum(x * x for x in b))
            k += h * max(0.0, dot) ** 4
        return k * (1.0 - 0.25 * d[1] * d[1])  # a little flattened

    o = Obj("A rock: an irregular lump 0.5 m across (dynamic convex hull).")
    o.line("mtllib models.mtl")
    o.line("o rock")
    o.line("usemtl stone")
    o.sphere((0, 0, 0), 0.5, 8, 12, noise)
    o.write("rock.obj")


def blob():
    def noise(d):
        return 1.0 + 0.18 * math.sin(3 * d[0] + 1) * math.sin(4 * d[1]) * math.cos(3 * d[2])

    o = Obj("A blob: a smooth, slightly lumpy body 1 m across with smoothing groups (dynamic hull).")
    o.line("mtllib models.mtl")
    o.line("o blob")
    o.line("usemtl slime")
    o.line("s 1")
    o.sphere((0, 0, 0), 0.5, 14, 20, noise)
    o.write("blob.obj")


def torus_parts(o, R=0.7, r=0.2, parts=10, tube=8, centre=(0.0, 0.0, 0.0)):
    """A ring lying in the xz plane, cut into `parts` convex segments, each its own `g` group."""
    for p in range(parts):
        o.line("g segment%d" % (p + 1))
        o.line("usemtl " + ("red" if p % 2 else "yellow"))
        a0, a1 = 2 * math.pi * p / parts, 2 * math.pi * (p + 1) / parts
        rings = []
        for a in (a0, a1):
            ring = []
            for t in range(tube):
                b = 2 * math.pi * t / tube
                rad = R + r * math.cos(b)
                ring.append(o.vertex((centre[0] + rad * math.cos(a), centre[1] + r * math.sin(b),
                                      centre[2] + rad * math.sin(a))))
            rings.append(ring)
        first, second = rings
        # Tube wall: outward.
        for t in range(tube):
            u = (t + 1) % tube
            o.face(first[t], first[u], second[u], second[t])
        # End caps (convex polygons), facing along -/+ the ring direction.
        o.face(*first)
        o.face(*reversed(second))


def torus():
    o = Obj("A torus 1.8 m across made of 10 convex segments (`g` groups): load it as a compound.")
    o.line("mtllib models.mtl")
    o.line("o compound_torus")
    torus_parts(o)
    o.write("torus.obj")


def room():
    o = Obj("An .obj scene: a room with a floor, three walls, a table, a chair, crates, a ball and a curtain.\n"
            "Open it with `sandbox models/room.obj`: every `o` becomes a body where its vertices are.\n"
            "static*/ground* objects are static, compound_* objects are compounds of their `g` parts, the\n"
            "flat curtain is named static (a flat object would be made static anyway, with a warning), everything\n"
            "else is a dynamic hull.")
    o.line("mtllib models.mtl")
    o.line("o ground_floor")
    o.line("usemtl stone")
    o.box((-5, -0.2, -5), (5, 0.0, 5))
    for name, lo, hi in [("static_wall_back", (-5, 0, -5), (5, 3, -4.8)),
                         ("static_wall_left", (-5, 0, -4.8), (-4.8, 3, 5)),
                         ("static_wall_right", (4.8, 0, -4.8), (5, 3, 5))]:
        o.line("o " + name)
        o.line("usemtl white")
        o.box(lo, hi)
    o.line("o compound_table")
    o.line("g top")
    o.line("usemtl wood")
    o.box((-1.0, 0.75, -0.6), (1.0, 0.82, 0.6))
    for i, (x, z) in enumerate([(-0.9, -0.5), (0.9, -0.5), (-0.9, 0.5), (0.9, 0.5)]):
        o.line("g leg%d" % (i + 1))
        o.line("usemtl dark_wood")
        o.box((x - 0.05, 0.0, z - 0.05), (x + 0.05, 0.75, z + 0.05))
    o.line("o compound_chair")
    chair_parts(o, x=0.0, z=1.3)
    for i, (x, y, z) in enumerate([(2.5, 0.25, -2.5), (2.5, 0.75, -2.5), (3.2, 0.25, -2.4), (-0.3, 1.07, 0.0)]):
        o.line("o crate%d" % (i + 1))
        o.line("usemtl " + ("wood" if i != 3 else "red"))
        h = 0.25
        o.box((x - h, y - h, z - h), (x + h, y + h, z + h))
    o.line("o ball")
    o.line("usemtl blue")
    o.line("s 1")
    o.sphere((-2.5, 2.0, 2.0), 0.3, 8, 12)
    o.line("s off")
    o.line("o static_curtain")
    o.line("usemtl cloth")
    v = [o.vertex(p) for p in [(-3.5, 0.5, -4.7), (-1.5, 0.5, -4.7), (-1.5, 2.8, -4.7), (-3.5, 2.8, -4.7)]]
    o.face(*v)
    o.write("room.obj")


if __name__ == "__main__":
    write_mtl()
    crate()
    ramp()
    chair()
    terrain()
    bowl()
    rock()
    blob()
    torus()
    room()
