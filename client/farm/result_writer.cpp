// The writer thread: takes records in order and writes each scenario folder atomically.
#include "client/farm/result_writer.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "results/files.h"

namespace asg::client {

ResultWriter::ResultWriter(std::filesystem::path batch_dir, NodeFileStore* node_files,
                           StageHook stage_hook)
    : batch_dir_(std::move(batch_dir)),
      node_files_(node_files),
      stage_hook_(std::move(stage_hook)),
      thread_([this] { Loop(); }) {}

ResultWriter::~ResultWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ResultWriter::Submit(results::ScenarioRecord record, std::filesystem::path folder) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(record), std::move(folder)});
  }
  changed_.notify_all();
}

void ResultWriter::Drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

std::string ResultWriter::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

std::vector<results::ScenarioOutcome> ResultWriter::TakeWritten() {
  std::lock_guard lock(mutex_);
  return std::exchange(written_, {});
}

void ResultWriter::Loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;
    if (!error_.empty()) {
      // After a failure nothing more is written (see result_writer.h).
      queue_.clear();
      changed_.notify_all();
      continue;
    }
    // Group commit: everything queued now is staged, made durable by one syncfs, then renamed
    // into place, with one fsync of the batch folder for the group.
    std::vector<Entry> group;
    while (!queue_.empty() && group.size() < kMaxGroup) {
      group.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    busy_ = true;
    lock.unlock();
    const std::string failure = WriteGroup(group);
    lock.lock();
    busy_ = false;
    if (!failure.empty() && error_.empty()) error_ = failure;
    changed_.notify_all();
  }
}

std::string ResultWriter::WriteGroup(const std::vector<Entry>& group) {
  std::string failure;
  // A scenario written twice in one group (a rerun that finished quickly) is written once, as
  // its latest record: both would be staged in the same folder.
  std::map<uint32_t, const Entry*> latest;
  for (const Entry& entry : group) latest[entry.record.result.scenario_number] = &entry;
  std::vector<const Entry*> to_stage;
  for (const Entry& entry : group) {
    if (latest.at(entry.record.result.scenario_number) == &entry) to_stage.push_back(&entry);
  }
  // Staging is file creation, mostly kernel time: with enough records, a second thread stages
  // the second half meanwhile. Each record has its own staging folder, beside its final one.
  std::vector<std::filesystem::path> folders(to_stage.size());
  std::vector<std::string> errors(to_stage.size());
  const auto stage = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const Entry& entry = *to_stage[i];
      try {
        folders[i] = results::StageScenarioFolder(
            entry.folder.empty() ? batch_dir_ : entry.folder.parent_path(), entry.record);
        if (stage_hook_) stage_hook_(entry.record, folders[i]);
      } catch (const std::exception& error) {
        errors[i] =
            "scenario " + std::to_string(entry.record.result.scenario_number) + ": " + error.what();
        std::error_code ignored;  // a folder staged before the hook failed does not stay
        if (!folders[i].empty()) std::filesystem::remove_all(folders[i], ignored);
      }
    }
  };
  if (to_stage.size() >= kParallelStaging) {
    const size_t half = to_stage.size() / 2;
    std::thread helper(stage, half, to_stage.size());
    stage(0, half);
    helper.join();
  } else {
    stage(0, to_stage.size());
  }
  std::vector<std::pair<const Entry*, std::filesystem::path>> staged;
  for (size_t i = 0; i < to_stage.size(); ++i) {
    if (errors[i].empty()) {
      staged.emplace_back(to_stage[i], folders[i]);
    } else if (failure.empty()) {
      failure = errors[i];
    }
  }
  const std::string publish_failure = PublishGroup(staged);
  return failure.empty() ? publish_failure : failure;
}

std::string ResultWriter::PublishGroup(
    const std::vector<std::pair<const Entry*, std::filesystem::path>>& staged) {
  std::set<std::filesystem::path> parents;  // the folders that get new entries
  for (const auto& [entry, folder] : staged) parents.insert(folder.parent_path());
  std::vector<results::ScenarioOutcome> published;
  std::string failure;
  size_t next = 0;  // of staged, the next to publish
  try {
    if (!staged.empty()) results::SyncFileSystem(batch_dir_);
    for (; next < staged.size(); ++next) {
      const auto& [entry, folder] = staged[next];
      Publish(*entry, folder);
      published.push_back({entry->record.result, entry->record.timing});
    }
    for (const std::filesystem::path& parent : parents) results::SyncDirectory(parent);
  } catch (const std::exception& error) {
    failure = error.what();
    if (next < staged.size()) {
      // Scenario `next` and those after it are not published: no staging folder stays.
      failure = "scenario " + std::to_string(staged[next].first->record.result.scenario_number) +
                ": " + failure;
      std::error_code ignored;
      for (size_t i = next; i < staged.size(); ++i) {
        std::filesystem::remove_all(staged[i].second, ignored);
      }
    }
  }
  std::lock_guard lock(mutex_);
  for (results::ScenarioOutcome& outcome : published) written_.push_back(std::move(outcome));
  return failure;
}

void ResultWriter::Publish(const Entry& entry, const std::filesystem::path& staged) {
  if (!entry.folder.empty()) {
    results::PublishDirectory(staged, entry.folder, /*sync_parent=*/false);
    return;
  }
  const uint32_t number = entry.record.result.scenario_number;
  const std::string& variant = entry.record.result.variant;
  const auto publish = [&] {
    results::PublishScenarioFolder(batch_dir_, staged, number, /*sync_parent=*/false, variant);
  };
  if (node_files_ != nullptr) {
    node_files_->PublishScenario(number, publish);
  } else {
    publish();
  }
}

}  // namespace asg::client
