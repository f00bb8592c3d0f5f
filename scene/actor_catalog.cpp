// Strict loading of the actor catalog JSON and generation of rock polyhedra.
#include "scene/actor_catalog.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/check.h"

namespace asg::scene {
namespace {

using nlohmann::json;

// Error context: the source name and the JSON path of the value being read.
struct Context {
  std::string source;
  std::string path;

  Context Child(std::string_view key) const { return {source, path + "." + std::string(key)}; }
  Context Element(size_t i) const { return {source, path + "[" + std::to_string(i) + "]"}; }
  [[noreturn]] void Fail(const std::string& what) const {
    throw std::runtime_error(source + ": " + path + " " + what);
  }
};

const json& Require(const json& object, std::string_view key, const Context& context) {
  auto it = object.find(key);
  if (it == object.end()) context.Fail("is missing the required key \"" + std::string(key) + "\"");
  return *it;
}

void RequireObject(const json& value, const Context& context, const std::set<std::string>& keys) {
  if (!value.is_object()) context.Fail("= " + value.dump() + " must be an object");
  for (const auto& item : value.items()) {
    if (!keys.contains(item.key())) {
      context.Fail("has the unknown key \"" + item.key() + "\"");
    }
  }
}

double ReadPositive(const json& object, std::string_view key, const Context& parent) {
  const Context context = parent.Child(key);
  const json& value = Require(object, key, parent);
  if (!value.is_number()) context.Fail("= " + value.dump() + " must be a number");
  const double number = value.get<double>();
  if (!std::isfinite(number) || number <= 0.0) context.Fail("= " + value.dump() + " must be > 0");
  return number;
}

bool ReadBool(const json& object, std::string_view key, const Context& parent) {
  const json& value = Require(object, key, parent);
  if (!value.is_boolean()) parent.Child(key).Fail("= " + value.dump() + " must be true or false");
  return value.get<bool>();
}

std::string ReadString(const json& object, std::string_view key, const Context& parent) {
  const json& value = Require(object, key, parent);
  if (!value.is_string() || value.get<std::string>().empty()) {
    parent.Child(key).Fail("= " + value.dump() + " must be a non-empty string");
  }
  return value.get<std::string>();
}

Rgb ReadColor(const json& object, std::string_view key, const Context& parent) {
  const Context context = parent.Child(key);
  const json& value = Require(object, key, parent);
  if (!value.is_array() || value.size() != 3)
    context.Fail("= " + value.dump() + " must be [r, g, b]");
  double rgb[3];
  for (size_t i = 0; i < 3; ++i) {
    if (!value[i].is_number() || value[i].get<double>() < 0.0 || value[i].get<double>() > 1.0) {
      context.Element(i).Fail("= " + value[i].dump() + " must be a number in [0, 1]");
    }
    rgb[i] = value[i].get<double>();
  }
  return {rgb[0], rgb[1], rgb[2]};
}

// Deterministic uniform numbers in [0, 1) from a seed (splitmix64), identical on every platform.
class SplitMix {
 public:
  explicit SplitMix(uint64_t seed) : state_(seed) {}
  double Uniform() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  }

 private:
  uint64_t state_;
};

// A rock: a jittered base ring at z = 0, a smaller jittered shoulder ring at 60 % of the height,
// and an off-centre apex at the full height; closed by a bottom fan around the origin.
Polyhedron MakeRock(double radius, double height, int facets, uint64_t seed) {
  SplitMix random(seed);
  Polyhedron rock;
  const double step = 2.0 * std::numbers::pi / facets;
  for (int ring = 0; ring < 2; ++ring) {
    const double ring_radius = ring == 0 ? radius : 0.7 * radius;
    const double z = ring == 0 ? 0.0 : 0.6 * height;
    for (int k = 0; k < facets; ++k) {
      const double angle = (k + 0.35 * (random.Uniform() - 0.5)) * step;
      const double r = ring_radius * (0.8 + 0.2 * random.Uniform());
      rock.vertices.emplace_back(r * std::cos(angle), r * std::sin(angle), z);
    }
  }
  const uint32_t apex = static_cast<uint32_t>(rock.vertices.size());
  rock.vertices.emplace_back(0.15 * radius * (random.Uniform() - 0.5),
                             0.15 * radius * (random.Uniform() - 0.5), height);
  const uint32_t bottom = apex + 1;
  rock.vertices.emplace_back(0.0f, 0.0f, 0.0f);
  const uint32_t n = static_cast<uint32_t>(facets);
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t next = (k + 1) % n;
    // Side quad between the rings, two triangles, outward-facing counter-clockwise.
    rock.indices.insert(rock.indices.end(), {k, next, n + next, k, n + next, n + k});
    rock.indices.insert(rock.indices.end(), {n + k, n + next, apex});
    rock.indices.insert(rock.indices.end(), {bottom, next, k});
  }
  return rock;
}

