// Tests for scene/actor_catalog.h.
#include "scene/actor_catalog.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::kBush;
using testing::kTree;
using testing::ShippedCatalog;

TEST(ActorCatalogTest, KindsAreTheCatalogsClassesFoundByNameOrAlias) {
  const ActorCatalog& catalog = ShippedCatalog();
  const ActorKind* tree = catalog.Find(kTree);
  ASSERT_NE(tree, nullptr);
  EXPECT_EQ(catalog.Find("tree"), tree);
  EXPECT_EQ(tree->shape, ActorShape::kTree);
  EXPECT_DOUBLE_EQ(tree->nominal_height, 4.5);
  EXPECT_TRUE(tree->polyhedron.vertices.empty());
  ASSERT_NE(catalog.Find("bush"), nullptr);
  EXPECT_EQ(catalog.Find("bush")->path_name, kBush);
  EXPECT_DOUBLE_EQ(BushRadii(*catalog.Find("bush")).z() * 2.0,
                   catalog.Find("bush")->nominal_height);
  EXPECT_EQ(catalog.Find("/Game/Blueprints/BP_Unknown"), nullptr);
  EXPECT_EQ(catalog.Names().size(), 11u);  // 4 path names + 7 aliases
  EXPECT_EQ(catalog.kinds().size(), 4u);
}

TEST(ActorCatalogTest, RockPolyhedronIsClosedAndWithinItsDimensions) {
  const ActorKind& rock = *ShippedCatalog().Find("rock");
  ASSERT_EQ(rock.polyhedron.indices.size() % 3, 0u);
  ASSERT_FALSE(rock.polyhedron.vertices.empty());
  float top = 0.0f;
  for (const Eigen::Vector3f& v : rock.polyhedron.vertices) {
    EXPECT_LE(v.head<2>().norm(), rock.rock.radius + 1e-6);
    EXPECT_GE(v.z(), 0.0f);
    top = std::max(top, v.z());
  }
  EXPECT_FLOAT_EQ(top, static_cast<float>(rock.rock.height));
  // Closed: every edge is shared by exactly two triangles, in opposite directions.
  std::map<std::pair<uint32_t, uint32_t>, int> edges;
  const auto& idx = rock.polyhedron.indices;
  for (size_t t = 0; t < idx.size(); t += 3) {
    for (int e = 0; e < 3; ++e) ++edges[{idx[t + e], idx[t + (e + 1) % 3]}];
  }
  for (const auto& [edge, count] : edges) {
    EXPECT_EQ(count, 1);
    EXPECT_EQ(edges.count({edge.second, edge.first}), 1u);
  }
}

TEST(ActorCatalogTest, ErrorsAreTheCatalogsNamingTheFile) {
  EXPECT_THROW(ActorCatalog::FromFile("/nonexistent/actors.json"), catalog::CatalogError);
  try {
    ActorCatalog::FromJsonText(R"({"actors": []})", "test.json");
    ADD_FAILURE() << "no error for an empty catalog";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "test.json: actors must be a non-empty array");
  }
}

}  // namespace
}  // namespace asg::scene
