// --set PATH=VALUE, the one implementation (symsim run/validate, sweeps' "set" and grid axes,
// the service's submit "set", explore and co-simulation all go through it; docs/cli.md).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace symsim {

struct SetOverride {
  std::string path;     // dotted: "kernel.args.bytes", "platform.hbm.bytes"
  nlohmann::json value; // JSON, or a bare word as a string
};

// Parses "PATH=VALUE"; throws InputError naming `file` and the --set.
SetOverride parse_set(const std::string& text, const std::string& file);

// Applies one --set to a scenario document: "platform.NAME" sets /overrides/NAME (NAME may hold
// dots); any other path names a value of the document and may create a key only where the
// scenario schema (docs/schema/scenario.schema.json) has a place for one.
void apply_set(nlohmann::json& doc, const std::string& file, const SetOverride& set);

}  // namespace symsim
