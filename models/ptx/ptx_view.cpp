#include "models/ptx/ptx_view.h"

#include <algorithm>

namespace symsim::ptx {

double View::get(const ViewKey& k) const {
  auto it = ts_.find(k);
  return it == ts_.end() ? 0.0 : it->second;
}

void View::raise(const ViewKey& k, double ts) {
  double& slot = ts_[k];
  slot = std::max(slot, ts);
}

void View::join(const View& other) {
  for (const auto& [k, ts] : other.ts_) raise(k, ts);
}

double View::bound_for(const AccessClass& c) const {
  if (c.proxy == Proxy::Generic) {
    return std::max(get({KeyKind::GenericAddr, Proxy::Generic, 0, c.generic}),
                    get({KeyKind::GenericLoc, Proxy::Generic, 0, c.physical}));
  }
  return std::max(get({KeyKind::ProxyAddr, c.proxy, c.cta, c.generic}),
                  get({KeyKind::ProxyLoc, c.proxy, c.cta, c.physical}));
}

void View::record(const AccessClass& c, double ts) {
  // Generic accesses are ordered with later generic accesses of the same generic address
  // whatever their CTA; other proxies only within the same CTA (same-proxy & scta rule).
  if (c.proxy == Proxy::Generic) {
    raise({KeyKind::GenericAddr, Proxy::Generic, 0, c.generic}, ts);
  } else {
    raise({KeyKind::ProxyAddr, c.proxy, c.cta, c.generic}, ts);
  }
}

void View::proxy_fence(Proxy proxy, int cta) {
  if (proxy == Proxy::Generic) return;
  std::map<ViewKey, double> copy = ts_;
  for (const auto& [k, ts] : copy) {
    switch (k.kind) {
      case KeyKind::ProxyAddr:
        // X (this proxy, this CTA) -> fence -> generic Y on the same generic address.
        if (k.proxy == proxy && k.cta == cta) raise({KeyKind::GenericAddr, Proxy::Generic, 0, k.addr}, ts);
        break;
      case KeyKind::GenericAddr:
        // generic X -> fence -> Y of this proxy in this CTA.
        raise({KeyKind::ProxyAddr, proxy, cta, k.addr}, ts);
        break;
      case KeyKind::GenericLoc:
        // generic X -> alias fence -> this fence -> Y of this proxy in this CTA, any alias.
        raise({KeyKind::ProxyLoc, proxy, cta, k.addr}, ts);
        break;
      case KeyKind::ProxyLoc:
        break;
    }
  }
}

}  // namespace symsim::ptx
