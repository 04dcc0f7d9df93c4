// The style sheet and the script every Griffin HTML page inlines (hand-written,
// no library), and the Content-Security-Policy that lets only that script run
// and nothing load from the network.
//
// The script makes every <table class="sortable"> sortable (click a header;
// numbers sort as numbers by each cell's data-key) and filterable (the
// <input data-filter-for=TABLE_ID> above it keeps rows whose text contains
// the words typed, case-insensitive). A table's state lives in the URL
// fragment, "#violations.sort=value&violations.dir=desc&violations.q=abc",
// so a link shares it and a page opened with one starts in that state.
#pragma once

#include <string>

namespace griffin {

const std::string& HtmlPageStyle();
const std::string& HtmlPageScript();

// "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-...'; ..."
// with the hash of HtmlPageScript(): an injected script would not run even if
// a value escaped its escaping, and the page can fetch nothing.
const std::string& HtmlContentSecurityPolicy();

}  // namespace griffin
