// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// From an obj_model to bodies (model_physics.h), through the public engine API only: ph_hull_build
// and ph_compute_mass (world-free) find each convex part's centroid and mass, then the geometry is
// added to the world re-centred on it (ph_world_add_hull/compound/mesh), so a body's origin is its
// centre of mass. The render mesh of each body is built with the same scale and origin.
#include "assets/model_physics.h"

#include "assets/path.h"

#include <math.h>   // fabsf, sqrtf, isfinite
#include <stdint.h> // INT32_MAX, int64_t
#include <stdio.h>  // snprintf
#include <stdlib.h> // malloc, realloc, free, qsort
#include <string.h> // strncmp, strlen, memcpy

// The mesh volume of a static object must match its hull volume this closely (relative) for the
// object to count as convex and collide as a hull; otherwise it becomes a triangle mesh.
#define MODEL_CONVEX_VOLUME_TOLERANCE 1e-3f
// The default ground of an .obj scene: this much wider than the scene on each side (unit: m), this
// thick (unit: m), and at least this wide (unit: m).
#define MODEL_GROUND_MARGIN 10.0f
#define MODEL_GROUND_THICKNESS 1.0f
#define MODEL_GROUND_MIN_HALF_WIDTH 20.0f
#define MODEL_GROUND_GREY 0.55f
// Name prefixes of the .obj scene convention (see model_physics.h and the README).
#define MODEL_PREFIX_STATIC "static"
#define MODEL_PREFIX_GROUND "ground"
#define MODEL_PREFIX_COMPOUND "compound_"
// Most convex parts one compound may have.
#define MODEL_MAX_PARTS 256
// An object of an .obj scene whose faces' total area is below this times its bounding-box diagonal
// squared is a point or a line: skipped with a warning.
#define MODEL_MIN_AREA_RATIO 1e-10

model_shape_options model_default_shape_options(void)
{
    model_shape_options o;
    o.kind = MODEL_SHAPE_HULL;
    o.scale[0] = o.scale[1] = o.scale[2] = 1.0f;
    o.first_triangle = 0;
    o.triangle_count = -1;
    o.vertex_budget = PH_HULL_MAX_VERTICES;
    o.density = ph_default_material().density;
    o.split = MODEL_SPLIT_GROUP;
    o.decompose = decompose_default_options();
    o.cache = false;
    return o;
}

model_body_options model_default_body_options(void)
{
    model_body_options o;
    o.shape = model_default_shape_options();
    o.type = PH_BODY_DYNAMIC;
    o.position = glms_vec3_zero();
    o.orientation = glms_quat_identity();
    o.linear_velocity = glms_vec3_zero();
    o.angular_velocity = glms_vec3_zero();
    o.material = ph_default_material();
    o.color[0] = o.color[1] = o.color[2] = 1.0f;
    o.name = NULL;
    return o;
}

model_scene_options model_default_scene_options(void)
{
    model_scene_options o;
    o.scale = 1.0f;
    o.offset = glms_vec3_zero();
    o.material = ph_default_material();
    o.default_ground = true;
    return o;
}

// ---- The model set ---------------------------------------------------------------------------------

bool model_set_add(model_set *set, ph_body_id body, model_mesh *mesh, const float color[3], const char *name)
{
    if (set->body_count == set->body_capacity)
    {
        int cap = set->body_capacity ? 2 * set->body_capacity : 16;
        model_body *b = realloc(set->bodies, (size_t)cap * sizeof *b);
        if (!b)
        {
            model_mesh_free(mesh);
            return false;
        }
        set->bodies = b;
        set->body_capacity = cap;
    }
    model_body *b = &set->bodies[set->body_count++];
    b->body = body;
    b->mesh = mesh;
    for (int k = 0; k < 3; k++)
        b->color[k] = color ? color[k] : 1.0f;
    snprintf(b->name, sizeof b->name, "%s", name ? name : "");
    return true;
}

void model_set_free(model_set *set)
{
    if (!set)
        return;
    for (int i = 0; i < set->body_count; i++)
        model_mesh_free(set->bodies[i].mesh);
    free(set->bodies);
    set->bodies = NULL;
    set->body_count = set->body_capacity = 0;
}

// Destroys the bodies added to set since `mark` and drops them from the set (undo of a failed load).
static void set_rollback(ph_world *world, model_set *set, int mark)
{
    for (int i = mark; i < set->body_count; i++)
    {
        ph_body_destroy(world, set->bodies[i].body);
        model_mesh_free(set->bodies[i].mesh);
    }
    set->body_count = mark;
}

// ---- Points of a triangle range --------------------------------------------------------------------

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

