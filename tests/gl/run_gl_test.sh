#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The rigid-body sandbox developers
# One GL test of the sandbox: run_gl_test.sh NAME SANDBOX GL_CHECK OUTDIR SOURCE_DIR. Pictures and reports are
# kept in OUTDIR for a look after a failure. Without a display the offscreen driver is used; set
# SDL_VIDEODRIVER=x11 under xvfb-run to test through X instead.
set -eu
name=$1
sandbox=$2
check=$3
out=$4
src=$5
mkdir -p "$out"
if [ -z "${SDL_VIDEODRIVER:-}" ]; then
    export SDL_VIDEODRIVER=offscreen
fi
# Small pictures keep the software rasteriser quick; the tests' geometry does not depend on the size.
size=480x270
common="--size $size --no-vsync --no-hud"
run() {
    echo "+ sandbox $*"
    "$sandbox" "$@"
}

case "$name" in
first_window)
    # Issue 2's first window: the ground and one cube, lit; the cube's pixels differ from the sky's.
    run --scene first --frames 60 $common --screenshot "$out/first.png" --report "$out/first.txt"
    "$check" cube "$out/first.png" "$out/first.txt"
    ;;
tower_placement)
    # The tower's boxes are drawn where the physics says: each projects onto a pixel of the tower's hue.
    run --scene default --frames 45 $common --screenshot "$out/placement.png" --report "$out/placement.txt"
    "$check" placement "$out/placement.png" "$out/placement.txt"
    ;;
tower_stands)
    # Control for tower_throw: without input the tower stays up.
    run --scene default --frames 150 $common --report "$out/stands.txt"
    "$check" standing "$out/stands.txt" tower
    ;;
tower_throw)
    # Scripted input: aim at the tower's middle box, hold the button for 30 frames (charging the throw),
    # release; the box hits the tower and knocks it down. The picture still shows every visible tower box
    # where the physics has it.
    run --scene default --frames 1 $common --report "$out/aim.txt"
    xy=$("$check" aim "$out/aim.txt" tower)
    set -- $xy
    x=$1
    y=$2
    run --scene default --frames 180 $common --script "2 move $x $y; 3 down $x $y left; 33 up $x $y left" \
        --screenshot "$out/throw.png" --report "$out/throw.txt"
    "$check" fallen "$out/throw.txt" tower 50
    "$check" placement "$out/throw.png" "$out/throw.txt"
    ;;
grab)
    # Scripted Ctrl + left drag: the cube, resting 0.5 m high, is grabbed and pulled up by the spring while
    # the pointer moves 100 px up the screen (about 2.5 m at its distance), and hangs there while held.
    run --scene first --frames 40 $common --report "$out/grab_aim.txt"
    xy=$("$check" aim "$out/grab_aim.txt" box)
    set -- $xy
    x=$1
    y=$2
    run --scene first --frames 100 $common --report "$out/grab.txt" --script "40 move $x $y; 41 keydown Left Ctrl; \
42 down $x $y left; 50 move $x $((y - 50)); 55 move $x $((y - 100))"
    "$check" above "$out/grab.txt" box 1.5
    ;;
pause)
    # P freezes the falling cube in mid-air (it starts 2 m up and would land within 0.6 s); slow motion
    # (M) runs one physics step per ten frames: after 40 frames (4 steps) it has fallen about 2 cm
    # instead of reaching the ground.
    run --scene first --frames 60 $common --report "$out/pause.txt" --script "3 key P"
    "$check" above "$out/pause.txt" box 1.9
    run --scene first --frames 40 $common --report "$out/slow.txt" --script "0 key M"
    "$check" above "$out/slow.txt" box 1.6
    ;;
debug_views)
    # Every key and view once (help, HUD, debug views, camera toggle, spawns, pause/step, slow motion,
    # scene switching) with no GL error and a picture that is not blank.
    script="1 move 240 200; 2 key F1; 3 key F2; 4 key F3; 5 key F4; 6 key F5; 7 key F6; 8 key F7; 9 key F10"
    script="$script; 10 key 1; 11 key 2; 12 key 3; 13 key 4; 14 key 5; 15 key Tab; 16 down 240 120 left"
    script="$script; 20 up 240 120 left; 21 key P; 22 key N; 23 key P; 24 key M; 25 key C; 26 keydown W"
    script="$script; 30 keyup W; 31 key C; 32 down 240 135 right; 33 move 260 140; 34 up 260 140 right"
    script="$script; 35 wheel 2; 36 key F8; 37 key PageDown; 38 key PageUp; 39 key R; 40 key X"
    run --scene default --frames 60 --size $size --no-vsync --script "$script" \
        --screenshot "$out/views.png" --report "$out/views.txt"
    "$check" picture "$out/views.png" "$out/views.txt"
    ;;
render_scale)
    # Issue 21's frame time, dynamic resolution: the scene drawn at 0.6 of the size and upscaled still puts
    # every visible tower box on a pixel of the tower's red; --timing names the scale. A screenshot keeps the
    # full scale; playing on a software rasteriser adapts it (auto), on a GPU it stays 1.
    run --scene default --frames 45 $common --render-scale 0.6 --timing --screenshot "$out/scaled.png" \
        --report "$out/scaled.txt" >"$out/scaled_timing.txt"
    cat "$out/scaled_timing.txt"
    "$check" placement "$out/scaled.png" "$out/scaled.txt"
    grep -q "^render_scale 0.60 fixed" "$out/scaled.txt" || { echo "FAIL: not drawn at 0.6"; exit 1; }
    grep -q "render scale 0.60" "$out/scaled_timing.txt" || { echo "FAIL: --timing lacks the scale"; exit 1; }
    # --timing-passes splits the frame into the game's parts and the renderer's passes, each with its CPU time.
    run --scene default --frames 20 $common --render-scale 0.5 --timing-passes >"$out/passes.txt"
    cat "$out/passes.txt"
    grep -q "^timing passes (ms, mean): submit [0-9.]*, shadow [0-9.]* (CPU [0-9.]*), meshes .*, ground .*, sky .*, \
lines .*, post [0-9.]* (CPU [0-9.]*), text .*, panel [0-9.]*, read-back [0-9.]*, swap [0-9.]*$" "$out/passes.txt" ||
        { echo "FAIL: --timing-passes lacks a part of the frame"; exit 1; }
    run --scene default --frames 20 $common --screenshot "$out/full.png" --report "$out/full.txt"
    grep -q "^render_scale 1.00 fixed" "$out/full.txt" || { echo "FAIL: a screenshot is scaled"; exit 1; }
    run --scene default --frames 20 $common --report "$out/play.txt"
    grep "^render_scale\|^gl_software" "$out/play.txt"
    if grep -q "^gl_software 1" "$out/play.txt"; then
        grep -q "^render_scale [0-9.]* auto" "$out/play.txt" || { echo "FAIL: not automatic"; exit 1; }
    else
        grep -q "^render_scale 1.00 fixed" "$out/play.txt" || { echo "FAIL: scaled on a GPU"; exit 1; }
    fi
    ;;
headless)
    # --headless steps without SDL video: one statistics line per step, exit status 0.
    env -u SDL_VIDEODRIVER -u DISPLAY -u WAYLAND_DISPLAY "$sandbox" --headless --frames 30 >"$out/headless.txt"
    lines=$(grep -c '^[0-9]' "$out/headless.txt")
    echo "statistics lines: $lines (need 30)"
    [ "$lines" -eq 30 ]
    ;;
