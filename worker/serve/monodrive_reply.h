// The body of a reply sent in monoDrive's framing (protocol/frame.h): what a monoDrive client
// reads in its reply's `message`.
#pragma once

#include <string>
#include <string_view>

#include "json/json.h"

namespace asg::worker::serve {

/// Base64 (RFC 4648, with padding) of `bytes`.
std::string Base64(std::string_view bytes);

/// The monoDrive `message` of a reply: a monoDrive service's body that is exactly {success,
/// message} gives its `message` alone (the seed's string or boolean); any other body is sent
/// whole, and a non-empty attachment joins it as `attachment_base64` (the framing has no
/// attachment; the body's offsets and sizes index the decoded bytes).
json::Json MonoDriveReplyMessage(std::string_view family, json::Json body,
                                 std::string_view attachment);

}  // namespace asg::worker::serve
