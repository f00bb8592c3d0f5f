// The command line of asg-worker (Boost.Program_options).
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "worker/serve/session.h"
#include "worker/worker_session.h"

namespace asg::worker {

/// A command line that cannot be used; the message says why.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// What the command line asks for.
struct WorkerCommand {
  enum class Mode : uint8_t {
    kHelp,                 ///< print `help` and exit 0
    kServe,                ///< --connect: serve a client (settings)
    kRunScenario,          ///< --run-scenario: run request_file into out_dir
    kInteractive,          ///< --serve: the interactive worker (interactive)
    kPrintServiceSchemas,  ///< --print-service-schemas: print each service's request schema
  };
  Mode mode = Mode::kHelp;
  std::string help;  ///< the --help text
  WorkerSettings settings;
  std::filesystem::path catalog;       ///< actor catalog file
  std::filesystem::path request_file;  ///< kRunScenario
  std::filesystem::path out_dir;       ///< kRunScenario
  serve::ServeSettings interactive;    ///< kInteractive
};

/// Parses argv. The token comes from --token, else from the environment variable ASG_TOKEN.
/// Throws UsageError naming the problem.
WorkerCommand ParseWorkerCommandLine(int argc, const char* const argv[]);

}  // namespace asg::worker