ActorShape ParseShape(const std::string& name, const Context& context) {
  if (name == "tree") return ActorShape::kTree;
  if (name == "bush") return ActorShape::kBush;
  if (name == "rock") return ActorShape::kRock;
  if (name == "grass") return ActorShape::kGrass;
  context.Fail("= \"" + name + "\" must be one of tree, bush, rock, grass");
}

void ReadCollision(const json& object, const Context& context, ActorKind* kind) {
  RequireObject(object, context, {"type", "radius", "height"});
  const std::string type = ReadString(object, "type", context);
  if (type == "cylinder") {
    kind->collision = CollisionType::kCylinder;
  } else if (type == "capsule") {
    kind->collision = CollisionType::kCapsule;
  } else if (type == "sphere") {
    kind->collision = CollisionType::kSphere;
  } else if (type == "convex_hull") {
    kind->collision = CollisionType::kConvexHull;
    if (kind->shape != ActorShape::kRock) {
      context.Child("type").Fail("= \"convex_hull\" needs shape \"rock\"");
    }
  } else {
    context.Child("type").Fail("= \"" + type +
                               "\" must be cylinder, capsule, sphere or convex_hull");
  }
  kind->collision_radius = ReadPositive(object, "radius", context);
  kind->collision_height = ReadPositive(object, "height", context);
  if (kind->collision == CollisionType::kCapsule &&
      kind->collision_height < 2.0 * kind->collision_radius) {
    context.Child("height").Fail("= " + std::to_string(kind->collision_height) +
                                 " must be >= 2 * radius for a capsule");
  }
}

void ReadShapeDimensions(const json& entry, const Context& context, ActorKind* kind) {
  switch (kind->shape) {
    case ActorShape::kTree: {
      const Context tree_context = context.Child("tree");
      const json& tree = Require(entry, "tree", context);
      RequireObject(
          tree, tree_context,
          {"trunk_radius", "trunk_height", "canopy_radius", "canopy_base_height", "canopy_height"});
      kind->trunk_radius = ReadPositive(tree, "trunk_radius", tree_context);
      kind->trunk_height = ReadPositive(tree, "trunk_height", tree_context);
      kind->canopy_radius = ReadPositive(tree, "canopy_radius", tree_context);
      kind->canopy_base_height = ReadPositive(tree, "canopy_base_height", tree_context);
      kind->canopy_height = ReadPositive(tree, "canopy_height", tree_context);
      kind->trunk_color = ReadColor(entry, "trunk_color", context);
      break;
    }
    case ActorShape::kBush: {
      const Context bush_context = context.Child("bush");
      const json& bush = Require(entry, "bush", context);
      RequireObject(bush, bush_context, {"radii"});
      const json& radii = Require(bush, "radii", bush_context);
      const Context radii_context = bush_context.Child("radii");
      if (!radii.is_array() || radii.size() != 3) {
        radii_context.Fail("= " + radii.dump() + " must be [rx, ry, rz]");
      }
      for (size_t i = 0; i < 3; ++i) {
        if (!radii[i].is_number() || !(radii[i].get<double>() > 0.0)) {
          radii_context.Element(i).Fail("= " + radii[i].dump() + " must be > 0");
        }
        kind->bush_radii[static_cast<int>(i)] = radii[i].get<double>();
      }
      break;
    }
    case ActorShape::kRock: {
      const Context rock_context = context.Child("rock");
      const json& rock = Require(entry, "rock", context);
      RequireObject(rock, rock_context, {"radius", "height", "facets", "seed"});
      kind->radius = ReadPositive(rock, "radius", rock_context);
      kind->height = ReadPositive(rock, "height", rock_context);
      const json& facets = Require(rock, "facets", rock_context);
      if (!facets.is_number_integer() || facets.get<int>() < 3 || facets.get<int>() > 64) {
        rock_context.Child("facets").Fail("= " + facets.dump() + " must be an integer in 3..64");
      }
      const json& seed = Require(rock, "seed", rock_context);
      if (!seed.is_number_unsigned()) {
        rock_context.Child("seed").Fail("= " + seed.dump() + " must be an unsigned integer");
      }
      kind->polyhedron =
          MakeRock(kind->radius, kind->height, facets.get<int>(), seed.get<uint64_t>());
      break;
    }
    case ActorShape::kGrass: {
      const Context grass_context = context.Child("grass");
      const json& grass = Require(entry, "grass", context);
      RequireObject(grass, grass_context, {"radius", "height"});
      kind->radius = ReadPositive(grass, "radius", grass_context);
      kind->height = ReadPositive(grass, "height", grass_context);
      break;
    }
  }
}

