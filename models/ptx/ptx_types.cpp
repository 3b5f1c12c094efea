#include "models/ptx/ptx_types.h"

namespace symsim::ptx {

Scope common_scope(const Placement& a, const Placement& b) {
  if (a.gpu != b.gpu) return Scope::Sys;
  if (a.cta != b.cta) return Scope::Gpu;
  return Scope::Cta;
}

bool is_strong(Sem s) { return s != Sem::Weak; }

bool has_acquire(Sem s) { return s == Sem::Acquire || s == Sem::AcqRel || s == Sem::Sc; }

bool has_release(Sem s) { return s == Sem::Release || s == Sem::AcqRel || s == Sem::Sc; }

bool morally_strong(const AccessInfo& a, const AccessInfo& b) {
  if (a.proxy != b.proxy || a.generic_addr != b.generic_addr) return false;
  if (a.place.thread == b.place.thread) return true;  // related by program order
  if (!a.strong || !b.strong) return false;
  const Scope needed = common_scope(a.place, b.place);
  return a.scope >= needed && b.scope >= needed;
}

const char* to_string(Scope s) {
  switch (s) {
    case Scope::Cta: return "cta";
    case Scope::Gpu: return "gpu";
    case Scope::Sys: return "sys";
  }
  return "?";
}

const char* to_string(Sem s) {
  switch (s) {
    case Sem::Weak: return "weak";
    case Sem::Relaxed: return "relaxed";
    case Sem::Acquire: return "acquire";
    case Sem::Release: return "release";
    case Sem::AcqRel: return "acq_rel";
    case Sem::Sc: return "sc";
  }
  return "?";
}

const char* to_string(Proxy p) {
  switch (p) {
    case Proxy::Generic: return "generic";
    case Proxy::Surface: return "surface";
    case Proxy::Texture: return "texture";
    case Proxy::Constant: return "constant";
  }
  return "?";
}

}  // namespace symsim::ptx
