// The field list of VehicleNodesSpec, public so that a message that extends it (the batch file's
// "vehicle_nodes", which adds the client's own keys) lists the same fields beside its own.
#pragma once

#include <set>
#include <string>

#include "json/fields.h"
#include "protocol/sensor_specs.h"

namespace asg::json {

template <>
struct Schema<protocol::VehicleNodesSpec> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Optional("count", m.count);
    v.Optional("sync", m.sync);
    v.Optional("realtime_factor", m.realtime_factor, kPositive);
    v.Optional("step_deadline", m.step_deadline, kPositive);
    v.Optional("sensors", m.sensors);
  }
  /// Sensor names are unique.
  static void Check(const protocol::VehicleNodesSpec& m, const FieldReader& reader) {
    std::set<std::string> names;
    for (size_t i = 0; i < m.sensors.size(); ++i) {
      if (!names.insert(m.sensors[i].Name()).second) {
        throw DecodeError(IndexPath(reader.Child("sensors"), i) + ".name",
                          "\"" + m.sensors[i].Name() + "\" is already the name of another sensor");
      }
    }
  }
};

}  // namespace asg::json
