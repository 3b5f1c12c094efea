#include "sim/litmus/litmus_report.h"

#include <fmt/format.h>

#include <map>

namespace symsim::litmus {

namespace {

void add(FolderSummary& s, const TestRecord& r) {
  ++s.files;
  if (!r.parsed) return;
  ++s.parsed;
  if (!r.test.unsupported.empty()) ++s.unsupported_tests;
  if (!r.ran) return;
  ++s.run;
  if (!r.expected) return;
  ++s.with_verdict;
  if (r.judgement.outcome_allowed) {
    ++s.allowed_total;
    s.allowed_reached += r.judgement.verdict == Verdict::Reached ? 1 : 0;
  } else {
    ++s.forbidden_total;
    s.forbidden_observed += r.judgement.verdict == Verdict::ForbiddenObserved ? 1 : 0;
  }
}

std::string fraction(int part, int whole) {
  if (whole == 0) return "-";
  return fmt::format("{}/{} ({:.1f}%)", part, whole, 100.0 * part / whole);
}

}  // namespace

std::vector<FolderSummary> summarize(const std::vector<TestRecord>& records) {
  std::map<std::string, FolderSummary> by_folder;
  FolderSummary total;
  total.folder = "TOTAL";
  for (const TestRecord& r : records) {
    FolderSummary& s = by_folder[r.folder];
    s.folder = r.folder;
    add(s, r);
    add(total, r);
  }
  std::vector<FolderSummary> out;
  for (auto& [name, s] : by_folder) out.push_back(s);
  out.push_back(total);
  return out;
}

void print_report(const std::vector<TestRecord>& records, int seeds, std::ostream& out) {
  out << fmt::format("PTX litmus exploration, {} seeds per test\n\n", seeds);
  out << fmt::format("{:<36} {:>6} {:>6} {:>6} {:>9} {:>20} {:>11}\n", "folder", "parsed", "run", "w/verd",
                     "forbidden", "allowed reached", "unsupported");
  for (const FolderSummary& s : summarize(records)) {
    out << fmt::format("{:<36} {:>6} {:>6} {:>6} {:>9} {:>20} {:>11}\n", s.folder,
                       fmt::format("{}/{}", s.parsed, s.files), s.run, s.with_verdict,
                       fmt::format("{}/{}", s.forbidden_observed, s.forbidden_total),
                       fraction(s.allowed_reached, s.allowed_total), s.unsupported_tests);
  }
  out << "(forbidden = forbidden outcomes observed / tests whose outcome the model forbids; must be 0)\n";

  std::map<std::string, std::vector<std::string>> unsupported;
  for (const TestRecord& r : records) {
    for (const std::string& op : r.test.unsupported) unsupported[op].push_back(r.path);
  }
  if (!unsupported.empty()) out << "\nUnsupported instructions (tests not run):\n";
  for (const auto& [op, paths] : unsupported) {
    out << fmt::format("  {} ({} tests)\n", op, paths.size());
    for (const std::string& p : paths) out << "    " << p << "\n";
  }
  bool header = false;
  for (const TestRecord& r : records) {
    if (r.parsed) continue;
    if (!header) out << "\nParse errors:\n";
    header = true;
    out << fmt::format("  {}: {}\n", r.path, r.parse_error);
  }
  header = false;
  for (const TestRecord& r : records) {
    if (r.judgement.verdict != Verdict::ForbiddenObserved) continue;
    if (!header) out << "\nFAILURES: outcomes the model forbids, observed:\n";
    header = true;
    out << fmt::format("  {}: {} {}\n", r.path, to_string(r.test.quantifier), r.obs.describe(r.judgement.witnesses.at(0)));
  }
  header = false;
  for (const TestRecord& r : records) {
    if (r.judgement.verdict != Verdict::NotReached) continue;
    if (!header) out << "\nAllowed outcomes not reached:\n";
    header = true;
    out << fmt::format("  {} (finished {}, deadlock {}, step limit {})\n", r.path, r.obs.finished,
                       r.obs.deadlocked, r.obs.step_limited);
  }
}

nlohmann::json report_json(const std::vector<TestRecord>& records, int seeds) {
  nlohmann::json j;
  j["seeds"] = seeds;
  j["folders"] = nlohmann::json::array();
  for (const FolderSummary& s : summarize(records)) {
    j["folders"].push_back({{"folder", s.folder},
                            {"files", s.files},
                            {"parsed", s.parsed},
                            {"run", s.run},
                            {"with_verdict", s.with_verdict},
                            {"forbidden_total", s.forbidden_total},
                            {"forbidden_observed", s.forbidden_observed},
                            {"allowed_total", s.allowed_total},
                            {"allowed_reached", s.allowed_reached},
                            {"unsupported_tests", s.unsupported_tests}});
  }
  j["tests"] = nlohmann::json::array();
  for (const TestRecord& r : records) {
    nlohmann::json t = {{"path", r.path}, {"folder", r.folder}, {"parsed", r.parsed}};
    if (!r.parsed) {
      t["parse_error"] = r.parse_error;
      j["tests"].push_back(t);
      continue;
    }
    t["name"] = r.test.name;
    t["quantifier"] = to_string(r.test.quantifier);
    t["unsupported"] = r.test.unsupported;
    t["ran"] = r.ran;
    if (r.expected) t["expected"] = *r.expected;
    if (r.ran) {
      t["verdict"] = to_string(r.judgement.verdict);
      t["outcome_observed"] = r.judgement.outcome_observed;
      if (r.expected) t["outcome_allowed"] = r.judgement.outcome_allowed;
      t["runs"] = {{"finished", r.obs.finished}, {"deadlock", r.obs.deadlocked}, {"step_limit", r.obs.step_limited}};
      nlohmann::json states = nlohmann::json::array();
      for (const auto& s : r.obs.states) states.push_back(r.obs.describe(s));
      t["final_states"] = states;
    }
    j["tests"].push_back(t);
  }
  return j;
}

}  // namespace symsim::litmus
