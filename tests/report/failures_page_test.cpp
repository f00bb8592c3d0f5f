// Tests for report/failures_page.h: the cards' order (most reproducible first, then by regret,
// then by id) and the page of a hand-made batch folder: cards, links, near misses, a batch
// without failures, the same bytes twice.
#include "report/failures_page.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "report/report.h"
#include "tests/report/report_files.h"
#include "tests/temp_dir.h"

namespace asg::report {
namespace {

namespace fs = std::filesystem;
using testing::DoneResultJson;
using testing::ReadText;
using testing::WriteText;

// A card of failure `id` reproduced `reproduced` of `runs` times (runs 0: not judged) with
// `max_regret` (negative: none); its only member is scenario `id`.
FailureCard Card(int id, uint32_t reproduced, uint32_t runs, double max_regret) {
  FailureCard card;
  card.cluster.id = id;
  card.cluster.representative = card.cluster.first_found = static_cast<uint32_t>(id);
  card.cluster.members = {static_cast<uint32_t>(id)};
  if (max_regret >= 0.0) card.cluster.max_regret = max_regret;
  if (runs > 0) {
    card.cluster.reproduced = reproduced;
    card.cluster.runs = runs;
  }
  card.reliable = runs > 0 && reproduced >= 3;
  return card;
}

std::vector<int> Ids(const std::vector<FailureCard>& cards) {
  std::vector<int> ids;
  for (const FailureCard& card : cards) ids.push_back(card.cluster.id);
  return ids;
}

// The failure ids of the page's cards, in page order.
std::vector<int> CardIds(const std::string& html) {
  std::vector<int> ids;
  const std::regex card("<article class=\"failure-card\" id=\"failure-(\\d+)\"");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), card); it != std::sregex_iterator();
       ++it) {
    ids.push_back(std::stoi((*it)[1]));
  }
  return ids;
}

TEST(PageOrder, MostReproducibleFirstThenHighestRegretThenId) {
  const std::vector<FailureCard> cards = {
      Card(1, 1, 5, 2.0), Card(2, 5, 5, 1.0),  Card(3, 5, 5, 1.5),  Card(4, 0, 0, 3.0),
      Card(5, 3, 5, 1.0), Card(6, 6, 10, 1.0), Card(7, 5, 5, -1.0), Card(8, 0, 5, 2.5),
  };
  // 5/5 by regret (none last), 3/5 and 6/10 (the same share, the same regret) by id, 1/5, 0/5,
  // then the failure whose runs were not judged.
  EXPECT_EQ(Ids(PageOrder(cards)), (std::vector<int>{3, 2, 7, 5, 6, 1, 8, 4}));
  // Whatever order they come in.
  EXPECT_EQ(Ids(PageOrder({cards.rbegin(), cards.rend()})),
            (std::vector<int>{3, 2, 7, 5, 6, 1, 8, 4}));
}

class FailuresPageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteText(dir() / "batch_identity.json", "{\"batch\": \"hand<made>\", \"identity\": \"x\"}");
    for (int number = 1; number <= 6; ++number) {
      char folder[32];
      std::snprintf(folder, sizeof folder, "scenario_%04d", number);
      WriteText(dir() / folder / "result.json",
                DoneResultJson(number, 2, "REASON_VEHICLE_COLLISION"));
    }
  }
  const fs::path& dir() const { return temp_.path(); }

  testutil::TempDir temp_;
};

