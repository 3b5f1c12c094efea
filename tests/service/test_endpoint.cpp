// Endpoint parsing and the loopback rule `symsim serve` applies before listening on TCP.
#include <gtest/gtest.h>

#include "sim/scenario/input_error.h"
#include "sim/service/endpoint.h"

using namespace symsim::service;

TEST(Endpoint, ParsesUnixAndTcp) {
  Endpoint e = parse_endpoint("unix:/tmp/x.sock", "--listen");
  EXPECT_TRUE(e.is_unix);
  EXPECT_EQ(e.path, "/tmp/x.sock");
  e = parse_endpoint("run/s.sock", "--listen");
  EXPECT_TRUE(e.is_unix);
  e = parse_endpoint("tcp:127.0.0.1:7070", "--listen");
  EXPECT_FALSE(e.is_unix);
  EXPECT_EQ(e.host, "127.0.0.1");
  EXPECT_EQ(e.port, 7070);
  e = parse_endpoint("[::1]:0", "--listen");
  EXPECT_EQ(e.host, "::1");
  EXPECT_EQ(e.port, 0);
  EXPECT_EQ(parse_endpoint("localhost:9", "x").describe(), "tcp:localhost:9");
}

TEST(Endpoint, RejectsMalformed) {
  EXPECT_THROW(parse_endpoint("tcp:127.0.0.1", "--listen"), symsim::InputError);
  EXPECT_THROW(parse_endpoint("tcp:127.0.0.1:70000", "--listen"), symsim::InputError);
  EXPECT_THROW(parse_endpoint("host:port", "--listen"), symsim::InputError);
  EXPECT_THROW(parse_endpoint("unix:", "--listen"), symsim::InputError);
}

TEST(Endpoint, Loopback) {
  EXPECT_TRUE(is_loopback_host("127.0.0.1"));
  EXPECT_TRUE(is_loopback_host("127.8.9.1"));
  EXPECT_TRUE(is_loopback_host("::1"));
  EXPECT_TRUE(is_loopback_host("localhost"));
  EXPECT_FALSE(is_loopback_host("0.0.0.0"));
  EXPECT_FALSE(is_loopback_host("10.1.2.3"));
  EXPECT_FALSE(is_loopback_host("example.com"));
}
