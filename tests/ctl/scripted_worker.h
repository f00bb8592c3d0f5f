// A scripted interactive worker for asg-ctl's tests: a protocol::Server on 127.0.0.1 (ephemeral
// port) whose connections answer a few services with fixed replies, and output streams that a
// test may read while asg-ctl is still writing them.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <streambuf>
#include <string>
#include <vector>

#include "protocol/connection.h"
#include "protocol/io_threads.h"
#include "protocol/server.h"

namespace asg::ctl::testing {

using json::Json;
using protocol::Connection;
using protocol::Message;

/// Generous bound on anything a test waits for, for a loaded 2-core machine.
inline constexpr std::chrono::seconds kWait{10};

/// The bytes of CaptureScene's attachment: image "a" is "ABC", image "b/../c" is "DE".
inline const std::string kCaptureBytes = "ABCDE";
/// The bytes of SampleSensorsCommand_ID's attachment, NULs included.
inline const std::string kReadingBytes("\0\1\2\3\xff\n", 6);
/// The bytes of GetResult's attachment, which no item describes.
inline const std::string kResultBytes("xyz\0", 4);

/// The services ListServices lists.
inline Json ScriptedServices() {
  return Json::array({
      {{"name", "GetSimulationState"},
       {"family", "simulation_interfaces"},
       {"description", "the simulation's state"}},
      {{"name", "StartSimulation"}, {"family", "roadrunner_sse"}, {"description", "plays"}},
      {{"name", "ListServices"}, {"family", "farm"}, {"description", ""}},
  });
}

/// A simulation_interfaces Result body {result, error_message}.
inline Json ResultBody(int code, const std::string& message = "") {
  return Json{{"result", code}, {"error_message", message}};
}

/// Answers, on every connection:
///   Hello                  {success: true} when the token matches (or none is required), else
///                          an Error reply and the connection closes; with a token, any other
///                          first frame closes the connection;
///   GetSimulationState     result OK, state 2;
///   StepSimulation         result 3 (INCORRECT_STATE);
///   GetEntities            result OK, and the request's body as "request";
///   StartSimulation        {success: false, description: "no scenario loaded"};
///   ListServices           {success: true, services: ScriptedServices()};
///   CaptureScene           images "a" (0, 3) and "b/../c" (3, 2) of kCaptureBytes;
///   SampleSensorsCommand_ID readings "lidar front" (0, 4) and "imu" (4, 2) of kReadingBytes;
///   GetResult              {success: true} with kResultBytes, described by no item;
///   SimulateSteps {steps}  steps <= 0: {accepted: false}; steps <= 500: {accepted: true,
///                          goal_id: 7}, a feedback frame of goal 99, `steps` feedback frames of
///                          goal 7 and its result OK; more steps: the reply and one feedback
///                          frame, then the result (result 4, "cancelled") once
///                          CancelSimulateSteps {goal_id: 7} arrives;
///   SubscribeEvents {keep_open}  {success: true}, two Event frames ({"seq": 1}, {"seq": 2}),
///                          then the connection closes unless keep_open;
///   Drop                   closes the connection without a reply;
///   Silent                 never replies.
/// Any other type gets the connection's default Error reply. It records every request.
class ScriptedWorker {
 public:
  /// Listens; with a non-empty token, connections must present it first.
  explicit ScriptedWorker(std::string token = "")
      : token_(std::move(token)),
        io_(2),
        server_(io_.context().get_executor(), "127.0.0.1", 0, {},
                [this](std::shared_ptr<Connection> connection) { OnAccept(connection); }) {}

  ~ScriptedWorker() {
    server_.Stop();
    std::vector<std::shared_ptr<Connection>> connections;
    {
      std::lock_guard lock(mutex_);
      connections.swap(connections_);
    }
    for (const auto& connection : connections) connection->Close("scripted worker stops");
    io_.Stop();
  }

  /// "127.0.0.1:PORT".
  std::string address() const { return "127.0.0.1:" + std::to_string(server_.port()); }

  /// The requests received so far, in arrival order.
  std::vector<Message> Received() {
    std::lock_guard lock(mutex_);
    return received_;
  }

