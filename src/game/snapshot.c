// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Bodies and joints copied out of a world and made again (see snapshot.h). When a body's shape gives the
// mass and centre it had, the engine works them out again itself, so a box or a thrown hull comes back bit
// for bit; a body whose mass came from elsewhere (a model's solid, a compound's parts of several densities)
// is given the mass properties it had.

#include "game/snapshot.h"

#include <math.h>   // fabsf, nextafterf, INFINITY
#include <stdio.h>  // snprintf
#include <stdlib.h> // calloc, realloc, free
#include <string.h> // memset, memcpy

// A made body keeps its shape's mass when that is within these of the one copied (relative; unit: m).
#define SNAPSHOT_MASS_TOLERANCE 1e-5f
#define SNAPSHOT_CENTER_TOLERANCE 1e-6f

static void set_err(char *err, size_t err_size, const char *text)
{
    level_set_error(err, err_size, text);
}

static bool grow(void **p, int *capacity, int need, size_t item)
{
    if (need <= *capacity)
        return true;
    int cap = *capacity > 0 ? *capacity : 16;
    while (cap < need)
        cap *= 2;
    void *q = realloc(*p, (size_t)cap * item);
    if (!q)
        return false;
    *p = q;
    *capacity = cap;
    return true;
}

// Appends a hull's vertices to the geometry's points; returns the index of the first, -1 out of memory.
static int add_points(snapshot_geom *g, int *capacity, const ph_hull *hull)
{
    if (!hull || !grow((void **)&g->points, capacity, g->point_count + hull->vertex_count, sizeof *g->points))
        return -1;
    int first = g->point_count;
    memcpy(g->points + first, hull->vertices, (size_t)hull->vertex_count * sizeof *g->points);
    g->point_count += hull->vertex_count;
    return first;
}

// The snapshot's copy of geometry id (made on first use); -1 when out of memory or unknown.
static int copy_geom(snapshot *s, int *geom_capacity, const ph_world *world, ph_shape shape)
{
    for (int i = 0; i < s->geom_count; i++)
        if (PH_ID_EQUALS(s->geoms[i].id, shape.geom))
            return i;
    if (!grow((void **)&s->geoms, geom_capacity, s->geom_count + 1, sizeof *s->geoms))
        return -1;
    snapshot_geom *g = &s->geoms[s->geom_count];
    memset(g, 0, sizeof *g);
    g->id = shape.geom;
    g->type = shape.type;
    int capacity = 0;
    bool ok = true;
    if (shape.type == PH_SHAPE_HULL)
        ok = add_points(g, &capacity, ph_world_get_hull(world, shape.geom)) >= 0;
    else if (shape.type == PH_SHAPE_COMPOUND)
    {
        const ph_compound *c = ph_world_get_compound(world, shape.geom);
        ok = c && (g->children = calloc((size_t)c->child_count, sizeof *g->children)) != NULL;
        for (int k = 0; ok && k < c->child_count; k++)
        {
            const ph_convex *cv = &c->children[k].shape;
            snapshot_child *ch = &g->children[k];
            ch->type = cv->type;
            ch->half_extents = cv->half_extents;
            ch->radius = cv->radius;
            ch->half_height = cv->half_height;
            ch->local = c->children[k].local;
            if (cv->type == PH_SHAPE_HULL)
            {
                ch->first_point = add_points(g, &capacity, cv->hull);
                ch->point_count = cv->hull ? cv->hull->vertex_count : 0;
                ok = ch->first_point >= 0;
            }
            g->child_count = k + 1;
        }
    }
    else if (shape.type == PH_SHAPE_MESH)
    {
        const ph_mesh *m = ph_world_get_mesh(world, shape.geom);
        int n = m ? ph_mesh_triangle_count(m) : 0;
        ok = m && (g->points = malloc((size_t)n * 3 * sizeof *g->points)) != NULL;
        for (int t = 0; ok && t < n; t++)
        {
            ph_convex tri = ph_mesh_triangle(m, t);
            memcpy(g->points + 3 * t, tri.tri, sizeof tri.tri);
        }
        g->point_count = ok ? 3 * n : 0;
    }
    s->geom_count++;
    return ok ? s->geom_count - 1 : -1;
}

