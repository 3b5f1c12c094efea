// Registrations: each hazard checker, fault kind and statistic declares itself beside its code
// with one static registration (in the spirit of SST's element-library declarations). The
// catalogs that `symsim list` prints and the scenario checker consults are read from these, so
// there is no second list to keep in step.
#pragma once
#include <algorithm>
#include <vector>

namespace symsim::catalog {

// Entries of one kind; `Entry::key()` orders them, so what a catalog lists does not depend on
// the order in which the linker ran the registrations.
template <typename Entry>
class Registry {
 public:
  static Registry& instance() {
    static Registry r;
    return r;
  }
  bool add(Entry e) {
    m_entries.push_back(std::move(e));
    m_sorted = false;
    return true;
  }
  const std::vector<Entry>& all() {
    if (!m_sorted) {
      std::stable_sort(m_entries.begin(), m_entries.end(),
                       [](const Entry& a, const Entry& b) { return a.key() < b.key(); });
      m_sorted = true;
    }
    return m_entries;
  }

 private:
  std::vector<Entry> m_entries;
  bool m_sorted = true;
};

}  // namespace symsim::catalog

#define SYMSIM_CATALOG_CAT2(a, b) a##b
#define SYMSIM_CATALOG_CAT(a, b) SYMSIM_CATALOG_CAT2(a, b)
// A file-local name for a registration's result.
#define SYMSIM_CATALOG_UNIQUE(prefix) SYMSIM_CATALOG_CAT(prefix, __LINE__)
