// Tests for catalog/actor_catalog.h.
#include "catalog/actor_catalog.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/source_catalog.h"

namespace asg::catalog {
namespace {

const char* const kTree = "/Game/Blueprints/BP_SSA_Tree_Juniper_Rocky_Mountain_Field_Desktop";
const char* const kBush = "/Game/Blueprints/BP_SSA_Bush_Barberry_Field_Desktop";

const ActorCatalog& ShippedCatalog() {
  static const ActorCatalog catalog = ActorCatalog::FromFile(asg::testing::SourceCatalogPath());
  return catalog;
}

std::string LoadError(const std::string& text) {
  try {
    ActorCatalog::FromJsonText(text, "test.json");
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "no error";
}

// A valid one-class catalog: a bush.
const std::string kBushCatalog = R"({"actors": [{"path_name": "p", "shape": "bush",
    "nominal_height": 1, "upright": false, "always_traversable": false, "color": [0, 0, 0],
    "bush": {"radii": [1, 1, 0.5]}, "collision": {"type": "sphere", "radius": 0.5,
    "height": 1}}]})";

// kBushCatalog with `from` replaced by `to`.
std::string Changed(const std::string& from, const std::string& to) {
  std::string text = kBushCatalog;
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(ActorCatalogTest, ShippedCatalogHasTheResearchClassesAndAliases) {
  const ActorCatalog& catalog = ShippedCatalog();
  const ActorClass* tree = catalog.Find(kTree);
  ASSERT_NE(tree, nullptr);
  EXPECT_EQ(catalog.Find("tree"), tree);
  EXPECT_EQ(tree->shape, ActorShape::kTree);
  EXPECT_TRUE(tree->upright);
  EXPECT_DOUBLE_EQ(tree->nominal_height, 4.5);
  EXPECT_NEAR(tree->tree.canopy_base_height + tree->tree.canopy_height, tree->nominal_height,
              1e-12);
  const ActorClass* bush = catalog.Find("bush");
  ASSERT_NE(bush, nullptr);
  EXPECT_EQ(bush->path_name, kBush);
  EXPECT_FALSE(bush->upright);
  EXPECT_DOUBLE_EQ(bush->bush.radii[2] * 2.0, bush->nominal_height);
  ASSERT_NE(catalog.Find("rock"), nullptr);
  EXPECT_EQ(catalog.Find("rock")->path_name,
            "/Game/Blueprints/BP_SSA_Rock_Sandstone_Field_Desktop");
  EXPECT_EQ(catalog.Find("rock")->collision.type, CollisionType::kConvexHull);
  ASSERT_NE(catalog.Find("grass"), nullptr);
  EXPECT_TRUE(catalog.Find("grass")->always_traversable);
  EXPECT_EQ(catalog.Find("/Game/Blueprints/BP_Unknown"), nullptr);
  EXPECT_EQ(catalog.IndexOf("juniper"), 0);
  EXPECT_EQ(catalog.IndexOf("cactus"), -1);
  EXPECT_EQ(catalog.Names().size(), 11u);  // 4 path names + 7 aliases
}

TEST(ActorCatalogTest, TraversabilityFollowsHeightTimesScale) {
  const ActorCatalog& catalog = ShippedCatalog();
  const ActorClass& bush = *catalog.Find("bush");  // 0.9 m
  EXPECT_FALSE(IsTraversable(bush, 1.0));
  EXPECT_TRUE(IsTraversable(bush, 0.2));    // 0.18 m
  EXPECT_FALSE(IsTraversable(bush, 0.25));  // 0.225 m
  EXPECT_TRUE(IsTraversable(*catalog.Find("grass"), 3.0));
}

TEST(ActorCatalogTest, ErrorsNameTheFileThePathAndTheValue) {
  EXPECT_EQ(LoadError("{"), "test.json: $ is not valid JSON");
  EXPECT_EQ(LoadError(R"({"actors": []})"), "test.json: actors must be a non-empty array");
  EXPECT_EQ(LoadError(kBushCatalog), "no error");
  EXPECT_EQ(LoadError(Changed("\"nominal_height\": 1", "\"nominal_height\": -2")),
            "test.json: actors[0].nominal_height = -2 must be > 0");
  EXPECT_EQ(LoadError(Changed("[1, 1, 0.5]", "[1, 0, 0.5]")),
            "test.json: actors[0].bush.radii[1] = 0 must be > 0");
  EXPECT_EQ(LoadError(Changed("\"sphere\"", "\"cone\"")),
            "test.json: actors[0].collision.type = \"cone\" must be cylinder, capsule, sphere or "
            "convex_hull");
  EXPECT_EQ(LoadError(Changed("\"upright\"", "\"uprite\"")),
            "test.json: actors[0] has the unknown key \"uprite\"");
  EXPECT_EQ(LoadError(Changed("\"color\": [0, 0, 0]", "\"color\": [0, 2, 0]")),
            "test.json: actors[0].color[1] = 2 must be a number in [0, 1]");
}

TEST(ActorCatalogTest, ShapesTakeOnlyTheirOwnBlockAndCollisionFitsTheShape) {
  EXPECT_EQ(
      LoadError(Changed("\"bush\": {", "\"grass\": {\"radius\": 1, \"height\": 1}, \"bush\": {")),
      "test.json: actors[0].grass is not allowed for shape \"bush\"");
  EXPECT_EQ(LoadError(Changed("\"color\": [0, 0, 0]",
                              "\"color\": [0, 0, 0], \"trunk_color\": [0, 0, 0]")),
            "test.json: actors[0].trunk_color is only allowed for shape \"tree\"");
  EXPECT_EQ(LoadError(Changed("\"bush\": {\"radii\": [1, 1, 0.5]}, ", "")),
            "test.json: actors[0] is missing the required key \"bush\"");
  EXPECT_EQ(LoadError(Changed("\"sphere\"", "\"convex_hull\"")),
            "test.json: actors[0].collision.type = \"convex_hull\" needs shape \"rock\"");
  EXPECT_EQ(LoadError(Changed("\"sphere\", \"radius\": 0.5", "\"capsule\", \"radius\": 0.75")),
            "test.json: actors[0].collision.height = 1 must be >= 2 * radius for a capsule");
  EXPECT_EQ(
      LoadError(Changed("\"path_name\": \"p\"", "\"path_name\": \"p\", \"aliases\": [\"p\"]")),
      "test.json: actors[0] repeats the name \"p\"");
  EXPECT_EQ(LoadError(Changed("\"upright\": false", "\"upright\": false, \"upright\": true")),
            "test.json: actors[0].upright: duplicate key in one object");
}

TEST(ActorCatalogTest, MissingFileIsAnError) {
  EXPECT_THROW(ActorCatalog::FromFile("/nonexistent/actors.json"), CatalogError);
  EXPECT_EQ(asg::testing::SourceCatalogPath(),
            std::string(ASG_SOURCE_DIR) + "/configs/actors.json");
}

}  // namespace
}  // namespace asg::catalog
