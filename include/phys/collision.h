// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// World-free geometry: convex shapes and hulls, mass properties, GJK, EPA, contact manifolds, ray
// casts and time of impact. Every function here works on shapes and transforms only, with no world,
// so it can be unit-tested and benchmarked on its own. Units are SI (m, kg, s, rad).
#pragma once

#include "phys/base.h"
#include "phys/math.h"

#include <stdint.h> // uint32_t

// ---- Hulls ----------------------------------------------------------------------------------------

// Largest vertex count a hull may keep, and the default vertex budget of ph_hull_def.
#define PH_HULL_MAX_VERTICES 256
#define PH_HULL_DEFAULT_VERTEX_BUDGET 64
// Lanes of the support scan, and the largest hull it scans (larger ones are climbed; see
// ph_hull_support_index).
#define PH_HULL_LANES 4
#define PH_HULL_SCAN_MAX 64

// A face of a hull: a convex polygon, its vertices listed counter-clockwise seen from outside.
typedef struct ph_hull_face
{
    ph_vec3 normal;  // outward unit normal
    float offset;    // plane: dot(normal, x) = offset for x on the face (unit: m)
    int first_index; // into ph_hull.face_indices
    int index_count; // >= 3
} ph_hull_face;

// An undirected edge, shared by exactly two faces.
typedef struct ph_hull_edge
{
    int v0, v1; // vertex indices
    int f0, f1; // faces on either side
} ph_hull_edge;

// A closed convex polyhedron with coplanar triangles merged into polygon faces and its adjacency.
// Built by ph_hull_build() and immutable afterwards; all arrays are owned by the hull.
// Invariants: every face is convex and outward; V - E + F = 2; every input point lies inside, within
// max_outside_distance (which is 0 up to merge rounding unless the vertex budget dropped vertices).
typedef struct ph_hull
{
    int vertex_count;
    ph_vec3 *vertices; // local space (unit: m)
    int face_count;
    ph_hull_face *faces;
    int *face_indices; // vertex loops of the faces, see ph_hull_face
    int edge_count;
    ph_hull_edge *edges;    // f0 is the face whose loop runs v0 -> v1, f1 the one running v1 -> v0
    int *adjacency_offsets; // vertex v's neighbours are adjacency[adjacency_offsets[v] .. [v + 1])
    int *adjacency;         // the other ends of v's edges (2 * edge_count entries in all)
    // The vertices' coordinates by axis, for the support scan: every x, then every y, then every z, each
    // run padded with vertex 0's to a multiple of 4 (PH_HULL_LANES).
    float *axis_coords;
    ph_vec3 centroid;   // volume centroid (unit: m)
    ph_aabb bounds;     // local bounds
    float inner_radius; // radius of a sphere around the centroid that fits inside (unit: m)
    float outer_radius; // largest distance of a vertex from the centroid (unit: m)
    // Largest distance any input point lies outside the faces (unit: m): 0 for an exact hull; up to the
    // coplanar-merge tolerance (a few 1e-6 of the extent) after merging nearly coplanar faces, and the
    // approximation error when the vertex budget made the hull drop vertices.
    float max_outside_distance;
} ph_hull;

typedef struct ph_hull_def
{
    const ph_vec3 *points; // point cloud, copied; duplicates, coplanar and collinear points are fine
    int point_count;       // >= 4 non-coplanar points are needed for a hull
    // Simplify to at most this many vertices, in [4, PH_HULL_MAX_VERTICES] (default 64): the kept
    // vertices are grown greedily by the farthest input point, and max_outside_distance reports the
    // error.
    int vertex_budget;
    uint32_t internal_cookie;
} ph_hull_def;

ph_hull_def ph_default_hull_def(void);

// Builds the convex hull of def->points (through qhull, see hull.c). Faces that are coplanar within
// 1e-6 of the cloud's extent are merged into one convex polygon. On failure returns NULL and, when
// out_status is not NULL, stores PH_ERR_INVALID_ARG (NaN or infinite point, bad def, budget out of
// range), PH_ERR_DEGENERATE (all points within 1e-4 of the extent of a plane, a line or a point) or
// PH_ERR_OUT_OF_MEMORY; the reason is also sent to the log hook. The result is one allocation through
// the allocator hooks. Free with ph_hull_free() (NULL is fine).
ph_hull *ph_hull_build(const ph_hull_def *def, ph_status *out_status);
void ph_hull_free(ph_hull *hull);

