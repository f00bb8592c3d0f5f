// Constant-time token comparison: differences are accumulated with OR, never branched on.
#include "protocol/token.h"

#include <cstddef>
#include <cstdint>
#include <random>

namespace asg::protocol {

bool TokensEqual(std::string_view expected, std::string_view given) {
  // A length difference is folded into the accumulator; past the end of `expected` its bytes
  // read as 0, so the loop always runs over all of `given` and its branch depends only on
  // lengths.
  size_t difference = expected.size() ^ given.size();
  for (size_t i = 0; i < given.size(); ++i) {
    const unsigned char want = i < expected.size() ? static_cast<unsigned char>(expected[i]) : 0;
    difference |= static_cast<unsigned char>(want ^ static_cast<unsigned char>(given[i]));
  }
  return difference == 0;
}

std::string NewToken() {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::random_device source;
  std::string token;
  for (int word = 0; word < 4; ++word) {
    uint32_t bits = source();
    for (int digit = 0; digit < 8; ++digit, bits >>= 4) token += kDigits[bits & 0xF];
  }
  return token;
}

}  // namespace asg::protocol
