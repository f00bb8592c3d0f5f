// The stack's mapper, planner and follower as three node processes (see stack_roles.h).
#include "nodes/examples/stack_roles.h"

#include <stdexcept>
#include <thread>

#include "protocol/endpoint.h"

namespace asg::nodes::examples {

namespace {

using json::Json;

constexpr std::chrono::milliseconds kConnectTimeout{2000};
/// How long a role keeps trying to reach its peer (which may start after it).
constexpr std::chrono::seconds kPeerWait{30};
/// [ms] for a side-channel reply: within the step deadline the worker gives every node.
constexpr std::chrono::milliseconds kReplyTimeout{8000};

std::unique_ptr<protocol::Server> Listen(protocol::IoThreads& io, const std::string& listen,
                                         protocol::Server::AcceptHandler on_accept) {
  // A host name (e.g. "localhost") is resolved: the server binds an address.
  const protocol::HostPort address = protocol::ResolveListenAddress(listen);
  return std::make_unique<protocol::Server>(io.context().get_executor(), address.host, address.port,
                                            protocol::ConnectionSettings{}, std::move(on_accept));
}

// A started connection to `endpoint`, retried for kPeerWait; throws std::runtime_error after.
std::shared_ptr<protocol::Connection> ConnectPeer(protocol::IoThreads& io,
                                                  const std::string& endpoint) {
  const auto deadline = std::chrono::steady_clock::now() + kPeerWait;
  while (true) {
    try {
      auto connection = protocol::Connect(io.context().get_executor(), endpoint, kConnectTimeout);
      connection->Start();
      return connection;
    } catch (const std::runtime_error&) {
      if (std::chrono::steady_clock::now() >= deadline) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
}

Json PointJson(const Eigen::Vector2d& point) { return Json::array({point.x(), point.y()}); }

Eigen::Vector2d PointOf(const Json& json) {
  return {json.at(0).get<double>(), json.at(1).get<double>()};
}

}  // namespace

// ---------------------------------------------------------------- mapper

MapperNode::MapperNode(NodeSettings settings, StackSettings stack, const std::string& listen)
    : VehicleNode(std::move(settings)), stack_(std::move(stack)), io_(1) {
  server_ = Listen(io_, listen, [this](std::shared_ptr<protocol::Connection> connection) {
    const std::weak_ptr<protocol::Connection> weak = connection;
    connection->SetHandler("StackMap", [this, weak](const protocol::Message& request) {
      if (auto peer = weak.lock()) OnMapRequest(peer, request);
    });
    {
      std::lock_guard lock(mutex_);
      peers_.push_back(connection);
    }
    connection->Start();
  });
}

MapperNode::~MapperNode() {
  server_->Stop();
  std::vector<std::shared_ptr<protocol::Connection>> peers;
  {
    std::lock_guard lock(mutex_);
    peers.swap(peers_);
  }
  for (const auto& peer : peers) peer->Close("mapper stopping");
  io_.Stop();
}

uint16_t MapperNode::port() const { return server_->port(); }

void MapperNode::OnRunStart(const RunStart& run) {
  camera_ = ChooseCamera(run, stack_.camera);
  std::lock_guard lock(mutex_);
  map_ = MakeVoteMap(run);
  scenario_number_ = run.scenario_number;
  integrated_tick_.reset();
  pending_.reset();
}

std::optional<Control> MapperNode::OnStep(const Step& step) {
  std::lock_guard lock(mutex_);
  IntegrateCamera(camera_, step, map_.get());
  integrated_tick_ = step.tick();
  AnswerPending();
  return std::nullopt;  // the follower drives
}

void MapperNode::OnMapRequest(const std::shared_ptr<protocol::Connection>& connection,
                              const protocol::Message& request) {
  uint32_t scenario_number = 0, tick = 0;
  try {
    scenario_number = request.message.at("scenario_number").get<uint32_t>();
    tick = request.message.at("tick").get<uint32_t>();
  } catch (const std::exception& error) {
    connection->ReplyError(request.reference, std::string("StackMap: ") + error.what());
    return;
  }
  std::lock_guard lock(mutex_);
  if (!map_ || scenario_number != scenario_number_) {
    connection->ReplyError(request.reference, "StackMap: no run of scenario " +
                                                  std::to_string(scenario_number) + " here");
    return;
  }
  pending_ = Pending{connection, request, tick};
  AnswerPending();
}

void MapperNode::AnswerPending() {
  if (!pending_ || !map_ || !integrated_tick_ || *integrated_tick_ < pending_->tick) return;
  const std::vector<uint8_t>& votes = map_->votes();
  pending_->connection->Reply(pending_->request, Json{{"min", map_->min()}, {"size", map_->size()}},
                              std::string(votes.begin(), votes.end()));
  pending_.reset();
}

RerunDecision MapperNode::OnRunEnd(const RunEnd& end, bool preempted) {
  if (preempted || end.save_minimal) return {};
  std::string image;
  {
    std::lock_guard lock(mutex_);
    if (map_) image = VoteMapPgm(*map_);
  }
  if (!image.empty()) SaveFile("votes.pgm", std::move(image));
  return {};
}

void MapperNode::OnReset() {
  std::lock_guard lock(mutex_);
  map_.reset();
  integrated_tick_.reset();
  pending_.reset();
}

// ---------------------------------------------------------------- planner

PlannerNode::PlannerNode(NodeSettings settings, const std::string& listen, std::string mapper)
    : VehicleNode(std::move(settings)), mapper_endpoint_(std::move(mapper)), io_(1) {
  server_ = Listen(io_, listen, [this](std::shared_ptr<protocol::Connection> connection) {
    const std::weak_ptr<protocol::Connection> weak = connection;
    connection->SetHandler("StackPlan", [this, weak](const protocol::Message& request) {
      if (auto peer = weak.lock()) OnPlanRequest(peer, request);
    });
    {
      std::lock_guard lock(mutex_);
      peers_.push_back(connection);
    }
    connection->Start();
  });
}

PlannerNode::~PlannerNode() {
  server_->Stop();
  std::vector<std::shared_ptr<protocol::Connection>> peers;
  {
    std::lock_guard lock(mutex_);
    peers.swap(peers_);
    if (mapper_) peers.push_back(mapper_);
  }
  for (const auto& peer : peers) peer->Close("planner stopping");
  io_.Stop();
}

uint16_t PlannerNode::port() const { return server_->port(); }

std::optional<Control> PlannerNode::OnStep(const Step&) {
  return std::nullopt;  // plans are asked for on the side channel; the follower drives
}

std::shared_ptr<protocol::Connection> PlannerNode::Mapper() {
  std::lock_guard lock(mutex_);
  if (!mapper_ || !mapper_->IsOpen()) {
    mapper_ = protocol::Connect(io_.context().get_executor(), mapper_endpoint_, kConnectTimeout);
    mapper_->Start();
  }
  return mapper_;
}

// On the side channel's io thread: asks the mapper for the tick's map without blocking it, and
// plans when the map arrives.
void PlannerNode::OnPlanRequest(const std::shared_ptr<protocol::Connection>& connection,
                                const protocol::Message& request) {
  std::shared_ptr<protocol::Connection> mapper;
  try {
    mapper = Mapper();
  } catch (const std::exception& error) {
    connection->ReplyError(request.reference,
                           "StackPlan: the mapper at " + mapper_endpoint_ + ": " + error.what());
    return;
  }
  const Json ask = {{"scenario_number", request.message.value("scenario_number", 0u)},
                    {"tick", request.message.value("tick", 0u)}};
  mapper->AsyncRequest(
      "StackMap", ask, {}, kReplyTimeout,
      [this, connection, request](protocol::RequestResult result) {
        if (!result.success) {
          connection->ReplyError(request.reference, "StackPlan: StackMap: " + result.description);
          return;
        }
        try {
          const std::string& bytes = result.reply.attachment;
          const VoteMap map(result.reply.message.at("min").get<double>(),
                            result.reply.message.at("size").get<int>(),
                            std::vector<uint8_t>(bytes.begin(), bytes.end()));
          const StackPath path = planner_.Plan(map, PointOf(request.message.at("from")),
                                               PointOf(request.message.at("goal")));
          Json points = Json::array();
          for (const Eigen::Vector2d& point : path.points) points.push_back(PointJson(point));
          connection->Reply(request, Json{{"found", path.found}, {"points", std::move(points)}});
        } catch (const std::exception& error) {
          connection->ReplyError(request.reference, std::string("StackPlan: ") + error.what());
        }
      });
}

// ---------------------------------------------------------------- follower

FollowerNode::FollowerNode(NodeSettings settings, StackSettings stack, std::string planner)
    : VehicleNode(std::move(settings)),
      stack_(std::move(stack)),
      planner_endpoint_(std::move(planner)),
      io_(1),
      follower_(stack_.follower) {}

FollowerNode::~FollowerNode() {
  if (planner_) planner_->Close("follower stopping");
  io_.Stop();
}

std::shared_ptr<protocol::Connection> FollowerNode::Planner() {
  if (!planner_ || !planner_->IsOpen()) planner_ = ConnectPeer(io_, planner_endpoint_);
  return planner_;
}

void FollowerNode::OnRunStart(const RunStart& run) {
  Planner();  // reached before the first Step, so the first plan does not wait for it
  follower_ = LookaheadFollower(GainsFor(stack_, run));
  goal_ = {run.vehicle_goal_location.x, run.vehicle_goal_location.y};
  scenario_number_ = run.scenario_number;
  next_plan_ = 0.0;
}

std::optional<Control> FollowerNode::OnStep(const Step& step) {
  const protocol::Point& p = step.odometry().pose.position;
  const Eigen::Vector2d position(p.x, p.y);
  if (step.time() + 1e-9 >= next_plan_) {
    const Json ask = {{"scenario_number", scenario_number_},
                      {"tick", step.tick()},
                      {"from", PointJson(PlanStart(follower_, position))},
                      {"goal", PointJson(goal_)}};
    // A failed plan fails the Step: the worker preempts the run, as for any node failure.
    const protocol::Message reply = Planner()->Request("StackPlan", ask, {}, kReplyTimeout);
    StackPath path;
    path.found = reply.message.at("found").get<bool>();
    for (const Json& point : reply.message.at("points")) path.points.push_back(PointOf(point));
    TakePath(std::move(path), position, &follower_);
    next_plan_ = step.time() + stack_.replan_period;
  }
  return follower_.Update(step.time(), position, step.yaw());
}

RerunDecision FollowerNode::OnRunEnd(const RunEnd&, bool preempted) {
  if (preempted) return {};
  SaveFile("last_path.csv", PathCsv(follower_));
  return {};
}

void FollowerNode::OnReset() { follower_.Reset(); }

}  // namespace asg::nodes::examples
