// One framed TCP connection (see frame.h) over Boost.Asio: handlers per message type,
// request/reply by reference with timeouts, heartbeats, and an orderly close.
//
// Threading: every handler, reply callback and the close handler runs on the connection's
// strand, on a thread of the io_context that owns the socket. Send, Reply, AsyncRequest and
// Close may be called from any thread; frames sent from one thread leave in call order. A
// request of at most 64 KiB made off the io threads while nothing else is being written is
// written on the calling thread (sparing a hand-off to the io thread, see direct_writer.h); its
// reply still comes on the strand. The blocking Request must not be called from a thread
// running the io_context (it would wait for a reply that thread has to deliver).
//
// Hostile input: a frame whose header is wrong (magic, lengths over the cap) or whose payload
// does not decode (UTF-8, JSON, envelope) gets an Error reply and the connection is closed. A
// frame of unknown type gets an Error reply from the default fallback handler and the
// connection stays up. A handler that throws gets its exception's message sent back as an
// Error reply and the connection stays up. Replies (type "Error" or ending in "Response") that
// match no pending request are dropped, never answered, so two peers cannot trade Errors forever.
//
// Memory: an idle connection holds a few KiB. Its read buffer grows from 4 to 64 KiB while large
// frames arrive and shrinks back after; the decoder keeps only the bytes of a frame not yet whole.
//
// Abuse bounds (see ConnectionSettings): frames queued to send and not yet written are capped in
// bytes, and a peer that does not read is cut off when the cap would be exceeded; a frame whose
// first bytes arrived must be whole within frame_timeout (bytes trickling in do not extend it);
// and with a registration_timeout, the owner must call MarkRegistered() within it, else the
// connection is closed (heartbeats do not count). Until then a frame may hold only
// max_unregistered_frame_bytes, and the partial frames of all of a server's connections not yet
// registered share max_unregistered_bytes, so that strangers make the process buffer and parse
// little. Each of these closes with a reason that names the limit, given to the close handler.
#pragma once

#include <atomic>
#include <boost/asio/generic/stream_protocol.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "protocol/byte_budget.h"
#include "protocol/direct_writer.h"
#include "protocol/frame.h"

namespace asg::protocol {

/// Timing and size settings of a connection.
struct ConnectionSettings {
  std::chrono::milliseconds heartbeat_interval{500};  ///< [ms] between Heartbeat frames sent
  std::chrono::milliseconds peer_timeout{3000};       ///< [ms] silence after which the peer is dead
  std::chrono::milliseconds close_timeout{2000};      ///< [ms] cap on flushing at an orderly close
  /// [ms] a frame must arrive whole within this once its first byte has; per frame, however
  /// steadily its bytes trickle in.
  std::chrono::milliseconds frame_timeout{30'000};
  /// [ms] after Start(), MarkRegistered() must be called within this, else the connection closes;
  /// 0 = no deadline. Server-side owners set it for connections that must introduce themselves.
  std::chrono::milliseconds registration_timeout{0};
  /// [bytes] cap on frames queued to send and not yet written; a frame that would exceed it
  /// closes the connection (the peer is not reading). At least one frame at limits' cap plus its
  /// header.
  size_t max_queued_bytes = size_t{128} << 20;
  FrameLimits limits;  ///< cap on incoming and outgoing frames
  /// [bytes] cap on JSON + attachment of each incoming frame while the peer must register
  /// (registration_timeout > 0) and has not: a registration is small, so a peer not yet known
  /// makes the process buffer and parse little. A larger frame is refused from its header.
  size_t max_unregistered_frame_bytes = size_t{64} << 10;
  /// [bytes] cap on the partial frames that all the connections of one server whose peers have
  /// not registered hold together, not counting the first kUncountedPartialBytes of each (a
  /// registration fits there, so strangers filling the cap cannot lock out workers). The
  /// connection whose partial frame would pass it is closed.
  size_t max_unregistered_bytes = size_t{16} << 20;
  /// Accept monoDrive's framing too (frame.h), decided by the peer's first byte: a monoDrive
  /// peer is answered in its framing, sent no heartbeats and never declared dead for silence.
  /// Until the first byte no heartbeat is sent; a peer silent for peer_timeout before it is
  /// closed as any silent peer.
  bool accept_monodrive_framing = false;
};

/// [bytes] the first bytes of a partial frame that max_unregistered_bytes does not count.
inline constexpr size_t kUncountedPartialBytes = size_t{4} << 10;

/// The outcome of a request: success with the reply, or failure with a description (an Error
/// reply's description, a timeout, or the connection closing).
struct RequestResult {
  bool success = false;
  std::string description;  ///< why it failed; empty on success
  Message reply;            ///< the reply (or the Error reply); empty when none arrived
};

/// Thrown by the blocking Connection::Request when the request fails.
class RequestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A framed connection. Held by shared_ptr because its pending asynchronous operations keep it
/// alive; the owner keeps one reference for as long as it wants to use it.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  /// A connected stream socket: TCP, or a Unix-domain socket on the same host (a tcp::socket
  /// converts to it).
  using Socket = boost::asio::generic::stream_protocol::socket;
  /// Handles one incoming message; runs on the connection's strand.
  using Handler = std::function<void(const Message& message)>;
  /// Handles one incoming request and returns its reply body (sent as type + "Response").
  using RequestHandler = std::function<Json(const Message& request)>;
  /// Receives the outcome of an AsyncRequest; runs on the connection's strand. An exception it
  /// throws is dropped so that it cannot stop the connection.
  using ReplyCallback = std::function<void(RequestResult result)>;
  /// Receives the reason the connection closed, once, on the strand; an exception it throws is
  /// dropped.
  using CloseHandler = std::function<void(const std::string& reason)>;