static void take_body(snapshot_body *b, level *lv, ph_body_id id)
{
    ph_world *w = lv->world;
    memset(b, 0, sizeof *b);
    b->id = id;
    b->type = ph_body_get_type(w, id);
    b->shape = ph_body_get_shape(w, id);
    b->geom = -1;
    b->position = ph_body_get_position(w, id);
    b->orientation = ph_body_get_orientation(w, id);
    b->linear_velocity = ph_body_get_linear_velocity(w, id);
    b->angular_velocity = ph_body_get_angular_velocity(w, id);
    b->spin = ph_body_get_carried_spin(w, id);
    b->has_spin = true;
    b->awake = ph_body_is_awake(w, id);
    b->material = ph_body_get_material(w, id);
    if (b->type == PH_BODY_DYNAMIC)
    {
        // The body-frame figures from the world ones: the centre turned back, R^T I R.
        ph_quat inv = glms_quat_conjugate(b->orientation);
        b->mass.mass = ph_body_get_mass(w, id);
        b->center = ph_body_get_center_of_mass(w, id);
        b->mass.center = glms_quat_rotatev(inv, glms_vec3_sub(b->center, b->position));
        ph_mat3 r = glms_quat_mat3(b->orientation);
        b->mass.inertia =
            glms_mat3_mul(glms_mat3_mul(glms_mat3_transpose(r), ph_body_get_world_inertia(w, id)), r);
    }
    const level_body *lb = level_get_body(lv, id);
    b->rgba = lb ? lb->rgba : LEVEL_STATIC_RGBA;
    b->mesh = lb ? lb->mesh : -1;
    b->tag = lb ? lb->tag : LEVEL_TAG_NONE;
    b->frozen = lb && lb->frozen;
    b->start = lb ? lb->start : b->position;
}

static int index_of(const snapshot *s, ph_body_id id)
{
    if (PH_ID_IS_NULL(id))
        return -1;
    for (int i = 0; i < s->body_count; i++)
        if (PH_ID_EQUALS(s->bodies[i].id, id))
            return i;
    return -1;
}

bool snapshot_take(snapshot *s, level *lv, const ph_body_id *ids, int count)
{
    memset(s, 0, sizeof *s);
    if (!lv->world)
        return false;
    s->gravity = ph_world_get_gravity(lv->world);
    s->time_step = ph_world_get_time_step(lv->world);
    s->last_substep = ph_world_get_last_substep(lv->world);
    if (!ids)
        ids = level_list_bodies(lv, &count);
    s->bodies = calloc((size_t)(count > 0 ? count : 1), sizeof *s->bodies);
    bool ok = s->bodies != NULL;
    int geom_capacity = 0;
    for (int i = 0; ok && i < count; i++)
    {
        if (!ph_body_is_valid(lv->world, ids[i]))
            continue;
        snapshot_body *b = &s->bodies[s->body_count++];
        take_body(b, lv, ids[i]);
        if (b->shape.type == PH_SHAPE_HULL || b->shape.type == PH_SHAPE_COMPOUND ||
            b->shape.type == PH_SHAPE_MESH)
            ok = (b->geom = copy_geom(s, &geom_capacity, lv->world, b->shape)) >= 0;
    }
    int joints = ok ? ph_world_get_joint_count(lv->world) : 0;
    ph_joint_id *jids = joints > 0 ? calloc((size_t)joints, sizeof *jids) : NULL;
    if (joints > 0 && (!jids || !(s->joints = calloc((size_t)joints, sizeof *s->joints))))
        ok = false;
    joints = ok && jids ? ph_world_get_joints(lv->world, jids, joints) : 0;
    for (int j = 0; ok && j < joints; j++)
    {
        snapshot_joint *sj = &s->joints[s->joint_count];
        sj->def = ph_joint_get_def(lv->world, jids[j]);
        sj->a = index_of(s, sj->def.body_a);
        sj->b = index_of(s, sj->def.body_b);
        if (sj->a >= 0 || sj->b >= 0)
            s->joint_count++;
    }
    free(jids);
    if (!ok)
        snapshot_free(s);
    return ok;
}

