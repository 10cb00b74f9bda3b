// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// Joints: the public API (phys.h), their storage and their rows in the soft step.
//
// How a joint is solved. Each joint is a set of constraint rows between its two bodies, solved one joint
// at a time (Gauss-Seidel) before the contacts in every sweep of ph_solve (on a wide path the plain point
// joints, the hinges and the limited spherical joints first, in coloured groups of 8 lanes: batch_fill,
// solver_wide_kernels.h), with the contacts' scheme
// (Catto, "Solver2D" and Box2D v3's soft step): warm started from the last sub-step's impulses; in the biased
// sweep a rigid row is a stiff spring (JOINT_HERTZ, damping ratio JOINT_DAMPING_RATIO, capped at a quarter of
// the sub-step rate) that removes the position error over a few sub-steps without bounce; the relax sweep
// after the position update solves it rigidly with no bias, taking out the velocity the spring added. The
// position error is measured from the bodies' motion so far in the step (their displacement dp and rotation
// dq: the anchors turn with their body, as the contacts' do), so no narrow phase is needed between
// sub-steps. User springs (a spring's frequency and damping) are soft in both sweeps; a motor is a velocity
// row whose impulse is bounded by max_motor_force times the sub-step; limits are one-sided rows that, while
// apart, let the joint approach the limit by the gap in a sub-step and no more (speculative, as contacts).
// Rows of a joint are solved springs and motors first, then limits, then the rigid rows, so the rigid ones
// have the last word.
//
// The rows (anchors ra, rb from each centre of mass; d = anchor b - anchor a; za, zb the frames' z axes):
//   point (spherical, revolute, weld):  C = d (3 rows, one 3x3 block)
//   lock (weld, prismatic):             C = 2 vec(qb qa^-1), the small rotation from frame a to frame b
//   hinge lock (revolute):              C = (za x zb) . u for the two axes u across za (one 2x2 block)
//   across (prismatic):                 C = d . u for the two axes u across za; body a's arm is ra + d
//   axial: revolute angle about za, prismatic position d . za, distance |d|; cone: the angle between za
//   and zb; twist: the angle about z of frame b relative to frame a.
#include "joint.h"

#include "array.h"
#include "core.h"
#include "solver_internal.h"
#include "types_internal.h"
#include "world.h"

#include <math.h>
#include <stdio.h>  // snprintf
#include <string.h> // memset

// Stiffness of the rigid rows' spring in the biased sweep (capped at JOINT_MAX_HERTZ_FRACTION of the
// sub-step rate) and its damping ratio (Box2D v3's defaults: 60 Hz, 2).
#define JOINT_HERTZ 60.0f
#define JOINT_DAMPING_RATIO 2.0f
#define JOINT_MAX_HERTZ_FRACTION 0.25f
// A rigid row is a spring in the biased sweep, so under a steady force F it gives by F / (m w^2) (m the
// row's effective mass, w = 2 pi hertz; the leak of the soft constraint is what sets this, not the damping).
// A chain of light links holding a heavy ball stretches 4 mm a joint at 60 Hz. Each joint takes the
// frequency that keeps its give under JOINT_MAX_GIVE at its load (set_rows_spring), and ph_solve takes the
// sub-steps the most loaded one's needs (the spring may be a quarter of the sub-step rate at most).
#define JOINT_MAX_GIVE 5.0e-4f // (unit: m)
// The force that sets the sub-steps is the joint's held load, low-passed over this time: an impact's spike
// (a ragdoll's limb striking the ground) would otherwise ask for the most sub-steps a step after step.
#define JOINT_STEADY_TIME 0.5f // (unit: s)
// The fewest joint groups of a colour a worker takes (task.h): a group is a few hundred nanoseconds of work.
#define JOINT_MIN_GROUPS 4
// Below this the distance joint's axis is undefined (unit: m); the row is skipped.
#define JOINT_MIN_LENGTH 1.0e-6f

// ---- Small vector helpers ----------------------------------------------------------------------------

static inline ph_vec3 v_add(ph_vec3 a, ph_vec3 b)
{
    return ph_v3(a.x + b.x, a.y + b.y, a.z + b.z);
}

static inline ph_vec3 v_sub(ph_vec3 a, ph_vec3 b)
{
    return ph_v3(a.x - b.x, a.y - b.y, a.z - b.z);
}

static inline ph_vec3 v_scale(ph_vec3 a, float s)
{
    return ph_v3(a.x * s, a.y * s, a.z * s);
}

static inline float v_dot(ph_vec3 a, ph_vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline ph_vec3 v_cross(ph_vec3 a, ph_vec3 b)
{
    return ph_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static inline ph_vec3 m_mul(const ph_mat3 *m, ph_vec3 v)
{
    return glms_mat3_mulv(*m, v);
}

static inline ph_vec3 rotate(ph_quat q, ph_vec3 v)
{
    return glms_quat_rotatev(q, v);
}

// Two unit vectors across unit n, with (u1, u2, n) right-handed.
static void across(ph_vec3 n, ph_vec3 *u1, ph_vec3 *u2)
{
    ph_vec3 t = fabsf(n.x) < 0.57735f ? ph_v3(1.0f, 0.0f, 0.0f) : ph_v3(0.0f, 1.0f, 0.0f);
    *u1 = glms_vec3_normalize(v_cross(t, n));
    *u2 = v_cross(n, *u1);
}

// An angle wrapped into (-pi, pi].
static float wrap_angle(float a)
{
    while (a > GLM_PIf)
        a -= 2.0f * GLM_PIf;
    while (a <= -GLM_PIf)
        a += 2.0f * GLM_PIf;
    return a;
}

// A joint's geometry at the bodies' current poses in the step.
struct joint_geometry
{
    ph_vec3 ra, rb;  // anchors from the centres of mass
    ph_vec3 d;       // anchor b - anchor a
    ph_quat qa, qb;  // frames
    ph_vec3 za, zb;  // the frames' z axes
    ph_vec3 u1, u2;  // across za
    ph_vec3 arm_a;   // body a's arm of a row along a direction fixed in frame a (prismatic): ra + d
    ph_vec3 axis;    // the axial row's direction (za; the distance joint's d / |d|)
    float axial;     // revolute angle, prismatic position, distance length
    bool axis_valid; // false for a distance joint of zero length
    // A spherical joint with a cone or twist range: za x zb, its length and the swing angle (cone); the twist
    // and the axis of its rate (twist_of; zero without a twist range).
    ph_vec3 swing_cross, twist_axis;
    float sin_swing, swing, twist;
    // The inverse of the point rows' block K at these anchors and the bodies' inverse inertias (its upper
    // half: xx, xy, xz, yy, yz, zz; 0 where K is singular), for the joints with point rows; the revolute
    // lock's 2x2 block on u1, u2 (k11, k12, k22); the effective masses of the axial row and of the cone and
    // twist limits (row_masses: they change with the inverse inertias and the directions only, so the sweeps
    // that keep a geometry keep them too).
    float point_inv[6];
    float hinge_k[3];
    // Joint friction's block, the inverse of Ia + Ib (upper half, as point_inv), where the joint has
    // friction.
    float friction_inv[6];
    float axial_mass, cone_mass, twist_mass;
};
typedef struct joint_geometry joint_geometry;

static float twist_of(const joint_geometry *g, ph_vec3 *out_axis);

// ---- Storage and lists -------------------------------------------------------------------------------

static ph_joint_id make_joint_id(const ph_world *world, int slot)
{
    ph_joint_id id = {(uint32_t)slot + 1u, ph_id_pool_generation(&world->joint_ids, slot)};
    return id;
}

static ph_body_id body_id_of(const ph_world *world, int slot)
{
    if (slot < 0)
        return PH_NULL_BODY_ID;
    ph_body_id id = {(uint32_t)slot + 1u, ph_id_pool_generation(&world->body_ids, slot)};
    return id;
}

static int joint_slot(const ph_world *world, ph_joint_id id, const char *fn)
{
    if (!world)
    {
        ph_log(PH_LOG_ERROR, "%s: world is NULL.", fn);
        return -1;
    }
    if (!ph_id_pool_check(&world->joint_ids, id.index1, id.generation))
    {
        ph_world_error(world, PH_ERR_STALE_ID,
                       "%s: joint id {%u, %u} does not name a live joint (removed, broken, or never created "
                       "here).",
                       fn, id.index1, id.generation);
        return -1;
    }
    return (int)id.index1 - 1;
}

// The next joint after `k` in the list of body `slot`.
static int next_of(const ph_joint *j, int slot)
{
    return j->a == slot ? j->next_a : j->next_b;
}

static void link(ph_world *world, int k)
{
    ph_joint *j = &world->joints[k];
    j->next_a = -1;
    if (j->a >= 0)
    {
        j->next_a = world->bodies[j->a].joint_head;
        world->bodies[j->a].joint_head = k;
    }
    j->next_b = world->bodies[j->b].joint_head;
    world->bodies[j->b].joint_head = k;
}

static void unlink_from(ph_world *world, int slot, int k)
{
    int *at = &world->bodies[slot].joint_head;
    while (*at >= 0)
    {
        ph_joint *j = &world->joints[*at];
        if (*at == k)
        {
            *at = next_of(j, slot);
            return;
        }
        at = j->a == slot ? &j->next_a : &j->next_b;
    }
}

static void wake_slot(ph_world *world, int slot)
{
    if (slot >= 0 && world->bodies[slot].type != PH_BODY_STATIC)
        ph_world_wake_island(world, slot);
}

static bool kinematic_end(const ph_world *world, const ph_joint *j)
{
    return (j->a >= 0 && world->bodies[j->a].type == PH_BODY_KINEMATIC) ||
           world->bodies[j->b].type == PH_BODY_KINEMATIC;
}

// Removes joint k: out of its bodies' lists, its bodies woken, its slot released.
static void remove_joint(ph_world *world, int k)
{
    ph_joint *j = &world->joints[k];
    world->kinematic_joints -= kinematic_end(world, j);
    if (j->a >= 0)
        unlink_from(world, j->a, k);
    unlink_from(world, j->b, k);
    wake_slot(world, j->a);
    wake_slot(world, j->b);
    memset(j, 0, sizeof *j);
    ph_id_pool_release(&world->joint_ids, k);
}

void ph_joints_destroy_all(ph_world *world)
{
    ph_array_free(world->joint_list, world->joint_list_capacity);
    ph_array_free(world->joints, world->joint_capacity);
    ph_array_free(world->joint_breaks, world->joint_break_capacity);
    world->joint_break_count = 0;
    ph_joint_batch *b = &world->joint_batch;
    ph_array_free(b->groups, b->group_capacity);
    ph_array_free(b->rest, b->rest_capacity);
    ph_array_free(b->used, b->used_capacity);
    ph_array_free(b->color, b->color_capacity);
    ph_array_free(b->order, b->order_capacity);
    ph_array_free(b->geometry, b->geometry_capacity);
    ph_array_free(b->limits, b->limit_capacity);
    memset(b, 0, sizeof *b);
    ph_id_pool_destroy(&world->joint_ids);
}

void ph_joints_remove_body(ph_world *world, int slot)
{
    while (world->bodies[slot].joint_head >= 0)
        remove_joint(world, world->bodies[slot].joint_head);
}

bool ph_joints_exclude(const ph_world *world, int a, int b)
{
    // Walk the shorter of the two lists? Both are short (a body has a few joints); a's will do.
    for (int k = world->bodies[a].joint_head; k >= 0;)
    {
        const ph_joint *j = &world->joints[k];
        if (((j->a == a && j->b == b) || (j->a == b && j->b == a)) && !j->def.collide_connected)
            return true;
        k = next_of(j, a);
    }
    return false;
}

static bool moves(const ph_world *world, int slot)
{
    return slot >= 0 && world->bodies[slot].type == PH_BODY_DYNAMIC;
}

static bool awake(const ph_world *world, int slot)
{
    return slot >= 0 && world->bodies[slot].type != PH_BODY_STATIC && world->bodies[slot].awake;
}

// Two jointed dynamic bodies share an island (ph_joints_join_islands), so they sleep and wake as one through
// the island's ring, and a joint's creation and removal wake both ends. Only a kinematic end stays awake
// while the dynamic body it drives may have fallen asleep (bodies never change type), so only worlds with
// such joints walk the joints here, each step.
void ph_joints_wake(ph_world *world)
{
    if (world->kinematic_joints == 0)
        return;
    for (int k = 0; k < world->joint_ids.slot_count; k++)
    {
        if (!ph_id_pool_is_live(&world->joint_ids, k))
            continue;
        const ph_joint *j = &world->joints[k];
        bool wa = awake(world, j->a), wb = awake(world, j->b);
        if (wa && !wb && moves(world, j->b))
            ph_world_wake_island(world, j->b);
        else if (wb && !wa && moves(world, j->a))
            ph_world_wake_island(world, j->a);
    }
}

void ph_joints_join_islands(const ph_world *world, int *parent, void (*join)(int *parent, int a, int b))
{
    for (int k = 0; k < world->joint_ids.slot_count; k++)
    {
        if (!ph_id_pool_is_live(&world->joint_ids, k))
            continue;
        const ph_joint *j = &world->joints[k];
        if (moves(world, j->a) && moves(world, j->b) && awake(world, j->a) && awake(world, j->b))
            join(parent, j->a, j->b);
    }
}

// ---- API -----------------------------------------------------------------------------------------------

ph_joint_def ph_default_joint_def(ph_joint_type type)
{
    ph_joint_def d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.frame_a = ph_transform_identity();
    d.frame_b = ph_transform_identity();
    d.length = d.min_length = d.max_length = 1.0f;
    d.spring_damping_ratio = 1.0f;
    d.angular_damping_ratio = 1.0f;
    d.internal_cookie = PH_JOINT_DEF_COOKIE;
    return d;
}

// A frame: its origin a position (world frames) or a local offset (body frames), its axes a unit quaternion.
static bool check_frame(const ph_world *world, const char *fn, const char *field_p, const char *field_q,
                        ph_transform *xf, bool in_world)
{
    bool p_ok = in_world ? ph_world_check_vec(world, fn, field_p, xf->p)
                         : ph_world_check_local_vec(world, fn, field_p, xf->p);
    return p_ok && ph_world_check_quat(world, fn, field_q, &xf->q);
}

static bool check_pair(const ph_world *world, const char *fn, const char *lo_name, float lo,
                       const char *hi_name, float hi)
{
    if (lo <= hi)
        return true;
    ph_world_error(world, PH_ERR_INVALID_ARG, "%s: %s (%g) is above %s (%g).", fn, lo_name, (double)lo,
                   hi_name, (double)hi);
    return false;
}

// The def's numbers, as the validity table of phys.h says; frames normalised.
static bool check_joint_def(const ph_world *world, ph_joint_def *d, const char *fn)
{
    const float big = PH_MAX_COORDINATE, huge = 3.0e38f;
    if ((int)d->type < 0 || d->type >= PH_JOINT_TYPE_COUNT)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG, "%s: type is %d; it must be a ph_joint_type.", fn,
                       (int)d->type);
        return false;
    }
    // Frame a of a joint to the world is in world coordinates.
    if (!check_frame(world, fn, "frame_a.p", "frame_a.q", &d->frame_a, PH_ID_IS_NULL(d->body_a)) ||
        !check_frame(world, fn, "frame_b.p", "frame_b.q", &d->frame_b, false) ||
        !ph_world_check_range(world, fn, "break_force", d->break_force, 0.0f, huge) ||
        !ph_world_check_range(world, fn, "break_torque", d->break_torque, 0.0f, huge) ||
        !ph_world_check_range(world, fn, "length", d->length, 0.0f, PH_MAX_SIZE) ||
        !ph_world_check_range(world, fn, "min_length", d->min_length, 0.0f, PH_MAX_SIZE) ||
        !ph_world_check_range(world, fn, "max_length", d->max_length, 0.0f, PH_MAX_SIZE) ||
        !check_pair(world, fn, "min_length", d->min_length, "max_length", d->max_length) ||
        !ph_world_check_range(world, fn, "spring_hertz", d->spring_hertz, 0.0f, PH_MAX_CONTACT_HERTZ) ||
        !ph_world_check_range(world, fn, "spring_damping_ratio", d->spring_damping_ratio, 0.0f, 1.0e6f) ||
        !ph_world_check_range(world, fn, "spring_target", d->spring_target, -big, big) ||
        !ph_world_check_range(world, fn, "angular_hertz", d->angular_hertz, 0.0f, PH_MAX_CONTACT_HERTZ) ||
        !ph_world_check_range(world, fn, "angular_damping_ratio", d->angular_damping_ratio, 0.0f, 1.0e6f) ||
        !ph_world_check_range(world, fn, "lower", d->lower, -big, big) ||
        !ph_world_check_range(world, fn, "upper", d->upper, -big, big) ||
        !check_pair(world, fn, "lower", d->lower, "upper", d->upper) ||
        !ph_world_check_range(world, fn, "motor_speed", d->motor_speed, -PH_MAX_SPEED, PH_MAX_SPEED) ||
        !ph_world_check_range(world, fn, "max_motor_force", d->max_motor_force, 0.0f, huge) ||
        !ph_world_check_range(world, fn, "max_friction_torque", d->max_friction_torque, 0.0f, huge) ||
        !ph_world_check_range(world, fn, "cone_angle", d->cone_angle, 0.0f, 0.999f * GLM_PIf) ||
        !ph_world_check_range(world, fn, "twist_lower", d->twist_lower, -0.999f * GLM_PIf,
                              0.999f * GLM_PIf) ||
        !ph_world_check_range(world, fn, "twist_upper", d->twist_upper, -0.999f * GLM_PIf,
                              0.999f * GLM_PIf) ||
        !check_pair(world, fn, "twist_lower", d->twist_lower, "twist_upper", d->twist_upper))
        return false;
    if (d->type == PH_JOINT_REVOLUTE && d->enable_limit &&
        !(d->lower >= -0.999f * GLM_PIf && d->upper <= 0.999f * GLM_PIf))
    {
        ph_world_error(
            world, PH_ERR_INVALID_ARG,
            "%s: a revolute limit [%g, %g] must lie inside (-pi, pi) (the angle is measured there).", fn,
            (double)d->lower, (double)d->upper);
        return false;
    }
    return true;
}

