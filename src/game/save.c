// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Save files (see save.h): a snapshot of every body and joint written as JSON with cJSON, and read back
// with the scene loader's checked getters (assets/json_read.h), every field checked before the world is
// touched. Bodies are made again slot for slot (snapshot_restore keep_slots), which ph_world_hash counts.

#define _POSIX_C_SOURCE 200809L // mkdir

#include "game/save.h"

#include "assets/json_read.h"
#include "game/snapshot.h"

#include <cjson/cJSON.h> // cJSON
#include <errno.h>       // errno
#include <float.h>       // FLT_MAX
#include <stddef.h>      // offsetof
#include <stdio.h>       // fopen, snprintf
#include <stdlib.h>      // malloc, free, calloc
#include <string.h>      // strlen, strcmp, strrchr, strerror
#include <sys/stat.h>    // mkdir

#define SAVE_VERSION 1
// The largest save file read (unit: bytes), and the most bodies, geometry points and slots one may hold.
#define SAVE_MAX_BYTES (256u << 20)
#define SAVE_MAX_BODIES (1 << 20)
#define SAVE_MAX_POINTS (1 << 24)
// A body's slot is at most this many times the body count, plus the margin.
#define SAVE_SLOT_SLACK 4
#define SAVE_SLOT_MARGIN 4096

static const char *const BODY_TYPES[] = {"static", "kinematic", "dynamic"};
static const char *const JOINT_TYPES[PH_JOINT_TYPE_COUNT] = {"distance", "spherical", "revolute", "prismatic",
                                                             "weld"};

// The joint definition's numbers and switches, by name.
typedef struct joint_field
{
    const char *name;
    size_t offset;
    bool optional; // a save written before the field existed leaves it out: the default definition's then
} joint_field;

static const joint_field JOINT_FLOATS[] = {
    {"break_force", offsetof(ph_joint_def, break_force), false},
    {"break_torque", offsetof(ph_joint_def, break_torque), false},
    {"length", offsetof(ph_joint_def, length), false},
    {"min_length", offsetof(ph_joint_def, min_length), false},
    {"max_length", offsetof(ph_joint_def, max_length), false},
    {"spring_hertz", offsetof(ph_joint_def, spring_hertz), false},
    {"spring_damping_ratio", offsetof(ph_joint_def, spring_damping_ratio), false},
    {"spring_target", offsetof(ph_joint_def, spring_target), false},
    {"angular_hertz", offsetof(ph_joint_def, angular_hertz), false},
    {"angular_damping_ratio", offsetof(ph_joint_def, angular_damping_ratio), false},
    {"lower", offsetof(ph_joint_def, lower), false},
    {"upper", offsetof(ph_joint_def, upper), false},
    {"motor_speed", offsetof(ph_joint_def, motor_speed), false},
    {"max_motor_force", offsetof(ph_joint_def, max_motor_force), false},
    {"cone_angle", offsetof(ph_joint_def, cone_angle), false},
    {"twist_lower", offsetof(ph_joint_def, twist_lower), false},
    {"twist_upper", offsetof(ph_joint_def, twist_upper), false},
    {"max_friction_torque", offsetof(ph_joint_def, max_friction_torque), true},
};
static const joint_field JOINT_BOOLS[] = {
    {"collide_connected", offsetof(ph_joint_def, collide_connected), false},
    {"enable_spring", offsetof(ph_joint_def, enable_spring), false},
    {"enable_limit", offsetof(ph_joint_def, enable_limit), false},
    {"enable_motor", offsetof(ph_joint_def, enable_motor), false},
    {"enable_cone", offsetof(ph_joint_def, enable_cone), false},
    {"enable_twist", offsetof(ph_joint_def, enable_twist), false},
};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

bool save_is_save_file(const char *path)
{
    size_t n = strlen(path), m = strlen(SAVE_SUFFIX);
    return n >= m && strcmp(path + n - m, SAVE_SUFFIX) == 0;
}

// ---- Writing --------------------------------------------------------------------------------------------

