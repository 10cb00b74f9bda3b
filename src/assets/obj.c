// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The streaming Wavefront .obj parser (obj.h). Input arrives in chunks (a file read 1 MiB at a time,
// or one memory buffer); complete logical lines (backslash continuations joined) are parsed in place
// into growable arrays with hand-written number parsing (no sscanf, no allocation per line). Polygons
// are triangulated by ear clipping in their best-fit plane (Newell normal), so concave faces come out
// right. The result is copied into one allocation at the end, so obj_free() is a single free().
// Reference for the format: Wavefront "Object Files (.obj)", Advanced Visualizer manual, appendix B.
#include "assets/obj.h"

#include "assets/path.h"
#include "assets/text.h"

#include <math.h>   // isfinite, isnan, pow, sqrt, fabs
#include <stdarg.h> // va_list
#include <stdint.h> // uint64_t, uintptr_t
#include <stdio.h>  // FILE, fread, vsnprintf
#include <stdlib.h> // malloc, realloc, free
#include <string.h> // memchr, memcpy, memcmp, strlen

// Bytes read from a file per chunk; a chunk holds many lines, so the per-call overhead vanishes.
#define OBJ_CHUNK_BYTES (1 << 20)
// Most numbers a `v` line may hold (x y z w plus r g b).
#define OBJ_MAX_VERTEX_NUMBERS 7
// Distinct materials named by usemtl in one file (usemtl lookup is a linear scan over them).
#define OBJ_MAX_MATERIALS 4096
// Relative size below which a polygon's Newell normal counts as zero (the polygon has no area).
#define OBJ_DEGENERATE_AREA 1e-12
// Point-in-ear tests one polygon may make: OBJ_EAR_BUDGET_PER_CORNER2 * n^2 + OBJ_EAR_BUDGET_MIN. Simple
// polygons stay far below it; past it the clipper stops testing (see triangulate).
#define OBJ_EAR_BUDGET_PER_CORNER2 2
#define OBJ_EAR_BUDGET_MIN 65536
// Default material colour (Kd) when a material does not give one, and default opacity.
#define OBJ_DEFAULT_DIFFUSE 0.8f
#define OBJ_DEFAULT_OPACITY 1.0f

// ---- Growable arrays -------------------------------------------------------------------------------

// Makes room for `need` elements of `size` bytes in *data (capacity *cap), doubling. False when out
// of memory or when need passes limit.
static bool reserve(void **data, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return true;
    int new_cap = *cap > 0 ? *cap : 64;
    while (new_cap < need)
        new_cap = new_cap > INT32_MAX / 2 ? need : new_cap * 2;
    void *p = realloc(*data, (size_t)new_cap * size);
    if (!p)
        return false;
    *data = p;
    *cap = new_cap;
    return true;
}

// ---- Parser state ----------------------------------------------------------------------------------

// A range under construction; its name is an offset into the string pool until the end.
typedef struct range_build
{
    obj_range range;
    size_t name_offset;
} range_build;

typedef struct material_use
{
    size_t name_offset;
    size_t name_length;
    int line; // first usemtl naming it
} material_use;

typedef struct parser
{
    const char *name;
    obj_options options;
    asset_error *err;
    bool failed;
    int line;         // first physical line of the logical line being parsed
    int next_line;    // physical line number of the next unread line
    bool bom_checked; // the start of the input was looked at for a byte-order mark

    float *positions;
    int position_count, position_cap;
    float *colors; // allocated at the first coloured vertex, same capacity as positions
    int color_cap;
    float *uvs;
    int uv_count, uv_cap;
    float *normals;
    int normal_count, normal_cap;
    obj_triangle *triangles;
    int triangle_count, triangle_cap;
    int face_count;

    range_build *objects;
    int object_count, object_cap;
    bool object_open;
    range_build *groups;
    int group_count, group_cap;
    bool group_open;

    material_use *uses;
    int use_count, use_cap;
    int material;  // current usemtl index, -1 for none
    int smoothing; // current smoothing group
    bool has_smoothing;

    mtl_library **libraries;
    int library_count, library_cap;

    char *pool; // names, NUL-terminated
    int pool_len, pool_cap;

    // Scratch of one face and its triangulation.
    obj_corner *corners;
    int corner_cap;
    double *xy; // projected 2D polygon, 2 per corner
    int xy_cap;
    int *links; // the ear clipper's rings and flags, 5 per corner
    int link_cap;
    char *join; // a logical line joined from continuation lines
    int join_cap;

    asset_warnings *warnings;
} parser;

