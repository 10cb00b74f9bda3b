// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The rigid-body sandbox developers
// The Bullet reference (issue 8): builds the same recipe scenes as physbench with Bullet's
// btDiscreteDynamicsWorld (DBVT broadphase, sequential impulse solver with its default 10 iterations,
// one fixed 60 Hz step per frame, box / sphere / capsule shapes and btConvexHullShape for hulls), and
// prints the same JSON keys through bench_metrics.c, with "engine":"bullet". Built only when CMake
// finds Bullet (Debian's libbullet-dev).
//
// Matching materials: Bullet multiplies the two bodies' friction coefficients where our engine takes
// their geometric mean, so each Bullet body gets the square root of the coefficient the contact must
// have (sqrt(ua) sqrt(ub) = sqrt(ua ub)). Bullet also multiplies restitutions where we take the
// larger, so its global restitution combiner is replaced by max(ea, eb); without that the ladder's
// boxes could not bounce off a ground of restitution 0. Sleeping is on or off exactly as the scene
// says. Damping is the recipe's (0 in the benchmarks). With --ccd, every dynamic body gets Bullet's
// continuous collision as its CCD demo sets it up: the motion threshold is the body's smallest half
// extent (CCD runs when a body moves more than that in one step) and the swept sphere's radius is 0.9
// of it, a sphere inside the body; the scene is then reported as NAME_ccd.
//
// Joints (issue 20): each recipe joint becomes the Bullet constraint that holds the same thing, on frames at
// the recipe's anchor (the world is Bullet's fixed body, btTypedConstraint::getFixedBody), added with
// disableCollisionsBetweenLinkedBodies, as our engine keeps jointed bodies from colliding (collide_connected
// is off in every recipe). Bullet's joint settings are its defaults, as for contacts: the same 10 iterations,
// the global ERP 0.2 and CFM 0, each row starting the step from zero impulse (Bullet warm-starts contacts,
// not joints), one step a frame; ours are soft rows warm-started over sub-steps (src/phys/joint.c). So the
// joints hold the same things, and how far a long chain or sheet stretches under its weight is the solvers'
// own difference, which the end state shows.
// - Spherical: btPoint2PointConstraint. With a swing cone or a twist range: btConeTwistConstraint, whose
//   frames' x axes (its twist axis) lie along the recipe's axis; both swing spans are the cone (a circular
//   cone, ours), the twist span is half the range with frame b turned to the range's middle (Bullet's twist
//   limit is |twist| <= span; all recipes' ranges are symmetric, so the turn is 0); a limit left off is a
//   span Bullet never reaches. Limit settings are Bullet's defaults (softness 1, bias 0.3, relaxation 1).
// - Revolute: btHingeConstraint about the frames' z axes. With useReferenceFrameA its angle is ours (frame
//   b's turn about a's axis; without it the sign is the opposite), so the limits are the recipe's as they are
//   (Bullet's defaults: softness 0.9, bias 0.3, relaxation 1).
// - Joint friction (the ragdolls' joints): on a hinge, its angular motor at speed 0 with the friction's
//   impulse a step as its most; btConeTwistConstraint has nothing like it (its motor drives towards a target
//   orientation), so Bullet's ragdolls keep frictionless hips, shoulders, spine and neck.
// - Distance: Bullet has none. btPoint2PointConstraint makes two points meet (a rod would then be a rigid
//   arm of one body), and a 6-dof limit bounds b's anchor in a box of a's frame, not on a sphere about a's
//   anchor. So the joint is one row of our own (DistanceConstraint below) on the anchors' distance, built as
//   Bullet's constraints build theirs and solved by its solver with its ERP and CFM: the physics of a
//   distance joint, Bullet's way of solving it. A rod's row always acts; a rope's only pulls, and only once
//   the anchors are at its length or beyond (as Bullet's own limits, where ours act speculatively before),
//   so a falling body on a slack rope overshoots its length by up to one step's motion before it is pulled
//   back. No benchmark scene has one (swing, cradle and playthings do).
// - Weld: btFixedConstraint (a btGeneric6DofSpring2Constraint with every axis locked). No recipe has one.

