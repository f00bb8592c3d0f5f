// The field list of RegretSpec, public so that the batch file's top-level "regret" (decoded
// strictly on its own, beside the requests' partial overrides) lists the same field.
#pragma once

#include <array>

#include "json/fields.h"
#include "protocol/extensions.h"

namespace asg::json {

/// The names of regret::FailureTime on the wire.
inline constexpr std::array<NamedValue<regret::FailureTime>, 2> kFailureTimeTable{{
    {regret::FailureTime::kFailureMoment, "failure_moment"},
    {regret::FailureTime::kEndOfRun, "end_of_run"},
}};
/// The Names rule of a FailureTime field.
inline constexpr Names<regret::FailureTime> kFailureTimes{"failure time", kFailureTimeTable};

template <>
struct Schema<protocol::RegretSpec> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("failure_time", m.failure_time, kFailureTimes);
  }
};

}  // namespace asg::json
