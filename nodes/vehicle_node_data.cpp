// VehicleNode: the data plane (worker): attach, RunStart, Steps, VehicleStatus, RunEnd, and the
// end of a run (OnRunEnd, OnReset, NotifyReady).
#include <algorithm>

#include "nodes/vehicle_node.h"
#include "protocol/endpoint.h"
#include "protocol/typed_connection.h"

namespace asg::nodes {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How long a disabled run waits for its RunEnd before ending without it [ms].
constexpr milliseconds kRunEndWait{2000};

protocol::StepResponse ToResponse(const std::optional<Control>& control) {
  protocol::StepResponse response;
  if (!control) return response;
  if (const auto* physx = std::get_if<protocol::PhysXControl>(&*control)) {
    response.has_control = true;
    response.control = *physx;
  } else {
    response.has_ego_control = true;
    response.ego_control = std::get<protocol::EgoControl>(*control);
  }
  return response;
}

}  // namespace

bool VehicleNode::SendControl(const Control& control) {
  const std::shared_ptr<protocol::Connection> data = DataConnection();
  if (!data || !data->IsOpen()) return false;
  data->Send(std::string(protocol::StepResponse::kAsyncType), ToResponse(control));
  return true;
}

void VehicleNode::TryAttach() {
  const std::string endpoint = wanted_endpoint_;
  next_attach_ = Clock::now() + settings_.retry_period;
  std::shared_ptr<protocol::Connection> data;
  try {
    data = protocol::Connect(io_->context().get_executor(), endpoint,
                             std::min(settings_.request_timeout, milliseconds(5000)),
                             settings_.connection);
  } catch (const std::exception& error) {
    Log(std::string("cannot reach the worker's data endpoint: ") + error.what());
    return;
  }
  const uint64_t generation = ++data_generation_;
  for (const std::string& type :
       {protocol::TypeOf<protocol::RunStartRequest>(), protocol::TypeOf<protocol::StepRequest>(),
        protocol::TypeOf<protocol::VehicleStatus>(), protocol::TypeOf<protocol::RunEndMessage>()}) {
    data->SetHandler(type, [this, generation](const protocol::Message& message) {
      Push(MakeEvent(Event::Kind::kData, message, {}, generation));
    });
  }
  data->SetCloseHandler([this, generation](const std::string& reason) {
    Push(MakeEvent(Event::Kind::kDataClosed, {}, reason, generation));
  });
  data->Start();
  {
    std::lock_guard lock(mutex_);
    data_ = data;
  }
  try {
    protocol::RequestMessage<protocol::AttachNodeResponse>(
        *data, protocol::AttachNodeRequest{settings_.node_name, settings_.token}, {},
        settings_.request_timeout);
  } catch (const std::exception& error) {
    Log(std::string("AttachNode refused: ") + error.what());
    DetachData("AttachNode refused");
    return;
  }
  attached_endpoint_ = endpoint;
  Log("attached to the worker's data endpoint " + endpoint);
}

void VehicleNode::DetachData(const std::string& reason, bool shutting_down) {
  std::shared_ptr<protocol::Connection> data;
  {
    std::lock_guard lock(mutex_);
    data.swap(data_);
  }
  if (data) data->Close(reason);
  if (!attached_endpoint_.empty()) Log("detached from " + attached_endpoint_ + ": " + reason);
  attached_endpoint_.clear();
  ++data_generation_;  // events the old connection still queued are ignored
  next_attach_ = Clock::now() + settings_.retry_period;
  if (run_.active) {
    protocol::RunEndMessage end;
    end.scenario_number = run_.start.scenario_number;
    end.reason = "data connection lost: " + reason;
    EndRun(std::move(end), true, !shutting_down);
  }
}

void VehicleNode::CheckRunEndWait() {
  if (!run_.active || !run_.disabled || Clock::now() < run_.end_deadline) return;
  protocol::RunEndMessage end;
  end.scenario_number = run_.start.scenario_number;
  end.reason = run_.preempted ? "preempted (VehicleStatus)" : "";
  Log("no RunEnd after VehicleStatus {enabled: false}; ending the run without it");
  EndRun(std::move(end), run_.preempted, true);
}

void VehicleNode::HandleData(protocol::Message& message) {
  if (message.type == protocol::RunStartRequest::kType) {
    HandleRunStart(message);
  } else if (message.type == protocol::StepRequest::kType) {
    HandleStep(message);
  } else if (message.type == protocol::VehicleStatus::kType) {
    HandleVehicleStatus(message);
  } else if (message.type == protocol::RunEndMessage::kType) {
    HandleRunEnd(message);
  }
}

