// The JSON Schema (draft 2020-12) of a batch file, printed by `asg-client schema` so that editors
// complete and check batch files. The RunScenario parts come from the protocol's field lists
// (json/schema.h), the batch's own objects from the keys their decoders accept
// (batch_keys.h), the search strategies' settings from the settings each strategy reads.
#pragma once

#include "client/batch/batch_json.h"

namespace asg::client {

/// The whole schema. Throws std::logic_error when a decoder accepts a key the schema does not
/// describe (or the reverse), so the two cannot drift apart unnoticed.
Json BatchSchema();

}  // namespace asg::client
