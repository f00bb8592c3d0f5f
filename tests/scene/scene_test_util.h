// Request builders and the shipped catalog, shared by the scene tests and benchmarks.
#pragma once

#include <string>
#include <vector>

#include "experiments/scene/reference_workload.h"
#include "protocol/messages.h"
#include "scene/actor_catalog.h"
#include "tests/source_catalog.h"

namespace asg::scene::testing {

inline const char* const kTree =
    "/Game/Blueprints/BP_SSA_Tree_Juniper_Rocky_Mountain_Field_Desktop";
inline const char* const kBush = "/Game/Blueprints/BP_SSA_Bush_Barberry_Field_Desktop";

/// configs/actors.json of this source tree, loaded once.
inline const ActorCatalog& ShippedCatalog() {
  static const ActorCatalog catalog = ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  return catalog;
}

/// The reference workload without actors (experiments/scene/reference_workload.h).
using experiments::ReferenceRequest;

/// Appends one layout of `path_name` with instances at (x[i], y[i]), yaw 0, the given scale.
inline void AddActors(protocol::RunScenarioRequest* request, const std::string& path_name,
                      const std::vector<double>& x, const std::vector<double>& y,
                      double scale = 1.0, bool visible = true) {
  protocol::StructuralSceneActorLayout layout;
  layout.path_name = path_name;
  layout.num_instances = static_cast<uint16_t>(x.size());
  layout.visible.assign(x.size(), visible);
  layout.cast_shadow.assign(x.size(), true);
  layout.x = x;
  layout.y = y;
  layout.yaw.assign(x.size(), 0.0);
  layout.scale.assign(x.size(), scale);
  request->scene_description.ssa_array.push_back(layout);
}

/// A hill relief feature.
inline protocol::ReliefFeature Hill(double x, double y, double radius, double height) {
  protocol::ReliefFeature hill;
  hill.type = protocol::ReliefFeature::Type::kHill;
  hill.x = x;
  hill.y = y;
  hill.radius = radius;
  hill.height = height;
  return hill;
}

}  // namespace asg::scene::testing