  /// Wraps a connected socket. Register handlers, then call Start(). While the peer has not
  /// registered, its partial frames count against `unregistered_budget` when one is given (a
  /// server's accepted connections share one of settings.max_unregistered_bytes).
  static std::shared_ptr<Connection> Create(
      Socket socket, const ConnectionSettings& settings = {},
      std::shared_ptr<ByteBudget> unregistered_budget = nullptr);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Sets the handler of one message type; only before Start(). Throws std::logic_error after,
  /// std::invalid_argument for "Heartbeat" and reply types (they never reach handlers).
  void SetHandler(const std::string& type, Handler handler);
  /// Sets a handler whose return value is sent back as the reply; only before Start().
  void SetRequestHandler(const std::string& type, RequestHandler handler);
  /// Sets the handler of types without a handler; the default replies Error. Only before Start().
  void SetFallbackHandler(Handler handler);
  /// Sets the handler told why the connection closed; only before Start().
  void SetCloseHandler(CloseHandler handler);

  /// Starts reading and heartbeats. From then on the connection keeps itself alive until it has
  /// closed; its handlers are released then.
  void Start();

  /// Queues a new frame with a fresh reference and returns that reference; thread-safe. Throws
  /// std::invalid_argument when the frame exceeds the cap. Frames queued after close are dropped;
  /// a frame that would take the queue over max_queued_bytes is dropped and the connection closes.
  int64_t Send(const std::string& type, const Json& message, std::string attachment = {});
  /// Queues the reply to request (type request.type + "Response", same reference; with monoDrive
  /// framing type request.type, no attachment, and `message` may be any JSON value);
  /// thread-safe. Throws std::invalid_argument for an attachment in monoDrive framing.
  void Reply(const Message& request, const Json& message, std::string attachment = {});
  /// Queues an Error reply with the given reference; thread-safe.
  void ReplyError(int64_t reference, const std::string& description);

  /// Sends a request and calls callback once with its reply, an Error reply, a timeout or the
  /// connection's close; thread-safe.
  void AsyncRequest(const std::string& type, const Json& message, std::string attachment,
                    std::chrono::milliseconds timeout, ReplyCallback callback);
  /// Sends a request and waits for its reply. Throws RequestError on an Error reply, a timeout
  /// or a close, std::logic_error when called from a thread running the io_context.
  Message Request(const std::string& type, const Json& message, std::string attachment = {},
                  std::chrono::milliseconds timeout = std::chrono::seconds(10));

  /// Orderly close: frames already queued are flushed, pending requests fail, the sending side
  /// is shut down, and the socket is closed once the peer has ended its side too (so it reads
  /// every reply), after close_timeout at the latest. Thread-safe; later calls are ignored.
  void Close(const std::string& reason);

  /// Marks the peer as registered, which lifts the registration deadline; thread-safe.
  void MarkRegistered() { registered_.store(true); }
  /// True once MarkRegistered() was called; thread-safe.
  bool registered() const { return registered_.load(); }
  /// Replaces settings' peer_timeout from now on; 0 = a silent peer is never declared dead (for
  /// peers whose liveness other deadlines govern, e.g. vehicle nodes). Thread-safe.
  void SetPeerTimeout(std::chrono::milliseconds timeout) {
    peer_timeout_ms_.store(timeout.count());
  }

  /// The peer's framing (kUnknown until its first byte where both are accepted); thread-safe.
  Framing framing() const { return framing_.load(); }

  /// True until the connection starts closing; thread-safe.
  bool IsOpen() const { return !closing_.load(); }
  /// Bytes of frames queued to send and not yet written, never above max_queued_bytes [bytes];
  /// thread-safe.
  size_t queued_bytes() const { return queued_bytes_.load(); }
  /// "address:port" of the peer, as seen when the connection was created; "unix:PATH" on a
  /// Unix-domain socket.
  const std::string& peer() const { return peer_; }
  /// The channel: "tcp", or "unix" for a Unix-domain socket (protocol/local_channel.h).
  std::string_view channel() const { return channel_; }

 private:
  struct OutgoingFrame {
    std::string head;        // header + JSON
    std::string attachment;  // sent right after head
    size_t bytes() const { return head.size() + attachment.size(); }
  };
  struct PendingRequest {
    std::string reply_type;
    ReplyCallback callback;
    std::unique_ptr<boost::asio::steady_timer> timer;
  };

  Connection(Socket socket, const ConnectionSettings& settings,
             std::shared_ptr<ByteBudget> unregistered_budget);