// The geometry of g in the level's world; null id on failure (the world's error says why).
static ph_geom_id build_geom(ph_world *w, const snapshot_geom *g, float density)
{
    ph_hull_def hd = ph_default_hull_def();
    if (g->type == PH_SHAPE_HULL || g->type == PH_SHAPE_COMPOUND)
    {
        if (g->type == PH_SHAPE_HULL)
        {
            hd.points = g->points;
            hd.point_count = g->point_count;
            hd.vertex_budget = g->point_count > hd.vertex_budget ? g->point_count : hd.vertex_budget;
            hd.vertex_budget =
                hd.vertex_budget < PH_HULL_MAX_VERTICES ? hd.vertex_budget : PH_HULL_MAX_VERTICES;
            return ph_world_add_hull(w, &hd);
        }
        ph_compound_child_def *children =
            calloc((size_t)(g->child_count > 0 ? g->child_count : 1), sizeof *children);
        if (!children)
            return PH_NULL_GEOM_ID;
        bool ok = true;
        for (int k = 0; ok && k < g->child_count; k++)
        {
            const snapshot_child *ch = &g->children[k];
            children[k].local = ch->local;
            children[k].density = density;
            if (ch->type == PH_SHAPE_BOX)
                children[k].shape = ph_make_box(ch->half_extents);
            else if (ch->type == PH_SHAPE_SPHERE)
                children[k].shape = ph_make_sphere(ch->radius);
            else if (ch->type == PH_SHAPE_CAPSULE)
                children[k].shape = ph_make_capsule(ch->half_height, ch->radius);
            else
            {
                ph_hull_def cd = ph_default_hull_def();
                cd.points = g->points + ch->first_point;
                cd.point_count = ch->point_count;
                cd.vertex_budget = ch->point_count > cd.vertex_budget ? ch->point_count : cd.vertex_budget;
                cd.vertex_budget =
                    cd.vertex_budget < PH_HULL_MAX_VERTICES ? cd.vertex_budget : PH_HULL_MAX_VERTICES;
                ph_geom_id hull = ph_world_add_hull(w, &cd);
                children[k].shape = ph_make_geom_shape(PH_SHAPE_HULL, hull);
                ok = !PH_ID_IS_NULL(hull);
            }
        }
        ph_compound_def cdef = ph_default_compound_def();
        cdef.children = children;
        cdef.child_count = g->child_count;
        ph_geom_id id = ok ? ph_world_add_compound(w, &cdef) : PH_NULL_GEOM_ID;
        free(children);
        return id;
    }
    int *indices = malloc((size_t)(g->point_count > 0 ? g->point_count : 1) * sizeof *indices);
    if (!indices)
        return PH_NULL_GEOM_ID;
    for (int i = 0; i < g->point_count; i++)
        indices[i] = i;
    ph_mesh_def md = ph_default_mesh_def();
    md.vertices = g->points;
    md.vertex_count = g->point_count;
    md.indices = indices;
    md.triangle_count = g->point_count / 3;
    ph_geom_id id = ph_world_add_mesh(w, &md);
    free(indices);
    return id;
}

// The mass properties the engine gives a body of this shape and density (all zeros when unknown).
static ph_mass_properties shape_mass(const ph_world *w, ph_shape shape, float density)
{
    ph_convex c;
    memset(&c, 0, sizeof c);
    c.type = shape.type;
    c.half_extents = shape.half_extents;
    c.radius = shape.radius;
    c.half_height = shape.half_height;
    if (shape.type == PH_SHAPE_HULL)
        c.hull = ph_world_get_hull(w, shape.geom);
    if (shape.type != PH_SHAPE_COMPOUND)
        return ph_compute_mass(&c, density);
    ph_mass_properties sum;
    memset(&sum, 0, sizeof sum);
    const ph_compound *cp = ph_world_get_compound(w, shape.geom);
    for (int k = 0; cp && k < cp->child_count; k++)
        sum = ph_add_mass(
            sum, ph_transform_mass(ph_compute_mass(&cp->children[k].shape, density), cp->children[k].local));
    return sum;
}

