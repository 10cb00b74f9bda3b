// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Worlds of the built-in scenes and of scene files, and the game's per-body bookkeeping. The body array
// is indexed by the engine's slot (index1 - 1) and checked against the full id, so a slot reused by a
// new body is recognised by its generation and re-adopted with its own colour and pose.
#define _POSIX_C_SOURCE 200809L // sysconf (the processors a world steps on)

#include "game/level.h"

#include "assets/obj.h"
#include "recipes/recipes.h"
#include "recipes/spawn.h"

#include <math.h>   // ceil, cbrt, fabsf
#include <stdio.h>  // snprintf
#include <stdlib.h> // calloc, realloc, free
#include <string.h> // memset, strcmp
#include <unistd.h> // sysconf

// The ground: a static box whose top face is at y = 0, wide enough to look endless from the default
// camera (the renderer's ground plane is drawn in its place) (unit: m).
#define GROUND_HALF_WIDTH 200.0f
#define GROUND_HALF_THICKNESS 1.0f
// The first window's cube: half extent and drop height of its centre (unit: m).
#define FIRST_CUBE_HALF 0.5f
#define FIRST_CUBE_HEIGHT 2.0f
// Default camera of built-in scenes (unit: m, degrees).
#define DEFAULT_CAMERA_FOV 60.0f
static const vec3s DEFAULT_EYE = {{5.0f, 5.0f, 17.0f}};
static const vec3s DEFAULT_TARGET = {{0.0f, 3.0f, 0.0f}};

static const char *const TAG_NAMES[LEVEL_TAG_COUNT] = {
    "none", "ground",     "scene", "box",     "tower", "pyramid", "wall",  "dominoes",
    "rain", "projectile", "model", "ragdoll", "chain", "bridge",  "swing", "cradle"};
static const char *const BUILTIN_NAMES[LEVEL_BUILTIN_COUNT] = {"default", "first", "boxes"};
static const char *const BUILTIN_TITLES[LEVEL_BUILTIN_COUNT] = {"default: a tower and a pyramid",
                                                                "first window: one cube", "boxes"};
static const char *const LAYOUT_NAMES[LEVEL_LAYOUT_COUNT] = {
    "tower",   "pyramid",       "wall",        "domino line", "box rain",
    "ragdoll", "wrecking ball", "rope bridge", "swing",       "Newton's cradle"};

// Colours per tag (sRGB). Two shades alternate by slot so neighbouring blocks can be told apart. The
// tower is saturated red on purpose: the GL tests find its boxes in screenshots by hue.
static const uint32_t TAG_RGBA[LEVEL_TAG_COUNT][2] = {
    {0xc8c8c8ffu, 0xb0b0b0ffu}, // none
    {0x8a8d91ffu, 0x8a8d91ffu}, // ground
    {0xd9d2c5ffu, 0xc9c2b5ffu}, // scene (material colour overrides)
    {0xe8863affu, 0xe8863affu}, // box
    {0xd23c28ffu, 0xb82a1cffu}, // tower
    {0xe8b440ffu, 0xd49a2cffu}, // pyramid
    {0xb05a3cffu, 0x9c4c32ffu}, // wall
    {0xe8e4dcffu, 0x3c6ee0ffu}, // dominoes
    {0x4a9fe0ffu, 0x6cbf5affu}, // rain
    {0x30d0e8ffu, 0x30d0e8ffu}, // projectile
    {0xffffffffu, 0xffffffffu}, // model (mesh colours)
    {0xe0a878ffu, 0xc89064ffu}, // ragdoll
    {0x707880ffu, 0x5c646cffu}, // chain (steel)
    {0xa07040ffu, 0x8c6034ffu}, // bridge (wood)
    {0x58a058ffu, 0x4c8c4cffu}, // swing
    {0xc0c8d0ffu, 0xb0b8c0ffu}, // cradle (steel)
};

const char *level_tag_name(level_tag tag)
{
    return (unsigned)tag < LEVEL_TAG_COUNT ? TAG_NAMES[tag] : "unknown";
}

const char *level_builtin_name(level_builtin which)
{
    return (unsigned)which < LEVEL_BUILTIN_COUNT ? BUILTIN_NAMES[which] : "unknown";
}

const char *level_layout_name(level_layout layout)
{
    return (unsigned)layout < LEVEL_LAYOUT_COUNT ? LAYOUT_NAMES[layout] : "unknown";
}

void level_set_error(char *err, size_t err_size, const char *text)
{
    if (err && err_size > 0)
        snprintf(err, err_size, "%s", text);
}

static void set_err(char *err, size_t err_size, const char *text)
{
    if (err && err_size > 0)
        snprintf(err, err_size, "%s", text);
}

// The player's sub-steps (the panel), 0: each world's own. The engine reads them at world creation only.
static int world_substeps;

void level_set_world_substeps(int substeps)
{
    world_substeps = substeps > 0 && substeps <= PH_MAX_SUBSTEPS ? substeps : 0;
}

int level_world_substeps(void)
{
    return world_substeps > 0 ? world_substeps : ph_default_world_def().substeps;
}

