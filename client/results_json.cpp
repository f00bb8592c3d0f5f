// JSON of result.json and timing.json.
#include "client/results_json.h"

#include "protocol/messages_json.h"

namespace asg::client {

std::string_view ScenarioStatusName(ScenarioStatus status) {
  switch (status) {
    case ScenarioStatus::kDone:
      return "done";
    case ScenarioStatus::kInvalid:
      return "invalid";
    case ScenarioStatus::kFailed:
      return "failed";
  }
  return "failed";
}

bool ScenarioStatusFromName(std::string_view name, ScenarioStatus* status) {
  for (ScenarioStatus candidate :
       {ScenarioStatus::kDone, ScenarioStatus::kInvalid, ScenarioStatus::kFailed}) {
    if (ScenarioStatusName(candidate) == name) {
      *status = candidate;
      return true;
    }
  }
  return false;
}

ScenarioResult DoneResult(const protocol::AnalyzeScenarioRequest& analysis, uint64_t seed,
                          uint32_t attempts) {
  ScenarioResult result;
  result.scenario_number = analysis.scenario_number;
  result.status = ScenarioStatus::kDone;
  result.attempts = attempts;
  result.seed = seed;
  result.termination_reason = analysis.termination_reason;
  result.vehicle_sim_time = analysis.vehicle_sim_time;
  result.counters = analysis.counters;
  result.capture_error = analysis.capture_error;
  return result;
}

Json ResultToJson(const ScenarioResult& result) {
  Json json = {{"scenario_number", result.scenario_number},
               {"status", ScenarioStatusName(result.status)},
               {"attempts", result.attempts},
               {"seed", result.seed},
               {"reruns", Json::array()},
               {"captures", result.captures}};
  for (const RerunRecord& rerun : result.reruns) {
    json["reruns"].push_back(
        {{"attempt", rerun.attempt}, {"node_name", rerun.node_name}, {"reason", rerun.reason}});
  }
  if (result.status == ScenarioStatus::kDone) {
    json["termination_reason"] = result.termination_reason;
    json["termination_reason_name"] = protocol::TerminationReasonName(
        static_cast<protocol::TerminationReason>(result.termination_reason));
    json["vehicle_sim_time"] = result.vehicle_sim_time;
    json["counters"] = result.counters;
  } else {
    json["error"] = result.error;
  }
  if (!result.capture_error.empty()) json["capture_error"] = result.capture_error;
  return json;
}

ScenarioResult ResultFromJson(const Json& json, const std::string& origin) {
  ScenarioResult result;
  try {
    result.scenario_number = json.at("scenario_number").get<uint32_t>();
    const std::string status = json.at("status").get<std::string>();
    if (!ScenarioStatusFromName(status, &result.status)) {
      throw ResultError(origin + ": status: unknown status \"" + status + "\"");
    }
    result.attempts = json.at("attempts").get<uint32_t>();
    result.seed = json.at("seed").get<uint64_t>();
    for (const Json& rerun : json.at("reruns")) {
      result.reruns.push_back({rerun.at("attempt").get<uint32_t>(),
                               rerun.at("node_name").get<std::string>(),
                               rerun.at("reason").get<std::string>()});
    }
    result.captures = json.at("captures").get<std::vector<std::string>>();
    if (result.status == ScenarioStatus::kDone) {
      result.termination_reason = json.at("termination_reason").get<uint8_t>();
      result.vehicle_sim_time = json.at("vehicle_sim_time").get<double>();
      protocol::Decode(json.at("counters"), "counters", &result.counters);
    } else {
      result.error = json.at("error").get<std::string>();
    }
    if (json.contains("capture_error")) {
      result.capture_error = json.at("capture_error").get<std::string>();
    }
  } catch (const Json::exception& error) {
    throw ResultError(origin + ": " + error.what());
  } catch (const protocol::DecodeError& error) {
    throw ResultError(origin + ": " + error.what());
  }
  return result;
}

Json TimingToJson(const ScenarioTiming& timing) {
  Json json = {{"worker_id", timing.worker_id},
               {"wall_time_s", timing.wall_time_s},
               {"attempts", Json::array()}};
  for (const AttemptTiming& attempt : timing.attempts) {
    json["attempts"].push_back({{"attempt", attempt.attempt},
                                {"worker_id", attempt.worker_id},
                                {"wall_time_s", attempt.wall_time_s},
                                {"outcome", attempt.outcome}});
  }
  return json;
}

ScenarioTiming TimingFromJson(const Json& json, const std::string& origin) {
  ScenarioTiming timing;
  try {
    timing.worker_id = json.at("worker_id").get<int32_t>();
    timing.wall_time_s = json.at("wall_time_s").get<double>();
    for (const Json& attempt : json.at("attempts")) {
      timing.attempts.push_back(
          {attempt.at("attempt").get<uint32_t>(), attempt.at("worker_id").get<int32_t>(),
           attempt.at("wall_time_s").get<double>(), attempt.at("outcome").get<std::string>()});
    }
  } catch (const Json::exception& error) {
    throw ResultError(origin + ": " + error.what());
  }
  return timing;
}

}  // namespace asg::client
