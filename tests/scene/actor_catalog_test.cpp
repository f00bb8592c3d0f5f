// Tests for scene/actor_catalog.h.
#include "scene/actor_catalog.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/scene/scene_test_util.h"

namespace asg::scene {
namespace {

using testing::kBush;
using testing::kTree;
using testing::ShippedCatalog;

std::string LoadError(const std::string& text) {
  try {
    ActorCatalog::FromJsonText(text, "test.json");
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "no error";
}

TEST(ActorCatalogTest, ShippedCatalogHasTheResearchClassesAndAliases) {
  const ActorCatalog& catalog = ShippedCatalog();
  const ActorKind* tree = catalog.Find(kTree);
  ASSERT_NE(tree, nullptr);
  EXPECT_EQ(catalog.Find("tree"), tree);
  EXPECT_EQ(tree->shape, ActorShape::kTree);
  EXPECT_TRUE(tree->upright);
  EXPECT_DOUBLE_EQ(tree->nominal_height, 4.5);
  EXPECT_NEAR(tree->canopy_base_height + tree->canopy_height, tree->nominal_height, 1e-12);
  const ActorKind* bush = catalog.Find("bush");
  ASSERT_NE(bush, nullptr);
  EXPECT_EQ(bush->path_name, kBush);
  EXPECT_FALSE(bush->upright);
  EXPECT_DOUBLE_EQ(bush->bush_radii.z() * 2.0, bush->nominal_height);
  ASSERT_NE(catalog.Find("rock"), nullptr);
  EXPECT_EQ(catalog.Find("rock")->path_name,
            "/Game/Blueprints/BP_SSA_Rock_Sandstone_Field_Desktop");
  ASSERT_NE(catalog.Find("grass"), nullptr);
  EXPECT_TRUE(catalog.Find("grass")->always_traversable);
  EXPECT_EQ(catalog.Find("/Game/Blueprints/BP_Unknown"), nullptr);
  EXPECT_EQ(catalog.Names().size(), 11u);  // 4 path names + 7 aliases
}

TEST(ActorCatalogTest, TraversabilityFollowsHeightTimesScale) {
  const ActorCatalog& catalog = ShippedCatalog();
  const ActorKind& bush = *catalog.Find("bush");  // 0.9 m
  EXPECT_FALSE(IsTraversable(bush, 1.0));
  EXPECT_TRUE(IsTraversable(bush, 0.2));    // 0.18 m
  EXPECT_FALSE(IsTraversable(bush, 0.25));  // 0.225 m
  EXPECT_TRUE(IsTraversable(*catalog.Find("grass"), 3.0));
}

TEST(ActorCatalogTest, RockPolyhedronIsClosedAndWithinItsDimensions) {
  const ActorKind& rock = *ShippedCatalog().Find("rock");
  ASSERT_EQ(rock.polyhedron.indices.size() % 3, 0u);
  ASSERT_FALSE(rock.polyhedron.vertices.empty());
  float top = 0.0f;
  for (const Eigen::Vector3f& v : rock.polyhedron.vertices) {
    EXPECT_LE(v.head<2>().norm(), rock.radius + 1e-6);
    EXPECT_GE(v.z(), 0.0f);
    top = std::max(top, v.z());
  }
  EXPECT_FLOAT_EQ(top, static_cast<float>(rock.height));
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

TEST(ActorCatalogTest, ErrorsNameTheFileThePathAndTheValue) {
  EXPECT_EQ(LoadError("{"), "test.json: $ is not valid JSON");
  EXPECT_EQ(LoadError(R"({"actors": []})"), "test.json: actors must be a non-empty array");
  const std::string kind = R"({"actors": [{"path_name": "p", "shape": "bush", "nominal_height": 1,
      "upright": false, "always_traversable": false, "color": [0, 0, 0],
      "bush": {"radii": [1, 1, 0.5]}, "collision": {"type": "sphere", "radius": 0.5, "height": 1}}]})";
  EXPECT_EQ(LoadError(kind), "no error");
  std::string bad = kind;
  bad.replace(bad.find("\"nominal_height\": 1"), 19, "\"nominal_height\": -2");
  EXPECT_EQ(LoadError(bad), "test.json: actors[0].nominal_height = -2 must be > 0");
  bad = kind;
  bad.replace(bad.find("[1, 1, 0.5]"), 11, "[1, 0, 0.5]");
  EXPECT_EQ(LoadError(bad), "test.json: actors[0].bush.radii[1] = 0 must be > 0");
  bad = kind;
  bad.replace(bad.find("\"sphere\""), 8, "\"cone\"");
  EXPECT_EQ(LoadError(bad),
            "test.json: actors[0].collision.type = \"cone\" must be cylinder, capsule, sphere or "
            "convex_hull");
  bad = kind;
  bad.replace(bad.find("\"upright\""), 9, "\"uprite\"");
  EXPECT_EQ(LoadError(bad), "test.json: actors[0] has the unknown key \"uprite\"");
  bad = kind;
  bad.replace(bad.find("\"color\": [0, 0, 0]"), 18, "\"color\": [0, 2, 0]");
  EXPECT_EQ(LoadError(bad), "test.json: actors[0].color[1] = 2 must be a number in [0, 1]");
}

TEST(ActorCatalogTest, MissingFileIsAnError) {
  EXPECT_THROW(ActorCatalog::FromFile("/nonexistent/actors.json"), std::runtime_error);
  EXPECT_EQ(DefaultActorCatalogPath(), std::string(ASG_SOURCE_DIR) + "/configs/actors.json");
}

}  // namespace
}  // namespace asg::scene