ph_joint_id ph_joint_create(ph_world *world, const ph_joint_def *def)
{
    const char *fn = "ph_joint_create";
    if (!world)
    {
        ph_log(PH_LOG_ERROR, "%s: world is NULL.", fn);
        return PH_NULL_JOINT_ID;
    }
    if (!def || def->internal_cookie != PH_JOINT_DEF_COOKIE)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG, "%s: def was not made by ph_default_joint_def.", fn);
        return PH_NULL_JOINT_ID;
    }
    if (!ph_world_can_change(world, fn))
        return PH_NULL_JOINT_ID;
    ph_joint_def d = *def;
    if (!check_joint_def(world, &d, fn))
        return PH_NULL_JOINT_ID;
    int b = ph_id_pool_check(&world->body_ids, d.body_b.index1, d.body_b.generation)
                ? (int)d.body_b.index1 - 1
                : -1;
    int a = -1;
    if (!PH_ID_IS_NULL(d.body_a))
        a = ph_id_pool_check(&world->body_ids, d.body_a.index1, d.body_a.generation)
                ? (int)d.body_a.index1 - 1
                : -2;
    if (b < 0 || a == -2)
    {
        ph_world_error(world, PH_ERR_STALE_ID, "%s: body_%s {%u, %u} does not name a live body.", fn,
                       b < 0 ? "b" : "a", b < 0 ? d.body_b.index1 : d.body_a.index1,
                       b < 0 ? d.body_b.generation : d.body_a.generation);
        return PH_NULL_JOINT_ID;
    }
    if (a == b)
    {
        ph_world_error(world, PH_ERR_INVALID_ARG, "%s: body_a and body_b are the same body.", fn);
        return PH_NULL_JOINT_ID;
    }
    if (!moves(world, a) && !moves(world, b))
    {
        ph_world_error(world, PH_ERR_INVALID_ARG,
                       "%s: neither body is dynamic; a joint must hold at least one dynamic body.", fn);
        return PH_NULL_JOINT_ID;
    }
    int slot = ph_id_pool_reserve(&world->joint_ids);
    if (slot < 0 || !ph_array_reserve(world->joints, world->joint_capacity, slot + 1))
    {
        ph_world_error(world, PH_ERR_OUT_OF_MEMORY, "%s: out of memory.", fn);
        return PH_NULL_JOINT_ID;
    }
    ph_joint *j = &world->joints[slot];
    memset(j, 0, sizeof *j);
    j->def = d;
    j->a = a;
    j->b = b;
    int taken = ph_id_pool_alloc(&world->joint_ids);
    PH_ASSERT(taken == slot);
    (void)taken;
    link(world, slot);
    world->kinematic_joints += kinematic_end(world, j);
    wake_slot(world, a);
    wake_slot(world, b);
    return make_joint_id(world, slot);
}

ph_status ph_joint_destroy(ph_world *world, ph_joint_id id)
{
    int k = joint_slot(world, id, "ph_joint_destroy");
    if (k < 0)
        return world ? PH_ERR_STALE_ID : PH_ERR_INVALID_ARG;
    if (!ph_world_can_change(world, "ph_joint_destroy"))
        return PH_ERR_INVALID_ARG;
    remove_joint(world, k);
    return PH_OK;
}

bool ph_joint_is_valid(const ph_world *world, ph_joint_id id)
{
    return world && ph_id_pool_check(&world->joint_ids, id.index1, id.generation);
}

int ph_world_get_joint_count(const ph_world *world)
{
    return world ? world->joint_ids.live_count : 0;
}

int ph_world_get_joints(const ph_world *world, ph_joint_id *out, int capacity)
{
    if (!world)
        return 0;
    int n = 0;
    for (int i = 0; i < world->joint_ids.slot_count; i++)
    {
        if (!ph_id_pool_is_live(&world->joint_ids, i))
            continue;
        if (out && n < capacity)
            out[n] = make_joint_id(world, i);
        n++;
    }
    return n;
}

ph_joint_def ph_joint_get_def(const ph_world *world, ph_joint_id id)
{
    ph_joint_def d;
    memset(&d, 0, sizeof d);
    int k = joint_slot(world, id, "ph_joint_get_def");
    if (k >= 0)
        d = world->joints[k].def;
    return d;
}

// Body slot's frame in the world (the world's own frame for slot -1).
static ph_transform frame_in_world(const ph_world *world, int slot, ph_transform local)
{
    if (slot < 0)
        return local;
    return ph_transform_mul(world->bodies[slot].xf, local);
}

