// asg-node-stack: the research autonomy stack (mapper, A* planner, look-ahead follower) as one
// vehicle node; see stack_node.h for the design.
#include <iostream>

#include "nodes/examples/example_options.h"
#include "nodes/examples/stack_node.h"

int main(int argc, char** argv) {
  using namespace asg::nodes;
  examples::StackSettings stack;
  const examples::ExampleUsage usage{
      "asg-node-stack",
      "The research autonomy stack: votes the camera's non-traversable pixels into a 1 m grid\n"
      "(cap 50), plans A* on a 2 m grid at 0.5 Hz from a 5 m look-ahead point, and follows the\n"
      "path at every tick with steer[deg] = 20 e + 5 de/dt. The first camera with depth and\n"
      "segmentation in the batch's vehicle_nodes.sensors is used.",
      {{"speed", "[m/s] target speed", &stack.follower.speed},
       {"lookahead", "[m] look-ahead distance", &stack.follower.lookahead},
       {"replan-period", "[s] time between plans", &stack.replan_period}}};
  NodeSettings settings;
  settings.node_name = "stack";
  const int code =
      examples::ParseExampleCommandLine(argc, argv, usage, &settings, std::cout, std::cerr);
  if (code >= 0) return code;
  try {
    examples::StackNode node(settings, stack);
    node.Run();
    std::cerr << "asg-node-stack: " << node.stop_reason() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "asg-node-stack: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
