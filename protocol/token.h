// Comparison of shared secrets (the farm's token) in a time that does not reveal their content.
#pragma once

#include <string>
#include <string_view>

namespace asg::protocol {

/// True when `given` equals `expected`. The time taken depends only on the length of `given`,
/// never on their content or where they first differ: every byte of `given` is compared and a
/// length difference does not end the loop early. Thread-safe (pure function).
bool TokensEqual(std::string_view expected, std::string_view given);

/// A new random token: 32 hexadecimal digits (128 bits) from std::random_device (the kernel's
/// random source on Linux). Thread-safe.
std::string NewToken();

}  // namespace asg::protocol
