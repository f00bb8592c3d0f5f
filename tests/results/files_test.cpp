// Tests for results/files.h.
#include "results/files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "tests/file_size_limit.h"
#include "tests/temp_dir.h"

namespace asg::results {
namespace {

TEST(ResultFilesTest, JsonFileTextKeepsTheValuesKeyOrder) {
  Json json;
  json["status"] = "done";
  json["attempts"] = 1;
  json["counters"] = {{"b", 2}, {"a", 1}};
  EXPECT_EQ(JsonFileText(json),
            "{\n  \"status\": \"done\",\n  \"attempts\": 1,\n  \"counters\": {\n    \"b\": 2,\n"
            "    \"a\": 1\n  }\n}\n");
}

TEST(ResultFilesTest, WrittenFilesReadBack) {
  testutil::TempDir dir;
  const auto file = dir.path() / "a.json";
  WriteFileAtomically(file, "{\"x\": [1, 2]}\n");
  EXPECT_EQ(ReadTextFile(file), "{\"x\": [1, 2]}\n");
  EXPECT_EQ(ReadJsonFile(file).at("x").size(), 2u);
  // No staging file is left beside it.
  size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
}

TEST(ResultFilesTest, ALinkInPlaceOfAFileIsNotWrittenThrough) {
  testutil::TempDir dir;
  const auto target = dir.path() / "target.html";
  std::ofstream(target) << "kept";
  const auto link = dir.path() / "index.html";
  std::filesystem::create_symlink(target, link);
  for (const auto write : {&WriteFileSynced, &WriteFileUnsynced}) {
    try {
      write(link, "new");
      ADD_FAILURE() << "a link was written through";
    } catch (const ResultError& error) {
      EXPECT_NE(std::string(error.what()).find(link.string() + ": cannot create: it is a symbolic"),
                std::string::npos)
          << error.what();
    }
  }
  EXPECT_EQ(ReadTextFile(target), "kept");
  // An atomic write replaces the link itself.
  WriteFileAtomically(link, "new");
  EXPECT_FALSE(std::filesystem::is_symlink(link));
  EXPECT_EQ(ReadTextFile(link), "new");
  EXPECT_EQ(ReadTextFile(target), "kept");
}

TEST(ResultFilesTest, ReadJsonFileRefusesADuplicateKeyNamingFileAndPath) {
  testutil::TempDir dir;
  const auto file = dir.path() / "result.json";
  std::ofstream(file) << R"({"counters": {"collisions": 1, "collisions": 2}})";
  try {
    ReadJsonFile(file);
    FAIL() << "a duplicate key was accepted";
  } catch (const ResultError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(file.string()), std::string::npos) << message;
    EXPECT_NE(message.find("counters.collisions"), std::string::npos) << message;
  }
}

TEST(ResultFilesTest, ReadErrorsNameTheFile) {
  testutil::TempDir dir;
  const auto missing = dir.path() / "missing.json";
  try {
    ReadTextFile(missing);
    FAIL() << "a missing file was read";
  } catch (const ResultError& error) {
    EXPECT_NE(std::string(error.what()).find(missing.string()), std::string::npos);
  }
  EXPECT_THROW(ReadTextFile(dir.path()), ResultError);
  std::ofstream(dir.path() / "bad.json") << "{\"a\": ";
  EXPECT_THROW(ReadJsonFile(dir.path() / "bad.json"), ResultError);
}

namespace fs = std::filesystem;

// The entries of `folder`, by name.
std::vector<std::string> Entries(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

ino_t Inode(const fs::path& file) {
  struct stat info {};
  EXPECT_EQ(::stat(file.c_str(), &info), 0) << file;
  return info.st_ino;
}

TEST(WriteFileAtomicallyTest, AFailedWriteLeavesTheOldFileAndNoTemporary) {
  testutil::TempDir dir;
  const fs::path file = dir.path() / "summary.json";
  WriteFileAtomically(file, "old\n");
  {
    const testutil::FileSizeLimit limit(8);  // the new content does not fit
    EXPECT_THROW(WriteFileAtomically(file, std::string(100, 'x')), ResultError);
  }
  EXPECT_EQ(ReadTextFile(file), "old\n");
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{"summary.json"});
  // A rename that fails (a folder in the way) leaves no temporary either.
  fs::create_directories(dir.path() / "page" / "inside");
  EXPECT_THROW(WriteFileAtomically(dir.path() / "page", "x"), ResultError);
  EXPECT_EQ(Entries(dir.path()), (std::vector<std::string>{"page", "summary.json"}));
}

TEST(AtomicFileGroupTest, CommitReplacesEachFileByANewOneAndLeavesNoTemporary) {
  testutil::TempDir dir;
  const fs::path page = dir.path() / "index.html";
  WriteFileAtomically(page, "old page");
  const ino_t before = Inode(page);
  AtomicFileGroup group;
  group.Add(page, "new page");
  group.Add(dir.path() / "data.js", "data");
  EXPECT_EQ(ReadTextFile(page), "old page");  // nothing replaced before the commit
  group.Commit();
  EXPECT_EQ(ReadTextFile(page), "new page");
  EXPECT_NE(Inode(page), before);  // replaced, not rewritten in place
  EXPECT_EQ(Entries(dir.path()), (std::vector<std::string>{"data.js", "index.html"}));
}

TEST(AtomicFileGroupTest, AddIfChangedLeavesAFileHoldingTheSameBytesAndReplacesAnyOther) {
  testutil::TempDir dir;
  const fs::path same = dir.path() / "same.html";
  const fs::path longer = dir.path() / "longer.html";
  const fs::path link = dir.path() / "link.html";
  WriteFileAtomically(same, "page");
  WriteFileAtomically(longer, "page and more");
  fs::create_symlink(same, link);  // holds "page" through the link: not followed
  const ino_t same_before = Inode(same);
  const ino_t longer_before = Inode(longer);
  AtomicFileGroup group;
  EXPECT_FALSE(group.AddIfChanged(same, "page"));
  EXPECT_TRUE(group.AddIfChanged(longer, "page"));
  EXPECT_TRUE(group.AddIfChanged(link, "page"));
  EXPECT_TRUE(group.AddIfChanged(dir.path() / "new.html", "page"));
  group.Commit();
  EXPECT_EQ(Inode(same), same_before);
  EXPECT_NE(Inode(longer), longer_before);
  EXPECT_EQ(ReadTextFile(longer), "page");
  EXPECT_FALSE(fs::is_symlink(link));
  EXPECT_EQ(ReadTextFile(link), "page");
  EXPECT_EQ(ReadTextFile(dir.path() / "new.html"), "page");
  EXPECT_EQ(Entries(dir.path()),
            (std::vector<std::string>{"link.html", "longer.html", "new.html", "same.html"}));
}

TEST(AtomicFileGroupTest, AGroupNotCommittedOrFailingLeavesTheOldFilesAndNoTemporary) {
  testutil::TempDir dir;
  const fs::path page = dir.path() / "index.html";
  WriteFileAtomically(page, "old page");
  {
    AtomicFileGroup group;
    group.Add(page, "new page");
  }
  {
    AtomicFileGroup group;
    const testutil::FileSizeLimit limit(16);
    group.Add(page, "fits");
    EXPECT_THROW(group.Add(dir.path() / "big.html", std::string(100, 'x')), ResultError);
  }
  EXPECT_EQ(ReadTextFile(page), "old page");
  EXPECT_EQ(Entries(dir.path()), std::vector<std::string>{"index.html"});
}

TEST(RemoveTemporaryFilesTest, RemovesOnlyTemporaryFilesOfAtomicWrites) {
  testutil::TempDir dir;
  for (const char* name :
       {"summary.json.tmp-123", "index.html.tmp-9", "summary.json", "notes.tmp-x", "a.tmp-"}) {
    WriteFileAtomically(dir.path() / name, "x");
  }
  fs::create_directories(dir.path() / ".scenario_0001.tmp-5");  // a folder: not a file
  fs::create_symlink(dir.path() / "summary.json", dir.path() / "link.tmp-7");
  EXPECT_TRUE(IsTemporaryFileName("summary.json.tmp-123"));
  EXPECT_FALSE(IsTemporaryFileName("summary.json"));
  EXPECT_EQ(RemoveTemporaryFiles(dir.path()), 2u);
  EXPECT_EQ(Entries(dir.path()),
            (std::vector<std::string>{".scenario_0001.tmp-5", "a.tmp-", "link.tmp-7", "notes.tmp-x",
                                      "summary.json"}));
  EXPECT_EQ(RemoveTemporaryFiles(dir.path() / "missing"), 0u);
}

}  // namespace
}  // namespace asg::results