bad_input)
    # Unusable input: a clear message on stderr and exit status 1, never a crash.
    for args in "--headless no-such-scene.json" "no-such-model.obj" "--size 0x10" "--frames -3" "--bogus" \
        "--script '1 fly 2 3'" "--scene nowhere" "--render-scale 0.3" "--render-scale x"; do
        set +e
        eval "\"$sandbox\" $args" 2>"$out/${name}_err.txt" >/dev/null
        status=$?
        set -e
        echo "sandbox $args -> status $status: $(head -c 200 "$out/${name}_err.txt")"
        [ "$status" -eq 1 ] || { echo "FAIL: expected status 1"; exit 1; }
        [ -s "$out/${name}_err.txt" ] || { echo "FAIL: no message on stderr"; exit 1; }
    done
    # Without a display and without SDL_VIDEODRIVER the sandbox says how to run headless.
    set +e
    env -u SDL_VIDEODRIVER -u DISPLAY -u WAYLAND_DISPLAY "$sandbox" 2>"$out/${name}_err.txt"
    status=$?
    set -e
    echo "no display -> status $status: $(cat "$out/${name}_err.txt")"
    [ "$status" -eq 1 ] && grep -q "SDL_VIDEODRIVER=offscreen" "$out/${name}_err.txt" && grep -q "xvfb-run" "$out/${name}_err.txt"
    ;;