  bool OnIoThread() const;
  void RequireNotStarted(const char* what) const;
  void Enqueue(OutgoingFrame frame);
  /// Encodes a frame in the peer's framing; any thread.
  OutgoingFrame Encode(const std::string& type, int64_t reference, const Json& message,
                       std::string attachment) const;
  /// Counts bytes about to be queued; any thread. When they would exceed max_queued_bytes, counts
  /// nothing, starts aborting the connection and returns false.
  bool ReserveQueueBytes(size_t bytes);
  /// Uncounts bytes written or dropped.
  void ReleaseQueueBytes(size_t bytes) { queued_bytes_.fetch_sub(bytes); }
  /// On the strand: closes when the partial frame or the registration is overdue; true if so.
  bool CheckDeadlines(std::chrono::steady_clock::time_point now);
  /// Sets closing_ and stops direct sends; any thread.
  void MarkClosing();
  /// Sends a request's frame from the calling thread when the strand's write path is idle,
  /// registering the request first; false (nothing done) when it has to go through the strand.
  bool TrySendDirect(int64_t reference, const std::string& reply_type,
                     std::chrono::milliseconds timeout, OutgoingFrame& frame,
                     ReplyCallback& callback);
  /// Moves the requests registered by TrySendDirect into pending_; on the strand.
  void AdoptDirectRequests();
  void StartWrite();
  void OnWrite(const boost::system::error_code& error);
  void StartRead();
  void OnRead(const boost::system::error_code& error, size_t bytes);
  /// True while the peer must register and has not; any thread.
  bool AwaitsRegistration() const;
  /// On the strand: decodes and dispatches the frames fed so far, under the cap in force.
  void DecodeFrames();
  /// On the strand: counts the partial frame of a peer not yet registered against the shared
  /// budget, and gives it back once registered; when the budget is spent, closes.
  void CountPartialFrame();
  /// On the strand, once closing: frees the bytes of a frame not yet whole, and gives back what
  /// they took of the shared budget (bytes read later are dropped unread).
  void DropPartialFrame();
  /// Replaces the read buffer by one of `bytes` bytes (between reads only).
  void ResizeReadBuffer(size_t bytes);
  void Dispatch(Message message);
  void CompleteRequest(int64_t reference, RequestResult result);
  void FailPendingRequests();
  void ScheduleHeartbeat();
  void OnHeartbeatTick();
  void BeginClose(const std::string& reason);
  void ContinueClose();
  void FinishClose();
  void Abort(const std::string& reason);

  Socket socket_;
  std::string_view channel_;  // kChannelTcp or kChannelUnix
  boost::asio::strand<boost::asio::any_io_executor> strand_;
  ConnectionSettings settings_;
  std::string peer_;
  std::atomic<int64_t> next_reference_{1};
  std::atomic<bool> started_{false};
  std::atomic<bool> closing_{false};
  std::atomic<bool> registered_{false};
  std::atomic<int64_t> peer_timeout_ms_{settings_.peer_timeout.count()};  ///< see SetPeerTimeout
  std::atomic<size_t> queued_bytes_{0};                                   // see queued_bytes()
  std::atomic<Framing> framing_;                                          // see framing()

  // Handlers: written before Start(), read on the strand, released after close.
  std::unordered_map<std::string, Handler> handlers_;
  Handler fallback_handler_;
  CloseHandler close_handler_;

  // Strand-only state.
  FrameDecoder decoder_;
  std::shared_ptr<ByteBudget> unregistered_budget_;  // shared by a server's connections, or null
  size_t budget_taken_ = 0;                          // bytes taken from it
  std::unique_ptr<char[]> read_buffer_;  // 4 KiB, up to 64 KiB while large frames arrive
  size_t read_buffer_bytes_ = 0;         // its size
  uint32_t small_reads_ = 0;             // reads in a row below 4 KiB
  std::deque<OutgoingFrame> write_queue_;
  std::vector<boost::asio::const_buffer> write_buffers_;  // the write in progress
  size_t frames_in_flight_ = 0;  // frames at the front of write_queue_ being written
  bool writing_ = false;
  bool close_begun_ = false;
  bool shutdown_sent_ = false;  // our sending side is shut down
  bool peer_finished_ = false;  // the peer shut down its sending side
  bool finished_ = false;       // the socket is closed
  std::string close_reason_;
  std::unordered_map<int64_t, PendingRequest> pending_;
  std::chrono::steady_clock::time_point last_received_;
  std::chrono::steady_clock::time_point last_heartbeat_sent_;
  std::chrono::steady_clock::time_point started_at_;
  bool partial_frame_ = false;  // the decoder holds the first bytes of a frame
  std::chrono::steady_clock::time_point partial_frame_since_;  // when they began to arrive
  boost::asio::steady_timer heartbeat_timer_;
  boost::asio::steady_timer close_timer_;

  // The calling-thread write path (TrySendDirect), in turn with the strand's.
  DirectWriter direct_;
  std::mutex direct_pending_mutex_;                             // guards direct_pending_
  std::unordered_map<int64_t, PendingRequest> direct_pending_;  // registered, not yet adopted
};

}  // namespace asg::protocol
