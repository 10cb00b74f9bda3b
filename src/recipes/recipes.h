// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Engine-neutral scene recipes: the one source of truth for the layouts that the game, the tests,
// physbench and the Bullet reference (bench/bullet_ref.cpp includes it from C++ in extern "C") all
// build. A recipe is plain data: arrays of items {shape, size, pose, velocities, material, body
// type, sleep} plus scene settings (gravity, time step, steps, sleeping, tunnel-counting planes).
// Nothing here knows the engine; spawn.c turns a recipe into bodies of a ph_world.
//
// Conventions: SI units (m, kg, s, rad), y up, the ground's top face at y = 0 unless a generator
// says otherwise, quaternions stored x, y, z, w. Sizes are half extents. Randomised layouts take a
// seed and are identical for the same seed on every machine (integer generator, no libc rand).
#pragma once

#include <stdbool.h> // bool
#include <stdint.h>  // uint64_t

typedef enum recipe_shape
{
    RECIPE_BOX,     // half_extents
    RECIPE_SPHERE,  // radius
    RECIPE_CAPSULE, // radius and half_height (core segment along local y)
    RECIPE_HULL     // hull: index into recipe_scene.hulls
} recipe_shape;

typedef enum recipe_body_type
{
    RECIPE_STATIC,
    RECIPE_KINEMATIC,
    RECIPE_DYNAMIC
} recipe_body_type;

typedef struct recipe_material
{
    float density;     // (unit: kg/m^3) > 0
    float friction;    // the coefficient a contact between two bodies of this material must have
    float restitution; // in [0, 1]
} recipe_material;

// Density 1000, friction 0.6, restitution 0: the engine's defaults.
recipe_material recipe_default_material(void);

typedef struct recipe_item
{
    recipe_shape shape;
    float half_extents[3];     // box (unit: m)
    float radius;              // sphere, capsule (unit: m)
    float half_height;         // capsule (unit: m)
    int hull;                  // hull index
    float position[3];         // (unit: m)
    float orientation[4];      // unit quaternion x, y, z, w
    float linear_velocity[3];  // (unit: m/s)
    float angular_velocity[3]; // world (unit: rad/s)
    float linear_damping;      // (unit: 1/s); 0 unless a recipe says (benchmarks measure undamped physics)
    float angular_damping;     // (unit: 1/s); 0 likewise
    recipe_material material;
    recipe_body_type type;
    bool enable_sleep;
} recipe_item;

// A hull's point cloud: recipe_scene.hull_points[first_point .. first_point + point_count) (xyz).
typedef struct recipe_hull
{
    int first_point;
    int point_count;
} recipe_hull;

// A joint between items a and b (a = -1: the world), given in world terms at the scene's start: both
// bodies' frames sit at `anchor` with their z axes along `axis` (a hinge's axis, a cone's centre line).
typedef enum recipe_joint_type
{
    RECIPE_JOINT_SPHERICAL,
    RECIPE_JOINT_REVOLUTE,
    RECIPE_JOINT_DISTANCE, // between anchor (on a) and anchor_b (on b): a rod of their distance, or a rope
    RECIPE_JOINT_WELD
} recipe_joint_type;

typedef struct recipe_joint
{
    recipe_joint_type type;
    int a, b;          // item indices; a = -1: the world
    float anchor[3];   // (unit: m)
    float anchor_b[3]; // distance joints: b's anchor (unit: m)
    float axis[3];     // unit, world
    bool rope;         // distance: at most the length, slack below it
    bool enable_limit; // revolute: [lower, upper] (unit: rad)
    float lower, upper;
    bool enable_cone; // spherical: swing within cone (unit: rad) and twist within [lower, upper]
    float cone;
    bool enable_twist;
    float friction; // spherical and revolute: the joint's friction torque (unit: N m); 0: none
} recipe_joint;

