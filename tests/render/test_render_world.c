// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Tests of the renderer's view of a physics world (render/world_view.c): every shape kind becomes the
// right instances, bodies outside the camera frustum are culled through the engine's octree (checked
// against a brute-force bounds-versus-planes test), the game's callback chooses poses and colours, a
// box is drawn where the physics says, and the engine's debug views and pair traces become lines.

#include "render/renderer.h"
#include "test.h"
#include "test_render_gl.h"

#include "phys/phys.h"

#include <stdlib.h> // getenv
#include <string.h> // memset

// Test world: ground slab, then one body of every shape kind in a row along x.
typedef struct test_world
{
    ph_world *world;
    ph_body_id ground, box, sphere, capsule, hull, compound, far_box;
} test_world;

// Instances each body kind makes: a capsule is a cylinder and two spheres; the compound has 2 children.
#define CAPSULE_INSTANCES 3
#define COMPOUND_CHILDREN 2

static ph_body_id add_body(ph_world *w, ph_body_type type, ph_shape shape, vec3s p)
{
    ph_body_def def = ph_default_body_def();
    def.type = type;
    def.shape = shape;
    def.position = p;
    def.enable_sleep = false;
    return ph_body_create(w, &def);
}

static bool build_world(test_world *t)
{
    memset(t, 0, sizeof *t);
    ph_world_def wdef = ph_default_world_def();
    t->world = ph_world_create(&wdef);
    if (!t->world)
        return false;
    ph_world *w = t->world;
    t->ground =
        add_body(w, PH_BODY_STATIC, ph_make_box((vec3s){{20.0f, 0.5f, 20.0f}}), (vec3s){{0.0f, -0.5f, 0.0f}});
    t->box =
        add_body(w, PH_BODY_DYNAMIC, ph_make_box((vec3s){{0.5f, 0.5f, 0.5f}}), (vec3s){{0.0f, 0.5f, 0.0f}});
    t->sphere = add_body(w, PH_BODY_DYNAMIC, ph_make_sphere(0.5f), (vec3s){{-2.5f, 0.5f, 0.0f}});
    t->capsule = add_body(w, PH_BODY_DYNAMIC, ph_make_capsule(0.5f, 0.3f), (vec3s){{2.5f, 0.8f, 0.0f}});
    const ph_vec3 points[5] = {{{-0.5f, 0.0f, -0.5f}},
                               {{0.5f, 0.0f, -0.5f}},
                               {{0.5f, 0.0f, 0.5f}},
                               {{-0.5f, 0.0f, 0.5f}},
                               {{0.0f, 1.0f, 0.0f}}};
    ph_hull_def hdef = ph_default_hull_def();
    hdef.points = points;
    hdef.point_count = 5;
    ph_geom_id hull = ph_world_add_hull(w, &hdef);
    t->hull =
        add_body(w, PH_BODY_DYNAMIC, ph_make_geom_shape(PH_SHAPE_HULL, hull), (vec3s){{-1.5f, 0.0f, -2.5f}});
    ph_compound_child_def children[COMPOUND_CHILDREN];
    memset(children, 0, sizeof children);
    for (int i = 0; i < COMPOUND_CHILDREN; i++)
    {
        children[i].shape = ph_make_box((vec3s){{0.3f, 0.3f, 0.3f}});
        children[i].local.p = (vec3s){{(float)i * 0.6f - 0.3f, 0.0f, 0.0f}};
        children[i].local.q = glms_quat_identity();
        children[i].density = 1000.0f;
    }
    ph_compound_def cdef = ph_default_compound_def();
    cdef.children = children;
    cdef.child_count = COMPOUND_CHILDREN;
    ph_geom_id compound = ph_world_add_compound(w, &cdef);
    t->compound = add_body(w, PH_BODY_DYNAMIC, ph_make_geom_shape(PH_SHAPE_COMPOUND, compound),
                           (vec3s){{1.5f, 0.3f, -2.5f}});
    // Far behind the camera: culled.
    t->far_box =
        add_body(w, PH_BODY_DYNAMIC, ph_make_box((vec3s){{0.5f, 0.5f, 0.5f}}), (vec3s){{0.0f, 0.5f, 60.0f}});
    return !PH_ID_IS_NULL(t->box) && !PH_ID_IS_NULL(t->hull) && !PH_ID_IS_NULL(t->compound) &&
           !PH_ID_IS_NULL(t->far_box) && !PH_ID_IS_NULL(t->capsule) && !PH_ID_IS_NULL(t->sphere);
}

