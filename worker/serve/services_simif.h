// What the simulation_interfaces services share across their files (services_simif.cpp: features,
// spawning, entities; services_simif_clock.cpp: the simulation's state and stepping).
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "json/json.h"
#include "worker/serve/services.h"

namespace asg::worker::serve {

/// The reply to a request `service` cannot use (an unknown field, a value of the wrong type or
/// out of range): the service's response with RESULT_OPERATION_FAILED and the reason (for
/// SimulateSteps a rejected goal, for CancelSimulateSteps ERROR_REJECTED).
Reply SimifBadInput(const std::string& service, const std::string& reason);

/// `Handler`, answering a request it cannot decode with its own Result rather than an Error.
template <Reply (*Handler)(Session&, const Call&)>
Reply SimifResultOnBadInput(Session& session, const Call& call) {
  try {
    return Handler(session, call);
  } catch (const std::invalid_argument& error) {
    return SimifBadInput(call.message->type, error.what());
  } catch (const json::DecodeError& error) {
    return SimifBadInput(call.message->type, error.what());
  }
}

/// Adds ResetSimulation, GetSimulationState, SetSimulationState, StepSimulation, SimulateSteps
/// and CancelSimulateSteps (family simulation_interfaces) to `services`.
void AddSimulationClockServices(std::map<std::string, Service>* services);

}  // namespace asg::worker::serve