// Most threads a world steps on: the game's scenes (a few thousand bodies) have about as many constraints per
// colour of the solver as 8 workers share well; beyond that a colour's tasks cost more to hand out than they
// save.
#define LEVEL_MAX_WORKERS 8

int level_world_workers(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online < 1)
        return 1;
    return online < LEVEL_MAX_WORKERS ? (int)online : LEVEL_MAX_WORKERS;
}

bool level_begin_world(level *lv, const ph_world_def *def_in, uint32_t seed, char *err, size_t err_size)
{
    memset(lv, 0, sizeof *lv);
    ph_world_def def = *def_in;
    // Every world the game makes steps on all the cores (up to LEVEL_MAX_WORKERS), on the engine's own pool;
    // the results are the same bits as on one.
    def.worker_count = level_world_workers();
    if (world_substeps > 0)
    {
        def.substeps = world_substeps;
        def.max_substeps = def.max_substeps > world_substeps ? def.max_substeps : world_substeps;
    }
    lv->world = ph_world_create(&def);
    if (!lv->world)
    {
        set_err(err, err_size, "the physics world could not be created (see the log above)");
        return false;
    }
    lv->camera_eye = DEFAULT_EYE;
    lv->camera_target = DEFAULT_TARGET;
    lv->camera_fov = DEFAULT_CAMERA_FOV;
    lv->seed = seed;
    return true;
}

static bool grow_bodies(level *lv, int slots)
{
    if (slots <= lv->body_capacity)
        return true;
    int cap = lv->body_capacity > 0 ? lv->body_capacity : 64;
    while (cap < slots)
        cap *= 2;
    level_body *b = realloc(lv->bodies, (size_t)cap * sizeof *b);
    if (!b)
        return false;
    memset(b + lv->body_capacity, 0, (size_t)(cap - lv->body_capacity) * sizeof *b);
    lv->bodies = b;
    lv->body_capacity = cap;
    return true;
}

const ph_body_id *level_list_bodies(level *lv, int *out_count)
{
    *out_count = 0;
    if (!lv->world)
        return NULL;
    int n = ph_world_get_bodies(lv->world, lv->scratch, lv->scratch_capacity);
    if (n > lv->scratch_capacity)
    {
        int cap = n + n / 2;
        ph_body_id *s = realloc(lv->scratch, (size_t)cap * sizeof *s);
        if (!s)
            return NULL;
        lv->scratch = s;
        lv->scratch_capacity = cap;
        n = ph_world_get_bodies(lv->world, lv->scratch, lv->scratch_capacity);
        if (n > cap)
            n = cap;
    }
    *out_count = n;
    return lv->scratch;
}

level_body *level_get_body(level *lv, ph_body_id id)
{
    int slot = (int)id.index1 - 1;
    if (PH_ID_IS_NULL(id) || slot >= lv->body_capacity || !PH_ID_EQUALS(lv->bodies[slot].id, id))
        return NULL;
    return &lv->bodies[slot];
}

void level_adopt_new_bodies(level *lv, level_tag tag)
{
    int n = 0;
    const ph_body_id *ids = level_list_bodies(lv, &n);
    bool adopted = false;
    for (int i = 0; i < n; i++)
    {
        int slot = (int)ids[i].index1 - 1;
        if (!grow_bodies(lv, slot + 1))
            return;
        level_body *b = &lv->bodies[slot];
        if (PH_ID_EQUALS(b->id, ids[i]))
            continue;
        b->id = ids[i];
        b->prev = ph_body_get_transform(lv->world, ids[i]);
        b->start = b->prev.p;
        b->contact_points = 0;
        b->tag = (uint8_t)tag;
        b->mesh = -1;
        b->frozen = false;
        b->rgba = TAG_RGBA[tag][(slot + lv->spawn_counter) & 1];
        adopted = true;
    }
    if (adopted)
        lv->spawn_counter++;
}

void level_update_ground(level *lv)
{
    lv->has_ground = false;
    int n = 0;
    const ph_body_id *ids = level_list_bodies(lv, &n);
    float best_area = 0.0f, lowest = INFINITY;
    ph_body_id ground = PH_NULL_BODY_ID;
    for (int i = 0; i < n; i++)
    {
        if (ph_body_get_type(lv->world, ids[i]) != PH_BODY_STATIC)
            continue;
        ph_aabb bb = ph_body_get_bounds(lv->world, ids[i]);
        lowest = bb.lo.y < lowest ? bb.lo.y : lowest;
        level_body *b = level_get_body(lv, ids[i]);
        ph_shape shape = ph_body_get_shape(lv->world, ids[i]);
        if (!b || b->mesh >= 0 || shape.type != PH_SHAPE_BOX)
            continue;
        // Measured on the bounds, so a tilted slab (a ramp) does not pass for a floor.
        float hx = 0.5f * (bb.hi.x - bb.lo.x), hy = 0.5f * (bb.hi.y - bb.lo.y),
              hz = 0.5f * (bb.hi.z - bb.lo.z);
        float narrow = hx < hz ? hx : hz;
        if (narrow < LEVEL_GROUND_MIN_HALF_WIDTH || hy > LEVEL_GROUND_MAX_THICKNESS_RATIO * narrow ||
            hy > shape.half_extents.y + LEVEL_GROUND_PLANE_TOLERANCE + 1e-3f * narrow)
            continue;
        if (hx * hz > best_area)
        {
            best_area = hx * hz;
            ground = ids[i];
            lv->ground = bb;
        }
    }
    lv->fall_limit_y = (lowest < INFINITY ? (lowest < 0.0f ? lowest : 0.0f) : 0.0f) - LEVEL_FALL_DEPTH;
    level_body *g = level_get_body(lv, ground);
    if (!g)
        return;
    lv->has_ground = true;
    g->tag = (uint8_t)LEVEL_TAG_GROUND;
}