static bool same_id(ph_body_id a, ph_body_id b)
{
    return a.index1 == b.index1 && a.generation == b.generation;
}

// The game's callback in these tests: skips the ground when asked, paints the box a known colour.
typedef struct paint_ctx
{
    const test_world *t;
    bool skip_ground;
    int calls;
} paint_ctx;

static bool paint(ph_body_id body, ph_transform *xf, uint32_t *rgba, uint32_t *flags, void *ctx)
{
    paint_ctx *p = ctx;
    (void)xf;
    p->calls++;
    if (p->skip_ground && same_id(body, p->t->ground))
        return false;
    if (same_id(body, p->t->box))
    {
        *rgba = 0x1060e0ff;
        *flags = 0;
    }
    return true;
}

// Brute force: is the body's bounding box at least partly inside all six planes (the conservative test
// the octree query promises)?
static bool bounds_touch_frustum(const ph_world *w, ph_body_id id, const ph_vec4 planes[6])
{
    ph_aabb b = ph_body_get_bounds(w, id);
    for (int k = 0; k < 6; k++)
    {
        // The box corner farthest along the plane normal.
        vec3s c = {{planes[k].x >= 0.0f ? b.hi.x : b.lo.x, planes[k].y >= 0.0f ? b.hi.y : b.lo.y,
                    planes[k].z >= 0.0f ? b.hi.z : b.lo.z}};
        if (planes[k].x * c.x + planes[k].y * c.y + planes[k].z * c.z + planes[k].w < 0.0f)
            return false;
    }
    return true;
}

static int world_shapes_culled_and_coloured(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    test_world t;
    ENSURE(build_world(&t));
    int errors = gl_error_count();
    render_camera cam = test_gl_camera((vec3s){{0.0f, 4.0f, 9.0f}}, (vec3s){{0.0f, 0.5f, -1.0f}});
    renderer_begin_frame(r, &cam);
    ph_vec4 planes[6];
    renderer_frustum_planes(r, planes);
    ph_body_id all[16];
    int n = ph_world_get_bodies(t.world, all, 16);
    int expected_bodies = 0;
    for (int i = 0; i < n; i++)
        expected_bodies += bounds_touch_frustum(t.world, all[i], planes);
    ENSURE(!bounds_touch_frustum(t.world, t.far_box, planes));
    ENSURE(expected_bodies == n - 1);

    paint_ctx ctx = {&t, false, 0};
    int submitted = renderer_submit_world(r, t.world, 0.0f, paint, &ctx);
    ENSURE(submitted == expected_bodies);
    ENSURE(ctx.calls == expected_bodies);
    render_options o = renderer_default_options();
    o.ground = false; // the ground body is drawn instead
    o.msaa_samples = 0;
    renderer_draw(r, &o);
    // ground, box, sphere, hull: 1 each; capsule 3; compound one per child.
    ENSURE(renderer_get_stats(r)->instances == 4 + CAPSULE_INSTANCES + COMPOUND_CHILDREN);
    ENSURE(test_gl_read_frame(r));
    // RENDER_TEST_SHOT=out.png keeps this frame for a person to look at.
    if (getenv("RENDER_TEST_SHOT"))
        renderer_screenshot(r, getenv("RENDER_TEST_SHOT"), NULL, 0);
    // The box is where the physics says, in the callback's colour.
    vec3s c;
    ENSURE(test_gl_sample_world(r, (vec3s){{0.0f, 0.5f, 0.5f}}, &c));
    ENSURE(c.z > 1.5f * c.x && c.z > 1.2f * c.y);
    // The hull (a pyramid) is drawn: its apex region differs from the ground's grey.
    ENSURE(test_gl_sample_world(r, (vec3s){{-1.5f, 0.5f, -2.4f}}, &c));
    vec3s ground;
    ENSURE(test_gl_sample_world(r, (vec3s){{-3.2f, 0.0f, -3.0f}}, &ground)); // beside it, open ground
    if (!(fabsf(c.x - ground.x) + fabsf(c.y - ground.y) + fabsf(c.z - ground.z) > 30.0f))
        fprintf(stderr, "hull pixel (%.0f %.0f %.0f), ground (%.0f %.0f %.0f)\n", (double)c.x, (double)c.y,
                (double)c.z, (double)ground.x, (double)ground.y, (double)ground.z);
    ENSURE(fabsf(c.x - ground.x) + fabsf(c.y - ground.y) + fabsf(c.z - ground.z) > 30.0f);

    // Skipping through the callback.
    renderer_begin_frame(r, &cam);
    ctx.skip_ground = true;
    ENSURE(renderer_submit_world(r, t.world, 0.0f, paint, &ctx) == expected_bodies - 1);
    // A margin large enough brings the far box in.
    renderer_begin_frame(r, &cam);
    ENSURE(renderer_submit_world(r, t.world, 100.0f, NULL, NULL) == n);
    // World geometry meshes survive a cache reset (rebuilt on the next submission).
    renderer_forget_geometry(r);
    renderer_begin_frame(r, &cam);
    ENSURE(renderer_submit_shape(r, t.world, ph_body_get_shape(t.world, t.hull),
                                 ph_body_get_transform(t.world, t.hull), 0xffffffff, 0));
    // A stale geometry id is refused.
    ph_shape stale = ph_make_geom_shape(PH_SHAPE_HULL, (ph_geom_id){0});
    ENSURE(!renderer_submit_shape(r, t.world, stale, ph_body_get_transform(t.world, t.hull), 0xffffffff, 0));
    ENSURE(!renderer_submit_shape(r, NULL, ph_body_get_shape(t.world, t.hull),
                                  ph_body_get_transform(t.world, t.hull), 0xffffffff, 0));
    renderer_draw(r, &o);
    renderer_forget_geometry(r);
    ph_world_destroy(t.world);
    ENSURE(gl_error_count() == errors);
    return 0;
}