// Whether the shape alone gives the body the mass and centre it had (then the engine's own figures are
// used, bit for bit).
static bool shape_gives_mass(const ph_world *w, const snapshot_body *b, ph_shape shape)
{
    ph_mass_properties m = shape_mass(w, shape, b->material.density);
    ph_vec3 d = glms_vec3_sub(m.center, b->mass.center);
    float scale = 1.0f + glms_vec3_norm(b->mass.center);
    return fabsf(m.mass - b->mass.mass) <= SNAPSHOT_MASS_TOLERANCE * b->mass.mass &&
           glms_vec3_norm(d) <= SNAPSHOT_CENTER_TOLERANCE * scale;
}

// The centre in the shape's frame that the engine's p + q c turns into the world centre want exactly, when
// a few corrections find it: the centre taken from the world figures is off by the rounding of its way back.
#define SNAPSHOT_CENTER_FITS 8
static ph_vec3 fit_center(ph_transform xf, ph_vec3 local, ph_vec3 want)
{
    ph_quat back = glms_quat_conjugate(xf.q);
    for (int i = 0; i < SNAPSHOT_CENTER_FITS; i++)
    {
        ph_vec3 got = ph_transform_point(xf, local);
        if (got.x == want.x && got.y == want.y && got.z == want.z)
            break;
        local = glms_vec3_add(local, glms_quat_rotatev(back, glms_vec3_sub(want, got)));
    }
    return local;
}

static float ulps(float x, int n)
{
    for (int k = 0; k < (n > 0 ? n : -n); k++)
        x = nextafterf(x, n > 0 ? INFINITY : -INFINITY);
    return x;
}

// The quaternion that the engine's normalisation of a new body's orientation turns into want exactly: a
// body's orientation is unit only to a few ulps, and normalising it again moves it. Searched within a
// few ulps of want per component (nearest first); want itself when none is found.
#define SNAPSHOT_QUAT_ULPS 3
static ph_quat fit_orientation(ph_quat want)
{
    static const int order[2 * SNAPSHOT_QUAT_ULPS + 1] = {0, 1, -1, 2, -2, 3, -3};
    enum
    {
        N = 2 * SNAPSHOT_QUAT_ULPS + 1
    };
    for (int i = 0; i < N * N * N * N; i++)
    {
        ph_quat q = {{ulps(want.x, order[i % N]), ulps(want.y, order[i / N % N]),
                      ulps(want.z, order[i / (N * N) % N]), ulps(want.w, order[i / (N * N * N)])}};
        ph_quat got = glms_quat_normalize(q);
        if (got.x == want.x && got.y == want.y && got.z == want.z && got.w == want.w)
            return q;
    }
    return want;
}

static ph_body_id make_body(level *lv, const snapshot_body *b, ph_shape shape, bool new_geometry)
{
    ph_body_def def = ph_default_body_def();
    def.type = b->type;
    def.position = b->position;
    def.orientation = fit_orientation(b->orientation);
    def.shape = shape;
    def.material = b->material;
    if (b->type != PH_BODY_STATIC)
    {
        def.linear_velocity = b->linear_velocity;
        def.angular_velocity = b->angular_velocity;
        def.is_awake = b->awake;
    }
    // A mass that came from elsewhere than the shape (a model's solid) is given as it was, and so is the mass
    // of geometry built again (its hull's rounding differs), the centre fitted so that the engine puts it
    // where it was to the bit.
    ph_mass_properties mp = b->mass;
    bool rebuilt = new_geometry && b->geom >= 0;
    if (b->type == PH_BODY_DYNAMIC && b->mass.mass > 0.0f &&
        (rebuilt || !shape_gives_mass(lv->world, b, shape)))
    {
        mp.center = fit_center((ph_transform){b->position, b->orientation}, mp.center, b->center);
        def.mass_properties = &mp;
    }
    // The angular velocity now went in the definition (turned into the carried one through the last
    // sub-step, which snapshot_restore set); the carried one, where kept, is then set as it was, since that
    // turn and its inverse round.
    ph_body_id id = ph_body_create(lv->world, &def);
    if (!PH_ID_IS_NULL(id) && b->type == PH_BODY_DYNAMIC && b->awake && b->has_spin &&
        ph_body_set_carried_spin(lv->world, id, b->spin) != PH_OK)
    {
        ph_body_destroy(lv->world, id);
        return PH_NULL_BODY_ID;
    }
    return id;
}

