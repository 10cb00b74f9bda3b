#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
"""make soak: minutes of random player input to the sandbox built with AddressSanitizer (issue 21).

Each run opens a random scene, model or built-in scene and plays a random script through --script (the
same path as a player's input: clicks, holds and drags of both buttons, the wheel, every key the game
reads, Ctrl chords, and drops of every file in tests/data, models/ and scenes/), for a fixed number of
frames, then checks what it wrote: the process exited cleanly, neither sanitizer nor LeakSanitizer spoke
(the system libraries' one-time allocations are suppressed by tests/gl/lsan.supp, as in the GL tests),
--report counts every frame drawn, and no body's numbers are NaN or infinite. A failing run's script and
output are kept under the output folder, with the command to replay it.

Usage: tools/soak.py [--minutes M] [--seed N] [--sandbox PATH] [--out DIR] [--frames N]
"""
import argparse
import glob
import os
import random
import shlex
import shutil
import subprocess
import sys
import time

SIZE = (640, 360)
# Keys by SDL name: every key the game binds (src/game/input.c and the help overlay), and a few it does not.
KEYS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "Space", "Tab", "Delete", "Left", "Right",
        "PageUp", "PageDown", "A", "B", "C", "D", "E", "F", "G", "H", "J", "L", "M", "N", "P", "Q", "R",
        "S", "T", "V", "W", "X", "Y", "Z", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10",
        "F11", "F12", "Escape", "Left Shift", "K", "U"]
# Held while another key or a click: Ctrl chords (undo, redo, save, load) and Shift (fast camera).
MODIFIERS = ["Left Ctrl", "Left Shift"]
# At most this many events a run: the script parser's limit is 1024 (src/game/script.c).
MAX_EVENTS = 900


def files_to_drop(src):
    names = []
    for pattern in ("tests/data/*.obj", "tests/data/*.json", "models/*.obj", "scenes/*.json"):
        names += sorted(glob.glob(os.path.join(src, pattern)))
    return names


def what_to_open(src):
    # The reel files (scenes/reel*.json) are --reel's, not scenes: opened as a scene they are refused at start.
    scenes = [f for f in sorted(glob.glob(os.path.join(src, "scenes/*.json")))
              if not os.path.basename(f).startswith("reel")]
    return [None, "--scene first", "--scene boxes"] + scenes + sorted(glob.glob(os.path.join(src, "models/*.obj")))


def random_script(rng, frames, drops):
    events = []
    frame = 1
    w, h = SIZE
    while frame < frames - 2 and len(events) < MAX_EVENTS - 4:
        x, y = rng.randrange(w), rng.randrange(h)
        kind = rng.random()
        if kind < 0.30:  # a click, a hold (a charged throw) or a drag, with either button
            button = rng.choice(["left", "left", "right", "middle"])
            hold = rng.choice([0, 1, 5, 30])
            events.append((frame, "move %d %d" % (x, y)))
            events.append((frame, "down %d %d %s" % (x, y, button)))
            x2, y2 = min(w - 1, max(0, x + rng.randint(-200, 200))), min(h - 1, max(0, y + rng.randint(-120, 120)))
            events.append((frame + hold, "move %d %d" % (x2, y2)))
            events.append((frame + hold, "up %d %d %s" % (x2, y2, button)))
        elif kind < 0.40:
            events.append((frame, "move %d %d" % (x, y)))
        elif kind < 0.50:
            events.append((frame, "wheel %d" % rng.choice([-5, -2, -1, 1, 2, 5])))
        elif kind < 0.85:
            key = rng.choice(KEYS)
            # Escape quits (after closing what is open): rarely, so that most runs play their frames.
            if key == "Escape" and rng.random() < 0.8:
                key = "F1"
            events.append((frame, "key %s" % key))
        elif kind < 0.93:
            mod, key = rng.choice(MODIFIERS), rng.choice(["Z", "Y", "S", "L", "1", "2"])
            events.append((frame, "keydown %s" % mod))
            events.append((frame, "key %s" % key))
            events.append((frame + 1, "keyup %s" % mod))
        else:
            events.append((frame, "move %d %d" % (x, y)))
            events.append((frame, "drop %s" % rng.choice(drops)))
        frame += rng.choice([1, 1, 2, 3, 5, 8])
    events.sort(key=lambda e: e[0])
    return "; ".join("%d %s" % e for e in events), len(events)


