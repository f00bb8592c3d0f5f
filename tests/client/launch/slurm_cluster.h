// A real one-node Slurm cluster for tests: munged, slurmctld and slurmd (Slurm 22.05) run as
// child processes of the test with their key, sockets, configuration, state and logs in one
// private folder and their TCP ports picked free at start, so that sbatch, squeue and scancel
// given the cluster's environment talk to it and to no other cluster.
#pragma once

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/io.hpp>
#include <boost/process/search_path.hpp>
#include <boost/process/start_dir.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace asg::client::testing {

/// What a command run against a SlurmCluster gave.
struct SlurmCommandOutput {
  int exit_code = -1;  ///< The command's exit code; -1 when it could not start or timed out.
  std::string out;     ///< Everything it wrote to stdout.
  std::string err;     ///< Everything it wrote to stderr.
};

/// A one-node Slurm cluster running as child processes of the calling test in `folder`, which
/// the caller creates, owns and removes after this object is gone (the folder's path must stay
/// short: Unix sockets live in it). Every file the daemons read or write lives in the folder;
/// nothing under /etc, /var or /run is used. Not thread-safe.
class SlurmCluster {
 public:
  /// Starts munged, slurmctld and slurmd and waits (at most 30 s) until `sinfo` says the node
  /// is idle; started() tells whether that worked and why_not() why not. The node offers
  /// `cpus` CPUs (0: this machine's cores; more than it has is allowed, config_overrides).
  explicit SlurmCluster(const std::filesystem::path& folder, int cpus = 0)
      : folder_(folder), cpus_(cpus) {
    Start();
  }

  /// Cancels the cluster's jobs, stops slurmd, slurmctld and munged (SIGTERM, SIGKILL after
  /// 5 s) and kills whatever process still uses the folder (ProcessesUsing), such as the
  /// slurmstepd of a job that scancel could not end.
  ~SlurmCluster() { Stop(); }

  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  /// Whether the whole cluster runs and its node is idle.
  bool started() const { return why_not_.empty(); }

  /// Why the cluster did not start: what failed and the last lines of that daemon's output;
  /// empty when it started.
  const std::string& why_not() const { return why_not_; }

  /// The path of the cluster's slurm.conf.
  std::string conf() const { return (folder_ / "slurm.conf").string(); }

  /// The variables a Slurm client needs to use this cluster (SLURM_CONF); Run() also drops the
  /// SLURM_* and S*_ option variables the test itself may have inherited.
  std::map<std::string, std::string> ClientEnvironment() const { return {{"SLURM_CONF", conf()}}; }

  /// Runs `command` (a Slurm client such as sbatch, squeue or scancel, found in PATH or
  /// /usr/bin) in the folder with ClientEnvironment() plus `extra_environment`; kills it after
  /// `timeout`.
  SlurmCommandOutput Run(const std::vector<std::string>& command,
                         const std::map<std::string, std::string>& extra_environment = {},
                         std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    SlurmCommandOutput result;
    const std::filesystem::path program = Find(command.at(0));
    if (program.empty()) {
      result.err = command[0] + " not found in PATH, /usr/bin or /usr/sbin";
      return result;
    }
    const std::filesystem::path out =
        folder_ / "commands" / (std::to_string(++commands_run_) + ".out");
    const std::filesystem::path err = std::filesystem::path(out).replace_extension(".err");
    std::filesystem::create_directories(out.parent_path());
    boost::process::environment environment = Environment(extra_environment);
    try {
      boost::process::child child(
          boost::process::exe = program.string(),
          boost::process::args = std::vector<std::string>(command.begin() + 1, command.end()),
          environment, boost::process::start_dir = folder_.string(),
          boost::process::std_out > out.string(), boost::process::std_err > err.string(),
          boost::process::std_in < boost::process::null);
      result.exit_code = WaitFor(child, timeout) ? child.exit_code() : -1;
    } catch (const std::exception& error) {
      result.err = command[0] + " could not start: " + error.what();
      return result;
    }
    result.out = ReadText(out);
    result.err = ReadText(err);
    return result;
  }

