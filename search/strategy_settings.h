// The JSON of every strategy's settings ("strategy_settings" of a batch's search section): each
// settings struct's fields are declared once with the field visitor (json/fields.h), which decodes
// them strictly and writes their JSON Schema. Settings speak their own wording:
//   bacre setting "curation_ratio" is "wide": needs a number
//   random has no setting "max_obstacle" (value 3); known: min_obstacles, max_obstacles, ...
// An absent key keeps the struct's default; null settings are all defaults.
#pragma once

#include <stdexcept>
#include <string>

#include "json/declare.h"
#include "json/wording.h"
#include "search/grid_strategy.h"

namespace asg::search {

/// The wording of settings errors: each problem names the setting and its value; the strategy's
/// name is put in front by DecodeSettings.
class SettingsWording : public json::Wording {
 public:
  bool checks_values() const override { return true; }
  void CheckValue(const json::Json& j, const std::string& path,
                  const json::Expected& expected) const override;
  json::DecodeError NotAnObject(const std::string& path, const json::Json& j) const override;
  json::DecodeError Unknown(const std::string& object_path,
                            const json::UnknownKey& unknown) const override;
  json::DecodeError Missing(const std::string& object_path, std::string_view key,
                            std::string_view tag_kind) const override;
};

/// The one SettingsWording, which the settings' schemas name.
inline const SettingsWording kSettingsWording{};

/// A fixed obstacle of the grid strategy as its settings name it: the class by path_name.
struct FixedObstacle {
  std::string class_name;  ///< "class": a path_name of the space
  double x = 0.0;          ///< [m] north
  double y = 0.0;          ///< [m] west
  double yaw = 0.0;        ///< [deg]
  double scale = 1.0;      ///< uniform scale
};
ASG_DECLARE_JSON(FixedObstacle);

/// The grid strategy's settings as written: GridSettings with the fixed obstacles by class name
/// (resolved against the space when the strategy is made).
struct GridSettingsJson {
  GridSettings settings;             ///< every key but "fixed"
  std::vector<FixedObstacle> fixed;  ///< "fixed"
};
ASG_DECLARE_JSON(GridSettingsJson);

/// `settings` (null or an object) decoded into a Settings struct whose JSON functions are
/// declared (ASG_DECLARE_JSON). Throws std::invalid_argument "<strategy> <problem>".
template <class Settings>
Settings DecodeSettings(const std::string& strategy, const json::Json& settings) {
  Settings decoded;
  if (settings.is_null()) return decoded;
  try {
    Decode(settings, "", &decoded);
  } catch (const json::DecodeError& error) {
    throw std::invalid_argument(strategy + " " + error.problem());
  }
  return decoded;
}

}  // namespace asg::search