static cJSON *floats(const float *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
    return a;
}

static cJSON *transform_json(ph_transform xf)
{
    float v[7] = {xf.p.x, xf.p.y, xf.p.z, xf.q.x, xf.q.y, xf.q.z, xf.q.w};
    return floats(v, 7);
}

static const char *shape_name(ph_shape_type t)
{
    switch (t)
    {
    case PH_SHAPE_SPHERE:
        return "sphere";
    case PH_SHAPE_CAPSULE:
        return "capsule";
    case PH_SHAPE_BOX:
        return "box";
    case PH_SHAPE_HULL:
        return "hull";
    case PH_SHAPE_COMPOUND:
        return "compound";
    case PH_SHAPE_MESH:
        return "mesh";
    default:
        return "unknown";
    }
}

static cJSON *geom_json(const snapshot_geom *g)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", shape_name(g->type));
    cJSON_AddItemToObject(o, "points", floats(g->points ? &g->points[0].x : NULL, 3 * g->point_count));
    if (g->type == PH_SHAPE_COMPOUND)
    {
        cJSON *children = cJSON_AddArrayToObject(o, "children");
        for (int k = 0; k < g->child_count; k++)
        {
            const snapshot_child *ch = &g->children[k];
            cJSON *c = cJSON_CreateObject();
            cJSON_AddStringToObject(c, "type", shape_name(ch->type));
            cJSON_AddItemToObject(c, "half_extents", floats(ch->half_extents.raw, 3));
            cJSON_AddNumberToObject(c, "radius", (double)ch->radius);
            cJSON_AddNumberToObject(c, "half_height", (double)ch->half_height);
            cJSON_AddNumberToObject(c, "first_point", ch->first_point);
            cJSON_AddNumberToObject(c, "point_count", ch->point_count);
            cJSON_AddItemToObject(c, "local", transform_json(ch->local));
            cJSON_AddItemToArray(children, c);
        }
    }
    return o;
}

static cJSON *body_json(const snapshot_body *b)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "slot", (double)(b->id.index1 - 1));
    cJSON_AddStringToObject(o, "type", BODY_TYPES[b->type]);
    cJSON_AddStringToObject(o, "shape", shape_name(b->shape.type));
    if (b->shape.type == PH_SHAPE_BOX)
        cJSON_AddItemToObject(o, "half_extents", floats(b->shape.half_extents.raw, 3));
    if (b->shape.type == PH_SHAPE_SPHERE || b->shape.type == PH_SHAPE_CAPSULE)
        cJSON_AddNumberToObject(o, "radius", (double)b->shape.radius);
    if (b->shape.type == PH_SHAPE_CAPSULE)
        cJSON_AddNumberToObject(o, "half_height", (double)b->shape.half_height);
    if (b->geom >= 0)
        cJSON_AddNumberToObject(o, "geometry", b->geom);
    cJSON_AddItemToObject(o, "position", floats(b->position.raw, 3));
    cJSON_AddItemToObject(o, "orientation", floats(b->orientation.raw, 4));
    cJSON_AddItemToObject(o, "velocity", floats(b->linear_velocity.raw, 3));
    cJSON_AddItemToObject(o, "angular_velocity", floats(b->angular_velocity.raw, 3));
    cJSON_AddItemToObject(o, "spin", floats(b->spin.raw, 3));
    cJSON_AddBoolToObject(o, "awake", b->awake);
    float material[3] = {b->material.density, b->material.friction, b->material.restitution};
    cJSON_AddItemToObject(o, "material", floats(material, 3));
    cJSON_AddNumberToObject(o, "mass", (double)b->mass.mass);
    cJSON_AddItemToObject(o, "center", floats(b->mass.center.raw, 3));
    cJSON_AddItemToObject(o, "world_center", floats(b->center.raw, 3));
    cJSON_AddItemToObject(o, "inertia", floats(&b->mass.inertia.raw[0][0], 9));
    cJSON_AddNumberToObject(o, "color", (double)b->rgba);
    cJSON_AddStringToObject(o, "tag", level_tag_name((level_tag)b->tag));
    cJSON_AddItemToObject(o, "start", floats(b->start.raw, 3));
    cJSON_AddBoolToObject(o, "frozen", b->frozen);
    return o;
}