static bool fail(parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(parser *ps, const char *fmt, ...)
{
    if (ps->failed)
        return false;
    ps->failed = true;
    char text[ASSET_MESSAGE_SIZE];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    asset_error_set(ps->err, ps->name, ps->line, "%s", text);
    return false;
}

static bool out_of_memory(parser *ps)
{
    return fail(ps, "out of memory");
}

// ---- Lexing ----------------------------------------------------------------------------------------

// Parses up to max numbers of a statement into out; stores how many in *count. False (with the error
// recorded) on a malformed token or too many numbers.
static bool parse_numbers(parser *ps, const char *p, const char *e, const char *what, float *out, int max,
                          int *count)
{
    int n = 0;
    for (;;)
    {
        p = text_skip_space(p, e);
        if (text_at_end(p, e))
            break;
        double v;
        const char *q = text_parse_number(p, e, &v);
        if (!q || !text_is_token_end(q, e))
        {
            const char *t = p;
            while (!text_is_token_end(t, e))
                t++;
            return fail(ps, "%s: non-numeric value '%.*s'", what, (int)(t - p > 40 ? 40 : t - p), p);
        }
        if (n == max)
            return fail(ps, "%s: too many numbers (at most %d)", what, max);
        if (isnan(v))
            return fail(ps, "%s: NaN coordinate", what);
        float f = (float)v;
        if (!isfinite(f))
            return fail(ps, "%s: infinite coordinate '%.*s'", what, (int)(q - p > 40 ? 40 : q - p), p);
        out[n++] = f;
        p = q;
    }
    *count = n;
    return true;
}

// ---- Names -----------------------------------------------------------------------------------------

// The rest of the line with surrounding whitespace and a trailing comment removed.
static void rest_of_line(const char *p, const char *e, const char **out_begin, const char **out_end)
{
    p = text_skip_space(p, e);
    const char *hash = p;
    while (hash < e && *hash != '#')
        hash++;
    e = hash;
    while (e > p && text_is_space(e[-1]))
        e--;
    *out_begin = p;
    *out_end = e;
}

// Copies a name into the pool; returns its offset, or -1 on error (recorded).
static long pool_add(parser *ps, const char *s, size_t n)
{
    if (n > OBJ_MAX_NAME_LENGTH)
    {
        fail(ps, "name longer than %d bytes", OBJ_MAX_NAME_LENGTH);
        return -1;
    }
    if (!reserve((void **)&ps->pool, &ps->pool_cap, ps->pool_len + (int)n + 1, 1))
    {
        out_of_memory(ps);
        return -1;
    }
    long at = ps->pool_len;
    memcpy(ps->pool + at, s, n);
    ps->pool[at + (long)n] = '\0';
    ps->pool_len += (int)n + 1;
    return at;
}

// ---- Objects and groups ----------------------------------------------------------------------------

static void close_range(parser *ps, range_build *r)
{
    r->range.face_count = ps->face_count - r->range.first_face;
    r->range.triangle_count = ps->triangle_count - r->range.first_triangle;
}

static bool open_range(parser *ps, range_build **array, int *count, int *cap, const char *name, size_t n,
                       int line)
{
    if (ps->object_count + ps->group_count >= OBJ_MAX_NAMES)
        return fail(ps, "more than %d objects and groups", OBJ_MAX_NAMES);
    long offset = pool_add(ps, name, n);
    if (offset < 0)
        return false;
    if (!reserve((void **)array, cap, *count + 1, sizeof(range_build)))
        return out_of_memory(ps);
    range_build *r = &(*array)[(*count)++];
    memset(r, 0, sizeof *r);
    r->name_offset = (size_t)offset;
    r->range.first_face = ps->face_count;
    r->range.first_triangle = ps->triangle_count;
    r->range.line = line;
    return true;
}

// An `o` ends the open group; the implicit object made for faces after a `g` but before any `o`
// (keep_group) adopts that group instead.
static bool begin_object(parser *ps, const char *name, size_t n, int line, bool keep_group)
{
    if (ps->group_open && !keep_group)
    {
        close_range(ps, &ps->groups[ps->group_count - 1]);
        ps->group_open = false;
    }
    if (ps->object_open)
        close_range(ps, &ps->objects[ps->object_count - 1]);
    if (!open_range(ps, &ps->objects, &ps->object_count, &ps->object_cap, name, n, line))
        return false;
    ps->objects[ps->object_count - 1].range.object = ps->object_count - 1;
    ps->object_open = true;
    return true;
}

static bool begin_group(parser *ps, const char *name, size_t n, int line)
{
    if (ps->group_open)
        close_range(ps, &ps->groups[ps->group_count - 1]);
    if (!open_range(ps, &ps->groups, &ps->group_count, &ps->group_cap, name, n, line))
        return false;
    ps->groups[ps->group_count - 1].range.object = ps->object_open ? ps->object_count - 1 : -1;
    ps->group_open = true;
    return true;
}

// Faces outside any `o` (or `g`) go into an implicit one named "", made at the first such face (whose
// line it keeps, so that messages about it can name a line).
static bool ensure_ranges(parser *ps)
{
    if (!ps->object_open && !begin_object(ps, "", 0, ps->line, true))
        return false;
    if (!ps->group_open && !begin_group(ps, "", 0, ps->line))
        return false;
    range_build *g = &ps->groups[ps->group_count - 1];
    if (g->range.object < 0)
        g->range.object = ps->object_count - 1;
    return true;
}

// ---- Faces and triangulation -----------------------------------------------------------------------

static bool emit_triangle(parser *ps, const obj_corner *a, const obj_corner *b, const obj_corner *c)
{
    if (ps->triangle_count >= ps->options.max_triangles)
        return fail(ps, "more than %d triangles", ps->options.max_triangles);
    if (!reserve((void **)&ps->triangles, &ps->triangle_cap, ps->triangle_count + 1, sizeof(obj_triangle)))
        return out_of_memory(ps);
    obj_triangle *t = &ps->triangles[ps->triangle_count++];
    t->corner[0] = *a;
    t->corner[1] = *b;
    t->corner[2] = *c;
    t->face = ps->face_count;
    t->material = ps->material;
    t->smoothing = ps->smoothing;
    return true;
}

// Twice the signed area of the 2D triangle (a, b, c): > 0 when counter-clockwise.
static inline double cross2(const double *a, const double *b, const double *c)
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

// True when p lies inside or on the counter-clockwise triangle (a, b, c).
static inline bool in_triangle(const double *a, const double *b, const double *c, const double *p)
{
    return cross2(a, b, p) >= 0.0 && cross2(b, c, p) >= 0.0 && cross2(c, a, p) >= 0.0;
}

static inline bool same_point(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1];
}

// The ring of reflex corners of the ear clipper: insert, remove, and re-classify corner k after a
// neighbour was clipped.
static void reflex_insert(int *rprev, int *rnext, int *reflex, int *head, int k)
{
    reflex[k] = 1;
    if (*head < 0)
    {
        rprev[k] = rnext[k] = k;
        *head = k;
        return;
    }
    int h = *head, t = rprev[h];
    rnext[t] = k;
    rprev[k] = t;
    rnext[k] = h;
    rprev[h] = k;
}

static void reflex_remove(int *rprev, int *rnext, int *reflex, int *head, int k)
{
    reflex[k] = 0;
    if (rnext[k] == k)
    {
        *head = -1;
        return;
    }
    rnext[rprev[k]] = rnext[k];
    rprev[rnext[k]] = rprev[k];
    if (*head == k)
        *head = rnext[k];
}