// The distinct positions used by triangles [first, first + count), in increasing index order, scaled.
// Returns the count (0 when out of memory); *out_points is malloc'd. When out_remap is not NULL it
// receives, per corner of the range, the index of its point (for meshes). An object's positions usually
// form a block of the file: a table over that span maps each to its point in linear time; when the span
// is much wider than the range (indices from all over the file), sorting the indices costs less.
static int range_points(const obj_model *m, int first, int count, const float scale[3], ph_vec3 **out_points,
                        int **out_remap)
{
    int corners = 3 * count;
    *out_points = NULL;
    int lo = INT32_MAX, hi = -1;
    for (int i = 0; i < corners; i++)
    {
        int v = m->triangles[first + i / 3].corner[i % 3].position;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    bool by_table = (int64_t)hi - lo < 4 * (int64_t)corners;
    size_t ids_len = by_table ? (size_t)(hi - lo + 1) : (size_t)corners;
    int *ids = malloc(ids_len * sizeof(int));
    if (!ids)
        return 0;
    int n = 0;
    if (by_table)
    {
        // ids[v - lo]: the point of position v, or -1 when the range does not use it.
        for (size_t i = 0; i < ids_len; i++)
            ids[i] = -1;
        for (int i = 0; i < corners; i++)
            ids[m->triangles[first + i / 3].corner[i % 3].position - lo] = 0;
        for (size_t i = 0; i < ids_len; i++)
            if (ids[i] == 0)
                ids[i] = n++ + 1; // 1-based while counting, so 0 still means "used, unnumbered"
    }
    else
    {
        for (int i = 0; i < corners; i++)
            ids[i] = m->triangles[first + i / 3].corner[i % 3].position;
        qsort(ids, (size_t)corners, sizeof(int), compare_int);
        for (int i = 0; i < corners; i++)
            if (n == 0 || ids[n - 1] != ids[i])
                ids[n++] = ids[i];
    }
    ph_vec3 *pts = malloc((size_t)n * sizeof(ph_vec3));
    int *remap = out_remap ? malloc((size_t)corners * sizeof(int)) : NULL;
    if (!pts || (out_remap && !remap))
    {
        free(ids);
        free(pts);
        free(remap);
        return 0;
    }
    for (size_t i = 0, k = 0; i < (by_table ? ids_len : (size_t)n); i++)
    {
        if (by_table && ids[i] < 0)
            continue;
        const float *p = m->positions + 3 * (by_table ? lo + (int)i : ids[i]);
        pts[k++] = ph_v3(p[0] * scale[0], p[1] * scale[1], p[2] * scale[2]);
    }
    for (int i = 0; remap && i < corners; i++)
    {
        int key = m->triangles[first + i / 3].corner[i % 3].position;
        if (by_table)
            remap[i] = ids[key - lo] - 1;
        else
            remap[i] = (int)((const int *)bsearch(&key, ids, (size_t)n, sizeof(int), compare_int) - ids);
    }
    if (remap)
        *out_remap = remap;
    free(ids);
    *out_points = pts;
    return n;
}

// ---- Convex parts ----------------------------------------------------------------------------------

// A convex part measured without a world: its hull (local, uncentred), centroid and mass.
typedef struct part
{
    ph_hull *hull;
    ph_mass_properties mass; // about the centroid, at the density asked
} part;

// Builds the hull of the part's points. PH_ERR_DEGENERATE when they are (nearly) flat: a hull whose
// thinnest width along any face normal is below MODEL_FLAT_RATIO of its bounding-box diagonal.
static ph_status part_build(const ph_vec3 *pts, int n, int budget, float density, part *out)
{
    out->hull = NULL;
    ph_hull_def def = ph_default_hull_def();
    def.points = pts;
    def.point_count = n;
    def.vertex_budget = budget;
    ph_status status = PH_OK;
    ph_hull *hull = n >= 4 ? ph_hull_build(&def, &status) : NULL;
    if (!hull)
        return n >= 4 && status != PH_OK ? status : PH_ERR_DEGENERATE;
    ph_vec3 ext = glms_vec3_sub(hull->bounds.hi, hull->bounds.lo);
    float diagonal = sqrtf(glms_vec3_dot(ext, ext));
    float thinnest = diagonal;
    for (int f = 0; f < hull->face_count; f++)
    {
        ph_vec3 nrm = hull->faces[f].normal;
        float lo = INFINITY, hi = -INFINITY;
        for (int v = 0; v < hull->vertex_count; v++)
        {
            float d = glms_vec3_dot(hull->vertices[v], nrm);
            lo = fminf(lo, d);
            hi = fmaxf(hi, d);
        }
        thinnest = fminf(thinnest, hi - lo);
    }
    if (!(thinnest >= MODEL_FLAT_RATIO * diagonal))
    {
        ph_hull_free(hull);
        return PH_ERR_DEGENERATE;
    }
    ph_convex c = ph_convex_hull(hull);
    out->mass = ph_compute_mass(&c, density);
    out->hull = hull;
    return PH_OK;
}

// Adds the part's hull to the world, moved so that origin (its centroid, or the centre of mass of the
// model's mesh) is the origin of its frame.
static ph_geom_id part_add(ph_world *world, const part *p, ph_vec3 origin)
{
    ph_vec3 *shifted = malloc((size_t)p->hull->vertex_count * sizeof(ph_vec3));
    if (!shifted)
        return PH_NULL_GEOM_ID;
    for (int i = 0; i < p->hull->vertex_count; i++)
        shifted[i] = glms_vec3_sub(p->hull->vertices[i], origin);
    ph_hull_def def = ph_default_hull_def();
    def.points = shifted;
    def.point_count = p->hull->vertex_count;
    def.vertex_budget = p->hull->vertex_count > PH_HULL_MAX_VERTICES
                            ? PH_HULL_MAX_VERTICES
                            : (p->hull->vertex_count < 4 ? 4 : p->hull->vertex_count);
    ph_geom_id g = ph_world_add_hull(world, &def);
    free(shifted);
    return g;
}

static const char *status_reason(ph_status s)
{
    return s == PH_ERR_DEGENERATE ? "its points are (nearly) flat, so it has no volume" : ph_status_string(s);
}

// The range of triangles an options struct names, checked against the model.
static bool options_range(const obj_model *m, const model_shape_options *o, int *first, int *count)
{
    *first = o->first_triangle;
    *count = o->triangle_count < 0 ? m->triangle_count - o->first_triangle : o->triangle_count;
    return *first >= 0 && *first <= m->triangle_count && *count > 0 && *count <= m->triangle_count - *first;
}

// Bounds of the scaled corners of triangles [first, first + count), in double (float products of huge
// coordinates would overflow before they are compared).
static void range_bounds(const obj_model *m, int first, int count, const float scale[3], double lo[3],
                         double hi[3])
{
    for (int k = 0; k < 3; k++)
    {
        lo[k] = (double)INFINITY;
        hi[k] = -(double)INFINITY;
    }
    for (int t = first; t < first + count; t++)
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++)
            {
                double x =
                    (double)m->positions[3 * m->triangles[t].corner[c].position + k] * (double)scale[k];
                lo[k] = fmin(lo[k], x);
                hi[k] = fmax(hi[k], x);
            }
}