TEST_F(FailuresPageTest, CardsInPageOrderWithTheirCopiesRunsAndNearMisses) {
  FailuresPage page;
  page.reproduce = 5;
  page.reliable_minimum = 3;
  page.failing_scenarios = 4;
  FailureCard twice = Card(1, 2, 5, 1.9);
  twice.cluster.members = {1, 3};
  twice.cluster.reproduction_folders =
      std::vector<std::string>{"reproduce/scenario_0001_run_1", "reproduce/scenario_0001_run_2",
                               "reproduce/scenario_0001_run_3", "reproduce/scenario_0001_run_4",
                               "reproduce/scenario_0001_run_5"};
  FailureCard reliable = Card(2, 4, 5, 1.2);
  reliable.cluster.kind = failures::FailureKind::kFlip;
  reliable.cluster.x = 12.346;
  reliable.cluster.y = -0.001;
  page.cards = {twice, reliable, Card(4, 0, 0, 0.9)};
  page.contact_scenarios = {5, 6};
  WriteFailuresPage(dir(), page);

  const std::string html = ReadText(dir() / "failures.html");
  EXPECT_EQ(CardIds(html), (std::vector<int>{2, 1, 4}));
  EXPECT_NE(html.find("Failures of batch hand&lt;made&gt;"), std::string::npos);
  EXPECT_NE(html.find("<h2>Failure 2: flip</h2>"), std::string::npos);
  EXPECT_NE(html.find("x 12.35 m, y 0.00 m"), std::string::npos);
  EXPECT_NE(html.find("4/5 runs, reliable</dd>"), std::string::npos);
  EXPECT_NE(html.find("2/5 runs, not reliable (needs 3):"), std::string::npos);
  EXPECT_NE(html.find("not checked: none of its runs ran"), std::string::npos);
  EXPECT_NE(html.find("<a class=\"run\" href=\"reproduce/scenario_0001_run_5/result.json\">"
                      "scenario_0001_run_5</a>"),
            std::string::npos);
  // Failure 1's copies: both members linked, under a count.
  EXPECT_NE(html.find("<summary>2 scenarios</summary><p class=\"members\">"
                      "<a href=\"scenario_0001/index.html\">scenario_0001</a> "
                      "<a href=\"scenario_0003/index.html\">scenario_0003</a>"),
            std::string::npos);
  EXPECT_NE(html.find("data-failing=\"4\" data-distinct=\"3\" data-contacts=\"2\""),
            std::string::npos);
  EXPECT_NE(html.find("3 distinct failures, 1 reliable (reproduced in at least 3 of 5 runs)"),
            std::string::npos);
  EXPECT_NE(html.find("<section id=\"near-misses\" data-count=\"2\">"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"scenario_0006/index.html\">scenario_0006</a>"), std::string::npos);
  // Without captures, each card gets a map of its representative with the failure point.
  EXPECT_NE(html.find("<figure class=\"failure-map\" data-map=\"2\"></figure>"), std::string::npos);
  EXPECT_NE(html.find("\"point\":[12.346,-0.001]"), std::string::npos);
  // The page code it uses is there.
  EXPECT_TRUE(fs::is_regular_file(dir() / "report" / "failures.js"));
  EXPECT_TRUE(fs::is_regular_file(dir() / "report" / "plots.js"));

  // The same failures and folders give the same bytes.
  WriteFailuresPage(dir(), page);
  EXPECT_EQ(ReadText(dir() / "failures.html"), html);
}

TEST_F(FailuresPageTest, ABatchWithoutFailuresSaysSo) {
  FailuresPage page;
  WriteFailuresPage(dir(), page);
  const std::string html = ReadText(dir() / "failures.html");
  EXPECT_EQ(CardIds(html), std::vector<int>{});
  EXPECT_NE(html.find("No failures: no scenario failed to reach the goal or reached regret 0.75."),
            std::string::npos);
  EXPECT_NE(html.find("None: no success below the threshold touched an obstacle."),
            std::string::npos);
}

TEST_F(FailuresPageTest, AFolderThatIsNoBatchIsRefused) {
  try {
    WriteFailuresPage(dir() / "scenario_0001", FailuresPage{});
    FAIL() << "no error";
  } catch (const ReportError& error) {
    EXPECT_NE(std::string(error.what()).find("not a batch folder"), std::string::npos);
  }
}

}  // namespace
}  // namespace asg::report
