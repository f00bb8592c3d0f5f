// A search candidate as a scenario of the batch: its request (the batch defaults with the space's
// start, goal, start yaw and sim timeout, and an ssa_array of its obstacles) and the search.json
// record that its result folder keeps. With runs_per_scenario K, a candidate is K scenarios, its
// runs 0..K-1 (variation.run), all with the same seed: only the run's variation differs.
#pragma once

#include <cstdint>
#include <vector>

#include "client/batch/batch.h"
#include "search/strategy.h"

namespace asg::client {

/// The full request JSON of `candidate` as scenario `scenario_number` with `seed`: `base` (the
/// batch's base request, batch.h) merged with the space's start (x, y, yaw), goal (x, y) and
/// sim_timeout_period, and a scene_description.ssa_array holding one layout per class that has
/// obstacles, in class order, its instances in the candidate's order (visible, casting shadows);
/// variation.run is `run` (the base's variation ranges are kept).
Json CandidateRequest(const search::SearchSpace& space, const Json& base,
                      const search::Candidate& candidate, uint32_t scenario_number, uint64_t seed,
                      uint32_t run = 0);

/// The scenario's search.json: candidate_id, generation (the farm's generation, a row of
/// search.csv), lineage_generation (Candidate::generation), origin, parents (scenario numbers),
/// parent_ids, obstacles (class name, x, y, yaw, scale), run (this scenario's run of the
/// candidate, 0-based) and runs (the scenario numbers of all the candidate's runs, in run order).
Json CandidateRecord(const search::SearchSpace& space, const search::Candidate& candidate,
                     uint32_t generation, const std::vector<uint32_t>& parent_numbers,
                     uint32_t run = 0, const std::vector<uint32_t>& run_numbers = {});

/// The planned scenario of a candidate: CandidateRequest decoded strictly (source
/// "search[<id - 1>]", or "search[<id - 1>].runs[<run>]" for a run > 0), with `record` as its
/// search_record.
PlannedScenario PlanCandidate(const search::SearchSpace& space, const Json& base,
                              const search::Candidate& candidate, uint32_t scenario_number,
                              uint64_t seed, Json record, uint32_t run = 0);

}  // namespace asg::client
