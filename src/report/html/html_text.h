// Text for HTML pages: every data value (a column name, a value, a message)
// goes through HtmlEscape before it is written into a page, so a value such
// as "<script>" shows as text and never becomes markup.
//
//   page += "<td>" + HtmlEscape(violation.message) + "</td>";
#pragma once

#include <string>
#include <string_view>

namespace griffin {

// `text` escaped for HTML text and for attribute values in double or single
// quotes: & < > " ' become entities; control characters other than tab and
// newline become spaces; invalid UTF-8 bytes become U+FFFD.
std::string HtmlEscape(std::string_view text);

// A number for people: integers as is, others with up to 4 significant
// digits after the point ("12.5", "0.0012", "1.2e+09"); "nan", "inf".
std::string FormatNumber(double value);

// A share in [0, 1] as a percentage with one decimal: "99.5%".
std::string FormatPercent(double share);

}  // namespace griffin
