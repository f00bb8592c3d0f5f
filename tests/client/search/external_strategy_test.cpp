// Tests for client/search/external_strategy.h: the "external" strategy's client side, proposals
// checked against the space, the settings, and Ask/Tell over a real loopback connection to an
// in-process generator registered through WorkerLinks and its GeneratorLink.
#include "client/search/external_strategy.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "client/farm/farm_links.h"
#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/typed_connection.h"
#include "tests/temp_dir.h"

namespace asg::client {
namespace {

using namespace std::chrono_literals;
using protocol::Proposal;
using protocol::ProposedObstacle;

search::SearchSpace Space() {
  search::SearchSpace space;
  search::ActorClassSpace tree;
  tree.path_name = "tree";
  tree.max_count = 2;
  tree.x = {0.0, 60.0};
  tree.y = {0.0, 60.0};
  tree.yaw = {0.0, 90.0};
  search::ActorClassSpace bush = tree;
  bush.path_name = "bush";
  space.classes = {tree, bush};
  return space;
}

Proposal Layout(std::vector<ProposedObstacle> obstacles) { return Proposal{obstacles, {}, ""}; }

/// A reply of one proposal: a tree (or `path_name`) at (50, 10), far from the start (10, 10) and
/// the goal (50, 50), with `parents`.
protocol::ProposeScenariosResponse OneTree(std::vector<uint64_t> parents = {},
                                           const std::string& path_name = "tree") {
  protocol::ProposeScenariosResponse reply;
  reply.scenarios.push_back(Layout({{path_name, 50.0, 10.0, 0.0, 1.0}}));
  reply.scenarios.back().parents = std::move(parents);
  return reply;
}

std::string Problem(const Proposal& proposal) {
  std::vector<search::Obstacle> obstacles;
  return CheckProposal(Space(), proposal, &obstacles);
}

TEST(ExternalProposal, AFeasibleProposalBecomesObstaclesOfItsClasses) {
  std::vector<search::Obstacle> obstacles;
  EXPECT_EQ(CheckProposal(Space(),
                          Layout({{"bush", 50.0, 10.0, 30.0, 1.0}, {"tree", 10.0, 50.0, 0.0, 1.0}}),
                          &obstacles),
            "");
  ASSERT_EQ(obstacles.size(), 2u);
  EXPECT_EQ(obstacles[0], (search::Obstacle{1, 50.0, 10.0, 30.0, 1.0}));
  EXPECT_EQ(obstacles[1], (search::Obstacle{0, 10.0, 50.0, 0.0, 1.0}));
}

TEST(ExternalProposal, RefusalsNameTheObstacleTheFieldAndTheValue) {
  EXPECT_EQ(Problem(Layout({{"rock", 50.0, 10.0, 0.0, 1.0}})),
            "obstacles[0].path_name: \"rock\" is not a class of the search space (\"tree\", "
            "\"bush\")");
  EXPECT_EQ(Problem(Layout({{"tree", 50.0, 10.0, 0.0, 1.0}, {"tree", 75.0, 10.0, 0.0, 1.0}})),
            "obstacles[1].x: 75 is outside [0, 60] of class \"tree\"");
  EXPECT_EQ(Problem(Layout({{"bush", 50.0, 10.0, 120.0, 1.0}})),
            "obstacles[0].yaw: 120 is outside [0, 90] of class \"bush\"");
  EXPECT_EQ(Problem(Layout({{"bush", 50.0, 10.0, 0.0, 2.0}})),
            "obstacles[0].scale: 2 is outside [1, 1] of class \"bush\"");
  EXPECT_EQ(Problem(Layout({{"tree", 50.0, 10.0, 0.0, 1.0},
                            {"tree", 52.0, 10.0, 0.0, 1.0},
                            {"tree", 54.0, 10.0, 0.0, 1.0}})),
            "obstacles[2]: more than 2 of class \"tree\"");
  EXPECT_EQ(Problem(Layout({})), "obstacles: 0 actors, fewer than min_obstacles 1");
  // A tree 3 m from the start (10, 10): the space's start clearance is 10 m.
  EXPECT_EQ(Problem(Layout({{"tree", 12.0, 12.0, 0.0, 1.0}})).rfind("infeasible: ", 0), 0u);
}

TEST(ExternalSettingsTest, DefaultsKeysAndBadValues) {
  const ExternalSettings defaults = ParseExternalSettings(nullptr);
  EXPECT_EQ(defaults.connect_timeout, 120.0);
  EXPECT_EQ(defaults.reply_timeout, 600.0);
  EXPECT_EQ(defaults.max_rounds, 20u);
  const ExternalSettings given = ParseExternalSettings(
      {{"connect_timeout", 5}, {"max_rounds", 3}, {"generator", {{"population", 40}}}});
  EXPECT_EQ(given.connect_timeout, 5.0);
  EXPECT_EQ(given.max_rounds, 3u);
  EXPECT_EQ(given.generator["population"], 40);
  const auto error = [](const nlohmann::ordered_json& settings) {
    try {
      ParseExternalSettings(settings);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error({{"conect_timeout", 5}}).find("conect_timeout"), std::string::npos);
  EXPECT_NE(error({{"connect_timeout", 0}}).find("\"connect_timeout\" is 0"), std::string::npos);
  EXPECT_NE(error({{"max_rounds", 0}}).find("\"max_rounds\" is 0"), std::string::npos);
}

/// A client port (WorkerLinks with a GeneratorLink, its connections set by `settings`) and an
/// in-process generator connected to it whose answers the test scripts.
class GeneratorFixture : public ::testing::Test {
 protected:
  explicit GeneratorFixture(const LinkSettings& settings = {})
      : link_({{"seed", 7}}, "s3cret"),
        links_(io_.context().get_executor(), settings, &events_, &logger_, &link_) {}
  ~GeneratorFixture() override {
    if (generator_) generator_->Close("test over");
    generator_io_.Stop();
    io_.Stop();  // no close handler runs while the links and the logger go
  }

  /// Connects and registers the generator with `token` (its connection set by `settings`, on
  /// an io thread of its own); returns the reply or throws. With hold_tells_, a ScenarioResults
  /// is kept in held_ unanswered until the test replies.
  protocol::GeneratorRegistrationResponse Register(
      const std::string& token, const protocol::ConnectionSettings& settings = {}) {
    generator_ = protocol::Connect(generator_io_.context().get_executor(),
                                   "127.0.0.1:" + std::to_string(links_.port()), 2s, settings);
    protocol::OnRequest<protocol::ProposeScenariosRequest>(
        *generator_, [this](const protocol::ProposeScenariosRequest& request, const auto&) {
          std::lock_guard lock(mutex_);
          asks_.push_back(request);
          return propose_(request);
        });
    protocol::OnMessage<protocol::ScenarioResultsRequest>(
        *generator_,
        [this](const protocol::ScenarioResultsRequest& request, const protocol::Message& message) {
          std::lock_guard lock(mutex_);
          tells_.push_back(request);
          if (hold_tells_) {
            held_ = message;
            changed_.notify_all();
            return;
          }
          generator_->Reply(message, json::Json(protocol::ScenarioResultsResponse{true}));
        });
    generator_->Start();
    return protocol::RequestMessage<protocol::GeneratorRegistrationResponse>(
        *generator_, protocol::GeneratorRegistration{"scripted", token});
  }

  ExternalStrategy Strategy() {
    ExternalSettings settings;
    settings.connect_timeout = 5.0;
    settings.reply_timeout = 5.0;
    settings.max_rounds = 3;
    return ExternalStrategy(settings, Space(), &link_);
  }

  protocol::IoThreads io_{1};
  protocol::IoThreads generator_io_{1};  // the generator's side, never held up by the client's
  EventQueue events_;
  testutil::TempDir dir_;
  core::Logger logger_{dir_.path() / "log.txt", false};
  GeneratorLink link_;
  WorkerLinks links_;
  std::shared_ptr<protocol::Connection> generator_;
  std::mutex mutex_;
  std::function<protocol::ProposeScenariosResponse(const protocol::ProposeScenariosRequest&)>
      propose_;
  std::vector<protocol::ProposeScenariosRequest> asks_;
  std::vector<protocol::ScenarioResultsRequest> tells_;
  bool hold_tells_ = false;
  std::optional<protocol::Message> held_;  // a ScenarioResults not answered yet
  std::condition_variable changed_;
};

TEST_F(GeneratorFixture, AWrongTokenIsRefusedAndTheRightOneToldTheSearch) {
  EXPECT_THROW(Register("wrong"), protocol::RequestError);
  generator_->Close("refused");
  const auto reply = Register("s3cret");
  EXPECT_TRUE(reply.received);
  EXPECT_EQ(reply.search["seed"], 7);
}

TEST_F(GeneratorFixture, AskNumbersAcceptedProposalsAndRedrawsRefusedOnes) {
  propose_ = [](const protocol::ProposeScenariosRequest& request) {
    protocol::ProposeScenariosResponse reply;
    for (uint32_t i = 0; i < request.count; ++i) {
      // Round 0: the second proposal is outside the space.
      const double x = request.round == 0 && i == 1 ? 99.0 : 40.0 + i;
      reply.scenarios.push_back({{{"tree", x, 10.0, 0.0, 1.0}}, {}, "scripted"});
    }
    return reply;
  };
  Register("s3cret");
  ExternalStrategy strategy = Strategy();
  const std::vector<search::Candidate> first = strategy.Ask(3);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0].id, 1u);
  EXPECT_EQ(first[2].id, 3u);
  EXPECT_EQ(first[0].origin, "scripted");
  EXPECT_EQ(first[1].obstacles[0].x, 42.0);  // round 0's third proposal, accepted second
  EXPECT_EQ(first[2].obstacles[0].x, 40.0);  // round 1's only proposal
  std::lock_guard lock(mutex_);
  ASSERT_EQ(asks_.size(), 2u);
  EXPECT_EQ(asks_[0].count, 3u);
  EXPECT_EQ(asks_[0].first_id, 1u);
  EXPECT_EQ(asks_[1].round, 1u);
  EXPECT_EQ(asks_[1].count, 1u);
  EXPECT_EQ(asks_[1].first_id, 3u);
  ASSERT_EQ(asks_[1].rejected.size(), 1u);
  EXPECT_EQ(asks_[1].rejected[0].index, 1u);
  EXPECT_EQ(asks_[1].rejected[0].reason, "obstacles[0].x: 99 is outside [0, 60] of class \"tree\"");
}

TEST_F(GeneratorFixture, TellSendsScoresWithTheProposalsAndChildrenKnowTheirLineage) {
  std::atomic<int> call{0};
  propose_ = [&call](const protocol::ProposeScenariosRequest& request) {
    protocol::ProposeScenariosResponse reply;
    const std::vector<uint64_t> parents =
        call++ == 0 ? std::vector<uint64_t>{} : std::vector<uint64_t>{2};
    for (uint32_t i = 0; i < request.count; ++i) {
      reply.scenarios.push_back({{{"bush", 40.0 + i, 10.0, 0.0, 1.0}}, parents, "add"});
    }
    return reply;
  };
  Register("s3cret");
  ExternalStrategy strategy = Strategy();
  ASSERT_EQ(strategy.Ask(2).size(), 2u);
  strategy.Tell({{1, 0.25, false}, {2, 1.5, true}});
  const std::vector<search::Candidate> children = strategy.Ask(1);
  ASSERT_EQ(children.size(), 1u);
  EXPECT_EQ(children[0].id, 3u);
  EXPECT_EQ(children[0].parents, std::vector<uint64_t>{2});
  EXPECT_EQ(children[0].generation, 1u);
  std::lock_guard lock(mutex_);
  ASSERT_EQ(tells_.size(), 1u);
  ASSERT_EQ(tells_[0].results.size(), 2u);
  EXPECT_EQ(tells_[0].results[1].id, 2u);
  EXPECT_EQ(tells_[0].results[1].regret, 1.5);
  EXPECT_TRUE(tells_[0].results[1].failure);
  EXPECT_EQ(tells_[0].results[1].scenario.obstacles[0].x, 41.0);
}

TEST_F(GeneratorFixture, ProtocolBreachesStopTheSearchWithTheReason) {
  propose_ = [](const protocol::ProposeScenariosRequest& request) {
    protocol::ProposeScenariosResponse reply;
    for (uint32_t i = 0; i <= request.count; ++i) {  // one more than asked
      reply.scenarios.push_back({{{"tree", 50.0, 10.0, 0.0, 1.0}}, {}, ""});
    }
    return reply;
  };
  Register("s3cret");
  ExternalStrategy strategy = Strategy();
  try {
    strategy.Ask(2);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "scenario generator: 3 scenarios proposed, 2 asked for");
  }
  propose_ = [](const protocol::ProposeScenariosRequest&) { return OneTree({17}); };
  EXPECT_THROW(
      {
        try {
          strategy.Ask(1);
        } catch (const std::runtime_error& error) {
          EXPECT_STREQ(error.what(),
                       "scenario generator: scenarios[0].parents: 17 is not the id of an "
                       "earlier candidate");
          throw;
        }
      },
      std::runtime_error);
  // Every proposal refused for max_rounds rounds.
  propose_ = [](const protocol::ProposeScenariosRequest&) { return OneTree({}, "rock"); };
  try {
    strategy.Ask(1);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what())
                  .find("every proposal of 3 rounds was refused; the last: "
                        "scenarios[0].obstacles[0].path_name: \"rock\""),
              std::string::npos)
        << error.what();
  }
}

