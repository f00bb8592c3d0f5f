// Tests for results/files.h.
#include "results/files.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

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

}  // namespace
}  // namespace asg::results
