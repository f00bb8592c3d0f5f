// Tyre impulses: per wheel, accumulated longitudinal and lateral impulses clamped to the brake
// limit and the friction circle, solved by Gauss-Seidel sweeps.
#include "scene/vehicle_tyres.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/check.h"

namespace asg::scene {
namespace {

constexpr int kMaxWheels = 4;

struct Contact {
  btVector3 position;  // contact point relative to the centre of mass [m]
  btVector3
      side_position;  // lateral impulse point, lowered toward the centre of mass by roll influence
  btVector3 forward;  // rolling direction on the ground
  btVector3 axle;     // lateral direction on the ground
  double forward_mass = 0;  // effective mass along forward at position [kg]
  double side_mass = 0;     // effective mass along axle at side_position [kg]
  double limit = 0;         // friction circle radius [N s]
  double drive = 0;         // drive impulse [N s], 0 when not driven
  double brake = 0;         // largest braking impulse [N s]
  double forward_impulse = 0;
  double side_impulse = 0;
};

}  // namespace

TyreVehicle::TyreVehicle(const btVehicleTuning& tuning, btRigidBody* chassis,
                         btVehicleRaycaster* raycaster, const btVector3& gravity)
    : btRaycastVehicle(tuning, chassis, raycaster), gravity_(gravity) {}

void TyreVehicle::updateFriction(btScalar time_step) {
  btRigidBody* body = getRigidBody();
  ASG_CHECK(getNumWheels() <= kMaxWheels);
  const btVector3 up = body->getCenterOfMassTransform().getBasis().getColumn(getUpAxis());
  std::array<Contact, kMaxWheels> contacts;
  int count = 0;
  for (int w = 0; w < getNumWheels(); ++w) {
    const btWheelInfo& wheel = getWheelInfo(w);
    if (!wheel.m_raycastInfo.m_isInContact) continue;
    const btVector3& normal = wheel.m_raycastInfo.m_contactNormalWS;
    btVector3 axle = wheel.m_raycastInfo.m_wheelAxleWS.rotate(
        -wheel.m_raycastInfo.m_wheelDirectionWS, wheel.m_steering);
    axle -= normal * axle.dot(normal);
    if (axle.length2() < btScalar(1e-12)) continue;
    axle.normalize();
    Contact& c = contacts[count++];
    c.axle = axle;
    c.forward = normal.cross(axle);
    c.position = wheel.m_raycastInfo.m_contactPointWS - body->getCenterOfMassPosition();
    c.side_position = c.position - up * (c.position.dot(up) * (1 - wheel.m_rollInfluence));
    c.forward_mass =
        1.0 / body->computeImpulseDenominator(wheel.m_raycastInfo.m_contactPointWS, c.forward);
    c.side_mass = 1.0 / body->computeImpulseDenominator(
                            body->getCenterOfMassPosition() + c.side_position, c.axle);
    const double load = std::min(wheel.m_wheelsSuspensionForce, wheel.m_maxSuspensionForce);
    c.limit = std::max(0.0, load * time_step * wheel.m_frictionSlip);
    c.drive = wheel.m_engineForce * time_step;
    c.brake = wheel.m_brake;
  }
  // Velocities are judged as they will be once gravity has acted in the coming step, so a parked
  // vehicle's contacts cancel the pull down the slope instead of creeping.
  const btVector3 gravity_kick = gravity_ * time_step;
  for (int iteration = 0; iteration < kIterations; ++iteration) {
    for (int i = 0; i < count; ++i) {
      Contact& c = contacts[i];
      const btVector3 velocity = body->getVelocityInLocalPoint(c.position) + gravity_kick;
      double forward = c.forward_impulse;
      if (c.drive != 0.0) {
        forward = c.drive;
      } else {
        forward -= velocity.dot(c.forward) * c.forward_mass;
        forward = std::clamp(forward, -c.brake, c.brake);
      }
      double side = c.side_impulse - velocity.dot(c.axle) * c.side_mass;
      const double magnitude_squared = forward * forward + side * side;
      if (magnitude_squared > c.limit * c.limit) {
        const double shrink = c.limit / std::sqrt(magnitude_squared);
        forward *= shrink;
        side *= shrink;
      }
      const double forward_delta = forward - c.forward_impulse;
      const double side_delta = side - c.side_impulse;
      c.forward_impulse = forward;
      c.side_impulse = side;
      if (forward_delta != 0.0) body->applyImpulse(c.forward * btScalar(forward_delta), c.position);
      if (side_delta != 0.0) body->applyImpulse(c.axle * btScalar(side_delta), c.side_position);
    }
  }
}

}  // namespace asg::scene
