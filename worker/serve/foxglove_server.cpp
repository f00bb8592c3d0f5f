// The Foxglove WebSocket server: the upgrade with its token check, the JSON and binary messages of
// foxglove.websocket.v1, and one write queue per client.
#include "worker/serve/foxglove_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <stdexcept>

#include "core/log_clip.h"
#include "protocol/token_gate.h"
#include "worker/worker_log.h"

namespace asg::worker::serve {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;

/// Binary opcodes of foxglove.websocket.v1.
constexpr uint8_t kMessageData = 0x01;
constexpr uint8_t kServiceCallRequest = 0x02;
constexpr uint8_t kServiceCallResponse = 0x03;
/// Frames queued for a client beyond which message data is dropped (a client that cannot keep
/// up misses messages; control messages are always queued).
constexpr size_t kMaxQueuedFrames = 1000;

void PutLittleEndian(uint64_t value, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

uint32_t ReadUint32(const std::string& data, size_t offset) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(data[offset + i]);
  return value;
}

/// The value of query parameter `name` in an HTTP target ("/path?a=1&token=x"), undecoded.
std::string QueryParameter(const std::string& target, const std::string& name) {
  const size_t query = target.find('?');
  if (query == std::string::npos) return {};
  size_t start = query + 1;
  while (start <= target.size()) {
    size_t end = target.find('&', start);
    if (end == std::string::npos) end = target.size();
    const std::string pair = target.substr(start, end - start);
    if (pair.rfind(name + "=", 0) == 0) return pair.substr(name.size() + 1);
    start = end + 1;
  }
  return {};
}

}  // namespace

/// The listening socket.
struct FoxgloveServer::Acceptor {
  explicit Acceptor(boost::asio::io_context& io) : acceptor(io) {}
  tcp::acceptor acceptor;
};

/// One client: the upgrade, its subscriptions, its write queue.
class FoxgloveServer::Client : public std::enable_shared_from_this<FoxgloveServer::Client> {
 public:
  Client(FoxgloveServer& server, tcp::socket socket)
      : server_(server), peer_(PeerOf(socket)), ws_(std::move(socket)) {}

  void Start() {
    auto self = shared_from_this();
    http::async_read(ws_.next_layer(), buffer_, upgrade_,
                     [self](beast::error_code error, size_t) { self->Upgrade(error); });
  }

  /// Queues a frame (text or binary); data frames are dropped while the queue is full.
  void Write(std::string frame, bool binary, bool droppable) {
    if (closed_ || (droppable && queue_.size() >= kMaxQueuedFrames)) return;
    queue_.push_back({std::move(frame), binary});
    if (queue_.size() == 1 && open_) WriteNext();
  }

  /// The subscription ids of `channel_id`.
  std::vector<uint32_t> SubscriptionsOf(uint32_t channel_id) const {
    std::vector<uint32_t> ids;
    for (const auto& [id, channel] : subscriptions_) {
      if (channel == channel_id) ids.push_back(id);
    }
    return ids;
  }

  void Close() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ignored;
    ws_.next_layer().close(ignored);
  }

 private:
  struct Frame {
    std::string data;
    bool binary = false;
  };

  static std::string PeerOf(const tcp::socket& socket) {
    beast::error_code error;
    const tcp::endpoint endpoint = socket.remote_endpoint(error);
    return error ? std::string("?")
                 : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  }

  void Upgrade(beast::error_code error);
  void Refuse(http::status status, const std::string& reason);
  void Read();
  void OnText(const std::string& text);
  void OnBinary(const std::string& data);
  void Subscribe(const json::Json& subscriptions);
  void CallService(const std::string& data);
  void Status(int level, const std::string& message) {
    Write(json::Json{{"op", "status"}, {"level", level}, {"message", message}}.dump(), false,
          false);
  }
  void WriteNext();
  void Gone() {
    Close();
    server_.Closed(this);
  }

  FoxgloveServer& server_;
  std::string peer_;
  websocket::stream<tcp::socket> ws_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> upgrade_;
  std::map<uint32_t, uint32_t> subscriptions_;  // subscription id -> channel id
  std::deque<Frame> queue_;
  bool open_ = false;
  bool closed_ = false;
};

void FoxgloveServer::Client::Upgrade(beast::error_code error) {
  if (error) return Gone();
  if (!websocket::is_upgrade(upgrade_)) {
    return Refuse(http::status::upgrade_required, "a Foxglove WebSocket client is expected here");
  }
  const std::string protocols(upgrade_[http::field::sec_websocket_protocol]);
  if (protocols.find(kFoxgloveSubprotocol) == std::string::npos) {
    return Refuse(http::status::bad_request,
                  std::string("ask for the subprotocol ") + kFoxgloveSubprotocol);
  }
  const std::string refusal = server_.Admit(std::string(upgrade_.target()), peer_);
  if (!refusal.empty()) return Refuse(http::status::unauthorized, refusal);
  ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& response) {
    response.set(http::field::sec_websocket_protocol, kFoxgloveSubprotocol);
  }));
  auto self = shared_from_this();
  ws_.async_accept(upgrade_, [self](beast::error_code accept_error) {
    if (accept_error) return self->Gone();
    self->open_ = true;
    for (std::string& message : self->server_.Greeting()) {
      self->Write(std::move(message), false, false);
    }
    self->Read();
  });
}

