// Unit tests of the pure hgrid library: layouts, level choice (eq. 3).
#include "libhgrid/layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using hgrid::Layout;
using hgrid::Search;

TEST(Layout, LevelOfInsertionIsLowestLevelThatFits)
{
  Layout layout{{1.0, 2.0, 4.0}, Search::TopDown};
  EXPECT_EQ(hgrid::level_of(layout, 0.5), 0);
  EXPECT_EQ(hgrid::level_of(layout, 1.0), 0);    // c <= s_h is inclusive
  EXPECT_EQ(hgrid::level_of(layout, 1.001), 1);
  EXPECT_EQ(hgrid::level_of(layout, 2.0), 1);
  EXPECT_EQ(hgrid::level_of(layout, 3.999), 2);
  EXPECT_EQ(hgrid::level_of(layout, 4.0), 2);
  EXPECT_EQ(hgrid::level_of(layout, 4.01), -1);    // larger than every level
}

TEST(Layout, ValidateAcceptsIncreasingSizesCoveringLargestParticle)
{
  EXPECT_NO_THROW(hgrid::validate(Layout{{1.0, 3.0}, Search::BottomUp}, 3.0));
  EXPECT_NO_THROW(hgrid::validate(Layout{{5.0}, Search::BottomUp}, 1.0));
}

TEST(Layout, ValidateRejectsBadLayouts)
{
  EXPECT_THROW(hgrid::validate(Layout{{}, Search::BottomUp}, 1.0), std::invalid_argument);
  EXPECT_THROW(hgrid::validate(Layout{{1.0, 1.0}, Search::BottomUp}, 1.0), std::invalid_argument);
  EXPECT_THROW(hgrid::validate(Layout{{2.0, 1.0}, Search::BottomUp}, 1.0), std::invalid_argument);
  EXPECT_THROW(hgrid::validate(Layout{{-1.0, 1.0}, Search::BottomUp}, 1.0), std::invalid_argument);
  EXPECT_THROW(hgrid::validate(Layout{{1.0, NAN}, Search::BottomUp}, 1.0), std::invalid_argument);
  try {
    hgrid::validate(Layout{{1.0, 2.0}, Search::BottomUp}, 2.5);
    FAIL() << "top level smaller than the largest particle was accepted";
  } catch (std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find("top level"), std::string::npos) << e.what();
  }
  try {
    hgrid::validate(Layout{{1.0, 3.0, 2.0}, Search::BottomUp}, 1.0);
    FAIL();
  } catch (std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find("level 3"), std::string::npos) << e.what();
  }
}

TEST(Layout, ExponentialLayoutSpansCutoffRange)
{
  // omega = 100, ratio 3: L = ceil(ln 100 / ln 3) = 5, s_h = 100^(h/5)
  Layout layout = hgrid::exponential_layout(1.0, 100.0, 3.0, Search::TopDown);
  ASSERT_EQ(layout.num_levels(), 5);
  for (int h = 1; h <= 5; ++h)
    EXPECT_NEAR(layout.cell_sizes[h - 1], std::pow(100.0, h / 5.0), 1e-12 * layout.top());
  EXPECT_EQ(layout.top(), 100.0);    // exact, no round-off
  EXPECT_EQ(layout.search, Search::TopDown);
  EXPECT_NO_THROW(hgrid::validate(layout, 100.0));
  EXPECT_EQ(hgrid::level_of(layout, 1.0), 0);
}

TEST(Layout, ExponentialLayoutOfOneSizeHasOneLevel)
{
  Layout layout = hgrid::exponential_layout(2.5, 2.5);
  ASSERT_EQ(layout.num_levels(), 1);
  EXPECT_EQ(layout.top(), 2.5);
  // ratio just above 1 level per factor 3
  EXPECT_EQ(hgrid::exponential_layout(1.0, 2.9).num_levels(), 1);
  EXPECT_EQ(hgrid::exponential_layout(1.0, 3.1).num_levels(), 2);
}

TEST(Layout, ExponentialLayoutRejectsDegenerateInput)
{
  EXPECT_THROW((void) hgrid::exponential_layout(0.0, 1.0), std::invalid_argument);
  EXPECT_THROW((void) hgrid::exponential_layout(1.0, -1.0), std::invalid_argument);
  EXPECT_THROW((void) hgrid::exponential_layout(1.0, 10.0, 1.0), std::invalid_argument);
}

TEST(Layout, DescribeListsEveryLevel)
{
  const std::string text = hgrid::describe(Layout{{1.5, 4.0}, Search::BottomUp});
  EXPECT_NE(text.find("level 1: cell size 1.5"), std::string::npos) << text;
  EXPECT_NE(text.find("level 2: cell size 4, cutoff diameters (1.5, 4]"), std::string::npos) << text;
  EXPECT_STREQ(hgrid::search_name(Search::TopDown), "topdown");
  EXPECT_STREQ(hgrid::search_name(Search::BottomUp), "bottomup");
}
