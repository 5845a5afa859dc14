// Unit tests of the pure hgrid library: layouts, level choice (eq. 3).
#include "libhgrid/layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

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
  EXPECT_THROW(hgrid::validate(Layout{{1.0}, Search::BottomUp, -1}, 1.0), std::invalid_argument);
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
  EXPECT_NE(text.find("level 2: cell size 4, cutoff diameters (1.5, 4]"), std::string::npos)
      << text;
  EXPECT_EQ(hgrid::describe(Layout{{4.0}, Search::BottomUp, 1}).find("sub-cells"),
            std::string::npos);
  EXPECT_NE(hgrid::describe(Layout{{4.0}, Search::BottomUp}).find("split into 2^d sub-cells"),
            std::string::npos);
  EXPECT_STREQ(hgrid::search_name(Search::TopDown), "topdown");
  EXPECT_STREQ(hgrid::search_name(Search::BottomUp), "bottomup");
}

TEST(Layout, GhostClassesStepAtMostTheRatioFromSmallestToTop)
{
  const Layout layout{{3.0, 20.0, 100.0}, Search::BottomUp};
  const auto b = hgrid::ghost_classes(layout, 1.05);
  ASSERT_GE(b.size(), 2u);
  EXPECT_DOUBLE_EQ(b.front(), 1.05);
  EXPECT_DOUBLE_EQ(b.back(), 100.0);
  // ceil(log(100/1.05)/log(1.25)) = 21 steps: 22 classes
  EXPECT_EQ(b.size(), 22u);
  for (std::size_t k = 1; k < b.size(); ++k) {
    EXPECT_GT(b[k], b[k - 1]);
    EXPECT_LE(b[k] / b[k - 1], hgrid::kGhostClassRatio * (1.0 + 1e-12)) << "class " << k;
  }
}

TEST(Layout, GhostClassesLimitedAndDegenerate)
{
  const Layout wide{{1.0e4}, Search::BottomUp};
  const auto b = hgrid::ghost_classes(wide, 1.0);    // 42 steps of 1.25 needed
  EXPECT_EQ(static_cast<int>(b.size()), hgrid::kMaxGhostClasses);
  EXPECT_DOUBLE_EQ(b.back(), 1.0e4);
  EXPECT_EQ(hgrid::ghost_classes(wide, 1.0e4), std::vector<double>{1.0e4});    // monodisperse
  EXPECT_EQ(hgrid::ghost_classes(wide, 0.0), std::vector<double>{1.0e4});      // no sizes known
  const auto near = hgrid::ghost_classes(Layout{{1.1}, Search::BottomUp}, 1.0);
  ASSERT_EQ(near.size(), 2u);    // one step below the ratio
  EXPECT_DOUBLE_EQ(near[0], 1.0);
}

TEST(Layout, SubCellsOfOneLevelOnly)
{
  // a one-level layout splits its cells (default kSingleLevelSubdivisions, or its own
  // k); a hierarchy never does, and its k is ignored, also by ==
  EXPECT_EQ(hgrid::subdivisions_of(Layout{{4.0}, Search::BottomUp}),
            hgrid::kSingleLevelSubdivisions);
  EXPECT_EQ(hgrid::subdivisions_of(Layout{{4.0}, Search::BottomUp, 1}), 1);
  EXPECT_EQ(hgrid::subdivisions_of(Layout{{1.0, 4.0}, Search::BottomUp, 3}), 1);
  EXPECT_NE((Layout{{4.0}, Search::BottomUp, 1}), (Layout{{4.0}, Search::BottomUp}));
  EXPECT_EQ((Layout{{4.0}, Search::BottomUp, hgrid::kSingleLevelSubdivisions}),
            (Layout{{4.0}, Search::BottomUp}));
  EXPECT_EQ((Layout{{1.0, 4.0}, Search::BottomUp, 1}), (Layout{{1.0, 4.0}, Search::BottomUp}));
}
