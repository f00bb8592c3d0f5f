// The catalog's field lists, their wording, and loading.
#include "catalog/actor_catalog.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/number_format.h"
#include "json/fields.h"
#include "json/parse.h"

namespace asg::catalog {

/// The file's top level.
struct CatalogFile {
  std::vector<ActorClass> actors;
};
ASG_DECLARE_JSON(CatalogFile);

namespace {

using json::DecodeError;
using json::Expected;
using json::Json;

/// The catalog's words: "<path> = <value> must be > 0", "<path> has the unknown key "k"".
class CatalogWording : public json::Wording {
 public:
  bool checks_values() const override { return true; }
  void CheckValue(const Json& j, const std::string& path, const Expected& expected) const override {
    const std::string need = Need(j, expected);
    if (!need.empty()) throw DecodeError(path, "= " + j.dump() + " must be " + need);
  }
  DecodeError NotAnObject(const std::string& path, const Json& j) const override {
    return DecodeError(path, "= " + j.dump() + " must be an object");
  }
  DecodeError Unknown(const std::string& object_path,
                      const json::UnknownKey& unknown) const override {
    if (!unknown.tag_name.empty()) {
      return DecodeError(json::ChildPath(object_path, unknown.key),
                         "is not allowed for " + std::string(unknown.tag_kind) + " " +
                             json::Quoted(unknown.tag_name));
    }
    return DecodeError(object_path, "has the unknown key " + json::Quoted(unknown.key));
  }
  DecodeError Missing(const std::string& object_path, std::string_view key,
                      std::string_view) const override {
    return DecodeError(object_path, "is missing the required key " + json::Quoted(key));
  }

 private:
  // What `j` must be instead, or "" when it is what `expected` describes.
  static std::string Need(const Json& j, const Expected& expected) {
    if (json::Fits(j, expected)) return "";
    switch (expected.kind) {
      case Expected::Kind::kBoolean:
        return "true or false";
      case Expected::Kind::kNumber:
        if (!j.is_number()) return "a number";
        return std::isfinite(expected.limit.low) && std::isfinite(expected.limit.high)
                   ? "a number " + json::BoundText(expected.limit)
                   : json::BoundText(expected.limit);
      case Expected::Kind::kInteger:
        return expected.whole_unsigned() ? "an unsigned integer"
                                         : "an integer in " + json::IntegerRange(expected.limit);
      case Expected::Kind::kName:
        return Alternatives(expected.names);
      case Expected::Kind::kArray:
        return expected.size == 0 ? "an array"
                                  : "an array of " + std::to_string(expected.size) + " values";
      default:
        return "a string";
    }
  }

  // "a, b, c or d".
  static std::string Alternatives(const std::vector<std::string_view>& names) {
    std::string text;
    for (size_t i = 0; i < names.size(); ++i) {
      if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
      text += names[i];
    }
    return text;
  }
};

const CatalogWording kCatalogWording{};

constexpr std::array<json::NamedValue<ActorShape>, 4> kShapeTable{{
    {ActorShape::kTree, "tree"},
    {ActorShape::kBush, "bush"},
    {ActorShape::kRock, "rock"},
    {ActorShape::kGrass, "grass"},
}};
constexpr json::Names<ActorShape> kShapes{"shape", kShapeTable};

constexpr std::array<json::NamedValue<CollisionType>, 4> kCollisionTable{{
    {CollisionType::kCylinder, "cylinder"},
    {CollisionType::kCapsule, "capsule"},
    {CollisionType::kSphere, "sphere"},
    {CollisionType::kConvexHull, "convex_hull"},
}};
constexpr json::Names<CollisionType> kCollisionTypes{"collision type", kCollisionTable};

constexpr json::Limit kUnit = json::Between(0.0, 1.0);

// Throws unless `text` at `path` is a non-empty string.
void CheckNonEmpty(const std::string& text, const std::string& path) {
  if (text.empty()) throw DecodeError(path, "= \"\" must be a non-empty string");
}

}  // namespace
}  // namespace asg::catalog

namespace asg::json {

template <>
struct Schema<catalog::TreeDimensions> {
  static constexpr const Wording* kWording = &catalog::kCatalogWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("trunk_radius", m.trunk_radius, kPositive);
    v.Required("trunk_height", m.trunk_height, kPositive);
    v.Required("canopy_radius", m.canopy_radius, kPositive);
    v.Required("canopy_base_height", m.canopy_base_height, kPositive);
    v.Required("canopy_height", m.canopy_height, kPositive);
  }
};

template <>
struct Schema<catalog::BushDimensions> {
  static constexpr const Wording* kWording = &catalog::kCatalogWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("radii", m.radii, kPositive);
  }
};

template <>
struct Schema<catalog::RockDimensions> {
  static constexpr const Wording* kWording = &catalog::kCatalogWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("radius", m.radius, kPositive);
    v.Required("height", m.height, kPositive);
    v.Required("facets", m.facets, Between(3, 64));
    v.Required("seed", m.seed);
  }
};

template <>
struct Schema<catalog::GrassDimensions> {
  static constexpr const Wording* kWording = &catalog::kCatalogWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("radius", m.radius, kPositive);
    v.Required("height", m.height, kPositive);
  }
};

template <>
struct Schema<catalog::Collision> {
  static constexpr const Wording* kWording = &catalog::kCatalogWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("type", m.type, catalog::kCollisionTypes);
    v.Required("radius", m.radius, kPositive);
    v.Required("height", m.height, kPositive);
  }
  static void Check(const catalog::Collision& m, const FieldReader& reader) {
    if (m.type == catalog::CollisionType::kCapsule && m.height < 2.0 * m.radius) {
      throw DecodeError(reader.Child("height"),
                        "= " + FormatNumber(m.height) + " must be >= 2 * radius for a capsule");
    }
  }
};

