// The farm loop's events, processes, scheduler actions and assignments. The loop's side of the
// vehicle nodes (node requests, preempted runs, reruns) is in farm_nodes.cpp.
#include "client/farm/farm_loop.h"

#include <optional>
#include <variant>

#include "core/log_clip.h"

namespace asg::client {

namespace {

/// How long the loop waits for events before checking processes and deadlines.
constexpr std::chrono::milliseconds kTick{50};
/// How long the loop waits for events while the feed prepares scenarios beside it.
constexpr std::chrono::milliseconds kFeedTick{2};
/// How long the farm waits, after the last result, for the nodes to say they are ready.
constexpr std::chrono::milliseconds kLastReadyWait{10'000};
/// How long a local worker whose connection closed may take to exit before it is killed.
constexpr std::chrono::milliseconds kExitAfterClose{2000};

}  // namespace

FarmLoop::FarmLoop(const FarmLoopContext& context)
    : context_(context), book_(context.records->book()) {}

void FarmLoop::Run() {
  context_.launcher->Start();
  PollLauncher(SteadyClock::now());
  // Once every scenario is recorded, the loop still waits (at most kLastReadyWait) for the
  // nodes' NotifyReady after their last run, which may ask for a rerun; then the next stage may
  // queue more (the reproduction runs), and the loop goes on with them.
  std::optional<SteadyClock::time_point> drained_at;
  while (!interrupted_ && breakdown_.empty()) {
    const bool feeding = context_.feed != nullptr && context_.feed->Busy();
    if (!WorkRemains()) {
      const auto now = SteadyClock::now();
      if (!drained_at) drained_at = now;
      if (context_.nodes == nullptr || !context_.nodes->registry().AwaitingReady() ||
          now - *drained_at > kLastReadyWait) {
        if (!NextStage()) break;
        drained_at.reset();
      }
    } else {
      drained_at.reset();
    }
    // While the feed works beside the loop, the loop looks for its scenarios more often.
    std::vector<FarmEvent> events = context_.events->WaitAll(feeding ? kFeedTick : kTick);
    const auto now = SteadyClock::now();
    for (FarmEvent& event : events) Handle(event, now);
    if (interrupted_) break;
    TakeFed();
    if (StopOnWriteFailure()) break;
    PollLauncher(now);
    if (!breakdown_.empty()) break;
    KillSilentProcesses(now);
    for (const SchedulerAction& action : book_.Poll(now)) Apply(action, now);
    AssignIdleWorkers(now);
    CheckNodeWait(now);
    if (context_.nodes != nullptr) context_.nodes->PublishIfChanged();
    context_.progress->Update(now);
  }
}

void FarmLoop::CloseAll(const std::string& reason) {
  for (auto& [key, link] : links_) link.channel->Close(reason);
  if (context_.nodes != nullptr) context_.nodes->CloseAll(reason);
}

void FarmLoop::TakeFed() {
  if (context_.feed == nullptr) return;
  for (PlannedScenario& planned : context_.feed->Take(false)) {
    context_.records->Admit(std::move(planned));
  }
}

bool FarmLoop::StopOnWriteFailure() {
  context_.records->TakeWritten();
  const std::string error = context_.records->WriteError();
  if (error.empty()) return false;
  breakdown_ = "writing results failed: " + error;
  book_.Stop();
  context_.logger->Error(breakdown_ + "; no more scenarios are handed out");
  context_.progress->Note("error: " + breakdown_ + "; no more scenarios are handed out");
  return true;
}

bool FarmLoop::NextStage() {
  if (!context_.next_stage) return false;
  context_.next_stage();
  return WorkRemains();
}

bool FarmLoop::WorkRemains() const {
  return !book_.scheduler().Drained() || (context_.feed != nullptr && context_.feed->Busy());
}

bool FarmLoop::Idle(const Link& link) {
  return !link.dropped && !link.closed_at && link.channel->IsOpen() &&
         link.status == protocol::StatusCode::ONLINE_AND_READY;
}

void FarmLoop::Handle(FarmEvent& event, SteadyClock::time_point now) {
  std::visit([&](auto& payload) { On(event.worker, payload, now); }, event.payload);
}

void FarmLoop::On(WorkerKey, farm_event::Signal& event, SteadyClock::time_point) {
  context_.logger->Warning("signal " + std::to_string(event.signal_number) +
                           ": stopping; scenarios in flight are abandoned");
  interrupted_ = true;
  book_.Stop();
}

void FarmLoop::On(WorkerKey key, farm_event::Registered& event, SteadyClock::time_point) {
  Link link;
  link.channel = std::move(event.channel);
  const WorkerIdentity& worker = link.channel->identity();
  link.watched = context_.launcher->Claim(key, worker.worker_id, worker.pid, worker.peer);
  if (context_.nodes != nullptr) {
    context_.nodes->registry().AddWorker(worker.worker_id, worker.data_endpoint);
  }
  links_[key] = std::move(link);
  context_.logger->Info(WorkerName(key) + " connected from " + worker.peer);
}

void FarmLoop::On(WorkerKey key, farm_event::Status& event, SteadyClock::time_point) {
  const auto it = links_.find(key);
  if (it == links_.end()) return;  // a worker already given up
  it->second.status = event.status;
  if (event.status != protocol::StatusCode::ONLINE_AND_RUNNING) return;
  book_.MarkStarted(key);
  if (const auto number = book_.scheduler().AssignedTo(key)) {
    context_.logger->Info("scenario " + std::to_string(*number) + " started on " + WorkerName(key));
  }
}

void FarmLoop::On(WorkerKey key, farm_event::RunRefused& event, SteadyClock::time_point) {
  if (!links_.contains(key)) return;
  context_.logger->Warning(WorkerName(key) + " did not accept scenario " +
                           std::to_string(event.scenario_number) + ": " +
                           core::ClipForLog(event.reason, core::kLogMessageBytes));
}

void FarmLoop::On(WorkerKey key, farm_event::Result& event, SteadyClock::time_point now) {
  const auto it = links_.find(key);
  if (it == links_.end()) return;
  WorkerChannel& channel = *it->second.channel;
  if (!event.error.empty()) {
    context_.logger->Warning("refused a malformed AnalyzeScenario from " + WorkerName(key) + ": " +
                             core::ClipForLog(event.error, core::kLogMessageBytes));
    channel.Refuse(event.request, event.error);
    if (book_.scheduler().AssignedTo(key)) {
      Apply(book_.Resubmit(key, now, "malformed AnalyzeScenario: " + event.error), now);
    }
    return;
  }
  const auto reported = static_cast<uint32_t>(event.analysis.scenario_number);
  switch (book_.Check(key, reported)) {
    case Scheduler::Verdict::kAccepted: {
      channel.Accept(event.request);
      // An invalid run (empty trajectory, sim time past the timeout) runs again, a few times.
      const std::string invalid = InvalidRunRule(book_.planned(reported).request, event.analysis);
      const std::optional<AttemptEnd> end = EndAttempt(
          key, invalid.empty() ? AttemptOutcome::kDone : AttemptOutcome::kInvalidRun, invalid, now);
      // A worker whose report is accepted is ready (its ONLINE_AND_READY follows): it gets its
      // next scenario now, before this one is recorded, instead of a round trip later.
      it->second.status = protocol::StatusCode::ONLINE_AND_READY;
      AssignIfIdle(key, it->second, now);
      if (end->next == AfterAttempt::kQueued && !invalid.empty()) {
        context_.logger->Warning("scenario " + std::to_string(reported) + " invalid run on " +
                                 WorkerName(key) + " (" + invalid + "): queued again");
        return;
      }
      context_.records->RecordDone(*end, std::move(event.analysis), std::move(event.captures));
      return;
    }
    case Scheduler::Verdict::kMismatch: {
      const uint32_t given = *book_.scheduler().AssignedTo(key);
      const std::string reason = "AnalyzeScenario for scenario " + std::to_string(reported) +
                                 " but " + WorkerName(key) + " was given scenario " +
                                 std::to_string(given);
      context_.logger->Warning("refused " + reason);
      channel.Refuse(event.request, reason);
      Apply(book_.Resubmit(key, now, reason), now);
      return;
    }
    case Scheduler::Verdict::kUnexpected:
      channel.Refuse(event.request, "no scenario is assigned to this worker");
      return;
  }
}

void FarmLoop::On(WorkerKey key, farm_event::Issue& event, SteadyClock::time_point now) {
  if (!links_.contains(key)) return;
  const auto number = book_.scheduler().AssignedTo(key);
  if (event.issue.issue_id !=
          protocol::WorkerIssueNotificationRequest::ISSUE_PROBLEM_CREATING_SCENE ||
      !number) {
    context_.logger->Warning(WorkerName(key) + " reports issue " +
                             std::to_string(event.issue.issue_id) + ": " +
                             core::ClipForLog(event.issue.message, core::kLogMessageBytes));
    return;
  }
  // The scenario itself is bad: it is recorded invalid and not retried.
  context_.logger->Warning(
      "scenario " + std::to_string(*number) + " invalid: " + WorkerName(key) +
      " cannot create the scene: " + core::ClipForLog(event.issue.message, core::kLogMessageBytes));
  EndAttempt(key, AttemptOutcome::kInvalidScene, event.issue.message, now);
  context_.records->RecordUnrunnable(*number, results::ScenarioStatus::kInvalid,
                                     event.issue.message);
}

void FarmLoop::On(WorkerKey key, farm_event::Closed& event, SteadyClock::time_point now) {
  const auto it = links_.find(key);
  if (it == links_.end()) return;
  if (it->second.watched) {
    // The process's exit (or its kill after kExitAfterClose) tells what happened.
    it->second.closed_at = now;
    return;
  }
  const std::string what = "connection to " + WorkerName(key) + " closed: " + event.reason;
  context_.logger->Warning(what);
  LoseWorker(key, AttemptOutcome::kWorkerLost, what, now);
  links_.erase(key);
}

void FarmLoop::PollLauncher(SteadyClock::time_point now) {
  LauncherTick tick;
  tick.now = now;
  tick.work_remains = !interrupted_ && WorkRemains();
  tick.connected = links_.size();
  tick.remaining = book_.scheduler().queued() + book_.scheduler().in_flight();
  LauncherReport report = context_.launcher->Poll(tick);
  if (context_.nodes != nullptr) {
    for (const uint16_t worker_id : report.started) {
      context_.nodes->registry().AddWorker(worker_id, "");
    }
  }
  for (const WorkerGone& gone : report.gone) {
    if (!gone.key) {
      context_.logger->Error(gone.description + " before registering");
      continue;
    }
    const auto number = book_.scheduler().AssignedTo(*gone.key);
    const std::string what =
        gone.description + (number ? " during scenario " + std::to_string(*number) : "");
    context_.logger->Warning(what);
    context_.progress->Note("warning: " + what);
    LoseWorker(*gone.key, AttemptOutcome::kWorkerLost, what, now);
    const auto link = links_.find(*gone.key);
    if (link != links_.end()) {
      link->second.channel->Close("worker process ended");
      links_.erase(link);
    }
  }
  if (!report.breakdown.empty() && breakdown_.empty()) breakdown_ = report.breakdown;
  context_.progress->SetWorkers(context_.launcher->Status());
}

void FarmLoop::KillSilentProcesses(SteadyClock::time_point now) {
  for (const auto& [key, link] : links_) {
    if (link.watched && link.closed_at && now - *link.closed_at >= kExitAfterClose) {
      context_.launcher->End(key, link.channel->identity().worker_id);
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
  LoseWorker(action.worker, action.outcome, action.reason, now);
  link.dropped = true;
  context_.launcher->End(action.worker, link.channel->identity().worker_id);
  if (!link.watched) {
    link.channel->Close("dropped: " + action.reason);
    links_.erase(it);
  }
}

void FarmLoop::AssignIdleWorkers(SteadyClock::time_point now) {
  for (auto& [key, link] : links_) AssignIfIdle(key, link, now);
}

void FarmLoop::AssignIfIdle(WorkerKey key, const Link& link, SteadyClock::time_point now) {
  if (!Idle(link)) return;
  const uint16_t worker_id = link.channel->identity().worker_id;
  // The ready gate: every vehicle node of the worker is ready for its next scenario.
  if (context_.nodes != nullptr &&
      (!context_.nodes->registry().GateOpen(worker_id) || book_.scheduler().AssignedTo(key))) {
    return;
  }
  const auto number = book_.Assign(key, worker_id, now);
  if (!number) return;
  if (context_.nodes != nullptr) {
    context_.nodes->registry().StartScenario(worker_id, *number);
    // The nodes learn of the scenario (ok_to_run) before its RunStart can reach them.
    context_.nodes->PublishIfChanged();
  }
  context_.logger->Info("scenario " + std::to_string(*number) + " sent to " + WorkerName(key));
  Send(key, *number);
}

void FarmLoop::CheckNodeWait(SteadyClock::time_point now) {
  if (context_.nodes == nullptr) return;
  const Scheduler& scheduler = book_.scheduler();
  std::string waiting;  // "worker 1 (0 of 1 registered), worker 2 (...)"
  if (scheduler.queued() > 0 && scheduler.in_flight() == 0) {
    const NodeRegistry& registry = context_.nodes->registry();
    const uint32_t count = context_.vehicle_nodes->spec.count;
    for (const auto& [key, link] : links_) {
      const uint16_t worker_id = link.channel->identity().worker_id;
      if (!Idle(link) || registry.GateOpen(worker_id)) continue;
      const size_t registered = registry.NodeCount(worker_id);
      waiting += (waiting.empty() ? "" : ", ") + std::string("worker ") +
                 std::to_string(worker_id) + " (" + std::to_string(registered) + " of " +
                 std::to_string(count) + " registered" +
                 (registered == count ? ", not all ready" : "") + ")";
    }
  }
  if (waiting.empty()) {
    if (node_wait_since_) context_.progress->SetStatus("");
    node_wait_since_.reset();
    return;
  }
  if (!node_wait_since_) node_wait_since_ = now;
  const double limit = context_.vehicle_nodes->ready_timeout;
  const double waited = std::chrono::duration<double>(now - *node_wait_since_).count();
  context_.progress->SetStatus("waiting for vehicle nodes: " + waiting + " " +
                               std::to_string(static_cast<int>(waited)) + "/" + NumberText(limit) +
                               " s");
  if (waited < limit) return;
  const std::string reason = "no vehicle nodes ready within vehicle_nodes.ready_timeout " +
                             NumberText(limit) + " s: " + waiting;
  const std::vector<uint32_t> abandoned = book_.TakeQueued();
  context_.logger->Error(reason + "; " + std::to_string(abandoned.size()) +
                         " waiting scenarios recorded as failed");
  context_.progress->SetStatus("");
  context_.progress->Note("error: " + reason + "; " + std::to_string(abandoned.size()) +
                          " waiting scenarios recorded as failed");
  for (const uint32_t number : abandoned) {
    context_.records->RecordUnrunnable(number, results::ScenarioStatus::kFailed, reason);
  }
  node_wait_since_.reset();
}

void FarmLoop::Send(WorkerKey key, uint32_t scenario_number) {
  links_.at(key).channel->SendRun(scenario_number, book_.planned(scenario_number).request_json);
}

void FarmLoop::LoseWorker(WorkerKey key, AttemptOutcome outcome, const std::string& reason,
                          SteadyClock::time_point now) {
  const std::optional<AttemptEnd> end = EndAttempt(key, outcome, reason, now);
  if (!end) return;
  const std::string scenario = "scenario " + std::to_string(end->scenario_number);
  const uint32_t failed = book_.state(end->scenario_number).FailedAttempts();
  if (end->next == AfterAttempt::kQueued) {
    context_.logger->Warning(scenario + " queued again after " + std::to_string(failed) +
                             " failed attempt(s): " + reason);
    context_.progress->Note("warning: " + scenario + " queued again after " +
                            std::to_string(failed) + " failed attempt(s): " + reason);
    return;
  }
  context_.logger->Error(scenario + " failed after " + std::to_string(failed) +
                         " failed attempts: " + reason);
  context_.progress->Note("error: " + scenario + " failed after " + std::to_string(failed) +
                          " failed attempts: " + reason);
  context_.records->RecordUnrunnable(end->scenario_number, results::ScenarioStatus::kFailed,
                                     reason);
}

std::optional<AttemptEnd> FarmLoop::EndAttempt(WorkerKey key, AttemptOutcome outcome,
                                               std::string detail, SteadyClock::time_point now) {
  std::optional<AttemptEnd> end = book_.EndAttempt(key, outcome, std::move(detail), now);
  const auto it = links_.find(key);
  if (end && it != links_.end() && context_.nodes != nullptr) {
    context_.nodes->registry().EndScenario(it->second.channel->identity().worker_id);
  }
  return end;
}

std::string FarmLoop::WorkerName(WorkerKey key) const {
  const auto it = links_.find(key);
  if (it == links_.end()) return "connection " + std::to_string(key);
  const WorkerIdentity& worker = it->second.channel->identity();
  return "worker " + std::to_string(worker.worker_id) + " (pid " + std::to_string(worker.pid) + ")";
}

}  // namespace asg::client
