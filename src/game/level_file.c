// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Levels from files: a JSON scene (assets/scene.h: parsed and validated whole before a world exists, then
// built) or an .obj model or .obj scene (assets/model_physics.h: every object a body). Model bodies get
// their render meshes uploaded here; warnings (a missing .mtl, a flat object made static) are printed
// and the first one is kept for the HUD.

#include "assets/model_mesh.h"
#include "assets/model_physics.h"
#include "assets/obj.h"
#include "assets/path.h"
#include "assets/scene.h"
#include "game/level.h"

#include <math.h>   // powf, fabsf, fmaxf, isfinite
#include <stdio.h>  // fprintf, snprintf
#include <string.h> // strrchr, strcmp

// The camera of an .obj scene looks at the centre of the bodies' bounds from this many bounding radii
// away, along this direction (normalised), so the whole scene is in view (unit: radii).
#define FIT_DISTANCE_RADII 2.2f
static const vec3s FIT_DIRECTION = {{0.45f, 0.45f, 0.77f}};
// Smallest radius a fitted view assumes (unit: m), so a single pebble does not fill the view edge to edge.
#define FIT_MIN_RADIUS 0.5f
// sRGB encoding of linear colours (IEC 61966-2-1): linear part below the threshold, power law above.
#define SRGB_LINEAR_LIMIT 0.0031308f
#define SRGB_LINEAR_SLOPE 12.92f
#define SRGB_GAMMA (1.0f / 2.4f)
#define SRGB_SCALE 1.055f
#define SRGB_OFFSET 0.055f

// The HUD's name of a file level: the file's name without its folder and extension ("stacking").
static void set_name_from_path(level *lv, const char *path)
{
    const char *base = path_basename(path ? path : "");
    const char *dot = strrchr(base, '.');
    int n = dot && dot > base ? (int)(dot - base) : (int)strlen(base);
    if (snprintf(lv->name, sizeof lv->name, "%.*s", n, base) < 0)
        lv->name[0] = '\0';
}

static uint32_t srgb_byte(float linear)
{
    float c = linear < 0.0f ? 0.0f : (linear > 1.0f ? 1.0f : linear);
    float s = c <= SRGB_LINEAR_LIMIT ? SRGB_LINEAR_SLOPE * c : SRGB_SCALE * powf(c, SRGB_GAMMA) - SRGB_OFFSET;
    return (uint32_t)(s * 255.0f + 0.5f);
}

static uint32_t rgba_from_linear(const float rgb[3])
{
    return srgb_byte(rgb[0]) << 24 | srgb_byte(rgb[1]) << 16 | srgb_byte(rgb[2]) << 8 | 0xffu;
}

static void report_warnings(level *lv, const asset_warnings *w)
{
    for (int i = 0; i < w->kept; i++)
        fprintf(stderr, "sandbox: warning: %s\n", w->text[i]);
    if (w->count > w->kept)
        fprintf(stderr, "sandbox: warning: %d more warnings not shown\n", w->count - w->kept);
    if (w->kept > 0 && !lv->warning[0])
        snprintf(lv->warning, sizeof lv->warning, "%s%s", w->text[0],
                 w->count > 1 ? " (and more, see stderr)" : "");
}

// Gives the bodies of a model set their tag, colour and render mesh.
static bool adopt_models(level *lv, const model_set *set, level_tag tag, renderer *r, char *err,
                         size_t err_size)
{
    level_adopt_new_bodies(lv, tag);
    for (int i = 0; i < set->body_count; i++)
    {
        const model_body *mb = &set->bodies[i];
        level_body *b = level_get_body(lv, mb->body);
        if (!b)
            continue;
        b->rgba = rgba_from_linear(mb->color);
        b->tag = (uint8_t)tag;
        if (!mb->mesh && ph_body_get_type(lv->world, mb->body) == PH_BODY_STATIC &&
            ph_body_get_shape(lv->world, mb->body).type == PH_SHAPE_BOX)
        {
            // A static box floor (the default ground of an .obj scene) whose top is the plane y = 0 is
            // the renderer's ground plane, drawn with its grid instead of a second coplanar surface.
            ph_aabb bb = ph_body_get_bounds(lv->world, mb->body);
            if (fabsf(bb.hi.y) < LEVEL_GROUND_PLANE_TOLERANCE)
                b->tag = (uint8_t)LEVEL_TAG_GROUND;
            b->rgba = LEVEL_STATIC_RGBA;
        }
        if (!mb->mesh || !r)
            continue;
        const model_mesh *m = mb->mesh;
        int handle = renderer_add_mesh_colored(r, m->positions, m->normals, m->colors, m->vertex_count,
                                               m->indices, m->index_count);
        if (handle < 0)
        {
            snprintf(err, err_size, "%s: its render mesh could not be made (too many meshes?)", mb->name);
            return false;
        }
        if (!level_track_mesh(lv, handle))
        {
            renderer_remove_mesh(r, handle);
            snprintf(err, err_size, "out of memory");
            return false;
        }
        b->mesh = handle;
    }
    return true;
}

