#include "capture/annotations.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace asg::capture {
namespace {

constexpr double kPi = std::numbers::pi;
const Eigen::Vector4f kOutline(0.05f, 0.05f, 0.05f, 0.85f);

// Places 2D points on the ground, lifted, for the overlay.
struct Ground {
  const terrain::Landscape& landscape;
  Eigen::Vector3f operator()(double x, double y) const {
    return {static_cast<float>(x), static_cast<float>(y),
            static_cast<float>(landscape.HeightAt(x, y) + kOverlayLift)};
  }
  Eigen::Vector3f operator()(const Eigen::Vector2d& p) const { return (*this)(p.x(), p.y()); }
};

// A convex polygon (counter-clockwise corners around centre) as a triangle fan.
void AddPolygon(OverlayMesh& mesh, const Ground& ground, const Eigen::Vector2d& centre,
                const std::vector<Eigen::Vector2d>& corners, const Eigen::Vector4f& color) {
  for (size_t i = 0; i < corners.size(); ++i) {
    mesh.AddTriangle(ground(centre), ground(corners[i]), ground(corners[(i + 1) % corners.size()]),
                     color);
  }
}

// A regular polygon of `sides` corners at `radius` [m], the first at angle `phase` [rad].
std::vector<Eigen::Vector2d> RegularPolygon(const Eigen::Vector2d& centre, double radius, int sides,
                                            double phase) {
  std::vector<Eigen::Vector2d> corners;
  for (int i = 0; i < sides; ++i) {
    const double a = phase + 2.0 * kPi * i / sides;
    corners.push_back(centre + radius * Eigen::Vector2d(std::cos(a), std::sin(a)));
  }
  return corners;
}

// A bar from a to b of the given width [m] as two triangles.
void AddBar(OverlayMesh& mesh, const Ground& ground, const Eigen::Vector2d& a,
            const Eigen::Vector2d& b, double width, const Eigen::Vector4f& color_a,
            const Eigen::Vector4f& color_b) {
  const Eigen::Vector2d along = b - a;
  if (along.norm() < 1e-9) return;
  const Eigen::Vector2d side = 0.5 * width * Eigen::Vector2d(-along.y(), along.x()).normalized();
  const Eigen::Vector3f a0 = ground(a - side), a1 = ground(a + side);
  const Eigen::Vector3f b0 = ground(b - side), b1 = ground(b + side);
  mesh.positions.insert(mesh.positions.end(), {a0, b0, b1, a0, b1, a1});
  mesh.colors.insert(mesh.colors.end(), {color_a, color_b, color_b, color_a, color_b, color_a});
}

// The end marker's shape at `size` [m] (about its diameter), scaled by `grow` for the outline.
void AddEndShape(OverlayMesh& mesh, const Ground& ground, const Eigen::Vector2d& at,
                 protocol::TerminationReason reason, double size, double grow,
                 const Eigen::Vector4f& color) {
  const double r = 0.5 * size * grow;
  using R = protocol::TerminationReason;
  switch (reason) {
    case R::REASON_SUCCESS:
      AddPolygon(mesh, ground, at, RegularPolygon(at, r, 24, 0.0), color);
      break;
    case R::REASON_VEHICLE_COLLISION: {
      const double width = 0.3 * size * grow;
      for (double a : {0.25 * kPi, 0.75 * kPi}) {
        const Eigen::Vector2d d = r * Eigen::Vector2d(std::cos(a), std::sin(a));
        AddBar(mesh, ground, at - d, at + d, width, color, color);
      }
      break;
    }
    case R::REASON_VEHICLE_FLIPPED:
      // Pointing south (down in the ortho aerial).
      AddPolygon(mesh, ground, at, RegularPolygon(at, r, 3, kPi), color);
      break;
    case R::REASON_SIM_TIMEOUT:
    case R::REASON_VEHICLE_IDLING_TIMEOUT:
      AddPolygon(mesh, ground, at, RegularPolygon(at, r * std::sqrt(2.0) * 0.8, 4, 0.25 * kPi),
                 color);
      break;
    case R::REASON_VEHICLE_STUCK_TIMEOUT:
    case R::REASON_VEHICLE_OUT_OF_BOUNDS:
      AddPolygon(mesh, ground, at, RegularPolygon(at, r * 1.1, 4, 0.0), color);
      break;
  }
}

double Speed(const protocol::OdometryWithoutCovariance& sample) {
  const auto& v = sample.twist.linear;
  return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

}  // namespace

OverlayMesh GoalBeacon(const scene::World& world, const protocol::SceneCaptureSettings& settings) {
  OverlayMesh mesh;
  const double radius = std::clamp(0.12 * world.goal_radius, 0.3, 1.0);
  const double height = std::max(4.0, 1.2 * world.goal_radius);
  const auto& c = settings.goal_sphere_color;
  const Eigen::Vector4f color(static_cast<float>(c.r), static_cast<float>(c.g),
                              static_cast<float>(c.b), 0.8f);
  const double base = world.goal.z();
  const auto at = [&](double angle, double z) {
    return Eigen::Vector3f(static_cast<float>(world.goal.x() + radius * std::cos(angle)),
                           static_cast<float>(world.goal.y() + radius * std::sin(angle)),
                           static_cast<float>(z));
  };
  const Eigen::Vector3f top(static_cast<float>(world.goal.x()), static_cast<float>(world.goal.y()),
                            static_cast<float>(base + height));
  constexpr int kSides = 12;
  for (int i = 0; i < kSides; ++i) {
    const double a = 2.0 * kPi * i / kSides, b = 2.0 * kPi * (i + 1) / kSides;
    mesh.AddTriangle(at(a, base), at(b, base), at(b, base + height), color);
    mesh.AddTriangle(at(a, base), at(b, base + height), at(a, base + height), color);
    mesh.AddTriangle(at(a, base + height), at(b, base + height), top, color);
  }
  return mesh;
}

OverlayMesh Faded(OverlayMesh mesh, float alpha) {
  for (Eigen::Vector4f& color : mesh.colors) color.w() *= alpha;
  return mesh;
}

double FastestSpeed(const protocol::AnalyzeScenarioRequest& run) {
  double fastest = 1.0;
  for (const protocol::OdometryWithoutCovariance& sample : run.vehicle_trajectory) {
    fastest = std::max(fastest, Speed(sample));
  }
  return fastest;
}

void OverlayMesh::AddTriangle(const Eigen::Vector3f& a, const Eigen::Vector3f& b,
                              const Eigen::Vector3f& c, const Eigen::Vector4f& color) {
  positions.insert(positions.end(), {a, b, c});
  colors.insert(colors.end(), {color, color, color});
}

void OverlayMesh::Append(const OverlayMesh& other) {
  positions.insert(positions.end(), other.positions.begin(), other.positions.end());
  colors.insert(colors.end(), other.colors.begin(), other.colors.end());
}

OverlayMesh GoalRing(const scene::World& world, const protocol::SceneCaptureSettings& settings) {
  OverlayMesh mesh;
  const Ground ground{*world.landscape};
  const double outer = world.goal_radius;
  const double inner = std::max(0.0, outer - std::max(settings.goal_sphere_thickness, 0.0));
  const Eigen::Vector4f color(static_cast<float>(settings.goal_sphere_color.r),
                              static_cast<float>(settings.goal_sphere_color.g),
                              static_cast<float>(settings.goal_sphere_color.b),
                              static_cast<float>(settings.goal_sphere_color.a));
  const Eigen::Vector2d centre = world.goal.head<2>();
  constexpr int kSegments = 128;
  for (int i = 0; i < kSegments; ++i) {
    const double a0 = 2.0 * kPi * i / kSegments;
    const double a1 = 2.0 * kPi * (i + 1) / kSegments;
    const Eigen::Vector2d d0(std::cos(a0), std::sin(a0));
    const Eigen::Vector2d d1(std::cos(a1), std::sin(a1));
    const Eigen::Vector3f i0 = ground(centre + inner * d0), o0 = ground(centre + outer * d0);
    const Eigen::Vector3f i1 = ground(centre + inner * d1), o1 = ground(centre + outer * d1);
    mesh.AddTriangle(i0, o0, o1, color);
    mesh.AddTriangle(i0, o1, i1, color);
  }
  return mesh;
}

bool CrossesJump(double before, double after, const std::vector<double>& jumps) {
  // Stamps and jump times are the same clock; the tolerance absorbs the stamps' rounding to
  // nanoseconds.
  constexpr double kTolerance = 1e-6;  // [s]
  for (const double jump : jumps) {
    if (before < jump - kTolerance && jump - kTolerance <= after) return true;
  }
  return false;
}

namespace {

/// Adds `run`'s trajectory (not empty) as a ribbon `ribbon` [m] wide over a dark rim `outline`
/// [m] wide, coloured by speed, not drawn across `jumps` [s].
void AddTrajectory(const protocol::AnalyzeScenarioRequest& run, const Ground& ground, double ribbon,
                   double outline, const std::vector<double>& jumps, OverlayMesh* mesh) {
  const auto& trajectory = run.vehicle_trajectory;
  std::vector<Eigen::Vector2d> points;
  std::vector<double> speeds;
  std::vector<bool> after_jump;  // no bar from the point before
  const double fastest = FastestSpeed(run);
  for (size_t i = 0; i < trajectory.size(); ++i) {
    const protocol::OdometryWithoutCovariance& sample = trajectory[i];
    const Eigen::Vector2d p(sample.pose.position.x, sample.pose.position.y);
    const bool jumped =
        i > 0 && !jumps.empty() &&
        CrossesJump(trajectory[i - 1].header.stamp.Seconds(), sample.header.stamp.Seconds(), jumps);
    // Keep samples at least half a ribbon apart (the last one, and both ends of a jump, always).
    const bool next_jumps =
        i + 1 < trajectory.size() && !jumps.empty() &&
        CrossesJump(sample.header.stamp.Seconds(), trajectory[i + 1].header.stamp.Seconds(), jumps);
    if (!points.empty() && (p - points.back()).norm() < 0.5 * ribbon &&
        i + 1 != trajectory.size() && !jumped && !next_jumps) {
      continue;
    }
    points.push_back(p);
    speeds.push_back(Speed(sample));
    after_jump.push_back(jumped);
  }
  // Dark outline first, then the coloured ribbon; round joints fill the corners.
  for (int layer = 0; layer < 2; ++layer) {
    const double width = layer == 0 ? ribbon + 2.0 * outline : ribbon;
    for (size_t i = 0; i < points.size(); ++i) {
      const Eigen::Vector4f color = layer == 0 ? kOutline : SpeedColor(speeds[i], fastest);
      AddPolygon(*mesh, ground, points[i], RegularPolygon(points[i], 0.5 * width, 8, 0.0), color);
      if (i + 1 < points.size() && !after_jump[i + 1]) {
        const Eigen::Vector4f next = layer == 0 ? kOutline : SpeedColor(speeds[i + 1], fastest);
        AddBar(*mesh, ground, points[i], points[i + 1], width, color, next);
      }
    }
  }
}

}  // namespace

OverlayMesh RunMarks(const scene::World& world, const protocol::AnalyzeScenarioRequest* run,
                     double metres_per_pixel, const std::vector<double>& jumps) {
  OverlayMesh mesh;
  const Ground ground{*world.landscape};
  const double ribbon = std::max(0.35, 4.0 * metres_per_pixel);   // [m] trajectory width
  const double marker = std::max(2.5, 22.0 * metres_per_pixel);   // [m] start / end size
  const double outline = std::max(0.15, 1.5 * metres_per_pixel);  // [m] dark rim

  if (run != nullptr && !run->vehicle_trajectory.empty()) {
    AddTrajectory(*run, ground, ribbon, outline, jumps, &mesh);
  }

  // Start arrow pointing along the start yaw.
  const double yaw = world.start_yaw * kPi / 180.0;
  const Eigen::Vector2d forward(std::cos(yaw), std::sin(yaw));
  const Eigen::Vector2d left(-forward.y(), forward.x());
  const Eigen::Vector2d start = world.start.head<2>();
  for (int layer = 0; layer < 2; ++layer) {
    const double grow = layer == 0 ? outline : 0.0;
    const Eigen::Vector2d tip = start + forward * (0.6 * marker + 2.0 * grow);
    const Eigen::Vector2d back = start - forward * (0.4 * marker + grow);
    const Eigen::Vector2d notch = start - forward * (0.15 * marker - grow);
    const double half_width = 0.35 * marker + grow;
    const Eigen::Vector4f color = layer == 0 ? kOutline : Eigen::Vector4f(1, 1, 1, 1);
    mesh.AddTriangle(ground(tip), ground(back + left * half_width), ground(notch), color);
    mesh.AddTriangle(ground(tip), ground(notch), ground(back - left * half_width), color);
  }

  if (run != nullptr) {
    const protocol::TerminationReason reason = run->termination_reason;
    Eigen::Vector2d end = start;
    if (!run->vehicle_trajectory.empty()) {
      const auto& last = run->vehicle_trajectory.back().pose.position;
      end = {last.x, last.y};
    }
    const double grow = 1.0 + 2.0 * outline / marker;
    AddEndShape(mesh, ground, end, reason, marker, grow, kOutline);
    AddEndShape(mesh, ground, end, reason, marker, 1.0, TerminationColor(reason));
  }
  return mesh;
}

Eigen::Vector4f SpeedColor(double speed, double fastest) {
  static const Eigen::Vector3f kStops[] = {{0.15f, 0.25f, 1.0f},
                                           {0.0f, 0.85f, 1.0f},
                                           {0.1f, 0.9f, 0.2f},
                                           {1.0f, 0.9f, 0.0f},
                                           {1.0f, 0.1f, 0.05f}};
  const double t = std::clamp(fastest > 0.0 ? speed / fastest : 0.0, 0.0, 1.0) * 4.0;
  const int i = std::min(static_cast<int>(t), 3);
  const float f = static_cast<float>(t - i);
  const Eigen::Vector3f c = (1.0f - f) * kStops[i] + f * kStops[i + 1];
  return {c.x(), c.y(), c.z(), 1.0f};
}

Eigen::Vector4f TerminationColor(protocol::TerminationReason reason) {
  using R = protocol::TerminationReason;
  switch (reason) {
    case R::REASON_SUCCESS:
      return {0.1f, 0.85f, 0.2f, 1.0f};
    case R::REASON_VEHICLE_COLLISION:
      return {1.0f, 0.05f, 0.05f, 1.0f};
    case R::REASON_VEHICLE_FLIPPED:
      return {0.95f, 0.1f, 0.95f, 1.0f};
    case R::REASON_SIM_TIMEOUT:
      return {1.0f, 0.55f, 0.0f, 1.0f};
    case R::REASON_VEHICLE_IDLING_TIMEOUT:
      return {1.0f, 0.95f, 0.1f, 1.0f};
    case R::REASON_VEHICLE_STUCK_TIMEOUT:
      return {1.0f, 0.3f, 0.1f, 1.0f};
    case R::REASON_VEHICLE_OUT_OF_BOUNDS:
      return {0.6f, 0.2f, 1.0f, 1.0f};
  }
  return {1.0f, 1.0f, 1.0f, 1.0f};
}

}  // namespace asg::capture
