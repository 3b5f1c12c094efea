// Small string helpers shared by the litmus parsers.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace symsim::litmus {

std::string trim(const std::string& s);
std::vector<std::string> split(const std::string& s, char sep);
bool starts_with(const std::string& s, const std::string& prefix);
std::optional<long long> parse_int(const std::string& s);  // whole string, optional sign
bool is_identifier(const std::string& s);

}  // namespace symsim::litmus
