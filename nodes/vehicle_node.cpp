// VehicleNode: the Run loop, the control plane (client) and the shutdown. The io thread only
// queues events; the Run thread handles them in order.
#include "nodes/vehicle_node.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "protocol/endpoint.h"
#include "protocol/typed_connection.h"

namespace asg::nodes {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The last signal received while a Run() handles signals; 0 when none.
volatile std::sig_atomic_t g_signal = 0;

extern "C" void OnSignal(int signal_number) { g_signal = signal_number; }

/// Installs OnSignal for SIGINT and SIGTERM and restores the previous handlers when destroyed.
class SignalScope {
 public:
  explicit SignalScope(bool enabled) : enabled_(enabled) {
    if (!enabled_) return;
    g_signal = 0;
    previous_int_ = std::signal(SIGINT, OnSignal);
    previous_term_ = std::signal(SIGTERM, OnSignal);
  }
  ~SignalScope() {
    if (!enabled_) return;
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;

 private:
  bool enabled_;
  void (*previous_int_)(int) = SIG_DFL;
  void (*previous_term_)(int) = SIG_DFL;
};

// How often the Run loop looks at the signal flag and the attach retry [ms].
constexpr milliseconds kPollPeriod{100};

}  // namespace

VehicleNode::VehicleNode(NodeSettings settings) : settings_(std::move(settings)) {
  if (settings_.token.empty()) {
    if (const char* token = std::getenv("ASG_TOKEN")) settings_.token = token;
  }
}

VehicleNode::~VehicleNode() = default;

void VehicleNode::OnOperatingInfo(const protocol::NodeOperatingInfo&) {}
void VehicleNode::OnRunStart(const RunStart&) {}
std::optional<Control> VehicleNode::OnStep(const Step&) { return std::nullopt; }
RerunDecision VehicleNode::OnRunEnd(const RunEnd&, bool) { return {}; }
void VehicleNode::OnReset() {}
void VehicleNode::OnReadyAnswer(uint32_t, const protocol::NotifyReadyResponse&) {}

void VehicleNode::Log(const std::string& line) const {
  if (settings_.log) std::cerr << "[node " + settings_.node_name + "] " + line + "\n";
}

VehicleNode::Event VehicleNode::MakeEvent(Event::Kind kind, const protocol::Message& message,
                                          const std::string& reason, uint64_t generation) {
  Event event;
  event.kind = kind;
  event.message = message;
  event.reason = reason;
  event.generation = generation;
  return event;
}

void VehicleNode::Push(Event event) {
  {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
  }
  event_ready_.notify_all();
}

std::optional<VehicleNode::Event> VehicleNode::WaitEvent(milliseconds timeout, bool wake_on_stop) {
  if (taken_) {
    // This thread runs the io context: the event is pushed by a handler it runs itself.
    taken_->RunUntil(
        [&] {
          std::lock_guard lock(mutex_);
          return !events_.empty() || (wake_on_stop && stop_requested_);
        },
        Clock::now() + timeout);
  }
  std::unique_lock lock(mutex_);
  event_ready_.wait_for(lock, timeout,
                        [&] { return !events_.empty() || (wake_on_stop && stop_requested_); });
  if (events_.empty()) return std::nullopt;
  Event event = std::move(events_.front());
  events_.pop_front();
  return event;
}

bool VehicleNode::StopRequested() const {
  if (g_signal != 0 && settings_.handle_signals) return true;
  std::lock_guard lock(mutex_);
  return stop_requested_;
}

void VehicleNode::Stop() {
  {
    std::lock_guard lock(mutex_);
    if (!stop_requested_) stop_reason_ = "stopped";
    stop_requested_ = true;
  }
  event_ready_.notify_all();
}

std::string VehicleNode::stop_reason() const {
  std::lock_guard lock(mutex_);
  return stop_reason_;
}

std::shared_ptr<protocol::Connection> VehicleNode::ClientConnection() const {
  std::lock_guard lock(mutex_);
  return client_;
}

std::shared_ptr<protocol::Connection> VehicleNode::DataConnection() const {
  std::lock_guard lock(mutex_);
  return data_;
}

void VehicleNode::Run() {
  SignalScope signals(settings_.handle_signals);
  io_ = std::make_unique<protocol::HandOverIo>();
  try {
    ConnectClient();
    if (!StopRequested()) NotifyReady(0, {});
    while (!StopRequested()) {
      std::optional<Event> event = WaitEvent(kPollPeriod);
      if (event) {
        switch (event->kind) {
          case Event::Kind::kOperatingInfo:
            HandleOperatingInfo(event->message);
            break;
          case Event::Kind::kClientClosed: {
            std::lock_guard lock(mutex_);
            stop_reason_ = "client closed the connection: " + event->reason;
            stop_requested_ = true;
            break;
          }
          case Event::Kind::kData:
            if (event->generation == data_generation_) HandleData(event->message);
            break;
          case Event::Kind::kDataClosed:
            if (event->generation == data_generation_) DetachData(event->reason);
            break;
        }
      }
      CheckRunEndWait();
      if (!StopRequested() && !wanted_endpoint_.empty() && attached_endpoint_.empty() &&
          Clock::now() >= next_attach_) {
        TryAttach();
      }
    }
    if (g_signal != 0 && settings_.handle_signals) {
      std::lock_guard lock(mutex_);
      stop_reason_ = "signal " + std::to_string(g_signal);
    }
  } catch (...) {
    Shutdown();
    throw;
  }
  Shutdown();
}

void VehicleNode::ConnectClient() {
  const auto deadline = Clock::now() + settings_.connect_timeout;
  std::shared_ptr<protocol::Connection> client;
  std::string last_error;
  while (!client) {
    if (StopRequested()) return;
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    if (left <= milliseconds::zero()) {
      throw NodeError("cannot reach the client at " + settings_.client_endpoint + " within " +
                      std::to_string(settings_.connect_timeout.count()) + " ms: " + last_error);
    }
    try {
      client = protocol::Connect(io_->context().get_executor(), settings_.client_endpoint,
                                 std::min(left, settings_.request_timeout), settings_.connection);
    } catch (const std::exception& error) {
      last_error = error.what();
      std::this_thread::sleep_for(std::min(settings_.retry_period, left));
    }
  }
  client->SetHandler(protocol::TypeOf<protocol::NodeOperatingInfo>(),
                     [this](const protocol::Message& message) {
                       Push(MakeEvent(Event::Kind::kOperatingInfo, message, {}, 0));
                     });
  client->SetCloseHandler([this](const std::string& reason) {
    Push(MakeEvent(Event::Kind::kClientClosed, {}, reason, 0));
  });
  client->Start();
  {
    std::lock_guard lock(mutex_);
    client_ = client;
  }
  protocol::NodeRegistration registration{settings_.worker_id, settings_.node_name,
                                          settings_.token};
  try {
    protocol::RequestMessage<protocol::RegisterVehicleNodeResponse>(*client, registration, {},
                                                                    settings_.request_timeout);
  } catch (const protocol::RequestError& error) {
    throw NodeError("registration of '" + settings_.node_name + "' for worker " +
                    std::to_string(settings_.worker_id) + " refused: " + error.what());
  }
  Log("registered with the client at " + settings_.client_endpoint + " for worker " +
      std::to_string(settings_.worker_id));
}

void VehicleNode::NotifyReady(uint32_t scenario_number, const RerunDecision& decision) {
  const std::shared_ptr<protocol::Connection> client = ClientConnection();
  if (!client) throw NodeError("NotifyReady: not connected to the client");
  protocol::NotifyReadyRequest request{settings_.worker_id, settings_.node_name, scenario_number,
                                       decision.request_rerun, decision.reason};
  protocol::NotifyReadyResponse answer;
  try {
    answer = protocol::RequestMessage<protocol::NotifyReadyResponse>(*client, request, {},
                                                                     settings_.request_timeout);
  } catch (const std::exception& error) {
    if (!client->IsOpen()) {
      // The client went away while the request was out: the node's life ends normally, as
      // when the close arrives between requests.
      std::lock_guard lock(mutex_);
      stop_reason_ = std::string("client closed the connection: ") + error.what();
      stop_requested_ = true;
      return;
    }
    throw NodeError("NotifyReady(" + std::to_string(scenario_number) + "): " + error.what());
  }
  Log("ready after scenario " + std::to_string(scenario_number) +
      (decision.request_rerun ? std::string(", rerun ") + (answer.accepted ? "accepted" : "refused")
                              : std::string()));
  OnReadyAnswer(scenario_number, answer);
}

void VehicleNode::HandleOperatingInfo(const protocol::Message& message) {
  try {
    info_ = protocol::DecodeMessage<protocol::NodeOperatingInfo>(message.message);
  } catch (const std::exception& error) {
    Log(std::string("ignoring a malformed VehicleNodeOperatingInfo: ") + error.what());
    return;
  }
  std::string endpoint;
  const std::vector<uint16_t>& ids = info_.info.worker_ids;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] != settings_.worker_id) continue;
    save_dir_ = info_.info.save_dirs[i];
    save_minimal_ = info_.info.save_minimal[i];
    if (i < info_.data_endpoints.size()) endpoint = info_.data_endpoints[i];
  }
  OnOperatingInfo(info_);
  // An empty endpoint (worker not up yet, or an info without endpoints) keeps the current one.
  if (endpoint.empty() || endpoint == wanted_endpoint_) return;
  wanted_endpoint_ = endpoint;
  if (!attached_endpoint_.empty()) DetachData("the worker's data endpoint changed to " + endpoint);
  next_attach_ = Clock::now();
}

