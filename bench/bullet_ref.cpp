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

    ~BulletScene()
    {
        for (auto &body : bodies)
            world.removeRigidBody(body.get());
    }
};

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
    if (scene.joint_count > 0)
    {
        // Not built here yet (btPoint2PointConstraint, btHingeConstraint, btGeneric6DofSpring2Constraint
        // would be the counterparts): the bodies alone would be another scene, so none is timed.
        std::fprintf(stderr, "bullet_ref: scene '%s' has joints, which this reference does not build; skipped\n",
                     name);
        recipe_scene_free(&scene);
        return true;
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
