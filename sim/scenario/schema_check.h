// The one validator of input documents: the published JSON Schemas (docs/schema/*.schema.json,
// compiled in) checked with valijson. It reports the first, most specific violation as an
// InputError naming the file, the JSON pointer and what is wrong, in words a user can act on.
// What a schema cannot say (preset, kernel and argument names, ranges that depend on the
// preset) is checked by the loaders after it.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace symsim {

enum class SchemaKind { kScenario, kSweep };

// Throws InputError(file, pointer, what) when `doc` does not match the schema.
void check_against_schema(SchemaKind kind, const nlohmann::json& doc, const std::string& file);
void check_against_schema(SchemaKind kind, const nlohmann::ordered_json& doc, const std::string& file);

// The schema document itself (for --set: which keys a document may have where).
const nlohmann::json& schema_document(SchemaKind kind);
// The part of `schema` that describes the value at `pointer` of `doc` (through properties,
// items, additionalProperties, $ref and the branches of oneOf/allOf); null when none does.
const nlohmann::json* subschema_at(const nlohmann::json& schema, const nlohmann::json& doc, const std::string& pointer);

}  // namespace symsim
