// Tests for results/folder_links.h.
#include "results/folder_links.h"

#include <gtest/gtest.h>

#include <fstream>

#include "results/record.h"
#include "tests/temp_dir.h"

namespace asg::results {
namespace {

namespace fs = std::filesystem;

TEST(FolderLinksTest, AFolderWithoutLinksHasNone) {
  testutil::TempDir temp;
  fs::create_directories(temp.path() / "dir" / "scenario_0001" / "captures");
  std::ofstream(temp.path() / "dir" / "scenario_0001" / "result.json") << "{}";
  EXPECT_EQ(FindLinkInside(temp.path() / "dir"), std::nullopt);
  EXPECT_EQ(FindLinkInside(temp.path() / "missing"), std::nullopt);
}

TEST(FolderLinksTest, ALinkAtAnyDepthIsFoundAndNotFollowed) {
  testutil::TempDir temp;
  const fs::path dir = temp.path() / "dir";
  const fs::path outside = temp.path() / "outside";
  fs::create_directories(dir / "scenario_0001" / "nodes" / "n");
  fs::create_directories(outside / "deeper");
  fs::create_directory_symlink(outside, dir / "scenario_0001" / "nodes" / "n" / "link");
  EXPECT_EQ(FindLinkInside(dir), dir / "scenario_0001" / "nodes" / "n" / "link");
  EXPECT_NE(DescribeLink(dir / "scenario_0001" / "nodes" / "n" / "link").find(outside.string()),
            std::string::npos);
  // A link to a file, even a dangling one, is a link too.
  fs::remove(dir / "scenario_0001" / "nodes" / "n" / "link");
  fs::create_symlink(temp.path() / "nowhere", dir / "asg_log.txt");
  EXPECT_EQ(FindLinkInside(dir), dir / "asg_log.txt");
}

TEST(FolderLinksTest, TheFolderItselfMayBeALink) {
  testutil::TempDir temp;
  fs::create_directories(temp.path() / "real" / "report");
  fs::create_directory_symlink(temp.path() / "real", temp.path() / "named");
  EXPECT_EQ(FindLinkInside(temp.path() / "named"), std::nullopt);
  fs::create_directory_symlink(temp.path(), temp.path() / "real" / "report" / "up");
  EXPECT_EQ(FindLinkInside(temp.path() / "named"), temp.path() / "named" / "report" / "up");
}

TEST(FolderLinksTest, FirstLinkBelowChecksFromTheRootDown) {
  testutil::TempDir temp;
  const fs::path root = temp.path() / "root";
  fs::create_directories(root / "a" / "b");
  fs::create_directory_symlink(root / "a", root / "l");
  EXPECT_EQ(FirstLinkBelow(root, root / "a" / "b" / "c" / "d"), std::nullopt);
  EXPECT_EQ(FirstLinkBelow(root, root / "l" / "b" / "c"), root / "l");
  EXPECT_TRUE(IsRealFolder(root / "a"));
  EXPECT_FALSE(IsRealFolder(root / "l"));
  std::ofstream(root / "a" / "f") << "x";
  fs::create_symlink(root / "a" / "f", root / "a" / "g");
  EXPECT_TRUE(IsRealFile(root / "a" / "f"));
  EXPECT_FALSE(IsRealFile(root / "a" / "g"));
}

}  // namespace
}  // namespace asg::results
