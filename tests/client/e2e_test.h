// What the end-to-end tests of asg-client share: the process helpers (e2e_process.h), a fresh
// folder per test, the short names they use, and a batch file run to its end. A test file
// includes it and puts its tests in namespace asg::client::testing.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/client/e2e_process.h"
#include "tests/temp_dir.h"

namespace asg::client::testing {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using testutil::TempDir;

/// Runs `asg-client run BATCH --out OUT --workers N -q` followed by `more`, its output in `log`;
/// returns the exit code.
inline int RunBatch(const fs::path& batch, const fs::path& out, int workers, const fs::path& log,
                    const std::vector<std::string>& more = {}) {
  std::vector<std::string> arguments = {"run",       batch.string(),          "--out", out.string(),
                                        "--workers", std::to_string(workers), "-q"};
  arguments.insert(arguments.end(), more.begin(), more.end());
  return RunToEnd(Executable("asg-client"), arguments, log);
}

/// failures.csv and failures.json of the batch folder `out`, one after the other.
inline std::string FailureFiles(const fs::path& out) {
  return ReadText(out / "failures.csv") + ReadText(out / "failures.json");
}

}  // namespace asg::client::testing
