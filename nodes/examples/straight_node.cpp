// asg-node-straight: an odometry-only vehicle node that drives exactly like the simulator's
// built-in "straight" driver, for the end-to-end determinism check (same trajectory, bit for bit).
#include <iostream>

#include "nodes/examples/example_options.h"
#include "nodes/examples/straight_control.h"
#include "nodes/vehicle_node.h"

namespace asg::nodes::examples {
namespace {

/// Steers straight at the goal; knows the goal and the steering limit from RunStart.
class StraightNode : public VehicleNode {
 public:
  StraightNode(NodeSettings settings, double speed) : VehicleNode(std::move(settings)) {
    task_.speed = speed;
  }

 protected:
  void OnRunStart(const RunStart& run) override {
    task_.goal = run.vehicle_goal_location;
    task_.max_steering_angle = run.vehicle.max_steering_angle;
  }
  std::optional<Control> OnStep(const Step& step) override {
    return StraightControl(task_, step.time(), step.odometry().pose.position, step.yaw());
  }

 private:
  StraightTask task_;
};

}  // namespace
}  // namespace asg::nodes::examples

int main(int argc, char** argv) {
  using namespace asg::nodes;
  double speed = 5.0;
  const examples::ExampleUsage usage{
      "asg-node-straight",
      "Drives the worker's vehicle straight at the goal with the built-in straight driver's law\n"
      "(steering 1.5 deg per deg of heading error, constant speed), from odometry only.",
      {{"speed", "[m/s] target speed", &speed}},
      {}};
  NodeSettings settings;
  settings.node_name = "straight";
  const int code =
      examples::ParseExampleCommandLine(argc, argv, usage, &settings, std::cout, std::cerr);
  if (code >= 0) return code;
  try {
    examples::StraightNode node(settings, speed);
    node.Run();
    std::cerr << "asg-node-straight: " << node.stop_reason() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "asg-node-straight: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