// Support vertex of the hull in local direction d. A hull of at most PH_HULL_SCAN_MAX vertices is
// scanned whole, 4 vertices at a time (the lowest index of the largest dot, as the brute force finds);
// a larger one is climbed over its vertex adjacency from *inout_start (the previous answer; pass NULL or
// a pointer to -1 to start anywhere; out-of-range starts are treated as -1), at most vertex_count steps.
// Returns the vertex index and stores it in *inout_start; tests check both ways against
// ph_hull_support_index_brute on random hulls.
int ph_hull_support_index(const ph_hull *hull, ph_vec3 d, int *inout_start);
// The world bounds of the hull posed by xf: every vertex turned and moved, 4 at a time (exact: the bounds
// of the vertices as glms_mat3_mulv and glms_vec3_add place them).
ph_aabb ph_hull_bounds(const ph_hull *hull, ph_transform xf);
// The same answer by testing every vertex; the reference that tests compare against.
int ph_hull_support_index_brute(const ph_hull *hull, ph_vec3 d);

// ---- Convex shapes ---------------------------------------------------------------------------------

// Shape types. Sphere, capsule, box and hull are convex; compound and mesh hold convex parts.
// Triangle is the convex piece of a mesh handed to the narrow phase.
typedef enum ph_shape_type
{
    PH_SHAPE_SPHERE,
    PH_SHAPE_CAPSULE,
    PH_SHAPE_BOX,
    PH_SHAPE_HULL,
    PH_SHAPE_TRIANGLE,
    PH_SHAPE_COMPOUND,
    PH_SHAPE_MESH,
    PH_SHAPE_COUNT
} ph_shape_type;

// A convex shape, resolved to its geometry: what GJK, EPA, manifolds, rays and TOI consume.
// Sphere: radius. Capsule: the segment from (0,-half_height,0) to (0,half_height,0) swept by radius.
// Box: half_extents. Hull: hull (not owned). Triangle: tri[3], with no thickness.
// A triangle of a mesh also knows its neighbours: bit k of tri_shared is set when edge k (tri[k] to
// tri[k + 1]) is shared with exactly one other triangle, which leaves this triangle's plane at angle
// tri_bend[k] (unit: rad, in [-pi, pi]; 0 for a coplanar neighbour, negative when it bends away from the side
// the counter-clockwise winding faces). Contacts at an edge hidden by its neighbour (a coplanar or concave
// one) take the face normal instead of tripping a body sliding over the seam (manifold.c); an edge without
// the bit (a border, or a plain triangle from ph_convex_triangle: tri_shared 0) is always a real edge.
// tri_rim marks the corners where some real edge of the mesh ends, though this triangle's own edges there may
// be flat seams (a floor triangle whose corner touches the foot of a wall).
typedef struct ph_convex
{
    ph_shape_type type;
    ph_vec3 half_extents; // box (unit: m)
    float radius;         // sphere, capsule (unit: m)
    float half_height;    // capsule (unit: m)
    const ph_hull *hull;  // hull
    ph_vec3 tri[3];       // triangle vertices (unit: m)
    unsigned tri_shared;  // triangle: bit k set when edge k has one neighbour
    float tri_bend[3];    // triangle: the neighbour's angle out of the plane at edge k (unit: rad)
    unsigned tri_rim; // triangle: bit k set when corner k lies on a real edge of the mesh (any triangle's)
} ph_convex;

// A shared edge whose neighbour leaves the plane by at most this angle is a flat seam, never a real edge
// (unit: rad; half a degree). Float rounding tilts the neighbours of a flat mesh by microradians; a fold just
// above the threshold is kept real, which costs nothing at a seam: contacts there must also have their
// normal in the edge's normal cone.
#define PH_TRIANGLE_FLAT_ANGLE 0.0087f