static cJSON *joint_json(const snapshot_joint *j)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", JOINT_TYPES[j->def.type]);
    cJSON_AddNumberToObject(o, "a", j->a);
    cJSON_AddNumberToObject(o, "b", j->b);
    cJSON_AddItemToObject(o, "frame_a", transform_json(j->def.frame_a));
    cJSON_AddItemToObject(o, "frame_b", transform_json(j->def.frame_b));
    for (int i = 0; i < COUNT(JOINT_FLOATS); i++)
        cJSON_AddNumberToObject(o, JOINT_FLOATS[i].name,
                                (double)*(const float *)((const char *)&j->def + JOINT_FLOATS[i].offset));
    for (int i = 0; i < COUNT(JOINT_BOOLS); i++)
        cJSON_AddBoolToObject(o, JOINT_BOOLS[i].name,
                              *(const bool *)((const char *)&j->def + JOINT_BOOLS[i].offset));
    return o;
}

// Makes the folder of path when it has one that is missing.
static void make_folder(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return;
    *slash = '\0';
    mkdir(dir, 0777);
}

bool save_write(level *lv, const camera *cam, const char *path, char *err, size_t err_size)
{
    snapshot s;
    if (!snapshot_take(&s, lv, NULL, 0))
    {
        snprintf(err, err_size, "%s: out of memory copying the world", path);
        return false;
    }
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "sandbox_save", SAVE_VERSION);
    cJSON_AddStringToObject(root, "name", lv->name);
    cJSON_AddItemToObject(root, "gravity", floats(s.gravity.raw, 3));
    cJSON_AddNumberToObject(root, "time_step", (double)s.time_step);
    cJSON_AddNumberToObject(root, "last_substep", (double)s.last_substep);
    cJSON_AddNumberToObject(root, "substeps", level_world_substeps());
    cJSON_AddNumberToObject(root, "removed", lv->removed_count);
    cJSON *c = cJSON_AddObjectToObject(root, "camera");
    cJSON_AddItemToObject(c, "position", floats(cam->eye.raw, 3));
    cJSON_AddItemToObject(c, "target", floats(cam->target.raw, 3));
    cJSON_AddNumberToObject(c, "fov", (double)glm_deg(cam->fov_y));
    cJSON *geoms = cJSON_AddArrayToObject(root, "geometry");
    for (int g = 0; g < s.geom_count; g++)
        cJSON_AddItemToArray(geoms, geom_json(&s.geoms[g]));
    cJSON *bodies = cJSON_AddArrayToObject(root, "bodies");
    for (int i = 0; i < s.body_count; i++)
        cJSON_AddItemToArray(bodies, body_json(&s.bodies[i]));
    cJSON *joints = cJSON_AddArrayToObject(root, "joints");
    for (int j = 0; j < s.joint_count; j++)
        cJSON_AddItemToArray(joints, joint_json(&s.joints[j]));
    snapshot_free(&s);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
    {
        snprintf(err, err_size, "%s: out of memory writing the save", path);
        return false;
    }
    make_folder(path);
    FILE *f = fopen(path, "wb");
    bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err, err_size, "%s: cannot write the save (%s)", path, strerror(errno));
    cJSON_free(text);
    return ok;
}

// ---- Reading --------------------------------------------------------------------------------------------

static const cJSON *field(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

// n numbers in [lo, hi] at o[key].
static bool get_floats(json_reader *r, const cJSON *o, const char *key, const char *path, float lo, float hi,
                       float *out, int n)
{
    char p[160];
    snprintf(p, sizeof p, "%s.%s", path, key);
    const cJSON *a = field(o, key);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n)
        return json_fail(r, p, "must be an array of %d numbers", n);
    for (int i = 0; i < n; i++)
    {
        char q[176];
        snprintf(q, sizeof q, "%s[%d]", p, i);
        if (!json_get_float(r, cJSON_GetArrayItem(a, i), q, lo, false, hi, &out[i]))
            return false;
    }
    return true;
}

