// Tests for worker/serve/monodrive_reply.h.
#include "worker/serve/monodrive_reply.h"

#include <gtest/gtest.h>

namespace asg::worker::serve {
namespace {

using json::Json;

TEST(MonoDriveReplyTest, Base64PadsShortGroups) {
  EXPECT_EQ(Base64(""), "");
  EXPECT_EQ(Base64("f"), "Zg==");
  EXPECT_EQ(Base64("fo"), "Zm8=");
  EXPECT_EQ(Base64("foo"), "Zm9v");
  EXPECT_EQ(Base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64(std::string("\x00\xFF\xFE", 3)), "AP/+");
}

TEST(MonoDriveReplyTest, AMonoDriveServicesSuccessAndMessageGiveTheMessageAlone) {
  EXPECT_EQ(MonoDriveReplyMessage("monodrive", {{"success", true}, {"message", "complete"}}, ""),
            Json("complete"));
  EXPECT_EQ(MonoDriveReplyMessage("monodrive", {{"success", false}, {"message", false}}, ""),
            Json(false));
}

TEST(MonoDriveReplyTest, OtherBodiesAreSentWholeWithTheirAttachmentInBase64) {
  const Json sample = {{"success", true}, {"message", "complete"}, {"readings", Json::array()}};
  Json expected = sample;
  expected["attachment_base64"] = "Zm9v";
  EXPECT_EQ(MonoDriveReplyMessage("monodrive", sample, "foo"), expected);
  const Json state = {{"success", true}, {"message", "x"}};
  EXPECT_EQ(MonoDriveReplyMessage("simulation_interfaces", state, ""), state);
}

}  // namespace
}  // namespace asg::worker::serve