// Refuses a model the engine cannot hold before anything is built: finite coordinates of 1e30 give a
// mass of 1e93 kg, infinite in float, and the hull test calls such a model flat. A body's shape spans
// at most 2 PH_MAX_SIZE (vertices within PH_MAX_SIZE of its centre) and sits within PH_MAX_COORDINATE of
// the origin. line and label name the object in an .obj scene (line 0: the whole file).
static bool check_size(const obj_model *m, int first, int count, const float scale[3], int line,
                       const char *label, asset_error *err)
{
    double lo[3], hi[3];
    range_bounds(m, first, count, scale, lo, hi);
    double span = 0.0, reach = 0.0;
    for (int k = 0; k < 3; k++)
    {
        span = fmax(span, hi[k] - lo[k]);
        reach = fmax(reach, fmax(fabs(lo[k]), fabs(hi[k])));
    }
    if (span <= 2.0 * (double)PH_MAX_SIZE && reach < (double)PH_MAX_COORDINATE)
        return true;
    asset_error_set(
        err, m->name, line,
        "%s%s%stoo large: it spans %g m and reaches %g m from the origin; a body must be at most %g m "
        "across and within %g m of the origin (scale it down with \"scale\" in a scene entry)",
        label ? "object '" : "", label ? label : "", label ? "' is " : "it is ", span, reach,
        2.0 * (double)PH_MAX_SIZE, (double)PH_MAX_COORDINATE);
    return false;
}

// Surface area of the scaled triangles [first, first + count) (unit: m^2).
static double range_area(const obj_model *m, int first, int count, float scale)
{
    double area = 0.0;
    for (int t = first; t < first + count; t++)
    {
        const float *a = m->positions + 3 * m->triangles[t].corner[0].position;
        const float *b = m->positions + 3 * m->triangles[t].corner[1].position;
        const float *c = m->positions + 3 * m->triangles[t].corner[2].position;
        double u[3], v[3];
        for (int k = 0; k < 3; k++)
        {
            u[k] = ((double)b[k] - (double)a[k]) * (double)scale;
            v[k] = ((double)c[k] - (double)a[k]) * (double)scale;
        }
        double x = u[1] * v[2] - u[2] * v[1], y = u[2] * v[0] - u[0] * v[2], z = u[0] * v[1] - u[1] * v[0];
        area += 0.5 * sqrt(x * x + y * y + z * z);
    }
    return area;
}

// ---- Shapes ----------------------------------------------------------------------------------------

// The mass properties of the closed surface of triangles [first, first + count) (scaled) at density:
// what a solid model weighs, concave or not, where its hull would count the air in its hollows (a
// figure 3.67 times too heavy, with its centre of mass off). The engine's exact polyhedral integrals
// (ph_compute_polyhedron_mass, after Eberly's "Polyhedral Mass Properties") over the welded surface.
// False when the surface is open or inside out (the hull's mass is then used), or out of memory.
static bool mesh_mass(const obj_model *m, int first, int count, const float scale[3], float density,
                      ph_mass_properties *out)
{
    if (!model_mesh_is_closed(m, first, count))
        return false;
    ph_vec3 *pts = NULL;
    int *remap = NULL;
    int n = range_points(m, first, count, scale, &pts, &remap);
    if (n == 0)
        return false;
    ph_mass_properties mp = ph_compute_polyhedron_mass(pts, remap, count, density);
    free(pts);
    free(remap);
    if (!(mp.volume > 0.0f) || !(mp.mass > 0.0f) || !isfinite(mp.mass))
        return false;
    *out = mp;
    return true;
}

// Adds the built part's hull to the world as a hull shape centred on its centre of mass: the mesh's when
// mesh is not NULL, else the hull's own (the part's hull is freed either way).
static bool part_shape(ph_world *world, const obj_model *m, part *p, const ph_mass_properties *mesh,
                       model_shape *out, asset_error *err)
{
    ph_mass_properties mp = mesh ? *mesh : p->mass;
    ph_geom_id g = part_add(world, p, mp.center);
    ph_hull_free(p->hull);
    p->hull = NULL;
    if (PH_ID_IS_NULL(g))
    {
        asset_error_set(err, m->name, 0, "%s", ph_world_last_error(world).message);
        return false;
    }
    out->shape = ph_make_geom_shape(PH_SHAPE_HULL, g);
    out->origin = mp.center;
    out->mass = mp;
    out->mass.center = glms_vec3_zero();
    out->mass_from_mesh = mesh != NULL;
    return true;
}

// The hull of the (scaled) points of triangles [first, first + count), measured at density.
static ph_status range_part(const obj_model *m, int first, int count, const float scale[3], int budget,
                            float density, part *out)
{
    ph_vec3 *pts = NULL;
    int n = range_points(m, first, count, scale, &pts, NULL);
    out->hull = NULL;
    if (n == 0)
        return PH_ERR_OUT_OF_MEMORY;
    ph_status s = part_build(pts, n, budget, density, out);
    free(pts);
    return s;
}

static bool build_hull_shape(ph_world *world, const obj_model *m, const model_shape_options *o, int first,
                             int count, model_shape *out, asset_error *err)
{
    part p;
    ph_status s = range_part(m, first, count, o->scale, o->vertex_budget, o->density, &p);
    if (s != PH_OK)
    {
        asset_error_set(err, m->name, 0, "cannot make a convex hull: %s", status_reason(s));
        return false;
    }
    ph_mass_properties solid;
    bool closed = mesh_mass(m, first, count, o->scale, o->density, &solid);
    return part_shape(world, m, &p, closed ? &solid : NULL, out, err);
}

// One part of a compound while it is split: what names it, and how many triangles it has.
typedef struct split_part
{
    const char *name;
    int object;   // the object of a group part (same-named groups of different objects differ), else -1
    int material; // the material of a material part, else -2
    int line;     // first statement naming it (0: none, as for materials)
    int count;
} split_part;

// The part with this key, added when new; -1 when there would be more than max.
static int split_find(split_part *parts, int *n, int max, const char *name, int object, int material,
                      int line)
{
    for (int i = 0; i < *n; i++)
        if (parts[i].object == object && parts[i].material == material && strcmp(parts[i].name, name) == 0)
            return i;
    if (*n >= max)
        return -1;
    parts[*n] = (split_part){name, object, material, line, 0};
    return (*n)++;
}

