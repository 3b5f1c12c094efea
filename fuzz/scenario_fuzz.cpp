// libFuzzer target for the scenario parser and validator: any input must either load or be
// rejected with an InputError (exit code 2 in the CLI); anything else (another exception, a
// crash, a sanitizer report) is a bug. Built by fuzz/run.sh with clang, not part of CI.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/scenario/input_error.h"
#include "sim/scenario/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    symsim::load_scenario_text(text, "fuzz.json");
  } catch (const symsim::InputError&) {
    // Rejected with a file, a pointer and a reason: what the CLI turns into exit code 2.
  }
  return 0;
}

// libsystemc.so calls sc_main from its own main(); libFuzzer's main runs instead, but the
// symbol must exist.
extern "C" int sc_main(int, char**) { return 0; }
