// Basic vocabulary of the PTX memory model: scopes, memory-order semantics, proxies and
// thread placement, plus the "morally strong" test that decides which pairs of accesses
// may synchronise or observe each other.
#pragma once

#include <cstdint>

namespace symsim::ptx {

// Ordered from narrowest to widest so that "scope A includes level B" is A >= B.
enum class Scope : int { Cta = 0, Gpu = 1, Sys = 2 };

enum class Sem { Weak, Relaxed, Acquire, Release, AcqRel, Sc };

// Generic is the ordinary memory space; the others are the graphics proxies.
enum class Proxy { Generic, Surface, Texture, Constant };

struct Placement {
  int thread = 0;
  int cta = 0;
  int gpu = 0;
  // One number per (gpu, cta) pair: cta ids restart in each gpu.
  int cta_uid() const { return gpu * 4096 + cta; }
};

// Narrowest scope level that contains both threads (a thread with itself: Cta).
Scope common_scope(const Placement& a, const Placement& b);

bool is_strong(Sem s);      // anything but .weak
bool has_acquire(Sem s);    // .acquire, .acq_rel, .sc
bool has_release(Sem s);    // .release, .acq_rel, .sc

// The strength-related facts of one memory access (or of the write that made a message).
struct AccessInfo {
  Placement place;
  bool strong = false;
  Scope scope = Scope::Sys;
  Proxy proxy = Proxy::Generic;
  int generic_addr = -1;  // virtual addresses with the same generic address "overlap"
};

// Morally strong (PTX ISA memory model): same proxy, same generic address, and either the
// same thread or both strong with each scope including the other thread.
bool morally_strong(const AccessInfo& a, const AccessInfo& b);

const char* to_string(Scope s);
const char* to_string(Sem s);
const char* to_string(Proxy p);

}  // namespace symsim::ptx