static bool get_float(json_reader *r, const cJSON *o, const char *key, const char *path, float lo, float hi,
                      float *out)
{
    char p[160];
    snprintf(p, sizeof p, "%s.%s", path, key);
    return json_get_float(r, field(o, key), p, lo, false, hi, out);
}

static bool get_int(json_reader *r, const cJSON *o, const char *key, const char *path, int lo, int hi,
                    int *out)
{
    float v = 0.0f;
    char p[160];
    snprintf(p, sizeof p, "%s.%s", path, key);
    if (!json_get_float(r, field(o, key), p, (float)lo, false, (float)hi, &v))
        return false;
    if (v != (float)(int)v)
        return json_fail(r, p, "must be a whole number, got %g", (double)v);
    *out = (int)v;
    return true;
}

// The colour, 0xRRGGBBAA as a whole number: read as the double it is (a float keeps only 24 bits).
static bool get_rgba(json_reader *r, const cJSON *o, const char *path, uint32_t *out)
{
    const cJSON *c = field(o, "color");
    double v = cJSON_IsNumber(c) ? c->valuedouble : -1.0;
    if (!(v >= 0.0 && v <= 4294967295.0) || v != (double)(uint32_t)v)
    {
        char p[160];
        snprintf(p, sizeof p, "%s.color", path);
        return json_fail(r, p, "must be a whole number in [0, 4294967295] (0xRRGGBBAA)");
    }
    *out = (uint32_t)v;
    return true;
}

static bool get_bool(json_reader *r, const cJSON *o, const char *key, const char *path, bool *out)
{
    const cJSON *b = field(o, key);
    if (!cJSON_IsBool(b))
    {
        char p[160];
        snprintf(p, sizeof p, "%s.%s", path, key);
        return json_fail(r, p, "must be true or false, got %s", json_type_name(b));
    }
    *out = cJSON_IsTrue(b);
    return true;
}

static bool get_shape_type(json_reader *r, const cJSON *o, const char *key, const char *path,
                           ph_shape_type *out)
{
    static const char *const names[] = {"sphere", "capsule", "box", "hull", "compound", "mesh"};
    static const ph_shape_type types[] = {PH_SHAPE_SPHERE, PH_SHAPE_CAPSULE,  PH_SHAPE_BOX,
                                          PH_SHAPE_HULL,   PH_SHAPE_COMPOUND, PH_SHAPE_MESH};
    char p[160];
    int k = 0;
    snprintf(p, sizeof p, "%s.%s", path, key);
    if (!json_get_choice(r, field(o, key), p, names, COUNT(names), &k))
        return false;
    *out = types[k];
    return true;
}

static bool get_transform(json_reader *r, const cJSON *o, const char *key, const char *path,
                          ph_transform *out)
{
    float v[7];
    if (!get_floats(r, o, key, path, -PH_MAX_COORDINATE, PH_MAX_COORDINATE, v, 7))
        return false;
    out->p = (ph_vec3){{v[0], v[1], v[2]}};
    out->q = (ph_quat){{v[3], v[4], v[5], v[6]}};
    return true;
}

