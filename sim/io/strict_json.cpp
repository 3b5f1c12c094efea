#include "sim/io/strict_json.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "sim/scenario/input_error.h"

namespace symsim::io {

using nlohmann::json;

std::string json_pointer_escape(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string read_regular_file(const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below anyway).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw InputError(path, "", fmt::format("cannot open the file: {}", std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw InputError(path, "", fmt::format("cannot read the file: {}", std::strerror(err)));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(path, "", S_ISDIR(st.st_mode) ? "is a folder, not a file" : "is not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    throw InputError(path, "", fmt::format("the file is {} bytes, more than the limit of {} bytes",
                                           static_cast<uint64_t>(st.st_size), max_bytes));
  }
  std::string text;
  text.resize(static_cast<size_t>(st.st_size) + 1);  // one more byte tells a file that grew
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw InputError(path, "", fmt::format("cannot read the file: {}", std::strerror(err)));
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
    if (got > max_bytes) {
      ::close(fd);
      throw InputError(path, "", fmt::format("the file grew past the limit of {} bytes while read", max_bytes));
    }
    if (got == text.size()) text.resize(std::min(text.size() * 2, max_bytes + 1));
  }
  ::close(fd);
  text.resize(got);
  return text;
}

namespace {

// Where the parser is: one frame per open object or array.
struct Frame {
  bool array = false;
  size_t index = 0;        // arrays: the element being parsed
  std::string key;         // objects: the key being parsed
  std::set<std::string> keys;
};

struct DuplicateKey {
  std::string pointer;
};

std::string pointer_of(const std::vector<Frame>& stack) {
  std::string ptr;
  for (const Frame& f : stack) ptr += "/" + (f.array ? std::to_string(f.index) : json_pointer_escape(f.key));
  return ptr;
}

}  // namespace

json parse_strict_json(const std::string& text, const std::string& name, size_t max_bytes) {
  if (text.size() > max_bytes)
    throw InputError(name, "", fmt::format("the input is {} bytes, more than the limit of {} bytes", text.size(), max_bytes));
  std::vector<Frame> stack;
  // After a value ends inside an array, the next element starts.
  auto element_done = [&stack] {
    if (!stack.empty() && stack.back().array) ++stack.back().index;
  };
  json::parser_callback_t cb = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: stack.push_back(Frame{false, 0, {}, {}}); break;
      case json::parse_event_t::array_start: stack.push_back(Frame{true, 0, {}, {}}); break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        stack.pop_back();
        element_done();
        break;
      case json::parse_event_t::key: {
        Frame& f = stack.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second) throw DuplicateKey{pointer_of(stack)};
        break;
      }
      case json::parse_event_t::value: element_done(); break;
    }
    return true;
  };
  try {
    return json::parse(text, cb);
  } catch (const DuplicateKey& d) {
    throw InputError(name, d.pointer, "duplicate key (each key may appear once in an object)");
  } catch (const json::parse_error& e) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') { ++line; col = 1; } else { ++col; }
    }
    throw InputError(name, "", fmt::format("not valid JSON at line {}, column {}", line, col));
  } catch (const json::exception& e) {
    // A number too large for any JSON number type (out_of_range 406) and the like.
    throw InputError(name, "", fmt::format("not valid JSON: {}", e.what()));
  }
}

json read_strict_json_file(const std::string& path, size_t max_bytes) {
  return parse_strict_json(read_regular_file(path, max_bytes), path, max_bytes);
}

}  // namespace symsim::io
