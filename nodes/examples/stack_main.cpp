// asg-node-stack: the research autonomy stack (mapper, A* planner, look-ahead follower) as one
// vehicle node (stack_node.h), or as one of three node processes of one worker (stack_roles.h).
#include <iostream>
#include <memory>

#include "nodes/examples/example_options.h"
#include "nodes/examples/stack_roles.h"
#include "protocol/endpoint.h"

int main(int argc, char** argv) {
  using namespace asg::nodes;
  examples::StackSettings stack;
  std::string role = "all", listen, mapper, planner;
  const examples::ExampleUsage usage{
      "asg-node-stack",
      "The research autonomy stack: votes the camera's non-traversable pixels into a 1 m grid\n"
      "(cap 50), plans A* on a 2 m grid at 0.5 Hz from a 5 m look-ahead point, and follows the\n"
      "path at every tick with steer[deg] = 20 e + 5 de/dt. The first camera with depth and\n"
      "segmentation in the batch's vehicle_nodes.sensors is used.\n\n"
      "--role all (the default) runs the whole stack in this process. --role mapper, planner\n"
      "and follower run it as three node processes of one worker (vehicle_nodes.count 3), as the\n"
      "original ran: the mapper serves its map on --listen, the planner serves plans on --listen\n"
      "from the map of --mapper, the follower asks --planner and drives. They answer every\n"
      "lock-step Step and drive exactly as --role all does (nodes/examples/stack_roles.h).",
      {{"speed", "[m/s] target speed", &stack.follower.speed},
       {"lookahead", "[m] look-ahead distance", &stack.follower.lookahead},
       {"replan-period", "[s] time between plans", &stack.replan_period}},
      {{"role", "all, mapper, planner or follower", &role},
       {"listen", "mapper, planner: HOST:PORT of the side channel", &listen},
       {"mapper", "planner: the mapper's HOST:PORT", &mapper},
       {"planner", "follower: the planner's HOST:PORT", &planner}}};
  NodeSettings settings;
  settings.node_name = "stack";
  const int code =
      examples::ParseExampleCommandLine(argc, argv, usage, &settings, std::cout, std::cerr);
  if (code >= 0) return code;
  const auto usage_error = [&](const std::string& problem) {
    std::cerr << "asg-node-stack: " << problem << " (see --help)\n";
    return 2;
  };
  try {
    if (role != "all" && role != "mapper" && role != "planner" && role != "follower") {
      return usage_error("--role " + role + ": expected all, mapper, planner or follower");
    }
    if ((role == "mapper" || role == "planner") && listen.empty()) {
      return usage_error("--role " + role + " needs --listen HOST:PORT");
    }
    if (role == "planner" && mapper.empty()) return usage_error("--role planner needs --mapper");
    if (role == "follower" && planner.empty())
      return usage_error("--role follower needs --planner");
    for (const std::string* endpoint : {&listen, &mapper, &planner}) {
      if (!endpoint->empty()) asg::protocol::ParseHostPort(*endpoint);  // throws naming it
    }
    std::unique_ptr<VehicleNode> node;
    if (role == "all") node = std::make_unique<examples::StackNode>(settings, stack);
    if (role == "mapper") node = std::make_unique<examples::MapperNode>(settings, stack, listen);
    if (role == "planner") node = std::make_unique<examples::PlannerNode>(settings, listen, mapper);
    if (role == "follower")
      node = std::make_unique<examples::FollowerNode>(settings, stack, planner);
    node->Run();
    std::cerr << "asg-node-stack: " << node->stop_reason() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "asg-node-stack: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