static bool read_geom(json_reader *r, const cJSON *o, int index, snapshot_geom *g)
{
    char path[64];
    snprintf(path, sizeof path, "geometry[%d]", index);
    if (!get_shape_type(r, o, "type", path, &g->type))
        return false;
    if (g->type != PH_SHAPE_HULL && g->type != PH_SHAPE_COMPOUND && g->type != PH_SHAPE_MESH)
        return json_fail(r, path, "type must be hull, compound or mesh");
    const cJSON *pts = field(o, "points");
    int n = cJSON_IsArray(pts) ? cJSON_GetArraySize(pts) : -1;
    char p[96];
    snprintf(p, sizeof p, "%s.points", path);
    if (n < 0 || n % 3 != 0 || n / 3 > SAVE_MAX_POINTS || (g->type == PH_SHAPE_MESH && n % 9 != 0))
        return json_fail(r, p, "must be an array of x, y, z numbers%s",
                         g->type == PH_SHAPE_MESH ? ", 3 points a triangle" : "");
    g->point_count = n / 3;
    g->points = malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
    if (!g->points)
        return json_fail(r, p, "out of memory");
    if (n > 0 && !get_floats(r, o, "points", path, -PH_MAX_SIZE, PH_MAX_SIZE, &g->points[0].x, n))
        return false;
    if (g->type != PH_SHAPE_COMPOUND)
        return true;
    const cJSON *children = field(o, "children");
    int count = cJSON_IsArray(children) ? cJSON_GetArraySize(children) : 0;
    snprintf(p, sizeof p, "%s.children", path);
    if (count < 1 || count > PH_MAX_COMPOUND_CHILDREN)
        return json_fail(r, p, "must be an array of 1 to %d children", PH_MAX_COMPOUND_CHILDREN);
    g->children = calloc((size_t)count, sizeof *g->children);
    if (!g->children)
        return json_fail(r, p, "out of memory");
    g->child_count = count;
    for (int k = 0; k < count; k++)
    {
        const cJSON *c = cJSON_GetArrayItem(children, k);
        snapshot_child *ch = &g->children[k];
        char cp[96];
        snprintf(cp, sizeof cp, "%s.children[%d]", path, k);
        if (!get_shape_type(r, c, "type", cp, &ch->type) || !get_transform(r, c, "local", cp, &ch->local) ||
            !get_floats(r, c, "half_extents", cp, 0.0f, PH_MAX_SIZE, ch->half_extents.raw, 3) ||
            !get_float(r, c, "radius", cp, 0.0f, PH_MAX_SIZE, &ch->radius) ||
            !get_float(r, c, "half_height", cp, 0.0f, PH_MAX_SIZE, &ch->half_height) ||
            !get_int(r, c, "first_point", cp, 0, g->point_count, &ch->first_point) ||
            !get_int(r, c, "point_count", cp, 0, g->point_count - ch->first_point, &ch->point_count))
            return false;
        if (ch->type == PH_SHAPE_COMPOUND || ch->type == PH_SHAPE_MESH)
            return json_fail(r, cp, "a compound's child must be a box, sphere, capsule or hull");
    }
    return true;
}