bool snapshot_restore(const snapshot *s, level *lv, bool new_geometry, bool keep_slots, ph_body_id *out_ids,
                      char *err, size_t err_size)
{
    ph_world *w = lv->world;
    ph_geom_id *geoms = calloc((size_t)(s->geom_count > 0 ? s->geom_count : 1), sizeof *geoms);
    ph_body_id *made = calloc((size_t)(s->body_count > 0 ? s->body_count : 1), sizeof *made);
    int max_slot = -1;
    for (int i = 0; i < s->body_count; i++)
        max_slot = (int)s->bodies[i].id.index1 - 1 > max_slot ? (int)s->bodies[i].id.index1 - 1 : max_slot;
    // By slot: the snapshot's body of each slot (keep_slots), -1 for a hole.
    int *by_slot = keep_slots ? malloc((size_t)(max_slot + 2) * sizeof *by_slot) : NULL;
    ph_body_id *holes = keep_slots ? calloc((size_t)(max_slot + 2), sizeof *holes) : NULL;
    bool ok = geoms && made && (!keep_slots || (by_slot && holes));
    if (!ok)
        set_err(err, err_size, "out of memory making the bodies again");
    for (int g = 0; ok && g < s->geom_count; g++)
    {
        geoms[g] = s->geoms[g].id;
        if (!new_geometry)
            continue;
        float density = ph_default_material().density;
        for (int i = 0; i < s->body_count; i++)
            if (s->bodies[i].geom == g)
                density = s->bodies[i].material.density;
        geoms[g] = build_geom(w, &s->geoms[g], density);
        if (PH_ID_IS_NULL(geoms[g]))
        {
            set_err(err, err_size, ph_world_last_error(w).message);
            ok = false;
        }
    }
    // The world's last sub-step before the bodies take their angular velocities: with it they carry what they
    // carried (a new world's sub-step is 0, and a spinning ragdoll's limbs came back off by a rounding).
    if (ok && ph_world_set_last_substep(w, s->last_substep) != PH_OK)
    {
        set_err(err, err_size, ph_world_last_error(w).message);
        ok = false;
    }
    int order_count = keep_slots ? max_slot + 1 : s->body_count;
    if (ok && keep_slots)
    {
        for (int slot = 0; slot <= max_slot; slot++)
            by_slot[slot] = -1;
        for (int i = 0; i < s->body_count; i++)
            by_slot[s->bodies[i].id.index1 - 1] = i;
    }
    int hole_count = 0;
    for (int k = 0; ok && k < order_count; k++)
    {
        int i = keep_slots ? by_slot[k] : k;
        if (i < 0)
        {
            // A slot no body of the snapshot had: filled for now, emptied once every body is made. Far
            // below everything, so that removing it wakes nothing.
            ph_body_def def = ph_default_body_def();
            def.position = (ph_vec3){{0.0f, -0.5f * PH_MAX_COORDINATE, 0.0f}};
            holes[hole_count] = ph_body_create(w, &def);
            ok = !PH_ID_IS_NULL(holes[hole_count++]);
            if (!ok)
                set_err(err, err_size, ph_world_last_error(w).message);
            continue;
        }
        const snapshot_body *b = &s->bodies[i];
        ph_shape shape = b->shape;
        if (b->geom >= 0)
            shape.geom = geoms[b->geom];
        made[i] = make_body(lv, b, shape, new_geometry);
        if (PH_ID_IS_NULL(made[i]))
        {
            char text[400];
            snprintf(text, sizeof text, "body %d (slot %u): %s", i, b->id.index1 - 1,
                     ph_world_last_error(w).message);
            set_err(err, err_size, text);
            ok = false;
            break;
        }
        level_adopt_new_bodies(lv, (level_tag)b->tag);
        level_body *lb = level_get_body(lv, made[i]);
        if (lb)
        {
            lb->rgba = b->rgba;
            lb->mesh = b->mesh;
            lb->start = b->start;
            lb->frozen = b->frozen;
        }
    }
    for (int h = 0; h < hole_count; h++)
        if (!PH_ID_IS_NULL(holes[h]))
            ph_body_destroy(w, holes[h]);
    int joints_lost = 0;
    for (int j = 0; ok && j < s->joint_count; j++)
    {
        const snapshot_joint *sj = &s->joints[j];
        ph_joint_def def = sj->def;
        def.body_a = sj->a >= 0 ? made[sj->a] : def.body_a;
        def.body_b = sj->b >= 0 ? made[sj->b] : def.body_b;
        bool ends =
            (PH_ID_IS_NULL(def.body_a) || ph_body_is_valid(w, def.body_a)) && ph_body_is_valid(w, def.body_b);
        // A joint to a body that is gone since (deleted, or not in a new world) is left out, and so is one
        // the engine no longer takes (a frozen body, now static, at its moving end).
        if (ends && PH_ID_IS_NULL(ph_joint_create(w, &def)))
            joints_lost++;
    }
    if (ok && joints_lost > 0)
    {
        char text[96];
        snprintf(text, sizeof text, "%d joint%s could not be made again", joints_lost,
                 joints_lost > 1 ? "s" : "");
        set_err(err, err_size, text);
    }
    if (out_ids && made)
        memcpy(out_ids, made, (size_t)s->body_count * sizeof *made);
    free(geoms);
    free(made);
    free(by_slot);
    free(holes);
    return ok;
}