def bad_numbers(report):
    for line in report.splitlines():
        words = line.lower().split()
        if any(w in ("nan", "-nan", "inf", "-inf") for w in words):
            return line
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--sandbox", default="build-test/sandbox")
    ap.add_argument("--out", default="build-test/soak")
    ap.add_argument("--frames", type=int, default=240)
    args = ap.parse_args()
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sandbox = os.path.abspath(args.sandbox)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    rng = random.Random(args.seed)
    drops = files_to_drop(src)
    opens = what_to_open(src)
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "offscreen")
    env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0:exitcode=23"
    env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1:exitcode=24"
    env["LSAN_OPTIONS"] = "suppressions=%s" % os.path.join(src, "tests/gl/lsan.supp")
    deadline = time.time() + 60.0 * args.minutes
    runs = frames = events = failures = quits = 0
    start = time.time()
    while time.time() < deadline:
        runs += 1
        what = rng.choice(opens)
        script, count = random_script(rng, args.frames, drops)
        run_dir = os.path.join(out, "run%04d" % runs)
        os.makedirs(run_dir, exist_ok=True)
        report = os.path.join(run_dir, "report.txt")
        cmd = [sandbox] + (shlex.split(what) if what and what.startswith("--") else ([what] if what else []))
        cmd += ["--size", "%dx%d" % SIZE, "--no-vsync", "--frames", str(args.frames), "--seed",
                str(rng.randrange(1 << 31)), "--script", script, "--report", report]
        # The game writes its saves and screenshots where it runs: each run in its own folder.
        proc = subprocess.run(cmd, cwd=run_dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=600)
        text = proc.stdout.decode("utf-8", "replace")
        problem = None
        if proc.returncode != 0:
            problem = "exit status %d" % proc.returncode
        elif "Sanitizer" in text or "runtime error" in text:
            problem = "a sanitizer reported"
        elif not os.path.exists(report):
            problem = "no report"
        else:
            rep = open(report, encoding="utf-8", errors="replace").read()
            drawn = [l for l in rep.splitlines() if l.startswith("frames ")]
            quit_line = [l for l in rep.splitlines() if l.startswith("quit ")]
            asked_quit = quit_line and quit_line[0].split()[1] != "0"
            if not drawn or (int(drawn[0].split()[1]) != args.frames and not asked_quit):
                problem = "frames drawn: %s of %d" % (drawn[0].split()[1] if drawn else "?", args.frames)
            elif bad_numbers(rep):
                problem = "a body's numbers are not finite: " + bad_numbers(rep)
            if asked_quit:
                quits += 1
            if drawn:
                frames += int(drawn[0].split()[1])
        events += count
        if problem:
            failures += 1
            with open(os.path.join(run_dir, "FAILED.txt"), "w") as f:
                f.write(problem + "\n\ncd %s && %s\n\n%s" % (shlex.quote(run_dir),
                                                             " ".join(shlex.quote(c) for c in cmd), text))
            print("soak: run %d FAILED (%s): see %s" % (runs, problem, run_dir), flush=True)
        else:
            shutil.rmtree(run_dir)  # its report, and what the game wrote there (saves, screenshots)
    seconds = time.time() - start
    print("soak: %d runs, %d frames, %d input events, %.0f s (seed %d): %d failed (crash, sanitizer, leak, "
          "NaN or a frame not drawn); %d runs quit early on Escape as asked" %
          (runs, frames, events, seconds, args.seed, failures, quits), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
