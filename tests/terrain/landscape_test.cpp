// Tests for terrain/landscape.h.
#include "terrain/landscape.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <functional>
#include <numbers>
#include <stdexcept>
#include <string>

namespace asg::terrain {
namespace {

using protocol::LandscapeDescription;
using protocol::ReliefFeature;

constexpr double kHeightTolerance = 1e-5;  // [m] float storage of the vertex heights

LandscapeDescription Describe(double size, int subdivisions, double border) {
  LandscapeDescription description;
  description.nominal_size = size;
  description.subdivisions = subdivisions;
  description.border = border;
  return description;
}

ReliefFeature Hill(double x, double y, double radius, double height) {
  ReliefFeature hill;
  hill.type = ReliefFeature::Type::kHill;
  hill.x = x;
  hill.y = y;
  hill.radius = radius;
  hill.height = height;
  return hill;
}

ReliefFeature Ramp(double x0, double y0, double x1, double y1, double width, double height) {
  ReliefFeature ramp;
  ramp.type = ReliefFeature::Type::kRamp;
  ramp.x0 = x0;
  ramp.y0 = y0;
  ramp.x1 = x1;
  ramp.y1 = y1;
  ramp.width = width;
  ramp.height = height;
  return ramp;
}

ReliefFeature Noise(double amplitude, double wavelength, int octaves, uint32_t seed) {
  ReliefFeature noise;
  noise.type = ReliefFeature::Type::kNoise;
  noise.amplitude = amplitude;
  noise.wavelength = wavelength;
  noise.octaves = octaves;
  noise.seed = seed;
  return noise;
}

struct GridCase {
  double size;
  int subdivisions;
  double border;
  double spacing;
  int border_vertices;
  int vertices_per_side;
};

TEST(LandscapeTest, GridSizesFollowTheReferenceFormula) {
  const GridCase cases[] = {
      {60.0, 6, 0.0, 0.9375, 0, 65},    // no border
      {60.0, 6, 6.0, 0.9375, 7, 79},    // 6.4 spacings round up to 7
      {64.0, 6, 4.0, 1.0, 4, 73},       // exact multiple
      {44.8, 6, 2.1, 0.7, 3, 71},       // 2.1 / 0.7 = 3.0000000000000004 in doubles
      {44.8, 6, 7.7, 0.7, 11, 87},      // 7.7 / 0.7 = 11.000000000000002 in doubles
      {60.0, 0, 0.0, 60.0, 0, 2},       // a single cell
      {60.0, 0, 1.0, 60.0, 1, 4},       // any positive border adds a vertex
      {100.0, 3, 25.0, 12.5, 2, 13},    // exact multiple, larger than one spacing
      {100.0, 3, 25.001, 12.5, 3, 15},  // just above a multiple
  };
  for (const GridCase& c : cases) {
    SCOPED_TRACE("size " + std::to_string(c.size) + " subdivisions " +
                 std::to_string(c.subdivisions) + " border " + std::to_string(c.border));
    const Landscape landscape(Describe(c.size, c.subdivisions, c.border));
    EXPECT_DOUBLE_EQ(landscape.spacing(), c.spacing);
    EXPECT_EQ(landscape.border_vertices(), c.border_vertices);
    EXPECT_EQ(landscape.vertices_per_side(), c.vertices_per_side);
    EXPECT_EQ(landscape.heights().size(),
              static_cast<size_t>(c.vertices_per_side) * c.vertices_per_side);
    EXPECT_NEAR(landscape.min_xy(), -c.border_vertices * c.spacing, 1e-9);
    EXPECT_NEAR(landscape.max_xy(), c.size + c.border_vertices * c.spacing, 1e-9);
  }
}

TEST(LandscapeTest, ContainsCoversTheBorderAndNothingBeyond) {
  const Landscape landscape(Describe(64.0, 6, 4.0));  // grid [-4, 68]
  EXPECT_TRUE(landscape.Contains(0.0, 0.0));
  EXPECT_TRUE(landscape.Contains(-4.0, 68.0));
  EXPECT_TRUE(landscape.Contains(-3.5, 30.0));
  EXPECT_FALSE(landscape.Contains(-4.01, 30.0));
  EXPECT_FALSE(landscape.Contains(30.0, 68.01));
}

TEST(LandscapeTest, FlatTerrainIsAtZeroWithUpwardNormal) {
  const Landscape landscape(Describe(60.0, 6, 5.0));
  EXPECT_EQ(landscape.min_height(), 0.0);
  EXPECT_EQ(landscape.max_height(), 0.0);
  for (const double p : {-5.0, 0.0, 13.7, 59.99, 64.0}) {
    EXPECT_EQ(landscape.HeightAt(p, 60.0 - p), 0.0);
    EXPECT_TRUE(landscape.NormalAt(p, p).isApprox(Eigen::Vector3d::UnitZ()));
    EXPECT_EQ(landscape.SlopeAt(p, 1.0), 0.0);
  }
}

TEST(LandscapeTest, HillHeightsAtCentreHalfRadiusAndBeyond) {
  LandscapeDescription description = Describe(64.0, 6, 0.0);  // spacing 1 m
  description.relief = {Hill(32.0, 32.0, 10.0, 3.0)};
  const Landscape landscape(description);
  EXPECT_NEAR(landscape.VertexHeight(32, 32), 3.0, kHeightTolerance);
  EXPECT_NEAR(landscape.HeightAt(32.0, 32.0), 3.0, kHeightTolerance);
  EXPECT_NEAR(landscape.HeightAt(37.0, 32.0), 1.5, kHeightTolerance);
  EXPECT_NEAR(landscape.HeightAt(32.0, 27.0), 1.5, kHeightTolerance);
  EXPECT_EQ(landscape.HeightAt(42.0, 32.0), 0.0);
  EXPECT_EQ(landscape.HeightAt(32.0, 44.5), 0.0);
  EXPECT_NEAR(landscape.max_height(), 3.0, kHeightTolerance);
  EXPECT_EQ(landscape.min_height(), 0.0);
}

TEST(LandscapeTest, NegativeHillDigsAPit) {
  LandscapeDescription description = Describe(64.0, 6, 0.0);
  description.relief = {Hill(20.0, 40.0, 8.0, -2.0)};
  const Landscape landscape(description);
  EXPECT_NEAR(landscape.HeightAt(20.0, 40.0), -2.0, kHeightTolerance);
  EXPECT_NEAR(landscape.HeightAt(24.0, 40.0), -1.0, kHeightTolerance);
  EXPECT_NEAR(landscape.min_height(), -2.0, kHeightTolerance);
  EXPECT_EQ(landscape.max_height(), 0.0);
}

// A ramp along +x from (10, 32) to (50, 32), 20 m wide, 4 m high, on a 1 m grid.
Landscape MakeRampLandscape() {
  LandscapeDescription description = Describe(64.0, 6, 0.0);
  description.relief = {Ramp(10.0, 32.0, 50.0, 32.0, 20.0, 4.0)};
  return Landscape(description);
}

TEST(LandscapeTest, RampRisesFromFootToTopThenDrops) {
  const Landscape landscape = MakeRampLandscape();
  EXPECT_EQ(landscape.HeightAt(10.0, 32.0), 0.0);
  EXPECT_EQ(landscape.HeightAt(5.0, 32.0), 0.0);
  EXPECT_NEAR(landscape.HeightAt(30.0, 32.0), 2.0, kHeightTolerance);
  EXPECT_NEAR(landscape.HeightAt(50.0, 32.0), 4.0, kHeightTolerance);
  EXPECT_EQ(landscape.HeightAt(51.0, 32.0), 0.0);
  // Inside the band the height does not depend on the distance across it.
  EXPECT_NEAR(landscape.HeightAt(30.0, 42.0), 2.0, kHeightTolerance);
  // Half-way through the 2 m side falloff (d = width / 2 + 1) the height is halved.
  EXPECT_NEAR(landscape.HeightAt(30.0, 43.0), 1.0, kHeightTolerance);
  EXPECT_NEAR(landscape.HeightAt(30.0, 21.0), 1.0, kHeightTolerance);
  EXPECT_EQ(landscape.HeightAt(30.0, 44.0), 0.0);
}

TEST(LandscapeTest, RampNormalAndSlopeMatchItsGradient) {
  const Landscape landscape = MakeRampLandscape();
  const double gradient = 4.0 / 40.0;
  const Eigen::Vector3d expected = Eigen::Vector3d(-gradient, 0.0, 1.0).normalized();
  for (const auto& [x, y] : {std::pair{30.3, 32.2}, std::pair{30.2, 32.3}, std::pair{15.5, 25.0}}) {
    EXPECT_TRUE(landscape.NormalAt(x, y).isApprox(expected, 1e-5)) << x << ", " << y;
    EXPECT_NEAR(landscape.SlopeAt(x, y), std::atan(gradient) * 180.0 / std::numbers::pi, 1e-4);
  }
  EXPECT_NEAR(landscape.NormalAt(30.3, 32.2).norm(), 1.0, 1e-12);
}

TEST(LandscapeTest, NoiseIsDeterministicPerSeedAndBounded) {
  LandscapeDescription description = Describe(60.0, 6, 3.0);
  description.relief = {Noise(1.5, 12.0, 4, 42)};
  const Landscape first(description);
  const Landscape again(description);
  EXPECT_EQ(first.heights(), again.heights());
  description.relief[0].seed = 43;
  const Landscape other(description);
  EXPECT_NE(first.heights(), other.heights());
  const double bound = 1.5 * (1.0 + 0.5 + 0.25 + 0.125);
  EXPECT_LE(first.max_height(), bound);
  EXPECT_GE(first.min_height(), -bound);
  EXPECT_GT(first.max_height() - first.min_height(), 0.5);  // the noise does vary
}

// One raised vertex off the cell's diagonal tells which diagonal splits the cell.
TEST(LandscapeTest, HeightAtInterpolatesOnTheTriangleUnderThePoint) {
  LandscapeDescription description = Describe(4.0, 2, 0.0);  // spacing 1 m, vertices 0..4
  description.relief = {Hill(2.0, 1.0, 0.5, 1.0)};           // raises vertex (2, 1) only
  const Landscape landscape(description);
  EXPECT_NEAR(landscape.VertexHeight(2, 1), 1.0, kHeightTolerance);
  EXPECT_EQ(landscape.VertexHeight(1, 1), 0.0);
  EXPECT_EQ(landscape.VertexHeight(2, 2), 0.0);
  // Cell (1, 1): the lower triangle (1,1)-(2,1)-(2,2) holds the raised vertex; the upper one
  // (1,1)-(2,2)-(1,2) does not. Bilinear interpolation would give 0.25 at the cell centre.
  EXPECT_NEAR(landscape.HeightAt(1.75, 1.25), 0.5, kHeightTolerance);
  EXPECT_NEAR(landscape.HeightAt(1.9, 1.1), 0.8, kHeightTolerance);
  EXPECT_EQ(landscape.HeightAt(1.25, 1.75), 0.0);
  EXPECT_NEAR(landscape.HeightAt(1.5, 1.5), 0.0, kHeightTolerance);
  EXPECT_TRUE(
      landscape.NormalAt(1.75, 1.25).isApprox(Eigen::Vector3d(-1, 1, 1).normalized(), 1e-6));
  EXPECT_TRUE(landscape.NormalAt(1.25, 1.75).isApprox(Eigen::Vector3d::UnitZ()));
  EXPECT_NEAR(landscape.SlopeAt(1.75, 1.25), std::atan(std::sqrt(2.0)) * 180.0 / std::numbers::pi,
              1e-4);
  // Cell (2, 0): the upper triangle (2,0)-(3,1)-(2,1) holds the raised vertex; the lower not.
  EXPECT_NEAR(landscape.HeightAt(2.25, 0.75), 0.5, kHeightTolerance);
  EXPECT_EQ(landscape.HeightAt(2.75, 0.25), 0.0);
}

TEST(LandscapeTest, QueriesOffTheGridAreClampedToItsEdge) {
  LandscapeDescription description = Describe(64.0, 6, 0.0);
  description.relief = {Ramp(-10.0, 32.0, 70.0, 32.0, 200.0, 8.0)};
  const Landscape landscape(description);
  EXPECT_FALSE(landscape.Contains(80.0, 32.0));
  EXPECT_DOUBLE_EQ(landscape.HeightAt(80.0, 32.0), landscape.HeightAt(64.0, 32.0));
  EXPECT_DOUBLE_EQ(landscape.HeightAt(-30.0, -30.0), landscape.HeightAt(0.0, 0.0));
  EXPECT_TRUE(landscape.NormalAt(1e6, 20.0).isApprox(landscape.NormalAt(63.9, 20.0)));
  EXPECT_GT(landscape.HeightAt(80.0, 32.0), 0.0);
}

TEST(LandscapeTest, NonFiniteQueryThrows) {
  const Landscape landscape(Describe(60.0, 4, 0.0));
  EXPECT_THROW(landscape.HeightAt(std::nan(""), 1.0), std::invalid_argument);
  EXPECT_THROW(landscape.NormalAt(1.0, INFINITY), std::invalid_argument);
}

TEST(LandscapeTest, MeshHasUpwardCounterClockwiseTriangles) {
  LandscapeDescription description = Describe(60.0, 5, 4.0);
  description.relief = {Hill(20.0, 20.0, 12.0, 5.0), Ramp(30.0, 10.0, 30.0, 50.0, 8.0, 3.0),
                        Noise(0.5, 8.0, 3, 7)};
  const Landscape landscape(description);
  const LandscapeMesh mesh = landscape.BuildMesh();
  const size_t n = landscape.vertices_per_side();
  ASSERT_EQ(mesh.positions.size(), n * n);
  ASSERT_EQ(mesh.normals.size(), n * n);
  ASSERT_EQ(mesh.indices.size(), 6 * (n - 1) * (n - 1));
  for (size_t t = 0; t < mesh.indices.size(); t += 3) {
    const Eigen::Vector3f& a = mesh.positions[mesh.indices[t]];
    const Eigen::Vector3f face =
        (mesh.positions[mesh.indices[t + 1]] - a).cross(mesh.positions[mesh.indices[t + 2]] - a);
    ASSERT_GT(face.z(), 0.0f) << "triangle " << t / 3;
  }
  for (size_t k = 0; k < n * n; ++k) {
    ASSERT_NEAR(mesh.normals[k].norm(), 1.0f, 1e-5f);
    ASSERT_GT(mesh.normals[k].z(), 0.0f);
  }
  // Vertex (i, j) sits at j * n + i with its grid height.
  const int i = 9;
  const int j = 17;
  const Eigen::Vector3f& p = mesh.positions[j * n + i];
  EXPECT_NEAR(p.x(), landscape.min_xy() + i * landscape.spacing(), 1e-5);
  EXPECT_NEAR(p.y(), landscape.min_xy() + j * landscape.spacing(), 1e-5);
  EXPECT_EQ(p.z(), landscape.VertexHeight(i, j));
}

TEST(LandscapeTest, MeshVertexNormalsAreAreaWeighted) {
  LandscapeDescription description = Describe(4.0, 2, 0.0);
  description.relief = {Hill(2.0, 1.0, 0.5, 1.0)};  // raises vertex (2, 1) by 1 m
  const LandscapeMesh mesh = Landscape(description).BuildMesh();
  // Around vertex (1, 1) two triangles are tilted, with cross products (-1, 1, 1) and (-1, 0, 1),
  // and four are flat with (0, 0, 1): the area-weighted sum is (-2, 1, 6).
  const Eigen::Vector3f expected = Eigen::Vector3f(-2.0f, 1.0f, 6.0f).normalized();
  EXPECT_TRUE(mesh.normals[1 * 5 + 1].isApprox(expected, 1e-5f)) << mesh.normals[6].transpose();
  // The raised vertex's fan is point-symmetric, so its normal is vertical.
  EXPECT_TRUE(mesh.normals[1 * 5 + 2].isApprox(Eigen::Vector3f::UnitZ(), 1e-5f));
}

TEST(LandscapeTest, InvalidDescriptionsThrowNamingTheField) {
  struct InvalidCase {
    std::function<void(LandscapeDescription&)> mutate;
    std::string message;
  };
  const InvalidCase cases[] = {
      {[](auto& d) { d.subdivisions = 11; }, "landscape.subdivisions: 11 is outside 0..10"},
      {[](auto& d) { d.subdivisions = -1; }, "landscape.subdivisions: -1 is outside 0..10"},
      {[](auto& d) { d.nominal_size = 0.0; }, "landscape.nominal_size: 0 must be > 0"},
      {[](auto& d) { d.nominal_size = -60.0; }, "landscape.nominal_size: -60 must be > 0"},
      {[](auto& d) { d.border = -1.5; }, "landscape.border: -1.5 must be >= 0"},
      {[](auto& d) { d.border = 1e6; }, "landscape.border: 1000000 needs"},
      {[](auto& d) { d.relief[2].radius = -1.0; }, "landscape.relief[2].radius: -1 must be > 0"},
      {[](auto& d) { d.relief[0].radius = 0.0; }, "landscape.relief[0].radius: 0 must be > 0"},
      {[](auto& d) { d.relief[0].x = std::nan(""); }, "landscape.relief[0].x: nan must be finite"},
      {[](auto& d) { d.relief[1].width = 0.0; }, "landscape.relief[1].width: 0 must be > 0"},
      {[](auto& d) { d.relief[1].x1 = 10.0; }, "landscape.relief[1]: ramp foot (x0, y0) and top"},
      {[](auto& d) { d.relief[3].wavelength = -2.0; },
       "landscape.relief[3].wavelength: -2 must be > 0"},
      {[](auto& d) { d.relief[3].octaves = 13; },
       "landscape.relief[3].octaves: 13 is outside 1..12"},
      {[](auto& d) { d.relief[3].octaves = 0; }, "landscape.relief[3].octaves: 0 is outside 1..12"},
  };
  for (const InvalidCase& c : cases) {
    LandscapeDescription description = Describe(60.0, 6, 2.0);
    description.relief = {Hill(10.0, 10.0, 5.0, 1.0), Ramp(10.0, 20.0, 30.0, 20.0, 6.0, 2.0),
                          Hill(40.0, 40.0, 5.0, -1.0), Noise(0.3, 10.0, 3, 1)};
    ASSERT_NO_THROW(Landscape{description});
    c.mutate(description);
    try {
      const Landscape landscape(description);
      ADD_FAILURE() << "no exception, expected: " << c.message;
    } catch (const std::invalid_argument& error) {
      EXPECT_EQ(std::string(error.what()).rfind(c.message, 0), 0u)
          << "got: " << error.what() << "\nexpected prefix: " << c.message;
    }
  }
}

TEST(LandscapeTest, TenSubdivisionsBuildAMillionVertexGrid) {
  LandscapeDescription description = Describe(100.0, 10, 1.0);
  description.relief = {Hill(50.0, 50.0, 20.0, 4.0), Ramp(10.0, 80.0, 60.0, 80.0, 10.0, 3.0),
                        Noise(0.4, 15.0, 5, 9)};
  const Landscape landscape(description);
  EXPECT_DOUBLE_EQ(landscape.spacing(), 100.0 / 1024.0);
  EXPECT_EQ(landscape.border_vertices(), 11);  // 1 / 0.09765625 = 10.24
  EXPECT_EQ(landscape.vertices_per_side(), 1025 + 22);
  EXPECT_EQ(landscape.heights().size(), 1047u * 1047u);
  const double expected = 4.0 + EvaluateRelief({description.relief[2]}, 50.0, 50.0);
  EXPECT_NEAR(landscape.HeightAt(50.0, 50.0), expected, kHeightTolerance);
  EXPECT_NEAR(landscape.HeightAt(50.0, 50.0), EvaluateRelief(description.relief, 50.0, 50.0),
              kHeightTolerance);
  EXPECT_EQ(landscape.BuildMesh().indices.size(), 6u * 1046u * 1046u);
}

}  // namespace
}  // namespace asg::terrain