TEST_F(GeneratorFixture, CandidatesAcceptedBeforeTheGeneratorLeavesMidAskAreReturned) {
  // Rounds 0 and 1 propose one valid scenario and one outside the space; round 2 never comes
  // back: the generator closes its connection instead of answering.
  propose_ = [this](const protocol::ProposeScenariosRequest& request) {
    if (request.round == 2) generator_->Close("stopped in round 2");
    protocol::ProposeScenariosResponse reply = OneTree();
    reply.scenarios.push_back(Layout({{"tree", 99.0, 10.0, 0.0, 1.0}}));
    return reply;
  };
  Register("s3cret");
  ExternalStrategy strategy = Strategy();
  const std::vector<search::Candidate> accepted = strategy.Ask(4);
  ASSERT_EQ(accepted.size(), 2u);
  EXPECT_EQ(accepted[0].id, 1u);
  EXPECT_EQ(accepted[1].id, 2u);
  // The error ends the search at the next call.
  try {
    strategy.Ask(2);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()).rfind("scenario generator: ", 0), 0u) << error.what();
  }
  EXPECT_THROW(strategy.Tell({{1, 0.5, false}}), std::runtime_error);
}

TEST_F(GeneratorFixture, AGeneratorThatLeavesOrNeverComesFailsTheWait) {
  EXPECT_THROW(link_.Await(50ms), std::runtime_error);
  Register("s3cret");
  ASSERT_NE(link_.Await(1s), nullptr);
  generator_->Close("gone");
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  std::string error;
  while (error.empty() && std::chrono::steady_clock::now() < deadline) {
    try {
      link_.Await(10ms);
      std::this_thread::sleep_for(10ms);
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
  }
  EXPECT_EQ(error.rfind("generator 'scripted' disconnected: ", 0), 0u) << error;
  link_.Cancel("interrupted by signal 2");
  EXPECT_THROW(link_.Await(1s), std::runtime_error);
}

}  // namespace
}  // namespace asg::client