// Splits triangles [first, first + count) into the parts of a compound (part_of[t - first]); returns the
// number of parts, or -1 past max. MODEL_SPLIT_GROUP: by `g` group, runs of one name in one object
// together (a group may be written in pieces), or by object when that gives fewer than two parts;
// MODEL_SPLIT_OBJECT: by `o` object (of one name); MODEL_SPLIT_MATERIAL: by usemtl material.
static int split_triangles(const obj_model *m, int first, int count, model_split split, int *part_of,
                           split_part *parts, int max)
{
    int n = 0;
    for (int pass = split == MODEL_SPLIT_OBJECT ? 1 : 0; pass < 2; pass++)
    {
        n = 0;
        for (int t = 0; t < count; t++)
            part_of[t] = -1;
        if (split == MODEL_SPLIT_MATERIAL)
        {
            for (int t = 0; t < count; t++)
            {
                int mat = m->triangles[first + t].material;
                bool named = mat >= 0 && mat < m->material_count;
                part_of[t] = split_find(parts, &n, max, named ? m->materials[mat].name : "(no material)", -1,
                                        named ? mat : -1, 0);
                if (part_of[t] < 0)
                    return -1;
            }
            break;
        }
        const obj_range *ranges = pass == 0 ? m->groups : m->objects;
        int range_count = pass == 0 ? m->group_count : m->object_count;
        for (int i = 0; i < range_count; i++)
        {
            const obj_range *r = &ranges[i];
            int lo = r->first_triangle > first ? r->first_triangle : first;
            int hi = r->first_triangle + r->triangle_count;
            hi = hi < first + count ? hi : first + count;
            if (lo >= hi)
                continue;
            int p = split_find(parts, &n, max, r->name, pass == 0 ? r->object : -1, -2, r->line);
            if (p < 0)
                return -1;
            for (int t = lo; t < hi; t++)
                part_of[t - first] = p;
        }
        if (n >= 2)
            break;
    }
    for (int t = 0; t < count; t++)
    {
        if (part_of[t] < 0)
            part_of[t] = split_find(parts, &n, max, "", -3, -2, 0); // outside every range (none such)
        if (part_of[t] < 0)
            return -1;
        parts[part_of[t]].count++;
    }
    return n;
}

// The hull of the scaled positions of the listed triangles, measured at density.
static ph_status list_part(const obj_model *m, const int *tris, int n, const float scale[3], int budget,
                           float density, part *out)
{
    out->hull = NULL;
    int corners = 3 * n;
    int *ids = malloc((size_t)corners * sizeof(int));
    ph_vec3 *pts = malloc((size_t)corners * sizeof(ph_vec3));
    if (!ids || !pts)
    {
        free(ids);
        free(pts);
        return PH_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < corners; i++)
        ids[i] = m->triangles[tris[i / 3]].corner[i % 3].position;
    qsort(ids, (size_t)corners, sizeof(int), compare_int);
    int k = 0;
    for (int i = 0; i < corners; i++)
        if (i == 0 || ids[i] != ids[i - 1])
        {
            const float *p = m->positions + 3 * ids[i];
            pts[k++] = ph_v3(p[0] * scale[0], p[1] * scale[1], p[2] * scale[2]);
        }
    ph_status s = part_build(pts, k, budget, density, out);
    free(ids);
    free(pts);
    return s;
}

// Adds the parts' hulls to the world as a compound whose origin is the centre of mass: the solid's when
// the model's surface is closed (its parts' hulls may overlap or fill its hollows), else total's (the
// hulls' summed mass). known_solid: the solid's mass properties where the caller has them (else they are
// measured here). The parts keep their hulls (the caller frees them).
static bool assemble_compound(ph_world *world, const obj_model *m, const part *parts, int part_count,
                              ph_mass_properties total, const ph_mass_properties *known_solid,
                              const model_shape_options *o, int first, int count, model_shape *out,
                              asset_error *err)
{
    ph_mass_properties solid = known_solid ? *known_solid : total;
    bool closed = known_solid || mesh_mass(m, first, count, o->scale, o->density, &solid);
    if (closed)
        total = solid;
    ph_compound_child_def *children = calloc((size_t)part_count, sizeof(ph_compound_child_def));
    if (!children)
    {
        asset_error_set(err, m->name, 0, "out of memory");
        return false;
    }
    bool ok = true;
    for (int i = 0; ok && i < part_count; i++)
    {
        ph_geom_id g = part_add(world, &parts[i], parts[i].mass.center);
        if (PH_ID_IS_NULL(g))
        {
            asset_error_set(err, m->name, 0, "%s", ph_world_last_error(world).message);
            ok = false;
            break;
        }
        children[i].shape = ph_make_geom_shape(PH_SHAPE_HULL, g);
        children[i].local.p = glms_vec3_sub(parts[i].mass.center, total.center);
        children[i].local.q = glms_quat_identity();
        children[i].density = o->density;
    }
    if (ok)
    {
        ph_compound_def def = ph_default_compound_def();
        def.children = children;
        def.child_count = part_count;
        ph_geom_id g = ph_world_add_compound(world, &def);
        if (PH_ID_IS_NULL(g))
        {
            asset_error_set(err, m->name, 0, "%s", ph_world_last_error(world).message);
            ok = false;
        }
        else
        {
            out->shape = ph_make_geom_shape(PH_SHAPE_COMPOUND, g);
            out->origin = total.center;
            out->mass = total;
            out->mass.center = glms_vec3_zero();
            out->mass_from_mesh = closed;
        }
    }
    free(children);
    return ok;
}