bool snapshot_remake_world(level *lv, renderer *r, char *err, size_t err_size)
{
    snapshot s;
    if (!snapshot_take(&s, lv, NULL, 0))
    {
        set_err(err, err_size, "out of memory copying the world");
        return false;
    }
    ph_world_def def = ph_default_world_def();
    def.gravity = s.gravity;
    def.time_step = s.time_step;
    level next;
    bool ok = level_begin_world(&next, &def, lv->seed, err, err_size) &&
              snapshot_restore(&s, &next, true, true, NULL, err, err_size);
    snapshot_free(&s);
    if (!ok)
    {
        level_unload(&next, NULL);
        return false;
    }
    // What the level keeps besides its world goes with it; the render meshes are the same ones.
    memcpy(next.name, lv->name, sizeof next.name);
    memcpy(next.warning, lv->warning, sizeof next.warning);
    next.meshes = lv->meshes;
    next.mesh_count = lv->mesh_count;
    next.mesh_capacity = lv->mesh_capacity;
    lv->meshes = NULL;
    lv->mesh_count = lv->mesh_capacity = 0;
    next.camera_eye = lv->camera_eye;
    next.camera_target = lv->camera_target;
    next.camera_fov = lv->camera_fov;
    next.spawn_counter = lv->spawn_counter;
    next.removed_count = lv->removed_count;
    next.spawn_material_set = lv->spawn_material_set;
    next.spawn_material = lv->spawn_material;
    next.model = lv->model;
    lv->model = NULL;
    level_update_ground(&next);
    level_unload(lv, r);
    *lv = next;
    return true;
}

void snapshot_rename(snapshot *s, ph_body_id old_id, ph_body_id new_id)
{
    for (int i = 0; i < s->body_count; i++)
        if (PH_ID_EQUALS(s->bodies[i].id, old_id))
            s->bodies[i].id = new_id;
    for (int j = 0; j < s->joint_count; j++)
    {
        if (PH_ID_EQUALS(s->joints[j].def.body_a, old_id))
            s->joints[j].def.body_a = new_id;
        if (PH_ID_EQUALS(s->joints[j].def.body_b, old_id))
            s->joints[j].def.body_b = new_id;
    }
}

void snapshot_free(snapshot *s)
{
    for (int g = 0; g < s->geom_count; g++)
    {
        free(s->geoms[g].points);
        free(s->geoms[g].children);
    }
    free(s->geoms);
    free(s->bodies);
    free(s->joints);
    memset(s, 0, sizeof *s);
}
