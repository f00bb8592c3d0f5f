// asg-worker: runs ASG Farm scenarios for an asg-client, or one request file on its own.
#include <cstdlib>
#include <iostream>

#include "scene/actor_catalog.h"
#include "worker/serve/service_schemas.h"
#include "worker/single_run.h"
#include "worker/worker_log.h"
#include "worker/worker_options.h"
#include "worker/worker_session.h"

int main(int argc, char** argv) {
  // One worker per core: Mesa's llvmpipe would otherwise start a rasterizer thread per core in
  // every worker. A value set by the user is kept.
  ::setenv("LP_NUM_THREADS", "1", /*overwrite=*/0);
  using asg::worker::WorkerCommand;
  WorkerCommand command;
  try {
    command = asg::worker::ParseWorkerCommandLine(argc, argv);
  } catch (const asg::worker::UsageError& error) {
    std::cerr << "asg-worker: " << error.what() << "\n(see asg-worker --help)\n";
    return asg::worker::kWorkerExitUsage;
  }
  if (command.mode == WorkerCommand::Mode::kHelp) {
    std::cout << command.help;
    return asg::worker::kWorkerExitOk;
  }
  if (command.mode == WorkerCommand::Mode::kPrintServiceSchemas) {
    std::cout << asg::worker::serve::ServiceSchemas().dump(2) << "\n";
    return asg::worker::kWorkerExitOk;
  }
  // The process boundary: anything not handled below ends the worker with a message.
  try {
    const auto catalog = asg::scene::ActorCatalog::FromFile(command.catalog.string());
    if (command.mode == WorkerCommand::Mode::kRunScenario) {
      return asg::worker::RunScenarioFile(command.request_file, command.out_dir, catalog,
                                          command.settings.worker_id, std::cout);
    }
    if (command.mode == WorkerCommand::Mode::kInteractive) {
      return asg::worker::serve::ServeInteractive(command.interactive, catalog);
    }
    return asg::worker::ServeClients(command.settings, catalog);
  } catch (const std::exception& error) {
    asg::worker::Log(asg::core::LogLevel::kError, std::string("fatal: ") + error.what());
    return asg::worker::kWorkerExitFailure;
  }
}
