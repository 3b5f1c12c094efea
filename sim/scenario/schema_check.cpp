#include "sim/scenario/schema_check.h"

#include <fmt/format.h>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <cmath>
#include <memory>
#include <vector>

#include "sim/io/strict_json.h"
#include "sim/scenario/input_error.h"

namespace symsim {

namespace schema_text {
extern const char* const kScenario;
extern const char* const kSweep;
}  // namespace schema_text

using nlohmann::json;

namespace {

struct Compiled {
  json document;
  valijson::Schema schema;
};

const Compiled& compiled(SchemaKind kind) {
  static const auto make = [](const char* text) {
    auto c = std::make_unique<Compiled>();
    c->document = json::parse(text);
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(c->document);
    parser.populateSchema(adapter, c->schema);
    return c;
  };
  static const std::unique_ptr<Compiled> scenario = make(schema_text::kScenario);
  static const std::unique_ptr<Compiled> sweep = make(schema_text::kSweep);
  return kind == SchemaKind::kScenario ? *scenario : *sweep;
}

// JSON Schema counts 2.0 as an integer; valijson's strict typing does not: integral floats
// become integers for the check.
json integral_as_integers(const json& j) {
  if (j.is_number_float()) {
    const double v = j.get<double>();
    if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.2e18) return static_cast<int64_t>(v);
    return j;
  }
  if (j.is_object()) {
    json out = json::object();
    for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = integral_as_integers(it.value());
    return out;
  }
  if (j.is_array()) {
    json out = json::array();
    for (const json& v : j) out.push_back(integral_as_integers(v));
    return out;
  }
  return j;
}

// "/a/b~1c" -> {"a", "b/c"} (RFC 6901 unescaping).
std::vector<std::string> split_pointer(const std::string& pointer) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < pointer.size() && pointer[at] == '/') {
    const size_t next = pointer.find('/', at + 1);
    std::string token = pointer.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    for (size_t i = 0; (i = token.find('~', i)) != std::string::npos; ++i)
      token.replace(i, 2, i + 1 < token.size() && token[i + 1] == '1' ? "/" : "~");
    out.push_back(token);
    if (next == std::string::npos) break;
    at = next;
  }
  return out;
}

const json* resolve_ref(const json& root, const json* node) {
  for (int depth = 0; node && node->is_object() && node->contains("$ref") && depth < 8; ++depth) {
    const std::string ref = (*node)["$ref"].get<std::string>();
    if (ref.rfind("#", 0) != 0) return nullptr;
    const json::json_pointer p(ref.substr(1));
    node = root.contains(p) ? &root.at(p) : nullptr;
  }
  return node;
}

// The subschema for child `token` of `node` (a value `value` in the document).
const json* step(const json& root, const json* node, const std::string& token, const json& value) {
  node = resolve_ref(root, node);
  if (!node || !node->is_object()) return nullptr;
  if (value.is_object() || value.is_null()) {
    if (node->contains("properties") && (*node)["properties"].contains(token)) return &(*node)["properties"][token];
    if (node->contains("additionalProperties") && (*node)["additionalProperties"].is_object())
      return &(*node)["additionalProperties"];
  }
  if ((value.is_array() || value.is_null()) && node->contains("items") && (*node)["items"].is_object()) return &(*node)["items"];
  for (const char* branches : {"oneOf", "anyOf", "allOf"}) {
    if (!node->contains(branches)) continue;
    for (const json& b : (*node)[branches])
      if (const json* found = step(root, &b, token, value)) return found;
  }
  return nullptr;
}

std::string quoted_list(const json& values) {
  std::string out;
  for (const json& v : values) out += (out.empty() ? "" : ", ") + v.dump();
  return out;
}

std::string type_phrase(const json& type) {
  if (type.is_array()) {
    std::string out;
    for (const json& t : type) out += (out.empty() ? "" : " or ") + type_phrase(t);
    return out;
  }
  const std::string t = type.get<std::string>();
  if (t == "integer") return "an integer";
  if (t == "number") return "a number";
  if (t == "string") return "a string";
  if (t == "boolean") return "true or false";
  if (t == "object") return "an object";
  if (t == "array") return "an array";
  return t;
}

std::string got(const json& v) {
  if (v.is_number_float()) return v.dump();
  return v.type_name();
}

std::string shown(const json& v) {
  std::string text = v.dump();
  return text.size() > 64 ? text.substr(0, 64) + "..." : text;
}

// The keys an object may have here: its schema's properties, or, where an if/then of the
// schema applies to this object (a fault of one kind), that branch's.
std::string allowed_keys(const json& root, const json* node, const json& value) {
  node = resolve_ref(root, node);
  if (!node) return "";
  const json* props = node->contains("properties") ? &(*node)["properties"] : nullptr;
  if (node->contains("allOf"))
    for (const json& c : (*node)["allOf"]) {
      if (!c.contains("if") || !c.contains("then") || !c["then"].contains("properties")) continue;
      bool applies = value.is_object();
      const json conditions = c["if"].value("properties", json::object());
      for (const auto& [k, cond] : conditions.items())
        applies = applies && cond.contains("const") && value.contains(k) && value[k] == cond["const"];
      if (applies) props = &c["then"]["properties"];
    }
  std::string out;
  if (props)
    for (const auto& [k, _] : props->items()) out += (out.empty() ? "" : ", ") + k;
  return out;
}