static void reflex_update(const double *xy, const int *prev, const int *next, int *rprev, int *rnext,
                          int *reflex, int *head, int k)
{
    bool now = cross2(xy + 2 * prev[k], xy + 2 * k, xy + 2 * next[k]) <= 0.0;
    if (now && !reflex[k])
        reflex_insert(rprev, rnext, reflex, head, k);
    else if (!now && reflex[k])
        reflex_remove(rprev, rnext, reflex, head, k);
}

// The corner of the ring through start with the largest turn to the left.
static int most_convex(const double *xy, const int *prev, const int *next, int start)
{
    int best = start, k = start;
    double best_cross = -(double)INFINITY;
    do
    {
        double cr = cross2(xy + 2 * prev[k], xy + 2 * k, xy + 2 * next[k]);
        if (cr > best_cross)
        {
            best_cross = cr;
            best = k;
        }
        k = next[k];
    } while (k != start);
    return best;
}

// Triangulates a polygon of n >= 4 corners by ear clipping (Eberly, "Triangulation by Ear Clipping",
// 2002). The polygon is projected onto the plane of its Newell normal (Newell's method: the normal of
// the best-fit plane of a possibly non-planar polygon, from the sum of edge cross terms; Sutherland et
// al. 1974), with the 2D axes chosen so that the polygon's winding is counter-clockwise. An ear is a
// convex corner whose triangle holds no other corner; only reflex corners can lie inside an ear of a
// simple polygon, so only they are tested (kept in their own ring), which makes a convex polygon linear
// and a polygon with r reflex corners O(n r). When rounding or a self-intersecting polygon leaves no
// ear, the most convex corner is clipped anyway, so n - 2 triangles always come out; and once the ear
// tests pass a budget of O(n^2) work (only a self-intersecting polygon gets there), every later step
// clips the most convex corner, so no input costs more than O(n^2).
static bool triangulate(parser *ps, const obj_corner *c, int n)
{
    double nx = 0.0, ny = 0.0, nz = 0.0, scale = 0.0;
    for (int i = 0; i < n; i++)
    {
        const float *p = ps->positions + 3 * c[i].position;
        const float *q = ps->positions + 3 * c[(i + 1) % n].position;
        nx += ((double)p[1] - (double)q[1]) * ((double)p[2] + (double)q[2]);
        ny += ((double)p[2] - (double)q[2]) * ((double)p[0] + (double)q[0]);
        nz += ((double)p[0] - (double)q[0]) * ((double)p[1] + (double)q[1]);
        for (int k = 0; k < 3; k++)
            scale = fmax(scale, fabs((double)p[k] - (double)ps->positions[3 * c[0].position + k]));
    }
    double len = sqrt(nx * nx + ny * ny + nz * nz);
    if (!(len > OBJ_DEGENERATE_AREA * scale * scale))
    {
        // No area: any split is as good as another, a fan keeps the corner order.
        for (int i = 1; i + 1 < n; i++)
            if (!emit_triangle(ps, &c[0], &c[i], &c[i + 1]))
                return false;
        return true;
    }
    nx /= len;
    ny /= len;
    nz /= len;
    // u: a unit vector perpendicular to the normal; v = n x u, so (u, v, n) is right-handed.
    double ux, uy, uz;
    if (fabs(nx) < 0.57735)
    {
        ux = 0.0;
        uy = nz;
        uz = -ny; // x-axis cross n, then normalised
    }
    else
    {
        ux = -nz;
        uy = 0.0;
        uz = nx;
    }
    double ul = sqrt(ux * ux + uy * uy + uz * uz);
    ux /= ul;
    uy /= ul;
    uz /= ul;
    double vx = ny * uz - nz * uy, vy = nz * ux - nx * uz, vz = nx * uy - ny * ux;

    if (!reserve((void **)&ps->xy, &ps->xy_cap, 2 * n, sizeof(double)) ||
        !reserve((void **)&ps->links, &ps->link_cap, 5 * n, sizeof(int)))
        return out_of_memory(ps);
    double *xy = ps->xy;
    // The ring of corners (prev, next), the ring of reflex corners (rprev, rnext) and a reflex flag.
    int *prev = ps->links, *next = prev + n, *rprev = next + n, *rnext = rprev + n, *reflex = rnext + n;
    for (int i = 0; i < n; i++)
    {
        const float *p = ps->positions + 3 * c[i].position;
        xy[2 * i] = ux * (double)p[0] + uy * (double)p[1] + uz * (double)p[2];
        xy[2 * i + 1] = vx * (double)p[0] + vy * (double)p[1] + vz * (double)p[2];
        prev[i] = (i + n - 1) % n;
        next[i] = (i + 1) % n;
    }
    int reflex_head = -1;
    for (int i = 0; i < n; i++)
    {
        reflex[i] = 0;
        if (cross2(xy + 2 * prev[i], xy + 2 * i, xy + 2 * next[i]) <= 0.0)
            reflex_insert(rprev, rnext, reflex, &reflex_head, i);
    }

    long long budget = OBJ_EAR_BUDGET_PER_CORNER2 * (long long)n * n + OBJ_EAR_BUDGET_MIN;
    int remaining = n, i = 0, misses = 0;
    while (remaining > 3)
    {
        int a = prev[i], b = next[i];
        bool ear = budget > 0 && !reflex[i];
        if (ear && reflex_head >= 0)
        {
            const double *pa = xy + 2 * a, *pi = xy + 2 * i, *pb = xy + 2 * b;
            int k = reflex_head;
            do
            {
                const double *pk = xy + 2 * k;
                budget--;
                // Corners coinciding with the ear's own corners (a polygon touching itself) do not block it.
                if (k != a && k != b && !same_point(pk, pa) && !same_point(pk, pi) && !same_point(pk, pb) &&
                    in_triangle(pa, pi, pb, pk))
                {
                    ear = false;
                    break;
                }
                k = rnext[k];
            } while (k != reflex_head);
        }
        budget--;
        if (!ear && (misses >= remaining || budget <= 0))
        {
            // A full turn without an ear (or the budget spent): clip the most convex corner.
            i = most_convex(xy, prev, next, i);
            a = prev[i];
            b = next[i];
            ear = true;
        }
        if (ear)
        {
            if (!emit_triangle(ps, &c[a], &c[i], &c[b]))
                return false;
            if (reflex[i])
                reflex_remove(rprev, rnext, reflex, &reflex_head, i);
            next[a] = b;
            prev[b] = a;
            remaining--;
            misses = 0;
            // The neighbours' convexity changed: update their flags and look there first.
            reflex_update(xy, prev, next, rprev, rnext, reflex, &reflex_head, a);
            reflex_update(xy, prev, next, rprev, rnext, reflex, &reflex_head, b);
            i = a;
        }
        else
        {
            misses++;
            i = b;
        }
    }
    return emit_triangle(ps, &c[prev[i]], &c[i], &c[next[i]]);
}

