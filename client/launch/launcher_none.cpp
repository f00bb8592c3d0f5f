// --launcher none: nothing is launched. Workers started by any other means (an ssh loop, a
// Kubernetes Job, a person) connect to the client's address with its token; their connections
// are all the farm knows of them.
#include "client/launch/launcher.h"

namespace asg::client {

namespace {

class NoLauncher final : public Launcher {
 public:
  NoLauncher(const LauncherSettings& settings, core::Logger* logger)
      : connect_(settings.connect), logger_(logger) {}

  void Start() override {
    logger_->Info("launching no workers: waiting for workers on " + connect_);
  }
  bool Claim(WorkerKey, uint16_t, int64_t, const std::string&) override { return false; }
  void End(WorkerKey, uint16_t) override {}
  LauncherReport Poll(const LauncherTick&) override { return {}; }
  std::string Status() const override { return ""; }
  size_t Stop(std::chrono::milliseconds) override { return 0; }

 private:
  std::string connect_;
  core::Logger* logger_;
};

}  // namespace

std::unique_ptr<Launcher> MakeNoLauncher(const LauncherSettings& settings, core::Logger* logger) {
  return std::make_unique<NoLauncher>(settings, logger);
}

}  // namespace asg::client
