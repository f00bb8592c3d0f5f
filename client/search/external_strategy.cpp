// The external strategy: Ask and Tell as requests to a registered scenario generator.
#include "client/search/external_strategy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "client/batch/batch_json.h"
#include "protocol/typed_connection.h"

namespace asg::client {

namespace {

/// Empty when `value` lies in `range` (a hair of rounding allowed), else why not.
std::string OutsideRange(const std::string& path, double value, const search::Range& range,
                         const std::string& class_name) {
  const double slack = 1e-9 * std::max({1.0, std::abs(range.min), std::abs(range.max)});
  if (value >= range.min - slack && value <= range.max + slack) return {};
  return path + ": " + NumberText(value) + " is outside [" + NumberText(range.min) + ", " +
         NumberText(range.max) + "] of class \"" + class_name + "\"";
}

}  // namespace

std::string CheckProposal(const search::SearchSpace& space, const protocol::Proposal& proposal,
                          std::vector<search::Obstacle>* obstacles) {
  obstacles->clear();
  std::vector<uint32_t> counts(space.classes.size(), 0);
  for (size_t i = 0; i < proposal.obstacles.size(); ++i) {
    const protocol::ProposedObstacle& proposed = proposal.obstacles[i];
    const std::string path = "obstacles[" + std::to_string(i) + "]";
    const auto found = std::find_if(
        space.classes.begin(), space.classes.end(),
        [&](const search::ActorClassSpace& c) { return c.path_name == proposed.path_name; });
    if (found == space.classes.end()) {
      std::string known;
      for (const search::ActorClassSpace& c : space.classes) {
        known += (known.empty() ? "" : ", ") + ("\"" + c.path_name + "\"");
      }
      return path + ".path_name: \"" + proposed.path_name +
             "\" is not a class of the search space (" + known + ")";
    }
    const search::ActorClassSpace& actor = *found;
    for (const std::string& problem :
         {OutsideRange(path + ".x", proposed.x, actor.x, actor.path_name),
          OutsideRange(path + ".y", proposed.y, actor.y, actor.path_name),
          OutsideRange(path + ".yaw", proposed.yaw, actor.yaw, actor.path_name),
          OutsideRange(path + ".scale", proposed.scale, actor.scale, actor.path_name)}) {
      if (!problem.empty()) return problem;
    }
    const auto index = static_cast<uint32_t>(found - space.classes.begin());
    if (++counts[index] > actor.max_count) {
      return path + ": more than " + std::to_string(actor.max_count) + " of class \"" +
             actor.path_name + "\"";
    }
    obstacles->push_back({index, proposed.x, proposed.y, proposed.yaw, proposed.scale});
  }
  if (obstacles->size() < space.min_obstacles) {
    return "obstacles: " + std::to_string(obstacles->size()) +
           " actors, fewer than min_obstacles " + std::to_string(space.min_obstacles);
  }
  if (std::string why = search::Infeasibility(space, *obstacles); !why.empty()) {
    return "infeasible: " + why;
  }
  return {};
}

ExternalStrategy::ExternalStrategy(const ExternalSettings& settings, search::SearchSpace space,
                                   GeneratorLink* link)
    : settings_(settings), space_(std::move(space)), link_(link) {
  if (link_ == nullptr) throw std::invalid_argument("the external strategy needs a generator link");
}

protocol::Connection& ExternalStrategy::Generator() {
  if (!generator_) {
    generator_ = link_->Await(
        std::chrono::milliseconds(static_cast<int64_t>(settings_.connect_timeout * 1000.0)));
  }
  return *generator_;
}

template <class Reply, class Request>
Reply ExternalStrategy::Call(const Request& request) {
  protocol::Connection& generator = Generator();
  try {
    return protocol::RequestMessage<Reply>(
        generator, request, {},
        std::chrono::milliseconds(static_cast<int64_t>(settings_.reply_timeout * 1000.0)));
  } catch (const std::exception& error) {
    throw std::runtime_error("scenario generator: " + std::string(error.what()));
  }
}

std::vector<search::Candidate> ExternalStrategy::Ask(size_t count) {
  ThrowIfStopped();
  std::vector<search::Candidate> accepted;
  try {
    AskRounds(count, &accepted);
  } catch (const std::runtime_error& error) {
    // Candidates accepted in earlier rounds of this Ask still run; the error ends the search at
    // the next Ask or Tell.
    if (accepted.empty()) throw;
    stopped_ = error.what();
  }
  return accepted;
}

void ExternalStrategy::ThrowIfStopped() const {
  if (!stopped_.empty()) throw std::runtime_error(stopped_);
}

void ExternalStrategy::AskRounds(size_t count, std::vector<search::Candidate>* accepted) {
  protocol::ProposeScenariosRequest request;
  std::string last_refusal;
  for (uint32_t round = 0; round < settings_.max_rounds && accepted->size() < count; ++round) {
    request.count = static_cast<uint32_t>(count - accepted->size());
    request.first_id = next_id_;
    request.round = round;
    const auto reply = Call<protocol::ProposeScenariosResponse>(request);
    if (reply.scenarios.empty()) return;  // nothing to propose now
    if (reply.scenarios.size() > request.count) {
      throw std::runtime_error("scenario generator: " + std::to_string(reply.scenarios.size()) +
                               " scenarios proposed, " + std::to_string(request.count) +
                               " asked for");
    }
    request.rejected.clear();
    for (size_t i = 0; i < reply.scenarios.size(); ++i) {
      const protocol::Proposal& proposal = reply.scenarios[i];
      search::Candidate candidate;
      candidate.generation = GenerationOf(proposal, i);
      if (std::string why = CheckProposal(space_, proposal, &candidate.obstacles); !why.empty()) {
        last_refusal = "scenarios[" + std::to_string(i) + "]." + why;
        request.rejected.push_back({static_cast<uint32_t>(i), why});
        continue;
      }
      candidate.id = next_id_++;
      candidate.parents = proposal.parents;
      candidate.origin = proposal.origin.empty() ? "external" : proposal.origin;
      generation_of_[candidate.id] = candidate.generation;
      awaiting_[candidate.id] = proposal;
      accepted->push_back(std::move(candidate));
    }
  }
  if (accepted->empty()) {
    throw std::runtime_error("scenario generator: every proposal of " +
                             std::to_string(settings_.max_rounds) +
                             " rounds was refused; the last: " + last_refusal);
  }
}

uint32_t ExternalStrategy::GenerationOf(const protocol::Proposal& proposal, size_t index) const {
  uint32_t generation = 0;
  for (const uint64_t parent : proposal.parents) {
    const auto known = generation_of_.find(parent);
    if (known == generation_of_.end()) {
      throw std::runtime_error("scenario generator: scenarios[" + std::to_string(index) +
                               "].parents: " + std::to_string(parent) +
                               " is not the id of an earlier candidate");
    }
    generation = std::max(generation, known->second + 1);
  }
  return generation;
}

void ExternalStrategy::Tell(const std::vector<search::Evaluation>& evaluations) {
  ThrowIfStopped();
  protocol::ScenarioResultsRequest request;
  for (const search::Evaluation& evaluation : evaluations) {
    const auto proposal = awaiting_.find(evaluation.id);
    if (proposal == awaiting_.end()) continue;  // told already: not sent twice
    request.results.push_back({evaluation.id, evaluation.regret, evaluation.failure,
                               evaluation.failure_id, std::move(proposal->second)});
    awaiting_.erase(proposal);
  }
  if (request.results.empty()) return;
  const auto reply = Call<protocol::ScenarioResultsResponse>(request);
  if (!reply.received) throw std::runtime_error("scenario generator: results not received");
}

}  // namespace asg::client