// What physbench measures beyond timing, per scene.
typedef enum recipe_metric
{
    RECIPE_METRIC_NONE = 0,
    RECIPE_METRIC_DRIFT = 1,   // stacking: largest distance a body moves after drift_after_s
    RECIPE_METRIC_TUNNEL = 2,  // count dynamic bodies beyond a tunnel plane at the end
    RECIPE_METRIC_REBOUND = 4, // restitution ladder: first-bounce height / drop height per body
    RECIPE_METRIC_ANGULAR = 8  // free spinner: angular momentum error and the flip
} recipe_metric;

// What a scene's end state must be after its `steps` steps, for any engine: bench/bench_metrics.c judges
// every engine's run against it (issue 23: a benchmark must not be able to hide an explosion). Physics sets
// these figures, not what some engine does today. Whatever a scene says, no state may be NaN, no dynamic body
// may end outside the scene's starting bounds (plus a margin), below its floor or beyond a tunnel plane, and
// the bodies' energy (kinetic plus potential) may not grow: nothing in a scene adds energy.
typedef struct recipe_expect
{
    // At rest at the end: the dynamic bodies' kinetic energy is at most that of their whole mass moving at
    // settle_speed (unit: m/s). 0: the scene is not expected to be at rest by its last step, and `moving`
    // says why (a sentence). recipe_scene_init sets RECIPE_SETTLE_SPEED: a scene settles unless it says not.
    float settle_speed;
    const char *moving;
    // RECIPE_METRIC_DRIFT: the stack stands: no dynamic body moves farther than this after drift_after_s
    // (unit: m); 0: not judged.
    float max_drift;
    // The mean height of the dynamic bodies' centres at the end lies in [mean_height_min, mean_height_max]
    // (unit: m); judged when mean_height_max > mean_height_min.
    float mean_height_min, mean_height_max;
    // RECIPE_METRIC_REBOUND: each body's first rebound over the drop height is within this of e^2, e its
    // restitution (the ground's is 0, and a contact takes the larger of the two); 0: not judged.
    float rebound_tolerance;
    // RECIPE_METRIC_ANGULAR: the largest relative change of the angular momentum allowed, and whether the
    // intermediate axis must turn over (Dzhanibekov); max_ang_mom_err 0: not judged.
    float max_ang_mom_err;
    bool must_flip;
    // A ground (recipe_add_ground sets it): the top of the highest ground added (unit: m). A dynamic body
    // whose lowest point ends more than RECIPE_FLOOR_TOLERANCE below it fell through.
    bool has_floor;
    float floor_y;
} recipe_expect;

// The speed of a settled scene's mass (see recipe_expect.settle_speed): 2 cm a second, which the eye would
// not see as motion; a resting stack's jitter is a millimetre a second or less (unit: m/s).
#define RECIPE_SETTLE_SPEED 0.02f
// How far below the floor's top a body's lowest point may end before it counts as fallen through: far deeper
// than a resting contact's overlap (millimetres), far shallower than any body's size (unit: m).
#define RECIPE_FLOOR_TOLERANCE 0.1f
// The drift allowed to a stack that must stand (unit: m): the scenario tests' bound (test_scenarios.c).
#define RECIPE_STAND_DRIFT 0.01f

#define RECIPE_NAME_SIZE 32
#define RECIPE_MAX_TUNNEL_PLANES 6

// A whole scene. Made by recipe_build() or by recipe_scene_init() plus generators; owns its arrays;
// free with recipe_scene_free().
typedef struct recipe_scene
{
    char name[RECIPE_NAME_SIZE];
    float gravity[3]; // (unit: m/s^2)
    float time_step;  // (unit: s)
    int steps;        // steps a benchmark runs
    bool enable_sleep;
    recipe_item *items;
    int item_count;
    int item_capacity;
    recipe_hull *hulls;
    int hull_count;
    int hull_capacity;
    float *hull_points; // xyz triples
    int hull_point_count;
    int hull_point_capacity;
    unsigned metrics;    // recipe_metric flags
    float drift_after_s; // RECIPE_METRIC_DRIFT: the settling time not counted (unit: s)
    // RECIPE_METRIC_TUNNEL: a dynamic body whose centre p has a x + b y + c z + d < 0 for one of
    // these planes (a, b, c, d) went through a wall.
    float tunnel_planes[RECIPE_MAX_TUNNEL_PLANES][4];
    int tunnel_plane_count;
    float drop_height; // RECIPE_METRIC_REBOUND: height of the lowest points above the ground (unit: m)
    recipe_joint *joints;
    int joint_count;
    int joint_capacity;
    recipe_expect expect; // the end state every engine must reach
} recipe_scene;