int level_remove_fallen(level *lv)
{
    int n = 0, removed = 0;
    const ph_body_id *ids = level_list_bodies(lv, &n);
    for (int i = 0; i < n; i++)
    {
        // The list stays valid while bodies are destroyed: destroying frees a slot and moves no id.
        if (ph_body_get_type(lv->world, ids[i]) == PH_BODY_DYNAMIC &&
            ph_body_get_position(lv->world, ids[i]).y < lv->fall_limit_y &&
            ph_body_destroy(lv->world, ids[i]) == PH_OK)
            removed++;
    }
    lv->removed_count += removed;
    return removed;
}

void level_update_contacts(level *lv)
{
    lv->contact_count = 0;
    lv->contacts_listed = 0;
    if (!lv->world)
        return;
    int n = ph_world_get_contacts(lv->world, NULL, 0);
    if (n > lv->contacts_capacity)
    {
        int cap = n + n / 2;
        ph_contact_info *c = realloc(lv->contacts, (size_t)cap * sizeof *c);
        if (!c)
            return;
        lv->contacts = c;
        lv->contacts_capacity = cap;
    }
    n = ph_world_get_contacts(lv->world, lv->contacts, lv->contacts_capacity);
    n = n < lv->contacts_capacity ? n : lv->contacts_capacity;
    lv->contacts_listed = n;
    int count = 0;
    const ph_body_id *ids = level_list_bodies(lv, &count);
    for (int i = 0; i < count; i++)
    {
        level_body *b = level_get_body(lv, ids[i]);
        if (b && ph_body_is_awake(lv->world, ids[i]))
            b->contact_points = 0;
    }
    for (int i = 0; i < n; i++)
    {
        ph_body_id owner = ph_body_get_type(lv->world, lv->contacts[i].a) == PH_BODY_STATIC
                               ? lv->contacts[i].b
                               : lv->contacts[i].a;
        level_body *b = level_get_body(lv, owner);
        if (b && ph_body_is_awake(lv->world, owner))
            b->contact_points++;
    }
    for (int i = 0; i < count; i++)
    {
        level_body *b = level_get_body(lv, ids[i]);
        if (b && ph_body_get_type(lv->world, ids[i]) != PH_BODY_STATIC)
            lv->contact_count += b->contact_points;
    }
}

void level_begin_step(level *lv)
{
    int n = 0;
    const ph_body_id *ids = level_list_bodies(lv, &n);
    for (int i = 0; i < n; i++)
    {
        level_body *b = level_get_body(lv, ids[i]);
        if (b)
            b->prev = ph_body_get_transform(lv->world, ids[i]);
    }
}

ph_transform level_interpolate(const level *lv, ph_body_id id, float alpha)
{
    ph_transform now = ph_body_get_transform(lv->world, id);
    int slot = (int)id.index1 - 1;
    if (PH_ID_IS_NULL(id) || slot >= lv->body_capacity || !PH_ID_EQUALS(lv->bodies[slot].id, id) ||
        alpha >= 1.0f)
        return now;
    ph_transform prev = lv->bodies[slot].prev;
    float t = alpha > 0.0f ? alpha : 0.0f;
    ph_transform out;
    out.p = glms_vec3_lerp(prev.p, now.p, t);
    // Normalised linear interpolation along the shorter arc (cglm's nlerp flips the sign for it): between
    // two physics steps the rotation is small, where nlerp and slerp differ by far less than a pixel, and
    // nlerp costs no trigonometry.
    out.q = glms_quat_nlerp(prev.q, now.q, t);
    return out;
}

bool level_track_mesh(level *lv, int mesh)
{
    if (lv->mesh_count == lv->mesh_capacity)
    {
        int cap = lv->mesh_capacity > 0 ? 2 * lv->mesh_capacity : 16;
        int *m = realloc(lv->meshes, (size_t)cap * sizeof *m);
        if (!m)
            return false;
        lv->meshes = m;
        lv->mesh_capacity = cap;
    }
    lv->meshes[lv->mesh_count++] = mesh;
    return true;
}

static void free_level_memory(level *lv)
{
    obj_free(lv->model);
    free(lv->bodies);
    free(lv->scratch);
    free(lv->meshes);
    free(lv->contacts);
}

