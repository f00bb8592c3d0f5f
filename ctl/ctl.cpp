// asg-ctl's call: the connection on a private io thread, whose handlers only queue what arrives
// (an Inbox); the calling thread takes it out in arrival order and does all the printing.
#include "ctl/ctl.h"

#include <boost/asio/signal_set.hpp>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "ctl/ctl_options.h"
#include "ctl/ctl_output.h"
#include "protocol/connection.h"
#include "protocol/endpoint.h"
#include "protocol/io_threads.h"

namespace asg::ctl {

namespace {

using json::Json;
using protocol::Message;
using protocol::RequestResult;
using Clock = std::chrono::steady_clock;

/// The action service: a reply, then feedback frames and one result.
constexpr std::string_view kActionService = "SimulateSteps";
/// The action's progress frames {goal_id, completed_steps, remaining_steps}.
constexpr std::string_view kFeedbackType = "SimulateStepsFeedback";
/// The action's last frame {goal_id, result}.
constexpr std::string_view kResultType = "SimulateStepsResult";
/// The service that cancels a goal of the action {goal_id}.
constexpr std::string_view kCancelService = "CancelSimulateSteps";
/// The frames SubscribeEvents starts.
constexpr std::string_view kEventType = "Event";
/// [ms] an orderly close may take at the end before the socket is closed anyway.
constexpr std::chrono::milliseconds kCloseTimeout{1000};
/// Beyond a request's own timeout, how long the calling thread waits for its outcome.
constexpr std::chrono::seconds kOutcomeMargin{5};

/// Something that happened on the connection, for the calling thread.
struct Arrival {
  enum class Kind : uint8_t {
    kReply,   ///< the outcome of the request in flight (`reply`)
    kFrame,   ///< a frame that is not a reply (`frame`)
    kClosed,  ///< the connection closed (`reason`)
    kSignal,  ///< SIGINT or SIGTERM arrived
  };
  Kind kind = Kind::kFrame;
  RequestResult reply;  ///< kReply
  Message frame;        ///< kFrame
  std::string reason;   ///< kClosed: why it closed

  /// An arrival of `kind` that carries nothing else (kSignal).
  static Arrival Of(Kind kind) {
    Arrival arrival;
    arrival.kind = kind;
    return arrival;
  }
  /// The outcome of the request in flight.
  static Arrival Reply(RequestResult reply) {
    Arrival arrival = Of(Kind::kReply);
    arrival.reply = std::move(reply);
    return arrival;
  }
  /// A frame that is not a reply.
  static Arrival Frame(const Message& frame) {
    Arrival arrival = Of(Kind::kFrame);
    arrival.frame = frame;
    return arrival;
  }
  /// The connection's close.
  static Arrival Closed(const std::string& reason) {
    Arrival arrival = Of(Kind::kClosed);
    arrival.reason = reason;
    return arrival;
  }
};

/// Arrivals in the order they happened: pushed on the io thread, taken by the calling thread.
class Inbox {
 public:
  /// Queues an arrival; thread-safe.
  void Push(Arrival arrival) {
    std::lock_guard lock(mutex_);
    if (arrival.kind == Arrival::Kind::kClosed) closed_ = true;
    arrivals_.push_back(std::move(arrival));
    changed_.notify_all();
  }

  /// The oldest arrival, waiting for one until deadline (none: for ever); nullopt when the
  /// deadline passed first.
  std::optional<Arrival> Next(std::optional<Clock::time_point> deadline) {
    std::unique_lock lock(mutex_);
    const auto ready = [&] { return !arrivals_.empty(); };
    if (deadline) {
      if (!changed_.wait_until(lock, *deadline, ready)) return std::nullopt;
    } else {
      changed_.wait(lock, ready);
    }
    Arrival arrival = std::move(arrivals_.front());
    arrivals_.pop_front();
    return arrival;
  }

