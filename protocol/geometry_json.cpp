// The JSON schemas of geometry.h: every field required, as in geometry_msgs and std_msgs.
#include "json/fields.h"
#include "protocol/messages_json.h"

namespace asg::json {

// ---------------------------------------------------------------- geometry.h

template <>
struct Schema<protocol::Time> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("sec", m.sec);
    v.Required("nanosec", m.nanosec, Between(0, 999'999'999));
  }
};

template <>
struct Schema<protocol::Header> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("stamp", m.stamp);
    v.Required("frame_id", m.frame_id);
  }
};

template <>
struct Schema<protocol::ColorRGBA> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("r", m.r, Between(0, 1));
    v.Required("g", m.g, Between(0, 1));
    v.Required("b", m.b, Between(0, 1));
    v.Required("a", m.a, Between(0, 1));
  }
};

template <>
struct Schema<protocol::Point> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("x", m.x);
    v.Required("y", m.y);
    v.Required("z", m.z);
  }
};

template <>
struct Schema<protocol::Vector3> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("x", m.x);
    v.Required("y", m.y);
    v.Required("z", m.z);
  }
};

template <>
struct Schema<protocol::Quaternion> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("x", m.x);
    v.Required("y", m.y);
    v.Required("z", m.z);
    v.Required("w", m.w);
  }
};

template <>
struct Schema<protocol::Pose> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("position", m.position);
    v.Required("orientation", m.orientation);
  }
};

template <>
struct Schema<protocol::Twist> {
  template <class V, class M>
  static void Fields(V& v, M& m) {
    v.Required("linear", m.linear);
    v.Required("angular", m.angular);
  }
};

}  // namespace asg::json

namespace asg::protocol {

ASG_DEFINE_JSON(Time)
ASG_DEFINE_JSON(Header)
ASG_DEFINE_JSON(ColorRGBA)
ASG_DEFINE_JSON(Point)
ASG_DEFINE_JSON(Vector3)
ASG_DEFINE_JSON(Quaternion)
ASG_DEFINE_JSON(Pose)
ASG_DEFINE_JSON(Twist)

}  // namespace asg::protocol