ph_status ph_joint_get_info(const ph_world *world, ph_joint_id id, ph_joint_info *out)
{
    int k = joint_slot(world, id, "ph_joint_get_info");
    if (k < 0 || !out)
        return world && k >= 0 ? PH_ERR_INVALID_ARG : (world ? PH_ERR_STALE_ID : PH_ERR_INVALID_ARG);
    const ph_joint *j = &world->joints[k];
    ph_transform fa = frame_in_world(world, j->a, j->def.frame_a),
                 fb = frame_in_world(world, j->b, j->def.frame_b);
    memset(out, 0, sizeof *out);
    out->type = j->def.type;
    out->body_a = body_id_of(world, j->a);
    out->body_b = body_id_of(world, j->b);
    out->anchor_a = fa.p;
    out->anchor_b = fb.p;
    out->axis_a = rotate(fa.q, ph_v3(0, 0, 1));
    out->axis_b = rotate(fb.q, ph_v3(0, 0, 1));
    out->force = j->force;
    out->torque = j->torque;
    ph_quat rel = glms_quat_mul(glms_quat_conjugate(fa.q), fb.q);
    ph_vec3 d = v_sub(fb.p, fa.p);
    switch (j->def.type)
    {
    case PH_JOINT_REVOLUTE:
        out->angle = wrap_angle(2.0f * atan2f(rel.z, rel.w));
        break;
    case PH_JOINT_SPHERICAL:
        out->angle = acosf(fmaxf(-1.0f, fminf(1.0f, v_dot(out->axis_a, out->axis_b))));
        break;
    case PH_JOINT_PRISMATIC:
        out->position = v_dot(d, out->axis_a);
        break;
    case PH_JOINT_DISTANCE:
        out->position = glms_vec3_norm(d);
        break;
    default:
        break;
    }
    return PH_OK;
}

static ph_status joint_change(ph_world *world, ph_joint_id id, const char *fn, int *out_k)
{
    int k = joint_slot(world, id, fn);
    if (k < 0)
        return world ? PH_ERR_STALE_ID : PH_ERR_INVALID_ARG;
    if (!ph_world_can_change(world, fn))
        return PH_ERR_INVALID_ARG;
    *out_k = k;
    return PH_OK;
}

ph_status ph_joint_set_motor(ph_world *world, ph_joint_id id, bool enable, float speed, float max_force)
{
    const char *fn = "ph_joint_set_motor";
    int k = -1;
    ph_status s = joint_change(world, id, fn, &k);
    if (s != PH_OK)
        return s;
    if (!ph_world_check_range(world, fn, "speed", speed, -PH_MAX_SPEED, PH_MAX_SPEED) ||
        !ph_world_check_range(world, fn, "max_force", max_force, 0.0f, 3.0e38f))
        return PH_ERR_INVALID_ARG;
    ph_joint *j = &world->joints[k];
    j->def.enable_motor = enable;
    j->def.motor_speed = speed;
    j->def.max_motor_force = max_force;
    wake_slot(world, j->a);
    wake_slot(world, j->b);
    return PH_OK;
}

ph_status ph_joint_set_spring(ph_world *world, ph_joint_id id, bool enable, float hertz, float damping_ratio,
                              float target)
{
    const char *fn = "ph_joint_set_spring";
    int k = -1;
    ph_status s = joint_change(world, id, fn, &k);
    if (s != PH_OK)
        return s;
    if (!ph_world_check_range(world, fn, "hertz", hertz, 0.0f, PH_MAX_CONTACT_HERTZ) ||
        !ph_world_check_range(world, fn, "damping_ratio", damping_ratio, 0.0f, 1.0e6f) ||
        !ph_world_check_range(world, fn, "target", target, -PH_MAX_COORDINATE, PH_MAX_COORDINATE))
        return PH_ERR_INVALID_ARG;
    ph_joint *j = &world->joints[k];
    j->def.enable_spring = enable;
    j->def.spring_hertz = hertz;
    j->def.spring_damping_ratio = damping_ratio;
    j->def.spring_target = target;
    wake_slot(world, j->a);
    wake_slot(world, j->b);
    return PH_OK;
}

const ph_joint_break *ph_world_get_joint_breaks(const ph_world *world, int *out_count)
{
    if (out_count)
        *out_count = world ? world->joint_break_count : 0;
    return world ? world->joint_breaks : NULL;
}

// ---- Solver ----------------------------------------------------------------------------------------------

// The state the solver reads for body slot: its own while it is awake and not static, else a still body of
// infinite mass (the world, a static body; a sleeping one is woken before the step by ph_joints_wake).
static ph_body_state *state_of(ph_world *world, int slot, ph_body_state *still)
{
    if (slot >= 0 && world->bodies[slot].type != PH_BODY_STATIC && world->bodies[slot].awake)
        return &world->states[slot];
    return still;
}

static ph_body_state still_state(void)
{
    ph_body_state s;
    memset(&s, 0, sizeof s);
    s.dq = glms_quat_identity();
    return s;
}

// A spherical joint without cone or twist: its three point rows are all it has (the wide path's joints).
static bool plain_point(const ph_joint *j)
{
    return j->def.type == PH_JOINT_SPHERICAL && !j->def.enable_cone && !j->def.enable_twist &&
           !(j->def.max_friction_torque > 0.0f);
}

// The kinds of joint groups, each coloured apart: plain point joints (wide_joint_group), hinges and limited
// (or frictional) spherical joints (wide_limit_group).
enum
{
    KIND_POINT,
    KIND_HINGE,
    KIND_LIMITED,
    JOINT_KINDS
};

// The kind of group joint j goes in, or -1 for one at a time. A revolute joint's spring and motor rows stay
// there (they are soft at the joint's own frequency, or bounded by its force), and so does one whose spring
// or motor, switched off, left an impulse that its warm start still applies.
static int kind_of(const ph_joint *j)
{
    const ph_joint_def *d = &j->def;
    if (plain_point(j))
        return KIND_POINT;
    if (d->type == PH_JOINT_SPHERICAL)
        return KIND_LIMITED;
    if (d->type == PH_JOINT_REVOLUTE && !d->enable_motor && !(d->enable_spring && d->spring_hertz > 0.0f) &&
        j->axial_impulse == 0.0f && j->motor_impulse == 0.0f)
        return KIND_HINGE;
    return -1;
}

// The listed joints laid out for the sweeps (ph_joint_batch): on a wide path the joints of each kind
// (kind_of) coloured greedily in list order as ph_joints_prepare lists them (batch_color: the lowest colour
// free at both moving bodies among the joints of its kind, as solver_wide.c colours contacts), then sorted by
// kind and colour and cut into groups of WIDE lanes (batch_fill); the rest, and those whose bodies have used
// up every colour, one at a time. Without kernels or memory for the layout, every joint is solved one at a
// time.
static void batch_begin(ph_world *world)
{
    ph_joint_batch *b = &world->joint_batch;
    b->kernels = ph_wide_kernels_for(world->def.simd);
    b->group_count = b->colors = b->rest_count = b->limit_count = 0;
    b->limit_colors[0] = b->limit_colors[1] = 0;
    int n = world->joint_ids.live_count,
        slots = world->body_ids.slot_count > 0 ? world->body_ids.slot_count : 1;
    if (!b->kernels || n == 0 || !ph_array_reserve(b->rest, b->rest_capacity, n) ||
        !ph_array_reserve(b->color, b->color_capacity, n) ||
        !ph_array_reserve(b->order, b->order_capacity, n) ||
        !ph_array_reserve(b->used, b->used_capacity, JOINT_KINDS * slots))
    {
        b->kernels = NULL;
        return;
    }
    memset(b->used, 0, (size_t)JOINT_KINDS * (size_t)slots * sizeof *b->used);
}

// Listed joint i (slot k), whose bodies a and b move or not: its kind and colour (kind * PH_JOINT_MAX_COLORS
// + colour), or the one-at-a-time list.
static void batch_color(ph_world *world, int i, int k, bool move_a, bool move_b)
{
    ph_joint_batch *b = &world->joint_batch;
    if (!b->kernels)
        return;
    const ph_joint *j = &world->joints[k];
    int kind = kind_of(j), slots = world->body_ids.slot_count > 0 ? world->body_ids.slot_count : 1;
    int c =
        kind >= 0 ? wide_take_color(b->used + (size_t)kind * (size_t)slots, j->a, j->b, move_a, move_b) : -1;
    b->color[i] = c < 0 ? -1 : kind * PH_JOINT_MAX_COLORS + c;
    if (c < 0)
        b->rest[b->rest_count++] = k;
}

// Lane `lane` of group g takes joint j (slot k): its bodies, the step's anchors and centres and its
// accumulated point impulse, the fields a point group (wide_joint_group) and a limit group (wide_limit_group)
// both have, under the same names (a macro so that one body serves both layouts).
#define FILL_POINT_FIELDS(g, lane, j, k)                                                                     \
    do                                                                                                       \
    {                                                                                                        \
        for (int r_ = 0; r_ < 3; r_++)                                                                       \
        {                                                                                                    \
            (g)->ra[r_][lane] = (j)->ra.raw[r_];                                                             \
            (g)->rb[r_][lane] = (j)->rb.raw[r_];                                                             \
            (g)->delta_center[r_][lane] = (j)->delta_center.raw[r_];                                         \
            (g)->impulse[r_][lane] = (j)->point_impulse.raw[r_];                                             \
            (g)->soft[r_][lane] = (j)->soft[r_];                                                             \
        }                                                                                                    \
        (g)->state_a[lane] = (j)->sa;                                                                        \
        (g)->state_b[lane] = (j)->sb;                                                                        \
        (g)->joint[lane] = (k);                                                                              \
        (g)->still_a |= (j)->sa->inv_mass > 0.0f ? 0 : 1 << (lane);                                          \
        (g)->still_b |= (j)->sb->inv_mass > 0.0f ? 0 : 1 << (lane);                                          \
        (g)->lanes = (lane) + 1;                                                                             \
    } while (0)

// Lane `lane` of point group g takes joint j (slot k).
static void fill_point_lane(wide_joint_group *g, int lane, const ph_joint *j, int k)
{
    FILL_POINT_FIELDS(g, lane, j, k);
}

// Lane `lane` of limit group g takes joint j (slot k): its bodies, the step's frames, its limits and its
// accumulated impulses; its geometry waits for the step's first warm start (limits_measure). A lane left
// empty (batch_fill) solves nothing.
static void fill_limit_lane(wide_limit_group *g, int lane, const ph_joint *j, int k, float h)
{
    const ph_joint_def *d = &j->def;
    bool hinge = d->type == PH_JOINT_REVOLUTE;
    float limit[3] = {hinge ? j->lower_impulse : j->cone_impulse,
                      hinge ? j->upper_impulse : j->twist_lower_impulse,
                      hinge ? 0.0f : j->twist_upper_impulse};
    float bound[3] = {hinge ? d->lower : d->cone_angle, hinge ? d->upper : d->twist_lower,
                      hinge ? 0.0f : d->twist_upper};
    bool enabled[3] = {hinge ? d->enable_limit : d->enable_cone, hinge ? d->enable_limit : d->enable_twist,
                       !hinge && d->enable_twist};
    FILL_POINT_FIELDS(g, lane, j, k);
    for (int r = 0; r < 3; r++)
    {
        g->lock_impulse[r][lane] = hinge ? j->angular_impulse.raw[r] : 0.0f;
        g->limit_impulse[r][lane] = limit[r];
        g->bound[r][lane] = bound[r];
        g->enabled[r][lane] = enabled[r] ? -1 : 0;
    }
    for (int c = 0; c < 4; c++)
    {
        g->qa[c][lane] = j->qa.raw[c];
        g->qb[c][lane] = j->qb.raw[c];
    }
    g->friction[lane] = d->max_friction_torque * h;
    for (int r = 0; r < 3; r++)
        g->friction_impulse[r][lane] = j->friction_impulse.raw[r];
}

// Joints ahead whose step fields batch_fill asks the caches for: it reads the joints in colour order, which
// jumps through the 448-byte joints (the load of the state pointers was the largest single share of
// ph_joints_prepare's time in joint_grid's 20,000 joints).
#define FILL_AHEAD 4

static void prefetch_fill(const ph_joint *j)
{
    PH_PREFETCH(&j->ra);
    PH_PREFETCH(&j->delta_center);
    PH_PREFETCH(&j->sb);
    PH_PREFETCH(&j->point_impulse);
}

