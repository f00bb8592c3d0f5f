// Importing AutoSceneGen-form requests: each request converted with the protocol's own
// conversion, checked by the protocol's strict decoder, and listed as one scenario.
#include "client/batch/autoscenegen_import.h"

#include <map>

#include "client/batch/batch_file.h"
#include "json/field_values.h"
#include "protocol/autoscenegen_units.h"
#include "protocol/messages_json.h"

namespace asg::client {
namespace {

// The keys that make an object a batch file rather than a request.
constexpr const char* kBatchKeys[] = {"defaults", "scenarios", "variants"};

bool IsBatchFile(const Json& root) {
  if (!root.is_object()) return false;
  for (const char* key : kBatchKeys) {
    if (root.contains(key)) return true;
  }
  return false;
}

// The request at `path` in the farm's units, its "units" checked and removed; throws
// json::DecodeError naming the path and the value.
Json ConvertedRequest(const Json& request, const std::string& path) {
  if (!request.is_object()) {
    throw json::DecodeError(
        path, "expected a RunScenario request (an object), got " + DescribeValue(request));
  }
  Json converted = request;
  if (protocol::HasAutoSceneGenUnits(converted, path)) {
    converted.erase(std::string(protocol::kUnitsKey));
  }
  protocol::ConvertAutoSceneGenUnits(&converted);
  protocol::SpellGoalSphereColor(&converted);
  return converted;
}

// Keeps the scenario_number of the request at `path` when a batch can use it (1..2147483647,
// not used by an earlier request: `used` maps a number to the path that gave it); drops 0,
// AutoSceneGen's "not numbered yet", for the batch to number it. Throws for any other value.
void KeepScenarioNumber(Json* request, const std::string& path,
                        std::map<uint32_t, std::string>* used) {
  const auto found = request->find("scenario_number");
  if (found == request->end()) return;
  const std::string number_path = json::ChildPath(path, "scenario_number");
  if (!found->is_number_integer() || found->get<int64_t>() < 0 ||
      found->get<int64_t>() > int64_t{protocol::kMaxScenarioNumber}) {
    throw json::DecodeError(number_path,
                            "expected an integer in 0..2147483647 (0: the batch numbers it), "
                            "got " +
                                DescribeValue(*found));
  }
  const auto number = found->get<uint32_t>();
  if (number == 0) {
    request->erase(found);
    return;
  }
  *found = number;  // as an unsigned integer, as a batch file's text gives it
  const auto [it, inserted] = used->emplace(number, number_path);
  if (!inserted) {
    throw json::DecodeError(number_path,
                            std::to_string(number) + " is also given at " + it->second);
  }
}

// Throws json::DecodeError naming `path` unless `request` (no scenario_number: 0) decodes
// strictly as a whole RunScenarioRequest, as a worker reads one.
void CheckWholeRequest(const Json& request, const std::string& path) {
  Json whole = request;
  if (!whole.contains("scenario_number")) whole["scenario_number"] = 0;
  protocol::RunScenarioRequest decoded;
  protocol::Decode(whole, path, &decoded);
}

// The batch listing the requests of `root` (one request or an array of them).
Json ImportRequests(const Json& root) {
  Json scenarios = Json::array();
  std::map<uint32_t, std::string> used;
  const auto add = [&](const Json& request, const std::string& path) {
    Json converted = ConvertedRequest(request, path);
    KeepScenarioNumber(&converted, path, &used);
    CheckWholeRequest(converted, path);
    scenarios.push_back(std::move(converted));
  };
  if (root.is_array()) {
    if (root.empty()) throw json::DecodeError("", "expected at least one request, got []");
    for (size_t i = 0; i < root.size(); ++i) add(root[i], json::IndexPath("", i));
  } else {
    add(root, "");
  }
  return Json{{"scenarios", std::move(scenarios)}};
}

// The batch file `root` with its overrides converted (DecodeBatchFile) and no "units".
Json ImportBatch(const Json& root, const std::string& origin) {
  if (!root.contains(protocol::kUnitsKey)) {
    FailAt(origin, std::string(protocol::kUnitsKey),
           "a batch file without \"units\": \"autoscenegen\" is in the farm's units already; "
           "give it to check or run as it is");
  }
  const BatchFile file = DecodeBatchFile(root, origin);
  Json batch = root;
  protocol::SpellGoalSphereColor(&batch);
  batch.erase(std::string(protocol::kUnitsKey));
  if (batch.contains("defaults")) batch["defaults"] = file.defaults.json;
  if (batch.contains("scenarios")) {
    for (size_t i = 0; i < file.scenarios.size(); ++i) {
      batch["scenarios"][i] = file.scenarios[i].json;
    }
  }
  if (file.variants) batch["variants"] = Json(*file.variants);
  return batch;
}

}  // namespace

Json ImportAutoSceneGen(const Json& root, const std::string& origin) {
  if (IsBatchFile(root)) return ImportBatch(root, origin);
  try {
    return ImportRequests(root);
  } catch (const json::DecodeError& error) {
    throw BatchError(origin + ": " + error.what());
  }
}

Json ImportAutoSceneGenText(std::string_view text, const std::string& origin) {
  return ImportAutoSceneGen(ParseJsonText(text, origin), origin);
}

}  // namespace asg::client
