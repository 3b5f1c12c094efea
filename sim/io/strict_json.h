// Strict JSON input (docs/robustness.md): a duplicate object key is an error naming its JSON
// pointer (nlohmann keeps the last one silently), numbers out of range are errors, and input
// is bounded. Files are read safely: only regular files, the size checked before reading, so
// a FIFO, /dev/zero or a folder is refused at once instead of blocking or filling memory.
// Every failure throws InputError naming the file (or the `name` given) and the pointer.
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace symsim::io {

// Default bound for scenario-sized inputs (the largest file in the repository is a few KiB).
constexpr size_t kDefaultMaxJsonBytes = 16u << 20;

// The contents of the regular file `path`, at most `max_bytes`; throws InputError.
std::string read_regular_file(const std::string& path, size_t max_bytes = kDefaultMaxJsonBytes);

// Parses `text` strictly; `name` stands for the file in messages. A syntax error names the line
// and column; a duplicate key names its pointer ("/kernel/args/bytes: duplicate key").
nlohmann::json parse_strict_json(const std::string& text, const std::string& name,
                                 size_t max_bytes = kDefaultMaxJsonBytes);

// read_regular_file + parse_strict_json.
nlohmann::json read_strict_json_file(const std::string& path, size_t max_bytes = kDefaultMaxJsonBytes);

// "a/b" -> "a~1b" (RFC 6901).
std::string json_pointer_escape(const std::string& key);

}  // namespace symsim::io