ph_convex ph_convex_sphere(float radius);
ph_convex ph_convex_capsule(float half_height, float radius);
ph_convex ph_convex_box(ph_vec3 half_extents);
ph_convex ph_convex_hull(const ph_hull *hull);
ph_convex ph_convex_triangle(ph_vec3 a, ph_vec3 b, ph_vec3 c);

// Support point of the shape in local direction d (the point maximising dot(x, d)); d need not be unit.
// For a zero d any surface point is valid, and a fixed one is returned. A large hull starts its climb at
// vertex 0 here; call ph_hull_support_index with a cached start for warm starts. Compounds and meshes are
// not convex and return the origin.
ph_vec3 ph_convex_support(const ph_convex *shape, ph_vec3 d);
// World bounds of the shape under transform xf: exact for every convex shape (hulls and triangles
// transform their vertices).
ph_aabb ph_convex_bounds(const ph_convex *shape, ph_transform xf);

// ---- Mass properties -------------------------------------------------------------------------------

typedef struct ph_mass_properties
{
    float mass;      // (unit: kg)
    ph_vec3 center;  // centre of mass in the shape's frame (unit: m)
    ph_mat3 inertia; // inertia tensor about the centre of mass, shape axes (unit: kg m^2)
    float volume;    // (unit: m^3)
} ph_mass_properties;

// Analytic for sphere, capsule and box; exact surface-integral method for hulls. density in kg/m^3.
// Triangles, compounds, meshes, invalid sizes (NaN, negative) or a non-positive density give all zeros.
ph_mass_properties ph_compute_mass(const ph_convex *shape, float density);
// Mass properties of a closed, outward-wound triangle mesh (surface-integral method, Eberly/Mirtich).
// tri_indices holds 3 * tri_count vertex indices, each < the length of vertices (not checkable here).
// A surface enclosing no positive volume (open, inward-wound) or invalid input gives all zeros.
ph_mass_properties ph_compute_polyhedron_mass(const ph_vec3 *vertices, const int *tri_indices, int tri_count,
                                              float density);
// Moves a mass property set by transform xf (rotates the tensor, moves the centre).
ph_mass_properties ph_transform_mass(ph_mass_properties m, ph_transform xf);
// Sums two sets about their joint centre of mass (parallel-axis theorem).
ph_mass_properties ph_add_mass(ph_mass_properties a, ph_mass_properties b);

// ---- Compounds and static meshes -------------------------------------------------------------------

typedef struct ph_compound_child
{
    ph_convex shape;
    ph_transform local; // child frame in the compound frame
} ph_compound_child;

// Several convex children, each with a local transform. Immutable once built.
typedef struct ph_compound
{
    int child_count;
    ph_compound_child *children;
    ph_aabb bounds; // local bounds
} ph_compound;

// A static concave triangle mesh with its bounding-volume tree. Immutable once built.
typedef struct ph_mesh ph_mesh;

typedef struct ph_mesh_def
{
    const ph_vec3 *vertices; // copied
    int vertex_count;
    const int *indices; // 3 per triangle, counter-clockwise seen from the front; copied
    int triangle_count;
    uint32_t internal_cookie;
} ph_mesh_def;

// Largest triangle count of a static mesh (and 3x that for its vertex count).
#define PH_MESH_MAX_TRIANGLES (1 << 22)

ph_mesh_def ph_default_mesh_def(void);
// Builds the mesh and its tree. Degenerate triangles (no area) are dropped. NULL on failure, with the
// status in *out_status (PH_ERR_INVALID_ARG for NaN, out-of-range indices; PH_ERR_DEGENERATE when no
// triangle is left; PH_ERR_CAPACITY past PH_MESH_MAX_TRIANGLES; PH_ERR_OUT_OF_MEMORY). Triangle
// numbers used by the functions below count the kept triangles, in the tree's order.
ph_mesh *ph_mesh_build(const ph_mesh_def *def, ph_status *out_status);
void ph_mesh_free(ph_mesh *mesh);
int ph_mesh_triangle_count(const ph_mesh *mesh);
ph_aabb ph_mesh_bounds(const ph_mesh *mesh);
// Triangle i as a convex shape in mesh space, with its neighbours (tri_shared, tri_bend): neighbours are the
// triangles sharing an edge's two corners by position, so a triangle soup is joined as well as an indexed
// mesh.
ph_convex ph_mesh_triangle(const ph_mesh *mesh, int i);
// Calls fn for every triangle whose bounds overlap box (mesh space, touching counts), each once, in no
// particular order. fn returns false to stop early. A NULL mesh or fn, or a non-finite box, does nothing.
typedef bool ph_mesh_query_fn(int triangle, void *ctx);
void ph_mesh_query(const ph_mesh *mesh, ph_aabb box, ph_mesh_query_fn *fn, void *ctx);

