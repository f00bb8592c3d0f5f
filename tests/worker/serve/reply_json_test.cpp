// Tests for worker/serve/reply_json.h: the geometry, header, state, bounds and result JSON of the
// interactive worker's replies.
#include "worker/serve/reply_json.h"

#include <gtest/gtest.h>

namespace asg::worker::serve {
namespace {

using json::Json;

TEST(ReplyJsonTest, VectorsQuaternionsAndPoses) {
  EXPECT_EQ(Vector3Json({1.0, 2.0, 3.0}), Json::parse(R"({"x": 1.0, "y": 2.0, "z": 3.0})"));
  EXPECT_EQ(QuaternionJson(Eigen::Quaterniond(1.0, 0.0, 0.0, 0.0)),
            Json::parse(R"({"x": 0.0, "y": 0.0, "z": 0.0, "w": 1.0})"));
  const Json pose = PoseJson({4.0, 5.0, 6.0}, Eigen::Quaterniond::Identity());
  EXPECT_EQ(pose["position"]["y"], 5.0);
  EXPECT_EQ(pose["orientation"]["w"], 1.0);
  EXPECT_EQ(pose.begin().key(), "position");  // the message's field order
}

TEST(ReplyJsonTest, AHeaderSplitsTimeIntoSecondsAndNanoseconds) {
  const Json header = HeaderJson(12.25);
  EXPECT_EQ(header["stamp"]["sec"], 12);
  EXPECT_EQ(header["stamp"]["nanosec"], 250000000);
  EXPECT_EQ(header["frame_id"], "world");
  EXPECT_EQ(HeaderJson(0.0)["stamp"]["nanosec"], 0);
}

TEST(ReplyJsonTest, AnEntityStateHasEveryPartInTheWorldFrame) {
  scene::EntityKinematics kinematics;
  kinematics.position = {1.0, 2.0, 0.5};
  kinematics.linear_velocity = {3.0, 0.0, 0.0};
  kinematics.angular_acceleration = {0.0, 0.0, -1.0};
  const Json state = EntityStateJson(kinematics, 1.5);
  EXPECT_EQ(state["header"]["stamp"]["sec"], 1);
  EXPECT_EQ(state["pose"]["position"]["z"], 0.5);
  EXPECT_EQ(state["twist"]["linear"]["x"], 3.0);
  EXPECT_EQ(state["acceleration"]["angular"]["z"], -1.0);
}

TEST(ReplyJsonTest, BoundsAreABoxOfMaxThenMin) {
  const Json bounds = BoxBoundsJson(
      Eigen::AlignedBox3d(Eigen::Vector3d(-1.0, -2.0, 0.0), Eigen::Vector3d(1.0, 2.0, 3.0)));
  EXPECT_EQ(bounds["type"], 1);
  ASSERT_EQ(bounds["points"].size(), 2u);
  EXPECT_EQ(bounds["points"][0]["z"], 3.0);
  EXPECT_EQ(bounds["points"][1]["y"], -2.0);
}

TEST(ReplyJsonTest, AResultHasItsCodeAndMessage) {
  EXPECT_EQ(ResultJson(1), Json::parse(R"({"result": 1, "error_message": ""})"));
  EXPECT_EQ(ResultJson(4, "no")["error_message"], "no");
}

}  // namespace
}  // namespace asg::worker::serve