static bool build_compound_shape(ph_world *world, const obj_model *m, const model_shape_options *o, int first,
                                 int count, model_shape *out, asset_warnings *warnings, asset_error *err)
{
    split_part *split = malloc(MODEL_MAX_PARTS * sizeof *split);
    int *part_of = malloc((size_t)count * sizeof(int));
    int *order = malloc((size_t)count * sizeof(int)); // triangles sorted by part
    int *start = calloc(MODEL_MAX_PARTS + 1, sizeof(int));
    part *parts = calloc(MODEL_MAX_PARTS, sizeof(part));
    bool ok = split && part_of && order && start && parts;
    if (!ok)
        asset_error_set(err, m->name, 0, "out of memory");
    int range_count = ok ? split_triangles(m, first, count, o->split, part_of, split, MODEL_MAX_PARTS) : 0;
    if (ok && range_count < 0)
    {
        asset_error_set(err, m->name, 0, "cannot make a compound of more than %d parts", MODEL_MAX_PARTS);
        ok = false;
        range_count = 0;
    }
    // The triangles sorted by part (counting sort): part i holds order[start[i], start[i + 1]).
    for (int i = 0; ok && i < range_count; i++)
        start[i + 1] = start[i] + split[i].count;
    for (int i = 0; ok && i < range_count; i++)
        split[i].count = 0;
    for (int t = 0; ok && t < count; t++)
        order[start[part_of[t]] + split[part_of[t]].count++] = first + t;
    int part_count = 0;
    ph_mass_properties total = {0};
    for (int i = 0; ok && i < range_count; i++)
    {
        ph_status s = list_part(m, order + start[i], split[i].count, o->scale, o->vertex_budget, o->density,
                                &parts[part_count]);
        if (s == PH_ERR_OUT_OF_MEMORY)
        {
            asset_error_set(err, m->name, 0, "out of memory");
            ok = false;
            break;
        }
        if (s != PH_OK)
        {
            asset_error_warn(warnings, m->name, split[i].line, "compound part '%s' skipped: %s",
                             split[i].name[0] ? split[i].name : "(unnamed)", status_reason(s));
            continue;
        }
        ph_mass_properties pm = parts[part_count].mass;
        total = part_count == 0 ? pm : ph_add_mass(total, pm);
        part_count++;
    }
    if (ok && part_count == 0)
    {
        asset_error_set(err, m->name, 0, "cannot make a compound: no part has volume");
        ok = false;
    }
    ok = ok && assemble_compound(world, m, parts, part_count, total, NULL, o, first, count, out, err);
    for (int i = 0; parts && i < part_count; i++)
        ph_hull_free(parts[i].hull);
    free(split);
    free(part_of);
    free(order);
    free(start);
    free(parts);
    return ok;
}

// A convex decomposition of the model's closed surface (decompose.h) as a compound. An open surface has
// no inside to decompose: it becomes its convex hull, with a warning.
static bool build_decomposed_shape(ph_world *world, const obj_model *m, const model_shape_options *o,
                                   int first, int count, model_shape *out, asset_warnings *warnings,
                                   asset_error *err)
{
    // The cache beside the model file, under the key of exactly this input (the triangles' scaled corners,
    // the options). Only a closed surface's decomposition is ever written, so a hit needs no check of the
    // surface, no weld and no measure of it: the solid's mass is kept with the pieces.
    char cache_path[PATH_MAX_LENGTH];
    int len = snprintf(cache_path, sizeof cache_path, "%s.hulls", m->name);
    bool use_cache = o->cache && len > 0 && (size_t)len < sizeof cache_path;
    uint64_t key = 0;
    decompose_result *d = NULL;
    if (use_cache)
    {
        key = decompose_key_start(&o->decompose);
        for (int t = first; t < first + count; t++)
        {
            float corners[9];
            for (int c = 0; c < 3; c++)
                for (int k = 0; k < 3; k++)
                    corners[3 * c + k] =
                        m->positions[3 * m->triangles[t].corner[c].position + k] * o->scale[k];
            key = decompose_key_add(key, corners, sizeof corners);
        }
        d = decompose_cache_read(cache_path, key);
    }
    const char *reason = "out of memory";
    if (!d)
    {
        if (!model_mesh_is_closed(m, first, count))
        {
            asset_error_warn(
                warnings, m->name, 0,
                "not a closed surface, so it cannot be decomposed: it collides as its convex hull");
            return build_hull_shape(world, m, o, first, count, out, err);
        }
        ph_vec3 *pts = NULL;
        int *remap = NULL;
        int n = range_points(m, first, count, o->scale, &pts, &remap);
        if (n > 0)
            d = decompose_mesh(pts, n, remap, count, &o->decompose, &reason);
        if (d && use_cache)
            decompose_cache_write(cache_path, key, d); // a folder we cannot write to just means no cache
        free(pts);
        free(remap);
    }
    if (!d)
    {
        asset_error_set(err, m->name, 0, "cannot decompose it: %s", reason);
        return false;
    }
    // The solid's mass at the density, from its measure at density 1 (the same floats whether the pieces
    // were made now or read from the cache); none when inside out (the hulls' mass is then used).
    ph_mass_properties solid = d->mesh_mass;
    solid.mass *= o->density;
    solid.inertia = glms_mat3_scale(solid.inertia, o->density);
    bool solid_ok = solid.volume > 0.0f && solid.mass > 0.0f && isfinite(solid.mass);
    part *parts = calloc((size_t)d->piece_count + 1, sizeof(part));
    int part_count = 0;
    ph_mass_properties total = {0};
    bool ok = parts != NULL;
    for (int i = 0; ok && i < d->piece_count; i++)
    {
        ph_status s = part_build(d->points + d->first[i], d->count[i], PH_HULL_MAX_VERTICES, o->density,
                                 &parts[part_count]);
        if (s == PH_ERR_OUT_OF_MEMORY)
            ok = false;
        else if (s == PH_OK)
        {
            total = part_count == 0 ? parts[part_count].mass : ph_add_mass(total, parts[part_count].mass);
            part_count++;
        }
        // A sliver piece (flat) is left out: the compound loses nothing of substance.
    }
    decompose_free(d);
    if (!ok)
        asset_error_set(err, m->name, 0, "out of memory");
    else if (part_count == 0)
    {
        asset_error_set(err, m->name, 0, "cannot decompose it: no piece has volume");
        ok = false;
    }
    ok = ok && assemble_compound(world, m, parts, part_count, total, solid_ok ? &solid : NULL, o, first,
                                 count, out, err);
    for (int i = 0; parts && i < part_count; i++)
        ph_hull_free(parts[i].hull);
    free(parts);
    return ok;
}

static bool build_mesh_shape(ph_world *world, const obj_model *m, const model_shape_options *o, int first,
                             int count, model_shape *out, asset_error *err)
{
    ph_vec3 *pts = NULL;
    int *remap = NULL;
    int n = range_points(m, first, count, o->scale, &pts, &remap);
    if (n == 0)
    {
        asset_error_set(err, m->name, 0, "out of memory");
        return false;
    }
    ph_mesh_def def = ph_default_mesh_def();
    def.vertices = pts;
    def.vertex_count = n;
    def.indices = remap;
    def.triangle_count = count;
    ph_geom_id g = ph_world_add_mesh(world, &def);
    free(pts);
    free(remap);
    if (PH_ID_IS_NULL(g))
    {
        asset_error_set(err, m->name, 0, "cannot make a triangle mesh: %s",
                        ph_world_last_error(world).message);
        return false;
    }
    out->shape = ph_make_geom_shape(PH_SHAPE_MESH, g);
    out->origin = glms_vec3_zero();
    memset(&out->mass, 0, sizeof out->mass);
    out->mass_from_mesh = false;
    return true;
}

