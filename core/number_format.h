// How a number is written in messages for people (errors, logs): one formatter for every module.
#pragma once

#include <string>

namespace asg::core {

/// "10" for integral values below 1e15 in magnitude, else the shortest text that reads back as
/// the same double ("0.1", "2.5e-07"); "nan", "inf" and "-inf" for the non-finite values.
std::string FormatNumber(double value);

/// FormatNumber of `value` rounded to `significant_digits` first, for messages that round on
/// purpose: FormatNumber(6.4031, 3) is "6.4", FormatNumber(1234.5, 3) is "1230".
std::string FormatNumber(double value, int significant_digits);

}  // namespace asg::core
