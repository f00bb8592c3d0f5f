// HandOverIo: the background loop and the take-over.
#include "protocol/hand_over_io.h"

#include <stdexcept>

namespace asg::protocol {

HandOverIo::HandOverIo() : work_(context_.get_executor()), thread_([this] { Loop(); }) {}

HandOverIo::~HandOverIo() { Stop(); }

void HandOverIo::Loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (taken_) {
      changed_.wait(lock);
      continue;
    }
    // Restarted under the lock: a Take() that follows stops this run, never a run not yet begun.
    context_.restart();
    in_run_ = true;
    lock.unlock();
    context_.run();  // until Take() or Stop() stops the context
    lock.lock();
    in_run_ = false;
    changed_.notify_all();
  }
}

std::unique_ptr<HandOverIo::TakeOver> HandOverIo::Take() {
  std::unique_lock lock(mutex_);
  if (taken_) throw std::logic_error("HandOverIo::Take: the context is taken over already");
  if (stopping_) throw std::logic_error("HandOverIo::Take: stopped");
  taken_ = true;
  if (in_run_) context_.stop();
  changed_.wait(lock, [this] { return !in_run_; });
  context_.restart();
  return std::unique_ptr<TakeOver>(new TakeOver(this));
}

void HandOverIo::GiveBack() {
  {
    std::lock_guard lock(mutex_);
    taken_ = false;
  }
  changed_.notify_all();
}

HandOverIo::TakeOver::~TakeOver() { owner_->GiveBack(); }

bool HandOverIo::TakeOver::RunUntil(const std::function<bool()>& done,
                                    std::chrono::steady_clock::time_point deadline) {
  boost::asio::io_context& context = owner_->context_;
  // A short spin first: a reply that comes within it is handled without this thread sleeping
  // and being woken again, which on a loaded machine costs more than the spin.
  const auto spin_end = std::chrono::steady_clock::now() + owner_->spin_;
  while (!done()) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return false;
    if (now < spin_end) {
      context.poll_one();
    } else {
      context.run_one_until(deadline);
    }
  }
  return true;
}

void HandOverIo::Stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    if (taken_) throw std::logic_error("HandOverIo::Stop while taken over");
    stopping_ = true;
  }
  changed_.notify_all();
  work_.reset();
  context_.stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace asg::protocol