bool model_physics_build_shape(ph_world *world, const obj_model *model, const model_shape_options *options,
                               model_shape *out, asset_warnings *warnings, asset_error *err)
{
    model_shape_options o = options ? *options : model_default_shape_options();
    int first, count;
    if (!world || !model || !out)
    {
        asset_error_set(err, model ? model->name : "(null)", 0, "no world, model or output");
        return false;
    }
    if (!options_range(model, &o, &first, &count))
    {
        asset_error_set(err, model->name, 0, "no triangles to build a shape from (range %d + %d of %d)",
                        o.first_triangle, o.triangle_count, model->triangle_count);
        return false;
    }
    for (int k = 0; k < 3; k++)
        if (!(o.scale[k] > 0.0f) || !isfinite(o.scale[k]))
        {
            asset_error_set(err, model->name, 0, "scale must be finite and > 0, got %g", (double)o.scale[k]);
            return false;
        }
    if (!(o.density > 0.0f) || !isfinite(o.density))
    {
        asset_error_set(err, model->name, 0, "density must be finite and > 0, got %g", (double)o.density);
        return false;
    }
    if (o.vertex_budget < 4 || o.vertex_budget > PH_HULL_MAX_VERTICES)
        o.vertex_budget = PH_HULL_MAX_VERTICES;
    if (!check_size(model, first, count, o.scale, 0, NULL, err))
        return false;
    switch (o.kind)
    {
    case MODEL_SHAPE_HULL:
        return build_hull_shape(world, model, &o, first, count, out, err);
    case MODEL_SHAPE_COMPOUND:
        return build_compound_shape(world, model, &o, first, count, out, warnings, err);
    case MODEL_SHAPE_MESH:
        return build_mesh_shape(world, model, &o, first, count, out, err);
    case MODEL_SHAPE_DECOMPOSE:
        return build_decomposed_shape(world, model, &o, first, count, out, warnings, err);
    }
    asset_error_set(err, model->name, 0, "unknown shape kind %d", (int)o.kind);
    return false;
}

// ---- Bodies ----------------------------------------------------------------------------------------

// Creates the body of a built shape and its render mesh, and appends both to set.
static bool add_shape_body(ph_world *world, const obj_model *m, const model_shape *shape, ph_body_type type,
                           ph_vec3 position, ph_quat orientation, ph_vec3 v, ph_vec3 w, ph_material material,
                           const float scale[3], int first, int count, const float color[3], const char *name,
                           model_set *set, asset_error *err)
{
    ph_body_def def = ph_default_body_def();
    def.type = type;
    def.position = position;
    def.orientation = orientation;
    if (type != PH_BODY_STATIC)
    {
        def.linear_velocity = v;
        def.angular_velocity = w;
    }
    def.shape = shape->shape;
    def.material = material;
    ph_mass_properties solid = shape->mass; // about the body origin, its centre of mass
    if (type == PH_BODY_DYNAMIC && shape->mass_from_mesh)
        def.mass_properties = &solid;
    ph_body_id body = ph_body_create(world, &def);
    if (PH_ID_IS_NULL(body))
    {
        // Name the body when it is not the whole file.
        bool same = strcmp(name, m->name) == 0;
        asset_error_set(err, m->name, 0, "%s%s%s", same ? "" : name, same ? "" : ": ",
                        ph_world_last_error(world).message);
        return false;
    }
    model_mesh_options mo = model_mesh_default_options();
    for (int k = 0; k < 3; k++)
        mo.scale[k] = scale[k];
    mo.origin[0] = shape->origin.x;
    mo.origin[1] = shape->origin.y;
    mo.origin[2] = shape->origin.z;
    mo.first_triangle = first;
    mo.triangle_count = count;
    model_mesh *mesh = model_mesh_build(m, &mo);
    if (!mesh || !model_set_add(set, body, mesh, color, name))
    {
        if (!mesh)
            model_mesh_free(mesh);
        ph_body_destroy(world, body);
        asset_error_set(err, m->name, 0, "out of memory");
        return false;
    }
    return true;
}

bool model_physics_add_body(ph_world *world, const obj_model *model, const model_body_options *options,
                            model_set *out, asset_warnings *warnings, asset_error *err)
{
    model_body_options o = options ? *options : model_default_body_options();
    if (!out)
    {
        asset_error_set(err, model ? model->name : "(null)", 0, "no model set to add the body to");
        return false;
    }
    o.shape.density = o.material.density;
    if (o.shape.kind == MODEL_SHAPE_MESH && o.type != PH_BODY_STATIC)
    {
        asset_error_set(err, model ? model->name : "(null)", 0,
                        "a triangle mesh can only be static (it has no volume to give it mass)");
        return false;
    }
    model_shape shape;
    if (!model_physics_build_shape(world, model, &o.shape, &shape, warnings, err))
        return false;
    // The file's origin goes to o.position, so the centre of mass goes to position + R * origin.
    ph_vec3 position = glms_vec3_add(o.position, glms_quat_rotatev(o.orientation, shape.origin));
    int first, count;
    options_range(model, &o.shape, &first, &count);
    return add_shape_body(world, model, &shape, o.type, position, o.orientation, o.linear_velocity,
                          o.angular_velocity, o.material, o.shape.scale, first, count, o.color,
                          o.name ? o.name : model->name, out, err);
}

// ---- .obj scenes -----------------------------------------------------------------------------------

static bool has_prefix(const char *name, const char *prefix)
{
    return strncmp(name, prefix, strlen(prefix)) == 0;
}

static bool is_named_static(const char *name)
{
    return has_prefix(name, MODEL_PREFIX_STATIC) || has_prefix(name, MODEL_PREFIX_GROUND);
}

// An error about the model's own file, wrapped in another about it, names the file once.
static const char *nested_message(const obj_model *m, const asset_error *inner)
{
    return strcmp(inner->file, m->name) == 0 ? asset_error_message(inner) : inner->text;
}

