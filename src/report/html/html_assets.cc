#include "report/html/html_assets.h"

#include "util/sha256.h"

namespace griffin {
namespace {

std::string Base64(const uint8_t* data, size_t size) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < size; i += 3) {
    const uint32_t chunk = (static_cast<uint32_t>(data[i]) << 16) |
                           (i + 1 < size ? static_cast<uint32_t>(data[i + 1]) << 8 : 0) |
                           (i + 2 < size ? static_cast<uint32_t>(data[i + 2]) : 0);
    out += kAlphabet[(chunk >> 18) & 63];
    out += kAlphabet[(chunk >> 12) & 63];
    out += i + 1 < size ? kAlphabet[(chunk >> 6) & 63] : '=';
    out += i + 2 < size ? kAlphabet[chunk & 63] : '=';
  }
  return out;
}

constexpr const char* kStyle = R"CSS(
:root { --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --ink: #1f2328; --muted: #656d76; --line: #d0d7de;
        --base: #8c959f; --cur: #0969da; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0 auto;
       max-width: 1100px; padding: 16px 24px 48px; }
header { border-bottom: 1px solid var(--line); margin-bottom: 8px; }
header h1 { font-size: 22px; margin: 8px 0 4px; }
header nav a { margin-right: 12px; }
section { margin: 24px 0; }
h2 { font-size: 17px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 4px; }
.meta { color: var(--muted); }
.note { color: var(--muted); font-style: italic; }
.verdict { display: inline-block; font-weight: 600; padding: 2px 10px; border-radius: 12px; color: #fff; }
.verdict.passed { background: var(--ok); } .verdict.failed { background: var(--bad); }
.score { font-size: 28px; font-weight: 600; margin-left: 12px; vertical-align: middle; }
table { border-collapse: collapse; width: 100%; margin: 6px 0; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.value { font-family: ui-monospace, monospace; white-space: pre-wrap; word-break: break-all; }
tr.failed td:first-child { border-left: 3px solid var(--bad); }
tr.warn td:first-child { border-left: 3px solid var(--warn); }
th button { all: inherit; cursor: pointer; padding: 0; }
th[aria-sort=ascending] button::after { content: " \25B2"; }
th[aria-sort=descending] button::after { content: " \25BC"; }
.rate { display: inline-block; width: 80px; height: 8px; background: #ffebe9; margin-right: 6px; }
.rate > span { display: block; height: 100%; background: var(--ok); }
input[type=search] { width: 320px; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; }
.chart { width: 100%; max-width: 600px; height: auto; display: block; }
.chart .grid { stroke: var(--line); } .chart .tick { fill: var(--muted); font-size: 10px; }
.chart .trend { fill: none; stroke: var(--cur); stroke-width: 2; }
.chart .point { fill: var(--ok); } .chart .point.failed { fill: var(--bad); }
.chart .bar.series-0 { fill: var(--cur); }
.chart .bar-chart .bar.series-0, .drift .chart .bar.series-0 { fill: var(--base); }
.drift .chart .bar.series-1 { fill: var(--cur); }
.chart .legend { font-size: 11px; } .chart .legend.series-0 { fill: var(--base); } .chart .legend.series-1 { fill: var(--cur); }
#verdict dl { display: grid; grid-template-columns: auto 1fr; gap: 0 16px; }
#verdict dd { margin: 0; }
.columns { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 12px; }
.column { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
.column h3 { margin-top: 0; } .column dl { display: grid; grid-template-columns: auto 1fr; gap: 0 12px; margin: 4px 0; }
.column dt { color: var(--muted); } .column dd { margin: 0; }
.drift-failed { color: var(--bad); font-weight: 600; }
.anomaly-failed { color: var(--bad); font-weight: 600; }
.chart .band { fill: var(--ok); fill-opacity: 0.12; }
.chart .point.earlier { fill: var(--base); } .chart .point.history { fill: var(--cur); }
.chart .point.current { fill: var(--ok); stroke: var(--ink); stroke-width: 1.5; }
.chart .point.current.failed { fill: var(--bad); }
)CSS";

constexpr const char* kScript = R"JS(
(function () {
  'use strict';
  var params = new URLSearchParams(location.hash.slice(1));
  function keyOf(row, index, numeric) {
    var cell = row.cells[index];
    var key = cell.hasAttribute('data-key') ? cell.getAttribute('data-key') : cell.textContent;
    if (!numeric) return key.toLowerCase();
    var number = parseFloat(key);
    return isNaN(number) ? -Infinity : number;
  }
  function setUp(table) {
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
    var input = document.querySelector('input[data-filter-for="' + table.id + '"]');
    var shown = document.getElementById(table.id + '-shown');
    var state = { sort: params.get(table.id + '.sort') || '', dir: params.get(table.id + '.dir') || 'asc',
                  q: params.get(table.id + '.q') || '' };
    function save() {
      var keep = new URLSearchParams(location.hash.slice(1));
      ['sort', 'dir', 'q'].forEach(function (name) {
        if (state[name]) keep.set(table.id + '.' + name, state[name]); else keep.delete(table.id + '.' + name);
      });
      history.replaceState(null, '', '#' + keep.toString());
    }
    function render() {
      var index = -1;
      headers.forEach(function (th, i) {
        if (th.getAttribute('data-col') === state.sort) index = i;
        th.removeAttribute('aria-sort');
      });
      var ordered = rows.map(function (row, position) { return { row: row, position: position, key: null }; });
      if (index >= 0) {
        var numeric = headers[index].getAttribute('data-type') === 'number';
        var sign = state.dir === 'desc' ? -1 : 1;
        headers[index].setAttribute('aria-sort', state.dir === 'desc' ? 'descending' : 'ascending');
        ordered.forEach(function (entry) { entry.key = keyOf(entry.row, index, numeric); });
        ordered.sort(function (a, b) {
          if (a.key < b.key) return -sign;
          if (a.key > b.key) return sign;
          return a.position - b.position;  // stable: ties keep the report's order
        });
      }
      var words = state.q.toLowerCase().split(/\s+/).filter(Boolean);
      var visible = 0;
      var fragment = document.createDocumentFragment();
      ordered.forEach(function (entry) {
        var text = texts[entry.position];
        entry.row.hidden = !words.every(function (word) { return text.indexOf(word) >= 0; });
        if (!entry.row.hidden) visible += 1;
        fragment.appendChild(entry.row);
      });
      body.appendChild(fragment);
      table.setAttribute('data-visible-rows', String(visible));
      if (shown) shown.textContent = visible + ' of ' + rows.length + ' shown';
    }
    headers.forEach(function (th) {
      var button = th.querySelector('button');
      if (!button) return;
      button.addEventListener('click', function () {
        var col = th.getAttribute('data-col');
        state.dir = state.sort === col && state.dir === 'asc' ? 'desc' : 'asc';
        state.sort = col;
        save();
        render();
      });
    });
    if (input) {
      input.value = state.q;
      input.addEventListener('input', function () { state.q = input.value; save(); render(); });
    }
    render();
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), setUp);
  document.documentElement.setAttribute('data-ready', 'true');
})();
)JS";

}  // namespace

const std::string& HtmlPageStyle() {
  static const std::string style(kStyle);
  return style;
}

const std::string& HtmlPageScript() {
  static const std::string script(kScript);
  return script;
}

const std::string& HtmlContentSecurityPolicy() {
  static const std::string policy = [] {
    const auto digest = Sha256(HtmlPageScript());
    return "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-" +
           Base64(digest.data(), digest.size()) + "'; base-uri 'none'; form-action 'none'";
  }();
  return policy;
}

}  // namespace griffin