namespace asg::client {
namespace {

/// The generator fixture on a port whose connections are closed after 300 ms of silence.
class QuietGeneratorFixture : public GeneratorFixture {
 protected:
  QuietGeneratorFixture() : GeneratorFixture(ShortPeerTimeout()) {}

  static LinkSettings ShortPeerTimeout() {
    LinkSettings settings;
    settings.connection.heartbeat_interval = 50ms;
    settings.connection.peer_timeout = kPeerTimeout;
    return settings;
  }

  /// Connects to the port a peer that never says anything; returns once the port has closed it.
  void SilentPeerIsCutOff() {
    auto silent = protocol::Connect(generator_io_.context().get_executor(),
                                    "127.0.0.1:" + std::to_string(links_.port()), 2s, Mute());
    std::mutex mutex;
    std::condition_variable closed_changed;
    bool closed = false;
    silent->SetCloseHandler([&](const std::string&) {
      std::lock_guard lock(mutex);
      closed = true;
      closed_changed.notify_all();
    });
    silent->Start();
    std::unique_lock lock(mutex);
    ASSERT_TRUE(closed_changed.wait_for(lock, 10s, [&] { return closed; }));
  }

  /// A connection that sends no heartbeats (one an hour) and waits for its peer as long.
  static protocol::ConnectionSettings Mute() {
    protocol::ConnectionSettings settings;
    settings.heartbeat_interval = std::chrono::hours(1);
    settings.peer_timeout = std::chrono::hours(1);
    return settings;
  }