std::string VehicleNode::SaveFile(const std::string& relative_path, std::string bytes) {
  const std::shared_ptr<protocol::Connection> client = ClientConnection();
  uint32_t scenario_number = 0;
  bool preempted = false;
  {
    std::lock_guard lock(mutex_);
    scenario_number = scenario_number_;
    preempted = run_preempted_;
  }
  if (!client) throw NodeError("SaveFile(" + relative_path + "): not connected to the client");
  if (scenario_number == 0) throw NodeError("SaveFile(" + relative_path + "): no run yet");
  if (preempted) {
    throw NodeError("SaveFile(" + relative_path + "): scenario " + std::to_string(scenario_number) +
                    " was preempted; its data is not saved");
  }
  protocol::SaveNodeFileRequest request{settings_.worker_id, settings_.node_name, scenario_number,
                                        relative_path};
  try {
    return protocol::RequestMessage<protocol::SaveNodeFileResponse>(
               *client, request, std::move(bytes), settings_.request_timeout)
        .path;
  } catch (const std::exception& error) {
    throw NodeError("SaveFile(" + relative_path + "): " + error.what());
  }
}

void VehicleNode::Shutdown() {
  if (!io_) return;
  taken_.reset();
  if (!attached_endpoint_.empty() || DataConnection()) DetachData("node shutting down", true);
  // The connection is let go before the io_context it runs on (below): a Connection outliving
  // its io_context would touch the context's destroyed services.
  if (const std::shared_ptr<protocol::Connection> client = ClientConnection();
      client && client->IsOpen()) {
    try {
      protocol::RequestMessage<protocol::UnregisterVehicleNodeResponse>(
          *client, protocol::UnregisterVehicleNodeRequest{settings_.worker_id, settings_.node_name},
          {}, std::min(settings_.request_timeout, milliseconds(2000)));
      Log("unregistered");
    } catch (const std::exception& error) {
      Log(std::string("UnregisterVehicleNode failed: ") + error.what());
    }
    client->Close("node shutting down");
    // Wait for the orderly close to finish so the client reads everything sent.
    const auto deadline = Clock::now() + settings_.connection.close_timeout + milliseconds(500);
    while (Clock::now() < deadline) {
      std::optional<Event> event = WaitEvent(milliseconds(50), false);
      if (event && event->kind == Event::Kind::kClientClosed) break;
    }
  }
  {
    std::lock_guard lock(mutex_);
    client_.reset();
    data_.reset();
  }
  io_->Stop();
  io_.reset();
}

}  // namespace asg::nodes
