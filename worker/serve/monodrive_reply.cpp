// Reply bodies in monoDrive's framing.
#include "worker/serve/monodrive_reply.h"

#include <cstdint>

namespace asg::worker::serve {

std::string Base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string text;
  text.reserve((bytes.size() + 2) / 3 * 4);
  // Each 3 bytes become 4 characters of 6 bits; a short last group is padded with '='.
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t count = std::min<size_t>(3, bytes.size() - i);
    uint32_t group = 0;
    for (size_t k = 0; k < 3; ++k) {
      const uint32_t byte = k < count ? static_cast<unsigned char>(bytes[i + k]) : 0;
      group = (group << 8) | byte;
    }
    for (size_t k = 0; k < 4; ++k) {
      text += k <= count ? kAlphabet[(group >> (18 - 6 * k)) & 0x3F] : '=';
    }
  }
  return text;
}

json::Json MonoDriveReplyMessage(std::string_view family, json::Json body,
                                 std::string_view attachment) {
  if (family == "monodrive" && body.is_object() && body.size() == 2 && body.contains("success") &&
      body.contains("message") && attachment.empty()) {
    return std::move(body["message"]);
  }
  if (!attachment.empty()) body["attachment_base64"] = Base64(attachment);
  return body;
}

}  // namespace asg::worker::serve