// Parses a face index token part at p (an integer, possibly negative) and resolves it against count
// elements defined so far. Returns the end or NULL (error recorded).
static const char *parse_index(parser *ps, const char *p, const char *e, int count, const char *kind,
                               int *out)
{
    bool negative = false;
    const char *start = p;
    if (p < e && (*p == '-' || *p == '+'))
    {
        negative = *p == '-';
        p++;
    }
    if (p == e || !text_is_digit(*p))
    {
        const char *t = start;
        while (!text_is_token_end(t, e))
            t++;
        fail(ps, "face: non-numeric %s index '%.*s'", kind, (int)(t - start > 40 ? 40 : t - start), start);
        return NULL;
    }
    int64_t v = 0;
    while (p < e && text_is_digit(*p))
    {
        if (v <= INT32_MAX)
            v = v * 10 + (*p - '0');
        p++;
    }
    if (v == 0)
    {
        fail(ps, "face: %s index 0 (indices start at 1; negative ones count back from the last)", kind);
        return NULL;
    }
    int64_t resolved = negative ? (int64_t)count - v : v - 1;
    if (resolved < 0 || resolved >= count)
    {
        // The index as written: past the int range a number would have to be clamped.
        int len = (int)(p - start);
        fail(ps, "face: %s index %.*s%s out of range (%d defined so far)", kind, len > 40 ? 40 : len, start,
             len > 40 ? "..." : "", count);
        return NULL;
    }
    *out = (int)resolved;
    return p;
}

static bool parse_face(parser *ps, const char *p, const char *e)
{
    int n = 0;
    for (;;)
    {
        p = text_skip_space(p, e);
        if (text_at_end(p, e))
            break;
        if (n == OBJ_MAX_FACE_CORNERS)
            return fail(ps, "face with more than %d vertices", OBJ_MAX_FACE_CORNERS);
        if (!reserve((void **)&ps->corners, &ps->corner_cap, n + 1, sizeof(obj_corner)))
            return out_of_memory(ps);
        obj_corner *c = &ps->corners[n];
        c->uv = -1;
        c->normal = -1;
        p = parse_index(ps, p, e, ps->position_count, "vertex", &c->position);
        if (!p)
            return false;
        if (p < e && *p == '/')
        {
            p++;
            if (p < e && *p != '/')
            {
                p = parse_index(ps, p, e, ps->uv_count, "texture", &c->uv);
                if (!p)
                    return false;
            }
            if (p < e && *p == '/')
            {
                p = parse_index(ps, p + 1, e, ps->normal_count, "normal", &c->normal);
                if (!p)
                    return false;
            }
        }
        if (!text_is_token_end(p, e))
            return fail(ps, "face: unexpected '%c' after a vertex index", *p);
        n++;
    }
    if (n < 3)
        return fail(ps, "face with %d vertices (at least 3 are needed)", n);
    if (!ensure_ranges(ps))
        return false;
    bool ok = n == 3 ? emit_triangle(ps, &ps->corners[0], &ps->corners[1], &ps->corners[2])
                     : triangulate(ps, ps->corners, n);
    if (ok)
        ps->face_count++;
    return ok;
}

// ---- Vertices --------------------------------------------------------------------------------------

static bool parse_vertex(parser *ps, const char *p, const char *e)
{
    float v[OBJ_MAX_VERTEX_NUMBERS];
    int n = 0;
    if (!parse_numbers(ps, p, e, "v", v, OBJ_MAX_VERTEX_NUMBERS, &n))
        return false;
    if (n != 3 && n != 4 && n != 6 && n != 7)
        return fail(ps, "v: expected x y z [w] [r g b], got %d numbers", n);
    if (ps->position_count >= ps->options.max_vertices)
        return fail(ps, "more than %d vertices", ps->options.max_vertices);
    if (!reserve((void **)&ps->positions, &ps->position_cap, ps->position_count + 1, 3 * sizeof(float)))
        return out_of_memory(ps);
    float *dst = ps->positions + 3 * ps->position_count;
    dst[0] = v[0];
    dst[1] = v[1];
    dst[2] = v[2];
    bool has_color = n >= 6;
    if (has_color || ps->colors)
    {
        if (!ps->colors)
        {
            // The first coloured vertex: earlier ones are white.
            ps->color_cap = ps->position_cap;
            ps->colors = malloc((size_t)ps->color_cap * 3 * sizeof(float));
            if (!ps->colors)
                return out_of_memory(ps);
            for (int i = 0; i < 3 * ps->position_count; i++)
                ps->colors[i] = 1.0f;
        }
        if (!reserve((void **)&ps->colors, &ps->color_cap, ps->position_count + 1, 3 * sizeof(float)))
            return out_of_memory(ps);
        float *col = ps->colors + 3 * ps->position_count;
        for (int k = 0; k < 3; k++)
            col[k] = has_color ? v[n - 3 + k] : 1.0f;
    }
    ps->position_count++;
    return true;
}

