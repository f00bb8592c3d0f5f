// The table of launcher kinds: each kind's name and factory.
#include "client/launch/launcher.h"

#include <stdexcept>
#include <string>

#include "core/check.h"

namespace asg::client {

namespace {

struct KindEntry {
  LauncherKind kind;
  std::string_view name;
  std::unique_ptr<Launcher> (*make)(const LauncherSettings&, core::Logger*);
};

/// Every kind, the default first.
constexpr KindEntry kLaunchers[] = {
    {LauncherKind::kLocal, "local", &MakeLocalLauncher},
    {LauncherKind::kSlurm, "slurm", &MakeSlurmLauncher},
    {LauncherKind::kNone, "none", &MakeNoLauncher},
};

const KindEntry& EntryOf(LauncherKind kind) {
  for (const KindEntry& entry : kLaunchers) {
    if (entry.kind == kind) return entry;
  }
  ASG_CHECK(false);
  return kLaunchers[0];
}

}  // namespace

std::string_view LauncherKindName(LauncherKind kind) { return EntryOf(kind).name; }

LauncherKind ParseLauncherKind(std::string_view name) {
  for (const KindEntry& entry : kLaunchers) {
    if (entry.name == name) return entry.kind;
  }
  std::string known;
  for (const KindEntry& entry : kLaunchers) {
    known += (known.empty() ? "" : ", ") + std::string(entry.name);
  }
  throw std::invalid_argument("unknown launcher \"" + std::string(name) + "\" (known: " + known +
                              ")");
}

std::vector<std::string> LauncherNames() {
  std::vector<std::string> names;
  for (const KindEntry& entry : kLaunchers) names.emplace_back(entry.name);
  return names;
}

std::unique_ptr<Launcher> MakeLauncher(const LauncherSettings& settings, core::Logger* logger) {
  return EntryOf(settings.kind).make(settings, logger);
}

}  // namespace asg::client
