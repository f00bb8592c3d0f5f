// Lenient reading of request.json's scene facts.
#include "results/request_view.h"

#include <algorithm>

namespace asg::results {
namespace {

using json::Json;

// `json[key]` when `json` is an object holding it, else null.
Json Get(const Json& json, const char* key) {
  return json.is_object() && json.contains(key) ? json[key] : Json();
}

}  // namespace

RequestView ViewOfRequest(const Json& request) {
  RequestView view;
  view.start = Get(request, "vehicle_start_location");
  view.goal = Get(request, "vehicle_goal_location");
  view.goal_radius = Get(request, "goal_radius");
  const Json scene = Get(request, "scene_description");
  view.landscape = Get(scene, "landscape");
  view.nominal_size = Get(view.landscape, "nominal_size");
  const Json actors = Get(scene, "ssa_array");
  if (!actors.is_array()) return view;
  for (size_t k = 0; k < actors.size(); ++k) {
    const Json& actor = actors[k];
    const Json xs = Get(actor, "x");
    const Json ys = Get(actor, "y");
    const Json scales = Get(actor, "scale");
    if (!xs.is_array() || !ys.is_array()) continue;
    for (size_t i = 0; i < std::min(xs.size(), ys.size()); ++i) {
      view.obstacles.push_back({Get(actor, "path_name"), xs[i], ys[i],
                                scales.is_array() && i < scales.size() ? scales[i] : Json(1.0), k,
                                i});
    }
  }
  return view;
}

}  // namespace asg::results