void FoxgloveServer::Client::Refuse(http::status status, const std::string& reason) {
  Log(core::LogLevel::kWarning, "Foxglove client from " + peer_ + " refused: " + reason);
  auto response = std::make_shared<http::response<http::string_body>>(status, upgrade_.version());
  response->set(http::field::content_type, "text/plain");
  response->body() = "refused: " + reason + "\n";
  response->keep_alive(false);
  response->prepare_payload();
  auto self = shared_from_this();
  http::async_write(ws_.next_layer(), *response,
                    [self, response](beast::error_code, size_t) { self->Gone(); });
}

void FoxgloveServer::Client::Read() {
  auto self = shared_from_this();
  buffer_.clear();
  ws_.async_read(buffer_, [self](beast::error_code error, size_t) {
    if (error) return self->Gone();
    std::string data = beast::buffers_to_string(self->buffer_.data());
    try {
      if (self->ws_.got_text()) {
        self->OnText(data);
      } else {
        self->OnBinary(data);
      }
    } catch (const std::exception& failure) {
      self->Status(2, failure.what());
    }
    if (!self->closed_) self->Read();
  });
}

void FoxgloveServer::Client::OnText(const std::string& text) {
  const json::Json message = json::Json::parse(text);
  const std::string op = message.value("op", "");
  if (op == "subscribe") {
    Subscribe(message.at("subscriptions"));
  } else if (op == "unsubscribe") {
    for (const json::Json& id : message.at("subscriptionIds")) {
      subscriptions_.erase(id.get<uint32_t>());
    }
  } else {
    Status(1, "unsupported operation \"" + core::ClipForLog(op) + "\"");
  }
}

void FoxgloveServer::Client::Subscribe(const json::Json& subscriptions) {
  for (const json::Json& subscription : subscriptions) {
    const uint32_t id = subscription.at("id").get<uint32_t>();
    const uint32_t channel = subscription.at("channelId").get<uint32_t>();
    bool known = false;
    for (const FoxgloveChannel& advertised : server_.settings_.channels) {
      known = known || advertised.id == channel;
    }
    if (!known) {
      Status(2, "no channel " + std::to_string(channel));
      continue;
    }
    subscriptions_[id] = channel;
    if (server_.subscribed_) server_.subscribed_(channel);
  }
}

void FoxgloveServer::Client::OnBinary(const std::string& data) {
  if (data.empty() || static_cast<uint8_t>(data[0]) != kServiceCallRequest) {
    Status(2, "unsupported binary message");
    return;
  }
  CallService(data);
}

void FoxgloveServer::Client::CallService(const std::string& data) {
  // opcode, service id, call id, encoding length, encoding, payload.
  if (data.size() < 13) throw std::invalid_argument("service call request cut short");
  const uint32_t service_id = ReadUint32(data, 1);
  const uint32_t call_id = ReadUint32(data, 5);
  const uint32_t encoding_length = ReadUint32(data, 9);
  if (data.size() < 13 + static_cast<size_t>(encoding_length)) {
    throw std::invalid_argument("service call request cut short");
  }
  const std::string encoding = data.substr(13, encoding_length);
  const std::string payload = data.substr(13 + encoding_length);
  const FoxgloveService* service = nullptr;
  for (const FoxgloveService& advertised : server_.settings_.services) {
    if (advertised.id == service_id) service = &advertised;
  }
  auto fail = [&](const std::string& why) {
    Write(json::Json{{"op", "serviceCallFailure"},
                     {"serviceId", service_id},
                     {"callId", call_id},
                     {"message", why}}
              .dump(),
          false, false);
  };
  if (service == nullptr) return fail("no service " + std::to_string(service_id));
  if (encoding != "json") return fail("encoding \"" + core::ClipForLog(encoding) + "\": only json");
  std::string response;
  try {
    const json::Json request = payload.empty() ? json::Json::object() : json::Json::parse(payload);
    response = server_.call_(service->name, request).dump();
  } catch (const std::exception& error) {
    return fail(service->name + ": " + error.what());
  }
  std::string frame(1, static_cast<char>(kServiceCallResponse));
  PutLittleEndian(service_id, 4, &frame);
  PutLittleEndian(call_id, 4, &frame);
  PutLittleEndian(encoding.size(), 4, &frame);
  frame += encoding + response;
  Write(std::move(frame), true, false);
}