// Signed volume of a triangle range by the divergence theorem (scaled), to compare with its hull's.
static float range_volume(const obj_model *m, int first, int count, float scale)
{
    double v = 0.0;
    for (int t = first; t < first + count; t++)
    {
        const float *a = m->positions + 3 * m->triangles[t].corner[0].position;
        const float *b = m->positions + 3 * m->triangles[t].corner[1].position;
        const float *c = m->positions + 3 * m->triangles[t].corner[2].position;
        v += ((double)a[0] * ((double)b[1] * (double)c[2] - (double)b[2] * (double)c[1]) -
              (double)a[1] * ((double)b[0] * (double)c[2] - (double)b[2] * (double)c[0]) +
              (double)a[2] * ((double)b[0] * (double)c[1] - (double)b[1] * (double)c[0])) /
             6.0;
    }
    return (float)v * scale * scale * scale;
}

// A corner clearly in front of one of the object's own triangle planes (by this fraction of its
// bounding-box diagonal) proves it is not a convex solid with outward faces.
#define MODEL_CONCAVE_DEPTH 1e-3
// Triangles and corners the quick concavity test samples (each spread evenly over the object).
#define MODEL_CONCAVE_SAMPLES 64

// The quick answer for a static object: true when a sampled corner lies clearly in front of a sampled
// triangle's plane, so the object is concave (or inside out) and becomes a triangle mesh without
// building its hull (a hull over the engine's vertex budget costs tens of ms to simplify). False means
// "not decided": the exact test compares the mesh's volume with its hull's.
static bool clearly_concave(const obj_model *m, const obj_range *r)
{
    const obj_triangle *tris = m->triangles + r->first_triangle;
    int count = r->triangle_count;
    double lo[3] = {(double)INFINITY, (double)INFINITY, (double)INFINITY};
    double hi[3] = {-(double)INFINITY, -(double)INFINITY, -(double)INFINITY};
    for (int t = 0; t < count; t++)
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++)
            {
                double x = (double)m->positions[3 * tris[t].corner[c].position + k];
                lo[k] = fmin(lo[k], x);
                hi[k] = fmax(hi[k], x);
            }
    double diagonal = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                           (hi[2] - lo[2]) * (hi[2] - lo[2]));
    int step = count > MODEL_CONCAVE_SAMPLES ? count / MODEL_CONCAVE_SAMPLES : 1;
    int corner_step = 3 * count > MODEL_CONCAVE_SAMPLES ? 3 * count / MODEL_CONCAVE_SAMPLES : 1;
    for (int t = 0; t < count; t += step)
    {
        const float *a = m->positions + 3 * tris[t].corner[0].position;
        const float *b = m->positions + 3 * tris[t].corner[1].position;
        const float *c = m->positions + 3 * tris[t].corner[2].position;
        double u[3], v[3], n[3];
        for (int k = 0; k < 3; k++)
        {
            u[k] = (double)b[k] - (double)a[k];
            v[k] = (double)c[k] - (double)a[k];
        }
        n[0] = u[1] * v[2] - u[2] * v[1];
        n[1] = u[2] * v[0] - u[0] * v[2];
        n[2] = u[0] * v[1] - u[1] * v[0];
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(len > 0.0))
            continue;
        for (int i = 0; i < 3 * count; i += corner_step)
        {
            const float *p = m->positions + 3 * tris[i / 3].corner[i % 3].position;
            double d = (n[0] * ((double)p[0] - (double)a[0]) + n[1] * ((double)p[1] - (double)a[1]) +
                        n[2] * ((double)p[2] - (double)a[2])) /
                       len;
            if (d > MODEL_CONCAVE_DEPTH * diagonal)
                return true;
        }
    }
    return false;
}

typedef enum object_plan
{
    PLAN_DYNAMIC_HULL,
    PLAN_DYNAMIC_COMPOUND,
    PLAN_STATIC_HULL,
    PLAN_STATIC_MESH
} object_plan;

// Decides what an object of an .obj scene becomes (see model_physics.h). For the hull plans *out_part
// holds the object's hull measured at density, ready for part_shape (built once, not again).
static object_plan plan_object(const obj_model *m, const obj_range *r, const char *label, float scale,
                               float density, asset_warnings *warnings, part *out_part)
{
    bool is_static = has_prefix(r->name, MODEL_PREFIX_STATIC) || has_prefix(r->name, MODEL_PREFIX_GROUND);
    out_part->hull = NULL;
    if (is_static && clearly_concave(m, r))
        return PLAN_STATIC_MESH;
    float s3[3] = {scale, scale, scale};
    ph_status status =
        range_part(m, r->first_triangle, r->triangle_count, s3, PH_HULL_MAX_VERTICES, density, out_part);
    bool solid = status == PH_OK;
    object_plan plan;
    if (is_static)
    {
        float mesh_volume = range_volume(m, r->first_triangle, r->triangle_count, scale);
        float hull_volume = solid ? out_part->mass.volume : 0.0f;
        bool convex =
            solid && fabsf(mesh_volume - hull_volume) <= MODEL_CONVEX_VOLUME_TOLERANCE * hull_volume;
        plan = convex ? PLAN_STATIC_HULL : PLAN_STATIC_MESH;
    }
    else if (!solid)
    {
        asset_error_warn(warnings, m->name, r->line,
                         "object '%s' is flat (no volume), so it cannot move: it becomes static geometry",
                         label);
        plan = PLAN_STATIC_MESH;
    }
    else
        plan = has_prefix(r->name, MODEL_PREFIX_COMPOUND) ? PLAN_DYNAMIC_COMPOUND : PLAN_DYNAMIC_HULL;
    if (solid && plan != PLAN_DYNAMIC_HULL && plan != PLAN_STATIC_HULL)
    {
        ph_hull_free(out_part->hull);
        out_part->hull = NULL;
    }
    return plan;
}

