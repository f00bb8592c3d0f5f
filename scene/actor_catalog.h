// The actor catalog: what each structural scene actor (SSA) class looks like and how it collides.
//
// A catalog is loaded once from JSON (configs/actors.json) and is immutable afterwards, so it is
// shared freely (by const&) and thread-safe for concurrent reads. Actor frames: origin on the
// ground at the actor's (x, y), z up, dimensions in metres at scale 1; an instance multiplies
// every length by its scale.
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
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace asg::scene {

/// What an actor class looks like when rendered.
enum class ActorShape : uint8_t {
  kTree,   ///< trunk cylinder + canopy cone
  kBush,   ///< ellipsoid resting on the ground
  kRock,   ///< irregular low convex polyhedron (ActorKind::polyhedron)
  kGrass,  ///< small cone-shaped tuft
};

/// The collision shape of a non-traversable instance, standing on the ground of its actor frame.
enum class CollisionType : uint8_t {
  kCylinder,    ///< radius, from z = 0 to z = height
  kCapsule,     ///< radius, total extent from z = 0 to z = height (height >= 2 radius)
  kSphere,      ///< radius, centred at z = radius (height unused)
  kConvexHull,  ///< the convex hull of ActorKind::polyhedron's vertices
};

/// A colour, components in [0, 1].
struct Rgb {
  double r = 0.0;  ///< [0, 1] red
  double g = 0.0;  ///< [0, 1] green
  double b = 0.0;  ///< [0, 1] blue
};

/// A closed triangle mesh in the actor frame at scale 1.
struct Polyhedron {
  std::vector<Eigen::Vector3f> vertices;  ///< [m] actor frame, z up from the ground
  std::vector<uint32_t> indices;          ///< three per triangle, counter-clockwise from outside
};

/// One actor class. Fields of shapes other than `shape` are zero.
struct ActorKind {
  std::string path_name;             ///< canonical class name, e.g. "/Game/Blueprints/BP_SSA_..."
  std::vector<std::string> aliases;  ///< short names that resolve to this class, e.g. "tree"
  ActorShape shape = ActorShape::kTree;
  double nominal_height = 1.0;      ///< [m] height at scale 1; decides traversability
  bool upright = true;              ///< true: only yawed; false: tilted to the ground normal too
  bool always_traversable = false;  ///< traversable (no collision) at any scale

  Rgb color;        ///< canopy (tree), foliage (bush), stone (rock) or blades (grass)
  Rgb trunk_color;  ///< tree trunk

  // kTree: trunk cylinder from the ground to trunk_height; canopy cone whose base circle of
  // canopy_radius is canopy_base_height above the ground and whose apex is canopy_height higher.
  double trunk_radius = 0.0;        ///< [m]
  double trunk_height = 0.0;        ///< [m]
  double canopy_radius = 0.0;       ///< [m]
  double canopy_base_height = 0.0;  ///< [m]
  double canopy_height = 0.0;       ///< [m]

  // kBush: ellipsoid with these semi-axes (x, y, z), centred bush_radii.z() above the ground.
  Eigen::Vector3d bush_radii = Eigen::Vector3d::Zero();  ///< [m]

  // kRock and kGrass: footprint radius and height.
  double radius = 0.0;  ///< [m]
  double height = 0.0;  ///< [m]

  /// kRock: the irregular polyhedron (generated at load time from radius, height, facets and
  /// seed; deterministic). Empty for other shapes.
  Polyhedron polyhedron;

  CollisionType collision = CollisionType::kCylinder;
  double collision_radius = 0.0;  ///< [m] at scale 1
  double collision_height = 0.0;  ///< [m] at scale 1
};

/// Below or at this instance height [m] an actor is traversable (AutoSceneGen's rule).
inline constexpr double kTraversableHeight = 0.20;

/// True when an instance of `kind` at `scale` has no collision: always_traversable, or
/// nominal_height * scale <= kTraversableHeight.
bool IsTraversable(const ActorKind& kind, double scale);

/// An immutable set of actor classes, looked up by path_name or alias.
class ActorCatalog {
 public:
  /// Reads and validates a catalog file. Throws std::runtime_error naming the file, the JSON path
  /// and the value, e.g. `configs/actors.json: actors[2].tree.trunk_radius = -1 must be > 0`.
  static ActorCatalog FromFile(const std::string& path);
  /// Parses catalog JSON text; `source_name` (a file name) prefixes error messages.
  static ActorCatalog FromJsonText(std::string_view text, std::string_view source_name);

  /// The class with this path_name or alias; nullptr when unknown.
  const ActorKind* Find(std::string_view name) const;
  /// All classes, in file order. Pointers into it stay valid for the catalog's lifetime.
  const std::vector<ActorKind>& kinds() const { return kinds_; }
  /// Every accepted name (path_names and aliases), sorted.
  std::vector<std::string> Names() const;

 private:
  std::vector<ActorKind> kinds_;
  std::map<std::string, int, std::less<>> index_by_name_;
};

/// [path] configs/actors.json of this source tree (compiled in); for tests and benchmarks.
std::string DefaultActorCatalogPath();

}  // namespace asg::scene
