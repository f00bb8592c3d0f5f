// Tests for ctl/ctl_options.h: asg-ctl's command line: defaults, the token's sources, the JSON
// argument and the checks.
#include "ctl/ctl_options.h"

#include <gtest/gtest.h>

namespace asg::ctl {
namespace {

using json::Json;

/// ParseCtlCommandLine with ASG_TOKEN unset unless given.
CtlCommand Parse(const std::vector<std::string>& args,
                 const std::optional<std::string>& env_token = std::nullopt) {
  return ParseCtlCommandLine(args, env_token);
}

/// The UsageError's message for args, or "" when they parse.
std::string UsageProblem(const std::vector<std::string>& args) {
  try {
    Parse(args);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(CtlOptions, ACallWithDefaults) {
  const CtlCommand command = Parse({"127.0.0.1:7000", "GetSimulationState"});
  EXPECT_EQ(command.mode, CtlCommand::Mode::kCall);
  EXPECT_EQ(command.address, "127.0.0.1:7000");
  EXPECT_EQ(command.service, "GetSimulationState");
  EXPECT_EQ(command.request, Json::object());
  EXPECT_EQ(command.token, "");
  EXPECT_EQ(command.out_dir, "");
  EXPECT_EQ(command.timeout, std::chrono::seconds(30));
  EXPECT_FALSE(command.follow);
}

TEST(CtlOptions, EveryOption) {
  const CtlCommand command =
      Parse({"[::1]:7000", "SubscribeEvents", R"({"b": 1, "a": [2]})", "--token", "t", "--out",
             "shots", "--timeout", "2.5", "--follow"});
  EXPECT_EQ(command.address, "[::1]:7000");
  EXPECT_EQ(command.request.dump(), R"({"b":1,"a":[2]})");  // the order as given
  EXPECT_EQ(command.token, "t");
  EXPECT_EQ(command.out_dir, "shots");
  EXPECT_EQ(command.timeout, std::chrono::milliseconds(2500));
  EXPECT_TRUE(command.follow);
}

TEST(CtlOptions, TheTokenOptionWinsOverTheEnvironment) {
  EXPECT_EQ(Parse({"h:1", "S"}, "env").token, "env");
  EXPECT_EQ(Parse({"h:1", "S", "--token", "option"}, "env").token, "option");
}

TEST(CtlOptions, ListTakesNoService) {
  const CtlCommand command = Parse({"h:1", "--list"});
  EXPECT_EQ(command.mode, CtlCommand::Mode::kList);
  EXPECT_EQ(command.service, "ListServices");
  EXPECT_NE(UsageProblem({"h:1", "GetX", "--list"}).find("--list takes no SERVICE"),
            std::string::npos);
}

TEST(CtlOptions, HelpNeedsNothingElse) {
  const CtlCommand command = Parse({"-h"});
  EXPECT_EQ(command.mode, CtlCommand::Mode::kHelp);
  EXPECT_NE(command.help.find("Usage:"), std::string::npos);
}

TEST(CtlOptions, BadArgumentsAreNamed) {
  EXPECT_NE(UsageProblem({}).find("no arguments given"), std::string::npos);
  EXPECT_NE(UsageProblem({"localhost", "S"}).find("address \"localhost\""), std::string::npos);
  EXPECT_NE(UsageProblem({"h:1", "S", R"({"a": 1, "a": 2})"}).find("does not parse"),
            std::string::npos);
  EXPECT_NE(UsageProblem({"h:1", "S", "7"}).find("'7' is number"), std::string::npos);
  EXPECT_NE(UsageProblem({"h:1", "S", "--timeout", "0"}).find("--timeout 0"), std::string::npos);
  EXPECT_NE(UsageProblem({"h:1", "S", "--timeout", "-1"}).find("--timeout -1"), std::string::npos);
  EXPECT_NE(UsageProblem({"h:1", "S", "--timeout", "soon"}), "");
  EXPECT_NE(UsageProblem({"h:1", "S", "--bogus"}).find("bogus"), std::string::npos);
  EXPECT_NE(UsageProblem({"h:1", "S", "--out", ""}), "");
}

}  // namespace
}  // namespace asg::ctl
