// asg-client: runs a batch of scenarios on a pool of asg-worker processes, or replays the
// highest-regret scenarios of a finished one.
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "client/batch.h"
#include "client/client_options.h"
#include "client/farm.h"
#include "client/replay_run.h"

int main(int argc, char** argv) {
  using asg::client::ClientCommand;
  std::error_code ignored;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ignored);
  ClientCommand command;
  try {
    command = asg::client::ParseClientCommandLine(argc, argv, self.empty() ? argv[0] : self);
  } catch (const asg::client::UsageError& error) {
    std::cerr << "asg-client: " << error.what() << "\n(see asg-client --help)\n";
    return asg::client::kExitUsage;
  }
  if (command.mode == ClientCommand::Mode::kHelp || command.mode == ClientCommand::Mode::kVersion) {
    std::cout << command.text;
    return 0;
  }
  command.settings.live_progress = ::isatty(STDOUT_FILENO) == 1;
  if (command.mode == ClientCommand::Mode::kReplay) {
    // The process boundary, as for run below.
    try {
      return asg::client::RunReplay(command.replay, command.settings, std::cout, std::cerr);
    } catch (const std::exception& error) {
      std::cerr << "asg-client: " << error.what() << "\n";
      return asg::client::kExitSomeFailed;
    }
  }

  asg::client::Batch batch;
  try {
    batch = asg::client::LoadBatchFile(command.batch_file);
  } catch (const asg::client::BatchError& error) {
    std::cerr << "asg-client: " << error.what() << "\n";
    return asg::client::kExitUsage;
  }
  // The process boundary: a farm that cannot start or go on ends with a message.
  try {
    return asg::client::RunFarm(batch, command.settings, std::cout);
  } catch (const std::exception& error) {
    std::cerr << "asg-client: " << error.what() << "\n";
    return asg::client::kExitSomeFailed;
  }
}