  static constexpr std::chrono::milliseconds kPeerTimeout{300};
};

TEST_F(QuietGeneratorFixture, AGeneratorThinkingLongerThanThePeerTimeoutIsNotDropped) {
  propose_ = [](const protocol::ProposeScenariosRequest&) { return OneTree(); };
  hold_tells_ = true;
  Register("s3cret", Mute());  // the generator never sends a heartbeat
  ExternalStrategy strategy = Strategy();
  ASSERT_EQ(strategy.Ask(1).size(), 1u);
  search::Evaluation evaluation{1, 1.25, true};
  evaluation.failure_id = 4;
  auto told = std::async(std::launch::async, [&] { strategy.Tell({evaluation}); });
  {
    std::unique_lock lock(mutex_);
    ASSERT_TRUE(changed_.wait_for(lock, 10s, [this] { return held_.has_value(); }));
  }
  // Two silent peers connected one after the other since the generator last spoke are cut off
  // for their silence, each after the peer timeout: the generator has been silent for longer
  // than two of them by then, and it is still served.
  SilentPeerIsCutOff();
  SilentPeerIsCutOff();
  EXPECT_TRUE(generator_->IsOpen());
  {
    std::lock_guard lock(mutex_);
    generator_->Reply(*held_, json::Json(protocol::ScenarioResultsResponse{true}));
  }
  EXPECT_NO_THROW(told.get());
  std::lock_guard lock(mutex_);
  ASSERT_EQ(tells_.size(), 1u);
  ASSERT_EQ(tells_[0].results.size(), 1u);
  EXPECT_EQ(tells_[0].results[0].failure_id, std::optional<uint32_t>(4));
}

}  // namespace
}  // namespace asg::client
