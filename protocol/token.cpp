// Constant-time token comparison: differences are accumulated with OR, never branched on.
#include "protocol/token.h"

#include <cstddef>

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

}  // namespace asg::protocol