// An empty scene: gravity (0, -9.81, 0), 60 Hz, 600 steps, sleeping on, no metrics, expected to settle.
void recipe_scene_init(recipe_scene *scene, const char *name);
void recipe_scene_free(recipe_scene *scene);

// Appends an item (dynamic box of half 0.5 at the origin, identity, at rest, no damping, default
// material, sleep as the scene says) and returns it for the caller to edit; NULL when out of memory.
recipe_item *recipe_add_item(recipe_scene *scene);
// Appends a hull point cloud (copied) and returns its index, or -1 when out of memory.
int recipe_add_hull(recipe_scene *scene, const float (*points)[3], int point_count);
// A zeroed joint of `type` between items a and b (axis z), or NULL when out of memory.
recipe_joint *recipe_add_joint(recipe_scene *scene, recipe_joint_type type, int a, int b);
// An 11-body ragdoll (pelvis, chest, head, upper and lower arms and legs; capsules) standing with its feet
// at `feet`, facing +z, joined by spherical joints with swing cones and twist ranges at the hips,
// shoulders and neck and hinges with limits at the knees and elbows, every joint with friction.
// `height` scales it (1.8 m a person).
bool recipe_add_ragdoll(recipe_scene *scene, const float feet[3], float height, recipe_material material);
// recipe_add_ragdoll's ragdoll tipping forward about its feet as one body, at RAGDOLL_TIP (recipes.c): one
// spawned standing, whose joints have friction, would stand balanced like a mannequin; tipped, it falls and
// crumples as a limp body does (the game's spawner, the playthings scene).
bool recipe_add_falling_ragdoll(recipe_scene *scene, const float feet[3], float height,
                                recipe_material material);
// Box3D's joint grid, n x n: balls of radius 0.4 m, 1 m apart in a vertical sheet (x right, y up, its top
// row at y = 0 and static), each joined to its upper and left neighbours by spherical joints halfway between.
bool recipe_add_joint_grid(recipe_scene *scene, int n);

// ---- Jointed layouts for the game's spawners and scenes: static frames and what hangs from them, built
// around origin (the centre of the footprint on the plane y = origin[1]).

// A gantry (a static post 6 m high at x - 2 with an arm along +x) and a chain of `links` capsule links of
// 0.6 m ending in a steel ball of radius 0.4 m, hung from the arm's end at (x + 2, y + 5.9, z) and laid out
// level along +z, so that it swings down through the plane x = origin x. Spherical joints.
bool recipe_add_wrecking_chain(recipe_scene *scene, const float origin[3], int links,
                               recipe_material material);
// A rope bridge: planks of plank_length (1.2 m wide, 0.08 m thick, 8 kg) hinged end to end about z between
// two static posts span apart along x with the deck at deck above origin, laid in the parabola whose chords
// of plank_length reach the far post (planks * plank_length > span; more planks, more sag).
bool recipe_add_rope_bridge(recipe_scene *scene, const float origin[3], int planks, float plank_length,
                            float span, float deck, recipe_material material);
// A swing: a static frame (two posts 3 m high, a top bar along x) and a seat 0.7 m above the ground on two
// ropes (distance joints with min 0), given a push along +z of speed (unit: m/s).
bool recipe_add_swing(recipe_scene *scene, const float origin[3], float speed, recipe_material material);
// A Newton's cradle: a static frame of two bars along x 2.6 m up, 1 m apart in z, and `balls` steel balls of
// radius 0.2 m in a row along x touching, each on two rods (distance joints) in a V to the bars; the first
// ball is lifted along its arc by lift_angle (unit: rad). Balls are bouncy (restitution 1, no friction).
bool recipe_add_cradle(recipe_scene *scene, const float origin[3], int balls, float lift_angle);

