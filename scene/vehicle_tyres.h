// The tyre model of the vehicle: btRaycastVehicle with its friction step replaced.
//
// Bullet's own friction step removes only a fraction of the sideways velocity per step and
// ignores the gravity of the coming step, so a parked vehicle creeps down a slope. This one
// solves, for the wheels in contact, impulses that cancel each contact point's sideways velocity
// and (when braking) its rolling velocity as they will be after gravity acts in the coming step,
// with Gauss-Seidel sweeps; drive impulses come from the engine force; each wheel's impulse stays
// within its friction circle of radius friction_slip * normal impulse.
#pragma once

#include <BulletDynamics/Vehicle/btRaycastVehicle.h>

namespace asg::scene {

/// A btRaycastVehicle whose friction step holds on slopes. Used by Vehicle only.
class TyreVehicle final : public btRaycastVehicle {
 public:
  /// gravity [m/s^2, world] is the acceleration the dynamics world applies.
  TyreVehicle(const btVehicleTuning& tuning, btRigidBody* chassis, btVehicleRaycaster* raycaster,
              const btVector3& gravity);

  /// Computes and applies the tyre impulses for a step of time_step [s].
  void updateFriction(btScalar time_step) override;

  /// Gauss-Seidel sweeps over the wheels per step.
  static constexpr int kIterations = 4;

 private:
  btVector3 gravity_;
};

}  // namespace asg::scene