static bool read_body(json_reader *r, const cJSON *o, int index, int geom_count, snapshot_body *b)
{
    char path[64];
    snprintf(path, sizeof path, "bodies[%d]", index);
    int slot = 0, type = 0, tag = 0;
    float material[3], mass = 0.0f;
    const char *tag_name = NULL;
    char p[96];
    if (!get_int(r, o, "slot", path, 0, SAVE_MAX_BODIES - 1, &slot))
        return false;
    snprintf(p, sizeof p, "%s.type", path);
    if (!json_get_choice(r, field(o, "type"), p, BODY_TYPES, COUNT(BODY_TYPES), &type))
        return false;
    b->id = (ph_body_id){(uint32_t)slot + 1u, 1u};
    b->type = (ph_body_type)type;
    b->geom = -1;
    if (!get_shape_type(r, o, "shape", path, &b->shape.type))
        return false;
    if (b->shape.type == PH_SHAPE_BOX &&
        !get_floats(r, o, "half_extents", path, 0.0f, PH_MAX_SIZE, b->shape.half_extents.raw, 3))
        return false;
    if ((b->shape.type == PH_SHAPE_SPHERE || b->shape.type == PH_SHAPE_CAPSULE) &&
        !get_float(r, o, "radius", path, 0.0f, PH_MAX_SIZE, &b->shape.radius))
        return false;
    if (b->shape.type == PH_SHAPE_CAPSULE &&
        !get_float(r, o, "half_height", path, 0.0f, PH_MAX_SIZE, &b->shape.half_height))
        return false;
    if (b->shape.type == PH_SHAPE_HULL || b->shape.type == PH_SHAPE_COMPOUND ||
        b->shape.type == PH_SHAPE_MESH)
    {
        if (!get_int(r, o, "geometry", path, 0, geom_count - 1, &b->geom))
            return false;
    }
    snprintf(p, sizeof p, "%s.tag", path);
    if (!json_get_string(r, field(o, "tag"), p, &tag_name))
        return false;
    while (tag < LEVEL_TAG_COUNT && strcmp(level_tag_name((level_tag)tag), tag_name) != 0)
        tag++;
    if (tag == LEVEL_TAG_COUNT)
        return json_fail(r, p, "unknown tag \"%s\"", tag_name);
    b->tag = tag;
    if (!get_floats(r, o, "position", path, -PH_MAX_COORDINATE, PH_MAX_COORDINATE, b->position.raw, 3) ||
        !get_floats(r, o, "orientation", path, -1.0f, 1.0f, b->orientation.raw, 4) ||
        !get_floats(r, o, "velocity", path, -PH_MAX_SPEED, PH_MAX_SPEED, b->linear_velocity.raw, 3) ||
        !get_floats(r, o, "angular_velocity", path, -PH_MAX_SPEED, PH_MAX_SPEED, b->angular_velocity.raw,
                    3) ||
        (field(o, "spin") && !get_floats(r, o, "spin", path, -PH_MAX_SPEED, PH_MAX_SPEED, b->spin.raw, 3)) ||
        !get_bool(r, o, "awake", path, &b->awake) ||
        !get_floats(r, o, "material", path, 0.0f, PH_MAX_DENSITY, material, 3) ||
        !get_float(r, o, "mass", path, 0.0f, PH_MAX_MASS, &mass) ||
        !get_floats(r, o, "center", path, -PH_MAX_SIZE, PH_MAX_SIZE, b->mass.center.raw, 3) ||
        !get_floats(r, o, "world_center", path, -PH_MAX_COORDINATE, PH_MAX_COORDINATE, b->center.raw, 3) ||
        !get_floats(r, o, "inertia", path, -FLT_MAX, FLT_MAX, &b->mass.inertia.raw[0][0], 9) ||
        !get_rgba(r, o, path, &b->rgba) ||
        !get_floats(r, o, "start", path, -PH_MAX_COORDINATE, PH_MAX_COORDINATE, b->start.raw, 3) ||
        !get_bool(r, o, "frozen", path, &b->frozen))
        return false;
    b->has_spin = field(o, "spin") != NULL; // left out by saves written before it was kept
    b->material = (ph_material){material[0], material[1], material[2]};
    b->mass.mass = mass;
    b->mesh = -1;
    return true;
}

static bool read_joint(json_reader *r, const cJSON *o, int index, int body_count, snapshot_joint *j)
{
    char path[64], p[96];
    int type = 0;
    snprintf(path, sizeof path, "joints[%d]", index);
    snprintf(p, sizeof p, "%s.type", path);
    if (!json_get_choice(r, field(o, "type"), p, JOINT_TYPES, PH_JOINT_TYPE_COUNT, &type))
        return false;
    // The engine takes only a definition its default made (ph_joint_create checks): the file's fields go
    // over that (a zeroed one, as this read once filled, was refused, and a save's joints never came back).
    j->def = ph_default_joint_def((ph_joint_type)type);
    if (!get_int(r, o, "a", path, -1, body_count - 1, &j->a) ||
        !get_int(r, o, "b", path, 0, body_count - 1, &j->b) ||
        !get_transform(r, o, "frame_a", path, &j->def.frame_a) ||
        !get_transform(r, o, "frame_b", path, &j->def.frame_b))
        return false;
    for (int i = 0; i < COUNT(JOINT_FLOATS); i++)
        if (!(JOINT_FLOATS[i].optional && !field(o, JOINT_FLOATS[i].name)) &&
            !get_float(r, o, JOINT_FLOATS[i].name, path, -FLT_MAX, FLT_MAX,
                       (float *)((char *)&j->def + JOINT_FLOATS[i].offset)))
            return false;
    for (int i = 0; i < COUNT(JOINT_BOOLS); i++)
        if (!get_bool(r, o, JOINT_BOOLS[i].name, path, (bool *)((char *)&j->def + JOINT_BOOLS[i].offset)))
            return false;
    return true;
}

