// Unit tests of the pure hgrid library: layouts, level choice (eq. 3).
#include "libhgrid/layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
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

TEST(Layout, DescribeListsEveryLevel)
{
  const std::string text = hgrid::describe(Layout{{1.5, 4.0}, Search::BottomUp});
  EXPECT_NE(text.find("level 1: cell size 1.5"), std::string::npos) << text;
  EXPECT_NE(text.find("level 2: cell size 4, cutoff diameters (1.5, 4]"), std::string::npos) << text;
  EXPECT_STREQ(hgrid::search_name(Search::TopDown), "topdown");
  EXPECT_STREQ(hgrid::search_name(Search::BottomUp), "bottomup");
}
