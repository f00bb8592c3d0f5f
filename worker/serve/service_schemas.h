// What each service of the interactive worker accepts, for `asg-worker --print-service-schemas`:
// every service of the table (worker/serve/services.h) with its family and the JSON Schema of its
// request body, written from the field lists its handler decodes with.
#pragma once

#include <string>

#include "json/json.h"

namespace asg::worker::serve {

/// {"services": {NAME: {"family", "description", "request"}}, "constants": {...}, "$defs": {...}}
/// for every service that ListServices lists, "constants" being InteractiveConstants()
/// (simif_constants.h); "request" is the body's schema, a "$ref" into "$defs" for a body that
/// is a project message (RunScenario, EgoControl), or null for a service whose body has no schema
/// here (a defect service_schemas_test finds).
json::Json ServiceSchemas();

}  // namespace asg::worker::serve
