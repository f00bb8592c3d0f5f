// Path reconstruction of the grid A*.
#include "planning/astar.h"

#include <algorithm>

namespace asg::planning::detail {

std::vector<int> TraceCells(const std::vector<int>& parent, int reached) {
  std::vector<int> cells;
  for (int cell = reached; cell != -1; cell = parent[cell]) cells.push_back(cell);
  std::reverse(cells.begin(), cells.end());
  return cells;
}

}  // namespace asg::planning::detail