static void batch_fill(ph_world *world, float h)
{
    ph_joint_batch *b = &world->joint_batch;
    if (!b->kernels)
        return;
    enum
    {
        KEYS = JOINT_KINDS * PH_JOINT_MAX_COLORS
    };
    int n = world->joint_list_count, first[KEYS + 1];
    memset(first, 0, sizeof first);
    for (int i = 0; i < n; i++)
        if (b->color[i] >= 0)
            first[b->color[i] + 1]++;
    int groups[JOINT_KINDS] = {0};
    for (int key = 0; key < KEYS; key++)
        groups[key / PH_JOINT_MAX_COLORS] += (first[key + 1] + WIDE - 1) / WIDE;
    int limits = groups[KIND_HINGE] + groups[KIND_LIMITED];
    if ((groups[KIND_POINT] > 0 && !ph_array_reserve(b->groups, b->group_capacity, groups[KIND_POINT])) ||
        (limits > 0 && !ph_array_reserve(b->limits, b->limit_capacity, limits)))
    {
        // Solved one at a time, in list order.
        b->kernels = NULL;
        return;
    }
    // The grouped joints sorted by kind and colour: first[key + 1] becomes the end of that key in `order`.
    for (int key = 1; key <= KEYS; key++)
        first[key] += first[key - 1];
    for (int i = 0; i < n; i++)
        if (b->color[i] >= 0)
            b->order[first[b->color[i]]++] = i;
    // Each key's joints cut into runs of WIDE (its last group may be partial); a group never spans two.
    // Greedy colouring leaves no colour of a kind below its highest empty, so each colour starts a group.
    int grouped = n - b->rest_count;
    wide_joint_group *pg = NULL;
    wide_limit_group *lg = NULL;
    for (int p = 0, lane = WIDE; p < grouped; p++, lane++)
    {
        int i = b->order[p], key = b->color[i];
        int kind = key / PH_JOINT_MAX_COLORS, c = key % PH_JOINT_MAX_COLORS;
        bool new_key = p == 0 || key != b->color[b->order[p - 1]];
        if (lane == WIDE || new_key)
        {
            lane = 0;
            if (kind == KIND_POINT)
            {
                if (new_key)
                    b->color_first[c] = b->group_count;
                b->colors = c + 1;
                pg = &b->groups[b->group_count++];
                pg->lanes = pg->still_a = pg->still_b = 0;
            }
            else
            {
                int l = kind - KIND_HINGE;
                if (new_key)
                    b->limit_first[l][c] = b->limit_count;
                b->limit_colors[l] = c + 1;
                lg = &b->limits[b->limit_count++];
                memset(lg, 0, sizeof *lg);
                lg->hinge = kind == KIND_HINGE;
            }
        }
        if (p + FILL_AHEAD < grouped)
            prefetch_fill(&world->joints[world->joint_list[b->order[p + FILL_AHEAD]]]);
        int k = world->joint_list[i];
        if (kind == KIND_POINT)
            fill_point_lane(pg, lane, &world->joints[k], k);
        else
            fill_limit_lane(lg, lane, &world->joints[k], k, h);
    }
    b->color_first[b->colors] = b->group_count;
    b->limit_first[0][b->limit_colors[0]] = groups[KIND_HINGE];
    b->limit_first[1][b->limit_colors[1]] = b->limit_count;
    // Unused lanes read lane 0's bodies, with zero anchors and impulses; they are never written back.
    for (int gi = 0; gi < b->group_count; gi++)
    {
        wide_joint_group *u = &b->groups[gi];
        for (int lane = u->lanes; lane < WIDE; lane++)
        {
            for (int r = 0; r < 3; r++)
                u->ra[r][lane] = u->rb[r][lane] = u->delta_center[r][lane] = u->impulse[r][lane] =
                    u->soft[r][lane] = 0.0f;
            u->state_a[lane] = u->state_a[0];
            u->state_b[lane] = u->state_b[0];
            u->joint[lane] = -1;
        }
    }
    for (int gi = 0; gi < b->limit_count; gi++)
    {
        wide_limit_group *u = &b->limits[gi];
        for (int lane = u->lanes; lane < WIDE; lane++)
        {
            u->qa[3][lane] = u->qb[3][lane] = 1.0f; // unit quaternions keep the lane's geometry finite
            u->state_a[lane] = u->state_a[0];
            u->state_b[lane] = u->state_b[0];
            u->joint[lane] = -1;
        }
    }
}

// The spring of joint j's rigid rows in this step's biased sweeps, at the sub-step h: JOINT_HERTZ, or what
// the joint's own load needs (ph_joints_finish: the larger of its held load and its last step's force), up
// to PH_JOINT_LOADED_HERTZ_FRACTION of the sub-step rate. Each joint takes its own: the world's most loaded
// joint sets the sub-steps (ph_solve), not the stiffness of every other. Stiff springs between bodies that
// also touch others feed energy into slow modes (solver.c says so of contacts, past w h = 1.1): with every
// joint at the most loaded one's spring (w h = 1.88), a frictionless ragdoll's forearm resting on its chest
// by one contact rocked at a steady 0.085 rad/s (a 4.8 Hz mode) for 40 s against its 2/s damping; started
// again from the same state with each joint at its own spring, it stopped and the heap of 100 slept within
// 12 s. The load is followed up at once: a spring that followed only the held load (low-passed over
// JOINT_STEADY_TIME) was soft while a sheet of joints took up its weight, and the 30 x 30 grid crept
// 0.18 mm from 2 s to 4 s as the springs stiffened (joints_grid_hangs_still).
static void set_rows_spring(ph_joint *j, float h)
{
    float need = j->need_hertz;
    float hertz = need > JOINT_HERTZ ? fminf(need, PH_JOINT_LOADED_HERTZ_FRACTION / h)
                                     : fminf(JOINT_HERTZ, JOINT_MAX_HERTZ_FRACTION / h);
    softness s = ph_make_soft(hertz, JOINT_DAMPING_RATIO, h);
    j->soft[0] = s.bias_rate;
    j->soft[1] = s.mass_scale;
    j->soft[2] = s.impulse_scale;
}

int ph_joints_prepare(ph_world *world, uint8_t *constrained, float h, float warm_scale)
{
    world->joint_still = still_state();
    world->joint_list_count = 0;
    if (!ph_array_reserve(world->joint_list, world->joint_list_capacity, world->joint_ids.live_count))
    {
        ph_log(PH_LOG_ERROR, "The step could not list its joints (out of memory); they are not solved.");
        for (int k = 0; k < world->joint_ids.slot_count; k++)
            world->joints[k].active = false;
        return 0;
    }
    int active = 0;
    batch_begin(world);
    for (int k = 0; k < world->joint_ids.slot_count; k++)
    {
        if (!ph_id_pool_is_live(&world->joint_ids, k))
            continue;
        ph_joint *j = &world->joints[k];
        bool move_a = moves(world, j->a) && awake(world, j->a),
             move_b = moves(world, j->b) && awake(world, j->b);
        j->active = move_a || move_b;
        if (!j->active)
            continue;
        batch_color(world, world->joint_list_count, k, move_a, move_b);
        world->joint_list[world->joint_list_count++] = k;
        j->sa = state_of(world, j->a, &world->joint_still);
        j->sb = state_of(world, j->b, &world->joint_still);
        active++;
        if (constrained)
        {
            if (j->a >= 0)
                constrained[j->a] = 1;
            constrained[j->b] = 1;
        }
        ph_vec3 ca = j->a >= 0 ? world->bodies[j->a].center : glms_vec3_zero();
        ph_vec3 cb = world->bodies[j->b].center;
        ph_transform fa = frame_in_world(world, j->a, j->def.frame_a);
        ph_transform fb = frame_in_world(world, j->b, j->def.frame_b);
        j->ra = v_sub(fa.p, ca);
        j->rb = v_sub(fb.p, cb);
        j->qa = fa.q;
        j->qb = fb.q;
        j->delta_center = v_sub(cb, ca);
        set_rows_spring(j, h);
        j->point_impulse = v_scale(j->point_impulse, warm_scale);
        j->angular_impulse = v_scale(j->angular_impulse, warm_scale);
        j->axial_impulse *= warm_scale;
        j->motor_impulse *= warm_scale;
        j->lower_impulse *= warm_scale;
        j->upper_impulse *= warm_scale;
        j->cone_impulse *= warm_scale;
        j->twist_lower_impulse *= warm_scale;
        j->twist_upper_impulse *= warm_scale;
        j->friction_impulse = v_scale(j->friction_impulse, warm_scale);
    }
    batch_fill(world, h);
    ph_joint_batch *b = &world->joint_batch;
    int solo = b->kernels ? b->rest_count : world->joint_list_count;
    if (solo > 0 && !ph_array_reserve(b->geometry, b->geometry_capacity, solo))
        ph_array_free(b->geometry, b->geometry_capacity); // each sweep works its geometry out
    return active;
}

// Velocities and inverse masses of the pair, loaded once per joint and written back after its rows.
typedef struct pair
{
    ph_vec3 va, wa, vb, wb;
    float ma, mb;
    const ph_mat3 *ia, *ib; // the states' world inverse inertias
    float sa, sb;           // their scales where they are multiples of the identity, else -1
} pair;

static pair load(const ph_body_state *sa, const ph_body_state *sb)
{
    pair p = {sa->v,
              sa->w,
              sb->v,
              sb->w,
              sa->inv_mass,
              sb->inv_mass,
              &sa->inv_inertia,
              &sb->inv_inertia,
              sa->inv_inertia_scale,
              sb->inv_inertia_scale};
    return p;
}

// The anchors from the centres of mass at the bodies' current poses in the step (out_ra, out_rb), and the gap
// anchor b - anchor a.
static ph_vec3 anchors_of(const ph_joint *j, const ph_body_state *sa, const ph_body_state *sb,
                          ph_vec3 *out_ra, ph_vec3 *out_rb)
{
    *out_ra = rotate(sa->dq, j->ra);
    *out_rb = rotate(sb->dq, j->rb);
    return v_add(v_add(v_sub(sb->dp, sa->dp), j->delta_center), v_sub(*out_rb, *out_ra));
}

static joint_geometry geometry_of(const ph_joint *j, const ph_body_state *sa, const ph_body_state *sb)
{
    joint_geometry g;
    g.d = anchors_of(j, sa, sb, &g.ra, &g.rb);
    g.arm_a = g.ra;
    g.axis_valid = true;
    g.axial = 0.0f;
    // A plain ball joint reads the anchors only (a joint grid is ten thousand of them).
    if (j->def.type == PH_JOINT_SPHERICAL && !j->def.enable_cone && !j->def.enable_twist)
        return g;
    g.qa = glms_quat_mul(sa->dq, j->qa);
    g.qb = glms_quat_mul(sb->dq, j->qb);
    g.za = rotate(g.qa, ph_v3(0, 0, 1));
    g.zb = rotate(g.qb, ph_v3(0, 0, 1));
    across(g.za, &g.u1, &g.u2);
    g.arm_a = g.ra;
    g.axis = g.za;
    g.axial = 0.0f;
    g.axis_valid = true;
    switch (j->def.type)
    {
    case PH_JOINT_SPHERICAL:
        g.swing_cross = v_cross(g.za, g.zb);
        g.sin_swing = glms_vec3_norm(g.swing_cross);
        g.swing = j->def.enable_cone ? atan2f(g.sin_swing, v_dot(g.za, g.zb)) : 0.0f;
        g.twist_axis = glms_vec3_zero();
        g.twist = j->def.enable_twist ? twist_of(&g, &g.twist_axis) : 0.0f;
        break;
    case PH_JOINT_REVOLUTE:
    {
        ph_quat rel = glms_quat_mul(glms_quat_conjugate(g.qa), g.qb);
        g.axial = wrap_angle(2.0f * atan2f(rel.z, rel.w));
        break;
    }
    case PH_JOINT_PRISMATIC:
        g.arm_a = v_add(g.ra, g.d);
        g.axial = v_dot(g.d, g.za);
        break;
    case PH_JOINT_DISTANCE:
    {
        float len = glms_vec3_norm(g.d);
        g.axial = len;
        g.axis_valid = len > JOINT_MIN_LENGTH;
        g.axis = g.axis_valid ? v_scale(g.d, 1.0f / len) : g.za;
        break;
    }
    default:
        break;
    }
    return g;
}