void VehicleNode::HandleRunStart(const protocol::Message& message) {
  const std::shared_ptr<protocol::Connection> data = DataConnection();
  if (!data) return;
  RunStart start;
  try {
    start = protocol::DecodeMessage<RunStart>(message.message);
  } catch (const std::exception& error) {
    data->ReplyError(message.reference, std::string("RunStart: ") + error.what());
    return;
  }
  if (run_.active) {
    protocol::RunEndMessage end;
    end.scenario_number = run_.start.scenario_number;
    end.reason = "a new RunStart arrived before the run ended";
    EndRun(std::move(end), true, false);
  }
  run_ = RunState{};
  run_.active = true;
  run_.start = std::move(start);
  {
    std::lock_guard lock(mutex_);
    scenario_number_ = run_.start.scenario_number;
    run_preempted_ = false;
  }
  Log("run of scenario " + std::to_string(run_.start.scenario_number) + " starts (" +
      (run_.start.sync ? "lock-step" : "asynchronous") + ")");
  try {
    OnRunStart(run_.start);
  } catch (const std::exception& error) {
    Log(std::string("OnRunStart failed: ") + error.what());
    data->ReplyError(message.reference, std::string("OnRunStart failed: ") + error.what());
    return;
  }
  data->Reply(message, protocol::RunStartResponse{true});
  // Lock-step: until the run ends this thread reads the data connection itself.
  if (run_.start.sync && settings_.read_steps_on_run_thread && !taken_) taken_ = io_->Take();
}

void VehicleNode::HandleStep(protocol::Message& message) {
  const std::shared_ptr<protocol::Connection> data = DataConnection();
  if (!data) return;
  const bool reply = !run_.active || run_.start.sync;
  protocol::StepRequest request;
  try {
    request = protocol::DecodeMessage<protocol::StepRequest>(message.message);
  } catch (const std::exception& error) {
    if (reply) data->ReplyError(message.reference, std::string("Step: ") + error.what());
    return;
  }
  if (!run_.active) {
    data->Reply(message, protocol::StepResponse{});
    return;
  }
  const uint32_t tick = request.tick;
  std::optional<Control> control;
  try {
    control = OnStep(Step(std::move(request), std::move(message.attachment)));
  } catch (const std::exception& error) {
    const std::string description = "Step " + std::to_string(tick) + ": " + error.what();
    Log(description);
    if (reply) data->ReplyError(message.reference, description);
    return;
  }
  if (reply) {
    data->Reply(message, ToResponse(control));
  } else if (control) {
    data->Send(std::string(protocol::StepResponse::kAsyncType), ToResponse(control));
  }
}

void VehicleNode::HandleVehicleStatus(const protocol::Message& message) {
  protocol::VehicleStatus status;
  try {
    status = protocol::DecodeMessage<protocol::VehicleStatus>(message.message);
  } catch (const std::exception& error) {
    Log(std::string("ignoring a malformed VehicleStatus: ") + error.what());
    return;
  }
  if (status.enabled || !run_.active) return;
  run_.disabled = true;
  run_.preempted = run_.preempted || status.preempted;
  run_.end_deadline = Clock::now() + kRunEndWait;
}

void VehicleNode::HandleRunEnd(const protocol::Message& message) {
  protocol::RunEndMessage end;
  try {
    end = protocol::DecodeMessage<protocol::RunEndMessage>(message.message);
  } catch (const std::exception& error) {
    Log(std::string("ignoring a malformed RunEnd: ") + error.what());
    return;
  }
  if (!run_.active) {
    // A run preempted before it started (another node did not attach in time): no RunStart
    // came, but the node must still be ready for the scenario again. Otherwise a late RunEnd
    // of a run that already ended.
    if (end.preempted && end.scenario_number != 0) {
      Log("scenario " + std::to_string(end.scenario_number) +
          " preempted before its run started: " + end.reason);
      {
        std::lock_guard lock(mutex_);
        scenario_number_ = end.scenario_number;
        run_preempted_ = true;
      }
      NotifyReady(end.scenario_number, {});
    }
    return;
  }
  const bool preempted = end.preempted || run_.preempted;
  EndRun(std::move(end), preempted, true);
}

void VehicleNode::EndRun(protocol::RunEndMessage message, bool preempted, bool notify) {
  run_.active = false;
  taken_.reset();  // the io thread reads again: OnRunEnd may upload files and wait for replies
  {
    std::lock_guard lock(mutex_);
    run_preempted_ = preempted;
  }
  RunEnd end{std::move(message), save_dir_, save_minimal_};
  if (end.message.scenario_number == 0) end.message.scenario_number = run_.start.scenario_number;
  end.message.preempted = preempted;
  const uint32_t scenario_number = run_.start.scenario_number;
  Log("run of scenario " + std::to_string(scenario_number) + " ended: " +
      (preempted ? "preempted " + end.message.reason : end.message.termination_reason_name));
  RerunDecision decision;
  try {
    decision = OnRunEnd(end, preempted);
  } catch (const std::exception& error) {
    Log(std::string("OnRunEnd failed: ") + error.what());
  }
  if (preempted) decision = {};
  try {
    OnReset();
  } catch (const std::exception& error) {
    Log(std::string("OnReset failed: ") + error.what());
  }
  if (notify) NotifyReady(scenario_number, decision);
}

}  // namespace asg::nodes