  /// Waits until the connection has closed or deadline; true when it has closed.
  bool WaitClosed(Clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    return changed_.wait_until(lock, deadline, [&] { return closed_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Arrival> arrivals_;
  bool closed_ = false;
};

/// Queues SIGINT and SIGTERM into an inbox for as long as it exists (they no longer end the
/// process then). Destroy it only once its io_context has stopped.
class SignalForwarder {
 public:
  /// Starts catching the signals on context's threads.
  SignalForwarder(boost::asio::io_context& context, std::shared_ptr<Inbox> inbox)
      : signals_(context, SIGINT, SIGTERM), inbox_(std::move(inbox)) {
    Arm();
  }

 private:
  /// Waits for the next signal, which is queued and waits again.
  void Arm() {
    signals_.async_wait([this](const boost::system::error_code& error, int /*number*/) {
      if (error) return;
      inbox_->Push(Arrival::Of(Arrival::Kind::kSignal));
      Arm();
    });
  }

  boost::asio::signal_set signals_;
  std::shared_ptr<Inbox> inbox_;
};

/// The io thread and, when wanted, the signal forwarder; stops the thread before the forwarder
/// goes.
class Runtime {
 public:
  /// Starts one io thread; catches SIGINT and SIGTERM into inbox when catch_signals.
  Runtime(const std::shared_ptr<Inbox>& inbox, bool catch_signals) {
    if (catch_signals) signals_ = std::make_unique<SignalForwarder>(io_.context(), inbox);
  }
  ~Runtime() {
    io_.Stop();
    signals_.reset();
  }
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  /// The executor connections are created on.
  boost::asio::any_io_executor executor() { return io_.context().get_executor(); }

 private:
  protocol::IoThreads io_{1};
  std::unique_ptr<SignalForwarder> signals_;  // null unless signals are caught
};

/// One call of a service on a started connection, printing as it goes.
class Call {
 public:
  /// Uses connection, whose handlers push into inbox; prints on out and err.
  Call(const CtlCommand& command, std::shared_ptr<protocol::Connection> connection,
       std::shared_ptr<Inbox> inbox, std::ostream& out, std::ostream& err)
      : command_(command),
        connection_(std::move(connection)),
        inbox_(std::move(inbox)),
        out_(out),
        err_(err),
        action_(command.mode == CtlCommand::Mode::kCall && command.service == kActionService) {}

  /// Presents the token, calls the service and follows what it starts; a kCtlExit* code.
  int Run() {
    if (!command_.token.empty()) {
      const int code = Hello();
      if (code != kCtlExitOk) return code;
    }
    Send(command_.service, command_.request);
    std::optional<RequestResult> result = WaitReply(command_.service);
    if (!result) return stop_code_;
    if (!result->success) return ReportFailure(command_.service, *result);

    Json body = std::move(result->reply.message);
    int code = kCtlExitOk;
    const SavedAttachment saved =
        SaveAttachment(command_.service, result->reply.attachment, command_.out_dir, &body);
    for (const SavedFile& file : saved.files) {
      err_ << "saved " << file.path.string() << " (" << file.bytes << " bytes)\n";
    }
    for (const std::string& problem : saved.problems) {
      err_ << "asg-ctl: " << command_.service << ": " << problem << "\n";
      code = kCtlExitError;
    }
    const std::string problem = ResultProblem(body);
    if (command_.mode == CtlCommand::Mode::kList && problem.empty()) {
      const auto services = body.find("services");
      if (services != body.end() && services->is_array()) {
        out_ << FormatServiceTable(*services) << std::flush;
        return code;
      }
      out_ << body.dump(2) << std::endl;
      return Fail("the reply has no \"services\" array");
    }
    out_ << body.dump(2) << std::endl;
    if (!problem.empty()) return Fail(problem);
    if (action_) {
      const int action_code = AwaitResult(body.contains("goal_id") ? body["goal_id"] : Json());
      if (action_code != kCtlExitOk) return action_code;
    }
    if (command_.follow) FollowEvents();
    return code;
  }

 private:
  /// Sends a request whose outcome arrives in the inbox.
  void Send(std::string_view service, const Json& body) {
    connection_->AsyncRequest(
        std::string(service), body, {}, command_.timeout,
        [inbox = inbox_](RequestResult result) { inbox->Push(Arrival::Reply(std::move(result))); });
  }

  /// The next arrival: those put aside while waiting for a reply first.
  std::optional<Arrival> Next(std::optional<Clock::time_point> deadline) {
    if (!put_aside_.empty()) {
      Arrival arrival = std::move(put_aside_.front());
      put_aside_.pop_front();
      return arrival;
    }
    return inbox_->Next(deadline);
  }

  /// Waits for the outcome of the request in flight, putting other arrivals aside. Returns
  /// nullopt, with stop_code_ set and the reason printed, when it never came or a signal
  /// interrupted a call that is not an action.
  std::optional<RequestResult> WaitReply(std::string_view service) {
    const Clock::time_point deadline = Clock::now() + command_.timeout + kOutcomeMargin;
    while (true) {
      std::optional<Arrival> arrival = inbox_->Next(deadline);
      if (!arrival) {
        err_ << "asg-ctl: " << service << " at " << command_.address << ": no outcome within "
             << (command_.timeout + kOutcomeMargin).count() << " ms\n";
        stop_code_ = kCtlExitConnection;
        return std::nullopt;
      }
      if (arrival->kind == Arrival::Kind::kReply) return std::move(arrival->reply);
      if (arrival->kind == Arrival::Kind::kSignal && !action_) {
        err_ << "asg-ctl: " << service << " at " << command_.address
             << ": interrupted before the reply\n";
        stop_code_ = kCtlExitError;
        return std::nullopt;
      }
      put_aside_.push_back(std::move(*arrival));
    }
  }

  /// Presents the token; kCtlExitOk when the worker accepted it.
  int Hello() {
    Send("Hello", Json{{"token", command_.token}});
    std::optional<RequestResult> result = WaitReply("Hello");
    if (!result) return stop_code_;
    if (result->success) return kCtlExitOk;
    if (result->reply.type == protocol::kErrorType) {
      err_ << "asg-ctl: " << command_.address << " refused the token: " << result->description
           << "\n";
      return kCtlExitError;
    }
    err_ << "asg-ctl: Hello to " << command_.address << ": " << result->description << "\n";
    return kCtlExitConnection;
  }

  /// Reports a request without a reply (kCtlExitConnection) or with an Error reply, whose body
  /// is printed (kCtlExitError).
  int ReportFailure(std::string_view service, const RequestResult& result) {
    if (result.reply.type == protocol::kErrorType) {
      out_ << result.reply.message.dump(2) << std::endl;
      err_ << "asg-ctl: " << service << " at " << command_.address << ": " << result.description
           << "\n";
      return kCtlExitError;
    }
    err_ << "asg-ctl: " << service << " at " << command_.address << ": " << result.description;
    if (command_.token.empty() && !connection_->IsOpen()) {
      err_ << " (a worker started with --token closes a connection that does not present it "
              "first: give --token or set ASG_TOKEN)";
    }
    err_ << "\n";
    return kCtlExitConnection;
  }

  /// Prints the problem the service reported; kCtlExitError.
  int Fail(const std::string& problem) {
    err_ << "asg-ctl: " << command_.service << " at " << command_.address << ": " << problem
         << "\n";
    return kCtlExitError;
  }

  /// True when a frame's body is about goal (or either does not say which goal).
  static bool SameGoal(const Json& body, const Json& goal) {
    const auto it = body.find("goal_id");
    return goal.is_null() || it == body.end() || *it == goal;
  }

  /// Prints the action's feedback (thinned: FeedbackThinner) on err until its result, printed on
  /// out; the result decides the code. The first signal cancels the goal, a second one stops
  /// waiting.
  int AwaitResult(const Json& goal) {
    int signals = 0;
    FeedbackThinner thinner;
    while (true) {
      Arrival arrival = *Next(std::nullopt);
      switch (arrival.kind) {
        case Arrival::Kind::kFrame: {
          const Message& frame = arrival.frame;
          if (frame.type == kFeedbackType && SameGoal(frame.message, goal)) {
            if (thinner.ShouldPrint(frame.message)) err_ << frame.message.dump() << std::endl;
          } else if (frame.type == kResultType && SameGoal(frame.message, goal)) {
            out_ << frame.message.dump(2) << std::endl;
            const std::string problem = ResultProblem(frame.message);
            return problem.empty() ? kCtlExitOk : Fail(problem);
          } else if (frame.type == kEventType && command_.follow) {
            out_ << frame.message.dump() << std::endl;
          }
          break;
        }
        case Arrival::Kind::kReply:  // the cancel's outcome
          if (!arrival.reply.success) {
            err_ << "asg-ctl: " << kCancelService << " at " << command_.address << ": "
                 << arrival.reply.description << "\n";
          }
          break;
        case Arrival::Kind::kClosed:
          err_ << "asg-ctl: " << command_.service << " at " << command_.address
               << ": the connection closed before the result: " << arrival.reason << "\n";
          return kCtlExitConnection;
        case Arrival::Kind::kSignal:
          if (++signals == 1) {
            err_ << "asg-ctl: interrupted; cancelling goal " << goal.dump() << " ("
                 << kCancelService << ")\n";
            Send(kCancelService, goal.is_null() ? Json::object() : Json{{"goal_id", goal}});
          } else {
            err_ << "asg-ctl: interrupted again; not waiting for the result of goal " << goal.dump()
                 << "\n";
            return kCtlExitError;
          }
          break;
      }
    }
  }

  /// Prints each Event's body on out as one line until the connection closes or a signal.
  void FollowEvents() {
    while (true) {
      Arrival arrival = *Next(std::nullopt);
      if (arrival.kind == Arrival::Kind::kClosed || arrival.kind == Arrival::Kind::kSignal) return;
      if (arrival.kind == Arrival::Kind::kFrame && arrival.frame.type == kEventType) {
        out_ << arrival.frame.message.dump() << std::endl;
      }
    }
  }

  const CtlCommand& command_;
  std::shared_ptr<protocol::Connection> connection_;
  std::shared_ptr<Inbox> inbox_;
  std::ostream& out_;
  std::ostream& err_;
  const bool action_;              // the service is SimulateSteps
  std::deque<Arrival> put_aside_;  // arrived while a reply was awaited, not yet handled
  int stop_code_ = kCtlExitOk;     // why WaitReply gave up
};

/// Connects, runs the call and closes the connection.
int CallService(const CtlCommand& command, std::ostream& out, std::ostream& err) {
  auto inbox = std::make_shared<Inbox>();
  const bool catch_signals = command.follow || (command.mode == CtlCommand::Mode::kCall &&
                                                command.service == kActionService);
  Runtime runtime(inbox, catch_signals);
  protocol::ConnectionSettings settings;
  settings.close_timeout = kCloseTimeout;
  std::shared_ptr<protocol::Connection> connection;
  try {
    connection = protocol::Connect(runtime.executor(), command.address, command.timeout, settings);
  } catch (const std::exception& error) {
    err << "asg-ctl: " << error.what() << "\n";
    return kCtlExitConnection;
  }
  const auto queue_frame = [inbox](const Message& frame) { inbox->Push(Arrival::Frame(frame)); };
  connection->SetHandler(std::string(kFeedbackType), queue_frame);
  connection->SetHandler(std::string(kResultType), queue_frame);
  connection->SetHandler(std::string(kEventType), queue_frame);
  // Other frames the worker sends (topics this tool does not know) are left unanswered.
  connection->SetFallbackHandler([](const Message&) {});
  connection->SetCloseHandler(
      [inbox](const std::string& reason) { inbox->Push(Arrival::Closed(reason)); });
  connection->Start();
  const int code = Call(command, connection, inbox, out, err).Run();
  connection->Close("asg-ctl is done");
  inbox->WaitClosed(Clock::now() + kCloseTimeout + std::chrono::milliseconds(500));
  return code;
}

}  // namespace

int RunCtl(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CtlCommand command;
  try {
    const char* env_token = std::getenv("ASG_TOKEN");
    command =
        ParseCtlCommandLine(args, env_token ? std::optional<std::string>(env_token) : std::nullopt);
  } catch (const UsageError& error) {
    err << "asg-ctl: " << error.what() << "\n(see asg-ctl --help)\n";
    return kCtlExitUsage;
  }
  if (command.mode == CtlCommand::Mode::kHelp) {
    out << command.help;
    return kCtlExitOk;
  }
  // The tool's boundary: anything not handled on the way ends it with a message.
  try {
    return CallService(command, out, err);
  } catch (const std::exception& error) {
    err << "asg-ctl: " << command.service << " at " << command.address << ": " << error.what()
        << "\n";
    return kCtlExitError;
  }
}

}  // namespace asg::ctl