// The shared C headers, with C linkage.
extern "C"
{
#include "bench_metrics.h"
#include "recipes/recipes.h"
}

#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <LinearMath/btConvexHullComputer.h>
#include <algorithm>
#include <btBulletDynamicsCommon.h>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace
{

constexpr int kSolverIterations = 10;     // Bullet's default, stated so the comparison is explicit
constexpr float kCcdSweptFraction = 0.9f; // swept sphere radius / smallest half extent
constexpr double kPi = 3.14159265358979323846;

btScalar restitution_max(const btCollisionObject *a, const btCollisionObject *b)
{
    return std::max(a->getRestitution(), b->getRestitution());
}

// Volume of the convex hull of points (xyz triples): faces fanned into tetrahedra with the origin.
double hull_volume(const float *points, int count)
{
    btConvexHullComputer hull;
    hull.compute(points, 3 * int(sizeof(float)), count, 0.0f, 0.0f);
    double volume = 0.0;
    for (int f = 0; f < hull.faces.size(); f++)
    {
        const btConvexHullComputer::Edge *first = &hull.edges[hull.faces[f]];
        const btVector3 &a = hull.vertices[first->getSourceVertex()];
        const btConvexHullComputer::Edge *e = first->getNextEdgeOfFace();
        while (e->getTargetVertex() != first->getSourceVertex())
        {
            const btVector3 &b = hull.vertices[e->getSourceVertex()];
            const btVector3 &c = hull.vertices[e->getTargetVertex()];
            volume += double(a.dot(b.cross(c))) / 6.0;
            e = e->getNextEdgeOfFace();
        }
    }
    return std::fabs(volume);
}

double item_volume(const recipe_scene &scene, const recipe_item &item)
{
    switch (item.shape)
    {
    case RECIPE_SPHERE:
        return 4.0 / 3.0 * kPi * std::pow(double(item.radius), 3.0);
    case RECIPE_CAPSULE:
        return kPi * double(item.radius) * double(item.radius) *
               (2.0 * double(item.half_height) + 4.0 / 3.0 * double(item.radius));
    case RECIPE_HULL:
    {
        const recipe_hull &h = scene.hulls[item.hull];
        return hull_volume(scene.hull_points + 3 * h.first_point, h.point_count);
    }
    case RECIPE_BOX:
    default:
        return 8.0 * double(item.half_extents[0]) * double(item.half_extents[1]) *
               double(item.half_extents[2]);
    }
}

float smallest_half(const recipe_item &item)
{
    switch (item.shape)
    {
    case RECIPE_SPHERE:
    case RECIPE_CAPSULE:
        return item.radius;
    case RECIPE_HULL:
        return 0.0f; // set from the shape's bounds by the caller
    case RECIPE_BOX:
    default:
        return std::min(item.half_extents[0], std::min(item.half_extents[1], item.half_extents[2]));
    }
}

// A Bullet world holding one recipe scene; bodies[i] is items[i].
struct BulletScene
{
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btDefaultMotionState>> motion_states;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<std::unique_ptr<btTypedConstraint>> constraints; // destroyed before the bodies

    ~BulletScene()
    {
        for (auto &constraint : constraints)
            world.removeConstraint(constraint.get());
        for (auto &body : bodies)
            world.removeRigidBody(body.get());
    }
};

// ---- Joints -------------------------------------------------------------------------------------------

// The recipe's distance joint as one row of Bullet's solver (Bullet has none; see the top of this file):
// with d = anchor b - anchor a and n = d / |d|, the row is J v = d|d|/dt (J: -n and -(ra x n) for a, n and
// rb x n for b), its target the global ERP's share of the length's error a step, as btPoint2PointConstraint
// sets its rows'. The solver applies J^T times the impulse, so a positive impulse pushes the anchors apart:
// a rope's impulse is kept <= 0 (it only pulls).
class DistanceConstraint : public btTypedConstraint
{
  public:
    DistanceConstraint(btRigidBody &a, btRigidBody &b, const btVector3 &pivot_a, const btVector3 &pivot_b,
                       btScalar length, bool rope)
        // A type no switch of Bullet's knows: this constraint is never drawn or serialised.
        : btTypedConstraint(MAX_CONSTRAINT_TYPE, a, b), pivot_a_(pivot_a), pivot_b_(pivot_b), length_(length),
          rope_(rope)
    {
    }

    void getInfo1(btConstraintInfo1 *info) override
    {
        btVector3 d = separation(nullptr, nullptr);
        bool active = d.length2() > kMinLength * kMinLength && (!rope_ || d.length() >= length_);
        info->m_numConstraintRows = active ? 1 : 0;
        info->nub = active && !rope_ ? 1 : 0; // a rod's row is unbounded, a rope's bounded
    }

    void getInfo2(btConstraintInfo2 *info) override
    {
        btVector3 ra, rb;
        btVector3 d = separation(&ra, &rb);
        btScalar len = d.length();
        btVector3 n = d / len;
        btVector3 ra_n = ra.cross(n), rb_n = rb.cross(n);
        for (int k = 0; k < 3; k++)
        {
            info->m_J1linearAxis[k] = -n[k];
            info->m_J1angularAxis[k] = -ra_n[k];
            info->m_J2linearAxis[k] = n[k];
            info->m_J2angularAxis[k] = rb_n[k];
        }
        info->m_constraintError[0] = info->fps * info->erp * (length_ - len);
        info->m_lowerLimit[0] = -SIMD_INFINITY;
        info->m_upperLimit[0] = rope_ ? btScalar(0) : SIMD_INFINITY;
    }

    // ERP and CFM are the solver's global ones; nothing to set.
    void setParam(int, btScalar, int) override
    {
    }
    btScalar getParam(int, int) const override
    {
        return 0;
    }

  private:
    static constexpr btScalar kMinLength = btScalar(1e-6); // below it the line is undefined (unit: m)

    // The anchors' separation (world), and their arms from the centres of mass.
    btVector3 separation(btVector3 *ra, btVector3 *rb) const
    {
        const btTransform &xa = m_rbA.getCenterOfMassTransform(), &xb = m_rbB.getCenterOfMassTransform();
        btVector3 arm_a = xa.getBasis() * pivot_a_, arm_b = xb.getBasis() * pivot_b_;
        if (ra)
            *ra = arm_a;
        if (rb)
            *rb = arm_b;
        return (xb.getOrigin() + arm_b) - (xa.getOrigin() + arm_a);
    }

    btVector3 pivot_a_, pivot_b_;
    btScalar length_;
    bool rope_;
};

// The rotation taking the z axis onto unit vector axis (spawn.c's z_onto, so both engines' frames agree).
btQuaternion z_onto(const btVector3 &axis)
{
    btScalar c = axis.z();
    if (c < btScalar(-0.9999))
        return btQuaternion(btVector3(1, 0, 0), btScalar(kPi));
    btVector3 k = btVector3(0, 0, 1).cross(axis);
    return btQuaternion(k.x(), k.y(), k.z(), 1 + c).normalized();
}

btVector3 vec3_of(const float v[3])
{
    return btVector3(v[0], v[1], v[2]);
}

// Builds one recipe joint as its Bullet counterpart (see the top of this file), for steps of time_step; a =
// -1 is the world, Bullet's fixed body, whose frame is the world's.
std::unique_ptr<btTypedConstraint> make_joint(BulletScene &b, const recipe_joint &j, float time_step)
{
    btRigidBody &ra = j.a >= 0 ? *b.bodies[size_t(j.a)] : btTypedConstraint::getFixedBody();
    btRigidBody &rb = *b.bodies[size_t(j.b)];
    // World to each body's frame, at the scene's start (the fixed body's is the identity).
    btTransform to_a = j.a >= 0 ? ra.getWorldTransform().inverse() : btTransform::getIdentity();
    btTransform to_b = rb.getWorldTransform().inverse();
    btVector3 anchor = vec3_of(j.anchor), axis = vec3_of(j.axis).normalized();
    btTransform frame(z_onto(axis), anchor); // the recipe's joint frame: z along the axis
    switch (j.type)
    {
    case RECIPE_JOINT_DISTANCE:
    {
        btVector3 anchor_b = vec3_of(j.anchor_b);
        return std::make_unique<DistanceConstraint>(ra, rb, to_a * anchor, to_b * anchor_b,
                                                    (anchor_b - anchor).length(), j.rope);
    }
    case RECIPE_JOINT_REVOLUTE:
    {
        // btHingeConstraint turns about its frames' z axes, as ours does. Ours is frame b's turn about a's z;
        // Bullet's getHingeAngle is minus that with useReferenceFrameA false and that with true (checked by
        // turning body b both ways), so with true the recipe's limits are the same range.
        auto hinge = std::make_unique<btHingeConstraint>(ra, rb, to_a * frame, to_b * frame, true);
        if (j.enable_limit)
            hinge->setLimit(j.lower, j.upper); // Bullet's defaults: softness 0.9, bias 0.3, relaxation 1
        // Joint friction: the motor at zero speed (see the top of this file).
        if (j.friction > 0.0f)
            hinge->enableAngularMotor(true, 0.0f, j.friction * time_step);
        return hinge;
    }
    case RECIPE_JOINT_WELD:
        return std::make_unique<btFixedConstraint>(ra, rb, to_a * frame, to_b * frame);
    case RECIPE_JOINT_SPHERICAL:
    default:
    {
        if (!j.enable_cone && !j.enable_twist)
            return std::make_unique<btPoint2PointConstraint>(ra, rb, to_a * anchor, to_b * anchor);
        // btConeTwistConstraint twists about its frames' x axes: the frames are the recipe's turned so that x
        // lies along the axis (a quarter turn about y takes x onto z). Its swing cone is an ellipse of two
        // spans: both are the recipe's cone, a circle, ours. Its twist limit is |twist| <= span: the recipe's
        // [lower, upper] is half its width about its middle, so frame b is turned back by the middle about
        // the axis, and b's twist from it is ours less the middle (checked by turning body b). An angle left
        // off is a span Bullet never reaches.
        btTransform cone(frame.getRotation() * btQuaternion(btVector3(0, 1, 0), btScalar(-kPi / 2)), anchor);
        btTransform cone_b = cone;
        float mid = 0.5f * (j.lower + j.upper), half = 0.5f * (j.upper - j.lower);
        if (j.enable_twist)
            cone_b.setRotation(cone.getRotation() * btQuaternion(btVector3(1, 0, 0), -mid));
        auto ct = std::make_unique<btConeTwistConstraint>(ra, rb, to_a * cone, to_b * cone_b);
        btScalar unlimited = btScalar(BT_LARGE_FLOAT);
        // Bullet's defaults: softness 1 (the limit is hard), bias 0.3, relaxation 1.
        ct->setLimit(j.enable_cone ? j.cone : unlimited, j.enable_cone ? j.cone : unlimited,
                     j.enable_twist ? half : unlimited);
        return ct;
    }
    }
}

void build_joints(BulletScene &b, const recipe_scene &scene)
{
    for (int k = 0; k < scene.joint_count; k++)
    {
        b.constraints.push_back(make_joint(b, scene.joints[k], scene.time_step));
        // Our engine keeps jointed bodies from colliding unless told (collide_connected, off in every
        // recipe).
        b.world.addConstraint(b.constraints.back().get(), true);
    }
}

void build(BulletScene &b, const recipe_scene &scene, bool ccd)
{
    b.world.setGravity(btVector3(scene.gravity[0], scene.gravity[1], scene.gravity[2]));
    b.world.getSolverInfo().m_numIterations = kSolverIterations;
    std::vector<btCollisionShape *> hull_shapes;
    for (int h = 0; h < scene.hull_count; h++)
    {
        const recipe_hull &hull = scene.hulls[h];
        auto shape = std::make_unique<btConvexHullShape>();
        for (int i = 0; i < hull.point_count; i++)
        {
            const float *p = scene.hull_points + 3 * (hull.first_point + i);
            shape->addPoint(btVector3(p[0], p[1], p[2]), i + 1 == hull.point_count);
        }
        hull_shapes.push_back(shape.get());
        b.shapes.push_back(std::move(shape));
    }
    for (int i = 0; i < scene.item_count; i++)
    {
        const recipe_item &item = scene.items[i];
        btCollisionShape *shape;
        if (item.shape == RECIPE_HULL)
        {
            shape = hull_shapes[size_t(item.hull)];
        }
        else
        {
            std::unique_ptr<btCollisionShape> own;
            if (item.shape == RECIPE_SPHERE)
                own = std::make_unique<btSphereShape>(item.radius);
            else if (item.shape == RECIPE_CAPSULE)
                own = std::make_unique<btCapsuleShape>(item.radius, 2.0f * item.half_height);
            else
                own = std::make_unique<btBoxShape>(
                    btVector3(item.half_extents[0], item.half_extents[1], item.half_extents[2]));
            shape = own.get();
            b.shapes.push_back(std::move(own));
        }
        btTransform xf;
        xf.setIdentity();
        xf.setOrigin(btVector3(item.position[0], item.position[1], item.position[2]));
        xf.setRotation(
            btQuaternion(item.orientation[0], item.orientation[1], item.orientation[2], item.orientation[3]));
        bool dynamic = item.type == RECIPE_DYNAMIC;
        btScalar mass = dynamic ? btScalar(double(item.material.density) * item_volume(scene, item)) : 0.0f;
        btVector3 inertia(0.0f, 0.0f, 0.0f);
        if (dynamic)
            shape->calculateLocalInertia(mass, inertia);
        b.motion_states.push_back(std::make_unique<btDefaultMotionState>(xf));
        btRigidBody::btRigidBodyConstructionInfo info(mass, b.motion_states.back().get(), shape, inertia);
        info.m_friction = std::sqrt(item.material.friction);
        info.m_restitution = item.material.restitution;
        info.m_linearDamping = item.linear_damping;
        info.m_angularDamping = item.angular_damping;
        auto body = std::make_unique<btRigidBody>(info);
        body->setLinearVelocity(
            btVector3(item.linear_velocity[0], item.linear_velocity[1], item.linear_velocity[2]));
        body->setAngularVelocity(
            btVector3(item.angular_velocity[0], item.angular_velocity[1], item.angular_velocity[2]));
        if (item.type == RECIPE_KINEMATIC)
            body->setCollisionFlags(body->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
        if (!scene.enable_sleep || !item.enable_sleep || item.type == RECIPE_KINEMATIC)
            body->setActivationState(DISABLE_DEACTIVATION);
        if (ccd && dynamic)
        {
            float half = smallest_half(item);
            if (item.shape == RECIPE_HULL)
            {
                btVector3 lo, hi;
                btTransform identity;
                identity.setIdentity();
                shape->getAabb(identity, lo, hi);
                btVector3 extent = 0.5f * (hi - lo);
                half = std::min(extent.x(), std::min(extent.y(), extent.z()));
            }
            body->setCcdMotionThreshold(half);
            body->setCcdSweptSphereRadius(kCcdSweptFraction * half);
        }
        b.world.addRigidBody(body.get());
        b.bodies.push_back(std::move(body));
    }
    build_joints(b, scene);
}

void sample(const BulletScene &b, std::vector<bench_state> &states)
{
    for (size_t i = 0; i < b.bodies.size(); i++)
    {
        const btRigidBody &body = *b.bodies[i];
        bench_state &s = states[i];
        const btTransform &xf = body.getWorldTransform();
        btQuaternion q = xf.getRotation();
        for (int a = 0; a < 3; a++)
        {
            s.position[a] = xf.getOrigin()[a];
            s.linear_velocity[a] = body.getLinearVelocity()[a];
            s.angular_velocity[a] = body.getAngularVelocity()[a];
        }
        s.orientation[0] = q.x();
        s.orientation[1] = q.y();
        s.orientation[2] = q.z();
        s.orientation[3] = q.w();
        s.mass = body.getInvMass() > 0.0f ? 1.0f / body.getInvMass() : 0.0f;
        s.awake = body.isActive();
        btMatrix3x3 inertia =
            s.mass > 0.0f ? body.getInvInertiaTensorWorld().inverse() : btMatrix3x3::getIdentity();
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
                s.inertia[3 * r + c] = s.mass > 0.0f ? inertia[r][c] : 0.0f;
        }
    }
}

int contact_points(BulletScene &b)
{
    int n = 0;
    for (int m = 0; m < b.dispatcher.getNumManifolds(); m++)
        n += b.dispatcher.getManifoldByIndexInternal(m)->getNumContacts();
    return n;
}

bool run_scene(const char *name, uint64_t seed, int steps_override, bool ccd)
{
    recipe_scene scene;
    if (!recipe_build(name, seed, &scene))
    {
        std::fprintf(stderr, "bullet_ref: unknown scene '%s'\n", name);
        return false;
    }
    int steps = steps_override > 0 ? steps_override : scene.steps;
    bench_run run;
    if (!bench_run_init(&run, &scene, steps))
    {
        recipe_scene_free(&scene);
        return false;
    }
    {
        BulletScene b;
        build(b, scene, ccd);
        std::vector<bench_state> states(size_t(scene.item_count));
        sample(b, states);
        bench_run_sample(&run, 0, states.data(), 0.0f);
        for (int step = 1; step <= steps; step++)
        {
            double t0 = bench_now_ms();
            b.world.stepSimulation(scene.time_step, 1, scene.time_step);
            double ms = bench_now_ms() - t0;
            run.contacts_sum += contact_points(b);
            sample(b, states);
            bench_run_sample(&run, step, states.data(), float(ms));
        }
        char hash[32];
        std::snprintf(hash, sizeof hash, "0x%016" PRIx64, bench_state_hash(states.data(), scene.item_count));
        std::string label = ccd ? std::string(scene.name) + "_ccd" : std::string(scene.name);
        bench_run_print(&run, stdout, "bullet", label.c_str(), "{}", hash);
    }
    bench_run_free(&run);
    recipe_scene_free(&scene);
    return true;
}

void usage()
{
    std::fprintf(stderr, "usage: bullet_ref [--scene NAME]... [--steps N] [--seed N] [--ccd] [--list]\n"
                         "Runs the physbench scenes with Bullet and prints one JSON line per scene.\n");
}

} // namespace

int main(int argc, char **argv)
{
    gCalculateCombinedRestitutionCallback = restitution_max;
    std::vector<const char *> scenes;
    int steps = 0;
    uint64_t seed = RECIPE_DEFAULT_SEED;
    bool ccd = false;
    for (int i = 1; i < argc; i++)
    {
        if (std::strcmp(argv[i], "--scene") == 0 && i + 1 < argc)
            scenes.push_back(argv[++i]);
        else if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc)
            steps = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = std::strtoull(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--ccd") == 0)
            ccd = true;
        else if (std::strcmp(argv[i], "--list") == 0)
        {
            for (const char *const *n = bench_scene_names; *n; n++)
                std::printf("%s\n", *n);
            return 0;
        }
        else
        {
            usage();
            return 2;
        }
    }
    if (scenes.empty())
    {
        for (const char *const *n = bench_scene_names; *n; n++)
            scenes.push_back(*n);
    }
    int failures = 0;
    for (const char *name : scenes)
        failures += !run_scene(name, seed, steps, ccd);
    return failures ? 1 : 0;
}
