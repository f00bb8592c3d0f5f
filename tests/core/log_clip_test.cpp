// Tests for core/log_clip.h.
#include "core/log_clip.h"

#include <gtest/gtest.h>

#include <string>

namespace asg::core {
namespace {

TEST(ClipForLogTest, ShortPlainTextIsUnchanged) {
  EXPECT_EQ(ClipForLog("node-7"), "node-7");
  EXPECT_EQ(ClipForLog(""), "");
  EXPECT_EQ(ClipForLog(std::string(kLogFieldBytes, 'a')), std::string(kLogFieldBytes, 'a'));
}

TEST(ClipForLogTest, LongTextIsCutAndItsLengthSaid) {
  const std::string name(4 << 20, 'x');  // 4 MiB
  const std::string clipped = ClipForLog(name);
  EXPECT_EQ(clipped, std::string(kLogFieldBytes, 'x') + "... (4194304 bytes)");
  EXPECT_LE(clipped.size(), kLogFieldBytes + 28);
  EXPECT_EQ(ClipForLog("abcdef", 3), "abc... (6 bytes)");
}

TEST(ClipForLogTest, AMultiByteCharacterIsNeverSplit) {
  // "é" is two bytes: a cut after 3 bytes of "aéé" would split the second one.
  EXPECT_EQ(ClipForLog("a\xC3\xA9\xC3\xA9", 3), "a\xC3\xA9... (5 bytes)");
  EXPECT_EQ(ClipForLog("\xC3\xA9", 1), "... (2 bytes)");
}

TEST(ClipForLogTest, ControlCharactersCannotStartALineOfTheirOwn) {
  EXPECT_EQ(ClipForLog("bad\n[ERROR] forged\r\x7f"), "bad?[ERROR] forged??");
  EXPECT_EQ(ClipForLog(std::string("a\0b", 3)), "a?b");
}

}  // namespace
}  // namespace asg::core