ActorKind ReadKind(const json& entry, const Context& context) {
  RequireObject(entry, context,
                {"path_name", "aliases", "shape", "nominal_height", "upright", "always_traversable",
                 "color", "trunk_color", "tree", "bush", "rock", "grass", "collision"});
  ActorKind kind;
  kind.path_name = ReadString(entry, "path_name", context);
  if (auto aliases = entry.find("aliases"); aliases != entry.end()) {
    const Context aliases_context = context.Child("aliases");
    if (!aliases->is_array()) aliases_context.Fail("= " + aliases->dump() + " must be an array");
    for (size_t i = 0; i < aliases->size(); ++i) {
      if (!(*aliases)[i].is_string() || (*aliases)[i].get<std::string>().empty()) {
        aliases_context.Element(i).Fail("= " + (*aliases)[i].dump() +
                                        " must be a non-empty string");
      }
      kind.aliases.push_back((*aliases)[i].get<std::string>());
    }
  }
  kind.shape = ParseShape(ReadString(entry, "shape", context), context.Child("shape"));
  kind.nominal_height = ReadPositive(entry, "nominal_height", context);
  kind.upright = ReadBool(entry, "upright", context);
  kind.always_traversable = ReadBool(entry, "always_traversable", context);
  kind.color = ReadColor(entry, "color", context);
  // Only the block of the kind's own shape (and trunk_color for trees) may be present.
  const char* blocks[] = {"tree", "bush", "rock", "grass"};
  for (int i = 0; i < 4; ++i) {
    if (i != static_cast<int>(kind.shape) && entry.contains(blocks[i])) {
      context.Child(blocks[i]).Fail("is not allowed for shape \"" +
                                    entry["shape"].get<std::string>() + "\"");
    }
  }
  if (kind.shape != ActorShape::kTree && entry.contains("trunk_color")) {
    context.Child("trunk_color").Fail("is only allowed for shape \"tree\"");
  }
  ReadShapeDimensions(entry, context, &kind);
  ReadCollision(Require(entry, "collision", context), context.Child("collision"), &kind);
  return kind;
}

}  // namespace

bool IsTraversable(const ActorKind& kind, double scale) {
  return kind.always_traversable || kind.nominal_height * scale <= kTraversableHeight;
}

ActorCatalog ActorCatalog::FromFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(path + ": cannot open the actor catalog file");
  std::stringstream text;
  text << file.rdbuf();
  return FromJsonText(text.str(), path);
}

ActorCatalog ActorCatalog::FromJsonText(std::string_view text, std::string_view source_name) {
  const Context root{std::string(source_name), "$"};
  const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) root.Fail("is not valid JSON");
  RequireObject(document, root, {"actors"});
  const json& actors = Require(document, "actors", root);
  const Context actors_context{root.source, "actors"};
  if (!actors.is_array() || actors.empty()) actors_context.Fail("must be a non-empty array");

  ActorCatalog catalog;
  for (size_t i = 0; i < actors.size(); ++i) {
    const Context context = actors_context.Element(i);
    ActorKind kind = ReadKind(actors[i], context);
    const int index = static_cast<int>(catalog.kinds_.size());
    std::vector<std::string> names = kind.aliases;
    names.push_back(kind.path_name);
    for (const std::string& name : names) {
      if (!catalog.index_by_name_.emplace(name, index).second) {
        context.Fail("repeats the name \"" + name + "\"");
      }
    }
    catalog.kinds_.push_back(std::move(kind));
  }
  return catalog;
}

const ActorKind* ActorCatalog::Find(std::string_view name) const {
  auto it = index_by_name_.find(name);
  return it == index_by_name_.end() ? nullptr : &kinds_[it->second];
}

std::vector<std::string> ActorCatalog::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, index] : index_by_name_) names.push_back(name);
  return names;
}

std::string DefaultActorCatalogPath() {
  return std::string(ASG_SCENE_SOURCE_DIR) + "/configs/actors.json";
}

}  // namespace asg::scene
