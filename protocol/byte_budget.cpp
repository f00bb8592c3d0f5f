// The shared byte count: a compare-and-swap loop, so that no two takers pass the cap together.
#include "protocol/byte_budget.h"

namespace asg::protocol {

bool ByteBudget::TryTake(size_t bytes) {
  size_t taken = taken_bytes_.load();
  while (bytes <= cap_bytes_ && taken <= cap_bytes_ - bytes) {
    if (taken_bytes_.compare_exchange_weak(taken, taken + bytes)) return true;
  }
  return false;
}

}  // namespace asg::protocol
