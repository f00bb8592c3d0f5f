// Reply bodies' errors, attachment files and the services table.
#include "ctl/ctl_output.h"

#include <algorithm>
#include <fstream>
#include <system_error>

namespace asg::ctl {

using json::Json;

namespace {

/// A field of an object as text: a string as is, anything else as JSON, "" when missing.
std::string FieldText(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

/// The first of `keys` that `body` holds as a non-empty string, or "".
std::string FirstText(const Json& body, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    std::string text = FieldText(body, key);
    if (!text.empty()) return text;
  }
  return "";
}

/// A slice of the attachment an array item describes, when it describes one.
struct Slice {
  std::string name;
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// The slice `item` describes: a string "name" and unsigned integer "offset" and "size".
bool ReadSlice(const Json& item, Slice* slice) {
  if (!item.is_object()) return false;
  const auto name = item.find("name");
  const auto offset = item.find("offset");
  const auto size = item.find("size");
  if (name == item.end() || offset == item.end() || size == item.end()) return false;
  if (!name->is_string() || !offset->is_number_unsigned() || !size->is_number_unsigned()) {
    return false;
  }
  slice->name = name->get<std::string>();
  slice->offset = offset->get<uint64_t>();
  slice->size = size->get<uint64_t>();
  return true;
}

/// Writes bytes to path; "" on success, else what went wrong.
std::string WriteFile(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file) file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (file) file.close();
  if (!file) return "cannot write " + path.string();
  return "";
}

}  // namespace

std::string_view ResultCodeName(int64_t code) {
  switch (code) {
    case 0:
      return "RESULT_FEATURE_UNSUPPORTED";
    case 1:
      return "RESULT_OK";
    case 2:
      return "RESULT_NOT_FOUND";
    case 3:
      return "RESULT_INCORRECT_STATE";
    case 4:
      return "RESULT_OPERATION_FAILED";
    default:
      return "";
  }
}

bool FeedbackThinner::ShouldPrint(const Json& feedback) {
  const auto completed = feedback.find("completed_steps");
  const auto remaining = feedback.find("remaining_steps");
  if (completed == feedback.end() || remaining == feedback.end() ||
      !completed->is_number_unsigned() || !remaining->is_number_unsigned()) {
    return true;
  }
  const uint64_t done = completed->get<uint64_t>();
  const uint64_t left = remaining->get<uint64_t>();
  const auto percent = static_cast<int64_t>(static_cast<long double>(done) * 100 / (done + left));
  if (left != 0 && percent <= printed_percent_) return false;
  printed_percent_ = percent;
  return true;
}

std::string ResultProblem(const Json& body) {
  if (!body.is_object()) return "";
  const auto result = body.find("result");
  if (result != body.end() && result->is_object()) {
    const auto code = result->find("result");
    if (code != result->end() && code->is_number_integer() && code->get<int64_t>() != kResultOk) {
      const int64_t value = code->get<int64_t>();
      std::string problem = "result " + std::to_string(value);
      const std::string_view name = ResultCodeName(value);
      if (!name.empty()) problem += " (" + std::string(name) + ")";
      const std::string message = FieldText(*result, "error_message");
      if (!message.empty()) problem += ": " + message;
      return problem;
    }
  }
  const auto success = body.find("success");
  if (success != body.end() && success->is_boolean() && !success->get<bool>()) {
    const std::string why = FirstText(body, {"description", "message", "error_message"});
    return why.empty() ? "success false" : "success false: " + why;
  }
  const auto accepted = body.find("accepted");
  if (accepted != body.end() && accepted->is_boolean() && !accepted->get<bool>()) {
    const std::string why = FirstText(body, {"description", "message", "error_message"});
    return why.empty() ? "not accepted" : "not accepted: " + why;
  }
  return "";
}

std::string SanitizeFileName(std::string_view name) {
  if (name.empty()) return "_";
  std::string file(name);
  for (char& c : file) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    if (!keep) c = '_';
  }
  return file;
}

SavedAttachment SaveAttachment(const std::string& service, const std::string& attachment,
                               const std::filesystem::path& out_dir, Json* body) {
  SavedAttachment saved;
  if (attachment.empty()) return saved;
  if (!out_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(out_dir, error);
    if (error) {
      saved.problems.push_back("cannot create " + out_dir.string() + ": " + error.message());
      return saved;
    }
  }
  const auto save = [&](const std::string& file_name, std::string_view bytes) -> std::string {
    const std::filesystem::path path = out_dir / file_name;
    std::string problem = WriteFile(path, bytes);
    if (!problem.empty()) {
      saved.problems.push_back(std::move(problem));
      return "";
    }
    saved.files.push_back({path, bytes.size()});
    return path.string();
  };

  bool any_slice = false;
  if (body->is_object()) {
    for (const auto& [key, extension] : {std::pair{"images", ".png"}, {"readings", ".bin"}}) {
      const auto array = body->find(key);
      if (array == body->end() || !array->is_array()) continue;
      for (size_t i = 0; i < array->size(); ++i) {
        Json& item = (*array)[i];
        Slice slice;
        if (!ReadSlice(item, &slice)) continue;
        any_slice = true;
        if (slice.offset > attachment.size() || slice.size > attachment.size() - slice.offset) {
          saved.problems.push_back(std::string(key) + "[" + std::to_string(i) + "] \"" +
                                   slice.name + "\": bytes " + std::to_string(slice.offset) +
                                   " + " + std::to_string(slice.size) + " are outside the " +
                                   std::to_string(attachment.size()) + "-byte attachment");
          continue;
        }
        const std::string path =
            save(SanitizeFileName(slice.name) + extension,
                 std::string_view(attachment).substr(slice.offset, slice.size));
        if (!path.empty()) item["saved"] = path;
      }
    }
  }
  if (!any_slice) {
    const std::string path = save(SanitizeFileName(service) + ".bin", attachment);
    if (!path.empty() && body->is_object()) (*body)["saved"] = path;
  }
  return saved;
}

std::string FormatServiceTable(const Json& services) {
  struct Row {
    std::string name, family, description;
  };
  std::vector<Row> rows;
  size_t name_width = 0;
  size_t family_width = 0;
  if (services.is_array()) {
    for (const Json& service : services) {
      Row row{FieldText(service, "name"), FieldText(service, "family"),
              FieldText(service, "description")};
      name_width = std::max(name_width, row.name.size());
      family_width = std::max(family_width, row.family.size());
      rows.push_back(std::move(row));
    }
  }
  std::string table;
  for (const Row& row : rows) {
    std::string line = row.name;
    line.append(name_width + 2 - row.name.size(), ' ');
    line += row.family;
    line.append(family_width + 2 - row.family.size(), ' ');
    line += row.description;
    line.erase(line.find_last_not_of(' ') + 1);
    table += line + "\n";
  }
  return table;
}

}  // namespace asg::ctl
