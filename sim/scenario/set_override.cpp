#include "sim/scenario/set_override.h"

#include <fmt/format.h>

#include <sstream>
#include <vector>

#include "sim/io/strict_json.h"
#include "sim/scenario/input_error.h"
#include "sim/scenario/schema_check.h"

namespace symsim {

using nlohmann::json;

SetOverride parse_set(const std::string& text, const std::string& file) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw InputError(file, "", fmt::format("--set '{}': expected PATH=VALUE", text));
  SetOverride s;
  s.path = text.substr(0, eq);
  const std::string value = text.substr(eq + 1);
  try {
    s.value = json::parse(value);
  } catch (const json::parse_error&) {
    s.value = value;  // a bare word is a string
  } catch (const json::exception& e) {  // 1e400: a number no JSON number type holds
    throw InputError(file, "", fmt::format("--set '{}': the value is not a usable number ({})", text, e.what()));
  }
  return s;
}

void apply_set(json& doc, const std::string& file, const SetOverride& set) {
  const std::string& path = set.path;
  if (path.rfind("platform.", 0) == 0) {
    if (doc.contains("overrides") && !doc["overrides"].is_object())
      throw InputError(file, "/overrides", fmt::format("--set {}: expected an object of dotted parameter names, got {}",
                                                       path, doc["overrides"].type_name()));
    doc["overrides"][path.substr(9)] = set.value;
    return;
  }
  const json& schema = schema_document(SchemaKind::kScenario);
  json* node = &doc;
  std::string ptr;
  std::stringstream parts(path);
  for (std::string part; std::getline(parts, part, '.');) {
    ptr += "/" + io::json_pointer_escape(part);
    if (!node->is_object() && !node->is_null())
      throw InputError(file, ptr, fmt::format("--set {}: the value above it is not an object", path));
    if ((node->is_null() || !node->contains(part)) && !subschema_at(schema, doc, ptr))
      throw InputError(file, ptr, fmt::format("--set {}: the scenario format has no such value "
                                              "(docs/scenario-format.md)", path));
    node = &(*node)[part];
  }
  if (ptr.empty()) throw InputError(file, "", fmt::format("--set '{}': expected PATH=VALUE", path));
  *node = set.value;
}

}  // namespace symsim
