// The terrain as the renderer draws it: the landscape's triangle mesh with near-planar regions
// merged into larger triangles, so that a view rasterises fewer, larger triangles (a software
// rasteriser shades whole 4 x 4 pixel blocks per triangle, so many small triangles cost several
// times their area).
//
// Method: a quadtree of grid squares over the landscape's cells. A square stays whole when every
// grid vertex inside it lies within `tolerance` of the plane fitted to its four corners (and it
// is at most kMaxTerrainSquare cells wide); otherwise it splits in four, down to single cells,
// which keep the landscape's own two triangles. Squares are then split until each neighbour
// across an edge is at most twice smaller (a restricted quadtree), and a square with a smaller
// neighbour is drawn as a fan around its centre vertex that includes the midpoint of that edge.
// Every vertex of the result is a grid vertex with its landscape height and normal, and there are
// no T-junctions, so the surface is watertight. Where a square is merged the drawn ground is
// within 2 x tolerance of the landscape's surface; elsewhere it is the landscape's surface.
#pragma once

#include "capture/meshes.h"
#include "terrain/landscape.h"

namespace asg::capture {

/// Largest merged square [cells].
inline constexpr int kMaxTerrainSquare = 32;

/// Default planarity tolerance of the render mesh [m].
inline constexpr double kTerrainTolerance = 0.01;

/// The landscape's render mesh (see the file comment), counter-clockwise from above, positions
/// in world metres. Pure function, thread-safe.
Mesh SimplifiedTerrainMesh(const terrain::Landscape& landscape,
                           double tolerance = kTerrainTolerance);

}  // namespace asg::capture
