// Tests for scene/vehicle_tyres.h: one friction step on a free chassis whose four wheels are put
// in contact by hand, so each impulse can be predicted from the friction circle.
#include "scene/vehicle_tyres.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

namespace asg::scene {
namespace {

constexpr double kMass = 900.0;                   // [kg]
constexpr double kGravity = 9.81;                 // [m/s^2]
constexpr double kDt = 0.01;                      // [s]
constexpr double kFriction = 1.0;                 // friction_slip
constexpr double kLoad = kMass * kGravity / 4.0;  // [N] per wheel
// [m/s] the largest velocity change the four friction circles allow in one step.
constexpr double kMaxDeltaV = kFriction * kGravity * kDt;

// A 900 kg chassis at the origin (x forward, y left, z up) with four wheels on flat ground. Its
// inertia is so large that the impulses hardly turn it, so every contact point moves with the
// centre of mass and each impulse shows whole in the chassis velocity.
class TyreRig {
 public:
  TyreRig() {
    const btVector3 inertia(1e9f, 1e9f, 1e9f);
    body_ = std::make_unique<btRigidBody>(
        btRigidBody::btRigidBodyConstructionInfo(btScalar(kMass), nullptr, &shape_, inertia));
    btRaycastVehicle::btVehicleTuning tuning;
    vehicle_ = std::make_unique<TyreVehicle>(tuning, body_.get(), nullptr,
                                             btVector3(0, 0, btScalar(-kGravity)));
    vehicle_->setCoordinateSystem(1, 2, 0);
    for (int w = 0; w < 4; ++w) {
      const btVector3 connection(w < 2 ? 1.15f : -1.15f, w % 2 == 0 ? 0.675f : -0.675f, -0.3f);
      vehicle_->addWheel(connection, btVector3(0, 0, -1), btVector3(0, -1, 0), 0.3f, 0.33f, tuning,
                         w < 2);
    }
    SetGround(btVector3(0, 0, 1));
  }

  // Puts every wheel in contact with ground of unit normal `normal`, each carrying kLoad, with no
  // brake, no engine force and no roll influence (lateral impulses act at the centre's height).
  void SetGround(const btVector3& normal) {
    for (int w = 0; w < 4; ++w) {
      btWheelInfo& wheel = vehicle_->getWheelInfo(w);
      wheel.m_raycastInfo.m_isInContact = true;
      wheel.m_raycastInfo.m_contactNormalWS = normal;
      wheel.m_raycastInfo.m_contactPointWS =
          wheel.m_chassisConnectionPointCS + btVector3(0, 0, -0.6f);
      wheel.m_raycastInfo.m_wheelAxleWS = btVector3(0, -1, 0);
      wheel.m_raycastInfo.m_wheelDirectionWS = btVector3(0, 0, -1);
      wheel.m_wheelsSuspensionForce = btScalar(kLoad);
      wheel.m_maxSuspensionForce = btScalar(1e6);
      wheel.m_frictionSlip = btScalar(kFriction);
      wheel.m_rollInfluence = 0;
      wheel.m_steering = 0;
      wheel.m_brake = 0;
      wheel.m_engineForce = 0;
    }
  }
  void SetBrake(double impulse) {
    for (int w = 0; w < 4; ++w) vehicle_->getWheelInfo(w).m_brake = btScalar(impulse);
  }
  void SetEngineForce(double force) {
    for (int w = 0; w < 4; ++w) vehicle_->getWheelInfo(w).m_engineForce = btScalar(force);
  }

  // Sets the chassis velocity, runs one friction step and returns the new velocity.
  btVector3 Step(const btVector3& velocity) {
    body_->setLinearVelocity(velocity);
    body_->setAngularVelocity(btVector3(0, 0, 0));
    vehicle_->updateFriction(btScalar(kDt));
    return body_->getLinearVelocity();
  }

  btRigidBody& body() { return *body_; }
  TyreVehicle& vehicle() { return *vehicle_; }

