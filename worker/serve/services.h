// The service table of the interactive worker, assembled from one file per family.
#pragma once

#include <map>
#include <string>

#include "scene/live_run.h"
#include "worker/serve/call.h"

namespace asg::worker::serve {

class Session;

/// One service: its family, a one-line description and its handler. A handler throws
/// std::invalid_argument (or json::DecodeError) for a request it cannot decode (answered Error,
/// naming the field and the value).
struct Service {
  const char* family;       ///< "simulation_interfaces", "monodrive", "roadrunner_sse" or "asg"
  const char* description;  ///< one line, as ListServices gives it
  Reply (*handler)(Session& session, const Call& call);
};

/// Every service by name (services_*.cpp).
const std::map<std::string, Service>& Services();

/// simulation_interfaces Result code of an entity operation's status.
int EntityCode(scene::EntityStatus status);
/// SpawnEntity's result code of a status (its own codes 101..109 first).
int SpawnCode(scene::EntityStatus status);
/// The message of a service that needs a loaded scenario.
std::string NotLoaded();
/// Sets `entity`'s state (scene::LiveRun::SetState) for `service` and, when it was set, records
/// the intervention in the session's InterventionLog. Requires a loaded scenario.
scene::EntityOutcome SetStateRecorded(Session& session, const std::string& service,
                                      const std::string& entity,
                                      const scene::EntityStateChange& change);

/// Adds the services of each family.
void AddSimulationInterfacesServices(std::map<std::string, Service>* services);
void AddMonoDriveServices(std::map<std::string, Service>* services);
void AddRoadRunnerServices(std::map<std::string, Service>* services);
void AddFarmServices(std::map<std::string, Service>* services);

}  // namespace asg::worker::serve