// Vector w with its length capped at max.
static ph_vec3 capped_spin(ph_vec3 w, float max)
{
    float w2 = v_dot(w, w);
    return w2 > max * max ? v_scale(w, max / sqrtf(w2)) : w;
}

// Writes the pair's velocities back, each spin capped at a quarter turn per sub-step and each speed below
// the validity table's PH_MAX_SPEED. A joint can ask for any velocity of a light body on a long arm (a 1 mm
// ball pinned 4.5 m from its centre and twisted 150 degrees by its limits reached 6e8 rad/s in one step,
// then 1e8 m/s, then NaN; found by the API fuzzer): such a joint cannot be held, but the bodies stay finite,
// as the cap the velocity update applies before the sweeps holds for what the sweeps leave too.
static void store(const pair *p, ph_body_state *sa, ph_body_state *sb, const ph_body_state *still,
                  float max_spin)
{
    const float max_speed = 0.5f * PH_MAX_SPEED;
    if (sa != still)
    {
        sa->v = capped_spin(p->va, max_speed);
        sa->w = capped_spin(p->wa, max_spin);
    }
    if (sb != still)
    {
        sb->v = capped_spin(p->vb, max_speed);
        sb->w = capped_spin(p->wb, max_spin);
    }
}

// A linear row along u with arms arm_a, arm_b: its speed, effective mass and how an impulse moves the pair.
static float linear_speed(const pair *p, ph_vec3 u, ph_vec3 arm_a, ph_vec3 arm_b)
{
    return v_dot(u, v_sub(v_add(p->vb, v_cross(p->wb, arm_b)), v_add(p->va, v_cross(p->wa, arm_a))));
}

static float linear_mass(const pair *p, ph_vec3 u, ph_vec3 arm_a, ph_vec3 arm_b)
{
    ph_vec3 rua = v_cross(arm_a, u), rub = v_cross(arm_b, u);
    float k = p->ma + p->mb + v_dot(rua, m_mul(p->ia, rua)) + v_dot(rub, m_mul(p->ib, rub));
    return k > 0.0f ? 1.0f / k : 0.0f;
}

static void apply_linear(pair *p, ph_vec3 impulse, ph_vec3 arm_a, ph_vec3 arm_b)
{
    p->va = v_sub(p->va, v_scale(impulse, p->ma));
    p->wa = v_sub(p->wa, m_mul(p->ia, v_cross(arm_a, impulse)));
    p->vb = v_add(p->vb, v_scale(impulse, p->mb));
    p->wb = v_add(p->wb, m_mul(p->ib, v_cross(arm_b, impulse)));
}

static float angular_mass(const pair *p, ph_vec3 u)
{
    float k = v_dot(u, m_mul(p->ia, u)) + v_dot(u, m_mul(p->ib, u));
    return k > 0.0f ? 1.0f / k : 0.0f;
}

static void apply_angular(pair *p, ph_vec3 impulse)
{
    p->wa = v_sub(p->wa, m_mul(p->ia, impulse));
    p->wb = v_add(p->wb, m_mul(p->ib, impulse));
}

// The softness of a row: its spring in the biased sweep, rigid without bias in the relax sweep.
typedef struct row_soft
{
    float bias_rate, mass_scale, impulse_scale;
} row_soft;

static row_soft soft_of(float hertz, float zeta, float h)
{
    softness s = ph_make_soft(hertz, zeta, h);
    row_soft r = {s.bias_rate, s.mass_scale, s.impulse_scale};
    return r;
}

static const row_soft RIGID = {0.0f, 1.0f, 0.0f};

// One scalar row: speed along it, error C, effective mass; returns the impulse to add to `acc` (clamped by
// [lo, hi] on the accumulated value).
static float solve_row(float speed, float c, float mass, row_soft s, float *acc, float lo, float hi)
{
    float impulse = -mass * s.mass_scale * (speed + s.bias_rate * c) - s.impulse_scale * *acc;
    float total = fminf(fmaxf(*acc + impulse, lo), hi);
    impulse = total - *acc;
    *acc = total;
    return impulse;
}

// A one-sided row keeping c >= 0: apart (c > 0) it may close by c in this sub-step and no more (both
// sweeps); inside, the joint's spring pushes it out in the biased sweep and the relax sweep holds it.
static float solve_limit(float speed, float c, float mass, row_soft joint, bool use_bias, float inv_h,
                         float *acc)
{
    row_soft s = c > 0.0f ? (row_soft){inv_h, 1.0f, 0.0f} : use_bias ? joint : RIGID;
    return solve_row(speed, c, mass, s, acc, 0.0f, 3.0e38f);
}

// The 2x2 solve of the block rows (K x = b); a singular block gives 0.

static void solve2(float k11, float k12, float k22, float b1, float b2, float *x1, float *x2)
{
    float det = k11 * k22 - k12 * k12;
    if (!(fabsf(det) > 1.0e-30f))
    {
        *x1 = *x2 = 0.0f;
        return;
    }
    float inv = 1.0f / det;
    *x1 = inv * (k22 * b1 - k12 * b2);
    *x2 = inv * (k11 * b2 - k12 * b1);
}

// K of the point rows: (ma + mb) 1 - [ra] Ia [ra] - [rb] Ib [rb]. A body whose inverse inertia is s 1
// (a ball, a cube) adds s (|r|^2 1 - r r^T); another adds [r]^T I [r] column by column.
static void add_arm(ph_mat3 *k, const ph_mat3 *inv_inertia, float scale, ph_vec3 r)
{
    if (scale >= 0.0f)
    {
        float r2 = v_dot(r, r);
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 3; i++)
                k->raw[c][i] += scale * ((c == i ? r2 : 0.0f) - r.raw[c] * r.raw[i]);
        return;
    }
    for (int c = 0; c < 3; c++)
    {
        ph_vec3 e = glms_vec3_zero();
        e.raw[c] = 1.0f;
        ph_vec3 col = v_cross(m_mul(inv_inertia, v_cross(r, e)), r);
        k->raw[c][0] += col.x;
        k->raw[c][1] += col.y;
        k->raw[c][2] += col.z;
    }
}

static ph_mat3 point_mass_matrix(const pair *p, ph_vec3 ra, ph_vec3 rb)
{
    ph_mat3 k = glms_mat3_zero();
    k.raw[0][0] = k.raw[1][1] = k.raw[2][2] = p->ma + p->mb;
    add_arm(&k, p->ia, p->sa, ra);
    add_arm(&k, p->ib, p->sb, rb);
    return k;
}

// The inverse of a symmetric K by its cofactors, its upper half: xx, xy, xz, yy, yz, zz (0 when singular).
static void symmetric_inverse(ph_mat3 k, float out[6])
{
    float a = k.raw[0][0], d = k.raw[1][1], f = k.raw[2][2];
    float bb = k.raw[1][0], c = k.raw[2][0], e = k.raw[2][1];
    float c00 = d * f - e * e, c01 = c * e - bb * f, c02 = bb * e - c * d;
    float det = a * c00 + bb * c01 + c * c02;
    float inv = fabsf(det) > 1.0e-30f ? 1.0f / det : 0.0f;
    out[0] = inv * c00;
    out[1] = inv * c01;
    out[2] = inv * c02;
    out[3] = inv * (a * f - c * c);
    out[4] = inv * (bb * c - a * e);
    out[5] = inv * (a * d - bb * bb);
}

// m b for a symmetric m given by its upper half (symmetric_inverse).
static ph_vec3 symmetric_mulv(const float m[6], ph_vec3 b)
{
    return ph_v3(m[0] * b.x + m[1] * b.y + m[2] * b.z, m[1] * b.x + m[3] * b.y + m[4] * b.z,
                 m[2] * b.x + m[4] * b.y + m[5] * b.z);
}

static float angular_mass(const pair *p, ph_vec3 u);
static float linear_mass(const pair *p, ph_vec3 u, ph_vec3 arm_a, ph_vec3 arm_b);

// The blocks and effective masses of joint j's rows (joint_geometry says which) from the pair's inverse
// masses and inertias at g.
static void row_masses(const ph_joint *j, const pair *p, joint_geometry *g)
{
    const ph_joint_def *d = &j->def;
    if (d->type != PH_JOINT_DISTANCE && d->type != PH_JOINT_PRISMATIC)
        symmetric_inverse(point_mass_matrix(p, g->ra, g->rb), g->point_inv);
    if (d->type == PH_JOINT_REVOLUTE)
    {
        ph_vec3 iu1a = m_mul(p->ia, g->u1), iu2a = m_mul(p->ia, g->u2);
        ph_vec3 iu1b = m_mul(p->ib, g->u1), iu2b = m_mul(p->ib, g->u2);
        g->hinge_k[0] = v_dot(g->u1, iu1a) + v_dot(g->u1, iu1b);
        g->hinge_k[1] = v_dot(g->u1, iu2a) + v_dot(g->u1, iu2b);
        g->hinge_k[2] = v_dot(g->u2, iu2a) + v_dot(g->u2, iu2b);
    }
    if (d->type == PH_JOINT_REVOLUTE)
        g->axial_mass = angular_mass(p, g->axis);
    else if (d->type == PH_JOINT_PRISMATIC || (d->type == PH_JOINT_DISTANCE && g->axis_valid))
        g->axial_mass = linear_mass(p, g->axis, g->arm_a, g->rb);
    if (d->type == PH_JOINT_SPHERICAL && d->enable_cone && g->sin_swing > 1.0e-6f)
        g->cone_mass = angular_mass(p, v_scale(g->swing_cross, -1.0f / g->sin_swing));
    if (d->type == PH_JOINT_SPHERICAL && d->enable_twist)
        g->twist_mass = angular_mass(p, g->twist_axis);
    if (d->max_friction_torque > 0.0f)
    {
        ph_mat3 k;
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 3; i++)
                k.raw[c][i] = p->ia->raw[c][i] + p->ib->raw[c][i];
        symmetric_inverse(k, g->friction_inv);
    }
}

// Joint friction (spherical and revolute): an angular impulse on the bodies' relative spin wb - wa, the
// inverse of Ia + Ib stopping it in one solve, its accumulated value held inside a ball of
// max_friction_torque times the sub-step (Coulomb's law for a torque: the joint sticks below it and slides
// against it above). A velocity row, the same in both sweeps, solved first, as a motor is.
static void solve_friction(ph_joint *j, pair *p, const joint_geometry *g, float h)
{
    float most = j->def.max_friction_torque * h;
    ph_vec3 x = symmetric_mulv(g->friction_inv, v_sub(p->wa, p->wb));
    ph_vec3 total = v_add(j->friction_impulse, x);
    float n2 = v_dot(total, total);
    if (n2 > most * most)
        total = v_scale(total, most / sqrtf(n2));
    apply_angular(p, v_sub(total, j->friction_impulse));
    j->friction_impulse = total;
}

static void solve_point(ph_joint *j, pair *p, const joint_geometry *g, row_soft s)
{
    ph_vec3 cdot = v_sub(v_add(p->vb, v_cross(p->wb, g->rb)), v_add(p->va, v_cross(p->wa, g->ra)));
    ph_vec3 rhs = v_add(v_scale(cdot, s.mass_scale), v_scale(g->d, s.mass_scale * s.bias_rate));
    ph_vec3 x = symmetric_mulv(g->point_inv, rhs);
    ph_vec3 impulse = v_sub(v_scale(x, -1.0f), v_scale(j->point_impulse, s.impulse_scale));
    j->point_impulse = v_add(j->point_impulse, impulse);
    apply_linear(p, impulse, g->ra, g->rb);
}

