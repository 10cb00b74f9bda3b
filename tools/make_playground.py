#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# Writes scenes/playground.json: the jointed toys of issue 20 built from scene-file joints (a swing on two
# ropes, a rope bridge of hinged planks with a ragdoll dropped on it, a wrecking ball on a chain swinging
# into a tower, a motor-driven hinged door, a weld and a sprung slider). Run from the repository root.
import json
import math

entries, joints = [], []


def box(name, pos, size, body="dynamic", color=None, density=None, **extra):
    e = {"name": name, "generator": "box", "position": [round(v, 4) for v in pos], "size": size}
    if body != "dynamic":
        e["body"] = body
    mat = {}
    if color:
        mat["color"] = color
    if density:
        mat["density"] = density
    if mat:
        e["material"] = mat
    e.update(extra)
    entries.append(e)


def joint(kind, a, b, anchor, **keys):
    j = {"type": kind}
    if a:
        j["a"] = a
    j["b"] = b
    j["anchor"] = [round(v, 4) for v in anchor]
    for k, v in keys.items():
        j[k] = [round(x, 4) for x in v] if isinstance(v, list) else v
    joints.append(j)


WOOD, STEEL, FRAME = [0.63, 0.44, 0.25], [0.45, 0.47, 0.5], [0.35, 0.36, 0.38]
box("floor", [0, -0.5, 0], [40, 1, 40], body="static", color=[0.55, 0.57, 0.6])

# Swing at x = -8: a frame, a seat on two ropes, pushed along +z.
for s in (-1, 1):
    box(f"swing_post_{'l' if s < 0 else 'r'}", [-8 + 1.1 * s, 1.5, 0], [0.16, 3, 0.16], body="static", color=FRAME)
box("swing_bar", [-8, 3.06, 0], [2.4, 0.12, 0.12], body="static", color=FRAME)
box("swing_seat", [-8, 0.7, 0], [0.7, 0.08, 0.4], color=[0.35, 0.65, 0.35], velocity=[0, 0, 2.5])
for s in (-1, 1):
    joint("rope", "swing_bar", "swing_seat", [-8 + 0.3 * s, 3.0, 0], anchor_b=[-8 + 0.3 * s, 0.74, 0])

# Rope bridge at z = -5: 14 planks of 0.5 m over a 6.6 m span between two posts, deck 2 m up, in the
# parabola whose chords reach the far post; a ragdoll falls onto it.
PLANKS, PLANK, SPAN, DECK, BZ = 14, 0.5, 6.6, 2.0, -5.0


def chords(sag):
    h = SPAN / 2
    y = lambda x: DECK - sag * (1 - (x / h) ** 2)
    pts = [(-h, DECK)]
    for _ in range(PLANKS):
        x0, y0 = pts[-1]
        lo, hi = x0, x0 + PLANK
        for _ in range(60):
            mid = (lo + hi) / 2
            if (mid - x0) ** 2 + (y(mid) - y0) ** 2 < PLANK * PLANK:
                lo = mid
            else:
                hi = mid
        pts.append((lo, y(lo)))
    return pts


lo, hi = 0.0, 3.0
for _ in range(60):
    mid = (lo + hi) / 2
    if chords(mid)[-1][0] > SPAN / 2:
        lo = mid
    else:
        hi = mid
pts = chords((lo + hi) / 2)
pts[-1] = (SPAN / 2, DECK)
for s in (-1, 1):
    box(f"bridge_post_{'l' if s < 0 else 'r'}", [s * (SPAN / 2 + 0.2), DECK / 2, BZ], [0.4, DECK, 1.6],
        body="static", color=FRAME)
prev = "bridge_post_l"
for i in range(PLANKS):
    (x0, y0), (x1, y1) = pts[i], pts[i + 1]
    name = f"plank_{i}"
    box(name, [(x0 + x1) / 2, (y0 + y1) / 2, BZ], [PLANK, 0.08, 1.2], color=WOOD, density=170,
        rotation=[0, 0, round(math.degrees(math.atan2(y1 - y0, x1 - x0)), 3)])
    joint("revolute", prev, name, [x0, y0, BZ], axis=[0, 0, 1])
    prev = name
joint("revolute", "bridge_post_r", prev, [pts[-1][0], pts[-1][1], BZ], axis=[0, 0, 1])

# A ragdoll of boxes and a sphere, 1.8 m, feet 3.5 m up over the bridge's middle: it falls onto the deck. Its
# joints have the friction of the engine's ragdolls (src/recipes/recipes.c, RAGDOLL_JOINT_FRICTION).
fx, fy, fz = 0.0, 3.5, BZ
RAGDOLL_FRICTION = 0.5  # N m
SKIN = [0.88, 0.66, 0.47]
box("pelvis", [fx, fy + 1.0, fz], [0.28, 0.16, 0.2], color=SKIN)
box("chest", [fx, fy + 1.29, fz], [0.34, 0.38, 0.2], color=SKIN)
entries.append({"name": "head", "generator": "sphere", "radius": 0.11, "position": [fx, fy + 1.6, fz],
                "material": {"color": SKIN}})
joint("spherical", "pelvis", "chest", [fx, fy + 1.09, fz], axis=[0, 1, 0], cone=30, twist=[-30, 30],
      friction=RAGDOLL_FRICTION)