// Reads the whole file; NULL with a message.
static char *read_file(const char *path, size_t *out_len, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
    {
        snprintf(err, err_size, "%s: cannot open (%s)", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf)
    {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap || cap >= SAVE_MAX_BYTES)
            break;
        char *more = realloc(buf, cap * 2);
        if (!more)
        {
            free(buf);
            buf = NULL;
            break;
        }
        buf = more;
        cap *= 2;
    }
    fclose(f);
    if (!buf)
        snprintf(err, err_size, "%s: out of memory reading it", path);
    *out_len = len;
    return buf;
}

static bool read_save(json_reader *r, const cJSON *root, snapshot *s, float out_camera[7], int *substeps,
                      int *removed)
{
    int version = 0;
    if (!cJSON_IsObject(root))
        return json_fail(r, "", "must be a JSON object");
    if (!get_int(r, root, "sandbox_save", "", SAVE_VERSION, SAVE_VERSION, &version) ||
        !get_floats(r, root, "gravity", "", -PH_MAX_COORDINATE, PH_MAX_COORDINATE, s->gravity.raw, 3) ||
        !get_float(r, root, "time_step", "", PH_MIN_TIME_STEP, PH_MAX_TIME_STEP, &s->time_step) ||
        // Left out by saves written before it was kept: 0, a new world's.
        (field(root, "last_substep") &&
         !get_float(r, root, "last_substep", "", 0.0f, s->time_step, &s->last_substep)) ||
        !get_int(r, root, "substeps", "", 1, PH_MAX_SUBSTEPS, substeps) ||
        !get_int(r, root, "removed", "", 0, 1 << 30, removed))
        return false;
    const cJSON *cam = field(root, "camera");
    if (!get_floats(r, cam, "position", "camera", -PH_MAX_COORDINATE, PH_MAX_COORDINATE, out_camera, 3) ||
        !get_floats(r, cam, "target", "camera", -PH_MAX_COORDINATE, PH_MAX_COORDINATE, out_camera + 3, 3) ||
        !get_float(r, cam, "fov", "camera", 1.0f, 179.0f, out_camera + 6))
        return false;
    const cJSON *geoms = field(root, "geometry"), *bodies = field(root, "bodies"),
                *joints = field(root, "joints");
    if (!cJSON_IsArray(geoms) || !cJSON_IsArray(bodies) || !cJSON_IsArray(joints))
        return json_fail(r, "", "geometry, bodies and joints must be arrays");
    int ng = cJSON_GetArraySize(geoms), nb = cJSON_GetArraySize(bodies), nj = cJSON_GetArraySize(joints);
    if (nb > SAVE_MAX_BODIES || ng > SAVE_MAX_BODIES || nj > SAVE_MAX_BODIES)
        return json_fail(r, "", "more than %d bodies, geometries or joints", SAVE_MAX_BODIES);
    s->geoms = calloc((size_t)(ng > 0 ? ng : 1), sizeof *s->geoms);
    s->bodies = calloc((size_t)(nb > 0 ? nb : 1), sizeof *s->bodies);
    s->joints = calloc((size_t)(nj > 0 ? nj : 1), sizeof *s->joints);
    unsigned char *slot_taken = calloc(SAVE_MAX_BODIES, 1);
    bool ok = s->geoms && s->bodies && s->joints && slot_taken;
    if (!ok)
        json_fail(r, "", "out of memory");
    for (int g = 0; ok && g < ng; g++)
    {
        s->geom_count = g + 1;
        ok = read_geom(r, cJSON_GetArrayItem(geoms, g), g, &s->geoms[g]);
    }
    for (int i = 0; ok && i < nb; i++)
    {
        ok = read_body(r, cJSON_GetArrayItem(bodies, i), i, ng, &s->bodies[i]);
        s->body_count = ok ? i + 1 : i;
        int slot = ok ? (int)s->bodies[i].id.index1 - 1 : 0;
        if (ok && slot_taken[slot])
        {
            char p[64];
            snprintf(p, sizeof p, "bodies[%d].slot", i);
            ok = json_fail(r, p, "slot %d is another body's too", slot);
        }
        if (ok)
            slot_taken[slot] = 1;
    }
    // The engine's slots are handed out in turn and reused, so a world's slots stay near its body count;
    // one far beyond would make a world of placeholders.
    for (int i = 0; ok && i < s->body_count; i++)
        if ((int)s->bodies[i].id.index1 - 1 > SAVE_SLOT_SLACK * nb + SAVE_SLOT_MARGIN)
        {
            char p[64];
            snprintf(p, sizeof p, "bodies[%d].slot", i);
            ok = json_fail(r, p, "slot %u is far beyond the %d bodies", s->bodies[i].id.index1 - 1, nb);
        }
    for (int j = 0; ok && j < nj; j++)
    {
        ok = read_joint(r, cJSON_GetArrayItem(joints, j), j, nb, &s->joints[j]);
        s->joint_count = ok ? j + 1 : j;
        if (ok)
        {
            // The ends are the snapshot's bodies (or the world): ids for snapshot_restore to replace.
            snapshot_joint *sj = &s->joints[j];
            sj->def.body_a = sj->a >= 0 ? s->bodies[sj->a].id : PH_NULL_BODY_ID;
            sj->def.body_b = s->bodies[sj->b].id;
        }
    }
    free(slot_taken);
    return ok;
}

