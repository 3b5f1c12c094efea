#include "sim/service/submit_validation.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "sim/scenario/input_error.h"
#include "sim/service/confined_file.h"
#include "sim/service/protocol.h"
#include "sim/service/request_line.h"

namespace symsim::service {

namespace {

Validation failed(const char* code, std::string message) {
  Validation v;
  v.error_code = code;
  v.message = std::move(message);
  return v;
}

// Out of file descriptors, validation would fail to open a preset and blame the scenario.
bool descriptors_left() {
  const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) close(fd);
  return fd >= 0 || (errno != EMFILE && errno != ENFILE);
}

}  // namespace

Validation validate_submission(const SubmitRequest& r, const ConfinedRoot* root, size_t max_bytes) {
  const bool from_file = !r.scenario;
  try {
    if (!descriptors_left())
      return failed(err::kServerBusy, "the server is out of file descriptors; try again later");
    Validation v;
    if (from_file) {
      if (!root) return failed(err::kInvalidScenario, "this server reads no files (scenario_path)");
      try {
        v.text = root->read(r.scenario_path, max_bytes);
      } catch (const ConfinedFileError& e) {
        return failed(e.resource ? err::kServerBusy : err::kInvalidScenario, e.what());
      }
      if (json_nesting_depth(v.text) > kMaxJsonDepth)
        return failed(err::kInvalidScenario, fmt::format("scenario_path '{}': nested more than {} levels deep",
                                                         r.scenario_path, kMaxJsonDepth));
    } else {
      v.text = r.scenario->dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    Scenario sc;
    try {
      sc = load_scenario_text(v.text, r.display, r.load);
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      // An InputError, or a JSON exception from a value that is not a number (a "set" of
      // 1e400; fuzz find). The client sent an inline scenario: its own text may be quoted
      // back. A file it named may be one it cannot read itself, so nothing of its contents is.
      if (!from_file) return failed(err::kInvalidScenario, e.what());
      return failed(err::kInvalidScenario,
                    fmt::format("scenario_path '{}' is not a valid scenario (the server does not quote files "
                                "it reads; check it with `symsim validate`)",
                                r.scenario_path));
    }
    if (!r.trace_pes.empty()) check_trace_pes(r.trace_pes, sc.pes);
    v.name = sc.name;
    return v;
  } catch (const BadRequest& e) {
    return failed(err::kBadRequest, e.what());
  } catch (const std::bad_alloc&) {
    return failed(err::kServerBusy, "the server is out of memory; try again later");
  } catch (const std::exception& e) {
    return failed(err::kInternal, from_file ? "internal error while validating scenario_path" : e.what());
  }
}

}  // namespace symsim::service
