// The speed legend of the annotated ortho aerial after a run: a colour bar in the bottom-left
// corner of the image, from stopped (left, blue) to the run's fastest speed (right, red) as the
// trajectory is coloured (annotations.h SpeedColor), labelled "0" and "<fastest> m/s" in a small
// bitmap font, on a dark panel. Drawn on the image's pixels after the overlays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace asg::capture {

/// Draws the legend into `rgb`, a size x size RGB image with row 0 at the top; `fastest` [m/s].
void DrawSpeedLegend(std::vector<uint8_t>* rgb, int size, double fastest);

/// The legend's label of `fastest` [m/s]: "6.2 m/s" (one decimal).
std::string SpeedLabel(double fastest);

}  // namespace asg::capture
