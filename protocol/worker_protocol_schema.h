// The JSON Schema (draft 2020-12) of the worker protocol, written from the decoders' field lists
// (json/schema.h), for `asg-client schema worker`.
#pragma once

#include "json/json.h"

namespace asg::protocol {

/// The JSON part of every frame between asg-client and asg-worker: one branch per message type
/// (RegisterWorker, StatusCode, RunScenario, AnalyzeScenario, RunPreempted,
/// WorkerIssueNotification and their responses), each message's definition in "$defs", and the
/// named values of its enumerated fields in "constants" ({definition: {NAME: value}}).
json::Json WorkerProtocolSchema();

}  // namespace asg::protocol