void FoxgloveServer::Client::WriteNext() {
  auto self = shared_from_this();
  ws_.binary(queue_.front().binary);
  ws_.async_write(boost::asio::buffer(queue_.front().data),
                  [self](beast::error_code error, size_t) {
                    if (error) return self->Gone();
                    self->queue_.pop_front();
                    if (!self->queue_.empty() && !self->closed_) self->WriteNext();
                  });
}

FoxgloveServer::FoxgloveServer(boost::asio::io_context& io, FoxgloveSettings settings,
                               CallService call, OnSubscribe subscribed)
    : io_(io),
      settings_(std::move(settings)),
      call_(std::move(call)),
      subscribed_(std::move(subscribed)),
      acceptor_(std::make_unique<Acceptor>(io)) {}

FoxgloveServer::~FoxgloveServer() { Stop(); }

uint16_t FoxgloveServer::Listen() {
  try {
    const tcp::endpoint endpoint(boost::asio::ip::make_address(settings_.host), settings_.port);
    tcp::acceptor& acceptor = acceptor_->acceptor;
    acceptor.open(endpoint.protocol());
    acceptor.set_option(tcp::acceptor::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen();
  } catch (const std::exception& error) {
    throw std::runtime_error("--foxglove " + settings_.host + ":" + std::to_string(settings_.port) +
                             ": " + error.what());
  }
  Accept();
  return acceptor_->acceptor.local_endpoint().port();
}

void FoxgloveServer::Accept() {
  acceptor_->acceptor.async_accept([this](beast::error_code error, tcp::socket socket) {
    if (error) return;
    auto client = std::make_shared<Client>(*this, std::move(socket));
    clients_[client.get()] = client;
    client->Start();
    Accept();
  });
}

std::string FoxgloveServer::Admit(const std::string& target, const std::string& peer) const {
  if (settings_.token.empty()) return {};
  const std::string given = QueryParameter(target, "token");
  if (given.empty()) return "give the token as ws://HOST:PORT/?token=T";
  return protocol::CheckPeerToken(settings_.token, given, peer);
}

std::vector<std::string> FoxgloveServer::Greeting() const {
  json::Json channels = json::Json::array();
  for (const FoxgloveChannel& channel : settings_.channels) {
    channels.push_back({{"id", channel.id},
                        {"topic", channel.topic},
                        {"encoding", "json"},
                        {"schemaName", channel.schema_name},
                        {"schema", channel.schema},
                        {"schemaEncoding", "jsonschema"}});
  }
  json::Json services = json::Json::array();
  for (const FoxgloveService& service : settings_.services) {
    const json::Json request = {{"encoding", "json"},
                                {"schemaName", service.name + "Request"},
                                {"schemaEncoding", "jsonschema"},
                                {"schema", service.request_schema}};
    const json::Json response = {{"encoding", "json"},
                                 {"schemaName", service.name + "Response"},
                                 {"schemaEncoding", "jsonschema"},
                                 {"schema", "{}"}};
    services.push_back({{"id", service.id},
                        {"name", service.name},
                        {"type", "asg/" + service.name},
                        {"request", request},
                        {"response", response}});
  }
  return {json::Json{{"op", "serverInfo"},
                     {"name", settings_.name},
                     {"capabilities", {"services"}},
                     {"supportedEncodings", {"json"}},
                     {"metadata", json::Json::object()}}
              .dump(),
          json::Json{{"op", "advertise"}, {"channels", channels}}.dump(),
          json::Json{{"op", "advertiseServices"}, {"services", services}}.dump()};
}

bool FoxgloveServer::Subscribed(uint32_t channel_id) const {
  for (const auto& [raw, client] : clients_) {
    if (!client->SubscriptionsOf(channel_id).empty()) return true;
  }
  return false;
}

void FoxgloveServer::Publish(uint32_t channel_id, uint64_t time, const json::Json& message) {
  std::string payload;
  for (const auto& [raw, client] : clients_) {
    for (const uint32_t subscription : client->SubscriptionsOf(channel_id)) {
      if (payload.empty()) payload = message.dump();
      std::string frame(1, static_cast<char>(kMessageData));
      PutLittleEndian(subscription, 4, &frame);
      PutLittleEndian(time, 8, &frame);
      frame += payload;
      client->Write(std::move(frame), true, true);
    }
  }
}

void FoxgloveServer::Stop() {
  beast::error_code ignored;
  acceptor_->acceptor.close(ignored);
  for (const auto& [raw, client] : clients_) client->Close();
  clients_.clear();
}

void FoxgloveServer::Closed(Client* client) { clients_.erase(client); }

}  // namespace asg::worker::serve
