#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# Prints bench.json (from run_bench.sh) as side-by-side tables: per scene, our engine and Bullet's
# step times (median and p95) and their ratio, whether each engine's end state is right (end_ok, judged by
# bench_metrics.c against the recipe's expectations), drift, tunnelled bodies, kinetic energy at the end and
# peak memory; the reasons of every wrong end state; the restitution ladder and the spinner; then
# collide_bench against libccd. A scene whose end state is wrong in either engine has no ratio and stays out
# of the mean ratio: a run that exploded or let bodies through proves nothing about speed.
# Usage: bench_table.py build/bench.json
import json
import math
import re
import sys


def fmt(value, spec):
    if value is None:
        # Keep the column's alignment and width, drop its precision and type.
        return format("-", re.sub(r"(\.\d+)?[a-z]$", "", spec))
    if isinstance(value, bool):
        return "yes" if value else "no"
    return format(value, spec)


def load(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                print(f"bench_table: skipping a line that is not JSON: {line[:60]}", file=sys.stderr)
    return rows


def end_wrong(row):
    return bool(row) and row.get("end_ok") is False


def end_cell(row):
    if not row or "end_ok" not in row:
        return "-"
    return "ok" if row["end_ok"] else "WRONG"


def scene_table(rows):
    ours = {r["scene"]: r for r in rows if r.get("engine") == "ours"}
    bullet = {r["scene"]: r for r in rows if r.get("engine") == "bullet"}
    order = []
    for r in rows:
        name = r.get("scene")
        if r.get("engine") in ("ours", "bullet") and name and name not in order:
            order.append(name)
    header = (f"{'scene':<26} {'bodies':>6} | {'ours ms med':>11} {'p95':>8} | "
              f"{'bullet med':>10} {'p95':>8} | "
              f"{'ratio':>6} | {'end ours':>8} {'bullet':>6} | {'drift ours':>10} {'bullet':>8} | "
              f"{'tunnel ours':>11} {'bullet':>6} | "
              f"{'ke_end ours':>11} {'bullet':>10} | {'MB ours':>7} {'bullet':>6}")
    print(header)
    print("-" * len(header))
    ratios, left_out, wrong = [], [], {}
    for name in order:
        if name.endswith("_ccd") and name not in ours:
            base = name[: -len("_ccd")]
            o, b, label = ours.get(base), bullet.get(name), f"{base} (bullet ccd)"
        else:
            o, b, label = ours.get(name), bullet.get(name), name
        ratio = None
        if o and b and b.get("ms_step_median"):
            ratio = o["ms_step_median"] / b["ms_step_median"]
        get = lambda r, k: r.get(k) if r else None
        # Our row stands beside Bullet's plain and _ccd rows alike: its reasons are listed once.
        for engine, r in (("ours", o), ("bullet", b)):
            if end_wrong(r) and (engine, r["scene"]) not in wrong:
                wrong[(engine, r["scene"])] = r.get("end_reasons", [])
        ratio_cell = fmt(ratio, '>6.2f')
        if ratio is not None:
            if end_wrong(o) or end_wrong(b):
                ratio_cell = format("wrong", ">6")
                left_out.append(label)
            else:
                ratios.append(ratio)
        bodies = get(o, "bodies") if o else get(b, "bodies")
        print(f"{label:<26} {fmt(bodies, '>6')} | {fmt(get(o, 'ms_step_median'), '>11.4f')} "
              f"{fmt(get(o, 'ms_step_p95'), '>8.4f')} | {fmt(get(b, 'ms_step_median'), '>10.4f')} "
              f"{fmt(get(b, 'ms_step_p95'), '>8.4f')} | {ratio_cell} | "
              f"{end_cell(o):>8} {end_cell(b):>6} | "
              f"{fmt(get(o, 'max_drift_m'), '>10.4f')} {fmt(get(b, 'max_drift_m'), '>8.4f')} | "
              f"{fmt(get(o, 'tunneled'), '>11')} {fmt(get(b, 'tunneled'), '>6')} | "
              f"{fmt(get(o, 'ke_end'), '>11.4g')} {fmt(get(b, 'ke_end'), '>10.4g')} | "
              f"{fmt(get(o, 'peak_rss_mb'), '>7.1f')} {fmt(get(b, 'peak_rss_mb'), '>6.1f')}")
    print("ratio: our median step time / Bullet's (target <= 0.5), 'wrong' where either engine's end state is "
          "wrong. end: the end state against the recipe's expectations. drift: largest move after the first "
          "second (m). tunnel: bodies ever beyond a wall.")
    if ratios:
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"mean ratio (geometric) over the {len(ratios)} scenes whose end states are right in both engines: "
              f"{mean:.2f}" + (f"; left out: {', '.join(left_out)}" if left_out else ""))
    if wrong:
        print("end state wrong:")
        for (engine, name), reasons in wrong.items():
            print(f"  {name} ({engine}): " + "; ".join(reasons))
    moving = [(r["scene"], r["moving"]) for r in ours.values() if r.get("moving")]
    if moving:
        print("not expected to be at rest at the end (judged on the rest):")
        for name, why in moving:
            print(f"  {name}: {why}")
    for engine, table in (("ours", ours), ("bullet", bullet)):
        ladder = table.get("restitution_ladder")
        if ladder and ladder.get("rebound"):
            cells = []
            for i, r in enumerate(ladder["rebound"]):
                e = i / (len(ladder["rebound"]) - 1)
                cells.append(f"e={e:.1f}: {r:.3f}/{e * e:.3f}")
            print(f"restitution ladder ({engine}), rebound / ideal e^2: " + ", ".join(cells))
        spin = table.get("spinner")
        if spin:
            print(f"spinner ({engine}): ang_mom_err {fmt(spin.get('ang_mom_err'), '.5f')}, "
                  f"flipped {fmt(spin.get('flipped'), '')}")
        nans = [r["scene"] for r in table.values() if r.get("nan")]
        if nans:
            print(f"NaN ({engine}): {', '.join(nans)}")
        stages = [(r["scene"], r.get("ms_stage")) for r in table.values() if r.get("ms_stage")]
        if engine == "ours" and stages:
            print("our stages, ms per step:")
            for name, st in stages:
                print(f"  {name:<20} " + " ".join(f"{k} {v:.3f}" for k, v in st.items()))


def collide_table(rows):
    rows = [r for r in rows if r.get("engine") == "collide"]
    if not rows:
        return
    print()
    header = (f"{'collide query':<14} {'shapes':<8} {'pairs':>7} | "
              f"{'ns ours':>9} {'ns libccd':>10} {'ratio':>7}")
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r.get('query', '?'):<14} {r.get('shapes', '?'):<8} {fmt(r.get('pairs'), '>7')} | "
              f"{fmt(r.get('ns_ours'), '>9.1f')} {fmt(r.get('ns_libccd'), '>10.1f')} "
              f"{fmt(r.get('ratio'), '>7.3f')}")


def main():
    if len(sys.argv) != 2:
        print("usage: bench_table.py build/bench.json", file=sys.stderr)
        return 2
    rows = load(sys.argv[1])
    scene_table(rows)
    collide_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
