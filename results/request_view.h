// What a scenario's request.json says about its scene, read leniently. request.json holds the
// request as run, or, for a scenario found invalid before running, the request as written: it may
// lack fields or hold values of the wrong type, so every fact is read on its own and is null when
// absent. Values are kept as the file holds them (JSON), so that what is shown of them is what
// the file says.
#pragma once

#include <cstddef>
#include <vector>

#include "json/json.h"

namespace asg::results {

/// The scene facts of a request.json.
struct RequestView {
  /// One actor instance: path_name, x and y of its actor entry, and its scale (1.0 when the entry
  /// has none for it).
  struct Obstacle {
    json::Json path_name;  ///< the actor class; null when absent
    json::Json x;          ///< [m] ssa_array[k].x[i]
    json::Json y;          ///< [m] ssa_array[k].y[i]
    json::Json scale;      ///< ssa_array[k].scale[i], or 1.0
    size_t layout = 0;     ///< k: its entry in ssa_array
    size_t instance = 0;   ///< i: its instance in that entry
  };
  json::Json start;         ///< vehicle_start_location
  json::Json goal;          ///< vehicle_goal_location
  json::Json goal_radius;   ///< [m] goal_radius
  json::Json landscape;     ///< scene_description.landscape
  json::Json nominal_size;  ///< [m] scene_description.landscape.nominal_size
  /// Every instance of every ssa_array entry whose x and y are arrays, in order (as many per
  /// entry as the shorter of x and y holds).
  std::vector<Obstacle> obstacles;
};

/// The view of `request` (a parsed request.json; null or any other value gives an all-null view).
RequestView ViewOfRequest(const json::Json& request);

}  // namespace asg::results