// The rotation from frame a to frame b as a small-angle vector (world).
static ph_vec3 lock_error(const joint_geometry *g)
{
    ph_quat r = glms_quat_mul(g->qb, glms_quat_conjugate(g->qa));
    float sign = r.w < 0.0f ? -2.0f : 2.0f;
    return ph_v3(sign * r.x, sign * r.y, sign * r.z);
}

static void solve_lock(ph_joint *j, pair *p, const joint_geometry *g, row_soft s)
{
    ph_vec3 cdot = v_sub(p->wb, p->wa);
    ph_vec3 rhs = v_add(v_scale(cdot, s.mass_scale), v_scale(lock_error(g), s.mass_scale * s.bias_rate));
    ph_mat3 k;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            k.raw[r][c] = p->ia->raw[r][c] + p->ib->raw[r][c];
    float inv[6];
    symmetric_inverse(k, inv);
    ph_vec3 x = symmetric_mulv(inv, rhs);
    ph_vec3 impulse = v_sub(v_scale(x, -1.0f), v_scale(j->angular_impulse, s.impulse_scale));
    j->angular_impulse = v_add(j->angular_impulse, impulse);
    apply_angular(p, impulse);
}

// The revolute joint's two rows keeping z axes aligned (2x2 block). Their accumulated impulse is kept as a
// world vector across za, not as two numbers on the axes across it: those axes (across()) jump when za
// turns past the choice of reference, and numbers kept on the old ones would be applied on the new.
static void solve_hinge_lock(ph_joint *j, pair *p, const joint_geometry *g, row_soft s)
{
    ph_vec3 e = v_cross(g->za, g->zb);
    ph_vec3 w = v_sub(p->wb, p->wa);
    float c1 = v_dot(e, g->u1), c2 = v_dot(e, g->u2);
    float b1 = s.mass_scale * (v_dot(w, g->u1) + s.bias_rate * c1);
    float b2 = s.mass_scale * (v_dot(w, g->u2) + s.bias_rate * c2);
    float x1, x2;
    solve2(g->hinge_k[0], g->hinge_k[1], g->hinge_k[2], b1, b2, &x1, &x2);
    float a1 = v_dot(j->angular_impulse, g->u1), a2 = v_dot(j->angular_impulse, g->u2);
    float i1 = -x1 - s.impulse_scale * a1, i2 = -x2 - s.impulse_scale * a2;
    j->angular_impulse = v_add(v_scale(g->u1, a1 + i1), v_scale(g->u2, a2 + i2));
    apply_angular(p, v_add(v_scale(g->u1, i1), v_scale(g->u2, i2)));
}

// The prismatic joint's two rows keeping b's anchor on a's axis; their impulse kept as a world vector across
// za (solve_hinge_lock says why).
static void solve_across(ph_joint *j, pair *p, const joint_geometry *g, row_soft s)
{
    ph_vec3 arm_a = g->arm_a, arm_b = g->rb;
    float c1 = v_dot(g->d, g->u1), c2 = v_dot(g->d, g->u2);
    float b1 = s.mass_scale * (linear_speed(p, g->u1, arm_a, arm_b) + s.bias_rate * c1);
    float b2 = s.mass_scale * (linear_speed(p, g->u2, arm_a, arm_b) + s.bias_rate * c2);
    ph_vec3 a1 = v_cross(arm_a, g->u1), a2 = v_cross(arm_a, g->u2);
    ph_vec3 b1v = v_cross(arm_b, g->u1), b2v = v_cross(arm_b, g->u2);
    float m = p->ma + p->mb;
    float k11 = m + v_dot(a1, m_mul(p->ia, a1)) + v_dot(b1v, m_mul(p->ib, b1v));
    float k12 = v_dot(a1, m_mul(p->ia, a2)) + v_dot(b1v, m_mul(p->ib, b2v));
    float k22 = m + v_dot(a2, m_mul(p->ia, a2)) + v_dot(b2v, m_mul(p->ib, b2v));
    float x1, x2;
    solve2(k11, k12, k22, b1, b2, &x1, &x2);
    float acc1 = v_dot(j->point_impulse, g->u1), acc2 = v_dot(j->point_impulse, g->u2);
    float i1 = -x1 - s.impulse_scale * acc1, i2 = -x2 - s.impulse_scale * acc2;
    j->point_impulse = v_add(v_scale(g->u1, acc1 + i1), v_scale(g->u2, acc2 + i2));
    apply_linear(p, v_add(v_scale(g->u1, i1), v_scale(g->u2, i2)), arm_a, arm_b);
}

// The axial rows (spring, motor, limits) of a revolute, prismatic or distance joint. `angular`: a hinge
// (rows about g->axis); otherwise linear rows along it with arms arm_a, rb.
static void solve_axial(ph_joint *j, pair *p, const joint_geometry *g, row_soft joint, bool use_bias, float h)
{
    const ph_joint_def *d = &j->def;
    bool angular = d->type == PH_JOINT_REVOLUTE;
    ph_vec3 u = g->axis;
    float mass = g->axial_mass;
#define AXIAL_SPEED() (angular ? v_dot(u, v_sub(p->wb, p->wa)) : linear_speed(p, u, g->arm_a, g->rb))
#define AXIAL_APPLY(x)                                                                                       \
    do                                                                                                       \
    {                                                                                                        \
        if (angular)                                                                                         \
            apply_angular(p, v_scale(u, (x)));                                                               \
        else                                                                                                 \
            apply_linear(p, v_scale(u, (x)), g->arm_a, g->rb);                                               \
    } while (0)
    bool distance = d->type == PH_JOINT_DISTANCE;
    if (d->enable_spring && d->spring_hertz > 0.0f)
    {
        float target = distance ? d->length : d->spring_target;
        float c = g->axial - target;
        if (angular)
            c = wrap_angle(c);
        float x = solve_row(AXIAL_SPEED(), c, mass, soft_of(d->spring_hertz, d->spring_damping_ratio, h),
                            &j->axial_impulse, -3.0e38f, 3.0e38f);
        AXIAL_APPLY(x);
    }
    if (d->enable_motor && !distance)
    {
        float limit = d->max_motor_force * h;
        float x =
            solve_row(AXIAL_SPEED() - d->motor_speed, 0.0f, mass, RIGID, &j->motor_impulse, -limit, limit);
        AXIAL_APPLY(x);
    }
    bool limits = distance ? (d->enable_spring || d->min_length < d->max_length) : d->enable_limit;
    if (limits)
    {
        float lower = distance ? d->min_length : d->lower, upper = distance ? d->max_length : d->upper;
        float inv_h = 1.0f / h;
        float x =
            solve_limit(AXIAL_SPEED(), g->axial - lower, mass, joint, use_bias, inv_h, &j->lower_impulse);
        AXIAL_APPLY(x);
        x = solve_limit(-AXIAL_SPEED(), upper - g->axial, mass, joint, use_bias, inv_h, &j->upper_impulse);
        AXIAL_APPLY(-x);
    }
    if (distance && !d->enable_spring && !(d->min_length < d->max_length))
    {
        // A rod: the length held like any rigid row.
        float x = solve_row(AXIAL_SPEED(), g->axial - d->min_length, mass, use_bias ? joint : RIGID,
                            &j->axial_impulse, -3.0e38f, 3.0e38f);
        AXIAL_APPLY(x);
    }
#undef AXIAL_SPEED
#undef AXIAL_APPLY
}

// The twist of frame b about frame a's z axis, 2 atan2(z, w) of the relative rotation rel = qa^-1 qb, and the
// axis whose relative spin is that angle's rate (its Jacobian). With rel' = 1/2 (0, w) rel for the relative
// spin w in a's frame, the rate is w_z + w_x (w y + z x) / (w^2 + z^2) + w_y (z y - w x) / (w^2 + z^2): the
// axis is a's z tilted by the swing. (The mean of the two z axes, used first, is not the angle's rate: the
// limit row then pushed on a direction the angle did not follow, and a ragdoll's head kept spinning.)
static float twist_of(const joint_geometry *g, ph_vec3 *out_axis)
{
    ph_quat rel = glms_quat_mul(glms_quat_conjugate(g->qa), g->qb);
    float n = rel.w * rel.w + rel.z * rel.z;
    ph_vec3 local = ph_v3(0.0f, 0.0f, 1.0f);
    if (n > 1.0e-12f)
    {
        local.x = (rel.w * rel.y + rel.z * rel.x) / n;
        local.y = (rel.z * rel.y - rel.w * rel.x) / n;
    }
    *out_axis = rotate(g->qa, local);
    return wrap_angle(2.0f * atan2f(rel.z, rel.w));
}

// The spherical joint's swing cone and twist range.
static void solve_cone_twist(ph_joint *j, pair *p, const joint_geometry *g, row_soft joint, bool use_bias,
                             float h)
{
    const ph_joint_def *d = &j->def;
    float inv_h = 1.0f / h;
    if (d->enable_cone)
    {
        if (g->sin_swing > 1.0e-6f)
        {
            // Turning b about za x zb widens the swing: the row keeps cone - swing >= 0 along -(za x zb).
            ph_vec3 u = v_scale(g->swing_cross, -1.0f / g->sin_swing);
            float x = solve_limit(v_dot(u, v_sub(p->wb, p->wa)), d->cone_angle - g->swing, g->cone_mass,
                                  joint, use_bias, inv_h, &j->cone_impulse);
            apply_angular(p, v_scale(u, x));
        }
    }
    if (d->enable_twist)
    {
        ph_vec3 u = g->twist_axis;
        float twist = g->twist;
        float mass = g->twist_mass, speed = v_dot(u, v_sub(p->wb, p->wa));
        float x =
            solve_limit(speed, twist - d->twist_lower, mass, joint, use_bias, inv_h, &j->twist_lower_impulse);
        apply_angular(p, v_scale(u, x));
        speed = v_dot(u, v_sub(p->wb, p->wa));
        x = solve_limit(-speed, d->twist_upper - twist, mass, joint, use_bias, inv_h,
                        &j->twist_upper_impulse);
        apply_angular(p, v_scale(u, -x));
    }
}

// The rigid rows' softness in a sweep: the joint's own spring (ph_joints_prepare) in the biased sweep, rigid
// in the relax sweep.
static row_soft rows_soft(const ph_joint *j, bool use_bias)
{
    return use_bias ? (row_soft){j->soft[0], j->soft[1], j->soft[2]} : RIGID;
}

typedef struct limits_measure_task
{
    ph_joint_batch *batch;
    bool geometry, masses;
} limits_measure_task;

static void measure_range(int begin, int end, int worker, void *context)
{
    const limits_measure_task *t = context;
    (void)worker;
    t->batch->kernels->joint_limit_measure(t->batch->limits, begin, end, t->geometry, t->masses);
}

// The limit groups' geometry (`geometry`: the bodies moved) and blocks and masses (`masses`: they moved or
// their inverse inertias changed), worked out where and when the joints solved one at a time work theirs out
// (geometry_at, row_masses). Each lane is its own joint's, so the workers may share them out in any way.
static void limits_measure(ph_world *world, bool geometry, bool masses)
{
    ph_joint_batch *b = &world->joint_batch;
    if (!b->kernels || b->limit_count == 0 || !(geometry || masses))
        return;
    limits_measure_task t = {b, geometry, masses};
    ph_parallel_for(&world->tasks, b->limit_count, JOINT_MIN_GROUPS, measure_range, &t);
}

typedef struct joint_sweep_task
{
    const ph_joint_batch *batch;
    bool limits; // the limit groups, else the point groups
    int first;   // the first group of the colour being swept
    wide_joint_sweep sweep;
} joint_sweep_task;

static void sweep_range(int begin, int end, int worker, void *context)
{
    joint_sweep_task *t = context;
    const wide_kernels *k = t->batch->kernels;
    (void)worker;
    if (t->limits)
        k->joint_limit_sweep(t->batch->limits, t->first + begin, t->first + end, &t->sweep);
    else
        k->joint_sweep(t->batch->groups, t->first + begin, t->first + end, &t->sweep);
}

