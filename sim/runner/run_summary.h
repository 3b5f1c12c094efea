// The short human summary printed after a run, read from result.json alone (so a result
// fetched from the service summarises the same way).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace symsim {

std::string summarize(const nlohmann::json& result);

}  // namespace symsim