bool save_load(level *lv, const char *path, uint32_t seed, char *err, size_t err_size)
{
    memset(lv, 0, sizeof *lv);
    size_t len = 0;
    char *text = read_file(path, &len, err, err_size);
    if (!text)
        return false;
    asset_error aerr;
    memset(&aerr, 0, sizeof aerr);
    json_reader r = {path, &aerr, ""};
    cJSON *root = json_parse_text(&r, text, len, SAVE_MAX_BYTES);
    free(text);
    snapshot s;
    memset(&s, 0, sizeof s);
    float cam[7] = {0};
    int substeps = 0, removed = 0;
    bool ok = root && read_save(&r, root, &s, cam, &substeps, &removed);
    const cJSON *name = root ? field(root, "name") : NULL;
    if (ok)
    {
        level_set_world_substeps(substeps);
        ph_world_def def = ph_default_world_def();
        def.gravity = s.gravity;
        def.time_step = s.time_step;
        char why[512] = "";
        ok = level_begin_world(lv, &def, seed, why, sizeof why) &&
             snapshot_restore(&s, lv, true, true, NULL, why, sizeof why);
        if (!ok || why[0])
            snprintf(aerr.text, sizeof aerr.text, "%s: %s", path, why);
        if (ok)
        {
            const char *base = strrchr(path, '/');
            snprintf(lv->name, sizeof lv->name, "%s",
                     cJSON_IsString(name) ? name->valuestring
                     : base               ? base + 1
                                          : path);
            lv->camera_eye = (vec3s){{cam[0], cam[1], cam[2]}};
            lv->camera_target = (vec3s){{cam[3], cam[4], cam[5]}};
            lv->camera_fov = cam[6];
            lv->removed_count = removed;
            level_update_ground(lv);
            if (why[0])
                snprintf(lv->warning, sizeof lv->warning, "%s", aerr.text);
        }
        else
            level_unload(lv, NULL);
    }
    cJSON_Delete(root);
    snapshot_free(&s);
    if (!ok)
        snprintf(err, err_size, "%s", aerr.text);
    return ok;
}
