// The JSON Schema (draft 2020-12) of a batch file, printed by `asg-client schema` so that editors
// complete and check batch files. It is written from the field lists that decode the batch
// (batch_file.h, generate.h, search_spec.h), the protocol's for the requests and each search
// strategy's for its settings, so that the schema and the decoders cannot drift apart.
#pragma once

#include "client/batch/batch_json.h"

namespace asg::client {

/// The whole schema.
Json BatchSchema();

}  // namespace asg::client