// ---- Generators: each appends items and returns false when out of memory (items added so far stay).
// "origin" is where the layout stands: the centre of its footprint on the plane y = origin[1].

// Static ground box of half extents half[3] whose top face is at y = top; the scene's floor
// (recipe_expect.floor_y) is the highest such top.
bool recipe_add_ground(recipe_scene *scene, const float half[3], float top, recipe_material material);
// A column of layers boxes of half extents half, gap apart vertically.
bool recipe_add_tower(recipe_scene *scene, const float origin[3], int layers, const float half[3], float gap,
                      recipe_material material);
// A 2D pyramid in the x-y plane: base boxes in the bottom row, one fewer per row, each row centred on
// the gaps of the one below ((base (base + 1)) / 2 boxes).
bool recipe_add_pyramid(recipe_scene *scene, const float origin[3], int base, const float half[3], float gap,
                        recipe_material material);
// A brick wall in the x-y plane, rows x columns, odd rows offset by half a brick (running bond), so
// an odd row holds columns - 1 bricks.
bool recipe_add_wall(recipe_scene *scene, const float origin[3], int rows, int columns, const float half[3],
                     float gap, recipe_material material);
// count standing dominoes (half extents half, tall along y, thin along x) along +x, spacing apart
// (centre to centre), the first one tipped by a small angular velocity.
bool recipe_add_dominoes(recipe_scene *scene, const float origin[3], int count, const float half[3],
                         float spacing, recipe_material material);
// count spheres of the given radius at random places over a square of side extent, the lowest
// height above origin, stacked in layers so that none overlap.
bool recipe_add_rain(recipe_scene *scene, const float origin[3], int count, float radius, float height,
                     float extent, uint64_t seed, recipe_material material);
// nx x ny x nz boxes of half extents half on a grid of the given spacing (centre to centre), the
// lowest bottoms lift above origin, each tilted by a random rotation of at most max_tilt rad. The
// caller keeps spacing > 2 |half| (1 + 2 max_tilt) so that no two boxes overlap.
bool recipe_add_pile(recipe_scene *scene, const float origin[3], int nx, int ny, int nz, const float half[3],
                     float spacing, float lift, float max_tilt, uint64_t seed, recipe_material material);
// count boxes of half extents half dropped into a heap: layers of side x side boxes, every other layer
// shifted by half a cell in x and z, each box moved at random by a little and turned at random (any
// orientation), the lowest bottoms lift above origin. Cells hold any orientation's bounds (1.2 box
// diagonals across, 1.1 high), so no two boxes overlap; the tumbling boxes land on one another as a
// heap, not as a stacked block.
bool recipe_add_heap(recipe_scene *scene, const float origin[3], int count, int side, const float half[3],
                     float lift, uint64_t seed, recipe_material material);
// count boxes of half extents half in a square grid facing +x, fired at speed along +x from a
// distance before a static wall of the given thickness whose front face is at x = wall_x - thickness
// and whose back face is at x = wall_x; adds the tunnel plane x <= wall_x.
bool recipe_add_bullet_wall(recipe_scene *scene, int count, const float half[3], float speed, float thickness,
                            float wall_x, recipe_material material);
// A free box of half extents half spinning at spin rad/s about its intermediate axis (local y) with a
// perturbation of the given fraction about the other two axes.
bool recipe_add_spinner(recipe_scene *scene, const float position[3], const float half[3], float spin,
                        float perturbation, recipe_material material);

// ---- Named scenes: physbench's list (issue 4) plus pile10k (issue 8) and the game's demos.

// Builds the scene called name with the given random seed (layouts without randomness ignore it).
// Returns false for an unknown name or when out of memory (the scene is then empty but valid).
bool recipe_build(const char *name, uint64_t seed, recipe_scene *out);
// The names recipe_build knows, NULL-terminated, in physbench's order.
const char *const *recipe_scene_names(void);
// The seed physbench and the tests use unless told otherwise.
#define RECIPE_DEFAULT_SEED 1u