static bool parse_uv(parser *ps, const char *p, const char *e)
{
    float v[3];
    int n = 0;
    if (!parse_numbers(ps, p, e, "vt", v, 3, &n))
        return false;
    if (n < 1)
        return fail(ps, "vt: expected u [v [w]], got no numbers");
    if (ps->uv_count >= ps->options.max_vertices)
        return fail(ps, "more than %d texture coordinates", ps->options.max_vertices);
    if (!reserve((void **)&ps->uvs, &ps->uv_cap, ps->uv_count + 1, 2 * sizeof(float)))
        return out_of_memory(ps);
    ps->uvs[2 * ps->uv_count] = v[0];
    ps->uvs[2 * ps->uv_count + 1] = n > 1 ? v[1] : 0.0f;
    ps->uv_count++;
    return true;
}

static bool parse_normal(parser *ps, const char *p, const char *e)
{
    float v[3];
    int n = 0;
    if (!parse_numbers(ps, p, e, "vn", v, 3, &n))
        return false;
    if (n != 3)
        return fail(ps, "vn: expected x y z, got %d numbers", n);
    if (ps->normal_count >= ps->options.max_vertices)
        return fail(ps, "more than %d normals", ps->options.max_vertices);
    if (!reserve((void **)&ps->normals, &ps->normal_cap, ps->normal_count + 1, 3 * sizeof(float)))
        return out_of_memory(ps);
    memcpy(ps->normals + 3 * ps->normal_count, v, sizeof v);
    ps->normal_count++;
    return true;
}

// ---- Materials -------------------------------------------------------------------------------------

static bool parse_usemtl(parser *ps, const char *p, const char *e)
{
    const char *b, *t;
    rest_of_line(p, e, &b, &t);
    size_t n = (size_t)(t - b);
    if (n == 0)
    {
        // Blender writes a bare `usemtl` for faces without a material: they get none, as when the name
        // is unknown.
        asset_error_warn(ps->warnings, ps->name, ps->line,
                         "usemtl without a material name: faces after it have none");
        ps->material = -1;
        return true;
    }
    for (int i = 0; i < ps->use_count; i++)
    {
        const material_use *u = &ps->uses[i];
        if (u->name_length == n && memcmp(ps->pool + u->name_offset, b, n) == 0)
        {
            ps->material = i;
            return true;
        }
    }
    if (ps->use_count >= OBJ_MAX_MATERIALS)
        return fail(ps, "more than %d materials", OBJ_MAX_MATERIALS);
    long offset = pool_add(ps, b, n);
    if (offset < 0)
        return false;
    if (!reserve((void **)&ps->uses, &ps->use_cap, ps->use_count + 1, sizeof(material_use)))
        return out_of_memory(ps);
    ps->uses[ps->use_count] = (material_use){(size_t)offset, n, ps->line};
    ps->material = ps->use_count++;
    return true;
}

static bool load_library(parser *ps, const char *file, size_t n)
{
    char rel[PATH_MAX_LENGTH], path[PATH_MAX_LENGTH];
    if (n >= sizeof rel)
    {
        asset_error_warn(ps->warnings, ps->name, ps->line, "mtllib: file name too long, skipped");
        return true;
    }
    memcpy(rel, file, n);
    rel[n] = '\0';
    if (!path_join_sibling(ps->name, rel, path, sizeof path))
    {
        asset_error_warn(ps->warnings, ps->name, ps->line, "mtllib: path too long, skipped");
        return true;
    }
    if (ps->library_count >= OBJ_MAX_MATERIAL_FILES)
    {
        asset_error_warn(ps->warnings, ps->name, ps->line, "mtllib: more than %d files, %s skipped",
                         OBJ_MAX_MATERIAL_FILES, path);
        return true;
    }
    size_t len = 0;
    asset_error read_err;
    char *data = asset_read_file(path, OBJ_MAX_MTL_BYTES, &len, &read_err);
    if (!data || len > OBJ_MAX_MTL_BYTES)
    {
        if (data)
            asset_error_set(&read_err, path, 0, "file too large");
        asset_error_warn(ps->warnings, ps->name, ps->line, "material library not loaded: %s", read_err.text);
        free(data);
        return true;
    }
    mtl_library *lib = NULL;
    asset_error mtl_err;
    bool ok = mtl_parse(data, len, path, &lib, &mtl_err);
    free(data);
    if (!ok)
    {
        asset_error_warn(ps->warnings, ps->name, ps->line, "material library skipped: %s", mtl_err.text);
        return true;
    }
    if (!reserve((void **)&ps->libraries, &ps->library_cap, ps->library_count + 1, sizeof(mtl_library *)))
    {
        mtl_free(lib);
        return out_of_memory(ps);
    }
    ps->libraries[ps->library_count++] = lib;
    return true;
}

static bool parse_mtllib(parser *ps, const char *p, const char *e)
{
    if (!ps->options.load_materials)
        return true;
    for (;;)
    {
        p = text_skip_space(p, e);
        if (text_at_end(p, e))
            return true;
        const char *t = p;
        while (!text_is_token_end(t, e))
            t++;
        if (!load_library(ps, p, (size_t)(t - p)))
            return false;
        p = t;
    }
}

// ---- Statements ------------------------------------------------------------------------------------

static bool parse_smoothing(parser *ps, const char *p, const char *e)
{
    const char *b, *t;
    rest_of_line(p, e, &b, &t);
    if (t - b == 3 && text_match_word(b, t, "off"))
    {
        ps->smoothing = 0;
        return true;
    }
    int64_t v = 0;
    const char *q = b;
    while (q < t && text_is_digit(*q))
    {
        if (v <= INT32_MAX)
            v = v * 10 + (*q - '0');
        q++;
    }
    if (q == b || q != t || v > INT32_MAX)
        return fail(ps, "s: expected a smoothing group number or 'off', got '%.*s'",
                    (int)(t - b > 40 ? 40 : t - b), b);
    ps->smoothing = (int)v;
    if (v != 0)
        ps->has_smoothing = true;
    return true;
}

