#include "report/html/svg_chart.h"

#include <algorithm>
#include <cstdio>

#include "report/html/html_text.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// Drawing sizes in SVG user units; the charts scale to their box's width.
constexpr double kWidth = 600, kHeight = 160, kPad = 24;

std::string Coordinate(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

std::string OpenSvg(std::string_view aria_label, std::string_view css_class) {
  return "<svg class=\"" + std::string(css_class) + "\" viewBox=\"0 0 " + Coordinate(kWidth) + " " +
         Coordinate(kHeight) + "\" role=\"img\" aria-label=\"" + HtmlEscape(aria_label) + "\">";
}

}  // namespace

std::string SvgLineChart(const std::vector<ChartPoint>& points, double y_min, double y_max,
                         std::string_view aria_label, const ChartBand* band) {
  std::string svg = OpenSvg(aria_label, "chart line-chart");
  const double span = y_max > y_min ? y_max - y_min : 1;
  const auto y_of = [&](double value) {
    const double clamped = std::clamp(value, y_min, y_max);
    return kHeight - kPad - (clamped - y_min) / span * (kHeight - 2 * kPad);
  };
  const auto x_of = [&](size_t i) {
    return points.size() < 2 ? kWidth / 2
                             : kPad + static_cast<double>(i) * (kWidth - 2 * kPad) / static_cast<double>(points.size() - 1);
  };
  for (double tick : {y_min, (y_min + y_max) / 2, y_max}) {
    svg += "<line class=\"grid\" x1=\"" + Coordinate(kPad) + "\" x2=\"" + Coordinate(kWidth - kPad) + "\" y1=\"" +
           Coordinate(y_of(tick)) + "\" y2=\"" + Coordinate(y_of(tick)) + "\"/>";
    svg += "<text class=\"tick\" x=\"2\" y=\"" + Coordinate(y_of(tick) + 4) + "\">" + HtmlEscape(FormatNumber(tick)) +
           "</text>";
  }
  if (band != nullptr) {
    const double top = y_of(band->high.value_or(y_max)), bottom = y_of(band->low.value_or(y_min));
    svg += "<rect class=\"band\" x=\"" + Coordinate(kPad) + "\" y=\"" + Coordinate(top) + "\" width=\"" +
           Coordinate(kWidth - 2 * kPad) + "\" height=\"" + Coordinate(std::max(bottom - top, 1.0)) + "\"><title>" +
           HtmlEscape(band->label) + "</title></rect>";
  }
  if (points.size() > 1) {
    svg += "<polyline class=\"trend\" points=\"";
    for (size_t i = 0; i < points.size(); ++i)
      svg += (i ? " " : "") + Coordinate(x_of(i)) + "," + Coordinate(y_of(points[i].value));
    svg += "\"/>";
  }
  for (size_t i = 0; i < points.size(); ++i) {
    const ChartPoint& point = points[i];
    std::string mark = "<circle class=\"point" + std::string(point.marked ? " failed" : "") +
                       (point.css_class.empty() ? "" : " " + point.css_class) + "\" data-value=\"" +
                       FormatDouble(point.value) + "\" cx=\"" + Coordinate(x_of(i)) + "\" cy=\"" +
                       Coordinate(y_of(point.value)) + "\" r=\"4\"><title>" +
                       HtmlEscape(point.label + ": " + FormatNumber(point.value)) + "</title></circle>";
    if (!point.href.empty()) mark = "<a href=\"" + HtmlEscape(point.href) + "\">" + mark + "</a>";
    svg += mark;
  }
  return svg + "</svg>";
}

std::string SvgBarChart(const std::vector<ChartBar>& bars, const std::vector<std::string>& series,
                        std::string_view aria_label) {
  std::string svg = OpenSvg(aria_label, "chart bar-chart");
  double largest = 0;
  for (const ChartBar& bar : bars)
    for (double value : bar.values) largest = std::max(largest, value);
  const size_t series_count = std::max<size_t>(series.size(), 1);
  const double group_width = bars.empty() ? 0 : (kWidth - 2 * kPad) / static_cast<double>(bars.size());
  const double bar_width = group_width * 0.8 / static_cast<double>(series_count);
  for (size_t b = 0; b < bars.size(); ++b) {
    for (size_t s = 0; s < bars[b].values.size() && s < series_count; ++s) {
      const double value = bars[b].values[s];
      const double height = largest > 0 ? value / largest * (kHeight - 2 * kPad) : 0;
      const double x = kPad + static_cast<double>(b) * group_width + group_width * 0.1 + static_cast<double>(s) * bar_width;
      std::string tooltip = bars[b].label;
      if (!series.empty()) tooltip += " " + series[s];
      tooltip += ": " + FormatNumber(value);
      svg += "<rect class=\"bar series-" + std::to_string(s) + "\" x=\"" + Coordinate(x) + "\" y=\"" +
             Coordinate(kHeight - kPad - height) + "\" width=\"" + Coordinate(bar_width) + "\" height=\"" +
             Coordinate(height) + "\"><title>" + HtmlEscape(tooltip) + "</title></rect>";
    }
  }
  if (!bars.empty()) {  // the first and last labels under the axis
    svg += "<text class=\"tick\" x=\"" + Coordinate(kPad) + "\" y=\"" + Coordinate(kHeight - 6) + "\">" +
           HtmlEscape(bars.front().label) + "</text>";
    if (bars.size() > 1)
      svg += "<text class=\"tick end\" x=\"" + Coordinate(kWidth - kPad) + "\" y=\"" + Coordinate(kHeight - 6) +
             "\" text-anchor=\"end\">" + HtmlEscape(bars.back().label) + "</text>";
  }
  for (size_t s = 0; s < series.size(); ++s)
    svg += "<text class=\"legend series-" + std::to_string(s) + "\" x=\"" + Coordinate(kWidth - kPad) + "\" y=\"" +
           Coordinate(12 + 14 * static_cast<double>(s)) + "\" text-anchor=\"end\">" + HtmlEscape(series[s]) + "</text>";
  return svg + "</svg>";
}

}  // namespace griffin
