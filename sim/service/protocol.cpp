#include "sim/service/protocol.h"

namespace symsim::service {

namespace {
void echo(const nlohmann::json& request, nlohmann::json& reply) {
  if (!request.is_object()) return;
  if (auto it = request.find("id"); it != request.end()) reply["id"] = *it;
  if (auto it = request.find("op"); it != request.end() && it->is_string()) reply["op"] = *it;
}
}  // namespace

nlohmann::json error_reply(const nlohmann::json& request, const std::string& code,
                           const std::string& message) {
  nlohmann::json reply = nlohmann::json::object();
  echo(request, reply);
  reply["ok"] = false;
  reply["error"] = {{"code", code}, {"message", message}};
  return reply;
}

nlohmann::json ok_reply(const nlohmann::json& request, nlohmann::json fields) {
  nlohmann::json reply = nlohmann::json::object();
  echo(request, reply);
  reply["ok"] = true;
  for (auto& [k, v] : fields.items()) reply[k] = std::move(v);
  return reply;
}

int outcome_exit_code(const std::string& outcome) {
  if (outcome == "pass") return 0;
  if (outcome == "fail") return 1;
  if (outcome == "invalid") return 2;
  if (outcome == "timeout") return 124;  // as timeout(1), `symsim sweep` and `symsim launch`
  return 3;
}

}  // namespace symsim::service
