#include "report/html/svg_chart.h"

#include <gtest/gtest.h>

#include "report/html/html_test_util.h"

namespace griffin {
namespace {

using html_test::Occurrences;

TEST(SvgLineChartTest, OnePointPerRunOnTheAxis) {
  const std::string svg = SvgLineChart({{"run 1", 1.0}, {"run 2", 0.5, true, "/ui/runs/b"}, {"run 3", 0.0}}, 0, 1, "score");
  EXPECT_EQ(Occurrences(svg, "<circle"), 3u);
  EXPECT_EQ(Occurrences(svg, "class=\"point failed\""), 1u);
  EXPECT_NE(svg.find("<a href=\"/ui/runs/b\">"), std::string::npos);
  // 1.0 at the top of the plot (y = pad), 0.0 at the bottom (height - pad), 0.5 between.
  EXPECT_NE(svg.find("points=\"24.0,24.0 300.0,80.0 576.0,136.0\""), std::string::npos);
  EXPECT_NE(svg.find("<title>run 2: 0.5</title>"), std::string::npos);
}

TEST(SvgLineChartTest, ClampsAndEscapes) {
  const std::string svg = SvgLineChart({{"<b>", 7.0}}, 0, 1, "a \"label\"");
  EXPECT_NE(svg.find("cy=\"24.0\""), std::string::npos);  // clamped to 1
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;b&gt;"), std::string::npos);
  EXPECT_NE(svg.find("aria-label=\"a &quot;label&quot;\""), std::string::npos);
  EXPECT_EQ(Occurrences(SvgLineChart({}, 0, 1, "empty"), "<circle"), 0u);
}

TEST(SvgLineChartTest, BandAcrossThePlotAndPointClasses) {
  ChartPoint current{"this run", 0.75, true, "", "current"};
  const ChartBand band{0.5, std::nullopt, "passes: >= 0.5"};
  const std::string svg = SvgLineChart({{"run 1", 0.6}, current}, 0, 1, "metric", &band);
  // From the top of the plot (open side: y = pad) down to 0.5 (y = 80).
  EXPECT_NE(svg.find("<rect class=\"band\" x=\"24.0\" y=\"24.0\" width=\"552.0\" height=\"56.0\">"
                     "<title>passes: &gt;= 0.5</title></rect>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("class=\"point failed current\" data-value=\"0.75\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("class=\"point\" data-value=\"0.6\""), std::string::npos) << svg;
  EXPECT_EQ(SvgLineChart({{"a", 1}}, 0, 1, "no band").find("class=\"band\""), std::string::npos);
}

TEST(SvgBarChartTest, HeightsRelativeToTheLargest) {
  const std::string svg = SvgBarChart({{"[0, 1)", {2, 4}}, {"[1, 2]", {1, 0}}}, {"baseline", "current"}, "drift");
  EXPECT_EQ(Occurrences(svg, "<rect"), 4u);
  EXPECT_EQ(Occurrences(svg, "class=\"bar series-1\""), 2u);
  EXPECT_NE(svg.find("height=\"112.0\"><title>[0, 1) current: 4</title>"), std::string::npos);  // the largest: full height
  EXPECT_NE(svg.find("height=\"56.0\"><title>[0, 1) baseline: 2</title>"), std::string::npos);
  EXPECT_NE(svg.find(">baseline</text>"), std::string::npos);
}

}  // namespace
}  // namespace griffin
