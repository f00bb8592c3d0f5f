// Tests for core/number_format.h.
#include "core/number_format.h"

#include <gtest/gtest.h>

#include <cmath>
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

// The cases terrain's own formatter was tested with, which core::FormatNumber replaces.
TEST(NumberFormatTest, IsShortestRoundTrip) {
  EXPECT_EQ(FormatNumber(-1.0), "-1");
  EXPECT_EQ(FormatNumber(0.7), "0.7");
  EXPECT_EQ(FormatNumber(1e6), "1000000");
  EXPECT_EQ(FormatNumber(0.0), "0");
  EXPECT_EQ(FormatNumber(1e-9), "1e-09");
  EXPECT_EQ(FormatNumber(2.5e20), "2.5e+20");
  EXPECT_EQ(FormatNumber(std::nan("")), "nan");
}

TEST(NumberFormatTest, RoundsToSignificantDigitsWhenAsked) {
  EXPECT_EQ(FormatNumber(6.4031242374328485, 3), "6.4");
  EXPECT_EQ(FormatNumber(9.0, 3), "9");
  EXPECT_EQ(FormatNumber(1234.5, 3), "1230");
  EXPECT_EQ(FormatNumber(0.000123456, 3), "0.000123");
  EXPECT_EQ(FormatNumber(std::nan(""), 3), "nan");
}

}  // namespace
}  // namespace asg::core