static int world_debug_views_become_lines(void)
{
    renderer *r = test_gl_renderer();
    ENSURE(r);
    test_world t;
    ENSURE(build_world(&t));
    // Let the box settle into contact with the ground.
    for (int i = 0; i < 10; i++)
        ph_world_step(t.world);
    render_camera cam = test_gl_camera((vec3s){{0.0f, 4.0f, 9.0f}}, (vec3s){{0.0f, 0.5f, -1.0f}});
    render_options o = renderer_default_options();
    o.msaa_samples = 0;

    renderer_begin_frame(r, &cam);
    ph_debug_draw flags;
    memset(&flags, 0, sizeof flags);
    renderer_debug_world(r, t.world, &flags);
    renderer_draw(r, &o);
    ENSURE(renderer_get_stats(r)->debug_vertices == 0); // nothing asked, nothing drawn

    renderer_begin_frame(r, &cam);
    flags.draw_bounds = true;
    renderer_debug_world(r, t.world, &flags);
    renderer_draw(r, &o);
    // Each body's box has 12 edges of 2 vertices.
    ENSURE(renderer_get_stats(r)->debug_vertices >= 24 * ph_world_get_body_count(t.world));

    renderer_begin_frame(r, &cam);
    ph_pair_trace trace;
    ENSURE(renderer_debug_pair(r, t.world, t.box, t.ground, &trace) == PH_OK);
    renderer_draw(r, &o);
    // The origin cross and the witness segment at least, plus the simplex.
    ENSURE(renderer_get_stats(r)->debug_vertices >= 8 + 2 * trace.simplex.count);
    ph_body_id stale = t.far_box;
    ENSURE(ph_body_destroy(t.world, t.far_box) == PH_OK);
    renderer_begin_frame(r, &cam);
    ENSURE(renderer_debug_pair(r, t.world, t.box, stale, NULL) != PH_OK);
    ph_world_destroy(t.world);
    return 0;
}

const test_case test_render_world_cases[] = {
    {"render_world_shapes_culled_and_coloured", world_shapes_culled_and_coloured},
    {"render_world_debug_views_become_lines", world_debug_views_become_lines},
    {0},
};
