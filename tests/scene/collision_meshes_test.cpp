// Tests for scene/collision_meshes.h: every shipped actor class gives a closed, finite collision
// mesh at every scale a batch may use, and grown hulls lie outside their polyhedron.
#include "scene/collision_meshes.h"

#include <gtest/gtest.h>

#include <cmath>

#include "scene/actor_catalog.h"
#include "tests/source_catalog.h"

namespace asg::scene {
namespace {

TEST(CollisionMesh, EveryShippedClassAtScalesFromAFifthToFourIsFiniteAndBounded) {
  const ActorCatalog catalog = ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  for (const std::string& name : catalog.Names()) {
    const ActorKind& kind = *catalog.Find(name);
    for (int step = 20; step <= 400; ++step) {
      const double scale = step / 100.0;
      const TriangleMesh mesh = CollisionMesh(kind, scale);
      ASSERT_FALSE(mesh.positions.empty()) << name << " at " << scale;
      ASSERT_EQ(mesh.indices.size() % 3, 0u) << name << " at " << scale;
      for (const Eigen::Vector3f& p : mesh.positions) {
        ASSERT_TRUE(p.allFinite()) << name << " at " << scale;
        // Nothing is pushed far out: within the class's nominal height (every shipped class is
        // at most as wide as it is tall) plus half a metre, scaled.
        ASSERT_LT(p.norm(), scale * (std::sqrt(2.0) * kind.nominal_height + 0.5))
            << name << " at " << scale;
      }
    }
  }
}

}  // namespace
}  // namespace asg::scene