// Bytes a text .obj never holds, named before the statement is read: a NUL byte (a binary file, which
// would otherwise pass as lines of unknown statements and end as "no faces"), and a carriage return
// that does not end the line (old Mac line ends, which would glue lines into one statement). [p, e) is
// the logical line, its CRLF's '\r' included.
static bool check_line_bytes(parser *ps, const char *p, const char *e)
{
    size_t n = (size_t)(e - p);
    const char *z = memchr(p, '\0', n);
    if (z)
    {
        const char *k = text_skip_space(p, e), *ke = k;
        while (ke < e && !text_is_space(*ke) && *ke != '\0')
            ke++;
        size_t kn = (size_t)(ke - k);
        bool numbers = z > ke && ((kn == 1 && (*k == 'v' || *k == 'f')) ||
                                  (kn == 2 && k[0] == 'v' && (k[1] == 't' || k[1] == 'n')));
        if (numbers)
            return fail(ps, "%.*s: a NUL byte (0x00) at column %d, inside its numbers (is this a text file?)",
                        (int)kn, k, (int)(z - p) + 1);
        return fail(ps, "not a text file: a NUL byte (0x00) at column %d", (int)(z - p) + 1);
    }
    const char *cr = memchr(p, '\r', n);
    if (cr && cr != e - 1)
        return fail(ps,
                    "a lone carriage return at column %d (old Mac line ends are not supported: save the file "
                    "with LF or CRLF line ends)",
                    (int)(cr - p) + 1);
    return true;
}

// The first byte of [p, end) that check_line_bytes refuses, or NULL: a NUL, or a carriage return not
// followed by a line feed (one at the end of the input, or of a chunk, is looked at with what follows).
// One scan per chunk, so that the common lines pay nothing for the check (two memchr calls per line
// cost a fifth of the parser's speed).
static const char *first_suspect(const char *p, const char *end)
{
    const char *z = memchr(p, '\0', (size_t)(end - p));
    const char *limit = z ? z : end;
    for (const char *c = memchr(p, '\r', (size_t)(limit - p)); c;
         c = c + 1 < limit ? memchr(c + 1, '\r', (size_t)(limit - (c + 1))) : NULL)
        if (c + 1 < end && c[1] != '\n')
            return c;
    return z;
}

// One logical line [p, e), continuations already joined.
static bool parse_line(parser *ps, const char *p, const char *e)
{
    p = text_skip_space(p, e);
    if (text_at_end(p, e))
        return true;
    const char *k = p;
    while (p < e && !text_is_space(*p))
        p++;
    size_t n = (size_t)(p - k);
    switch (k[0])
    {
    case 'v':
        if (n == 1)
            return parse_vertex(ps, p, e);
        if (n == 2 && k[1] == 't')
            return parse_uv(ps, p, e);
        if (n == 2 && k[1] == 'n')
            return parse_normal(ps, p, e);
        break;
    case 'f':
        if (n == 1)
            return parse_face(ps, p, e);
        break;
    case 'o':
    case 'g':
        if (n == 1)
        {
            const char *b, *t;
            rest_of_line(p, e, &b, &t);
            return k[0] == 'o' ? begin_object(ps, b, (size_t)(t - b), ps->line, false)
                               : begin_group(ps, b, (size_t)(t - b), ps->line);
        }
        break;
    case 's':
        if (n == 1)
            return parse_smoothing(ps, p, e);
        break;
    case 'u':
        if (n == 6 && memcmp(k, "usemtl", 6) == 0)
            return parse_usemtl(ps, p, e);
        break;
    case 'm':
        if (n == 6 && memcmp(k, "mtllib", 6) == 0)
            return parse_mtllib(ps, p, e);
        break;
    default:
        break;
    }
    // Unknown statements (vp, l, p, curv, surf, ...) are skipped: we only need polygons.
    return true;
}

// ---- Line splitting --------------------------------------------------------------------------------

// True when the physical line [s, nl) ends in a backslash (before an optional '\r').
static bool continues(const char *s, const char *nl)
{
    const char *t = nl;
    if (t > s && t[-1] == '\r')
        t--;
    return t > s && t[-1] == '\\';
}

// Parses every complete logical line of buf[0, len). When final, the rest counts as a last line.
// Returns the bytes consumed; the caller keeps the rest for the next chunk.
static size_t feed(parser *ps, const char *buf, size_t len, bool final)
{
    const char *p = buf, *end = buf + len;
    const char *suspect = first_suspect(buf, end);
    if (!ps->bom_checked)
    {
        // A UTF-8 byte-order mark (Windows editors write one) is not part of the first statement.
        if (len < 3 && !final)
            return 0;
        ps->bom_checked = true;
        if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
            p += 3;
    }
    while (p < end && !ps->failed)
    {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl && !final)
            break;
        const char *line_end = nl ? nl : end;
        if (!continues(p, line_end))
        {
            ps->line = ps->next_line++;
            if (line_end - p > OBJ_MAX_LINE_LENGTH)
            {
                fail(ps, "line longer than %d bytes", OBJ_MAX_LINE_LENGTH);
                break;
            }
            if (!suspect || suspect >= line_end || check_line_bytes(ps, p, line_end))
                parse_line(ps, p, line_end);
            p = nl ? nl + 1 : end;
            continue;
        }
        // Backslash continuations: join the physical lines (the backslash becomes a space) into the
        // join buffer. When the logical line is not complete in this chunk, wait for the next one.
        const char *q = p;
        int joined = 0, physical = 0;
        bool complete = false;
        while (q < end)
        {
            const char *qnl = memchr(q, '\n', (size_t)(end - q));
            if (!qnl && !final)
                break;
            const char *qe = qnl ? qnl : end;
            bool more = qnl && continues(q, qe);
            const char *copy_end = qe;
            if (more)
                copy_end = qe[-1] == '\r' ? qe - 2 : qe - 1; // drop "\\" or "\\\r"
            else if (qe > q && qe[-1] == '\r')
                copy_end = qe - 1; // the last line's CRLF, which would sit mid-line once joined
            size_t piece = (size_t)(copy_end - q);
            if (joined + (long)piece + 1 > OBJ_MAX_LINE_LENGTH)
            {
                ps->line = ps->next_line;
                fail(ps, "line longer than %d bytes", OBJ_MAX_LINE_LENGTH);
                return (size_t)(end - buf);
            }
            if (!reserve((void **)&ps->join, &ps->join_cap, joined + (int)piece + 1, 1))
            {
                out_of_memory(ps);
                return (size_t)(end - buf);
            }
            memcpy(ps->join + joined, q, piece);
            joined += (int)piece;
            ps->join[joined++] = ' ';
            physical++;
            q = qnl ? qnl + 1 : end;
            if (!more)
            {
                complete = true;
                break;
            }
        }
        if (!complete && !final)
            break;
        ps->line = ps->next_line;
        ps->next_line += physical;
        if (!suspect || suspect >= q || check_line_bytes(ps, ps->join, ps->join + joined))
            parse_line(ps, ps->join, ps->join + joined);
        p = q;
    }
    return (size_t)(p - buf);
}

