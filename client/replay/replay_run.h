// `asg-client replay`: re-runs the top distinct failures (or the highest-regret runs) of a
// finished batch into a new folder (client/replay/replay_batch.h), through the same farm as
// `asg-client run`, and with captures draws the family trees of the top scenarios
// (client/replay/mosaic_tree.h).
#pragma once

#include <iosfwd>

#include "client/farm/farm.h"
#include "client/replay/replay_batch.h"

namespace asg::client {

/// Ranks settings.source_dir by settings.ranking (distinct failures fall back to the runs, said on
/// `out`, when the source has none), writes farm.out_dir/replay_batch.json and replay.json, loads
/// that batch file and runs it with RunFarm, then (with captures, unless interrupted) writes
/// family_trees.png and family_trees.json. Returns the exit code of `asg-client run`: 0, 1, 130,
/// or 2 when the source folder cannot be replayed (message on `err`, naming the folder) or the
/// written batch does not load. Progress and the outcome table go to `out`. Throws what RunFarm
/// throws when the farm cannot start.
int RunReplay(const ReplaySettings& settings, const FarmSettings& farm, std::ostream& out,
              std::ostream& err);

}  // namespace asg::client
