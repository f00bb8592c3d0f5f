// The scene's kinds from the catalog's classes, and the generation of rock polyhedra.
#include "scene/actor_catalog.h"

#include <cmath>
#include <numbers>

namespace asg::scene {
namespace {

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

}  // namespace

ActorCatalog::ActorCatalog(catalog::ActorCatalog classes) : classes_(std::move(classes)) {
  for (const catalog::ActorClass& actor : classes_.classes()) {
    ActorKind kind;
    static_cast<catalog::ActorClass&>(kind) = actor;
    if (actor.shape == ActorShape::kRock) {
      kind.polyhedron = MakeRock(actor.rock.radius, actor.rock.height,
                                 static_cast<int>(actor.rock.facets), actor.rock.seed);
    }
    kinds_.push_back(std::move(kind));
  }
}

ActorCatalog ActorCatalog::FromFile(const std::string& path) {
  return ActorCatalog(catalog::ActorCatalog::FromFile(path));
}

ActorCatalog ActorCatalog::FromJsonText(std::string_view text, std::string_view source_name) {
  return ActorCatalog(catalog::ActorCatalog::FromJsonText(text, source_name));
}

const ActorKind* ActorCatalog::Find(std::string_view name) const {
  const int index = classes_.IndexOf(name);
  return index < 0 ? nullptr : &kinds_[index];
}

}  // namespace asg::scene