// ---- Result ----------------------------------------------------------------------------------------

static size_t align_up(size_t n)
{
    const size_t a = sizeof(max_align_t);
    return (n + a - 1) / a * a;
}

// Looks a used material up in the loaded libraries (the last definition wins, as in most readers).
static const obj_material *find_material(const parser *ps, const char *name)
{
    for (int l = ps->library_count - 1; l >= 0; l--)
    {
        const mtl_library *lib = ps->libraries[l];
        for (int m = lib->material_count - 1; m >= 0; m--)
            if (strcmp(lib->materials[m].name, name) == 0)
                return &lib->materials[m];
    }
    return NULL;
}

// memcpy that accepts a NULL source for zero bytes (an array that never grew).
static void copy_bytes(void *dst, const void *src, size_t n)
{
    if (n > 0)
        memcpy(dst, src, n);
}

// Some exporters write `g name` after the faces it names, so that each `g` closes a run instead of
// opening one. Read the usual way, such a file's faces before its first `g` fall in an unnamed group,
// every run takes the name of the group before it, and its last `g` names no faces. That pattern, an
// object whose first run is unnamed with faces and whose last `g` has no faces, is read the exporter's
// way: every run takes the name (and line) of the `g` after it.
static void name_groups_after_faces(parser *ps)
{
    for (int o = 0; o < ps->object_count; o++)
    {
        int first = -1, last = -1;
        for (int g = 0; g < ps->group_count; g++)
            if (ps->groups[g].range.object == o)
            {
                first = first < 0 ? g : first;
                last = g;
            }
        if (first < 0 || first == last)
            continue;
        const range_build *a = &ps->groups[first], *z = &ps->groups[last];
        bool leading_unnamed = ps->pool[a->name_offset] == '\0' && a->range.face_count > 0;
        bool trailing_empty = ps->pool[z->name_offset] != '\0' && z->range.face_count == 0;
        if (!leading_unnamed || !trailing_empty)
            continue;
        for (int g = first; g < last; g++)
        {
            ps->groups[g].name_offset = ps->groups[g + 1].name_offset;
            ps->groups[g].range.line = ps->groups[g + 1].range.line;
        }
    }
}

// Copies everything into one allocation laid out as: model, range and material arrays, warning
// pointers, float arrays, triangles, then the strings.
static obj_model *finish(parser *ps)
{
    if (ps->group_open)
        close_range(ps, &ps->groups[ps->group_count - 1]);
    if (ps->object_open)
        close_range(ps, &ps->objects[ps->object_count - 1]);
    name_groups_after_faces(ps);
    for (int i = 0; i < ps->use_count; i++)
    {
        const char *name = ps->pool + ps->uses[i].name_offset;
        if (ps->options.load_materials && !find_material(ps, name))
            asset_error_warn(ps->warnings, ps->name, ps->uses[i].line, "usemtl: unknown material '%s'", name);
    }
    int kept = ps->warnings->kept;
    size_t name_len = strlen(ps->name) + 1;
    size_t warn_len = 0;
    for (int i = 0; i < kept; i++)
        warn_len += strlen(ps->warnings->text[i]) + 1;

    size_t off = align_up(sizeof(obj_model));
    size_t off_objects = off;
    off = align_up(off + (size_t)ps->object_count * sizeof(obj_range));
    size_t off_groups = off;
    off = align_up(off + (size_t)ps->group_count * sizeof(obj_range));
    size_t off_materials = off;
    off = align_up(off + (size_t)ps->use_count * sizeof(obj_material));
    size_t off_warnings = off;
    off = align_up(off + (size_t)kept * sizeof(char *));
    size_t off_positions = off;
    off = align_up(off + (size_t)ps->position_count * 3 * sizeof(float));
    size_t off_colors = off;
    off = align_up(off + (ps->colors ? (size_t)ps->position_count * 3 * sizeof(float) : 0));
    size_t off_uvs = off;
    off = align_up(off + (size_t)ps->uv_count * 2 * sizeof(float));
    size_t off_normals = off;
    off = align_up(off + (size_t)ps->normal_count * 3 * sizeof(float));
    size_t off_triangles = off;
    off = align_up(off + (size_t)ps->triangle_count * sizeof(obj_triangle));
    size_t off_pool = off;
    off += (size_t)ps->pool_len + name_len + warn_len;

    char *block = malloc(off);
    if (!block)
    {
        out_of_memory(ps);
        return NULL;
    }
    obj_model *m = (obj_model *)block;
    memset(m, 0, sizeof *m);
    char *pool = block + off_pool;
    copy_bytes(pool, ps->pool, (size_t)ps->pool_len);
    char *strings = pool + ps->pool_len;
    copy_bytes(strings, ps->name, name_len);
    m->name = strings;
    strings += name_len;

    m->position_count = ps->position_count;
    m->positions = (float *)(block + off_positions);
    copy_bytes(m->positions, ps->positions, (size_t)ps->position_count * 3 * sizeof(float));
    if (ps->colors)
    {
        m->colors = (float *)(block + off_colors);
        copy_bytes(m->colors, ps->colors, (size_t)ps->position_count * 3 * sizeof(float));
    }
    m->uv_count = ps->uv_count;
    m->uvs = (float *)(block + off_uvs);
    copy_bytes(m->uvs, ps->uvs, (size_t)ps->uv_count * 2 * sizeof(float));
    m->normal_count = ps->normal_count;
    m->normals = (float *)(block + off_normals);
    copy_bytes(m->normals, ps->normals, (size_t)ps->normal_count * 3 * sizeof(float));
    m->face_count = ps->face_count;
    m->triangle_count = ps->triangle_count;
    m->triangles = (obj_triangle *)(block + off_triangles);
    copy_bytes(m->triangles, ps->triangles, (size_t)ps->triangle_count * sizeof(obj_triangle));

    m->object_count = ps->object_count;
    m->objects = (obj_range *)(block + off_objects);
    for (int i = 0; i < ps->object_count; i++)
    {
        m->objects[i] = ps->objects[i].range;
        m->objects[i].name = pool + ps->objects[i].name_offset;
    }
    m->group_count = ps->group_count;
    m->groups = (obj_range *)(block + off_groups);
    for (int i = 0; i < ps->group_count; i++)
    {
        m->groups[i] = ps->groups[i].range;
        m->groups[i].name = pool + ps->groups[i].name_offset;
    }
    m->material_count = ps->use_count;
    m->materials = (obj_material *)(block + off_materials);
    for (int i = 0; i < ps->use_count; i++)
    {
        obj_material *mat = &m->materials[i];
        mat->name = pool + ps->uses[i].name_offset;
        const obj_material *found = find_material(ps, mat->name);
        for (int k = 0; k < 3; k++)
            mat->diffuse[k] = found ? found->diffuse[k] : OBJ_DEFAULT_DIFFUSE;
        mat->opacity = found ? found->opacity : OBJ_DEFAULT_OPACITY;
    }
    m->has_smoothing = ps->has_smoothing;
    m->warning_count = ps->warnings->count;
    m->kept_warning_count = kept;
    m->warnings = (const char **)(block + off_warnings);
    for (int i = 0; i < kept; i++)
    {
        size_t n = strlen(ps->warnings->text[i]) + 1;
        copy_bytes(strings, ps->warnings->text[i], n);
        m->warnings[i] = strings;
        strings += n;
    }
    return m;
}

