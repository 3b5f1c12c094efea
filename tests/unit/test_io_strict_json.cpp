// sim/io/strict_json: duplicate keys are named by their JSON pointer; inputs are bounded and
// only regular files are read (a FIFO or a device is refused without blocking).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "sim/io/strict_json.h"
#include "sim/scenario/input_error.h"

namespace fs = std::filesystem;
using symsim::InputError;
using symsim::io::parse_strict_json;
using symsim::io::read_regular_file;

namespace {

InputError expect_input_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError";
  return InputError("", "", "");
}

}  // namespace

TEST(StrictJson, ParsesWhatJsonParses) {
  const std::string text = R"({"a":[1,[2,3],{"b":1,"c":[{"b":2}]}],"b":{"a":1},"s":"x"})";
  EXPECT_EQ(parse_strict_json(text, "t"), nlohmann::json::parse(text));
}

TEST(StrictJson, DuplicateKeysNameTheirPointer) {
  EXPECT_EQ(expect_input_error([] { parse_strict_json(R"({"name":"a","name":"b"})", "f.json"); }).pointer(),
            "/name");
  EXPECT_EQ(expect_input_error([] {
              parse_strict_json(R"({"faults":[{"kind":1},{"kind":1,"kind":2}]})", "f");
            }).pointer(),
            "/faults/1/kind");
  EXPECT_EQ(expect_input_error([] { parse_strict_json(R"({"a":[1,[2,3],{"b":1,"b":2}]})", "f"); }).pointer(),
            "/a/2/b");
  EXPECT_EQ(expect_input_error([] { parse_strict_json(R"({"x/y":{"k~":1,"k~":1}})", "f"); }).pointer(),
            "/x~1y/k~0");
  const InputError e = expect_input_error([] { parse_strict_json(R"({"a":{"b":1},"a":2})", "f.json"); });
  EXPECT_EQ(e.file(), "f.json");
  EXPECT_NE(std::string(e.what()).find("duplicate key"), std::string::npos) << e.what();
}

TEST(StrictJson, NumberOverflowAndSyntaxAreInputErrors) {
  EXPECT_NE(std::string(expect_input_error([] { parse_strict_json(R"({"seed":1e400})", "f"); }).what())
                .find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(
      std::string(expect_input_error([] { parse_strict_json("{\n\"a\":}", "f"); }).what()).find("line 2"),
      std::string::npos);
}

TEST(StrictJson, InputIsBounded) {
  const InputError e = expect_input_error([] { parse_strict_json(std::string(100, ' ') + "1", "f", 50); });
  EXPECT_NE(std::string(e.what()).find("limit"), std::string::npos) << e.what();
}

TEST(StrictJson, OnlyRegularFilesAreRead) {
  const fs::path d = fs::temp_directory_path() / ("symsim-json-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  std::ofstream((d / "ok.json").string()) << R"({"a":1})";
  EXPECT_EQ(symsim::io::read_strict_json_file((d / "ok.json").string())["a"], 1);
  EXPECT_NE(std::string(expect_input_error([&] { read_regular_file(d.string()); }).what()).find("folder"),
            std::string::npos);
  EXPECT_NE(std::string(expect_input_error([] { read_regular_file("/dev/zero"); }).what())
                .find("not a regular file"),
            std::string::npos);
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
  EXPECT_NE(std::string(expect_input_error([&] { read_regular_file((d / "fifo").string()); }).what())
                .find("not a regular file"),
            std::string::npos);
  EXPECT_NE(std::string(expect_input_error([&] { read_regular_file((d / "none").string()); }).what())
                .find("cannot open"),
            std::string::npos);
  std::ofstream((d / "big.json").string()) << std::string(1000, ' ');
  EXPECT_NE(std::string(expect_input_error([&] { read_regular_file((d / "big.json").string(), 999); }).what())
                .find("limit"),
            std::string::npos);
  EXPECT_FALSE(read_regular_file("/proc/self/status").empty());  // size 0 in stat, read to the end
  fs::remove_all(d);
}
