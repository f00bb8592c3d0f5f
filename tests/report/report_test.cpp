// Tests for report/report.h.
#include "report/report.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>

#include "results/files.h"
#include "tests/report/report_files.h"
#include "tests/temp_dir.h"

namespace asg::report {
namespace {

namespace fs = std::filesystem;
using testing::DoneResultJson;
using testing::ReadText;
using testing::WriteText;

/// A batch folder with done scenarios 1..`count` (result.json only).
void MakeBatch(const fs::path& dir, int count) {
  WriteText(dir / "batch_identity.json", "{\"batch\": \"pages\", \"identity\": \"x\"}");
  for (int number = 1; number <= count; ++number) {
    WriteText(dir / ("scenario_000" + std::to_string(number)) / "result.json",
              DoneResultJson(number));
  }
}

ino_t Inode(const fs::path& file) {
  struct stat info {};
  EXPECT_EQ(::stat(file.c_str(), &info), 0) << file;
  return info.st_ino;
}

// The temporary files of atomic writes anywhere under `dir`.
size_t Temporaries(const fs::path& dir) {
  size_t count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    count += results::IsTemporaryFileName(entry.path().filename().string()) ? 1 : 0;
  }
  return count;
}

TEST(WriteBatchReportTest, AChangedPageIsReplacedByANewFileAndAnUnchangedOneLeftAlone) {
  testutil::TempDir temp;
  const fs::path dir = temp.path();
  MakeBatch(dir, 2);
  WriteBatchReport(dir);
  const fs::path page = dir / "scenario_0001" / "index.html";
  const std::string first = ReadText(page);
  ASSERT_FALSE(first.empty());
  const ino_t before = Inode(page);
  WriteBatchReport(dir);
  EXPECT_EQ(Inode(page), before);  // the same page: not written again
  EXPECT_EQ(ReadText(page), first);
  WriteText(dir / "scenario_0001" / "result.json", DoneResultJson(1, 2, "REASON_COLLISION"));
  WriteBatchReport(dir);
  EXPECT_NE(Inode(page), before);  // a new file renamed over the old one, not rewritten in place
  EXPECT_NE(ReadText(page), first);
  EXPECT_EQ(Temporaries(dir), 0u);
}

TEST(WriteBatchReportTest, WithACacheAFolderIsReadAgainOnlyWhenItsFilesOrItsPageChanged) {
  testutil::TempDir temp;
  const fs::path dir = temp.path();
  MakeBatch(dir, 2);
  ReportCache cache;
  WriteBatchReport(dir, &cache);
  const fs::path result = dir / "scenario_0001" / "result.json";
  const fs::path page = dir / "scenario_0001" / "index.html";
  const std::string first = ReadText(page);
  // Rewritten in place with as many bytes and its old time: the cache cannot tell, and keeps
  // the page (which shows it did not read the folder again); a write without it reads it.
  const std::string other = DoneResultJson(1, 2, "REASON_TIMEOUT");
  ASSERT_EQ(other.size(), DoneResultJson(1).size());
  const fs::file_time_type time = fs::last_write_time(result);
  WriteText(result, other);
  fs::last_write_time(result, time);
  WriteBatchReport(dir, &cache);
  EXPECT_EQ(ReadText(page), first);
  WriteBatchReport(dir);
  const std::string second = ReadText(page);
  EXPECT_NE(second, first);
  // A result replaced (a new file) is read again; so is the folder of a page that is gone.
  results::WriteFileAtomically(result, DoneResultJson(1));
  WriteBatchReport(dir, &cache);
  EXPECT_EQ(ReadText(page), first);
  fs::remove(page);
  WriteBatchReport(dir, &cache);
  EXPECT_EQ(ReadText(page), first);
  EXPECT_EQ(Temporaries(dir), 0u);
}

TEST(WriteBatchReportTest, APagePlantedAsASymbolicLinkIsReplacedNotFollowed) {
  testutil::TempDir temp;
  const fs::path dir = temp.path();
  MakeBatch(dir, 1);
  WriteBatchReport(dir);
  const fs::path page = dir / "scenario_0001" / "index.html";
  const std::string first = ReadText(page);
  // A link to a file holding the very page: still replaced by a regular file.
  fs::rename(page, dir / "elsewhere.html");
  fs::create_symlink(dir / "elsewhere.html", page);
  WriteBatchReport(dir);
  EXPECT_FALSE(fs::is_symlink(page));
  EXPECT_EQ(ReadText(page), first);
  EXPECT_EQ(ReadText(dir / "elsewhere.html"), first);
}

TEST(WriteBatchReportTest, AReaderRacingRewritesNeverSeesAShortPage) {
  testutil::TempDir temp;
  const fs::path dir = temp.path();
  MakeBatch(dir, 3);
  // The page changes with every write: two results, alternately, each page read once first.
  const fs::path result = dir / "scenario_0002" / "result.json";
  const fs::path page = dir / "scenario_0002" / "index.html";
  const std::string results[2] = {DoneResultJson(2), DoneResultJson(2, 2, "REASON_COLLISION")};
  std::set<std::string> wholes;
  for (const std::string& text : results) {
    WriteText(result, text);
    WriteBatchReport(dir);
    wholes.insert(ReadText(page));
  }
  ASSERT_EQ(wholes.size(), 2u);
  std::atomic<bool> done{false};
  std::atomic<size_t> reads{0};
  std::atomic<size_t> short_reads{0};
  std::thread reader([&] {
    while (!done) {
      short_reads += wholes.contains(ReadText(page)) ? 0 : 1;
      ++reads;
    }
  });
  for (int i = 0; i < 30; ++i) {
    WriteText(result, results[i % 2]);
    WriteBatchReport(dir);
  }
  done = true;
  reader.join();
  EXPECT_GT(reads.load(), 0u);
  EXPECT_EQ(short_reads.load(), 0u) << "of " << reads.load() << " reads";
}

}  // namespace
}  // namespace asg::report