// ---- GJK -------------------------------------------------------------------------------------------

#define PH_GJK_ITERATION_LIMIT 64 // hard bound on GJK iterations (the status enum has PH_GJK_MAX_ITERATIONS)

typedef enum ph_gjk_status
{
    PH_GJK_SEPARATED,      // distance > 0; closest points and normal valid
    PH_GJK_OVERLAPPING,    // the shapes intersect (or touch within tolerance); simplex encloses origin
    PH_GJK_MAX_ITERATIONS, // hit the bound; the result is the best estimate so far
    PH_GJK_DEGENERATE      // no progress possible (numerically flat simplex); best estimate returned
} ph_gjk_status;

// A simplex vertex of the Minkowski difference B - A with its witnesses in each shape's local frame,
// so that a cached simplex can be re-evaluated after the shapes moved.
typedef struct ph_simplex_vertex
{
    ph_vec3 local_a, local_b; // support points in each shape's frame
    ph_vec3 w;                // world: xf_b(local_b) - xf_a(local_a)
} ph_simplex_vertex;

typedef struct ph_simplex
{
    int count; // 0..4
    ph_simplex_vertex v[4];
} ph_simplex;

// Kept per pair by the caller between steps (zero-initialise it): GJK starts from its simplex, so a
// pair that barely moved costs one or two iterations.
typedef struct ph_gjk_cache
{
    ph_simplex simplex;
} ph_gjk_cache;

typedef struct ph_gjk_output
{
    ph_gjk_status status;
    float distance;  // >= 0 (unit: m); 0 when overlapping
    ph_vec3 point_a; // closest point on A, world (unit: m)
    ph_vec3 point_b; // closest point on B, world
    ph_vec3 normal;  // unit, from A towards B (separated case)
    int iterations;
    ph_simplex simplex; // the final simplex (EPA starts from it when overlapping)
} ph_gjk_output;

// Distance between convex A under xa and convex B under xb. cache may be NULL; when given it is read
// as a warm start and overwritten with the final simplex. Returns out->status.
ph_gjk_status ph_gjk_distance(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                              ph_gjk_cache *cache, ph_gjk_output *out);
// Boolean intersection (may exit early as soon as a separating axis is found).
bool ph_gjk_intersect(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                      ph_gjk_cache *cache);

// ---- EPA -------------------------------------------------------------------------------------------

#define PH_EPA_MAX_VERTICES 128
#define PH_EPA_MAX_FACES 256
#define PH_EPA_ITERATION_LIMIT 64 // hard bound on EPA iterations (the status enum has PH_EPA_MAX_ITERATIONS)

typedef enum ph_epa_status
{
    PH_EPA_OK,             // converged within tolerance
    PH_EPA_MAX_ITERATIONS, // bound hit; best estimate returned
    PH_EPA_OVERFLOW,       // polytope capacity hit; best estimate returned
    PH_EPA_DEGENERATE,     // could not build a polytope (touching, flat); depth 0 estimate returned
    PH_EPA_SEPARATED       // the shapes do not overlap (use GJK's distance instead)
} ph_epa_status;

typedef struct ph_epa_output
{
    ph_epa_status status;
    float depth;     // penetration depth >= 0 (unit: m)
    ph_vec3 normal;  // unit, from A towards B: moving B by depth * normal separates them
    ph_vec3 point_a; // deepest point of A inside B, world
    ph_vec3 point_b; // deepest point of B inside A, world
    int iterations;
} ph_epa_output;

