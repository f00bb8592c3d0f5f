// The exception the scene module throws when a request cannot be turned into a scene.
#pragma once

#include <stdexcept>
#include <string>

namespace asg::scene {

/// A scene could not be created from a request (unknown actor, actor off the landscape, bad
/// scale, vehicle that never settles, ...). The message names the item and the value, e.g.
/// `ssa_array[1] "/Game/Foo" instance 3: x = 75 is outside the landscape [-0, 60]`.
class SceneError : public std::runtime_error {
 public:
  explicit SceneError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace asg::scene
