// The run's interventions and the entries of the state changes.
#include "worker/serve/interventions.h"

#include <cstdlib>

#include "protocol/geometry.h"
#include "results/trajectory_csv.h"

namespace asg::worker::serve {

void InterventionLog::Add(results::Intervention intervention) {
  entries_.push_back(std::move(intervention));
}

void InterventionLog::ClockRestarted() {
  for (results::Intervention& entry : entries_) entry.sim_time_s = 0.0;
}

std::vector<double> InterventionLog::Jumps() const {
  std::vector<double> jumps;
  for (const results::Intervention& entry : entries_) {
    const bool moved = entry.kind == "teleport" || (entry.kind == "reset" && entry.from);
    if (moved) jumps.push_back(entry.sim_time_s);
  }
  return jumps;
}

results::Intervention MakeIntervention(const scene::LiveRun& live, std::string service,
                                       std::string entity, std::string kind) {
  results::Intervention intervention;
  // The time as trajectory.csv writes stamps (whole nanoseconds, in decimal), so that a reader
  // compares the two exactly.
  const std::string stamp = results::FormatStamp(protocol::Time::FromSeconds(live.time()));
  intervention.sim_time_s = std::strtod(stamp.c_str(), nullptr);
  intervention.service = std::move(service);
  intervention.entity = std::move(entity);
  intervention.kind = std::move(kind);
  return intervention;
}

std::array<double, 3> Xyz(const Eigen::Vector3d& position) {
  return {position.x(), position.y(), position.z()};
}

void RecordStateChange(const scene::LiveRun& live, const std::string& service,
                       const std::string& entity, const scene::EntityStateChange& change,
                       const scene::EntityKinematics& before, InterventionLog* log) {
  const scene::EntityKinematics after = *live.Kinematics(entity);
  const bool posed = change.position || change.orientation;
  const bool twisted = change.linear_velocity || change.angular_velocity;
  if (entity != "vehicle") {
    if (!posed) return;  // an actor's twist can only be set to zero: nothing changed
    results::Intervention moved = MakeIntervention(live, service, entity, "entity_moved");
    moved.from = Xyz(before.position);
    moved.to = Xyz(after.position);
    log->Add(std::move(moved));
    return;
  }
  // The vehicle is re-placed even when neither part is given (its suspension is reset).
  if (posed || !twisted) {
    results::Intervention teleport = MakeIntervention(live, service, entity, "teleport");
    teleport.from = Xyz(before.position);
    teleport.to = Xyz(after.position);
    log->Add(std::move(teleport));
  }
  if (twisted) {
    results::Intervention velocity = MakeIntervention(live, service, entity, "velocity");
    velocity.linear_velocity = Xyz(after.linear_velocity);
    velocity.angular_velocity = Xyz(after.angular_velocity);
    log->Add(std::move(velocity));
  }
}

}  // namespace asg::worker::serve