void level_unload(level *lv, renderer *r)
{
    if (r)
    {
        for (int i = 0; i < lv->mesh_count; i++)
            renderer_remove_mesh(r, lv->meshes[i]);
        renderer_forget_geometry(r);
    }
    if (lv->world)
        ph_world_destroy(lv->world);
    free_level_memory(lv);
    memset(lv, 0, sizeof *lv);
}

static bool add_ground(level *lv, char *err, size_t err_size)
{
    ph_body_def def = ph_default_body_def();
    def.type = PH_BODY_STATIC;
    def.shape = ph_make_box((ph_vec3){{GROUND_HALF_WIDTH, GROUND_HALF_THICKNESS, GROUND_HALF_WIDTH}});
    def.position = (ph_vec3){{0.0f, -GROUND_HALF_THICKNESS, 0.0f}};
    ph_body_id id = ph_body_create(lv->world, &def);
    if (PH_ID_IS_NULL(id))
    {
        set_err(err, err_size, ph_world_last_error(lv->world).message);
        return false;
    }
    level_adopt_new_bodies(lv, LEVEL_TAG_GROUND);
    return true;
}

static bool add_first_cube(level *lv, char *err, size_t err_size)
{
    ph_body_def def = ph_default_body_def();
    def.type = PH_BODY_DYNAMIC;
    def.shape = ph_make_box((ph_vec3){{FIRST_CUBE_HALF, FIRST_CUBE_HALF, FIRST_CUBE_HALF}});
    def.position = (ph_vec3){{0.0f, FIRST_CUBE_HEIGHT, 0.0f}};
    ph_body_id id = ph_body_create(lv->world, &def);
    if (PH_ID_IS_NULL(id))
    {
        set_err(err, err_size, ph_world_last_error(lv->world).message);
        return false;
    }
    level_adopt_new_bodies(lv, LEVEL_TAG_BOX);
    return true;
}

// Built-in scene layout (unit: m): the tower and the pyramid of the default scene stand this far either
// side of the origin along x, and the first window's camera looks at the cube from close by.
#define DEFAULT_TOWER_X (-3.0f)
#define DEFAULT_PYRAMID_X 3.0f
static const vec3s FIRST_EYE = {{3.0f, 1.6f, 5.0f}};
static const vec3s FIRST_TARGET = {{0.0f, 0.5f, 0.0f}};
static const vec3s BOXES_EYE = {{18.0f, 12.0f, 24.0f}};

bool level_load_builtin(level *lv, level_builtin which, int box_count, uint32_t seed, char *err,
                        size_t err_size)
{
    if ((unsigned)which >= LEVEL_BUILTIN_COUNT)
    {
        set_err(err, err_size, "unknown built-in scene");
        return false;
    }
    ph_world_def wdef = ph_default_world_def();
    if (!level_begin_world(lv, &wdef, seed, err, err_size))
        return false;
    snprintf(lv->name, sizeof lv->name, "%s", BUILTIN_TITLES[which]);
    bool ok = add_ground(lv, err, err_size);
    switch (which)
    {
    case LEVEL_BUILTIN_FIRST:
        ok = ok && add_first_cube(lv, err, err_size);
        lv->camera_eye = FIRST_EYE;
        lv->camera_target = FIRST_TARGET;
        break;
    case LEVEL_BUILTIN_DEFAULT:
        ok = ok && level_spawn_layout(lv, LEVEL_LAYOUT_TOWER, (vec3s){{DEFAULT_TOWER_X, 0.0f, 0.0f}}, err,
                                      err_size);
        ok = ok && level_spawn_layout(lv, LEVEL_LAYOUT_PYRAMID, (vec3s){{DEFAULT_PYRAMID_X, 0.0f, 0.0f}}, err,
                                      err_size);
        break;
    default:
        ok = ok && level_spawn_boxes(lv, box_count, err, err_size);
        snprintf(lv->name, sizeof lv->name, "boxes: %d", box_count);
        lv->camera_eye = BOXES_EYE;
        break;
    }
    if (ok)
        level_update_ground(lv);
    else
        level_unload(lv, NULL);
    return ok;
}

// A body moves at most this far between the previous step and the current one at the speeds the game
// makes (100 m/s throws at 60 Hz move 1.7 m), so the frustum query is padded by it (unit: m).
#define INTERPOLATION_MARGIN 2.0f

// Bodies of one colour (a pyramid from a scene file, a heap) are drawn each a little lighter or darker, by a
// factor in [1 - SHADE_SPREAD, 1 + SHADE_SPREAD] fixed by its id, so that stacked blocks read as blocks and
// not as one lump (issue 21, readability). Small enough that a colour keeps its name: a red tower stays red.
#define SHADE_SPREAD 0.09f

static uint32_t shade_rgba(uint32_t rgba, uint32_t key)
{
    uint32_t h = key * 2654435761u; // Knuth's multiplicative hash: neighbours' ids land far apart
    float f = 1.0f - SHADE_SPREAD + 2.0f * SHADE_SPREAD * (float)(h >> 24) / 255.0f;
    uint32_t out = rgba & 0xffu;
    for (int shift = 8; shift < 32; shift += 8)
    {
        float c = (float)((rgba >> shift) & 0xffu) * f + 0.5f;
        out |= (uint32_t)(c > 255.0f ? 255.0f : c) << shift;
    }
    return out;
}