joint("spherical", "chest", "head", [fx, fy + 1.49, fz], axis=[0, 1, 0], cone=40, twist=[-60, 60],
      friction=RAGDOLL_FRICTION)
for s, side in ((-1, "l"), (1, "r")):
    box(f"thigh_{side}", [fx + 0.09 * s, fy + 0.71, fz], [0.12, 0.4, 0.12], color=SKIN)
    box(f"shin_{side}", [fx + 0.09 * s, fy + 0.27, fz], [0.1, 0.4, 0.1], color=SKIN)
    box(f"upper_arm_{side}", [fx + 0.24 * s, fy + 1.3, fz], [0.1, 0.3, 0.1], color=SKIN)
    box(f"forearm_{side}", [fx + 0.24 * s, fy + 1.0, fz], [0.09, 0.28, 0.09], color=SKIN)
    joint("spherical", "pelvis", f"thigh_{side}", [fx + 0.09 * s, fy + 0.94, fz], axis=[0, -1, 0], cone=70,
          twist=[-20, 20], friction=RAGDOLL_FRICTION)
    joint("revolute", f"thigh_{side}", f"shin_{side}", [fx + 0.09 * s, fy + 0.49, fz], axis=[1, 0, 0],
          limits=[-135, 0], friction=RAGDOLL_FRICTION)
    joint("spherical", "chest", f"upper_arm_{side}", [fx + 0.24 * s, fy + 1.45, fz], axis=[0, -1, 0], cone=80,
          twist=[-45, 45], friction=RAGDOLL_FRICTION)
    joint("revolute", f"upper_arm_{side}", f"forearm_{side}", [fx + 0.24 * s, fy + 1.15, fz], axis=[1, 0, 0],
          limits=[0, 135], friction=RAGDOLL_FRICTION)

# Wrecking ball at x = 8: a gantry, 6 links laid level along +z from the arm's end, a steel ball; it swings
# down through a tower of 4 blocks standing under the arm.
AX, AY = 8.2, 6.0
box("gantry_post", [5.5, 3.0, 0], [0.3, 6, 0.3], body="static", color=FRAME)
box("gantry_arm", [6.95, 6.1, 0], [3.2, 0.2, 0.2], body="static", color=FRAME)
prev = "gantry_arm"
for i in range(6):
    name = f"link_{i}"
    box(name, [AX, AY, 0.6 * i + 0.3], [0.12, 0.12, 0.6], color=STEEL, density=2000)
    joint("spherical", prev, name, [AX, AY, 0.6 * i])
    prev = name
entries.append({"name": "ball", "generator": "sphere", "radius": 0.45, "position": [AX, AY, 3.6 + 0.45],
                "material": {"density": 7800, "color": STEEL}})
joint("spherical", prev, "ball", [AX, AY, 3.6])
entries.append({"name": "target", "generator": "tower", "rows": 4, "size": [0.5, 0.5, 0.5],
                "position": [AX, 0, 0], "material": {"color": [0.85, 0.3, 0.2]}})

# A door at z = 4 hinged on a static jamb about y, opened by its motor up to its limit.
box("door_jamb", [-3.6, 1.1, 4], [0.2, 2.2, 0.2], body="static", color=FRAME)
box("door", [-2.95, 1.06, 4], [1.0, 2.0, 0.08], color=[0.5, 0.3, 0.2], density=500)
joint("revolute", "door_jamb", "door", [-3.48, 1.06, 4], axis=[0, 1, 0], limits=[-100, 100],
      motor={"speed": 60, "max_force": 300})

# A sign welded to the gantry post, and a crate on a sprung vertical slider.
box("sign", [5.0, 4.0, 0], [0.7, 0.5, 0.05], color=[0.9, 0.8, 0.2], density=300)
joint("weld", "gantry_post", "sign", [5.33, 4.0, 0])
box("slider_crate", [3.0, 2.5, 4], [0.6, 0.6, 0.6], color=[0.3, 0.55, 0.85])
joint("prismatic", "world", "slider_crate", [3.0, 2.5, 4], axis=[0, 1, 0], limits=[-2.0, 1.0],
      spring={"hertz": 0.8, "damping_ratio": 0.1, "target": 0.0}, break_force=1e6)

scene = {
    "description": "Joints to play with (issue 20): a swing, a rope bridge with a ragdoll, a wrecking ball on a "
                   "chain, a motor-driven door, a welded sign and a sprung slider. Written by tools/make_playground.py.",
    "gravity": [0, -9.81, 0],
    "time_step": 0.0166667,
    "camera": {"position": [2, 7, 16], "target": [0, 2, -1], "fov": 60},
    "entries": entries,
    "joints": joints,
}
with open("scenes/playground.json", "w") as f:
    f.write("{\n")
    keys = list(scene.keys())
    for k in keys:
        v = scene[k]
        if isinstance(v, list):
            f.write(f'  "{k}": [\n' + ",\n".join("    " + json.dumps(x) for x in v) + "\n  ]")
        else:
            f.write(f'  "{k}": {json.dumps(v)}')
        f.write(",\n" if k != keys[-1] else "\n")
    f.write("}\n")
