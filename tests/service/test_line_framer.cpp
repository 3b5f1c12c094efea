// The service's JSON-lines framing: lines split across reads, blank lines, CRLF, and an
// over-long line reported once and skipped without disturbing the lines around it.
#include <gtest/gtest.h>

#include "sim/service/line_framer.h"

using symsim::service::LineFramer;

namespace {
std::vector<LineFramer::Item> feed(LineFramer& f, const std::string& s) {
  std::vector<LineFramer::Item> out;
  f.feed(s.data(), s.size(), out);
  return out;
}
}  // namespace

TEST(LineFramer, SplitsLinesAcrossReads) {
  LineFramer f(100);
  EXPECT_TRUE(feed(f, "{\"op\":").empty());
  EXPECT_EQ(f.pending_bytes(), 6u);
  auto items = feed(f, "\"hello\"}\n{\"op\":\"list\"}\r\n\n  \n{\"a\"");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].text, "{\"op\":\"hello\"}");
  EXPECT_EQ(items[1].text, "{\"op\":\"list\"}");
  EXPECT_FALSE(items[0].too_long);
  items = feed(f, ":1}\n");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].text, "{\"a\":1}");
}

TEST(LineFramer, OverLongLineReportedOnceAndSkipped) {
  LineFramer f(16);
  auto items = feed(f, "{\"ok\":1}\n" + std::string(40, 'x'));
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].text, "{\"ok\":1}");
  EXPECT_TRUE(items[1].too_long);
  EXPECT_EQ(f.pending_bytes(), 0u);  // nothing of the long line is kept
  items = feed(f, std::string(1000, 'y'));
  EXPECT_TRUE(items.empty());  // still inside the same line: no second report
  items = feed(f, "zz\n{\"next\":2}\n");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].text, "{\"next\":2}");
}

TEST(LineFramer, LineExactlyAtTheLimitPasses) {
  LineFramer f(8);
  auto items = feed(f, "12345678\n123456789\nok\n");
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].text, "12345678");
  EXPECT_TRUE(items[1].too_long);
  EXPECT_EQ(items[2].text, "ok");
}
