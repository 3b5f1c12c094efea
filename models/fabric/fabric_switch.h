// A switch of the UB fabric as a module of the platform: a level-1 switch per node (its PEs'
// ports) or the level-2 switch joining the nodes. Its crossing time is part of the links that
// enter it (link.h), so it keeps no timing state, only which links meet at it.
#pragma once
#include <systemc>

#include <vector>

#include "models/fabric/fabric_link.h"

namespace symsim {

class FabricSwitch : public sc_core::sc_module {
 public:
  FabricSwitch(sc_core::sc_module_name name, int level) : sc_module(name), m_level(level) {}

  int level() const { return m_level; }  // 1: a node's switch, 2: between nodes
  const std::vector<Link*>& inputs() const { return m_in; }
  const std::vector<Link*>& outputs() const { return m_out; }
  void connect(Link* in, Link* out) {
    m_in.push_back(in);
    m_out.push_back(out);
  }

 private:
  int m_level;
  std::vector<Link*> m_in, m_out;
};

}  // namespace symsim
