// Base64 (RFC 4648, standard alphabet, padded): binary states stored as text
// (the run store keeps run profiles in TEXT columns both backends accept).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace griffin {

std::string Base64Encode(std::string_view bytes);
// nullopt when `text` is not padded base64 of the standard alphabet.
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace griffin