// Penetration of overlapping shapes, starting from GJK's terminating simplex (grown to a tetrahedron
// where it has fewer points). simplex may be NULL (GJK is run first). Bounded memory on the stack.
ph_epa_status ph_epa_penetration(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                                 const ph_simplex *simplex, ph_epa_output *out);

// Optional trace of the polytope for debug drawing: filled when not NULL.
#define PH_TRACE_MAX_TRIANGLES 128
typedef struct ph_polytope_trace
{
    int triangle_count;
    ph_vec3 triangles[PH_TRACE_MAX_TRIANGLES][3]; // Minkowski-difference space (unit: m)
} ph_polytope_trace;
ph_epa_status ph_epa_penetration_traced(const ph_convex *a, ph_transform xa, const ph_convex *b,
                                        ph_transform xb, const ph_simplex *simplex, ph_epa_output *out,
                                        ph_polytope_trace *trace);

// ---- Penetration ------------------------------------------------------------------------------------

// Exact penetration of two convex shapes: the depth, the direction and the witness points of the shortest
// translation of B that separates them, as ph_epa_penetration defines them and with its statuses
// (PH_EPA_SEPARATED when the shapes do not overlap; touching overlaps with depth 0). Boxes and hulls with
// few edge pairs (box-box, box against a small hull) take the separating-axis test: the largest
// separation over the face normals and the edge-pair axes that form faces of the Minkowski difference is
// the depth (to float rounding, within 1e-6 of the size), in closed form for two boxes. Other pairs run GJK
// and EPA, converged to 1e-5 of the depth (rounded shapes on their cores). cache may be NULL; when its
// simplex is set, GJK starts from it (the cache is read, not written). Bounded memory on the stack;
// PH_EPA_DEGENERATE for invalid shapes or transforms.
ph_epa_status ph_penetration(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb,
                             ph_gjk_cache *cache, ph_epa_output *out);

// ---- Contact manifolds -----------------------------------------------------------------------------

#define PH_MAX_MANIFOLD_POINTS 4

typedef struct ph_manifold_point
{
    ph_vec3 point;    // world contact point, midway between the surfaces (unit: m)
    float separation; // negative when penetrating (unit: m)
    uint32_t id;      // feature id, stable across frames while the same features touch
} ph_manifold_point;

typedef struct ph_manifold
{
    int point_count; // 0 when the shapes are farther apart than the speculative margin
    ph_vec3 normal;  // unit, from A towards B
    ph_manifold_point points[PH_MAX_MANIFOLD_POINTS];
} ph_manifold;

// Contact manifold between two convex shapes, including speculative points for shapes apart by less
// than margin (unit: m). Faces give up to 4 points (reference face from the normal, incident face
// clipped against its side planes, reduced to the 4 spanning the largest area). cache may be NULL. Against a
// mesh triangle (tri_shared set), a contact at an edge its neighbour hides is made against the triangle's
// face.
void ph_collide_convex(const ph_convex *a, ph_transform xa, const ph_convex *b, ph_transform xb, float margin,
                       ph_gjk_cache *cache, ph_manifold *out);

// ---- Ray casts -------------------------------------------------------------------------------------

typedef struct ph_ray_hit
{
    float distance; // along the unit direction (unit: m)
    ph_vec3 point;  // world
    ph_vec3 normal; // world, unit, facing the ray
} ph_ray_hit;

// Casts a ray from origin along unit direction dir up to max_distance (a non-unit dir is normalised;
// distances are along the unit one). A ray starting inside a solid shape hits at distance 0 with
// normal -dir; triangles are two-sided, with the normal facing the ray. Returns false when nothing is
// hit, and for invalid input (NULL, NaN or infinite values, zero dir, negative max_distance).
// ph_ray_cast_mesh returns the nearest triangle hit, found through the mesh's tree.
bool ph_ray_cast_convex(const ph_convex *shape, ph_transform xf, ph_vec3 origin, ph_vec3 dir,
                        float max_distance, ph_ray_hit *out);
bool ph_ray_cast_mesh(const ph_mesh *mesh, ph_transform xf, ph_vec3 origin, ph_vec3 dir, float max_distance,
                      ph_ray_hit *out);

