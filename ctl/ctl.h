// asg-ctl: calls one service of an interactive worker (asg-worker --serve, docs/interactive.md)
// and prints its reply; follows SimulateSteps to its result and SubscribeEvents' Event frames.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace asg::ctl {

/// The exit codes of asg-ctl.
inline constexpr int kCtlExitOk = 0;          ///< the service succeeded
inline constexpr int kCtlExitError = 1;       ///< an error result, or an attachment not saved
inline constexpr int kCtlExitUsage = 2;       ///< bad arguments; nothing was sent
inline constexpr int kCtlExitConnection = 3;  ///< cannot connect, closed, or no reply in time

/// Runs asg-ctl with the arguments after the program name (see ParseCtlCommandLine): connects,
/// presents the token when there is one, calls the service and prints the reply's body as
/// pretty JSON on `out` (with --list, a table of the services); SimulateSteps' feedback lines,
/// saved files and errors ("asg-ctl: ...") go to `err`. Blocking; it runs the connection on a
/// private io_context and thread. With --follow or for SimulateSteps, SIGINT and SIGTERM are
/// caught while it runs. Returns one of the kCtlExit* codes.
int RunCtl(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace asg::ctl
