// The JSON schemas of the RegisterWorker handshake.
#include "protocol/worker_registration.h"

#include <limits>

#include "json/fields.h"

namespace asg::json {

template <>
struct Schema<protocol::RegisterWorkerRequest> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("worker_id", m.worker_id);
    v.Required("token", m.token);
    v.Required("pid", m.pid, Between(0, static_cast<double>(std::numeric_limits<int64_t>::max())));
    v.Optional("data_endpoint", m.data_endpoint);
  }
};

template <>
struct Schema<protocol::RegisterWorkerResponse> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("accepted", m.accepted);
    v.Required("message", m.message);
  }
};

}  // namespace asg::json

namespace asg::protocol {

ASG_DEFINE_JSON(RegisterWorkerRequest)
ASG_DEFINE_JSON(RegisterWorkerResponse)

}  // namespace asg::protocol