typedef struct submit_context
{
    level *lv;
    renderer *r;
    float alpha;
    bool tint_sleeping;
    bool shapes;
    int meshes_submitted;
} submit_context;

static bool body_view(ph_body_id id, ph_transform *out_xf, uint32_t *rgba, uint32_t *flags, void *ctx)
{
    submit_context *sc = ctx;
    level_body *b = level_get_body(sc->lv, id);
    if (!sc->tint_sleeping)
        *flags &= ~(uint32_t)RENDER_FLAG_SLEEPING;
    if (PH_ID_EQUALS(id, sc->lv->highlight))
        *flags |= RENDER_FLAG_HIGHLIGHT;
    if (!b)
        return true;
    *out_xf = level_interpolate(sc->lv, id, sc->alpha);
    *rgba = shade_rgba(b->rgba, id.index1);
    // The floor slab under the ground plane: its top face is the plane's, hidden by it, and its shadow falls
    // below the ground, on nothing; in the shadow map it covered every texel (a full depth fill a frame).
    if (b->tag == LEVEL_TAG_GROUND)
        *flags |= RENDER_FLAG_GROUND | RENDER_FLAG_NO_SHADOW;
    if (b->mesh >= 0 && !sc->shapes)
    {
        // A model draws its own render mesh in the body's frame instead of its collision shape.
        if (renderer_submit(sc->r, b->mesh, out_xf->p, out_xf->q, (vec3s){{1.0f, 1.0f, 1.0f}}, *rgba, *flags))
            sc->meshes_submitted++;
        return false;
    }
    return true;
}

int level_submit(level *lv, renderer *r, float alpha, bool tint_sleeping, bool shapes)
{
    if (!lv->world || !r)
        return 0;
    submit_context sc = {lv, r, alpha, tint_sleeping, shapes, 0};
    int n = renderer_submit_world(r, lv->world, INTERPOLATION_MARGIN, body_view, &sc);
    return n + sc.meshes_submitted;
}

// ---- Layouts from src/recipes ---------------------------------------------------------------------------

// Sizes of the layouts the player spawns (unit: m; counts). Blocks are 1 m cubes like the recipes'
// demo scenes; bricks and dominoes have the recipes' demo proportions.
#define TOWER_LAYERS 8
#define PYRAMID_BASE 5
#define WALL_ROWS 6
#define WALL_COLUMNS 8
#define DOMINO_COUNT 20
#define DOMINO_SPACING 0.5f
#define RAIN_SIDE 4
#define RAIN_LAYERS 4
#define RAIN_HALF 0.3f
#define RAIN_SPACING 1.0f
#define RAIN_LIFT 6.0f
#define RAIN_MAX_TILT 0.5f
// Jointed layouts: a person's height, chain links, the bridge's planks, span and deck height (unit: m),
// the swing's push (unit: m/s), the cradle's balls and the first one's lift (unit: rad).
#define RAGDOLL_HEIGHT 1.8f
#define CHAIN_LINKS 7
#define BRIDGE_PLANKS 16
#define BRIDGE_PLANK_LENGTH 0.5f
#define BRIDGE_SPAN 7.6f
#define BRIDGE_DECK 2.0f
#define SWING_PUSH 2.5f
#define CRADLE_BALLS 5
#define CRADLE_LIFT 0.8f
// The boxes scene: 1 m cubes in recipe_add_heap's layout of about BOXES_LAYERS layers, lifted 1 m, so
// they tumble into a heap.
#define BOXES_HALF 0.5f
#define BOXES_LIFT 1.0f
#define BOXES_LAYERS 10.0

static const float BLOCK_HALF[3] = {0.5f, 0.5f, 0.5f};
static const float BRICK_HALF[3] = {0.5f, 0.25f, 0.25f};
static const float DOMINO_HALF[3] = {0.05f, 0.5f, 0.25f};

// Spawns every item of rs into the level and frees rs.
static bool spawn_scene(level *lv, recipe_scene *rs, bool built, level_tag tag, char *err, size_t err_size)
{
    ph_status status = built ? spawn_recipe(lv->world, rs, NULL) : PH_ERR_OUT_OF_MEMORY;
    recipe_scene_free(rs);
    if (status != PH_OK)
    {
        snprintf(err, err_size, "spawning a %s failed: %s", level_tag_name(tag),
                 built ? ph_world_last_error(lv->world).message : "out of memory");
        level_adopt_new_bodies(lv, tag); // bodies that did get made are still the level's
        return false;
    }
    level_adopt_new_bodies(lv, tag);
    return true;
}