// ---- Time of impact ---------------------------------------------------------------------------------

// Motion of a body over a time interval [0, 1]: the centre of mass moves linearly from c0 to c1 and the
// orientation turns at constant angular velocity from q0 to q1. local_center is the centre of mass in
// the shape's frame, so the shape's frame at t is found from c(t) and q(t). The turn is the shorter one from
// q0 to q1 (at most half a revolution) unless `rotation` is set: then the orientation at t is q0 turned by
// t * rotation (a world vector, axis times angle, of any angle: w dt for a body spinning at w), and q1 must
// be that turn's end. A box spinning at 500 rad/s turns by 8 rad in a 60 Hz step; the shorter turn to the
// same end goes the other way round, and an impact found along it is not the one the body meets.
typedef struct ph_sweep
{
    ph_vec3 local_center;
    ph_vec3 c0, c1;
    ph_quat q0, q1;
    ph_vec3 rotation; // (unit: rad) zero: the shorter turn from q0 to q1
} ph_sweep;

// The shape transform at fraction t in [0, 1] of the sweep.
ph_transform ph_sweep_transform(const ph_sweep *sweep, float t);
// The rotation of the whole sweep as a world vector: axis times angle (unit: rad): sweep->rotation when set,
// else the short way round from q0 to q1. A point at offset x from the centre of mass moves by about
// cross(rotation, x) over the sweep.
ph_vec3 ph_sweep_rotation(const ph_sweep *sweep);

typedef enum ph_toi_state
{
    PH_TOI_HIT,        // t is the first time the separation reaches target (within tolerance)
    PH_TOI_SEPARATED,  // no impact within [0, t_max]
    PH_TOI_OVERLAPPED, // already closer than target at t = 0
    PH_TOI_FAILED      // iteration bound hit; t is a safe time before impact
} ph_toi_state;

typedef struct ph_toi_input
{
    ph_convex a, b;
    ph_sweep sweep_a, sweep_b;
    float t_max;             // fraction of the sweep to search, <= 1
    float target_separation; // stop this far apart (unit: m); e.g. the speculative margin / 2
    float tolerance;         // accepted error on the separation at the answer (unit: m)
    // A pair that starts within target_separation + tolerance (a resting or just-resolved contact) but more
    // than near_min_gap apart (unit: m) is answered at t = 0 (HIT or OVERLAPPED) when near_fraction is 0
    // (a zeroed input). With near_fraction in (0, 1) the search goes on instead, towards near_fraction
    // times the starting distance, the tolerance scaled by the same factor as the target (which must
    // then be > 0): whether such a contact closes in further over the sweep.
    float near_fraction;
    float near_min_gap;
    // A pair touching or overlapping at t = 0 (no more than near_min_gap apart) is answered at t = 0 when
    // overlap_allowance is 0 (a zeroed input). With overlap_allowance > 0 (unit: m) the search follows the
    // pair's penetration depth through the sweep instead: it answers PH_TOI_HIT at the first time the depth
    // can exceed its value at t = 0 by overlap_allowance (within tolerance, never later), PH_TOI_SEPARATED
    // when it cannot over the whole sweep, and once the pair has come more than near_min_gap apart it goes on
    // as a pair that starts there (near_fraction applies). What it answers for: a body resting on another
    // whose other features come down through it in the same sweep (a tumbling box's next corner), which a
    // search that stops at t = 0 never sees. touching_at_start tells such answers apart.
    float overlap_allowance;
} ph_toi_input;

typedef struct ph_toi_output
{
    ph_toi_state state;
    float t;          // fraction in [0, t_max]; never past the true impact (conservative)
    float separation; // distance of the shapes at t (0 when overlapping; unit: m)
    int iterations;
    bool touching_at_start; // no more than near_min_gap apart at t = 0 (or overlapping)
} ph_toi_output;

// Conservative advancement with GJK distance, rotation included: never steps past the impact. Against a mesh
// triangle (tri_shared set) only a sweep whose centre of mass passes through the triangle is searched; any
// other is PH_TOI_SEPARATED (the rest of the mesh and the speculative contacts handle it).
ph_toi_output ph_time_of_impact(const ph_toi_input *input);
