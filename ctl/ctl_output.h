// What asg-ctl makes of a reply: the error a body reports, the attachment's files, the table of
// services. Pure functions apart from SaveAttachment, which writes files.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/messages_json.h"

namespace asg::ctl {

/// The simulation_interfaces Result code of success (simulation_interfaces/msg/Result.msg).
inline constexpr int64_t kResultOk = 1;

/// The error a reply body reports, or "" when it reports none: a `result` object whose `result`
/// code is not kResultOk ("result 3 (RESULT_INCORRECT_STATE): <error_message>"), `"success":
/// false` ("success false: <description or message>") or `"accepted": false`.
std::string ResultProblem(const json::Json& body);

/// The name of a simulation_interfaces Result code ("RESULT_NOT_FOUND"), or "" for a code
/// without one (a service's own codes, > 100).
std::string_view ResultCodeName(int64_t code);

/// Which SimulateSteps feedback frames of one goal asg-ctl prints (the worker sends one per
/// step by default): the first, each one that reaches a further whole percent of the goal
/// (completed_steps * 100 / (completed_steps + remaining_steps)), and the last (remaining_steps
/// 0): at most 102 lines for any goal. A frame without those integer fields is printed.
class FeedbackThinner {
 public:
  /// True when `feedback` is to be printed; call once per frame, in order.
  bool ShouldPrint(const json::Json& feedback);

 private:
  int64_t printed_percent_ = -1;  // [%] of the last frame printed; -1 before the first
};

/// `name` with every character outside [A-Za-z0-9._-] replaced by '_'; "" becomes "_". The
/// result is a plain file name: it never holds a '/'.
std::string SanitizeFileName(std::string_view name);

/// One file written from an attachment.
struct SavedFile {
  std::filesystem::path path;  ///< out_dir / file name
  size_t bytes = 0;            ///< its size [bytes]
};

/// What SaveAttachment did.
struct SavedAttachment {
  std::vector<SavedFile> files;       ///< in the order written
  std::vector<std::string> problems;  ///< items out of the attachment's range, failed writes
};

/// Saves a reply's attachment into out_dir (created when missing; empty: the current
/// directory). Each item of body's "images" / "readings" array that has a string "name" and
/// unsigned integer "offset" and "size" is the slice [offset, offset + size) of the attachment,
/// saved as <SanitizeFileName(name)>.png / .bin; the item gains "saved": the path. When no item
/// describes a slice, the whole attachment is saved as <SanitizeFileName(service)>.bin and the
/// body gains "saved". A slice outside the attachment is not saved and is named in `problems`,
/// as is a file that cannot be written. Nothing is done for an empty attachment.
SavedAttachment SaveAttachment(const std::string& service, const std::string& attachment,
                               const std::filesystem::path& out_dir, json::Json* body);

/// ListServices' `services` ([{name, family, description}]) as a plain table: one line per
/// service, the name and family columns padded to their widest entry plus two spaces, no
/// trailing blanks. A missing field is empty; a field that is not a string is written as JSON.
std::string FormatServiceTable(const json::Json& services);

}  // namespace asg::ctl