static bool parser_init(parser *ps, const char *name, const obj_options *options, asset_error *err)
{
    memset(ps, 0, sizeof *ps);
    ps->name = name ? name : "(memory)";
    ps->options = options ? *options : obj_default_options();
    if (ps->options.max_vertices <= 0 || ps->options.max_vertices > OBJ_MAX_VERTICES)
        ps->options.max_vertices = OBJ_MAX_VERTICES;
    if (ps->options.max_triangles <= 0 || ps->options.max_triangles > OBJ_MAX_TRIANGLES)
        ps->options.max_triangles = OBJ_MAX_TRIANGLES;
    ps->err = err;
    ps->next_line = 1;
    ps->material = -1;
    ps->warnings = calloc(1, sizeof *ps->warnings);
    if (!ps->warnings)
    {
        asset_error_set(err, ps->name, 0, "out of memory");
        return false;
    }
    return true;
}

static void parser_free(parser *ps)
{
    free(ps->positions);
    free(ps->colors);
    free(ps->uvs);
    free(ps->normals);
    free(ps->triangles);
    free(ps->objects);
    free(ps->groups);
    free(ps->uses);
    for (int i = 0; i < ps->library_count; i++)
        mtl_free(ps->libraries[i]);
    free(ps->libraries);
    free(ps->pool);
    free(ps->corners);
    free(ps->xy);
    free(ps->links);
    free(ps->join);
    free(ps->warnings);
}

static bool parser_end(parser *ps, obj_model **out_model)
{
    obj_model *m = ps->failed ? NULL : finish(ps);
    parser_free(ps);
    *out_model = m;
    return m != NULL;
}

// ---- Public ----------------------------------------------------------------------------------------

obj_options obj_default_options(void)
{
    obj_options o;
    o.load_materials = true;
    o.max_vertices = OBJ_MAX_VERTICES;
    o.max_triangles = OBJ_MAX_TRIANGLES;
    return o;
}

bool obj_parse(const char *buf, size_t len, const char *name, const obj_options *options,
               obj_model **out_model, asset_error *out_error)
{
    if (!out_model)
        return false;
    *out_model = NULL;
    parser ps;
    if (!parser_init(&ps, name, options, out_error))
        return false;
    if (!buf && len > 0)
        fail(&ps, "no data");
    else if (len > 0)
        feed(&ps, buf, len, true);
    return parser_end(&ps, out_model);
}

bool obj_load(const char *path, const obj_options *options, obj_model **out_model, asset_error *out_error)
{
    if (!out_model)
        return false;
    *out_model = NULL;
    FILE *f = asset_open_file(path, out_error);
    if (!f)
        return false;
    parser ps;
    if (!parser_init(&ps, path, options, out_error))
    {
        fclose(f);
        return false;
    }
    // The buffer holds one chunk plus the unfinished line carried over from the previous chunk, which
    // the line-length limit bounds.
    size_t cap = OBJ_CHUNK_BYTES + OBJ_MAX_LINE_LENGTH + 2;
    char *buf = malloc(cap);
    if (!buf)
        out_of_memory(&ps);
    size_t have = 0;
    while (buf && !ps.failed)
    {
        size_t got = fread(buf + have, 1, cap - have, f);
        if (got == 0 && ferror(f))
        {
            ps.line = 0;
            fail(&ps, "read error");
            break;
        }
        have += got;
        bool final = got == 0 || feof(f);
        size_t used = feed(&ps, buf, have, final);
        if (final)
            break;
        memmove(buf, buf + used, have - used);
        have -= used;
        if (have > OBJ_MAX_LINE_LENGTH)
        {
            ps.line = ps.next_line;
            fail(&ps, "line longer than %d bytes", OBJ_MAX_LINE_LENGTH);
        }
    }
    free(buf);
    fclose(f);
    return parser_end(&ps, out_model);
}

void obj_free(obj_model *model)
{
    free(model);
}