 private:
  /// Registers the services on a new connection and starts it.
  void OnAccept(const std::shared_ptr<Connection>& connection) {
    Connection* raw = connection.get();
    const auto on = [&](const std::string& type, std::function<void(const Message&)> answer) {
      connection->SetHandler(type, [this, raw, type, answer](const Message& request) {
        Record(request);
        if (!token_.empty() && !raw->registered()) {
          raw->Close(type + " before Hello");
          return;
        }
        answer(request);
      });
    };
    connection->SetHandler("Hello", [this, raw](const Message& request) {
      Record(request);
      if (!token_.empty() && request.message.value("token", "") != token_) {
        raw->ReplyError(request.reference, "token refused");
        raw->Close("token refused");
        return;
      }
      raw->MarkRegistered();
      raw->Reply(request, Json{{"success", true}});
    });
    on("GetSimulationState", [raw](const Message& request) {
      raw->Reply(request, Json{{"result", ResultBody(1)}, {"state", {{"state", 2}}}});
    });
    on("StepSimulation", [raw](const Message& request) {
      raw->Reply(request, Json{{"result", ResultBody(3, "the simulation is not paused")}});
    });
    on("GetEntities", [raw](const Message& request) {
      raw->Reply(request, Json{{"result", ResultBody(1)},
                               {"entities", Json::array({"vehicle"})},
                               {"request", request.message}});
    });
    on("StartSimulation", [raw](const Message& request) {
      raw->Reply(request, Json{{"success", false}, {"description", "no scenario loaded"}});
    });
    on("ListServices", [raw](const Message& request) {
      raw->Reply(request, Json{{"success", true}, {"services", ScriptedServices()}});
    });
    on("CaptureScene", [raw](const Message& request) {
      const Json images = Json::array({{{"name", "a"}, {"offset", 0u}, {"size", 3u}},
                                       {{"name", "b/../c"}, {"offset", 3u}, {"size", 2u}}});
      raw->Reply(request, Json{{"success", true}, {"images", images}}, kCaptureBytes);
    });
    on("SampleSensorsCommand_ID", [raw](const Message& request) {
      const Json readings = Json::array({{{"name", "lidar front"}, {"offset", 0u}, {"size", 4u}},
                                         {{"name", "imu"}, {"offset", 4u}, {"size", 2u}}});
      raw->Reply(request, Json{{"success", true}, {"readings", readings}}, kReadingBytes);
    });
    on("GetResult", [raw](const Message& request) {
      raw->Reply(request, Json{{"success", true}}, kResultBytes);
    });
    on("SimulateSteps", [raw](const Message& request) { SimulateSteps(raw, request); });
    on("CancelSimulateSteps", [raw](const Message& request) {
      raw->Reply(request, Json{{"result", ResultBody(1)}});
      raw->Send("SimulateStepsResult", Json{{"goal_id", request.message.value("goal_id", 0)},
                                            {"result", ResultBody(4, "cancelled")}});
    });
    on("SubscribeEvents", [raw](const Message& request) {
      raw->Reply(request, Json{{"success", true}});
      raw->Send("Event", Json{{"seq", 1}});
      raw->Send("Event", Json{{"seq", 2}});
      if (!request.message.value("keep_open", false)) raw->Close("events done");
    });
    on("Drop", [raw](const Message&) { raw->Close("dropped"); });
    on("Silent", [](const Message&) {});
    {
      std::lock_guard lock(mutex_);
      connections_.push_back(connection);
    }
    connection->Start();
  }

  /// Answers SimulateSteps as the class comment says.
  static void SimulateSteps(Connection* raw, const Message& request) {
    const int steps = request.message.value("steps", 3);
    if (steps <= 0) {
      raw->Reply(request, Json{{"accepted", false}, {"description", "steps must be positive"}});
      return;
    }
    raw->Reply(request, Json{{"accepted", true}, {"goal_id", 7}});
    const auto feedback = [raw, steps](int goal, int done) {
      raw->Send(
          "SimulateStepsFeedback",
          Json{{"goal_id", goal}, {"completed_steps", done}, {"remaining_steps", steps - done}});
    };
    feedback(99, 1);
    if (steps > 500) {
      feedback(7, 1);
      return;
    }
    for (int done = 1; done <= steps; ++done) feedback(7, done);
    raw->Send("SimulateStepsResult", Json{{"goal_id", 7}, {"result", ResultBody(1)}});
  }

  /// Appends a request to received_.
  void Record(const Message& request) {
    std::lock_guard lock(mutex_);
    received_.push_back(request);
  }

  const std::string token_;
  protocol::IoThreads io_;
  protocol::Server server_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<Connection>> connections_;
  std::vector<Message> received_;
};

/// A stream buffer that one thread writes and another reads (str(), WaitFor) meanwhile.
class SharedTextBuffer : public std::streambuf {
 public:
  /// Everything written so far.
  std::string str() {
    std::lock_guard lock(mutex_);
    return text_;
  }

  /// Waits until the text holds `needle`, at most kWait; true when it does.
  bool WaitFor(const std::string& needle) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, kWait, [&] { return text_.find(needle) != std::string::npos; });
  }

 protected:
  int_type overflow(int_type c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    const char character = traits_type::to_char_type(c);
    xsputn(&character, 1);
    return c;
  }
  std::streamsize xsputn(const char* text, std::streamsize count) override {
    std::lock_guard lock(mutex_);
    text_.append(text, static_cast<size_t>(count));
    changed_.notify_all();
    return count;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string text_;
};

}  // namespace asg::ctl::testing