// One sweep of the joint groups, the point groups then the limit groups: each as one call with one worker;
// with more, colour by colour, each colour's groups split among the workers. A colour's lanes share no moving
// body, so the split changes no bit.
static void sweep_groups(ph_world *world, bool use_bias, bool warm_start, bool measure, bool at_start,
                         float h)
{
    ph_joint_batch *b = &world->joint_batch;
    if (!b->kernels)
        return;
    joint_sweep_task t = {b, false, 0,
                          (wide_joint_sweep){.soft = use_bias,
                                             .inv_h = 1.0f / h,
                                             .max_speed = 0.5f * PH_MAX_SPEED,
                                             .max_spin = BODY_MAX_ROTATION / h,
                                             .warm_start = warm_start,
                                             .measure = measure,
                                             .at_start = at_start}};
    const int *first[3] = {b->color_first, b->limit_first[0], b->limit_first[1]};
    const int colors[3] = {b->colors, b->limit_colors[0], b->limit_colors[1]};
    for (int kind = 0; kind < JOINT_KINDS; kind++)
    {
        t.limits = kind != KIND_POINT;
        if (world->tasks.worker_count == 1)
        {
            // Both kinds of limit groups in one call.
            int count = t.limits ? b->limit_count : b->group_count;
            if (kind != KIND_LIMITED && count > 0)
                sweep_range(0, count, 0, &t);
            continue;
        }
        for (int c = 0; c < colors[kind]; c++)
        {
            t.first = first[kind][c];
            ph_parallel_for(&world->tasks, first[kind][c + 1] - t.first, JOINT_MIN_GROUPS, sweep_range, &t);
        }
    }
}

// The joints the sweeps solve one at a time: those the groups left, or all of them.
static const int *one_at_a_time(const ph_world *world, int *out_count)
{
    const ph_joint_batch *b = &world->joint_batch;
    *out_count = b->kernels ? b->rest_count : world->joint_list_count;
    return b->kernels ? b->rest : world->joint_list;
}

// The geometry of the n-th joint solved one at a time: worked out again where the bodies moved since the last
// sweep that did (`measure`), else the one kept then (the bodies' poses change only between a sub-step's
// biased sweep and its relax sweep, and between steps). Without the list's room, worked out in `tmp`.
static joint_geometry *geometry_at(ph_world *world, int n, const ph_joint *j, bool measure,
                                   joint_geometry *tmp)
{
    ph_joint_batch *b = &world->joint_batch;
    joint_geometry *g = b->geometry ? &b->geometry[n] : tmp;
    if (measure || !b->geometry)
        *g = geometry_of(j, j->sa, j->sb);
    return g;
}

void ph_joints_solve(ph_world *world, float h, bool use_bias, bool measure)
{
    const ph_body_state *still = &world->joint_still;
    // The relax sweep's first iteration follows the position update; the biased sweeps read what the warm
    // start or the last relax sweep found. The rows' blocks and masses change with the geometry and with the
    // bodies' inverse inertias (`measure`).
    bool moved = !use_bias && measure;
    limits_measure(world, moved, measure);
    sweep_groups(world, use_bias, false, measure, false, h);
    int count = 0;
    const int *list = one_at_a_time(world, &count);
    for (int n = 0; n < count; n++)
    {
        ph_joint *j = &world->joints[list[n]];
        ph_body_state *sa = j->sa, *sb = j->sb;
        joint_geometry tmp;
        joint_geometry *g = geometry_at(world, n, j, moved, &tmp);
        pair p = load(sa, sb);
        const ph_joint_def *d = &j->def;
        if (measure || g == &tmp)
            row_masses(j, &p, g);
        row_soft joint = rows_soft(j, use_bias);
        switch (d->type)
        {
        case PH_JOINT_DISTANCE:
            if (g->axis_valid)
                solve_axial(j, &p, g, joint, use_bias, h);
            break;
        case PH_JOINT_SPHERICAL:
            if (d->max_friction_torque > 0.0f)
                solve_friction(j, &p, g, h);
            solve_cone_twist(j, &p, g, joint, use_bias, h);
            solve_point(j, &p, g, joint);
            break;
        case PH_JOINT_REVOLUTE:
            if (d->max_friction_torque > 0.0f)
                solve_friction(j, &p, g, h);
            solve_axial(j, &p, g, joint, use_bias, h);
            solve_hinge_lock(j, &p, g, joint);
            solve_point(j, &p, g, joint);
            break;
        case PH_JOINT_PRISMATIC:
            solve_axial(j, &p, g, joint, use_bias, h);
            solve_lock(j, &p, g, joint);
            solve_across(j, &p, g, joint);
            break;
        case PH_JOINT_WELD:
        {
            // A soft weld is its springs in both sweeps; a rigid one the joint's rows.
            row_soft lin =
                d->spring_hertz > 0.0f ? soft_of(d->spring_hertz, d->spring_damping_ratio, h) : joint;
            row_soft ang =
                d->angular_hertz > 0.0f ? soft_of(d->angular_hertz, d->angular_damping_ratio, h) : joint;
            solve_lock(j, &p, g, ang);
            solve_point(j, &p, g, lin);
            break;
        }
        default:
            break;
        }
        store(&p, sa, sb, still, BODY_MAX_ROTATION / h);
    }
}

// Body b's share of the joint's accumulated impulses: the linear impulse and the angular impulse about b's
// anchor. g is the joint's geometry, NULL for a plain point joint (plain_point), whose impulse is its point
// impulse alone (zeroing a geometry for each of joint_grid's 20,000 joints was a sixth of ph_joints_finish).
static void impulses_on_b(const ph_joint *j, const joint_geometry *g, ph_vec3 *out_linear,
                          ph_vec3 *out_angular)
{
    const ph_joint_def *d = &j->def;
    float axial = j->axial_impulse + j->motor_impulse + j->lower_impulse - j->upper_impulse;
    ph_vec3 lin = glms_vec3_zero(), ang = glms_vec3_zero();
    switch (d->type)
    {
    case PH_JOINT_DISTANCE:
        lin = v_scale(g->axis, axial);
        break;
    case PH_JOINT_SPHERICAL:
    {
        lin = j->point_impulse;
        ang = j->friction_impulse;
        if (!d->enable_cone && !d->enable_twist)
            break; // geometry_of left the frames out
        if (g->sin_swing > 1.0e-6f)
            ang = v_add(ang, v_scale(g->swing_cross, -j->cone_impulse / g->sin_swing));
        ang = v_add(ang, v_scale(g->twist_axis, j->twist_lower_impulse - j->twist_upper_impulse));
        break;
    }
    case PH_JOINT_REVOLUTE:
        lin = j->point_impulse;
        ang = v_add(v_add(j->angular_impulse, j->friction_impulse), v_scale(g->za, axial));
        break;
    case PH_JOINT_PRISMATIC:
        lin = v_add(j->point_impulse, v_scale(g->za, axial));
        ang = j->angular_impulse;
        break;
    case PH_JOINT_WELD:
        lin = j->point_impulse;
        ang = j->angular_impulse;
        break;
    default:
        break;
    }
    *out_linear = lin;
    *out_angular = ang;
}

void ph_joints_warm_start(ph_world *world, float h, bool at_start)
{
    const ph_body_state *still = &world->joint_still;
    limits_measure(world, at_start, false);
    sweep_groups(world, false, true, false, at_start, h);
    int count = 0;
    const int *list = one_at_a_time(world, &count);
    for (int n = 0; n < count; n++)
    {
        ph_joint *j = &world->joints[list[n]];
        ph_body_state *sa = j->sa, *sb = j->sb;
        joint_geometry tmp;
        const joint_geometry *g = geometry_at(world, n, j, at_start, &tmp);
        pair p = load(sa, sb);
        ph_vec3 lin, ang;
        impulses_on_b(j, g, &lin, &ang);
        // Linear rows act at the anchors (a prismatic joint's on body a at b's anchor: arm ra + d).
        apply_linear(&p, lin, g->arm_a, g->rb);
        apply_angular(&p, ang);
        store(&p, sa, sb, still, BODY_MAX_ROTATION / h);
    }
}

// The frequency at which the rigid rows of a joint give by JOINT_MAX_GIVE under a force f (unit: N) on the
// pair p: the spring w^2 / (1/ma + 1/mb) (the bodies' translation only: a lever arm's turn is the angular
// rows' to hold, and a hinge's bob 1 m from its pivot would otherwise ask for a thousand hertz), from
// f (1/ma + 1/mb), which joint_load gives (0 for a distance joint, which has no such rows).
static float joint_load(const ph_joint *j, const pair *p, float f)
{
    float inv_mass = p->ma + p->mb;
    return f > 0.0f && inv_mass > 0.0f && j->def.type != PH_JOINT_DISTANCE ? f * inv_mass : 0.0f;
}

static float need_hertz(float load)
{
    return load > 0.0f ? sqrtf(load / JOINT_MAX_GIVE) / (2.0f * GLM_PIf) : 0.0f;
}

// Anchors of point joints are held together in position as well as in velocity: after the sub-steps, what the
// soft rows let the anchors come apart under an impact (transmitted through a chain of limbs by one
// Gauss-Seidel sweep per sub-step: 18 to 22 mm when 20 ragdolls land on the stairs, the issue asks for 20) is
// taken out of the positions by a few Gauss-Seidel passes of a position projection (as Jolt's position
// iterations and Box2D v2's position solver do), the velocities left as the relax sweep made them. Each joint
// moves its two bodies' centres, by their inverse masses' shares of its gap d, and turns neither: the frames'
// relative orientation, and so every angular row and limit, is what the sub-steps left (a projection through
// the point mass matrix, which turns the bodies too, pushed a 30 degree cone to 31.35). Only a gap past
// JOINT_PROJECT_SLOP is closed, and only down to it: a joint's give under a steady load (under
// JOINT_MAX_GIVE) and the small gaps of bodies at rest stay the soft rows' (closing every gap above 1 mm kept
// 66 to 99 of the ragdolls' 220 bodies awake for good, the projection and the rows trading the same
// millimetre back and forth). A move is capped (a joint torn far apart, by a body set somewhere else, closes
// over a few steps).
// Steps in a row a joint must be open past the slop before its projection also stops the bodies' opening
// (ph_joints_project).
#define JOINT_STUCK_STEPS 3
#define JOINT_PROJECT_SLOP 5.0e-3f // (unit: m)
// The most passes (a pass that moves nothing ends it, so a step without an open joint takes one). A pass
// closes a joint by moving its two bodies, which opens their other joints: a ragdoll landing with several
// joints of a limb open needs more than 4 to close them all, and what a step leaves open the next step's
// impacts add to. ragdoll_stairs over seeds 1 to 16: with 4 passes the seeds' worst openings were 8.2 to
// 17.6 mm and 2 seeds were still awake after 60 s (8.2 to 22.8 mm and 3 seeds once fast bodies' proxies
// reached their fall, world.c's swept_bounds); with 8, 7.4 to 17.4 mm, all asleep within 54 s. Joint
// friction holds a ragdoll's limbs together as they strike, so its impacts reach further along them: with
// friction and 8 passes, 7.1 to 24.8 mm (seed 10 past the 20 mm of issue 20); with 16, seeds 1 to 40 opened
// 18.4 mm at most, all asleep within 15 s.
#define JOINT_PROJECT_PASSES 16
#define JOINT_PROJECT_MAX 0.1f // most of a gap closed in one pass (unit: m)

static bool projects(const ph_joint *j)
{
    switch (j->def.type)
    {
    case PH_JOINT_SPHERICAL:
    case PH_JOINT_REVOLUTE:
        return true;
    case PH_JOINT_WELD:
        return !(j->def.enable_spring && j->def.spring_hertz > 0.0f); // a soft weld gives by design
    default:
        return false; // distance (its length is its row) and prismatic (its rows are across its axis)
    }
}

