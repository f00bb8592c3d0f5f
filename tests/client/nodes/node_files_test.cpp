// Tests for client/nodes/node_files.h.
#include "client/nodes/node_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "results/folder.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Number of regular files under a folder (0 when it does not exist).
size_t CountFiles(const fs::path& folder) {
  if (!fs::exists(folder)) return 0;
  size_t count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file()) ++count;
  }
  return count;
}

/// Publishes a complete scenario folder through the store.
void Publish(NodeFileStore& store, const fs::path& dir, uint32_t number) {
  results::ScenarioRecord record;
  record.request = results::Json::object();
  record.result.scenario_number = number;
  record.result.status = results::ScenarioStatus::kDone;
  store.PublishScenario(number, [&] { results::WriteScenarioFolder(dir, record); });
  ASSERT_TRUE(results::ScenarioFolderComplete(dir, number));
}

TEST(NodeFilesTest, UnsafeRelativePathsAreRefused) {
  for (const std::string& path :
       {std::string("../../x"), std::string("/etc/passwd"), std::string("a/../../b"),
        std::string("a\\b"), std::string(""), std::string("a//b"), std::string("a/"),
        std::string("./a"), std::string("a\0b", 3), std::string("..")}) {
    EXPECT_NE(CheckNodeRelativePath(path), "") << "'" << path << "' was accepted";
  }
  EXPECT_EQ(CheckNodeRelativePath("maps/grid.csv"), "");
  EXPECT_EQ(CheckNodeRelativePath("a..b/c.d"), "");
}

TEST(NodeFilesTest, RefusedUploadsWriteNothing) {
  testutil::TempDir temp;
  // The store sits deep enough that every escape below would still land inside `temp`, where
  // CountFiles sees it (and none lands in the shared temporary folder).
  NodeFileStore store(temp.path() / "a" / "b" / "c");
  for (const std::string& path :
       {std::string("../../x"), std::string("/etc/passwd"), std::string("a/../../b"),
        std::string("a\\b"), std::string(""), std::string("a//b"), std::string("a\0b", 3)}) {
    EXPECT_THROW(store.Write(3, "mapper", path, "data"), NodeFileError) << path;
  }
  EXPECT_THROW(store.Write(3, "../mapper", "x", "data"), NodeFileError);
  EXPECT_THROW(store.Write(3, std::string("map\0per", 7), "x", "data"), NodeFileError);
  EXPECT_EQ(CountFiles(temp.path()), 0u);
}

TEST(NodeFilesTest, ASymbolicLinkOutOfTheNodeFolderIsRefused) {
  testutil::TempDir temp;
  NodeFileStore store(temp.path());
  Publish(store, temp.path(), 3);
  const fs::path outside = temp.path() / "outside";
  fs::create_directories(outside);
  fs::create_directories(NodeFolder(temp.path(), 3, "mapper"));
  fs::create_directory_symlink(outside, NodeFolder(temp.path(), 3, "mapper") / "link");
  EXPECT_THROW(store.Write(3, "mapper", "link/f.txt", "data"), NodeFileError);
  EXPECT_EQ(CountFiles(outside), 0u);
}

TEST(NodeFilesTest, UploadToAPublishedScenarioLandsInItsNodeFolder) {
  testutil::TempDir temp;
  NodeFileStore store(temp.path());
  Publish(store, temp.path(), 3);
  const std::string path = store.Write(3, "mapper", "maps/grid.csv", "1,2\n3,4\n");
  EXPECT_EQ(path, "scenario_0003/nodes/mapper/maps/grid.csv");
  const fs::path expected =
      temp.path() / "scenario_0003" / "nodes" / "mapper" / "maps" / "grid.csv";
  EXPECT_EQ(ReadFile(expected), "1,2\n3,4\n");
  EXPECT_EQ(CountFiles(temp.path() / "scenario_0003" / "nodes"), 1u) << "no temporary left";
  // Uploading the same path again replaces the file.
  store.Write(3, "mapper", "maps/grid.csv", "5");
  EXPECT_EQ(ReadFile(expected), "5");
}

TEST(NodeFilesTest, NamesUpToTheDocumentedLimitOf255BytesAreWritten) {
  testutil::TempDir temp;
  NodeFileStore store(temp.path());
  for (const size_t length : {245u, 250u, 255u}) {
    const std::string name(length, 'n');
    EXPECT_NO_THROW(store.Write(1, "mapper", "maps/" + name, "x")) << length;
    EXPECT_EQ(ReadFile(NodeStagingFolder(temp.path(), 1) / "mapper" / "maps" / name), "x");
  }
  EXPECT_EQ(CountFiles(temp.path()), 3u) << "no temporary left";
  EXPECT_THROW(store.Write(1, "mapper", std::string(256, 'n'), "x"), NodeFileError);
}

TEST(NodeFilesTest, AFailedWriteNamesNoLocalPath) {
  testutil::TempDir temp;
  NodeFileStore store(temp.path());
  // A file where the staging folder of scenario 1 belongs: the node's folder cannot be made.
  fs::create_directories(temp.path() / ".nodes");
  std::ofstream(temp.path() / ".nodes" / "scenario_0001") << "in the way";
  try {
    store.Write(1, "mapper", "grid.csv", "x");
    ADD_FAILURE() << "no error";
  } catch (const NodeFileError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find(temp.path().string()), std::string::npos) << message;
    EXPECT_NE(message.find(".nodes/scenario_0001/mapper"), std::string::npos) << message;
  }
}

