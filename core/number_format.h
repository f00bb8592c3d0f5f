// How a number is written in messages for people (errors, logs): one formatter for every module.
#pragma once

#include <string>

namespace asg::core {

/// "10" for integral values below 1e15 in magnitude, else the shortest text that reads back as
/// the same double ("0.1", "2.5e-07"); "nan", "inf" and "-inf" for the non-finite values.
std::string FormatNumber(double value);

}  // namespace asg::core