  /// The cluster's jobs as squeue lists them, one array task per line: "JOBID STATE", e.g.
  /// "12_3 RUNNING" (squeue -h -r -o "%i %T").
  std::vector<std::string> Jobs() {
    std::istringstream lines(Run({"squeue", "-h", "-r", "-o", "%i %T"}).out);
    std::vector<std::string> jobs;
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty()) jobs.push_back(line);
    }
    return jobs;
  }

  /// The processes other than this one (zombies aside) that use a cluster in `folder`: the
  /// folder's path is in their command line, they hold a file in it open, or their environment
  /// names its slurm.conf (the jobs' processes).
  static std::vector<int> ProcessesUsing(const std::filesystem::path& folder) {
    const std::string needle = folder.string() + "/";
    const std::string job_variable =
        std::string(1, '\0') + "SLURM_CONF=" + (folder / "slurm.conf").string() + '\0';
    std::vector<int> pids;
    // Processes come and go while this reads /proc: whatever cannot be read is skipped.
    namespace fs = std::filesystem;
    std::error_code error;
    for (fs::directory_iterator entry("/proc", error), end; !error && entry != end;
         entry.increment(error)) {
      const std::string name = entry->path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const int pid = std::stoi(name);
      const std::string stat = ReadText(entry->path() / "stat");
      const size_t end_of_name = stat.rfind(')');
      if (pid == ::getpid() || end_of_name == std::string::npos ||
          stat.compare(end_of_name, 3, ") Z") == 0) {
        continue;
      }
      bool uses = ReadText(entry->path() / "cmdline").find(needle) != std::string::npos ||
                  ('\0' + ReadText(entry->path() / "environ") + '\0').find(job_variable) !=
                      std::string::npos;
      std::error_code unreadable;
      for (fs::directory_iterator fd(entry->path() / "fd", unreadable); !unreadable && fd != end;
           fd.increment(unreadable)) {
        std::error_code closed;
        uses = uses || fs::read_symlink(fd->path(), closed).string().rfind(needle, 0) == 0;
      }
      if (uses) pids.push_back(pid);
    }
    return pids;
  }

 private:
  /// One daemon of the cluster; its stdout and stderr go to <folder>/<name>.out.
  struct Daemon {
    std::string name;
    std::unique_ptr<boost::process::child> process;
  };

  void Start() {
    std::error_code error;
    // munged wants everyone to be able to search the folder of its socket.
    std::filesystem::permissions(
        folder_,
        std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
            std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
            std::filesystem::perms::others_exec,
        error);
    std::filesystem::create_directories(folder_ / "state");
    std::filesystem::create_directories(folder_ / "spool");
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    node_ = std::string(host).substr(0, std::string(host).find('.'));
    // The longest Unix socket is a job step's, spool/<node>_<job>.<step>.
    if (Path("spool/" + node_ + "_4294967295.4294967295").size() >= sizeof(sockaddr_un::sun_path)) {
      why_not_ = "the folder's path is too long for Unix sockets: " + folder_.string();
      return;
    }
    if (!WriteMungeKey()) return;
    if (!Launch(munged_, "munged",
                {"-F", "--force", "--num-threads=4", "--socket=" + Path("munge.socket"),
                 "--key-file=" + Path("munge.key"), "--pid-file=" + Path("munged.pid"),
                 "--log-file=" + Path("munged.log"), "--seed-file=" + Path("munged.seed")})) {
      return;
    }
    if (!WaitUntil([&] { return std::filesystem::exists(folder_ / "munge.socket"); }, munged_,
                   std::chrono::seconds(10))) {
      return Fail("munged did not create its socket", munged_);
    }
    WriteConf();
    // slurmd registers as soon as it starts, so the controller goes first.
    if (!Launch(slurmctld_, "slurmctld", {"-D", "-f", conf()})) return;
    if (!WaitUntil(
            [&] {
              return Run({"sinfo", "-h"}, {}, std::chrono::seconds(5)).exit_code == 0;
            },
            slurmctld_, std::chrono::seconds(20))) {
      return Fail("slurmctld did not answer sinfo", slurmctld_);
    }
    if (!Launch(slurmd_, "slurmd", {"-D", "-f", conf(), "-N", node_})) return;
    std::string state;
    if (!WaitUntil(
            [&] {
              state = Trim(Run({"sinfo", "-h", "-o", "%t"}, {}, std::chrono::seconds(5)).out);
              return state == "idle" || !Running(slurmctld_);
            },
            slurmd_, std::chrono::seconds(30))) {
      return Fail("node " + node_ + " did not become idle (sinfo: '" + state + "')", slurmd_);
    }
    if (!Running(slurmctld_)) return Fail("the node did not register", slurmctld_);
  }

  void Stop() {
    if (Running(slurmctld_) && Running(slurmd_)) {
      Run({"scancel", "--user=" + std::to_string(::getuid())}, {}, std::chrono::seconds(10));
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!Jobs().empty() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
    for (Daemon* daemon : {&slurmd_, &slurmctld_, &munged_}) Terminate(*daemon);
    // A job's slurmstepd is no child of slurmd and outlives it; give steps that are ending a
    // moment, then kill what is left.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!ProcessesUsing(folder_).empty() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    for (int pid : ProcessesUsing(folder_)) ::kill(pid, SIGKILL);
  }

  // A 1024-bit key only this user can read, as munged demands.
  bool WriteMungeKey() {
    std::ifstream random("/dev/urandom", std::ios::binary);
    std::string key(128, '\0');
    random.read(key.data(), static_cast<std::streamsize>(key.size()));
    std::ofstream(folder_ / "munge.key", std::ios::binary) << key;
    std::error_code error;
    std::filesystem::permissions(
        folder_ / "munge.key",
        std::filesystem::perms::owner_read | std::filesystem::perms::owner_write, error);
    if (!random || error || std::filesystem::file_size(folder_ / "munge.key", error) != 128) {
      why_not_ = "could not write the munge key " + Path("munge.key");
      return false;
    }
    return true;
  }

  // The node is this host under its short name with all its processors, reached over
  // loopback; the two ports are free ones.
  void WriteConf() {
    const std::vector<int> ports = FreePorts(2);
    const long cpus = cpus_ > 0 ? cpus_ : std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
    std::ofstream conf_file(conf());
    conf_file << "ClusterName=asgtest\n"
              << "SlurmctldHost=" << node_ << "(127.0.0.1)\n"
              << "SlurmctldPort=" << ports[0] << "\nSlurmdPort=" << ports[1] << "\n"
              << "SlurmUser=root\nSlurmdUser=root\n"
              << "AuthType=auth/munge\nAuthInfo=socket=" << Path("munge.socket") << "\n"
              << "CredType=cred/munge\n"
              << "StateSaveLocation=" << Path("state") << "\n"
              << "SlurmdSpoolDir=" << Path("spool") << "\n"
              << "SlurmctldPidFile=" << Path("slurmctld.pid") << "\n"
              << "SlurmdPidFile=" << Path("slurmd.pid") << "\n"
              << "SlurmctldLogFile=" << Path("slurmctld.log") << "\n"
              << "SlurmdLogFile=" << Path("slurmd.log") << "\n"
              << "MailProg=/bin/true\n"
              << "SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n"
              << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
              << "SwitchType=switch/none\nMpiDefault=none\n"
              << "JobAcctGatherType=jobacct_gather/none\n"
              << "AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\n"
              << "SchedulerType=sched/backfill\n"
              << "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0\n"
              << "ReturnToService=2\nSlurmctldTimeout=10\nSlurmdTimeout=10\n"
              << "MessageTimeout=5\nKillWait=2\nMinJobAge=60\n"
              << "SlurmdParameters=config_overrides\n"
              << "NodeName=" << node_ << " NodeAddr=127.0.0.1 CPUs=" << cpus << " State=UNKNOWN\n"
              << "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n";
  }

  // Free TCP ports: bound on port 0 together (so they differ) and released at once.
  static std::vector<int> FreePorts(int count) {
    std::vector<int> sockets;
    std::vector<int> ports;
    for (int i = 0; i < count; ++i) {
      const int socket = ::socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in address = {};
      address.sin_family = AF_INET;
      address.sin_addr.s_addr = htonl(INADDR_ANY);
      socklen_t length = sizeof address;
      ::bind(socket, reinterpret_cast<sockaddr*>(&address), sizeof address);
      ::getsockname(socket, reinterpret_cast<sockaddr*>(&address), &length);
      sockets.push_back(socket);
      ports.push_back(ntohs(address.sin_port));
    }
    for (int socket : sockets) ::close(socket);
    return ports;
  }

  bool Launch(Daemon& daemon, const std::string& name, const std::vector<std::string>& args) {
    daemon.name = name;
    const std::filesystem::path program = Find(name);
    if (program.empty()) {
      why_not_ = name +
                 " not found in PATH, /usr/bin or /usr/sbin (scripts/install-deps.sh "
                 "installs munge and slurm-wlm)";
      return false;
    }
    try {
      daemon.process = std::make_unique<boost::process::child>(
          boost::process::exe = program.string(), boost::process::args = args, Environment({}),
          boost::process::start_dir = folder_.string(),
          (boost::process::std_out & boost::process::std_err) > Path(name + ".out"),
          boost::process::std_in < boost::process::null);
    } catch (const std::exception& error) {
      why_not_ = name + " could not start: " + error.what();
      return false;
    }
    return true;
  }

  // Polls `done` every 100 ms until it holds (true), `daemon` exits or `timeout` passes (false).
  template <typename Condition>
  bool WaitUntil(Condition done, Daemon& daemon, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
      if (!Running(daemon) || std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return true;
  }

  // Says what did not happen, whether because `daemon` exited or because the wait ran out, and
  // how the daemon's output ends.
  void Fail(const std::string& what, Daemon& daemon) {
    why_not_ = what + (Running(daemon) ? " in time" : ": " + daemon.name + " exited") +
               "; last lines of " + Path(daemon.name + ".out") + ":\n" +
               Tail(ReadText(folder_ / (daemon.name + ".out")), 15);
  }

  static bool Running(Daemon& daemon) {
    std::error_code error;
    return daemon.process && daemon.process->running(error);
  }

  // SIGTERM, then SIGKILL when the daemon is still there after 5 s; reaps it.
  static void Terminate(Daemon& daemon) {
    if (!Running(daemon)) return;
    ::kill(daemon.process->id(), SIGTERM);
    WaitFor(*daemon.process, std::chrono::seconds(5));
  }

  // Waits for `child` to exit; kills it (SIGKILL) and returns false after `timeout`.
  static bool WaitFor(boost::process::child& child, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::error_code error;
    while (child.running(error)) {
      if (std::chrono::steady_clock::now() > deadline) {
        child.terminate(error);
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
  }

  // This process's environment without Slurm's own variables (a test may run inside a Slurm
  // job), plus ClientEnvironment() and `extra`.
  boost::process::environment Environment(const std::map<std::string, std::string>& extra) const {
    boost::process::environment environment = boost::this_process::environment();
    std::vector<std::string> inherited;
    for (const auto& variable : environment) {
      const std::string name = variable.get_name();
      for (const char* prefix :
           {"SLURM_", "SBATCH_", "SQUEUE_", "SCANCEL_", "SINFO_", "SRUN_", "SALLOC_"}) {
        if (name.rfind(prefix, 0) == 0) inherited.push_back(name);
      }
    }
    for (const std::string& name : inherited) environment.erase(name);
    for (const auto& [name, value] : ClientEnvironment()) environment[name] = value;
    for (const auto& [name, value] : extra) environment[name] = value;
    return environment;
  }

  static std::filesystem::path Find(const std::string& name) {
    boost::filesystem::path found = boost::process::search_path(name);
    if (found.empty()) found = boost::process::search_path(name, {"/usr/bin", "/usr/sbin"});
    return found.string();
  }

  std::string Path(const std::string& name) const { return (folder_ / name).string(); }

  static std::string ReadText(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  static std::string Trim(const std::string& text) {
    const size_t begin = text.find_first_not_of(" \n");
    return begin == std::string::npos
               ? ""
               : text.substr(begin, text.find_last_not_of(" \n") + 1 - begin);
  }

  // The last `lines` lines of `text`.
  static std::string Tail(const std::string& text, int lines) {
    size_t begin = text.size() - (!text.empty() && text.back() == '\n' ? 1 : 0);
    for (int i = 0; i < lines; ++i) {
      if (begin == 0 || (begin = text.rfind('\n', begin - 1)) == std::string::npos) return text;
    }
    return text.substr(begin + 1);
  }

  std::filesystem::path folder_;
  int cpus_ = 0;          ///< The node's CPUs; 0: this machine's cores.
  std::string node_;      ///< The node's name: this host's short name.
  std::string why_not_;   ///< Empty while the cluster runs.
  int commands_run_ = 0;  ///< Numbers the output files of Run() under <folder>/commands/.
  Daemon munged_;
  Daemon slurmctld_;
  Daemon slurmd_;
};

}  // namespace asg::client::testing
