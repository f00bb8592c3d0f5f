// The JSON value every module reads and writes, and the error strict decoding throws.
//
// Json is nlohmann::ordered_json: objects keep their keys in insertion order, so encoded messages
// and the JSON files written from them list fields in declaration order, as the specifications
// do.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace asg::json {

using Json = nlohmann::ordered_json;

/// A JSON value that does not decode into the type asked for.
class DecodeError : public std::runtime_error {
 public:
  DecodeError(std::string path, const std::string& what)
      : std::runtime_error(path.empty() ? what : path + ": " + what),
        path_(std::move(path)),
        problem_(what) {}
  /// The JSON path of the offending value, e.g. "scene_description.ssa_array[1].yaw".
  const std::string& path() const { return path_; }
  /// What is wrong with it, without the path, e.g. "must be > 0, got -1".
  const std::string& problem() const { return problem_; }

 private:
  std::string path_;
  std::string problem_;
};

}  // namespace asg::json
