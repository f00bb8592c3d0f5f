// Annotation geometry drawn over the `_annotated` images: the goal ring on every view, a goal
// beacon on the perspective views, and on the ortho aerials the start pose, the trajectory
// coloured by speed, the end of the run and, after a run, a speed legend.
//
// The goal beacon is a vertical column in the goal colour standing on the goal, max(4 m, 1.2 x
// goal radius) tall, so that a view from low down shows the goal above the trees and bushes;
// where a hill or an actor hides it, it shows through faintly.
// After a run the ortho aerial also gets a speed legend (speed_legend.h).
//
// Legend of the ortho aerial marks:
//   start:       white arrow with a dark outline at the start, pointing along the start yaw
//   trajectory:  ribbon over a dark outline; colour by speed, blue (stopped) -> cyan -> green ->
//                yellow -> red (the fastest speed of this run, at least 1 m/s)
//   end marker at the last trajectory pose, by termination reason:
//     REASON_SUCCESS                 green disc
//     REASON_VEHICLE_COLLISION       red cross
//     REASON_VEHICLE_FLIPPED         magenta triangle pointing down
//     REASON_SIM_TIMEOUT             orange square
//     REASON_VEHICLE_IDLING_TIMEOUT  yellow square
//     REASON_VEHICLE_STUCK_TIMEOUT   red-orange diamond
//     REASON_VEHICLE_OUT_OF_BOUNDS   purple diamond
#pragma once

#include <Eigen/Core>
#include <vector>

#include "protocol/messages.h"
#include "scene/world.h"

namespace asg::capture {

/// Unlit triangles with one RGBA colour per vertex, in world coordinates [m].
struct OverlayMesh {
  std::vector<Eigen::Vector3f> positions;  ///< [m] world, three per triangle
  std::vector<Eigen::Vector4f> colors;     ///< [0, 1] RGBA, one per position

  void AddTriangle(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c,
                   const Eigen::Vector4f& color);
  void Append(const OverlayMesh& other);
};

/// [m] height annotations float above the ground so that the terrain does not cover them.
inline constexpr double kOverlayLift = 0.15;

/// The goal ring: an annulus around world.goal with outer radius world.goal_radius and width
/// settings.goal_sphere_thickness [m] (at most the radius), in settings.goal_sphere_color, draped
/// over the ground.
OverlayMesh GoalRing(const scene::World& world, const protocol::SceneCaptureSettings& settings);

/// The ortho aerial's run marks: the start arrow always; the trajectory and the end marker when
/// `run` is not null (before a run it is). Mark sizes grow with metres_per_pixel [m] so that they
/// stay legible at any image size. `jumps` [s] are the sim times at which the vehicle was moved
/// by hand (an interactive run's teleports): the trajectory is not drawn across them, from its
/// last sample stamped before a jump to its first stamped at or after it.
OverlayMesh RunMarks(const scene::World& world, const protocol::AnalyzeScenarioRequest* run,
                     double metres_per_pixel, const std::vector<double>& jumps = {});

/// Whether the trajectory segment from a sample stamped `before` [s] to the next, stamped
/// `after` [s], crosses one of `jumps` [s] (see RunMarks).
bool CrossesJump(double before, double after, const std::vector<double>& jumps);

/// The goal beacon (see above), for perspective views.
OverlayMesh GoalBeacon(const scene::World& world, const protocol::SceneCaptureSettings& settings);

/// Opacity of the goal beacon where something hides it (drawn on top, faintly).
inline constexpr float kHiddenBeaconAlpha = 0.3f;

/// `mesh` with every colour's alpha multiplied by `alpha`.
OverlayMesh Faded(OverlayMesh mesh, float alpha);

/// [m/s] the speed that maps to red on `run`'s trajectory: its fastest sample, at least 1 m/s.
double FastestSpeed(const protocol::AnalyzeScenarioRequest& run);

/// Trajectory colour of `speed` [m/s] when `fastest` [m/s] maps to red (legend above).
Eigen::Vector4f SpeedColor(double speed, double fastest);

/// End marker colour of a termination reason (legend above).
Eigen::Vector4f TerminationColor(protocol::TerminationReason reason);

}  // namespace asg::capture
