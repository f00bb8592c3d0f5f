// The scene's actor catalog: the classes of the actor catalog (catalog/actor_catalog.h, which
// reads configs/actors.json) with what the scene builds from them, the rocks' polyhedra. Meshes
// for rendering and collision are built from these kinds (actor_meshes.h, collision_meshes.h).
//
// A catalog is loaded once and is immutable afterwards, so it is shared freely (by const&) and
// thread-safe for concurrent reads.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/actor_catalog.h"

namespace asg::scene {

using catalog::ActorShape;
using catalog::CollisionType;
using catalog::IsTraversable;
using catalog::kTraversableHeight;
using catalog::Rgb;

/// A closed triangle mesh in the actor frame at scale 1.
struct Polyhedron {
  std::vector<Eigen::Vector3f> vertices;  ///< [m] actor frame, z up from the ground
  std::vector<uint32_t> indices;          ///< three per triangle, counter-clockwise from outside
};

/// One actor class as the scene uses it.
struct ActorKind : catalog::ActorClass {
  /// kRock: the irregular polyhedron generated at load time from the rock's radius, height,
  /// facets and seed (deterministic). Empty for other shapes.
  Polyhedron polyhedron;
};

/// A bush's semi-axes (x, y, z) [m].
inline Eigen::Vector3d BushRadii(const ActorKind& kind) {
  return Eigen::Vector3d(kind.bush.radii[0], kind.bush.radii[1], kind.bush.radii[2]);
}

/// An immutable set of actor kinds, looked up by path_name or alias.
class ActorCatalog {
 public:
  /// Reads and validates a catalog file. Throws catalog::CatalogError naming the file, the JSON
  /// path and the value, e.g. `configs/actors.json: actors[2].tree.trunk_radius = -1 must be > 0`.
  static ActorCatalog FromFile(const std::string& path);
  /// Parses catalog JSON text; `source_name` (a file name) prefixes error messages.
  static ActorCatalog FromJsonText(std::string_view text, std::string_view source_name);

  /// The kind with this path_name or alias; nullptr when unknown.
  const ActorKind* Find(std::string_view name) const;
  /// All kinds, in file order. Pointers into it stay valid for the catalog's lifetime.
  const std::vector<ActorKind>& kinds() const { return kinds_; }
  /// Every accepted name (path_names and aliases), sorted.
  std::vector<std::string> Names() const { return classes_.Names(); }
  /// The catalog's classes as read (catalog/actor_catalog.h).
  const catalog::ActorCatalog& classes() const { return classes_; }

 private:
  explicit ActorCatalog(catalog::ActorCatalog classes);

  catalog::ActorCatalog classes_;
  std::vector<ActorKind> kinds_;  ///< classes_.classes() with their polyhedra, in order
};

}  // namespace asg::scene
