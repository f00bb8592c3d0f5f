// Polyline length.
#include "planning/polyline.h"

namespace asg::planning {

double PathLength(const Polyline& points) {
  double length = 0.0;
  for (size_t i = 1; i < points.size(); ++i) length += (points[i] - points[i - 1]).norm();
  return length;
}

}  // namespace asg::planning
