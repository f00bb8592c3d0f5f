// A count of bytes held by many owners against one cap: the partial frames that the connections
// of one server hold for peers that have not registered yet.
#pragma once

#include <atomic>
#include <cstddef>

namespace asg::protocol {

/// Bytes taken by several holders, never more than a cap in total. Thread-safe.
class ByteBudget {
 public:
  /// A budget of `cap_bytes` [bytes].
  explicit ByteBudget(size_t cap_bytes) : cap_bytes_(cap_bytes) {}
  ByteBudget(const ByteBudget&) = delete;
  ByteBudget& operator=(const ByteBudget&) = delete;

  /// Takes `bytes` more unless the total would pass the cap; false, and nothing taken, then.
  bool TryTake(size_t bytes);
  /// Gives back `bytes` taken earlier.
  void Give(size_t bytes) { taken_bytes_.fetch_sub(bytes); }

  /// Bytes taken now [bytes].
  size_t taken_bytes() const { return taken_bytes_.load(); }
  /// The cap [bytes].
  size_t cap_bytes() const { return cap_bytes_; }

 private:
  const size_t cap_bytes_;
  std::atomic<size_t> taken_bytes_{0};
};

}  // namespace asg::protocol
