// A thread's view: for each class of future accesses, the newest timestamp (position in a
// location's modification order) that such an access is obliged to see. It stands for the
// writes and observed reads that precede the current point in the formal model's
// "causality order", split by the proxy rules of PTX 7.5: knowledge only constrains an
// access of a given proxy, CTA and address when the proxy-preserved rules say so.
#pragma once

#include <map>
#include <tuple>

#include "models/ptx/ptx_types.h"

namespace symsim::ptx {

enum class KeyKind {
  GenericAddr,  // generic accesses through generic address `addr`
  ProxyAddr,    // `proxy` accesses from CTA `cta` through generic address `addr`
  GenericLoc,   // generic accesses to physical location `addr` through any alias
  ProxyLoc,     // `proxy` accesses from CTA `cta` to physical location `addr`
};

struct ViewKey {
  KeyKind kind = KeyKind::GenericAddr;
  Proxy proxy = Proxy::Generic;
  int cta = 0;   // Placement::cta_uid()
  int addr = 0;  // generic address id or physical address id, see kind
  bool operator<(const ViewKey& o) const {
    return std::tie(kind, proxy, cta, addr) < std::tie(o.kind, o.proxy, o.cta, o.addr);
  }
};

// Who an access is, for the proxy rules.
struct AccessClass {
  Proxy proxy = Proxy::Generic;
  int cta = 0;       // Placement::cta_uid() of the accessing thread
  int generic = 0;   // generic address id
  int physical = 0;  // physical address id
};

class View {
 public:
  double get(const ViewKey& k) const;
  void raise(const ViewKey& k, double ts);
  void join(const View& other);
  const std::map<ViewKey, double>& entries() const { return ts_; }

  // Lowest timestamp an access of class `c` may read (and must write above).
  double bound_for(const AccessClass& c) const;
  // The access (a write, or a read that observed a write at `ts`) is now known.
  void record(const AccessClass& c, double ts);
  // fence.proxy.<proxy> executed in CTA `cta`: moves knowledge between that proxy and the
  // generic proxy (X -> proxy fence -> Y rules of proxy-preserved causality).
  void proxy_fence(Proxy proxy, int cta);
  // fence.proxy.alias: generic knowledge of one address covers every alias of the location.
  // `physical_of` maps a generic address id to its physical id.
  template <class PhysicalOf>
  void alias_fence(PhysicalOf physical_of) {
    std::map<ViewKey, double> copy = ts_;
    for (const auto& [k, ts] : copy) {
      if (k.kind == KeyKind::GenericAddr) {
        raise(ViewKey{KeyKind::GenericLoc, Proxy::Generic, 0, physical_of(k.addr)}, ts);
      }
    }
  }

 private:
  std::map<ViewKey, double> ts_;
};

}  // namespace symsim::ptx
