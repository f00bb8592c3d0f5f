// End-to-end test of asg-worker --serve (worker/serve/session.h): the interactive worker starts,
// loads a scenario, steps and answers over a real socket.
#include <gtest/gtest.h>

#include "protocol/messages_json.h"
#include "tests/worker/serve/served_worker.h"
#include "tests/worker/small_request.h"

namespace asg::worker {
namespace {

using testing::ServedWorker;
using testing::SmallRequest;

TEST(ServeSmokeTest, LoadsStepsAndReportsTheVehicle) {
  ServedWorker worker;
  auto client = worker.Connect();
  const json::Json loaded =
      client->Body("LoadScenario", {{"request", json::Json(SmallRequest(1))}});
  ASSERT_EQ(loaded["success"], true) << loaded.dump();
  EXPECT_EQ(client->Body("GetSimulationState")["state"]["state"], 2);
  EXPECT_EQ(client->Body("StepSimulation", {{"steps", 20}})["result"]["result"], 1);
  const json::Json time = client->Body("GetSimulationTime");
  EXPECT_NEAR(time["simulation_time"].get<double>(), 0.2, 1e-9);
}

}  // namespace
}  // namespace asg::worker