// Each shape has its block of dimensions (and a tree its trunk colour): the blocks are optional
// fields, and Check requires the shape's own and refuses the others.
template <>
struct Schema<catalog::ActorClass> {
  static constexpr const Wording* kWording = &catalog::kCatalogWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("path_name", m.path_name);
    v.Optional("aliases", m.aliases);
    v.Required("shape", m.shape, catalog::kShapes);
    v.Required("nominal_height", m.nominal_height, kPositive);
    v.Required("upright", m.upright);
    v.Required("always_traversable", m.always_traversable);
    v.Required("color", m.color, catalog::kUnit);
    v.Optional("trunk_color", m.trunk_color, catalog::kUnit);
    v.Optional("tree", m.tree);
    v.Optional("bush", m.bush);
    v.Optional("rock", m.rock);
    v.Optional("grass", m.grass);
    v.Required("collision", m.collision);
  }
  static void Check(const catalog::ActorClass& m, const FieldReader& reader) {
    catalog::CheckNonEmpty(m.path_name, reader.Child("path_name"));
    for (size_t i = 0; i < m.aliases.size(); ++i) {
      catalog::CheckNonEmpty(m.aliases[i], IndexPath(reader.Child("aliases"), i));
    }
    const std::string_view shape = catalog::kShapeTable[static_cast<size_t>(m.shape)].name;
    for (const auto& [value, block] : catalog::kShapeTable) {
      if (value != m.shape && reader.Has(block)) {
        throw DecodeError(reader.Child(block), "is not allowed for shape " + Quoted(shape));
      }
    }
    if (m.shape != catalog::ActorShape::kTree && reader.Has("trunk_color")) {
      throw DecodeError(reader.Child("trunk_color"), "is only allowed for shape \"tree\"");
    }
    if (!reader.Has(shape)) throw reader.wording().Missing(reader.path(), shape, "");
    if (m.shape == catalog::ActorShape::kTree && !reader.Has("trunk_color")) {
      throw reader.wording().Missing(reader.path(), "trunk_color", "");
    }
    if (m.collision.type == catalog::CollisionType::kConvexHull &&
        m.shape != catalog::ActorShape::kRock) {
      throw DecodeError(reader.Child("collision") + ".type",
                        "= \"convex_hull\" needs shape \"rock\"");
    }
  }
};

template <>
struct Schema<catalog::CatalogFile> {
  static constexpr const Wording* kWording = &catalog::kCatalogWording;
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("actors", m.actors);
  }
  static void Check(const catalog::CatalogFile& m, const FieldReader& reader) {
    if (m.actors.empty()) throw DecodeError(reader.Child("actors"), "must be a non-empty array");
  }
};

}  // namespace asg::json

namespace asg::catalog {
namespace {

// "<source>: <path> <problem>", the root's path written "$".
[[noreturn]] void Fail(std::string_view source, const std::string& path,
                       const std::string& problem) {
  throw CatalogError(std::string(source) + ": " + (path.empty() ? "$" : path) + " " + problem);
}

}  // namespace

ASG_DEFINE_JSON(CatalogFile)
ASG_DEFINE_JSON(TreeDimensions)
ASG_DEFINE_JSON(BushDimensions)
ASG_DEFINE_JSON(RockDimensions)
ASG_DEFINE_JSON(GrassDimensions)
ASG_DEFINE_JSON(Collision)
ASG_DEFINE_JSON(ActorClass)

bool IsTraversable(const ActorClass& actor, double scale) {
  return actor.always_traversable || actor.nominal_height * scale <= kTraversableHeight;
}

ActorCatalog ActorCatalog::FromFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw CatalogError(path + ": cannot open the actor catalog file");
  std::stringstream text;
  text << file.rdbuf();
  return FromJsonText(text.str(), path);
}

ActorCatalog ActorCatalog::FromJsonText(std::string_view text, std::string_view source_name) {
  Json document;
  try {
    document = json::ParseJson(text);
  } catch (const DecodeError& error) {
    if (error.path().empty()) Fail(source_name, "", "is not valid JSON");
    throw CatalogError(std::string(source_name) + ": " + error.what());  // a repeated key
  }
  CatalogFile file;
  try {
    Decode(document, "", &file);
  } catch (const DecodeError& error) {
    Fail(source_name, error.path(), error.problem());
  }
  ActorCatalog catalog;
  for (size_t i = 0; i < file.actors.size(); ++i) {
    ActorClass& actor = file.actors[i];
    const int index = static_cast<int>(catalog.classes_.size());
    std::vector<std::string> names = actor.aliases;
    names.push_back(actor.path_name);
    for (const std::string& name : names) {
      if (!catalog.index_by_name_.emplace(name, index).second) {
        Fail(source_name, json::IndexPath("actors", i), "repeats the name \"" + name + "\"");
      }
    }
    catalog.classes_.push_back(std::move(actor));
  }
  return catalog;
}

const ActorClass* ActorCatalog::Find(std::string_view name) const {
  const int index = IndexOf(name);
  return index < 0 ? nullptr : &classes_[index];
}

int ActorCatalog::IndexOf(std::string_view name) const {
  const auto it = index_by_name_.find(name);
  return it == index_by_name_.end() ? -1 : it->second;
}

std::vector<std::string> ActorCatalog::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, index] : index_by_name_) names.push_back(name);
  return names;
}

}  // namespace asg::catalog
