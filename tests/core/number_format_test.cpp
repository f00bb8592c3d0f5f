// Tests for core/number_format.h.
#include "core/number_format.h"

#include <gtest/gtest.h>

#include <limits>

namespace asg::core {
namespace {

TEST(NumberFormatTest, IntegralValuesAreWrittenAsIntegers) {
  EXPECT_EQ(FormatNumber(0.0), "0");
  EXPECT_EQ(FormatNumber(75.0), "75");
  EXPECT_EQ(FormatNumber(-3.0), "-3");
  EXPECT_EQ(FormatNumber(999999999999999.0), "999999999999999");
}

TEST(NumberFormatTest, OtherValuesAreTheShortestTextThatReadsBack) {
  EXPECT_EQ(FormatNumber(0.1), "0.1");
  EXPECT_EQ(FormatNumber(2.5e-7), "2.5e-07");
  EXPECT_EQ(FormatNumber(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(FormatNumber(1e15), "1e+15");
  for (const double value : {0.1, 1.0 / 3.0, 123.456, -7.25e-12, 6.02214076e23}) {
    EXPECT_EQ(std::stod(FormatNumber(value)), value) << FormatNumber(value);
  }
}

TEST(NumberFormatTest, NonFiniteValuesAreNamed) {
  EXPECT_EQ(FormatNumber(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(FormatNumber(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatNumber(-std::numeric_limits<double>::infinity()), "-inf");
}

}  // namespace
}  // namespace asg::core
