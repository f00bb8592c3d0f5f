// Tests for results/request_view.h.
#include "results/request_view.h"

#include <gtest/gtest.h>

namespace asg::results {
namespace {

using json::Json;

TEST(ViewOfRequestTest, TakesTheSceneFactsAsWritten) {
  const Json request = Json::parse(R"({
    "vehicle_start_location": {"x": 10, "y": 10.0, "z": 0.0},
    "vehicle_goal_location": {"x": 50.0, "y": 50.0, "z": 0.0},
    "goal_radius": 5.0,
    "scene_description": {
      "landscape": {"nominal_size": 60.0, "relief": []},
      "ssa_array": [
        {"path_name": "/Game/Tree", "x": [20.0, 40.0], "y": [20.0, 40.0, 45.0],
         "scale": [1.5]},
        {"path_name": "/Game/Bush", "x": "not an array", "y": [1.0]},
        {"x": [3.0], "y": [4.0]}
      ]
    }
  })");
  const RequestView view = ViewOfRequest(request);
  EXPECT_EQ(view.start, request["vehicle_start_location"]);
  EXPECT_EQ(view.start["x"].dump(), "10");  // kept as the file holds it
  EXPECT_EQ(view.goal, request["vehicle_goal_location"]);
  EXPECT_EQ(view.goal_radius, Json(5.0));
  EXPECT_EQ(view.landscape, request["scene_description"]["landscape"]);
  EXPECT_EQ(view.nominal_size, Json(60.0));
  // Two instances of the tree (the shorter of x and y), none of the bush, one without a name.
  ASSERT_EQ(view.obstacles.size(), 3u);
  EXPECT_EQ(view.obstacles[0].path_name, Json("/Game/Tree"));
  EXPECT_EQ(view.obstacles[0].scale, Json(1.5));
  EXPECT_EQ(view.obstacles[1].x, Json(40.0));
  EXPECT_EQ(view.obstacles[1].y, Json(40.0));
  EXPECT_EQ(view.obstacles[1].scale, Json(1.0));  // no scale for it: 1
  EXPECT_TRUE(view.obstacles[2].path_name.is_null());
  EXPECT_EQ(view.obstacles[2].x, Json(3.0));
}

TEST(ViewOfRequestTest, AnythingButAnObjectGivesNulls) {
  for (const Json& request :
       {Json(), Json::array({1, 2}), Json("request"), Json::parse(R"({"scene_description": 3})")}) {
    const RequestView view = ViewOfRequest(request);
    EXPECT_TRUE(view.start.is_null());
    EXPECT_TRUE(view.goal.is_null());
    EXPECT_TRUE(view.goal_radius.is_null());
    EXPECT_TRUE(view.landscape.is_null());
    EXPECT_TRUE(view.nominal_size.is_null());
    EXPECT_TRUE(view.obstacles.empty());
  }
}

}  // namespace
}  // namespace asg::results