 private:
  btBoxShape shape_{btVector3(1.75f, 0.8f, 0.4f)};  // only for Bullet's bookkeeping
  std::unique_ptr<btRigidBody> body_;
  std::unique_ptr<TyreVehicle> vehicle_;
};

TEST(TyreVehicleTest, ASmallSidewaysSlipIsCancelled) {
  TyreRig rig;
  const btVector3 after = rig.Step(btVector3(0, 0.05f, 0));
  EXPECT_NEAR(after.y(), 0.0, 1e-5);
  EXPECT_NEAR(after.x(), 0.0, 1e-6);
  EXPECT_NEAR(rig.body().getAngularVelocity().length(), 0.0, 1e-5);
}

TEST(TyreVehicleTest, ALargeSidewaysSlipIsOpposedAtTheFrictionLimit) {
  for (const double slip : {0.5, -0.5}) {
    TyreRig rig;
    const btVector3 after = rig.Step(btVector3(0, btScalar(slip), 0));
    // Every wheel saturates its friction circle, against the slip.
    EXPECT_NEAR(after.y(), slip - std::copysign(kMaxDeltaV, slip), 1e-4) << slip;
  }
}

TEST(TyreVehicleTest, AFreeWheelRollsWithoutLosingSpeed) {
  TyreRig rig;
  const btVector3 after = rig.Step(btVector3(2.0f, 0, 0));
  EXPECT_NEAR(after.x(), 2.0, 1e-6);
  EXPECT_NEAR(after.y(), 0.0, 1e-6);
}

TEST(TyreVehicleTest, BrakingIsLimitedByTheBrakeThenByFriction) {
  TyreRig rig;
  rig.SetBrake(5.0);  // [N s] per wheel, well inside the friction circle
  EXPECT_NEAR(rig.Step(btVector3(2.0f, 0, 0)).x(), 2.0 - 4 * 5.0 / kMass, 1e-5);
  rig.SetBrake(1e9);  // brakes locked: friction decides
  EXPECT_NEAR(rig.Step(btVector3(2.0f, 0, 0)).x(), 2.0 - kMaxDeltaV, 1e-4);
  EXPECT_NEAR(rig.Step(btVector3(-2.0f, 0, 0)).x(), -2.0 + kMaxDeltaV, 1e-4);
  // A slow roll is stopped outright, not reversed.
  EXPECT_NEAR(rig.Step(btVector3(0.05f, 0, 0)).x(), 0.0, 1e-5);
}

TEST(TyreVehicleTest, EngineForcePushesForwardUpToTheFrictionLimit) {
  TyreRig rig;
  rig.SetEngineForce(500.0);  // [N] per wheel
  EXPECT_NEAR(rig.Step(btVector3(0, 0, 0)).x(), 4 * 500.0 * kDt / kMass, 1e-5);
  rig.SetEngineForce(-500.0);
  EXPECT_NEAR(rig.Step(btVector3(0, 0, 0)).x(), -4 * 500.0 * kDt / kMass, 1e-5);
  rig.SetEngineForce(1e6);  // wheelspin: clipped to the friction circle
  EXPECT_NEAR(rig.Step(btVector3(0, 0, 0)).x(), kMaxDeltaV, 1e-4);
}

TEST(TyreVehicleTest, WheelsOffTheGroundApplyNothing) {
  TyreRig rig;
  for (int w = 0; w < 4; ++w) rig.vehicle().getWheelInfo(w).m_raycastInfo.m_isInContact = false;
  rig.SetBrake(1e9);
  const btVector3 after = rig.Step(btVector3(2.0f, 0.5f, 0));
  EXPECT_FLOAT_EQ(after.x(), 2.0f);
  EXPECT_FLOAT_EQ(after.y(), 0.5f);
}

TEST(TyreVehicleTest, ABrakedVehicleCancelsTheComingPullDownASlope) {
  // Ground tilted 10 deg about y (falling toward +x) and about x: gravity pulls along the slope.
  const btVector3 normal = btVector3(0.17f, 0.1f, 1.0f).normalized();
  TyreRig rig;
  rig.SetGround(normal);
  rig.SetBrake(1e9);
  const btVector3 after = rig.Step(btVector3(0, 0, 0));
  // Once gravity acts this step, the velocity along the ground is zero: no creep.
  const btVector3 coming = after + btVector3(0, 0, btScalar(-kGravity * kDt));
  const btVector3 in_plane = coming - normal * coming.dot(normal);
  EXPECT_LT(in_plane.length(), 1e-4) << in_plane.x() << " " << in_plane.y();
  // Without brakes the wheels roll down the slope: only the sideways part is held.
  TyreRig free;
  free.SetGround(normal);
  const btVector3 rolling =
      free.Step(btVector3(0, 0, 0)) + btVector3(0, 0, btScalar(-kGravity * kDt));
  const btVector3 free_in_plane = rolling - normal * rolling.dot(normal);
  const btVector3 downhill = btVector3(0, 0, -1) - normal * -normal.z();  // unnormalised
  EXPECT_GT(free_in_plane.length(), 0.5 * kGravity * kDt * downhill.length());
}

}  // namespace
}  // namespace asg::scene
