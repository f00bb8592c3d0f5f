// The actor catalog (configs/actors.json): what each structural scene actor (SSA) class is, its
// names, sizes, colours, collision shape and traversability, read strictly. The scene builds its
// meshes from it (scene/actor_catalog.h); the client checks a batch's class names against it.
//
// A catalog is loaded once and immutable afterwards, so it is shared freely (by const&) and
// thread-safe for concurrent reads. Actor frames: origin on the ground at the actor's (x, y), z
// up, dimensions in metres at scale 1; an instance multiplies every length by its scale.
//
// Classes shipped in configs/actors.json (path_name, then aliases):
//   /Game/Blueprints/BP_SSA_Tree_Juniper_Rocky_Mountain_Field_Desktop  "tree", "juniper"  4.5 m
//   /Game/Blueprints/BP_SSA_Bush_Barberry_Field_Desktop                "bush", "barberry" 0.9 m
//   /Game/Blueprints/BP_SSA_Rock_Sandstone_Field_Desktop               "rock", "sandstone" 0.6 m
//   /Game/Blueprints/BP_SSA_Grass_Tuft_Field_Desktop                   "grass" 0.35 m, always
//                                                                      traversable
//
// JSON format (every key required unless marked optional; unknown keys are errors):
//   {"actors": [{
//     "path_name": "/Game/...", "aliases": ["tree"],          (aliases optional)
//     "shape": "tree" | "bush" | "rock" | "grass",
//     "nominal_height": 4.5,                                   [m] at scale 1, > 0
//     "upright": true,                                         false: tilt to the ground normal
//     "always_traversable": false,
//     "color": [r, g, b],                                      canopy / foliage / rock / grass
//     "trunk_color": [r, g, b],                                tree only
//     "tree": {"trunk_radius", "trunk_height", "canopy_radius", "canopy_base_height",
//              "canopy_height"},                               shape "tree" only, [m]
//     "bush": {"radii": [rx, ry, rz]},                         shape "bush" only, [m]
//     "rock": {"radius", "height", "facets", "seed"},          shape "rock" only
//     "grass": {"radius", "height"},                           shape "grass" only, [m]
//     "collision": {"type": "cylinder" | "capsule" | "sphere" | "convex_hull",
//                   "radius", "height"}                        [m]; convex_hull uses the rock's
//                                                              polyhedron and ignores both
//   }]}
// Errors name the file, the JSON path and the value:
//   configs/actors.json: actors[2].tree.trunk_radius = -1 must be > 0
//   configs/actors.json: actors[0] has the unknown key "uprite"
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "json/declare.h"

namespace asg::catalog {

/// What an actor class looks like when rendered.
enum class ActorShape : uint8_t {
  kTree,   ///< trunk cylinder + canopy cone
  kBush,   ///< ellipsoid resting on the ground
  kRock,   ///< irregular low convex polyhedron
  kGrass,  ///< small cone-shaped tuft
};

/// The collision shape of a non-traversable instance, standing on the ground of its actor frame.
enum class CollisionType : uint8_t {
  kCylinder,    ///< radius, from z = 0 to z = height
  kCapsule,     ///< radius, total extent from z = 0 to z = height (height >= 2 radius)
  kSphere,      ///< radius, centred at z = radius (height unused)
  kConvexHull,  ///< the convex hull of the rock's polyhedron
};

/// A colour: red, green, blue, each in [0, 1].
using Rgb = std::array<double, 3>;

/// A tree: trunk cylinder from the ground to trunk_height; canopy cone whose base circle of
/// canopy_radius is canopy_base_height above the ground and whose apex is canopy_height higher.
struct TreeDimensions {
  double trunk_radius = 0.0;        ///< [m]
  double trunk_height = 0.0;        ///< [m]
  double canopy_radius = 0.0;       ///< [m]
  double canopy_base_height = 0.0;  ///< [m]
  double canopy_height = 0.0;       ///< [m]
};
ASG_DECLARE_JSON(TreeDimensions);

/// A bush: an ellipsoid with these semi-axes (x, y, z), centred radii[2] above the ground.
struct BushDimensions {
  std::array<double, 3> radii{};  ///< [m]
};
ASG_DECLARE_JSON(BushDimensions);

/// A rock: an irregular polyhedron generated from these (deterministic for a seed).
struct RockDimensions {
  double radius = 0.0;  ///< [m] footprint
  double height = 0.0;  ///< [m]
  uint32_t facets = 0;  ///< sides of the base ring, 3..64
  uint64_t seed = 0;    ///< of the vertices' jitter
};
ASG_DECLARE_JSON(RockDimensions);

/// A grass tuft: a cone.
struct GrassDimensions {
  double radius = 0.0;  ///< [m] footprint
  double height = 0.0;  ///< [m]
};
ASG_DECLARE_JSON(GrassDimensions);

/// The collision shape at scale 1.
struct Collision {
  CollisionType type = CollisionType::kCylinder;
  double radius = 0.0;  ///< [m]
  double height = 0.0;  ///< [m]
};
ASG_DECLARE_JSON(Collision);

/// One actor class. The dimensions of shapes other than `shape` are zero.
struct ActorClass {
  std::string path_name;             ///< canonical class name, e.g. "/Game/Blueprints/BP_SSA_..."
  std::vector<std::string> aliases;  ///< short names that resolve to this class, e.g. "tree"
  ActorShape shape = ActorShape::kTree;
  double nominal_height = 1.0;      ///< [m] height at scale 1; decides traversability
  bool upright = true;              ///< true: only yawed; false: tilted to the ground normal too
  bool always_traversable = false;  ///< traversable (no collision) at any scale
  Rgb color{};                      ///< canopy (tree), foliage (bush), stone (rock) or blades
  Rgb trunk_color{};                ///< tree trunk
  TreeDimensions tree;              ///< kTree
  BushDimensions bush;              ///< kBush
  RockDimensions rock;              ///< kRock
  GrassDimensions grass;            ///< kGrass
  Collision collision;
};
ASG_DECLARE_JSON(ActorClass);

/// Below or at this instance height [m] an actor is traversable (AutoSceneGen's rule).
inline constexpr double kTraversableHeight = 0.20;

/// True when an instance of `actor` at `scale` has no collision: always_traversable, or
/// nominal_height * scale <= kTraversableHeight.
bool IsTraversable(const ActorClass& actor, double scale);

/// A catalog file that cannot be read or does not hold a valid catalog.
class CatalogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An immutable set of actor classes, looked up by path_name or alias.
class ActorCatalog {
 public:
  /// Reads and validates a catalog file. Throws CatalogError naming the file, the JSON path and
  /// the value (see the file comment).
  static ActorCatalog FromFile(const std::string& path);
  /// Parses catalog JSON text; `source_name` (a file name) prefixes error messages.
  static ActorCatalog FromJsonText(std::string_view text, std::string_view source_name);

  /// The class with this path_name or alias; nullptr when unknown.
  const ActorClass* Find(std::string_view name) const;
  /// The index into classes() of the class with this path_name or alias; -1 when unknown.
  int IndexOf(std::string_view name) const;
  /// All classes, in file order. Pointers into it stay valid for the catalog's lifetime.
  const std::vector<ActorClass>& classes() const { return classes_; }
  /// Every accepted name (path_names and aliases), sorted.
  std::vector<std::string> Names() const;

 private:
  std::vector<ActorClass> classes_;
  std::map<std::string, int, std::less<>> index_by_name_;
};

}  // namespace asg::catalog