files)
    # Every scene in scenes/ (the reel's own excepted) and every model in models/ loads and simulates
    # headless with status 0; one scene is drawn too. Malformed files exit with status 1 and name the
    # file and line.
    for f in "$src"/scenes/*.json "$src"/models/*.obj; do
        case "$(basename "$f")" in reel*) continue ;; esac
        "$sandbox" --headless --frames 30 "$f" >"$out/files.txt" 2>"$out/files_err.txt" ||
            { echo "FAIL: $f"; cat "$out/files_err.txt"; exit 1; }
        echo "ok: $(tail -n 1 "$out/files.txt")"
    done
    run "$src/scenes/default.json" --frames 30 $common --screenshot "$out/scene.png" --report "$out/scene.txt"
    "$check" picture "$out/scene.png" "$out/scene.txt"
    # Dropping an .obj on the window loads it (a scripted SDL_DROPFILE): the chair becomes the level.
    run --scene first --frames 20 $common --script "2 drop $src/models/chair.obj" --report "$out/drop.txt" \
        2>"$out/drop_err.txt"
    grep -q "^body [0-9]* model " "$out/drop.txt" || { echo "FAIL: the dropped model is not in the level"; exit 1; }
    # The dropped chair thrown as the model projectile (three Tabs from the box) weighs what its solid does
    # (0.09684 m^3 of boards times the density), as the dropped one does, not what its hull (0.85 m^3) would.
    run --scene first --frames 30 $common --report "$out/throw_model.txt" \
        --script "2 drop $src/models/chair.obj; 4 key Tab; 5 key Tab; 6 key Tab; 8 down 240 120 left; 9 up 240 120 left" \
        2>"$out/throw_model_err.txt"
    awk '$1 == "body" && $3 == "model" { n++; v = $27 / $24; printf "model body %s: %.5f m^3 of solid\n", $2, v;
                                          if (v < 0.0959 || v > 0.0978) bad = 1 }
         END { if (n != 2 || bad) { print "FAIL: need the dropped and the thrown chair at 0.09684 m^3"; exit 1 } }' \
        "$out/throw_model.txt"
    for f in "$src"/tests/data/bad_index.obj "$src"/tests/data/bad_nan.obj; do
        set +e
        "$sandbox" --headless "$f" 2>"$out/${name}_err.txt" >/dev/null
        status=$?
        set -e
        echo "$(basename "$f") -> status $status: $(cat "$out/${name}_err.txt")"
        [ "$status" -eq 1 ] && grep -q "$(basename "$f"):[0-9]" "$out/${name}_err.txt" || { echo "FAIL: expected status 1 and file:line"; exit 1; }
    done
    ;;
reel_record)
    # Issue 7: a two-second segment recorded with no display at all (no DISPLAY, no SDL_VIDEODRIVER: the
    # recording picks the offscreen driver itself) is an H.264 video in yuv420p of exactly 120 frames of
    # 320x180 (ffprobe decodes the file and counts the frames).
    rm -f "$out/reel.mp4"
    env -u SDL_VIDEODRIVER -u DISPLAY -u WAYLAND_DISPLAY "$sandbox" --reel "$src/tests/gl/reel_short.json" \
        --record "$out/reel.mp4" --size 320x180
    info=$(ffprobe -v error -count_frames -select_streams v:0 \
        -show_entries stream=codec_name,width,height,pix_fmt,nb_read_frames -of default=noprint_wrappers=1 \
        "$out/reel.mp4")
    echo "$info"
    for want in codec_name=h264 width=320 height=180 pix_fmt=yuv420p nb_read_frames=120; do
        echo "$info" | grep -qx "$want" || { echo "FAIL: expected $want"; exit 1; }
    done
    ;;
reel_frames)
    # The same build records the same frames: two recordings of the segment (every reel action, the replay
    # included) as PNG files are identical file for file, and the picture does change during the segment.
    rm -rf "$out/frames1" "$out/frames2"
    run --reel "$src/tests/gl/reel_short.json" --record "$out/frames1/" --size 320x180
    run --reel "$src/tests/gl/reel_short.json" --record "$out/frames2/" --size 320x180
    n1=$(ls "$out/frames1" | wc -l)
    n2=$(ls "$out/frames2" | wc -l)
    echo "frames: $n1 and $n2 (need 120 each)"
    [ "$n1" -eq 120 ] && [ "$n2" -eq 120 ]
    differ=0
    for f in "$out"/frames1/*.png; do
        cmp -s "$f" "$out/frames2/$(basename "$f")" || { echo "differs: $(basename "$f")"; differ=$((differ + 1)); }
    done
    echo "frames that differ between the two recordings: $differ"
    [ "$differ" -eq 0 ]
    if cmp -s "$out/frames1/frame_000000.png" "$out/frames1/frame_000119.png"; then
        echo "FAIL: the first and the last frame are the same picture"
        exit 1
    fi
    ;;
reel_replay)
    # A replay at 1x from reel time 0.5 s, started at 1.0 s, re-simulates the segment's history (two throws,
    # one before and one after 0.5 s): 59 ticks later the world is where the first play was after 89 steps.
    # The "history" segment plays the same scene and throws without the replay; one step more must change
    # the hash (so that the comparison can fail).
    run --reel "$src/tests/gl/reel_replay.json" --frames 90 $common --report "$out/history.txt"
    run --reel "$src/tests/gl/reel_replay.json" --frames 91 $common --report "$out/history_more.txt"
    run --reel "$src/tests/gl/reel_replay.json" --frames 120 $common --script "0 key Right" \
        --report "$out/replay.txt"
    h=$(grep '^state_hash' "$out/history.txt")
    m=$(grep '^state_hash' "$out/history_more.txt")
    r=$(grep '^state_hash' "$out/replay.txt")
    echo "history after 89 steps: $h; after 90: $m; replayed: $r"
    grep -qx "reel_segment 1" "$out/replay.txt" || { echo "FAIL: the replay segment did not play"; exit 1; }
    [ -n "$h" ] && [ "$h" = "$r" ] && [ "$h" != "$m" ]
    ;;
reel_keys)
    # Right, Right, Left skip to the second segment (four starts in all); Space then pauses the reel, so
    # its time stays at the two ticks it had played. Without keys the three 0.5 s segments loop: frame 100
    # (reel time 100/60 s) is back in the first segment.
    run --reel "$src/tests/gl/reel_keys.json" --frames 12 $common --report "$out/keys.txt" \
        --script "2 key Right; 4 key Right; 6 key Left; 8 key Space"
    grep '^reel_' "$out/keys.txt"
    grep -qx "reel_segment 1" "$out/keys.txt" && grep -qx "reel_segments_started 4" "$out/keys.txt" &&
        grep -qx "reel_time 0.0333" "$out/keys.txt" || { echo "FAIL: skip or pause"; exit 1; }
    run --reel "$src/tests/gl/reel_keys.json" --frames 101 $common --report "$out/loop.txt"
    grep '^reel_' "$out/loop.txt"
    grep -qx "reel_segment 0" "$out/loop.txt" && grep -qx "reel_segments_started 4" "$out/loop.txt" ||
        { echo "FAIL: the reel did not loop"; exit 1; }
    ;;
reel_errors)
    # A reel file with an unknown scene or a camera keyframe out of order is rejected with a message that
    # names the segment; recording without ffmpeg, at an odd size for yuv420p, or without an end are
    # rejected too. Each exits with status 1 and a message. (reel_err.txt: the tests run in parallel and
    # share the output folder.)
    check_error() {
        want=$1
        shift
        set +e
        "$@" 2>"$out/reel_err.txt" >/dev/null
        status=$?
        set -e
        echo "status $status: $(head -c 300 "$out/reel_err.txt")"
        [ "$status" -eq 1 ] && grep -qF "$want" "$out/reel_err.txt" || { echo "FAIL: expected status 1 and '$want'"; exit 1; }
    }
    check_error 'segments[1] ("broken scene"): unknown scene "no_such_scene"' \
        "$sandbox" --reel "$src/tests/gl/reel_bad_scene.json"
    check_error 'segments[1] ("bad camera"): camera[2].t: must be greater than camera[1].t' \
        "$sandbox" --reel "$src/tests/gl/reel_bad_keyframe.json"
    check_error "the ffmpeg program was not found" \
        env PATH=/nonexistent "$sandbox" --reel "$src/tests/gl/reel_short.json" --record "$out/none.mp4" $common
    check_error "needs an even width and height" \
        "$sandbox" --reel "$src/tests/gl/reel_short.json" --record "$out/odd.mp4" --size 321x180
    check_error "needs --frames N" "$sandbox" --record "$out/forever.mp4"
    ;;
ground_edge)
    # Issue 21 defect 1. The default scene's floor is 40 x 40 m: the report names it, and the grid covers it
    # alone. Box rain spawned past its edge (zoomed out, pointer beyond the edge) falls past the world
    # and every one of its 64 boxes is removed and counted; a thrown box is listed with the scene's bodies.
    run --frames 300 $common --script "2 wheel -5; 5 move 450 196; 6 key 5; 10 move 240 120; \
11 down 240 120 left; 12 up 240 120 left" --screenshot "$out/edge.png" --report "$out/edge.txt"
    "$check" picture "$out/edge.png" "$out/edge.txt"
    grep -E '^(removed|ground)' "$out/edge.txt"
    grep -qx "ground -20.0000 -20.0000 20.0000 20.0000 0.0000" "$out/edge.txt" || { echo "FAIL: ground"; exit 1; }
    grep -qx "removed 64" "$out/edge.txt" || { echo "FAIL: the 64 rain boxes were not removed"; exit 1; }
    ! grep -q "^body [0-9]* rain " "$out/edge.txt" || { echo "FAIL: rain boxes are still alive"; exit 1; }
    grep -q "^body [0-9]* projectile " "$out/edge.txt" || { echo "FAIL: the thrown box is not listed"; exit 1; }
    # Without the rain nothing is removed (the count is not a constant).
    run --frames 300 $common --report "$out/edge_none.txt"
    grep -qx "removed 0" "$out/edge_none.txt" || { echo "FAIL: bodies removed from the resting scene"; exit 1; }
    ;;
spawn_on_top)
    # Issue 21 defect 2. A pyramid spawned with the pointer on the scene's pyramid (scenes/default.json,
    # 0.8 m blocks, 6 rows, top face at 4.8 m) starts on top of it: every new block's bottom (0.5 m
    # below its centre) is above the highest scene block's top (0.4 m above its centre) under it.
    # Held, the key shows the blocks' outlines (green lines) before they are made.
    run --frames 40 $common --script "5 move 280 138; 6 keydown 2" --screenshot "$out/spawn_preview.png" \
        --report "$out/spawn_preview.txt"
    "$check" pixels "$out/spawn_preview.png" "$out/spawn_preview.txt" green 200
    ! grep -q "^body [0-9]* pyramid " "$out/spawn_preview.txt" || { echo "FAIL: spawned while held"; exit 1; }
    run --frames 40 $common --script "5 move 280 138; 6 key 2" --report "$out/spawn.txt"
    awk '$1 == "body" && $3 == "pyramid" { n++; if (low == "" || $5 < low) low = $5; sx += $4; sz += $6 }
         $1 == "body" { x[NR] = $4; y[NR] = $5; z[NR] = $6; t[NR] = $3 }
         END {
             if (n == 0) { print "FAIL: no pyramid spawned"; exit 1 }
             sx /= n; sz /= n; top = -1e9
             for (i in t) if (t[i] == "scene" && (x[i] - sx)^2 + (z[i] - sz)^2 < 9 && y[i] > top) top = y[i]
             printf "pyramid blocks %d, lowest bottom %.3f m; highest scene block top under it %.3f m\n", n, low - 0.5, top + 0.4
             if (low - 0.5 < top + 0.4 - 1e-3) { print "FAIL: the spawn starts inside the pyramid"; exit 1 }
         }' "$out/spawn.txt"
    ;;
first_click)
    # Issue 21 defect 3. On start a one-line hint is on screen (report: hint 1) and a white crosshair sits
    # at the pointer (F8, hiding the HUD, takes both away: the control). Holding the button draws the
    # throw's path (yellow). One click (no hold) at the built-in tower's middle block knocks it down: the
    # throw is aimed onto the point under the pointer at 20 m/s, and the click puts the hint away.
    run --frames 10 --size $size --no-vsync --script "5 move 200 120" --screenshot "$out/hint.png" \
        --report "$out/hint.txt"
    grep -qx "hint 1" "$out/hint.txt" || { echo "FAIL: no first-start hint"; exit 1; }
    "$check" pixels "$out/hint.png" "$out/hint.txt" white 30
    run --frames 10 --size $size --no-vsync --script "1 key F8; 5 move 200 120" --screenshot "$out/nohud.png" \
        --report "$out/nohud.txt"
    if "$check" pixels "$out/nohud.png" "$out/nohud.txt" white 30; then
        echo "FAIL: white pixels without the crosshair too: the check proves nothing"
        exit 1
    fi
    run --frames 20 $common --script "5 move 200 120; 6 down 200 120 left" --screenshot "$out/charge.png" \
        --report "$out/charge.txt"
    "$check" pixels "$out/charge.png" "$out/charge.txt" yellow 40
    run --scene default --frames 1 $common --report "$out/click_aim.txt"
    xy=$("$check" aim "$out/click_aim.txt" tower)
    set -- $xy
    run --scene default --frames 150 --size $size --no-vsync --script "2 move $1 $2; 3 down $1 $2 left; \
4 up $1 $2 left" --report "$out/click.txt"
    "$check" fallen "$out/click.txt" tower 50
    grep -qx "hint 0" "$out/click.txt" || { echo "FAIL: the hint stayed after the click"; exit 1; }
    ;;
model_framing)
    # Issue 21 defect 4. Each small model loaded alone is framed: it projects near the picture's centre and
    # the eye is within three bounding radii of it (it was about 60 m away). The grid is drawn on the
    # ground's top face (report: ground ... TOP), the model rests on it whole: its lowest point is the
    # ground's top, also for models whose vertices go below y = 0.
    for m in crate rock blob torus t_handle; do
        run "$src/models/$m.obj" --frames 60 $common --screenshot "$out/model_$m.png" --report "$out/model_$m.txt"
        "$check" picture "$out/model_$m.png" "$out/model_$m.txt"
        awk -v name=$m '$1 == "size" { w = $2; h = $3 } $1 == "eye" { ex = $2; ey = $3; ez = $4 }
            $1 == "ground" { top = $6; has = 1 }
            $1 == "body" && $3 == "model" { px = $10; py = $11; lo = $13; cx = $7; cy = $8; cz = $9
                r = sqrt(($15 - $12)^2 + ($16 - $13)^2 + ($17 - $14)^2) / 2; n++ }
            END {
                if (n != 1 || !has) { print "FAIL: " name ": expected one model body and a ground"; exit 1 }
                d = sqrt((cx - ex)^2 + (cy - ey)^2 + (cz - ez)^2)
                printf "%s: pixel (%.0f, %.0f) of %dx%d, eye %.2f m away (radius %.2f m), lowest point %.3f m, ground top %.3f m\n", name, px, py, w, h, d, r, lo, top
                if (px < w / 4 || px > 3 * w / 4 || py < h / 4 || py > 3 * h / 4) { print "FAIL: not in the middle of the picture"; exit 1 }
                if (d > 3 * (r > 0.5 ? r : 0.5)) { print "FAIL: not framed"; exit 1 }
                if (lo < top - 0.02 || lo > top + 0.02) { print "FAIL: not resting whole on the ground"; exit 1 }
            }' "$out/model_$m.txt"
    done
    ;;
drop_files)
    # Issue 21 defect 5. A model dropped on the window joins the scene at the pointer (open floor at the
    # lower left): the scene's bodies are all still there and the crate rests where the pointer was. R then
    # resets to the loaded scene (the crate is gone). A dropped scene replaces the level, and R reloads
    # the dropped scene, not the one before it.
    run --frames 90 $common --report "$out/drop_none.txt"
    run --frames 90 $common --script "5 move 120 200; 10 drop $src/models/crate.obj" \
        --screenshot "$out/drop_model.png" --report "$out/drop_model.txt"
    "$check" picture "$out/drop_model.png" "$out/drop_model.txt"
    before=$(grep -c "^body [0-9]* scene " "$out/drop_none.txt")
    after=$(grep -c "^body [0-9]* scene " "$out/drop_model.txt")
    echo "scene bodies without the drop: $before, with it: $after"
    [ "$before" -gt 0 ] && [ "$before" -eq "$after" ] || { echo "FAIL: the drop replaced the scene"; exit 1; }
    grep -qx "scene default" "$out/drop_model.txt" || { echo "FAIL: the scene changed"; exit 1; }
    awk '$1 == "body" && $3 == "model" { n++; px = $10; py = $11 }
         END { printf "crate bodies %d, drawn at (%.0f, %.0f), pointer at (120, 200)\n", n, px, py
               if (n != 1 || (px - 120)^2 + (py - 200)^2 > 25^2) { print "FAIL: the crate is not at the pointer"; exit 1 } }' \
        "$out/drop_model.txt"
    run --frames 90 $common --script "5 move 120 200; 10 drop $src/models/crate.obj; 60 key R" \
        --report "$out/drop_reset.txt"
    ! grep -q "^body [0-9]* model " "$out/drop_reset.txt" || { echo "FAIL: R kept the dropped crate"; exit 1; }
    [ "$(grep -c '^body' "$out/drop_reset.txt")" -eq "$(grep -c '^body' "$out/drop_none.txt")" ] ||
        { echo "FAIL: R did not restore the scene"; exit 1; }
    run --frames 90 $common --script "10 drop $src/scenes/stacking.json; 60 key R" --report "$out/drop_scene.txt"
    grep '^scene' "$out/drop_scene.txt"
    grep -qx "scene stacking" "$out/drop_scene.txt" || { echo "FAIL: R did not reload the dropped scene"; exit 1; }
    ;;
small_fixes)
    # Issue 21 defect 6, one check each. F7 on the default scene's pyramid, asleep by frame 100, shows the
    # GJK/EPA view of it and a neighbour (it said "that body touches nothing": the engine lists no contacts of sleeping bodies).
    run --frames 140 $common --script "100 move 285 128; 101 key F7" --report "$out/f7.txt"
    grep -qx "pair_view 1" "$out/f7.txt" || { echo "FAIL: F7 on a sleeping body"; exit 1; }
    # The HUD's contacts include the sleeping bodies' (it read 3 with the pyramid and tower asleep; the
    # same scene counts about 260 while they are awake).
    grep -E '^hud_(contacts|bodies)' "$out/f7.txt"
    awk '$1 == "hud_contacts" { c = $2 } $1 == "hud_bodies" { asleep = $4 }
         END { if (asleep < 30 || c < 200) { print "FAIL: contacts of sleeping bodies"; exit 1 } }' "$out/f7.txt"
    # The orbit camera dragged to look up from below and zoomed far out keeps its eye above the ground.
    run --frames 20 $common --script "5 down 200 150 right; 6 move 200 50; 7 move 200 0; 8 up 200 0 right; \
9 wheel -10" --report "$out/orbit.txt"
    grep '^eye' "$out/orbit.txt"
    awk '$1 == "eye" { y = $3 } $1 == "ground" { top = $6 }
         END { if (y < top + 0.29) { print "FAIL: the eye went below the ground"; exit 1 } }' "$out/orbit.txt"
    # Esc closes the help overlay and the game goes on; a second Esc quits.
    run --frames 40 $common --script "5 key F1; 10 key Escape" --report "$out/esc.txt"
    grep -qx "help 0" "$out/esc.txt" && grep -qx "quit 0" "$out/esc.txt" && grep -qx "frames 40" "$out/esc.txt" ||
        { echo "FAIL: Esc with the help open"; exit 1; }
    run --frames 40 $common --script "5 key F1; 10 key Escape; 15 key Escape" --report "$out/esc2.txt"
    grep -qx "quit 1" "$out/esc2.txt" || { echo "FAIL: the second Esc did not quit"; exit 1; }
    # R while paused: the HUD counts the reloaded scene's bodies (it read "bodies 0"), and names the scene
    # by its name, not its path.
    run --frames 40 $common --script "5 key P; 10 key R" --report "$out/paused_reset.txt"
    grep -E '^(hud_bodies|scene)' "$out/paused_reset.txt"
    bodies=$(grep -c '^body' "$out/paused_reset.txt")
    grep -qx "hud_bodies $bodies [0-9]* [0-9]*" "$out/paused_reset.txt" || { echo "FAIL: HUD body count"; exit 1; }
    grep -qx "scene default" "$out/paused_reset.txt" || { echo "FAIL: the scene's name"; exit 1; }
    # The shipped room loads without a warning about its own curtain.
    "$sandbox" --headless --frames 5 "$src/scenes/room.json" >/dev/null 2>"$out/room_err.txt"
    "$sandbox" --headless --frames 5 "$src/models/room.obj" >/dev/null 2>>"$out/room_err.txt"
    ! grep -i "warning" "$out/room_err.txt" || { echo "FAIL: the room warns"; exit 1; }
    ;;
heap)
    # Issue 21 defect 7. The 1,000-box scene starts as a staggered, jittered, randomly turned layout (the
    # start heights take hundreds of values, not ten layers) and falls into a heap: after 6 s no box is
    # higher than 7 m (the old 10 x 10 x 10 grid landed as a block 10 m high) and none fell off the ground.
    run --scene boxes --frames 2 $common --screenshot "$out/heap_start.png" --report "$out/heap_start.txt"
    "$check" picture "$out/heap_start.png" "$out/heap_start.txt"
    heights=$(awk '$1 == "body" && $3 == "box" { printf "%.2f\n", $5 }' "$out/heap_start.txt" | sort -u | wc -l)
    echo "distinct start heights: $heights (need > 100)"
    [ "$heights" -gt 100 ] || { echo "FAIL: the boxes start on a grid"; exit 1; }
    "$sandbox" --headless --scene boxes --frames 360 --report "$out/heap_end.txt" >/dev/null
    awk '$1 == "body" && $3 == "box" { n++; if ($8 > top) top = $8 } $1 == "removed" { removed = $2 }
         END { printf "boxes %d, highest centre %.2f m, removed %d\n", n, top, removed
               if (n != 1000 || top > 7.0 || removed != 0) { print "FAIL: not a heap"; exit 1 } }' "$out/heap_end.txt"
    # The reel's pile segment (the third) plays the same layout.
    run --reel "$src/scenes/reel.json" --frames 4 $common --script "0 key Right; 1 key Right" \
        --report "$out/heap_reel.txt"
    grep -qx "scene pile" "$out/heap_reel.txt" || { echo "FAIL: not the pile segment"; exit 1; }
    heights=$(awk '$1 == "body" && $4 != "" { printf "%.2f\n", $5 }' "$out/heap_reel.txt" | sort -u | wc -l)
    echo "reel pile: distinct start heights $heights (need > 100)"
    [ "$heights" -gt 100 ] || { echo "FAIL: the reel's boxes start on a grid"; exit 1; }
    ;;
joint_tools)
    # Issue 20's joint tools through scripted input on the default scene (960x540, points as pixels): G welds
    # the tower's top box to the pyramid's top box, T ropes the tower's fifth box to the ground, H pins a
    # pyramid box to the world (both clicks on it): 3 joints, drawn. B then removes the rope, clicked at the
    # middle of its line: 2 joints. Jointed spawns: 6 ragdoll (10 joints), 7 wrecking ball (8), 8 rope bridge
    # (17), 9 swing (2), 0 Newton's cradle (10).
    big="--size 960x540 --no-vsync"
    tools="2 key G; 3 move 406 153; 4 down 406 153 left; 5 up 406 153 left; 6 move 560 231;
        7 down 560 231 left; 8 up 560 231 left; 10 key T; 11 move 407 230; 12 down 407 230 left;
        13 up 407 230 left; 14 move 300 450; 15 down 300 450 left; 16 up 300 450 left; 18 key H;
        19 move 545 258; 20 down 545 258 left; 21 up 545 258 left; 22 move 548 262; 23 down 548 262 left;
        24 up 548 262 left"
    run --scene default --frames 40 $big --script "$tools" --screenshot "$out/joint_tools.png" \
        --report "$out/joint_tools.txt"
    "$check" picture "$out/joint_tools.png" "$out/joint_tools.txt"
    grep -qx "joints 3" "$out/joint_tools.txt" || { echo "FAIL: the tools made"; grep '^joints' "$out/joint_tools.txt"; exit 1; }
    run --scene default --frames 40 $big --script "$tools; 26 key B; 27 move 353 340; 28 down 353 340 left;
        29 up 353 340 left" --report "$out/joint_break.txt"
    grep -qx "joints 2" "$out/joint_break.txt" || { echo "FAIL: break left"; grep '^joints' "$out/joint_break.txt"; exit 1; }
    for spawn in "6 10" "7 8" "8 17" "9 2" "0 10"; do
        set -- $spawn
        run --scene first --frames 10 $big --script "2 move 480 330; 3 keydown $1; 5 keyup $1" \
            --report "$out/spawn_$1.txt"
        grep -qx "joints $2" "$out/spawn_$1.txt" || { echo "FAIL: spawn key $1 made"; grep '^joints' "$out/spawn_$1.txt"; exit 1; }
        awk '$1 == "removed" && $2 != 0 { print "FAIL: bodies fell off"; exit 1 }' "$out/spawn_$1.txt"
    done
    ;;
playground)
    # Issue 20: scenes/playground.json loads with its 37 joints, is drawn (a picture with the scene in it) and
    # after 8 s of play the bodies are where the joints hold them: no joint broke, nothing fell off or is
    # NaN, the 14 bridge planks (start z = -5, under 2.1 m, between the posts) still hang above the ground
    # with the ragdoll on them, the door (start (-2.95, 1.06, 4)) turned about its hinge at (-3.48, 4) and
    # kept its 0.53 m from it, and the wrecking ball knocked a block of the target tower (x = 8.2) over.
    run "$src/scenes/playground.json" --frames 480 $common --screenshot "$out/playground.png" \
        --report "$out/playground.txt"
    "$check" picture "$out/playground.png" "$out/playground.txt"
    grep -qx "joints 37" "$out/playground.txt" || { echo "FAIL: not 37 joints"; grep '^joints' "$out/playground.txt"; exit 1; }
    if grep -qi nan "$out/playground.txt"; then echo "FAIL: NaN in the report"; exit 1; fi
    awk 'function abs(v) { return v < 0 ? -v : v }
         $1 == "removed" { removed = $2 }
         $1 == "body" && abs($6 + 5) < 0.01 && $5 < 2.1 && abs($4) < 3.3 {
             planks++; if (lowest == "" || $13 < lowest) lowest = $13 }
         $1 == "body" && abs($4 + 2.95) < 0.01 && abs($5 - 1.06) < 0.01 && abs($6 - 4) < 0.01 {
             door = 1; dx = $7 + 3.48; dz = $9 - 4; reach = sqrt(dx * dx + dz * dz); swing = abs(dz) }
         $1 == "body" && abs($4 - 8.2) < 0.01 && $5 < 2 {
             d = sqrt(($7 - $4) ^ 2 + ($8 - $5) ^ 2 + ($9 - $6) ^ 2); if (d > moved) moved = d }
         END { printf "planks %d, lowest plank bottom %.3f m; door %d: %.3f m from the hinge (0.53), %.3f m off its\n", planks, lowest, door, reach, swing
               printf "closed line; tower block moved at most %.2f m; removed %d\n", moved, removed
               if (planks != 14 || lowest < 0.3 || !door || abs(reach - 0.53) > 0.03 || swing < 0.3 ||
                   moved < 0.5 || removed != 0) { print "FAIL: the playground is not where its joints hold it"; exit 1 } }' \
        "$out/playground.txt"
    ;;
panel)
    # Issue 21's panel (F11, Dear ImGui) used with the mouse at 1280x720: the report lists its widgets'
    # rectangles (window points), which the clicks below aim at. Control: without the panel, the click on the
    # gravity slider's spot throws a projectile; with it, the click sets gravity instead and throws nothing.
    big="--size 1280x720 --no-vsync --no-hud"
    run --frames 4 $big --script "1 key F11" --screenshot "$out/panel.png" --report "$out/panel.txt"
    "$check" picture "$out/panel.png" "$out/panel.txt"
    grep -qx "panel 1" "$out/panel.txt" && grep -qx "panel_stats_open 0" "$out/panel.txt" ||
        { echo "FAIL: the panel did not open, or its statistics are not folded"; exit 1; }
    # at NAME FRACTION REPORT: the window point at FRACTION of the widget's width, half its height.
    at() { awk -v n="$1" -v f="$2" '$1 == "panel_widget" && $2 == n { printf "%d %d\n", $3 + $5 * f, $4 + $6 / 2; exit }' "$3"; }
    set -- $(at gravity 0.02 "$out/panel.txt")
    gx=$1
    gy=$2
    click="5 move $gx $gy; 6 down $gx $gy left; 7 up $gx $gy left"
    run --frames 20 $big --script "$click" --report "$out/panel_off.txt"
    grep -q "^body [0-9]* projectile " "$out/panel_off.txt" || { echo "FAIL: control: no throw without the panel"; exit 1; }
    run --frames 20 $big --script "1 key F11; $click" --report "$out/panel_gravity.txt"
    grep '^gravity' "$out/panel_gravity.txt"
    ! grep -q "^body [0-9]* projectile " "$out/panel_gravity.txt" || { echo "FAIL: the click on the panel threw"; exit 1; }
    awk '$1 == "gravity" && $2 < 1.5 { ok = 1 } END { exit !ok }' "$out/panel_gravity.txt" || { echo "FAIL: gravity"; exit 1; }
    # The Undo button takes back a throw made before the panel opened.
    set -- $(at Undo 0.5 "$out/panel.txt")
    run --frames 20 $big --script "2 move 640 300; 3 down 640 300 left; 4 up 640 300 left; 6 key F11; 9 move $1 $2;
        10 down $1 $2 left; 11 up $1 $2 left" --report "$out/panel_undo.txt"
    grep '^history' "$out/panel_undo.txt"
    grep -qx "history 0 1" "$out/panel_undo.txt" && ! grep -q "^body [0-9]* projectile " "$out/panel_undo.txt" ||
        { echo "FAIL: the Undo button"; exit 1; }
    # A scene from the list, a debug view, the statistics, the time scale and the sub-steps (the world is made
    # again with 16: its hash is the same, paused, the cube in mid-air).
    set -- $(at first 0.1 "$out/panel.txt") $(at "contacts_(F2)" 0.1 "$out/panel.txt") \
        $(at Engine_statistics 0.5 "$out/panel.txt") $(at time_scale 0.0 "$out/panel.txt")
    run --frames 20 $big --script "1 key F11; 3 move $1 $2; 4 down $1 $2 left; 5 up $1 $2 left; 6 move $3 $4;
        7 down $3 $4 left; 8 up $3 $4 left; 9 move $5 $6; 10 down $5 $6 left; 11 up $5 $6 left; 12 move $7 $8;
        13 down $7 $8 left; 14 up $7 $8 left" --screenshot "$out/panel_clicks.png" --report "$out/panel_clicks.txt"
    grep -E '^(scene|views|panel_stats_open|time_scale)' "$out/panel_clicks.txt"
    grep -q "^scene first" "$out/panel_clicks.txt" || { echo "FAIL: the scene list"; exit 1; }
    grep -q "^views 1 " "$out/panel_clicks.txt" || { echo "FAIL: the contacts view"; exit 1; }
    grep -qx "panel_stats_open 1" "$out/panel_clicks.txt" || { echo "FAIL: the statistics"; exit 1; }
    grep -qx "time_scale 0.0500" "$out/panel_clicks.txt" || { echo "FAIL: the time scale"; exit 1; }
    set -- $(at sub-steps 0.99 "$out/panel.txt")
    run --scene first --frames 12 $big --script "1 key P" --report "$out/panel_steps0.txt"
    run --scene first --frames 12 $big --script "1 key P; 2 key F11; 3 move $1 $2; 4 down $1 $2 left; 5 up $1 $2 left" \
        --report "$out/panel_steps.txt"
    grep -E '^(substeps|state_hash)' "$out/panel_steps0.txt" "$out/panel_steps.txt"
    grep -qx "substeps 16" "$out/panel_steps.txt" || { echo "FAIL: the sub-steps"; exit 1; }
    [ "$(grep '^state_hash' "$out/panel_steps0.txt")" = "$(grep '^state_hash' "$out/panel_steps.txt")" ] ||
        { echo "FAIL: the world made again differs"; exit 1; }
    # Material: restitution near 1, then a tower spawned (key 1) on open ground has it; the projectile list
    # (open it, pick the capsule) and a size of about 1.5 m, then a throw: a capsule twice as long as thick.
    set -- $(at restitution 0.97 "$out/panel.txt") $(at projectile 0.5 "$out/panel.txt")
    # The same clicks as below up to the open list, whose entries' places the report gives.
    run --frames 10 $big --script "1 key F11; 3 move $1 $2; 4 down $1 $2 left; 5 up $1 $2 left; 6 move $3 $4;
        7 down $3 $4 left; 8 up $3 $4 left" --screenshot "$out/panel_combo.png" --report "$out/panel_combo.txt"
    set -- $1 $2 $3 $4 $(at projectile:capsule 0.5 "$out/panel_combo.txt") $(at size 0.48 "$out/panel.txt")
    run --frames 40 $big --script "1 key F11; 3 move $1 $2; 4 down $1 $2 left; 5 up $1 $2 left; 6 move $3 $4;
        7 down $3 $4 left; 8 up $3 $4 left; 10 move $5 $6; 11 down $5 $6 left; 12 up $5 $6 left; 13 move $7 $8;
        14 down $7 $8 left; 15 up $7 $8 left; 16 key F11; 18 move 300 620; 19 keydown 1; 20 keyup 1;
        22 move 640 300; 23 down 640 300 left; 24 up 640 300 left" --screenshot "$out/panel_spawn.png" \
        --report "$out/panel_spawn.txt"
    grep -E '^(spawn_material|projectile)' "$out/panel_spawn.txt"
    awk '$1 == "body" && $3 == "tower" { n++; if ($26 < 0.9) bad++ }
         $1 == "projectile" { kind = $2; size = $3 }
         $1 == "body" && $3 == "projectile" { p++; dx = $15 - $12; dy = $16 - $13; dz = $17 - $14
             big = dx > dy ? dx : dy; big = big > dz ? big : dz; small = dx < dy ? dx : dy; small = small < dz ? small : dz }
         END { printf "tower blocks %d (restitution < 0.9: %d); projectile %s %.2f m: %d thrown, bounds %.2f .. %.2f m\n", n, bad, kind, size, p, small, big
               if (n == 0 || bad > 0) { print "FAIL: the spawn material"; exit 1 }
               if (kind != "capsule" || size < 1.2 || p != 1 || big < 1.6 * size) { print "FAIL: the projectile"; exit 1 } }' \
        "$out/panel_spawn.txt"
    # Models of models/ from the list: the crate thrown as the file has it, then the size set to about 2.4 m
    # and the chair thrown: both are in the world as models (each drawn with its own mesh), the chair as
    # large as the size asks (its largest extent; tipped over its bounds are up to 1.5 times that).
    set -- $(at projectile 0.3 "$out/panel.txt") $(at projectile:crate.obj 0.5 "$out/panel_combo.txt") \
        $(at projectile:chair.obj 0.5 "$out/panel_combo.txt") $(at size 0.8 "$out/panel.txt")
    run --scene first --frames 70 $big --script "1 key F11; 7 move $1 $2; 8 down $1 $2 left; 9 up $1 $2 left;
        10 move $3 $4; 11 down $3 $4 left; 12 up $3 $4 left; 14 move 400 420; 15 down 400 420 left;
        16 up 400 420 left; 17 move $7 $8; 18 down $7 $8 left; 19 up $7 $8 left; 20 move $1 $2; 21 down $1 $2 left;
        22 up $1 $2 left; 23 move $5 $6; 24 down $5 $6 left; 25 up $5 $6 left; 27 move 600 420;
        28 down 600 420 left; 29 up 600 420 left" --screenshot "$out/panel_models.png" --report "$out/panel_models.txt"
    awk '$1 == "projectile" { size = $3 }
         $1 == "body" && $3 == "model" { n++; dx = $15 - $12; dy = $16 - $13; dz = $17 - $14
             e = dx > dy ? dx : dy; e = e > dz ? e : dz; last = e; if (n == 1) first = e }
         END { printf "model bodies thrown: %d (need 2); the crate %.2f m, the chair %.2f m at size %.2f m\n", n, first, last, size
               if (n != 2 || size < 2 || last < 0.9 * size || last > 1.5 * size || first > 1.5) { print "FAIL: models from the list"; exit 1 } }' \
        "$out/panel_models.txt"
    ;;
physics_gun)
    # Issue 21's grab as a physics gun, on the first scene's cube (Ctrl + left drag). Held, it is drawn
    # highlighted (brighter than the same cube not held: the control); the wheel pushes it away; V turns it
    # (against the same grab without V); F freezes it in the air (static, it stays there after the release),
    # and F pointed at it unfreezes it (it falls to the ground).
    run --scene first --frames 40 $common --report "$out/gun_aim.txt"
    set -- $("$check" aim "$out/gun_aim.txt" box)
    x=$1
    y=$2
    grab="40 move $x $y; 41 keydown Left Ctrl; 42 down $x $y left"
    run --scene first --frames 48 $common --script "$grab" --screenshot "$out/gun_held.png" --report "$out/gun_held.txt"
    run --scene first --frames 48 $common --script "40 move $x $y" --screenshot "$out/gun_free.png" --report "$out/gun_free.txt"
    awk '$1 == "body" && $3 == "box" { exit $23 != 1 }' "$out/gun_held.txt" || { echo "FAIL: not highlighted"; exit 1; }
    held=$("$check" brightness "$out/gun_held.png" "$out/gun_held.txt" $x $((y + 4)) 3 | tail -n 1)
    free=$("$check" brightness "$out/gun_free.png" "$out/gun_free.txt" $x $((y + 4)) 3 | tail -n 1)
    echo "brightness of the cube held $held, not held $free"
    awk -v h="$held" -v f="$free" 'BEGIN { exit !(h > f + 15) }' || { echo "FAIL: the held cube is not brighter"; exit 1; }
    run --scene first --frames 100 $common --script "$grab; 50 move $x $((y - 20))" --report "$out/gun_plain.txt"
    run --scene first --frames 100 $common --script "$grab; 50 move $x $((y - 20)); 55 wheel 4" --report "$out/gun_push.txt"
    run --scene first --frames 100 $common --script "$grab; 50 move $x $((y - 20)); 55 keydown V; 95 keyup V" \
        --report "$out/gun_turn.txt"
    awk 'FNR == 1 { f++ } $1 == "eye" { ex = $2; ey = $3; ez = $4 }
         $1 == "body" && $3 == "box" { d[f] = sqrt(($7 - ex)^2 + ($8 - ey)^2 + ($9 - ez)^2); q[f, 0] = $18; q[f, 1] = $19; q[f, 2] = $20; q[f, 3] = $21 }
         END { dot = 0; for (i = 0; i < 4; i++) dot += q[1, i] * q[3, i]; dot = dot < 0 ? -dot : dot; dot = dot > 1 ? 1 : dot
               turn = 2 * atan2(sqrt(1 - dot * dot), dot)
               printf "held cube: %.2f m from the eye, pushed %.2f m; turned by V %.2f rad\n", d[1], d[2], turn
               if (d[2] < d[1] + 1.0) { print "FAIL: the wheel did not push it away"; exit 1 }
               if (turn < 0.3) { print "FAIL: V did not turn it"; exit 1 } }' \
        "$out/gun_plain.txt" "$out/gun_push.txt" "$out/gun_turn.txt"
    freeze="$grab; 50 move $x $((y - 60)); 70 key F; 72 up $x $((y - 60)) left; 73 keyup Left Ctrl"
    run --scene first --frames 150 $common --script "$freeze" --report "$out/gun_frozen.txt"
    set -- $(awk '$1 == "body" && $3 == "box" { printf "%d %d %s %.3f\n", $10, $11, $22, $8 }' "$out/gun_frozen.txt")
    echo "frozen cube: $3 at height $4 m, drawn at ($1, $2)"
    [ "$3" = static ] && awk -v h="$4" 'BEGIN { exit !(h > 1.5) }' || { echo "FAIL: not frozen in the air"; exit 1; }
    run --scene first --frames 250 $common --script "$freeze; 150 move $1 $2; 151 key F" --report "$out/gun_thawed.txt"
    set -- $(awk '$1 == "body" && $3 == "box" { printf "%s %.3f\n", $22, $8 }' "$out/gun_thawed.txt")
    echo "unfrozen cube: $1 at height $2 m"
    [ "$1" = dynamic ] && awk -v h="$2" 'BEGIN { exit !(h < 0.6) }' || { echo "FAIL: not unfrozen"; exit 1; }
    ;;
save_undo)
    # Issue 21's save, undo and screenshot keys, run in a folder of their own (saves/ and screenshots/ are
    # made in the working directory). The first scene with a throw, a box rain, a pyramid and a ragdoll,
    # paused in flight and quick-saved (Ctrl+S); the save loaded paused has the same world hash and bodies,
    # and keeps the ragdoll's joints with their friction. Ctrl+L loads it back in the same run too. A
    # malformed save is refused with its file and field named.
    dir="$out/save_undo"
    rm -rf "$dir"
    mkdir -p "$dir"
    cd "$dir"
    play="2 move 240 150; 3 down 240 150 left; 4 up 240 150 left; 5 key 5; 12 key 2; 14 move 420 120; 15 key 6;
        40 key P; 41 keydown Left Ctrl; 42 key S; 43 keyup Left Ctrl"
    run --scene first --frames 50 $common --script "$play" --report "$dir/saved.txt"
    [ -s saves/quick.save.json ] || { echo "FAIL: no save file"; exit 1; }
    [ "$(grep -c '"max_friction_torque":[[:space:]]*0.5' saves/quick.save.json)" -eq 10 ] ||
        { echo "FAIL: the ragdoll's 10 joints with their friction are not in the save"; exit 1; }
    run saves/quick.save.json --frames 3 $common --script "0 key P" --screenshot "$dir/loaded.png" --report "$dir/loaded.txt"
    "$check" picture "$dir/loaded.png" "$dir/loaded.txt"
    run --scene first --frames 60 $common --script "$play; 45 key 3; 50 keydown Left Ctrl; 51 key L; 52 keyup Left Ctrl" \
        --report "$dir/quickload.txt"
    grep -h '^state_hash' "$dir/saved.txt" "$dir/loaded.txt" "$dir/quickload.txt"
    h=$(grep '^state_hash' "$dir/saved.txt")
    [ "$h" = "$(grep '^state_hash' "$dir/loaded.txt")" ] && [ "$h" = "$(grep '^state_hash' "$dir/quickload.txt")" ] ||
        { echo "FAIL: the loaded world differs"; exit 1; }
    [ "$(grep -c '^body' "$dir/saved.txt")" -eq "$(grep -c '^body' "$dir/loaded.txt")" ] || { echo "FAIL: body count"; exit 1; }
    sed '0,/"awake":/s/"awake":\t\(true\|false\)/"awake":\t"yes"/' saves/quick.save.json > bad.save.json
    set +e
    "$sandbox" --headless bad.save.json 2>"$dir/bad_err.txt" >/dev/null
    status=$?
    set -e
    echo "bad save -> status $status: $(cat "$dir/bad_err.txt")"
    [ "$status" -eq 1 ] && grep -q 'bad.save.json: bodies\[0\].awake: must be true or false' "$dir/bad_err.txt" ||
        { echo "FAIL: expected status 1 naming the file and the field"; exit 1; }
    # Undo and redo: the cube frozen in the air (F), a tower spawned (1), a throw, a tower block deleted (X):
    # Ctrl+Z four times leaves the scene as it was (the one cube, dynamic); Ctrl+Y twice brings back the
    # freeze and the tower (all 8 blocks). F12 writes a screenshot.
    run --scene first --frames 3 $common --report "$dir/cube.txt"
    set -- $("$check" aim "$dir/cube.txt" box)
    acts="3 move $1 $2; 4 key F; 6 move 100 200; 7 keydown 1; 8 keyup 1; 10 move 240 40; 11 down 240 40 left;
        12 up 240 40 left; 14 move 100 190; 15 key X; 42 key F12"
    run --scene first --frames 60 $common --script "$acts" --screenshot "$dir/acts.png" --report "$dir/acts.txt"
    undo="50 keydown Left Ctrl; 51 key Z; 52 key Z; 53 key Z; 54 key Z"
    run --scene first --frames 60 $common --script "$acts; $undo" --report "$dir/undone.txt"
    run --scene first --frames 70 $common --script "$acts; $undo; 60 key Y; 61 key Y" --report "$dir/redone.txt"
    for f in acts undone redone; do
        printf '%s: history %s; ' $f "$(grep '^history' "$dir/$f.txt" | cut -d' ' -f2-)"
        awk '$1 == "body" { n[$3]++; if ($3 == "box") t = $22 } END { printf "tower blocks %d, projectiles %d, cubes %d (%s)\n", n["tower"], n["projectile"], n["box"], t }' "$dir/$f.txt"
    done
    expect() {
        awk -v towers=$2 -v thrown=$3 -v kind=$4 '$1 == "body" { n[$3]++; if ($3 == "box") t = $22 }
            END { exit !(n["tower"] == towers && n["projectile"] == thrown && n["box"] == 1 && t == kind) }' "$dir/$1.txt" ||
            { echo "FAIL: $1"; exit 1; }
    }
    expect acts 7 1 static
    expect undone 0 0 dynamic
    expect redone 8 0 static
    grep -qx "history 4 4" "$dir/acts.txt" && grep -qx "history 0 4" "$dir/undone.txt" && grep -qx "history 2 4" "$dir/redone.txt" ||
        { echo "FAIL: history counts"; exit 1; }
    ls screenshots/shot_000.png || { echo "FAIL: no screenshot"; exit 1; }
    # Fifty-five throws, all undone: none is left.
    throws=""
    undos=""
    for i in $(seq 0 54); do
        throws="$throws; $((2 + 2 * i)) down 240 60 left; $((3 + 2 * i)) up 240 60 left"
        undos="$undos; $((120 + i)) key Z"
    done
    run --scene first --frames 180 $common --script "1 move 240 60$throws; 119 keydown Left Ctrl$undos" \
        --report "$dir/undo55.txt"
    grep '^history' "$dir/undo55.txt"
    n=$(grep -c '^body [0-9]* projectile ' "$dir/undo55.txt" || true)
    echo "projectiles left after 55 throws and 55 undos: $n"
    [ "$n" -eq 0 ] && grep -qx "history 0 55" "$dir/undo55.txt" || { echo "FAIL: 55 undos"; exit 1; }
    ;;
impacts)
    # Issue 21's impact feedback: a box thrown at the built-in tower hits it about 0.9 s later; the hard
    # contacts then (the speed a point's impulse gives its lighter body over 1.5 m/s) flash white. The report
    # counts them; the control, the same scene without the throw, has none (resting contacts never count).
    run --scene default --frames 1 $common --report "$out/impact_aim.txt"
    set -- $("$check" aim "$out/impact_aim.txt" tower)
    run --scene default --frames 57 $common --script "2 move $1 $2; 3 down $1 $2 left; 4 up $1 $2 left" \
        --screenshot "$out/impact.png" --report "$out/impact.txt"
    run --scene default --frames 57 $common --screenshot "$out/impact_none.png" --report "$out/impact_none.txt"
    grep -h '^impacts' "$out/impact.txt" "$out/impact_none.txt"
    grep -qx "impacts 0" "$out/impact_none.txt" || { echo "FAIL: impacts without a throw"; exit 1; }
    awk '$1 == "impacts" { exit !($2 > 0) }' "$out/impact.txt" || { echo "FAIL: no impact"; exit 1; }
    "$check" pixels "$out/impact.png" "$out/impact.txt" white 20
    if "$check" pixels "$out/impact_none.png" "$out/impact_none.txt" white 20; then
        echo "FAIL: white pixels without the impact too: the check proves nothing"
        exit 1
    fi
    # Each impact knocks (silently: a scripted run opens no audio device), and K turns the knocks off.
    grep -h '^knocks' "$out/impact.txt" "$out/impact_none.txt"
    awk '$1 == "knocks" { exit !($2 > 0) }' "$out/impact.txt" || { echo "FAIL: no knock"; exit 1; }
    grep -qx "knocks 0" "$out/impact_none.txt" || { echo "FAIL: knocks without a throw"; exit 1; }
    run --scene default --frames 57 $common --script "1 key K; 2 move $1 $2; 3 down $1 $2 left; 4 up $1 $2 left" \
        --report "$out/impact_mute.txt"
    grep -qx "knocks 0" "$out/impact_mute.txt" || { echo "FAIL: knocks with the sound off"; exit 1; }
    awk '$1 == "impacts" { exit !($2 > 0) }' "$out/impact_mute.txt" || { echo "FAIL: no impact muted"; exit 1; }
    ;;
*)
    echo "unknown GL test $name"
    exit 2
    ;;
esac