// The recipe of a layout with its base centred at base; false when out of memory (rs is then to be freed
// all the same).
static bool build_layout(const level *lv, level_layout layout, vec3s base, recipe_scene *rs,
                         level_tag *out_tag)
{
    recipe_scene_init(rs, level_layout_name(layout));
    const float origin[3] = {base.x, base.y, base.z};
    recipe_material m = recipe_default_material();
    if (lv->spawn_material_set)
        m = (recipe_material){lv->spawn_material.density, lv->spawn_material.friction,
                              lv->spawn_material.restitution};
    switch (layout)
    {
    case LEVEL_LAYOUT_TOWER:
        *out_tag = LEVEL_TAG_TOWER;
        return recipe_add_tower(rs, origin, TOWER_LAYERS, BLOCK_HALF, 0.0f, m);
    case LEVEL_LAYOUT_PYRAMID:
        *out_tag = LEVEL_TAG_PYRAMID;
        return recipe_add_pyramid(rs, origin, PYRAMID_BASE, BLOCK_HALF, 0.0f, m);
    case LEVEL_LAYOUT_WALL:
        *out_tag = LEVEL_TAG_WALL;
        return recipe_add_wall(rs, origin, WALL_ROWS, WALL_COLUMNS, BRICK_HALF, 0.0f, m);
    case LEVEL_LAYOUT_DOMINOES:
        *out_tag = LEVEL_TAG_DOMINOES;
        return recipe_add_dominoes(rs, origin, DOMINO_COUNT, DOMINO_HALF, DOMINO_SPACING, m);
    case LEVEL_LAYOUT_RAGDOLL:
        // Standing on its feet and tipped forward, so that it falls limp.
        *out_tag = LEVEL_TAG_RAGDOLL;
        return recipe_add_falling_ragdoll(rs, origin, RAGDOLL_HEIGHT, m);
    case LEVEL_LAYOUT_CHAIN:
        *out_tag = LEVEL_TAG_CHAIN;
        return recipe_add_wrecking_chain(rs, origin, CHAIN_LINKS, m);
    case LEVEL_LAYOUT_BRIDGE:
        *out_tag = LEVEL_TAG_BRIDGE;
        return recipe_add_rope_bridge(rs, origin, BRIDGE_PLANKS, BRIDGE_PLANK_LENGTH, BRIDGE_SPAN,
                                      BRIDGE_DECK, m);
    case LEVEL_LAYOUT_SWING:
        *out_tag = LEVEL_TAG_SWING;
        return recipe_add_swing(rs, origin, SWING_PUSH, m);
    case LEVEL_LAYOUT_CRADLE:
        *out_tag = LEVEL_TAG_CRADLE;
        return recipe_add_cradle(rs, origin, CRADLE_BALLS, CRADLE_LIFT);
    default:
    {
        const float half[3] = {RAIN_HALF, RAIN_HALF, RAIN_HALF};
        *out_tag = LEVEL_TAG_RAIN;
        return recipe_add_pile(rs, origin, RAIN_SIDE, RAIN_LAYERS, RAIN_SIDE, half, RAIN_SPACING, RAIN_LIFT,
                               RAIN_MAX_TILT, (uint64_t)lv->seed + (uint64_t)lv->spawn_counter, m);
    }
    }
}

// The bounds of a recipe box item: its centre plus |R| half (the rotated box's extent on each axis).
static ph_aabb item_bounds(const recipe_item *it)
{
    ph_quat q = {{it->orientation[0], it->orientation[1], it->orientation[2], it->orientation[3]}};
    ph_vec3 c = {{it->position[0], it->position[1], it->position[2]}};
    ph_vec3 h = {{it->half_extents[0], it->half_extents[1], it->half_extents[2]}};
    if (it->shape != RECIPE_BOX)
    {
        float rad = it->radius + it->half_height;
        h = (ph_vec3){{rad, rad, rad}};
    }
    ph_vec3 e = {{0.0f, 0.0f, 0.0f}};
    const ph_vec3 axes[3] = {{{1.0f, 0.0f, 0.0f}}, {{0.0f, 1.0f, 0.0f}}, {{0.0f, 0.0f, 1.0f}}};
    for (int k = 0; k < 3; k++)
    {
        ph_vec3 a = glms_quat_rotatev(q, axes[k]);
        e.x += fabsf(a.x) * h.raw[k];
        e.y += fabsf(a.y) * h.raw[k];
        e.z += fabsf(a.z) * h.raw[k];
    }
    return (ph_aabb){glms_vec3_sub(c, e), glms_vec3_add(c, e)};
}

static bool boxes_overlap(ph_aabb a, ph_aabb b)
{
    return a.lo.x < b.hi.x && b.lo.x < a.hi.x && a.lo.y < b.hi.y && b.lo.y < a.hi.y && a.lo.z < b.hi.z &&
           b.lo.z < a.hi.z;
}

// How far a layout is lifted at most above the point it was asked for (unit: m), how many times the
// lift is re-checked against what it was lifted onto, the gap it keeps above the highest body under it
// (unit: m), and the spacing of the downward rays that find a static mesh's surface under the layout's
// footprint (unit: m; at most PLACE_RAYS_PER_SIDE per side).
#define PLACE_MAX_LIFT 200.0f
#define PLACE_PASSES 16
#define PLACE_GAP 0.02f
#define PLACE_RAY_SPACING 0.25f
#define PLACE_RAYS_PER_SIDE 48
#define PLACE_QUERY_CAPACITY 512

