// Finished runs judged as failures (failures/): a scenario's result, request and trajectory, as
// its folder holds them, turned into the facts a failure signature reads. The scene's actors are
// classed by the actor catalog (canonical class, traversability at their scale) and the slope is
// that of the scene's landscape, built as the worker builds it (terrain::Landscape).
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "catalog/actor_catalog.h"
#include "failures/signature.h"
#include "json/json.h"
#include "results/folder.h"
#include "terrain/landscape.h"

namespace asg::client {

/// A batch's failures cannot be found or written: a file that cannot be read or judged, or the
/// catalog. The message names the file, and the JSON path and the value where one is at fault.
class FailuresError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Judges finished runs as failures. Not thread-safe: it keeps the last landscape it built,
/// which consecutive runs of one batch usually share.
class FailureReader {
 public:
  /// Reads the actor catalog `catalog_file` (catalog/actor_catalog.h); throws FailuresError
  /// naming the file when it cannot be read or is not a valid catalog.
  explicit FailureReader(const std::filesystem::path& catalog_file);

  /// The kind of `result` at regret `threshold` as far as result.json tells
  /// (failures::ClassifyRun of its reason, its regret when computed, and whether it touched a
  /// non-traversable obstacle: counters.collisions_touched > 0); nothing for a run that is not
  /// done or ended clean. A success below the threshold that touched is kContact, a near miss.
  static std::optional<failures::FailureKind> KindOf(const results::ScenarioResult& result,
                                                     double threshold);

  /// Whether `result` is a failure at regret `threshold` as far as result.json tells: a done
  /// run whose termination reason, or regret at or above the threshold, makes it one. Only
  /// such runs need their request and trajectory read.
  static bool MayFail(const results::ScenarioResult& result, double threshold);

  /// The facts of the done run `scenario` (result, request and trajectory as read back, or as
  /// about to be written), its first contact from result.json's counters.first_contact (whose
  /// actor_index is an index into the facts' obstacles); `folder` is its folder, named in
  /// errors. Throws FailuresError "<folder>/request.json: scene_description.ssa_array[1]
  /// .path_name: "cactus" is not a class of <catalog>", for an actor's x, y or scale that is not
  /// a number, or "<folder>/result.json: counters.first_contact.actor_index: 9 is not an actor
  /// of request.json (it has 8)" (or names a traversable one).
  failures::RunFacts Facts(const results::StoredScenario& scenario,
                           const std::filesystem::path& folder) const;

  /// `scenario` as a failure at regret `threshold` (failures::DescribeRun on its Facts and its
  /// landscape's slope) when it is one, else nothing (near misses, kContact, are not
  /// failures). Throws FailuresError as Facts, or naming request.json's landscape when it cannot
  /// be built.
  std::optional<failures::Failure> Describe(const results::StoredScenario& scenario,
                                            const std::filesystem::path& folder, double threshold);

 private:
  /// The landscape of `request` (built again only when it differs from the last one).
  const terrain::Landscape& LandscapeOf(const json::Json& request,
                                        const std::filesystem::path& folder);

  std::string catalog_file_;
  catalog::ActorCatalog catalog_;
  std::string landscape_key_;  // the last landscape's JSON text
  std::optional<terrain::Landscape> landscape_;
};

}  // namespace asg::client