// Points the camera at every body but the ground plane.
static void fit_camera(level *lv)
{
    int n = 0;
    const ph_body_id *ids = level_list_bodies(lv, &n);
    bool any = false;
    ph_aabb box = {0};
    for (int i = 0; i < n; i++)
    {
        level_body *b = level_get_body(lv, ids[i]);
        if (b && b->tag == LEVEL_TAG_GROUND)
            continue;
        ph_aabb bb = ph_body_get_bounds(lv->world, ids[i]);
        box = any ? (ph_aabb){glms_vec3_minv(box.lo, bb.lo), glms_vec3_maxv(box.hi, bb.hi)} : bb;
        any = true;
    }
    if (!any)
        return;
    vec3s centre = glms_vec3_scale(glms_vec3_add(box.lo, box.hi), 0.5f);
    float radius = 0.5f * glms_vec3_distance(box.lo, box.hi);
    radius = radius > FIT_MIN_RADIUS ? radius : FIT_MIN_RADIUS;
    lv->camera_target = centre;
    lv->camera_eye = glms_vec3_add(
        centre, glms_vec3_scale(glms_vec3_normalize(FIT_DIRECTION), FIT_DISTANCE_RADII * radius));
}

// The bodies of a loaded .obj scene in the level's world, drawn as its models, its warnings on the HUD; false
// with err set when the model cannot be built or drawn (the model itself is the caller's).
static bool add_model_scene(level *lv, const obj_model *model, const model_scene_options *options,
                            renderer *r, char *err, size_t err_size)
{
    model_set set = {0};
    asset_warnings warnings;
    memset(&warnings, 0, sizeof warnings);
    asset_error aerr;
    memset(&aerr, 0, sizeof aerr);
    bool ok = model_physics_add_scene(lv->world, model, options, &set, &warnings, &aerr);
    report_warnings(lv, &warnings);
    if (!ok)
        level_set_error(err, err_size, aerr.text);
    ok = ok && adopt_models(lv, &set, LEVEL_TAG_MODEL, r, err, err_size);
    model_set_free(&set);
    return ok;
}

static bool load_obj(level *lv, const char *path, renderer *r, uint32_t seed, char *err, size_t err_size)
{
    asset_error aerr;
    memset(&aerr, 0, sizeof aerr);
    obj_model *model = NULL;
    if (!obj_load(path, NULL, &model, &aerr))
    {
        level_set_error(err, err_size, aerr.text);
        return false;
    }
    ph_world_def wdef = ph_default_world_def();
    if (!level_begin_world(lv, &wdef, seed, err, err_size))
    {
        obj_free(model);
        return false;
    }
    set_name_from_path(lv, path);
    for (int i = 0; i < model->kept_warning_count; i++)
        fprintf(stderr, "sandbox: warning: %s\n", model->warnings[i]);
    if (model->kept_warning_count > 0)
        snprintf(lv->warning, sizeof lv->warning, "%s", model->warnings[0]);
    model_scene_options options = model_default_scene_options();
    if (!add_model_scene(lv, model, &options, r, err, err_size))
    {
        obj_free(model);
        level_unload(lv, r);
        return false;
    }
    // The default ground of an .obj scene is an ordinary static box drawn as it is; the renderer's ground
    // plane stays at y = 0 under it.
    lv->model = model;
    level_update_ground(lv);
    fit_camera(lv);
    return true;
}

bool level_add_model_file(level *lv, const char *path, renderer *r, vec3s point, float scale,
                          obj_model **out_model, char *err, size_t err_size)
{
    *out_model = NULL;
    asset_error aerr;
    memset(&aerr, 0, sizeof aerr);
    obj_model *model = NULL;
    if (!(scale > 0.0f) || !isfinite(scale))
    {
        snprintf(err, err_size, "%s: the scale must be finite and > 0, got %g", path, (double)scale);
        return false;
    }
    if (!lv->world || !ph_is_finite_vec3(point) || !obj_load(path, NULL, &model, &aerr))
    {
        level_set_error(err, err_size,
                        lv->world && ph_is_finite_vec3(point) ? aerr.text : "no world to add to");
        return false;
    }
    if (model->position_count <= 0)
    {
        snprintf(err, err_size, "%s: no vertices", path);
        obj_free(model);
        return false;
    }
    ph_aabb box = {{{INFINITY, INFINITY, INFINITY}}, {{-INFINITY, -INFINITY, -INFINITY}}};
    for (int i = 0; i < model->position_count; i++)
    {
        ph_vec3 p = {{scale * model->positions[3 * i], scale * model->positions[3 * i + 1],
                      scale * model->positions[3 * i + 2]}};
        box = (ph_aabb){glms_vec3_minv(box.lo, p), glms_vec3_maxv(box.hi, p)};
    }
    // Its bottom centre goes to the point, then up onto what is there.
    ph_vec3 offset = {
        {point.x - 0.5f * (box.lo.x + box.hi.x), point.y - box.lo.y, point.z - 0.5f * (box.lo.z + box.hi.z)}};
    ph_aabb placed = {glms_vec3_add(box.lo, offset), glms_vec3_add(box.hi, offset)};
    offset.y += level_clear_lift(lv, &placed, 1);
    model_scene_options options = model_default_scene_options();
    options.scale = scale;
    options.offset = offset;
    options.default_ground = false;
    if (!add_model_scene(lv, model, &options, r, err, err_size))
    {
        obj_free(model);
        return false;
    }
    level_update_ground(lv);
    *out_model = model;
    return true;
}

