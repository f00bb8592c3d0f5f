// The farm loop's events, processes, scheduler actions and assignments. Recording results is in
// farm_records.cpp.
#include "client/farm_loop.h"

#include <optional>

#include "protocol/messages_json.h"

namespace asg::client {

namespace {

using Kind = FarmEvent::Kind;

/// How long the loop waits for events before checking processes and deadlines.
constexpr std::chrono::milliseconds kTick{50};
/// How long the farm waits, after the last result, for the nodes to say they are ready.
constexpr std::chrono::milliseconds kLastReadyWait{10'000};
/// How long a local worker whose connection closed may take to exit before it is killed.
constexpr std::chrono::milliseconds kExitAfterClose{2000};
/// How long a RunScenario may wait for its RunScenarioResponse.
constexpr std::chrono::milliseconds kRunReplyTimeout{10'000};
/// Consecutive local workers ending before they register after which the farm gives up.
constexpr uint32_t kMaxEarlyExits = 5;

SchedulerSettings MakeSchedulerSettings(const Batch& batch, const FarmSettings& settings) {
  SchedulerSettings scheduler;
  scheduler.max_attempts = batch.settings.max_attempts;
  scheduler.scenario_timeout = std::chrono::milliseconds(
      static_cast<int64_t>(batch.settings.scenario_timeout_s * 1000.0 + 0.5));
  scheduler.start_timeout = settings.start_timeout;
  return scheduler;
}

}  // namespace

FarmLoop::FarmLoop(const FarmLoopContext& context, const std::vector<uint32_t>& scenario_numbers)
    : context_(context),
      scheduler_(MakeSchedulerSettings(*context.batch, *context.settings), scenario_numbers) {}

void FarmLoop::Run() {
  for (uint32_t id = 1; id <= context_.settings->workers; ++id) {
    Launch(static_cast<uint8_t>(id), true);
  }
  // Once every scenario is recorded, the loop still waits (at most kLastReadyWait) for the
  // nodes' NotifyReady after their last run, which may ask for a rerun.
  std::optional<SteadyClock::time_point> drained_at;
  while (!interrupted_ && breakdown_.empty()) {
    if (scheduler_.Drained()) {
      const auto now = SteadyClock::now();
      if (!drained_at) drained_at = now;
      if (context_.nodes == nullptr || !context_.nodes->registry().AwaitingReady() ||
          now - *drained_at > kLastReadyWait) {
        break;
      }
    } else {
      drained_at.reset();
    }
    std::vector<FarmEvent> events = context_.events->WaitAll(kTick);
    const auto now = SteadyClock::now();
    for (FarmEvent& event : events) Handle(event, now);
    if (interrupted_) break;
    ReapProcesses();
    KillSilentProcesses(now);
    for (const SchedulerAction& action : scheduler_.Poll(now)) Apply(action, now);
    AssignIdleWorkers(now);
    if (context_.nodes != nullptr) context_.nodes->PublishIfChanged();
    context_.progress->Update(now);
  }
}

void FarmLoop::CloseAll(const std::string& reason) {
  for (auto& [key, link] : links_) link.connection->Close(reason);
  if (context_.nodes != nullptr) context_.nodes->CloseAll(reason);
}

void FarmLoop::Handle(FarmEvent& event, SteadyClock::time_point now) {
  if (event.kind == Kind::kSignal) {
    context_.logger->Warning("signal " + std::to_string(event.signal_number) +
                             ": stopping; scenarios in flight are abandoned");
    interrupted_ = true;
    scheduler_.Stop();
    return;
  }
  if (event.kind == Kind::kRegistered) {
    OnRegistered(event);
    return;
  }
  if (event.kind == Kind::kNode) {
    OnNode(event);
    return;
  }
  const auto it = links_.find(event.worker);
  if (it == links_.end()) return;  // a worker already given up
  switch (event.kind) {
    case Kind::kStatus:
      OnStatus(event);
      break;
    case Kind::kRunRefused:
      context_.logger->Warning(WorkerName(event.worker) + " did not accept scenario " +
                               std::to_string(event.scenario_number) + ": " + event.text);
      break;
    case Kind::kResult:
      OnResult(event, now);
      break;
    case Kind::kIssue:
      OnIssue(event, now);
      break;
    case Kind::kClosed:
      OnClosed(event, now);
      break;
    case Kind::kPreempted:
      OnPreempted(event, now);
      break;
    default:
      break;
  }
}

void FarmLoop::OnRegistered(FarmEvent& event) {
  Link link;
  link.connection = std::move(event.connection);
  link.worker_id = event.registration.worker_id;
  link.pid = event.registration.pid;
  const auto process = processes_.find(link.pid);
  // A pid of the pool counts only when the connection is loopback (a remote host's pids are
  // unrelated) and the process has no connection yet.
  const bool loopback =
      link.connection->peer().rfind("127.", 0) == 0 || link.connection->peer().rfind("::1", 0) == 0;
  if (process != processes_.end() && loopback && process->second.key == 0) {
    link.local = true;
    process->second.key = event.worker;
    early_exits_ = 0;
  }
  if (context_.nodes != nullptr) {
    context_.nodes->registry().AddWorker(link.worker_id, event.registration.data_endpoint);
  }
  links_[event.worker] = std::move(link);
  context_.logger->Info(WorkerName(event.worker) + " connected from " +
                        links_[event.worker].connection->peer());
}

void FarmLoop::OnStatus(const FarmEvent& event) {
  Link& link = links_.at(event.worker);
  link.status = event.status;
  if (event.status != protocol::StatusCode::ONLINE_AND_RUNNING) return;
  scheduler_.MarkStarted(event.worker);
  if (const auto number = scheduler_.AssignedTo(event.worker)) {
    context_.logger->Info("scenario " + std::to_string(*number) + " started on " +
                          WorkerName(event.worker));
  }
}

void FarmLoop::OnResult(FarmEvent& event, SteadyClock::time_point now) {
  Link& link = links_.at(event.worker);
  if (!event.text.empty()) {
    context_.logger->Warning("refused a malformed AnalyzeScenario from " +
                             WorkerName(event.worker) + ": " + event.text);
    link.connection->ReplyError(event.request.reference, "refused: " + event.text);
    if (scheduler_.AssignedTo(event.worker)) {
      Apply(scheduler_.Resubmit(event.worker, now, "malformed AnalyzeScenario: " + event.text),
            now);
    }
    return;
  }
  const uint32_t reported = event.analysis.scenario_number;
  switch (scheduler_.Finish(event.worker, reported)) {
    case Scheduler::Verdict::kAccepted:
      link.connection->Reply(event.request,
                             protocol::Json(protocol::AnalyzeScenarioResponse{true}));
      EndRun(event.worker);
      RecordDone(std::move(event.analysis), std::move(event.captures), link.worker_id, now);
      RerunIfAsked(reported);
      return;
    case Scheduler::Verdict::kMismatch: {
      const uint32_t given = *scheduler_.AssignedTo(event.worker);
      const std::string reason = "AnalyzeScenario for scenario " + std::to_string(reported) +
                                 " but " + WorkerName(event.worker) + " was given scenario " +
                                 std::to_string(given);
      context_.logger->Warning("refused " + reason);
      link.connection->ReplyError(event.request.reference, "refused: " + reason);
      Apply(scheduler_.Resubmit(event.worker, now, reason), now);
      return;
    }
    case Scheduler::Verdict::kUnexpected:
      link.connection->ReplyError(event.request.reference,
                                  "refused: no scenario is assigned to this worker");
      return;
  }
}

void FarmLoop::OnIssue(const FarmEvent& event, SteadyClock::time_point now) {
  const auto number = scheduler_.AssignedTo(event.worker);
  if (event.issue.issue_id !=
          protocol::WorkerIssueNotificationRequest::ISSUE_PROBLEM_CREATING_SCENE ||
      !number) {
    context_.logger->Warning(WorkerName(event.worker) + " reports issue " +
                             std::to_string(event.issue.issue_id) + ": " + event.issue.message);
    return;
  }
  // The scenario itself is bad: it is recorded invalid and not retried.
  scheduler_.Finish(event.worker, *number);
  EndRun(event.worker);
  pending_reruns_.erase(*number);
  const Link& link = links_.at(event.worker);
  context_.logger->Warning("scenario " + std::to_string(*number) +
                           " invalid: " + WorkerName(event.worker) +
                           " cannot create the scene: " + event.issue.message);
  RecordAttempt(*number, link.worker_id, AttemptSeconds(*number, now), "invalid scene");
  RecordUnrunnable(*number, ScenarioStatus::kInvalid, event.issue.message,
                   scheduler_.FailedAttempts(*number) + 1, link.worker_id);
}

void FarmLoop::OnClosed(const FarmEvent& event, SteadyClock::time_point now) {
  Link& link = links_.at(event.worker);
  if (link.local) {
    // The process's exit (or its kill after kExitAfterClose) tells what happened.
    link.closed_at = now;
    return;
  }
  LoseWorker(event.worker, "connection to " + WorkerName(event.worker) + " closed: " + event.text,
             now);
  links_.erase(event.worker);
}

void FarmLoop::ReapProcesses() {
  if (context_.pool == nullptr) return;
  const auto now = SteadyClock::now();
  for (const ExitedWorker& exited : context_.pool->Reap()) {
    const LocalProcess process = processes_.at(exited.pid);
    processes_.erase(exited.pid);
    const std::string who =
        "worker " + std::to_string(exited.worker_id) + " (pid " + std::to_string(exited.pid) + ")";
    if (process.key == 0) {
      ++early_exits_;
      context_.logger->Error(who + " " + exited.description + " before registering");
    } else {
      const auto number = scheduler_.AssignedTo(process.key);
      const std::string during =
          number ? " during scenario " + std::to_string(*number) : std::string();
      context_.logger->Warning(who + " " + exited.description + during);
      LoseWorker(process.key, who + " " + exited.description + during, now);
      const auto link = links_.find(process.key);
      if (link != links_.end()) {
        link->second.connection->Close("worker process ended");
        links_.erase(link);
      }
    }
    if (interrupted_ || scheduler_.Drained()) continue;
    if (early_exits_ >= kMaxEarlyExits) {
      breakdown_ = std::to_string(early_exits_) +
                   " worker processes in a row ended before registering; see the worker logs "
                   "in " +
                   (context_.settings->out_dir / "logs").string();
      return;
    }
    Launch(exited.worker_id, false);
  }
}

void FarmLoop::KillSilentProcesses(SteadyClock::time_point now) {
  for (const auto& [key, link] : links_) {
    if (link.local && link.closed_at && now - *link.closed_at >= kExitAfterClose) {
      context_.pool->Kill(link.pid);
    }
  }
}

void FarmLoop::Apply(const SchedulerAction& action, SteadyClock::time_point now) {
  const auto it = links_.find(action.worker);
  if (it == links_.end()) return;
  Link& link = it->second;
  if (action.kind == SchedulerAction::Kind::kResubmit) {
    context_.logger->Warning("resubmitting scenario " + std::to_string(action.scenario_number) +
                             " to " + WorkerName(action.worker) + ": " + action.reason);
    Send(action.worker, action.scenario_number);
    return;
  }
  context_.logger->Warning("dropping " + WorkerName(action.worker) + ": " + action.reason);
  LoseWorker(action.worker, action.reason, now);
  link.dropped = true;
  if (link.local) {
    context_.pool->Kill(link.pid);
  } else {
    link.connection->Close("dropped: " + action.reason);
    links_.erase(it);
  }
}

void FarmLoop::AssignIdleWorkers(SteadyClock::time_point now) {
  for (auto& [key, link] : links_) {
    if (link.dropped || link.closed_at || !link.connection->IsOpen() ||
        link.status != protocol::StatusCode::ONLINE_AND_READY) {
      continue;
    }
    // The ready gate: every vehicle node of the worker is ready for its next scenario.
    if (context_.nodes != nullptr &&
        (!context_.nodes->registry().GateOpen(link.worker_id) || scheduler_.AssignedTo(key))) {
      continue;
    }
    const auto number = scheduler_.Assign(key, now);
    if (!number) continue;
    if (context_.nodes != nullptr)
      context_.nodes->registry().StartScenario(link.worker_id, *number);
    attempt_start_[*number] = now;
    context_.logger->Info("scenario " + std::to_string(*number) + " sent to " + WorkerName(key));
    Send(key, *number);
  }
}

void FarmLoop::Send(WorkerKey key, uint32_t scenario_number) {
  const PlannedScenario* planned = context_.batch->Find(scenario_number);
  EventQueue* events = context_.events;
  links_.at(key).connection->AsyncRequest(
      "RunScenario", planned->request_json, {}, kRunReplyTimeout,
      [events, key, scenario_number](protocol::RequestResult result) {
        if (result.success) return;
        FarmEvent event;
        event.kind = Kind::kRunRefused;
        event.worker = key;
        event.scenario_number = scenario_number;
        event.text = result.description;
        events->Push(std::move(event));
      });
}

void FarmLoop::Launch(uint8_t worker_id, bool first_launch) {
  if (context_.pool == nullptr) return;
  const int64_t pid =
      context_.pool->Launch(worker_id, first_launch ? context_.settings->first_launch_arguments
                                                    : std::vector<std::string>{});
  processes_[pid] = LocalProcess{worker_id, 0};
  if (context_.nodes != nullptr) context_.nodes->registry().AddWorker(worker_id, "");
  context_.logger->Info("launched worker " + std::to_string(worker_id) + " (pid " +
                        std::to_string(pid) + ")");
}

void FarmLoop::LoseWorker(WorkerKey key, const std::string& reason, SteadyClock::time_point now) {
  const auto number = scheduler_.AssignedTo(key);
  if (!number) return;
  const auto link = links_.find(key);
  const int32_t worker_id = link != links_.end() ? link->second.worker_id : -1;
  RecordAttempt(*number, worker_id, AttemptSeconds(*number, now), reason);
  EndRun(key);
  const auto failure = scheduler_.ReleaseWorker(key, reason);
  if (!failure) {
    context_.logger->Warning("scenario " + std::to_string(*number) + " queued again after " +
                             std::to_string(scheduler_.FailedAttempts(*number)) +
                             " failed attempt(s)");
    return;
  }
  context_.logger->Error("scenario " + std::to_string(*number) + " failed after " +
                         std::to_string(failure->attempts) + " attempts: " + failure->reason);
  pending_reruns_.erase(*number);
  RecordUnrunnable(*number, ScenarioStatus::kFailed, failure->reason, failure->attempts, worker_id);
}

std::string FarmLoop::WorkerName(WorkerKey key) const {
  const auto it = links_.find(key);
  if (it == links_.end()) return "connection " + std::to_string(key);
  return "worker " + std::to_string(it->second.worker_id) + " (pid " +
         std::to_string(it->second.pid) + ")";
}

}  // namespace asg::client
