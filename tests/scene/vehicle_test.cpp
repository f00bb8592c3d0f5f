// Tests for scene/vehicle.h.
#include "scene/vehicle.h"

#include <gtest/gtest.h>

#include <numbers>

#include "scene/physics_world.h"
#include "scene/scene_error.h"
#include "scene/vehicle_settle.h"
#include "scene/world.h"
#include "tests/scene/scene_test_util.h"
#include "tests/scene/vehicle_rig.h"

namespace asg::scene {
namespace {

using testing::ReferenceRequest;
using testing::Rig;
using testing::ShippedCatalog;

constexpr double kDt = testing::kRigStep;

protocol::PhysXControl Command(double speed, double steering) {
  protocol::PhysXControl control;
  control.longitudinal_velocity = speed;
  control.steering_angle = steering;
  return control;
}

TEST(VehicleTest, SpeedLoopReachesTheTargetOnFlatGround) {
  auto request = ReferenceRequest();
  request.vehicle_start_yaw = 0.0;
  Rig rig(request);
  SettleVehicle(rig.world, kDt, SettleSettings{}, &rig.physics, rig.vehicle.get());
  const Eigen::Vector3d start = rig.vehicle->State().position;
  rig.vehicle->SetCommand(Command(5.0, 0.0));
  rig.Run(6.0);
  const VehicleState state = rig.vehicle->State();
  EXPECT_NEAR(state.forward_speed, 5.0, 0.1);
  EXPECT_GT(state.position.x() - start.x(), 20.0);  // drove forward along +x
  EXPECT_NEAR(state.position.y(), start.y(), 0.05);
  EXPECT_NEAR(state.yaw, 0.0, 0.5);
}

TEST(VehicleTest, PositiveSteeringTurnsRightSoYawDecreases) {
  auto request = ReferenceRequest();
  request.vehicle_start_yaw = 90.0;
  Rig rig(request);
  SettleVehicle(rig.world, kDt, SettleSettings{}, &rig.physics, rig.vehicle.get());
  rig.vehicle->SetCommand(Command(3.0, 20.0));
  rig.Run(2.0);
  const VehicleState state = rig.vehicle->State();
  EXPECT_LT(state.yaw, 90.0 - 10.0);
  EXPECT_GT(state.forward_speed, 2.0);
  EXPECT_NEAR(rig.vehicle->steering(), 20.0, 1e-9);
}

TEST(VehicleTest, SteeringIsRateLimitedAndClamped) {
  Rig rig(ReferenceRequest());
  rig.vehicle->SetCommand(Command(0.0, -90.0));
  rig.Run(0.1);
  EXPECT_NEAR(rig.vehicle->steering(), -12.0, 1e-9);  // 120 deg/s for 0.1 s
  rig.Run(1.0);
  EXPECT_NEAR(rig.vehicle->steering(), -30.0, 1e-9);  // clamped to max_steering_angle
}

TEST(VehicleTest, BadParameterNamesTheField) {
  protocol::VehicleParams params;
  params.mass = -1.0;
  try {
    ValidateVehicleParams(params);
    FAIL() << "expected SceneError";
  } catch (const SceneError& error) {
    EXPECT_STREQ(error.what(), "vehicle.mass = -1 must be finite and > 0");
  }
}

TEST(VehicleTest, RollPitchYawOfKnownRotations) {
  const Eigen::Quaterniond yaw(Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ()));
  const Eigen::Quaterniond pitch(Eigen::AngleAxisd(0.2, Eigen::Vector3d::UnitY()));
  const Eigen::Quaterniond roll(Eigen::AngleAxisd(-0.3, Eigen::Vector3d::UnitX()));
  const Eigen::Vector3d angles = RollPitchYaw(yaw * pitch * roll);
  EXPECT_NEAR(angles.x(), -0.3 * 180 / std::numbers::pi, 1e-9);
  EXPECT_NEAR(angles.y(), 0.2 * 180 / std::numbers::pi, 1e-9);
  EXPECT_NEAR(angles.z(), 0.5 * 180 / std::numbers::pi, 1e-9);
}

}  // namespace
}  // namespace asg::scene