bool level_add_scene(level *lv, const scene_desc *desc, renderer *r, char *err, size_t err_size)
{
    report_warnings(lv, &desc->warnings);
    model_set set = {0};
    asset_warnings warnings;
    memset(&warnings, 0, sizeof warnings);
    asset_error aerr;
    memset(&aerr, 0, sizeof aerr);
    bool ok = scene_build(lv->world, desc, &set, &warnings, &aerr);
    report_warnings(lv, &warnings);
    if (!ok)
        level_set_error(err, err_size, aerr.text);
    ok = ok && adopt_models(lv, &set, LEVEL_TAG_SCENE, r, err, err_size);
    model_set_free(&set);
    level_update_ground(lv);
    return ok;
}

bool level_load_scene(level *lv, const scene_desc *desc, renderer *r, uint32_t seed, char *err,
                      size_t err_size)
{
    ph_world_def wdef = scene_world_def(desc);
    if (!level_begin_world(lv, &wdef, seed, err, err_size))
        return false;
    set_name_from_path(lv, desc->file);
    lv->camera_eye = desc->camera.position;
    lv->camera_target = desc->camera.target;
    lv->camera_fov = desc->camera.fov;
    if (level_add_scene(lv, desc, r, err, err_size))
        return true;
    level_unload(lv, r);
    return false;
}

static bool load_json(level *lv, const char *path, renderer *r, uint32_t seed, char *err, size_t err_size)
{
    asset_error aerr;
    memset(&aerr, 0, sizeof aerr);
    scene_desc *desc = NULL;
    scene_options options = scene_default_options();
    if (!scene_load(path, &options, &desc, &aerr))
    {
        level_set_error(err, err_size, aerr.text);
        return false;
    }
    bool ok = level_load_scene(lv, desc, r, seed, err, err_size);
    scene_free(desc);
    return ok;
}

// The scale that makes the model's largest extent size (unit: m); 1 for size 0 or a model of no extent.
static float model_scale_for(const struct obj_model *model, float size)
{
    if (!(size > 0.0f) || model->position_count <= 0)
        return 1.0f;
    float lo[3], hi[3];
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = model->positions[k];
    for (int i = 1; i < model->position_count; i++)
        for (int k = 0; k < 3; k++)
        {
            float v = model->positions[3 * i + k];
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    float extent = fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
    return extent > 0.0f ? size / extent : 1.0f;
}

bool level_model_projectile(level *lv, const struct obj_model *model, renderer *r, float size,
                            ph_geom_id *out_geom, ph_mass_properties *out_mass, bool *out_from_mesh,
                            int *inout_mesh, char *err, size_t err_size)
{
    *out_geom = PH_NULL_GEOM_ID;
    *out_from_mesh = false;
    float scale = model_scale_for(model, size);
    model_shape_options options = model_default_shape_options();
    options.density = 1.0f; // the throw's density multiplies it
    for (int k = 0; k < 3; k++)
        options.scale[k] = scale;
    model_shape shape;
    asset_error aerr;
    memset(&aerr, 0, sizeof aerr);
    if (!model_physics_build_shape(lv->world, model, &options, &shape, NULL, &aerr))
    {
        level_set_error(err, err_size, aerr.text);
        return false;
    }
    *out_geom = shape.shape.geom;
    *out_mass = shape.mass;
    *out_from_mesh = shape.mass_from_mesh;
    if (*inout_mesh >= 0 || !r)
        return true;
    model_mesh_options mo = model_mesh_default_options();
    for (int i = 0; i < 3; i++)
    {
        mo.scale[i] = scale;
        mo.origin[i] = shape.origin.raw[i];
    }
    model_mesh *mesh = model_mesh_build(model, &mo);
    if (mesh)
        *inout_mesh = renderer_add_mesh_colored(r, mesh->positions, mesh->normals, mesh->colors,
                                                mesh->vertex_count, mesh->indices, mesh->index_count);
    model_mesh_free(mesh);
    return true;
}

bool level_load_file(level *lv, const char *path, renderer *r, uint32_t seed, char *err, size_t err_size)
{
    memset(lv, 0, sizeof *lv);
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (dot && (strcmp(dot, ".obj") == 0 || strcmp(dot, ".OBJ") == 0))
        return load_obj(lv, path, r, seed, err, err_size);
    if (dot && (strcmp(dot, ".json") == 0 || strcmp(dot, ".JSON") == 0))
        return load_json(lv, path, r, seed, err, err_size);
    snprintf(err, err_size, "%s: not a scene (.json) or a model (.obj)", path ? path : "(null)");
    return false;
}