float level_clear_lift(level *lv, const ph_aabb *boxes, int count)
{
    if (!lv->world || count <= 0)
        return 0.0f;
    ph_aabb all = boxes[0];
    for (int i = 1; i < count; i++)
        all = (ph_aabb){glms_vec3_minv(all.lo, boxes[i].lo), glms_vec3_maxv(all.hi, boxes[i].hi)};
    float height = all.hi.y - all.lo.y;
    // A static mesh (a terrain, a room's floor) under the footprint: the bottom goes on its highest point
    // there, found by rays cast down from above the boxes.
    float lift = 0.0f;
    int nx = (int)ceilf((all.hi.x - all.lo.x) / PLACE_RAY_SPACING) + 1;
    int nz = (int)ceilf((all.hi.z - all.lo.z) / PLACE_RAY_SPACING) + 1;
    nx = nx < PLACE_RAYS_PER_SIDE ? nx : PLACE_RAYS_PER_SIDE;
    nz = nz < PLACE_RAYS_PER_SIDE ? nz : PLACE_RAYS_PER_SIDE;
    for (int ix = 0; ix < nx; ix++)
        for (int iz = 0; iz < nz; iz++)
        {
            float fx = nx > 1 ? (float)ix / (float)(nx - 1) : 0.5f,
                  fz = nz > 1 ? (float)iz / (float)(nz - 1) : 0.5f;
            ph_vec3 o = {{all.lo.x + fx * (all.hi.x - all.lo.x), all.hi.y + 1.0f,
                          all.lo.z + fz * (all.hi.z - all.lo.z)}};
            ph_ray_result hit;
            if (ph_world_cast_ray(lv->world, o, (ph_vec3){{0.0f, -1.0f, 0.0f}}, height + 2.0f, &hit) &&
                ph_body_get_shape(lv->world, hit.body).type == PH_SHAPE_MESH && hit.point.y - all.lo.y > lift)
                lift = hit.point.y - all.lo.y;
        }
    // Every other body whose bounds a box would overlap: lift above it, and again above what that lift
    // runs into, so nothing starts inside a body.
    ph_body_id found[PLACE_QUERY_CAPACITY];
    for (int pass = 0; pass < PLACE_PASSES; pass++)
    {
        float before = lift;
        for (int i = 0; i < count; i++)
        {
            ph_aabb b = boxes[i];
            b.lo.y += lift;
            b.hi.y += lift;
            int n = ph_world_query_box(lv->world, b, found, PLACE_QUERY_CAPACITY);
            n = n < PLACE_QUERY_CAPACITY ? n : PLACE_QUERY_CAPACITY;
            for (int k = 0; k < n; k++)
            {
                if (ph_body_get_shape(lv->world, found[k]).type == PH_SHAPE_MESH)
                    continue;
                ph_aabb o = ph_body_get_bounds(lv->world, found[k]);
                if (boxes_overlap(b, o) && o.hi.y + PLACE_GAP - boxes[i].lo.y > lift)
                    lift = o.hi.y + PLACE_GAP - boxes[i].lo.y;
            }
        }
        if (lift == before || lift > PLACE_MAX_LIFT)
            break;
    }
    return lift < PLACE_MAX_LIFT ? lift : PLACE_MAX_LIFT;
}

bool level_place_layout(level *lv, level_layout layout, vec3s point, vec3s *out_base)
{
    *out_base = point;
    if (!lv->world || (unsigned)layout >= LEVEL_LAYOUT_COUNT || !ph_is_finite_vec3(point))
        return false;
    recipe_scene rs;
    level_tag tag;
    bool ok = build_layout(lv, layout, point, &rs, &tag);
    ph_aabb *boxes = ok && rs.item_count > 0 ? malloc((size_t)rs.item_count * sizeof *boxes) : NULL;
    if (boxes)
    {
        for (int i = 0; i < rs.item_count; i++)
            boxes[i] = item_bounds(&rs.items[i]);
        out_base->y = point.y + level_clear_lift(lv, boxes, rs.item_count);
    }
    free(boxes);
    recipe_scene_free(&rs);
    return boxes != NULL;
}

bool level_spawn_layout(level *lv, level_layout layout, vec3s base, char *err, size_t err_size)
{
    if (!lv->world || (unsigned)layout >= LEVEL_LAYOUT_COUNT || !ph_is_finite_vec3(base))
    {
        set_err(err, err_size, "cannot spawn: no world, unknown layout or a position that is not finite");
        return false;
    }
    recipe_scene rs;
    level_tag tag = LEVEL_TAG_TOWER;
    bool ok = build_layout(lv, layout, base, &rs, &tag);
    return spawn_scene(lv, &rs, ok, tag, err, err_size);
}

// Colour of the spawn preview's outlines (sRGB 0xRRGGBBAA).
#define PREVIEW_RGBA 0x60ff60ffu

