// Checks a sweep results.json read back for --merge or --resume: every field the merge uses is
// there with its type, counts are bounded, and the shard's points belong to it. A file edited
// by hand or cut short is refused with exit 2 naming the file and the JSON pointer, never a
// crash or an unbounded allocation.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace symsim::sweep {

// Throws InputError(file, pointer, what).
void check_results_document(const nlohmann::ordered_json& doc, const std::string& file);

// Checks one row (the rows of results.json, or a point's row.json); `pointer` locates it.
void check_row(const nlohmann::ordered_json& row, const std::string& file, const std::string& pointer,
               size_t points_total);

}  // namespace symsim::sweep