// Whether a grouped joint is open past the slop, by the gaps the groups keep: the last relax sweep measured
// them where the sub-steps leave the bodies, so a step whose grouped joints are all closed (a hanging grid of
// twenty thousand) need not read them.
static bool groups_open(const ph_joint_batch *b)
{
    const float slop2 = JOINT_PROJECT_SLOP * JOINT_PROJECT_SLOP;
    for (int gi = 0; gi < b->group_count; gi++)
    {
        const wide_joint_group *g = &b->groups[gi];
        for (int lane = 0; lane < g->lanes; lane++)
        {
            float x = g->gap[0][lane], y = g->gap[1][lane], z = g->gap[2][lane];
            if (!(x * x + y * y + z * z <= slop2))
                return true;
        }
    }
    for (int gi = 0; gi < b->limit_count; gi++)
    {
        const wide_limit_group *g = &b->limits[gi];
        for (int lane = 0; lane < g->lanes; lane++)
        {
            float x = g->gap[0][lane], y = g->gap[1][lane], z = g->gap[2][lane];
            if (!(x * x + y * y + z * z <= slop2))
                return true;
        }
    }
    return false;
}

void ph_joints_project(ph_world *world)
{
    const ph_body_state *still = &world->joint_still;
    const ph_joint_batch *b = &world->joint_batch;
    // The first pass takes the joints the groups left when no grouped joint is open.
    bool skip_groups = b->kernels && b->group_count + b->limit_count > 0 && !groups_open(b);
    // A pass that moves nothing ends the projection: with no joint open past the slop (a step without
    // impacts) that is the first.
    bool moved = true;
    for (int pass = 0; pass < JOINT_PROJECT_PASSES && moved; pass++)
    {
        moved = false;
        bool rest_only = pass == 0 && skip_groups;
        int count = rest_only ? b->rest_count : world->joint_list_count;
        const int *list = rest_only ? b->rest : world->joint_list;
        for (int i = 0; i < count; i++)
        {
            ph_joint *j = &world->joints[list[i]];
            if (!projects(j))
                continue;
            ph_vec3 ra, rb, d = anchors_of(j, j->sa, j->sb, &ra, &rb);
            float gap = glms_vec3_norm(d);
            if (!(gap > JOINT_PROJECT_SLOP))
                continue;
            if (j->last_projected != world->step_count)
            {
                j->projected_steps = j->last_projected + 1 == world->step_count ? j->projected_steps + 1 : 1;
                j->last_projected = world->step_count;
            }
            float close = fminf(gap - JOINT_PROJECT_SLOP, JOINT_PROJECT_MAX);
            float ma = j->sa->inv_mass, mb = j->sb->inv_mass;
            if (!(ma + mb > 0.0f))
                continue;
            ph_vec3 impulse = v_scale(d, -close / (gap * (ma + mb)));
            moved = true;
            // A joint its rows cannot hold closed, open step after step (JOINT_STUCK_STEPS), also stops its
            // bodies moving apart along the gap (an inelastic linear impulse: it only takes energy away):
            // moved back without it, a forearm came back to the same place every step with the same 0.27 m/s,
            // and its ragdoll never slept (seed 5 of ragdoll_stairs, 88 bodies awake after 120 s). An
            // impact's one-off gap is only moved.
            float opening = j->projected_steps >= JOINT_STUCK_STEPS
                                ? glms_vec3_dot(v_sub(j->sb->v, j->sa->v), d) / gap
                                : 0.0f;
            ph_vec3 stop = v_scale(d, opening > 0.0f ? -opening / (gap * (ma + mb)) : 0.0f);
            if (j->sa != still)
            {
                j->sa->dp = v_sub(j->sa->dp, v_scale(impulse, ma));
                j->sa->v = v_sub(j->sa->v, v_scale(stop, ma));
            }
            if (j->sb != still)
            {
                j->sb->dp = v_add(j->sb->dp, v_scale(impulse, mb));
                j->sb->v = v_add(j->sb->v, v_scale(stop, mb));
            }
        }
    }
}

// Whether joint j's last step's force or torque passed its break limits.
static bool breaks(const ph_joint *j, float *out_force, float *out_torque)
{
    if (!(j->def.break_force > 0.0f || j->def.break_torque > 0.0f))
        return false; // unbreakable: its forces need not be measured
    float force = glms_vec3_norm(j->force), torque = glms_vec3_norm(j->torque);
    *out_force = force;
    *out_torque = torque;
    return (j->def.break_force > 0.0f && force > j->def.break_force) ||
           (j->def.break_torque > 0.0f && torque > j->def.break_torque);
}

void ph_joints_finish(ph_world *world, float h, float dt)
{
    bool break_due = false;
    // The groups' impulses back to their joints.
    const ph_joint_batch *b = &world->joint_batch;
    for (int gi = 0; b->kernels && gi < b->group_count; gi++)
    {
        const wide_joint_group *g = &b->groups[gi];
        for (int lane = 0; lane < g->lanes; lane++)
            world->joints[g->joint[lane]].point_impulse =
                ph_v3(g->impulse[0][lane], g->impulse[1][lane], g->impulse[2][lane]);
    }
    for (int gi = 0; b->kernels && gi < b->limit_count; gi++)
    {
        const wide_limit_group *g = &b->limits[gi];
        for (int lane = 0; lane < g->lanes; lane++)
        {
            ph_joint *j = &world->joints[g->joint[lane]];
            j->point_impulse = ph_v3(g->impulse[0][lane], g->impulse[1][lane], g->impulse[2][lane]);
            // impulses_on_b from the lanes: the rows' directions there are the last relax sweep's, at the
            // poses the sub-steps left, where geometry_of would find them again.
            ph_vec3 turn = glms_vec3_zero();
            for (int r = 0; r < 3; r++)
                turn =
                    v_add(turn, v_scale(ph_v3(g->axis[r][0][lane], g->axis[r][1][lane], g->axis[r][2][lane]),
                                        g->limit_impulse[r][lane]));
            j->friction_impulse = ph_v3(g->friction_impulse[0][lane], g->friction_impulse[1][lane],
                                        g->friction_impulse[2][lane]);
            turn = v_add(turn, j->friction_impulse);
            j->linear = j->point_impulse;
            j->in_lanes = true;
            if (g->hinge)
            {
                j->angular_impulse =
                    ph_v3(g->lock_impulse[0][lane], g->lock_impulse[1][lane], g->lock_impulse[2][lane]);
                j->lower_impulse = g->limit_impulse[0][lane];
                j->upper_impulse = g->limit_impulse[1][lane];
                turn = v_add(turn, j->angular_impulse);
            }
            else
            {
                j->cone_impulse = g->limit_impulse[0][lane];
                j->twist_lower_impulse = g->limit_impulse[1][lane];
                j->twist_upper_impulse = g->limit_impulse[2][lane];
            }
            j->angular = turn;
        }
    }
    float inv_h = 1.0f / h;
    float most_load = 0.0f, smoothing = fminf(1.0f, dt / JOINT_STEADY_TIME);
    for (int k = 0; k < world->joint_ids.slot_count; k++)
    {
        if (!ph_id_pool_is_live(&world->joint_ids, k))
            continue;
        ph_joint *j = &world->joints[k];
        if (!j->active)
        {
            j->force = j->torque = glms_vec3_zero();
            continue;
        }
        ph_body_state *sa = j->sa, *sb = j->sb;
        // A plain point joint's impulse is its point impulse alone (impulses_on_b reads no geometry); a limit
        // group's lanes gave theirs above.
        if (!j->in_lanes && plain_point(j))
            impulses_on_b(j, NULL, &j->linear, &j->angular);
        else if (!j->in_lanes)
        {
            joint_geometry g = geometry_of(j, sa, sb);
            impulses_on_b(j, &g, &j->linear, &j->angular);
        }
        j->in_lanes = false;
        j->force = v_scale(j->linear, inv_h);
        j->torque = v_scale(j->angular, inv_h);
        j->steady_force = v_add(j->steady_force, v_scale(v_sub(j->force, j->steady_force), smoothing));
        pair p = load(sa, sb);
        // The sub-steps follow the held load (an impact's spike does not ask for more); the joint's own
        // spring follows its load up at once (set_rows_spring).
        float steady = glms_vec3_norm(j->steady_force);
        j->need_hertz = need_hertz(joint_load(j, &p, fmaxf(steady, glms_vec3_norm(j->force))));
        most_load = fmaxf(most_load, joint_load(j, &p, steady));
        float force, torque;
        break_due = breaks(j, &force, &torque) || break_due;
    }
    world->joint_need_hertz = need_hertz(most_load);
    world->joint_batch.break_due = break_due;
}

void ph_joints_break(ph_world *world)
{
    world->joint_break_count = 0;
    // Forces change only in ph_joints_finish, which notes whether one passed its limits (a joint grid of
    // twenty thousand unbreakable joints need not be read again).
    if (!world->joint_batch.break_due)
        return;
    world->joint_batch.break_due = false;
    for (int k = 0; k < world->joint_ids.slot_count; k++)
    {
        if (!ph_id_pool_is_live(&world->joint_ids, k))
            continue;
        ph_joint *j = &world->joints[k];
        float force, torque;
        if (!breaks(j, &force, &torque))
            continue;
        if (ph_array_reserve(world->joint_breaks, world->joint_break_capacity, world->joint_break_count + 1))
            world->joint_breaks[world->joint_break_count++] = (ph_joint_break){
                make_joint_id(world, k), body_id_of(world, j->a), body_id_of(world, j->b), force, torque,
                j->def.user_data};
        remove_joint(world, k);
    }
}

// ---- Debug draw ------------------------------------------------------------------------------------------

#define JOINT_COLOR_LINK 0xF2C14EFFu // anchor to anchor (a rope, a stretched joint)
#define JOINT_COLOR_ARM 0x9AA5B1FFu  // centre of mass to anchor
#define JOINT_COLOR_AXIS_A 0xE4572EFFu
#define JOINT_COLOR_AXIS_B 0x29BF12FFu
#define JOINT_AXIS_LENGTH 0.3f // (unit: m)
#define JOINT_POINT_SIZE 6.0f  // (unit: px)

void ph_joints_debug_draw(const ph_world *world, const ph_debug_draw *dd)
{
    for (int k = 0; k < world->joint_ids.slot_count; k++)
    {
        if (!ph_id_pool_is_live(&world->joint_ids, k))
            continue;
        const ph_joint *j = &world->joints[k];
        ph_transform fa = frame_in_world(world, j->a, j->def.frame_a);
        ph_transform fb = frame_in_world(world, j->b, j->def.frame_b);
        if (j->a >= 0)
            dd->draw_segment(world->bodies[j->a].center, fa.p, JOINT_COLOR_ARM, dd->context);
        dd->draw_segment(world->bodies[j->b].center, fb.p, JOINT_COLOR_ARM, dd->context);
        dd->draw_segment(fa.p, fb.p, JOINT_COLOR_LINK, dd->context);
        dd->draw_point(fa.p, JOINT_POINT_SIZE, JOINT_COLOR_LINK, dd->context);
        dd->draw_point(fb.p, JOINT_POINT_SIZE, JOINT_COLOR_LINK, dd->context);
        if (j->def.type != PH_JOINT_DISTANCE)
        {
            dd->draw_segment(fa.p, v_add(fa.p, v_scale(rotate(fa.q, ph_v3(0, 0, 1)), JOINT_AXIS_LENGTH)),
                             JOINT_COLOR_AXIS_A, dd->context);
            dd->draw_segment(fb.p, v_add(fb.p, v_scale(rotate(fb.q, ph_v3(0, 0, 1)), JOINT_AXIS_LENGTH)),
                             JOINT_COLOR_AXIS_B, dd->context);
        }
    }
}
