// A vehicle on a built world, stepped by hand at 100 Hz: the rig of the vehicle and settle tests.
#pragma once

#include <cmath>
#include <memory>

#include "scene/physics_world.h"
#include "scene/vehicle.h"
#include "scene/world.h"
#include "tests/scene/scene_test_util.h"

namespace asg::scene::testing {

/// [s] the rig's physics step.
inline constexpr double kRigStep = 0.01;

/// The world of `request` with the shipped catalog, its physics and a vehicle in it.
struct Rig {
  explicit Rig(const protocol::RunScenarioRequest& request)
      : world(BuildWorld(request, ShippedCatalog())),
        terrain(world.landscape),
        physics(world, terrain),
        vehicle(Vehicle::Create(request.vehicle, &physics)) {}
  /// Applies the vehicle's held control and steps the physics for `seconds`.
  void Run(double seconds) {
    for (int i = 0; i < static_cast<int>(std::lround(seconds / kRigStep)); ++i) {
      vehicle->ApplyControl(kRigStep);
      physics.Step(kRigStep);
    }
  }
  World world;
  TerrainCollision terrain;
  PhysicsWorld physics;
  std::unique_ptr<Vehicle> vehicle;
};

}  // namespace asg::scene::testing
