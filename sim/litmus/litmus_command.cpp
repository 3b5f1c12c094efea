#include "sim/litmus/litmus_command.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "sim/io/output_file.h"
#include "sim/litmus/litmus_expected.h"
#include "sim/litmus/litmus_report.h"
#include "sim/litmus/litmus_text.h"

namespace symsim::litmus {

namespace fs = std::filesystem;

namespace {

struct Input {
  std::string file;
  std::string folder;
};

// Every .litmus file under `root`, with its folder relative to `root` for the summary
// (prefixed with the root's own name when several roots are given, to keep them apart).
std::vector<Input> collect(const fs::path& root, bool name_root) {
  std::vector<Input> out;
  if (fs::is_regular_file(root)) {
    out.push_back({root.generic_string(), root.parent_path().filename().generic_string()});
    return out;
  }
  const fs::path base = root.filename().empty() ? root.parent_path() : root;  // "dir/" -> "dir"
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().extension() != ".litmus") continue;
    fs::path rel = e.path().parent_path().lexically_relative(root);
    if (rel == ".") rel.clear();
    if (name_root || rel.empty()) rel = base.filename() / rel;
    std::string folder = rel.generic_string();
    if (!folder.empty() && folder.back() == '/') folder.pop_back();
    out.push_back({e.path().generic_string(), folder});
  }
  std::sort(out.begin(), out.end(), [](const Input& a, const Input& b) { return a.file < b.file; });
  return out;
}

TestRecord examine(const Input& in, const ExpectedVerdicts& expected, int seeds) {
  TestRecord r;
  r.path = in.file;
  r.folder = in.folder;
  ParseResult parsed = parse_litmus_file(in.file);
  r.parsed = parsed.ok;
  r.parse_error = parsed.error;
  if (!parsed.ok) return r;
  r.test = std::move(parsed.test);
  r.expected = expected.find(fs::path(in.file).generic_string());
  if (!r.test.unsupported.empty()) return r;
  RunOptions options;
  options.seeds = seeds;
  r.obs = run_litmus(r.test, options);
  r.judgement = judge(r.test, r.obs, r.expected);
  r.ran = true;
  return r;
}

}  // namespace

int litmus_main(const std::vector<std::string>& paths, const std::string& expected_csv, int seeds,
                const std::string& json_out) {
  if (paths.empty()) {
    std::cerr << "symsim litmus: no PATH given\n";
    return 2;
  }
  if (seeds <= 0) {
    std::cerr << "symsim litmus: --seeds must be positive\n";
    return 2;
  }
  if (!fs::is_regular_file(expected_csv)) {
    std::cerr << "symsim litmus: expected-verdict file not found: " << expected_csv << "\n";
    return 2;
  }
  ExpectedVerdicts expected;
  try {
    expected = ExpectedVerdicts::load(expected_csv);
  } catch (const std::exception& e) {
    std::cerr << "symsim litmus: " << e.what() << "\n";
    return 2;
  }
  std::vector<Input> inputs;
  for (const std::string& p : paths) {
    if (!fs::exists(p)) {
      std::cerr << "symsim litmus: no such file or folder: " << p << "\n";
      return 2;
    }
    std::vector<Input> found = collect(fs::path(p), paths.size() > 1);
    inputs.insert(inputs.end(), found.begin(), found.end());
  }

  std::vector<TestRecord> records;
  for (const Input& in : inputs) records.push_back(examine(in, expected, seeds));
  print_report(records, seeds, std::cout);

  if (!json_out.empty()) {
    try {
      io::write_file(json_out, report_json(records, seeds).dump(2) + "\n");
    } catch (const io::OutputError& e) {
      std::cerr << "symsim litmus: --json: " << e.what() << "\n";
      return e.exit_code();
    }
  }
  // A file that does not parse is bad input, not a pass: exit 2 naming it (after the report,
  // so the other files' results are still there).
  size_t unparsed = 0;
  for (const TestRecord& r : records)
    if (!r.parsed) {
      std::cerr << "symsim litmus: cannot parse " << r.path << ": " << r.parse_error << "\n";
      ++unparsed;
    }
  if (unparsed > 0) return 2;
  const bool failed = std::any_of(records.begin(), records.end(), [](const TestRecord& r) {
    return r.judgement.verdict == Verdict::ForbiddenObserved;
  });
  return failed ? 1 : 0;
}

int litmus_cli(const std::vector<std::string>& args) {
  std::vector<std::string> paths;
  std::string expected;
  std::string json;
  int seeds = 1000;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--expected" && has_value) {
      expected = args[++i];
    } else if (a == "--json" && has_value) {
      json = args[++i];
    } else if (a == "--seeds" && has_value) {
      auto n = parse_int(args[++i]);
      if (!n) {
        std::cerr << "symsim litmus: --seeds needs a number\n";
        return 2;
      }
      seeds = static_cast<int>(*n);
    } else if (starts_with(a, "--")) {
      std::cerr << "symsim litmus: unknown or incomplete option " << a << "\n"
                << "usage: symsim litmus PATH... --expected FILE [--seeds N] [--json OUT]\n";
      return 2;
    } else {
      paths.push_back(a);
    }
  }
  if (expected.empty()) {
    std::cerr << "usage: symsim litmus PATH... --expected FILE [--seeds N] [--json OUT]\n";
    return 2;
  }
  return litmus_main(paths, expected, seeds, json);
}

}  // namespace symsim::litmus
