// Tests for client/search/generator_link.h: one generator per search, its token, its leaving,
// a cancel, and the end of the search told over a real loopback connection.
#include "client/search/generator_link.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>

#include "protocol/endpoint.h"
#include "protocol/io_threads.h"
#include "protocol/server.h"
#include "protocol/typed_connection.h"

namespace asg::client {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

/// The message Await throws, or "" when it returns a connection.
std::string AwaitError(GeneratorLink& link, milliseconds timeout) {
  try {
    link.Await(timeout);
    return "";
  } catch (const std::runtime_error& error) {
    return error.what();
  }
}

/// A loopback server whose accepted connections stand for generators' connections on the farm's
/// port, and clients that connect to it: the generator's side, recording what it is told.
class GeneratorLinkTest : public ::testing::Test {
 protected:
  GeneratorLinkTest()
      : server_(io_.context().get_executor(), "127.0.0.1", 0, {},
                [this](std::shared_ptr<protocol::Connection> connection) {
                  connection->Start();
                  std::lock_guard lock(mutex_);
                  accepted_.push_back(std::move(connection));
                  changed_.notify_all();
                }) {}
  ~GeneratorLinkTest() override {
    for (const auto& connection : accepted_) connection->Close("test over");
    for (const auto& connection : clients_) connection->Close("test over");
    io_.Stop();  // no handler runs while the members go
  }

  /// Connects a generator; returns the farm's side of its connection.
  std::shared_ptr<protocol::Connection> Connect() {
    auto client = protocol::Connect(io_.context().get_executor(),
                                    "127.0.0.1:" + std::to_string(server_.port()), seconds(2));
    protocol::OnMessage<protocol::SearchEndedMessage>(
        *client, [this](const protocol::SearchEndedMessage& ended, const protocol::Message&) {
          std::lock_guard lock(mutex_);
          ended_.push_back(ended.reason);
          changed_.notify_all();
        });
    client->Start();
    clients_.push_back(client);
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, seconds(10), [&] { return accepted_.size() == clients_.size(); });
    return accepted_.back();
  }

  protocol::IoThreads io_{1};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::shared_ptr<protocol::Connection>> accepted_;
  std::vector<std::shared_ptr<protocol::Connection>> clients_;
  std::vector<std::string> ended_;  // SearchEnded reasons the generators received
  protocol::Server server_;
};

TEST_F(GeneratorLinkTest, OneGeneratorWithTheRightTokenServesTheSearch) {
  GeneratorLink link({{"seed", 3}}, "s3cret");
  EXPECT_EQ(link.search()["seed"], 3);
  const auto first = Connect();
  EXPECT_EQ(link.Offer(first, {"gen", "wrong"}), "refused: wrong token");
  EXPECT_EQ(link.Offer(first, {"gen", "s3cret"}), "");
  EXPECT_EQ(link.Await(seconds(1)), first);
  EXPECT_EQ(link.Offer(Connect(), {"other", "s3cret"}),
            "refused: generator 'gen' serves this search already");
  EXPECT_FALSE(link.cancelled());
}

TEST_F(GeneratorLinkTest, AGeneratorThatLeftIsNotReplacedAndAwaitSaysWhy) {
  GeneratorLink link({}, "");
  const auto generator = Connect();
  ASSERT_EQ(link.Offer(generator, {"gen", ""}), "");
  link.Closed(Connect().get(), "another connection");  // not the generator's: changes nothing
  EXPECT_EQ(AwaitError(link, milliseconds(10)), "");
  link.Closed(generator.get(), "reset by peer");
  EXPECT_EQ(AwaitError(link, seconds(1)), "generator 'gen' disconnected: reset by peer");
  EXPECT_EQ(link.Offer(Connect(), {"again", ""}),
            "refused: generator 'gen' serves this search already");
}

TEST_F(GeneratorLinkTest, NoGeneratorInTimeOrACancelEndsTheWait) {
  GeneratorLink link({}, "");
  EXPECT_EQ(AwaitError(link, milliseconds(20)), "no scenario generator registered within 0.02 s");
  link.Cancel("interrupted by signal 2");
  EXPECT_TRUE(link.cancelled());
  EXPECT_EQ(AwaitError(link, seconds(5)), "interrupted by signal 2");
  EXPECT_EQ(link.Offer(Connect(), {"late", ""}),
            "refused: the search is over (interrupted by signal 2)");
}

TEST_F(GeneratorLinkTest, EndTellsTheGeneratorWhyTheSearchEndedAndClosesIt) {
  GeneratorLink link({}, "");
  ASSERT_EQ(link.Offer(Connect(), {"gen", ""}), "");
  link.End("search finished");
  EXPECT_TRUE(link.cancelled());
  std::unique_lock lock(mutex_);
  ASSERT_TRUE(changed_.wait_for(lock, seconds(10), [&] { return !ended_.empty(); }));
  EXPECT_EQ(ended_, std::vector<std::string>{"search finished"});
}

}  // namespace
}  // namespace asg::client