bool model_physics_add_scene(ph_world *world, const obj_model *model, const model_scene_options *options,
                             model_set *out, asset_warnings *warnings, asset_error *err)
{
    model_scene_options o = options ? *options : model_default_scene_options();
    if (!world || !model || !out)
    {
        asset_error_set(err, model ? model->name : "(null)", 0, "no world, model or model set");
        return false;
    }
    if (!(o.scale > 0.0f) || !isfinite(o.scale) || !ph_is_finite_vec3(o.offset) ||
        !(o.material.density > 0.0f) || !isfinite(o.material.density))
    {
        asset_error_set(
            err, model->name, 0,
            "scale and density must be finite and > 0 and the offset finite (scale %g, density %g)",
            (double)o.scale, (double)o.material.density);
        return false;
    }
    int mark = out->body_count;
    bool named_static = false;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    const float white[3] = {1.0f, 1.0f, 1.0f};
    float s3[3] = {o.scale, o.scale, o.scale};
    for (int i = 0; i < model->object_count; i++)
    {
        const obj_range *r = &model->objects[i];
        const char *label = r->name[0] ? r->name : "(unnamed)";
        if (r->triangle_count == 0)
        {
            asset_error_warn(warnings, model->name, r->line, "object '%s' has no faces: skipped", label);
            continue;
        }
        for (int t = r->first_triangle; t < r->first_triangle + r->triangle_count; t++)
            for (int c = 0; c < 3; c++)
                for (int k = 0; k < 3; k++)
                {
                    float x = model->positions[3 * model->triangles[t].corner[c].position + k] * o.scale;
                    lo[k] = fminf(lo[k], x);
                    hi[k] = fmaxf(hi[k], x);
                }
        if (!check_size(model, r->first_triangle, r->triangle_count, s3, r->line, label, err))
        {
            set_rollback(world, out, mark);
            return false;
        }
        // A point or a line (faces without area) can be neither a body nor static geometry.
        double diagonal = 0.0;
        {
            double blo[3], bhi[3];
            range_bounds(model, r->first_triangle, r->triangle_count, s3, blo, bhi);
            for (int k = 0; k < 3; k++)
                diagonal += (bhi[k] - blo[k]) * (bhi[k] - blo[k]);
        }
        if (!(range_area(model, r->first_triangle, r->triangle_count, o.scale) >
              MODEL_MIN_AREA_RATIO * diagonal))
        {
            asset_error_warn(warnings, model->name, r->line,
                             "object '%s' has no area and no volume (a point or a line): skipped", label);
            continue;
        }
        if (has_prefix(r->name, MODEL_PREFIX_STATIC) || has_prefix(r->name, MODEL_PREFIX_GROUND))
            named_static = true;
        part hull_part;
        object_plan plan = plan_object(model, r, label, o.scale, o.material.density, warnings, &hull_part);
        model_shape shape;
        asset_error shape_err;
        bool built;
        if (plan == PLAN_DYNAMIC_HULL || plan == PLAN_STATIC_HULL)
        {
            ph_mass_properties solid;
            bool closed = plan == PLAN_DYNAMIC_HULL && mesh_mass(model, r->first_triangle, r->triangle_count,
                                                                 s3, o.material.density, &solid);
            built = part_shape(world, model, &hull_part, closed ? &solid : NULL, &shape, &shape_err);
        }
        else
        {
            model_shape_options so = model_default_shape_options();
            so.kind = plan == PLAN_STATIC_MESH ? MODEL_SHAPE_MESH : MODEL_SHAPE_COMPOUND;
            so.scale[0] = so.scale[1] = so.scale[2] = o.scale;
            so.first_triangle = r->first_triangle;
            so.triangle_count = r->triangle_count;
            so.density = o.material.density;
            built = model_physics_build_shape(world, model, &so, &shape, warnings, &shape_err);
        }
        if (!built && plan == PLAN_STATIC_MESH && !is_named_static(r->name))
        {
            // A flat object that the engine cannot make a mesh of either (slivers of no area): the rest
            // of the scene loads without it.
            asset_error_warn(warnings, model->name, r->line, "object '%s' skipped: %s", label,
                             nested_message(model, &shape_err));
            continue;
        }
        if (!built)
        {
            asset_error_set(err, model->name, r->line, "object '%s': %s", label,
                            nested_message(model, &shape_err));
            set_rollback(world, out, mark);
            return false;
        }
        ph_body_type type =
            plan == PLAN_DYNAMIC_HULL || plan == PLAN_DYNAMIC_COMPOUND ? PH_BODY_DYNAMIC : PH_BODY_STATIC;
        if (!add_shape_body(world, model, &shape, type, glms_vec3_add(o.offset, shape.origin),
                            glms_quat_identity(), glms_vec3_zero(), glms_vec3_zero(), o.material, s3,
                            r->first_triangle, r->triangle_count, white, label, out, err))
        {
            set_rollback(world, out, mark);
            return false;
        }
    }
    if (out->body_count == mark)
    {
        asset_error_set(err, model->name, 0, "no object with faces of any area: nothing to simulate");
        return false;
    }
    if (!named_static && o.default_ground)
    {
        // A static box under everything: its top at the scene's lowest point, or at y = 0 when the
        // scene floats above it (things fall onto the sandbox's usual floor level).
        float top = fminf(lo[1], 0.0f);
        float half = fmaxf(MODEL_GROUND_MIN_HALF_WIDTH,
                           0.5f * fmaxf(hi[0] - lo[0], hi[2] - lo[2]) + MODEL_GROUND_MARGIN);
        ph_body_def def = ph_default_body_def();
        def.type = PH_BODY_STATIC;
        def.shape = ph_make_box(ph_v3(half, 0.5f * MODEL_GROUND_THICKNESS, half));
        def.position =
            glms_vec3_add(o.offset, ph_v3(0.5f * (lo[0] + hi[0]), top - 0.5f * MODEL_GROUND_THICKNESS,
                                          0.5f * (lo[2] + hi[2])));
        def.material = o.material;
        ph_body_id ground = ph_body_create(world, &def);
        const float grey[3] = {MODEL_GROUND_GREY, MODEL_GROUND_GREY, MODEL_GROUND_GREY};
        if (PH_ID_IS_NULL(ground) || !model_set_add(out, ground, NULL, grey, "default ground"))
        {
            if (!PH_ID_IS_NULL(ground))
                ph_body_destroy(world, ground);
            asset_error_set(err, model->name, 0, "default ground: %s", ph_world_last_error(world).message);
            set_rollback(world, out, mark);
            return false;
        }
    }
    return true;
}
