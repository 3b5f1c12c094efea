// libFuzzer target for the service's request handling: bytes as they arrive on a connection
// are framed into lines (bounded), decoded (nesting bounded), echoed in a reply (as every reply
// echoes "id" and "op"), checked as requests (the field helpers every op uses), and a submit is
// validated as the server's background thread does it, with scenario_path confined to a root
// holding a scenario, a FIFO and a folder. Any input must end in a reply: a BadRequest, a
// protocol error code, or a valid submission. Anything else (another exception, an "internal"
// error, a crash, a sanitizer report) is a bug. Built by fuzz/run.sh with clang, not part of CI.
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "sim/service/confined_file.h"
#include "sim/service/line_framer.h"
#include "sim/service/protocol.h"
#include "sim/service/request_line.h"
#include "sim/service/submit_request.h"
#include "sim/service/submit_validation.h"

namespace {

using nlohmann::json;
using namespace symsim::service;

constexpr size_t kMaxFrameBytes = 64u << 10;

const ConfinedRoot& fuzz_root() {
  static const ConfinedRoot* root = [] {
    char dir[] = "/tmp/symsim-service-fuzz-XXXXXX";
    if (!mkdtemp(dir)) std::abort();
    const std::string d = dir;
    std::ofstream(d + "/s.json") << R"({"symsim":1,"name":"f","seed":1,"platform":"ascend910c","pes":2,)"
                                 << R"("kernel":{"name":"udma_put","blocks":1,"args":{"bytes":512,"rounds":1}}})";
    mkfifo((d + "/fifo").c_str(), 0600);
    mkdir((d + "/sub").c_str(), 0700);
    return new ConfinedRoot(d);
  }();
  return *root;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The field helpers the other ops use, as they use them.
void check_fields(const json& req) {
  try {
    need_string(req, "run");
  } catch (const BadRequest&) {
  }
  try {
    optional_unsigned(req, "offset", 0);
    optional_unsigned(req, "max_bytes", 1);
    optional_string(req, "mode", "finish");
    optional_string(req, "state", "");
    optional_bool(req, "cosim", false);
  } catch (const BadRequest&) {
  }
}

void handle(const LineFramer::Item& item) {
  if (item.too_long) {
    dump(error_reply(nullptr, err::kFrameTooLarge, "too long"));
    return;
  }
  json req;
  try {
    req = decode_request_line(item.text);
  } catch (const BadLine& e) {
    dump(error_reply(nullptr, err::kBadJson, e.what()));
    return;
  }
  dump(error_reply(req, err::kBadRequest, "echo"));
  dump(ok_reply(req));
  if (!req.is_object()) return;
  check_fields(req);
  auto op = req.find("op");
  if (op == req.end() || *op != "submit") return;
  SubmitRequest sub;
  try {
    sub = parse_submit_request(req);
  } catch (const BadRequest&) {
    return;
  }
  const Validation v = validate_submission(sub, &fuzz_root(), kMaxFrameBytes);
  if (v.error_code == err::kInternal) {
    std::fprintf(stderr, "internal error for a request: %s\n", v.message.c_str());
    std::abort();
  }
  dump(v.error_code.empty() ? ok_reply(req, {{"name", v.name}}) : error_reply(req, v.error_code, v.message));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  LineFramer framer(kMaxFrameBytes);
  std::vector<LineFramer::Item> items;
  framer.feed(reinterpret_cast<const char*>(data), size, items);
  framer.feed("\n", 1, items);  // the last line, as if the client ended it
  for (const auto& item : items) handle(item);
  return 0;
}

// libsystemc.so calls sc_main from its own main(); libFuzzer's main runs instead, but the
// symbol must exist.
extern "C" int sc_main(int, char**) { return 0; }