// One violation in words: "expected an integer, got string", "unknown key 'x' (allowed: ...)".
std::pair<std::string, std::string> describe(const json& root, const json& doc, std::string pointer,
                                             const std::string& what) {
  const json::json_pointer p(pointer);
  const json& value = doc.contains(p) ? doc.at(p) : doc;
  const json* node = subschema_at(root, doc, pointer);
  const auto quoted_after = [&](const std::string& marker) {
    const size_t at = what.find(marker);
    if (at == std::string::npos) return std::string();
    const size_t begin = at + marker.size();
    const size_t end = what.find('\'', begin);
    return what.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  };
  if (what.rfind("Object contains a property that could not be validated", 0) == 0) {
    const std::string key = quoted_after("constraints: '");
    return {pointer + "/" + io::json_pointer_escape(key),
            fmt::format("unknown key '{}' (allowed: {})", key, allowed_keys(root, node, value))};
  }
  if (what.rfind("Missing required property", 0) == 0)
    return {pointer + "/" + io::json_pointer_escape(quoted_after("property '")), "missing required key"};
  if (!node) return {pointer, what};
  if (what.rfind("Value type not permitted", 0) == 0) {
    if (node->contains("type")) {
      if ((*node)["type"] == "integer" && value.is_number())
        return {pointer, fmt::format("expected an integer, got {}", value.dump())};
      return {pointer, fmt::format("expected {}, got {}", type_phrase((*node)["type"]), got(value))};
    }
    if (node->contains("description"))
      return {pointer, fmt::format("expected {}, got {}", (*node)["description"].get<std::string>(), got(value))};
  }
  if (what.rfind("Expected number", 0) == 0) {
    const std::string min = node->contains("minimum") ? (*node)["minimum"].dump() : "-inf";
    const std::string max = node->contains("maximum") ? (*node)["maximum"].dump() : "inf";
    return {pointer, fmt::format("{} is out of range [{}, {}]", value.dump(), min, max)};
  }
  if (what.rfind("Failed to match against any enum values", 0) == 0)
    return {pointer, fmt::format("expected one of {}, got {}", quoted_list((*node)["enum"]), shown(value))};
  if (what.find("'const' constraint") != std::string::npos)
    return {pointer, fmt::format("expected {}, got {}", (*node)["const"].dump(), shown(value))};
  if (what.rfind("Array should contain no", 0) == 0) {
    const size_t lo = node->value("minItems", 0), hi = node->value("maxItems", SIZE_MAX);
    const std::string want = lo == hi ? fmt::format("{}", lo) : hi == SIZE_MAX ? fmt::format("at least {}", lo)
                                                                               : fmt::format("{} to {}", lo, hi);
    return {pointer, fmt::format("expected {} item{}, got {}{}", want, lo == 1 && hi == 1 ? "" : "s", value.size(),
                                 node->contains("description") ? " (" + (*node)["description"].get<std::string>() + ")" : "")};
  }
  if (what.rfind("String should be no fewer", 0) == 0) return {pointer, "must not be empty"};
  if (what.rfind("String should be no more", 0) == 0)
    return {pointer, fmt::format("is longer than {} characters", (*node)["maxLength"].dump())};
  // A pattern says little to a user: a schema node may say in words what it requires.
  if (what.rfind("Failed to match regex", 0) == 0 && node->contains("x-error"))
    return {pointer, (*node)["x-error"].get<std::string>()};
  if (what.rfind("Failed to match regex", 0) == 0)
    return {pointer, fmt::format("{} does not have the form {}{}", shown(value), (*node)["pattern"].dump(),
                                 node->contains("description") ? " (" + (*node)["description"].get<std::string>() + ")" : "")};
  return {pointer, what};
}

std::string pointer_of(const std::vector<std::string>& context) {
  std::string out;
  for (const std::string& c : context) {
    if (c == "<root>") continue;
    // valijson names each step "[key]" (or "[index]").
    const std::string key = c.size() >= 2 && c.front() == '[' && c.back() == ']' ? c.substr(1, c.size() - 2) : c;
    out += "/" + io::json_pointer_escape(key);
  }
  return out;
}

}  // namespace

const json& schema_document(SchemaKind kind) { return compiled(kind).document; }

const json* subschema_at(const json& schema, const json& doc, const std::string& pointer) {
  static const json absent;
  const json* node = &schema;
  const json* at = &doc;
  for (const std::string& token : split_pointer(pointer)) {
    node = step(schema, node, token, *at);
    if (!node) return nullptr;
    if (at->is_object() && at->contains(token))
      at = &(*at)[token];
    else if (at->is_array() && !token.empty() && token.find_first_not_of("0123456789") == std::string::npos &&
             std::stoul(token) < at->size())
      at = &(*at)[std::stoul(token)];
    else
      at = &absent;  // past the document (--set creating a key): only the schema steps on
  }
  return resolve_ref(schema, node);
}

void check_against_schema(SchemaKind kind, const json& doc, const std::string& file) {
  const Compiled& c = compiled(kind);
  const json checked = integral_as_integers(doc);
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(checked);
  if (validator.validate(c.schema, adapter, &results)) return;
  // The most specific violation: the deepest, the first of those (valijson lists a failure
  // before the enclosing ones it causes).
  valijson::ValidationResults::Error error, best;
  size_t best_depth = 0;
  bool any = false;
  while (results.popError(error))
    if (!any || error.context.size() > best_depth) {
      best = error;
      best_depth = error.context.size();
      any = true;
    }
  const auto [pointer, what] = describe(c.document, checked, pointer_of(best.context), best.description);
  throw InputError(file, pointer.empty() ? "/" : pointer, what);
}

void check_against_schema(SchemaKind kind, const nlohmann::ordered_json& doc, const std::string& file) {
  check_against_schema(kind, json::parse(doc.dump()), file);
}

}  // namespace symsim
