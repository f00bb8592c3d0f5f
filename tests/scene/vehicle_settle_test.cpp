// Tests for scene/vehicle_settle.h.
#include "scene/vehicle_settle.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "scene/physics_world.h"
#include "scene/scene_error.h"
#include "scene/world.h"
#include "tests/scene/scene_test_util.h"
#include "tests/scene/vehicle_rig.h"

namespace asg::scene {
namespace {

using testing::ReferenceRequest;
using testing::Rig;
using testing::ShippedCatalog;

constexpr double kDt = testing::kRigStep;  // [s]

// A ramp rising along +x by `rise` metres per metre over the whole landscape.
protocol::ReliefFeature RampAlongX(double rise) {
  protocol::ReliefFeature ramp;
  ramp.type = protocol::ReliefFeature::Type::kRamp;
  ramp.x0 = -100.0;
  ramp.y0 = 30.0;
  ramp.x1 = 200.0;
  ramp.y1 = 30.0;
  ramp.height = 300.0 * rise;
  ramp.width = 400.0;
  return ramp;
}

// The error message of a settle that must fail, or "" after a test failure.
std::string SettleError(Rig& rig, const SettleSettings& settings) {
  try {
    SettleVehicle(rig.world, kDt, settings, &rig.physics, rig.vehicle.get());
  } catch (const SceneError& error) {
    return error.what();
  }
  ADD_FAILURE() << "expected SceneError";
  return "";
}

TEST(HighestGroundUnderTest, FlatGroundIsZeroAndARampIsReadAtTheFootprintsHighPoint) {
  const protocol::VehicleParams params;
  EXPECT_EQ(HighestGroundUnder(*Rig(ReferenceRequest()).world.landscape, params, 30, 30, 17), 0.0);
  auto request = ReferenceRequest();
  request.scene_description.landscape.relief.push_back(RampAlongX(0.1));
  const Rig rig(request);
  const terrain::Landscape& ground = *rig.world.landscape;
  const double base = ground.HeightAt(30.0, 30.0);
  // Facing +x the high point is half the overall length ahead; facing +y, half the width aside.
  const double half_length =
      0.5 * std::max(params.length, params.wheelbase + 2 * params.wheel_radius);
  const double half_width = 0.5 * std::max(params.width, params.track_width + params.wheel_width);
  EXPECT_NEAR(HighestGroundUnder(ground, params, 30, 30, 0), base + 0.1 * half_length, 1e-6);
  EXPECT_NEAR(HighestGroundUnder(ground, params, 30, 30, 180), base + 0.1 * half_length, 1e-6);
  EXPECT_NEAR(HighestGroundUnder(ground, params, 30, 30, 90), base + 0.1 * half_width, 1e-6);
}

TEST(SettleVehicleTest, ReachesStandbyOnFlatGroundWithinTheThresholds) {
  auto request = ReferenceRequest();
  request.vehicle_start_yaw = 30.0;
  Rig rig(request);
  const SettleSettings settings;
  const double time = SettleVehicle(rig.world, kDt, settings, &rig.physics, rig.vehicle.get());
  // At least one standby window, within the first attempt, a whole number of steps.
  EXPECT_GE(time, settings.window - 1e-9);
  EXPECT_LT(time, settings.attempt_time);
  EXPECT_NEAR(time / kDt, std::round(time / kDt), 1e-6);
  const VehicleState state = rig.vehicle->State();
  EXPECT_LE(state.linear_velocity.norm(), settings.max_speed);
  EXPECT_LE(state.angular_velocity.norm() * 180.0 / std::numbers::pi, settings.max_angular_speed);
  EXPECT_NEAR(state.position.x(), 10.0, settings.max_displacement);
  EXPECT_NEAR(state.position.y(), 10.0, settings.max_displacement);
  EXPECT_NEAR(state.yaw, 30.0, 0.1);
  EXPECT_NEAR(state.roll, 0.0, 0.5);
  EXPECT_NEAR(state.pitch, 0.0, 1.5);
  // Resting on its wheels: the origin sits near its height above the ground.
  EXPECT_NEAR(state.position.z(), rig.vehicle->OriginAboveGround(), 0.1);
}

TEST(SettleVehicleTest, SettlesAtRestOnTheSlopeOfAHill) {
  auto request = ReferenceRequest();
  request.scene_description.landscape.relief.push_back(testing::Hill(20.0, 20.0, 15.0, 4.0));
  request.vehicle_start_location = {20.0, 12.0, 0.0};  // on the flank, slope ~ 20 deg
  request.vehicle_start_yaw = 0.0;
  Rig rig(request);
  const double slope = rig.world.landscape->SlopeAt(20.0, 12.0);
  ASSERT_GT(slope, 15.0);
  const double settle =
      SettleVehicle(rig.world, kDt, SettleSettings{}, &rig.physics, rig.vehicle.get());
  EXPECT_GE(settle, 0.5);
  EXPECT_LT(settle, 5.0);
  const VehicleState before = rig.vehicle->State();
  EXPECT_NEAR(std::abs(before.roll), slope, 4.0);  // side-on to the slope
  rig.Run(2.0);                                    // brakes held: stays put
  const VehicleState after = rig.vehicle->State();
  EXPECT_LT((after.position - before.position).norm(), 0.02);
  EXPECT_LT(after.linear_velocity.norm(), 0.05);
}

TEST(SettleVehicleTest, AVerySteepSlopeFailsEveryAttemptByTiltingAndSaysSo) {
  auto request = ReferenceRequest();
  request.scene_description.landscape.relief.push_back(testing::Hill(20.0, 20.0, 6.0, 12.0));
  request.vehicle_start_location = {20.0, 17.0, 0.0};
  Rig rig(request);
  const std::string error = SettleError(rig, SettleSettings{});
  EXPECT_NE(error.find("vehicle_start_location (20, 17)"), std::string::npos) << error;
  EXPECT_NE(error.find("did not settle in 3 attempts"), std::string::npos) << error;
  EXPECT_NE(error.find("last: tilted to roll"), std::string::npos) << error;
  EXPECT_NE(error.find("(limit 45)"), std::string::npos) << error;
}

TEST(SettleVehicleTest, AnAttemptShorterThanTheWindowTimesOutAsManyTimesAsAllowed) {
  Rig rig(ReferenceRequest());
  SettleSettings settings;
  settings.attempt_time = 0.3;  // shorter than the 0.5 s standby window: never in standby
  settings.attempts = 2;
  const std::string error = SettleError(rig, settings);
  EXPECT_NE(error.find("did not settle in 2 attempts"), std::string::npos) << error;
  EXPECT_NE(error.find("last: not in standby after 0.3"), std::string::npos) << error;
}

TEST(SettleVehicleTest, ARetryStartsFromHigherUp) {
  // One attempt too short to land, then a look at where the retry dropped the vehicle from.
  Rig rig(ReferenceRequest());
  SettleSettings settings;
  settings.attempt_time = kDt;  // one step per attempt
  settings.attempts = 2;
  settings.retry_clearance = 1.0;
  SettleError(rig, settings);
  // The second attempt placed the wheels 0.05 + 1.0 m above the ground; one step later the
  // vehicle has fallen by at most g dt^2.
  const double expected = rig.vehicle->OriginAboveGround() + 1.05;
  EXPECT_NEAR(rig.vehicle->State().position.z(), expected, 0.01);
}

}  // namespace
}  // namespace asg::scene
