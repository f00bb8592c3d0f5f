// The progress line: counts, rate and estimated time left.
#include "client/farm/progress.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "protocol/messages.h"

namespace asg::client {

namespace {

/// "REASON_VEHICLE_STUCK_TIMEOUT" -> "stuck_timeout".
std::string ShortReason(protocol::TerminationReason reason) {
  std::string name(protocol::TerminationReasonName(reason));
  for (const char* prefix : {"REASON_", "VEHICLE_"}) {
    const std::string text(prefix);
    if (name.rfind(text, 0) == 0) name.erase(0, text.size());
  }
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

std::string Duration(double seconds) {
  const long whole = static_cast<long>(seconds + 0.5);
  char text[32];
  if (whole >= 3600) {
    std::snprintf(text, sizeof text, "%ldh%02ldm", whole / 3600, (whole / 60) % 60);
  } else if (whole >= 60) {
    std::snprintf(text, sizeof text, "%ldm%02lds", whole / 60, whole % 60);
  } else {
    std::snprintf(text, sizeof text, "%lds", whole);
  }
  return text;
}

}  // namespace

Progress::Progress(size_t total, const ProgressSettings& settings, std::ostream& out)
    : total_(total),
      settings_(settings),
      out_(out),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {
  for (auto status : {results::ScenarioStatus::kDone, results::ScenarioStatus::kInvalid,
                      results::ScenarioStatus::kFailed}) {
    status_counts_[std::string(results::ScenarioStatusName(status))] = 0;
  }
}

void Progress::Add(const results::ScenarioResult& result) {
  ++finished_;
  ++status_counts_[std::string(results::ScenarioStatusName(result.status))];
  if (result.status == results::ScenarioStatus::kDone)
    ++reason_counts_[ShortReason(result.termination_reason)];
  if (result.status == results::ScenarioStatus::kDone && result.regret.computed) {
    const double regret = result.regret.regret;
    best_regret_ = with_regret_ == 0 ? regret : std::max(best_regret_, regret);
    ++with_regret_;
    for (size_t i = 0; i < std::size(kRegretThresholds); ++i) {
      if (regret >= kRegretThresholds[i]) ++above_[i];
    }
  }
}

void Progress::CountPrevious(const results::ScenarioResult& result) { Add(result); }

void Progress::Count(const results::ScenarioResult& result) {
  Add(result);
  ++finished_this_run_;
}

std::string Progress::Line(std::chrono::steady_clock::time_point now) const {
  const int digits = static_cast<int>(std::to_string(total_).size());
  char head[64];
  std::snprintf(head, sizeof head, "[%*zu/%zu]", digits, finished_, total_);
  std::string line = head;
  const auto append_count = [&line](const std::string& name, size_t count) {
    line.append(" ").append(name).append(" ").append(std::to_string(count));
  };
  for (const char* status : {"done", "invalid", "failed"}) {
    append_count(status, status_counts_.at(status));
  }
  if (!reason_counts_.empty()) {
    line += " |";
    for (const auto& [reason, count] : reason_counts_) append_count(reason, count);
  }
  if (settings_.show_regret) {
    char best[48];
    if (with_regret_ > 0) {
      std::snprintf(best, sizeof best, " | regret best %.3f", best_regret_);
    } else {
      std::snprintf(best, sizeof best, " | regret best -");
    }
    line += best;
    for (size_t i = 0; i < std::size(kRegretThresholds); ++i) {
      char count[48];
      std::snprintf(count, sizeof count, " >=%g %zu", kRegretThresholds[i], above_[i]);
      line += count;
    }
  }
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0.0 ? static_cast<double>(finished_this_run_) / elapsed : 0.0;
  char tail[64];
  std::snprintf(tail, sizeof tail, " | %.1f/s", rate);
  line += tail;
  if (finished_ < total_) {
    line += rate > 0.0 ? " ETA " + Duration(static_cast<double>(total_ - finished_) / rate)
                       : std::string(" ETA ?");
  } else {
    line += " in " + Duration(elapsed);
  }
  if (!workers_.empty()) line += " | " + workers_;
  if (!status_.empty()) line += " | " + status_;
  return line;
}

void Progress::Update(std::chrono::steady_clock::time_point now, bool force) {
  if (!settings_.enabled) return;
  const auto period = settings_.live ? settings_.live_period : settings_.plain_period;
  if (!force && now - last_print_ < period) return;
  last_print_ = now;
  const std::string line = Line(now);
  if (settings_.live) {
    // Pad over the end of a longer previous line.
    const size_t pad = last_width_ > line.size() ? last_width_ - line.size() : 0;
    out_ << '\r' << line << std::string(pad, ' ') << std::flush;
    last_width_ = line.size();
  } else {
    out_ << line << '\n' << std::flush;
  }
}

void Progress::Note(const std::string& message) {
  if (settings_.live && settings_.enabled && last_width_ > 0) {
    out_ << '\r' << std::string(last_width_, ' ') << '\r';
    last_width_ = 0;
    last_print_ = {};  // draw the live line again at the next Update
  }
  out_ << message << '\n' << std::flush;
}

void Progress::Finish(std::chrono::steady_clock::time_point now) {
  if (!settings_.enabled) return;
  Update(now, true);
  if (settings_.live) out_ << '\n' << std::flush;
}

}  // namespace asg::client