TEST(NodeFilesTest, UploadsBeforePublishingAreStagedAndMovedIn) {
  testutil::TempDir temp;
  NodeFileStore store(temp.path());
  EXPECT_EQ(store.Write(3, "mapper", "maps/grid.csv", "early"),
            "scenario_0003/nodes/mapper/maps/grid.csv");
  EXPECT_EQ(ReadFile(NodeStagingFolder(temp.path(), 3) / "mapper" / "maps" / "grid.csv"), "early");
  Publish(store, temp.path(), 3);
  EXPECT_EQ(ReadFile(NodeFolder(temp.path(), 3, "mapper") / "maps" / "grid.csv"), "early");
  EXPECT_FALSE(fs::exists(NodeStagingFolder(temp.path(), 3)));
}

TEST(NodeFilesTest, ARerunKeepsNodeFilesAndNewerOnesWin) {
  testutil::TempDir temp;
  NodeFileStore store(temp.path());
  Publish(store, temp.path(), 3);
  store.Write(3, "mapper", "first.txt", "run 1");
  store.Write(3, "mapper", "shared.txt", "run 1");
  // The rerun's result replaces the folder; its node files come before or after.
  fs::create_directories(NodeStagingFolder(temp.path(), 3) / "mapper");
  std::ofstream(NodeStagingFolder(temp.path(), 3) / "mapper" / "shared.txt") << "run 2";
  Publish(store, temp.path(), 3);
  EXPECT_EQ(ReadFile(NodeFolder(temp.path(), 3, "mapper") / "first.txt"), "run 1");
  EXPECT_EQ(ReadFile(NodeFolder(temp.path(), 3, "mapper") / "shared.txt"), "run 2");
}

TEST(NodeFilesTest, RecoverMovesStagedFilesOfCompleteScenariosAndDropsTheRest) {
  testutil::TempDir temp;
  {
    NodeFileStore store(temp.path());
    Publish(store, temp.path(), 1);
  }
  for (uint32_t number : {1u, 2u}) {
    fs::create_directories(NodeStagingFolder(temp.path(), number) / "n");
    std::ofstream(NodeStagingFolder(temp.path(), number) / "n" / "f.txt") << number;
  }
  // The temporary file of an upload killed midway is not moved in.
  std::ofstream(NodeStagingFolder(temp.path(), 1) / "n" / ".upload.tmp-4242") << "partial";
  NodeFileStore store(temp.path());
  EXPECT_EQ(store.Recover(), 1u);
  EXPECT_EQ(ReadFile(NodeFolder(temp.path(), 1, "n") / "f.txt"), "1");
  EXPECT_FALSE(fs::exists(NodeFolder(temp.path(), 1, "n") / ".upload.tmp-4242"));
  EXPECT_FALSE(fs::exists(temp.path() / ".nodes"));
  EXPECT_FALSE(fs::exists(results::ScenarioFolder(temp.path(), 2)));
}

// Builds `outside` with two files and returns them by path and content.
std::map<fs::path, std::string> OutsideFiles(const fs::path& outside) {
  fs::create_directories(outside / "sub");
  std::ofstream(outside / "a.txt") << "a";
  std::ofstream(outside / "sub" / "b.txt") << "b";
  return {{outside / "a.txt", "a"}, {outside / "sub" / "b.txt", "b"}};
}

void ExpectIntact(const std::map<fs::path, std::string>& files, const fs::path& outside) {
  for (const auto& [path, content] : files) EXPECT_EQ(ReadFile(path), content) << path;
  EXPECT_EQ(CountFiles(outside), files.size());
}

TEST(NodeFilesTest, RecoverRemovesALinkedStagingFolderButNothingItPointsTo) {
  testutil::TempDir temp;
  const fs::path dir = temp.path() / "dir";
  const fs::path outside = temp.path() / "outside";
  const auto files = OutsideFiles(outside);
  fs::create_directories(dir);
  fs::create_directory_symlink(outside, dir / ".nodes");
  NodeFileStore store(dir);
  EXPECT_EQ(store.Recover(), 0u);
  ExpectIntact(files, outside);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir / ".nodes")));
  // A linked scenario folder among the staged ones: the link goes, its target stays.
  fs::create_directories(dir / ".nodes");
  fs::create_directory_symlink(outside, NodeStagingFolder(dir, 1));
  EXPECT_EQ(store.Recover(), 0u);
  ExpectIntact(files, outside);
}

TEST(NodeFilesTest, UploadsGoThroughNoLinkInTheBatchFolder) {
  testutil::TempDir temp;
  const fs::path dir = temp.path() / "dir";
  const fs::path outside = temp.path() / "outside";
  NodeFileStore store(dir);
  Publish(store, dir, 3);
  // A linked scenario folder is not the scenario's own: the upload is staged inside DIR.
  fs::rename(results::ScenarioFolder(dir, 3), outside);
  fs::create_directory_symlink(outside, results::ScenarioFolder(dir, 3));
  const size_t before = CountFiles(outside);
  store.Write(3, "mapper", "f.txt", "data");
  EXPECT_EQ(ReadFile(NodeStagingFolder(dir, 3) / "mapper" / "f.txt"), "data");
  EXPECT_EQ(CountFiles(outside), before);
  // A linked staging folder is refused, naming the link.
  fs::remove_all(dir / ".nodes");
  fs::create_directory_symlink(outside, dir / ".nodes");
  try {
    store.Write(4, "mapper", "f.txt", "data");
    ADD_FAILURE() << "an upload went through a link";
  } catch (const NodeFileError& error) {
    // The reply names the link within the batch folder, not where the client keeps it.
    EXPECT_EQ(std::string(error.what()).rfind("refused: .nodes is a symbolic link", 0), 0u)
        << error.what();
    EXPECT_EQ(std::string(error.what()).find(dir.string()), std::string::npos) << error.what();
  }
  EXPECT_EQ(CountFiles(outside), before);
}

}  // namespace
}  // namespace asg::client