void level_draw_layout(const level *lv, renderer *r, level_layout layout, vec3s base)
{
    if (!lv->world || !r || (unsigned)layout >= LEVEL_LAYOUT_COUNT || !ph_is_finite_vec3(base))
        return;
    recipe_scene rs;
    level_tag tag;
    if (build_layout(lv, layout, base, &rs, &tag))
        for (int i = 0; i < rs.item_count; i++)
        {
            const recipe_item *it = &rs.items[i];
            ph_quat q = {{it->orientation[0], it->orientation[1], it->orientation[2], it->orientation[3]}};
            ph_vec3 c = {{it->position[0], it->position[1], it->position[2]}};
            // Spheres and capsules as the box around them in their own frame.
            float h[3] = {it->half_extents[0], it->half_extents[1], it->half_extents[2]};
            if (it->shape == RECIPE_SPHERE || it->shape == RECIPE_CAPSULE)
            {
                h[0] = h[2] = it->radius;
                h[1] = it->radius + (it->shape == RECIPE_CAPSULE ? it->half_height : 0.0f);
            }
            ph_vec3 corner[8];
            for (int k = 0; k < 8; k++)
            {
                ph_vec3 l = {{(k & 1 ? 1.0f : -1.0f) * h[0], (k & 2 ? 1.0f : -1.0f) * h[1],
                              (k & 4 ? 1.0f : -1.0f) * h[2]}};
                corner[k] = glms_vec3_add(c, glms_quat_rotatev(q, l));
            }
            // The 12 edges: corners differing in one bit.
            for (int k = 0; k < 8; k++)
                for (int bit = 1; bit < 8; bit <<= 1)
                    if (!(k & bit))
                        renderer_line(r, corner[k], corner[k | bit], PREVIEW_RGBA);
        }
    recipe_scene_free(&rs);
}

// Recipe scenes' dynamic bodies go from the box colour at restitution 0 to this one at restitution 1
// (sRGB), so that a restitution ladder reads as a ramp and a pile keeps the box colour.
#define BOUNCY_RGBA 0x38b8d8ffu

static uint32_t mix_rgba(uint32_t a, uint32_t b, float t)
{
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    uint32_t out = 0;
    for (int shift = 8; shift < 32; shift += 8)
    {
        float ca = (float)((a >> shift) & 0xffu), cb = (float)((b >> shift) & 0xffu);
        out |= (uint32_t)(ca + (cb - ca) * t + 0.5f) << shift;
    }
    return out | 0xffu;
}

bool level_load_recipe(level *lv, const char *name, uint32_t seed, char *err, size_t err_size)
{
    memset(lv, 0, sizeof *lv);
    recipe_scene rs;
    if (!recipe_build(name, seed, &rs))
    {
        snprintf(err, err_size, "recipe scene \"%s\": unknown, or out of memory", name ? name : "(null)");
        recipe_scene_free(&rs);
        return false;
    }
    ph_world_def wdef = spawn_world_def(&rs);
    ph_body_id *ids = calloc((size_t)(rs.item_count > 0 ? rs.item_count : 1), sizeof *ids);
    bool ok = ids && level_begin_world(lv, &wdef, seed, err, err_size);
    if (ok && spawn_recipe(lv->world, &rs, ids) != PH_OK)
    {
        snprintf(err, err_size, "recipe scene \"%s\": %s", name, ph_world_last_error(lv->world).message);
        ok = false;
    }
    if (ok)
    {
        snprintf(lv->name, sizeof lv->name, "%s", name);
        level_adopt_new_bodies(lv, LEVEL_TAG_BOX);
        for (int i = 0; i < rs.item_count; i++)
        {
            const recipe_item *it = &rs.items[i];
            level_body *b = level_get_body(lv, ids[i]);
            if (!b)
                continue;
            if (it->type != RECIPE_STATIC)
                b->rgba = mix_rgba(b->rgba, BOUNCY_RGBA, it->material.restitution);
            else
            {
                // A static box whose top is the plane y = 0 is drawn as the renderer's ground plane.
                bool ground = it->shape == RECIPE_BOX &&
                              fabsf(it->position[1] + it->half_extents[1]) < LEVEL_GROUND_PLANE_TOLERANCE;
                b->tag = (uint8_t)(ground ? LEVEL_TAG_GROUND : LEVEL_TAG_SCENE);
                b->rgba = LEVEL_STATIC_RGBA;
            }
        }
    }
    else if (!ids)
        snprintf(err, err_size, "recipe scene \"%s\": out of memory", name);
    free(ids);
    recipe_scene_free(&rs);
    if (ok)
        level_update_ground(lv);
    else
        level_unload(lv, NULL);
    return ok;
}

bool level_spawn_boxes(level *lv, int count, char *err, size_t err_size)
{
    if (count < 1)
    {
        set_err(err, err_size, "the boxes scene needs at least one box");
        return false;
    }
    // About BOXES_LAYERS layers of side x side boxes, turned at random, that fall into a heap.
    int side = (int)ceil(sqrt((double)count / BOXES_LAYERS));
    side = side > 0 ? side : 1;
    recipe_scene rs;
    recipe_scene_init(&rs, "boxes");
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    const float half[3] = {BOXES_HALF, BOXES_HALF, BOXES_HALF};
    bool ok =
        recipe_add_heap(&rs, origin, count, side, half, BOXES_LIFT, lv->seed, recipe_default_material());
    return spawn_scene(lv, &rs, ok, LEVEL_TAG_BOX, err, err_size);
}
