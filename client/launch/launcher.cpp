// The table of launcher kinds.
#include "client/launch/launcher.h"

#include <stdexcept>
#include <string_view>

namespace asg::client {

namespace {

struct LauncherKind {
  std::string_view name;
  std::unique_ptr<Launcher> (*make)(const LauncherSettings&, core::Logger*);
};

/// Every kind, the default first.
constexpr LauncherKind kLaunchers[] = {
    {"local", &MakeLocalLauncher},
    {"slurm", &MakeSlurmLauncher},
    {"none", &MakeNoLauncher},
};

}  // namespace

std::vector<std::string> LauncherNames() {
  std::vector<std::string> names;
  for (const LauncherKind& kind : kLaunchers) names.emplace_back(kind.name);
  return names;
}

std::unique_ptr<Launcher> MakeLauncher(const LauncherSettings& settings, core::Logger* logger) {
  for (const LauncherKind& kind : kLaunchers) {
    if (kind.name == settings.kind) return kind.make(settings, logger);
  }
  std::string known;
  for (const LauncherKind& kind : kLaunchers) {
    known += (known.empty() ? "" : ", ") + std::string(kind.name);
  }
  throw std::invalid_argument("unknown launcher \"" + settings.kind + "\" (known: " + known + ")");
}

}  // namespace asg::client
