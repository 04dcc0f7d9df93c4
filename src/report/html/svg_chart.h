// Inline SVG charts for the HTML pages: no script, no network, every label
// escaped (each mark carries a <title> tooltip with its label and value).
//
//   page += SvgLineChart(points, 0, 1, "quality score by run");
//   page += SvgLineChart(points, 0, 2000, "row_count by run", &band);
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace griffin {

struct ChartPoint {
  std::string label;     // the tooltip: "run 3 2026-12-04T10:00:00Z"
  double value = 0;
  bool marked = false;   // drawn as a failure (a failed run)
  std::string href;      // a link for the point; empty: none
  std::string css_class;  // more classes for its mark ("history", "current"); empty: none
};

// A horizontal band across the plot, from `low` to `high` (an open side
// reaches the plot's edge): the range of values that pass, say.
struct ChartBand {
  std::optional<double> low, high;
  std::string label;     // its tooltip
};

// A line over `points` in order, on a fixed [y_min, y_max] axis (values
// outside are clamped to it). Empty `points` give an empty chart. Each
// point's circle carries its exact value (data-value, shortest round trip)
// and a tooltip with its label and the value for people.
std::string SvgLineChart(const std::vector<ChartPoint>& points, double y_min, double y_max,
                         std::string_view aria_label, const ChartBand* band = nullptr);

struct ChartBar {
  std::string label;            // an x label: a value, a bin "[0, 5)"
  std::vector<double> values;   // one per series
};

// Grouped bars, one group per `bars` entry, one bar per series; heights are
// relative to the largest value. `series` names the series (the legend and
// the CSS classes series-0, series-1...).
std::string SvgBarChart(const std::vector<ChartBar>& bars, const std::vector<std::string>& series,
                        std::string_view aria_label);

}  // namespace griffin
