// flag_before_data on NVIDIA GPUs: a thread read data after a flag was observed (by it or a
// thread it synchronised with), and bytes the flag's writer had not ordered before the flag
// were stale at the read (observed) or had landed only by this run's timing, with no
// fence.acq_rel between the data store and the flag write. The memory-ordering model
// (models/nvidia/mem_order) finds the unordered bytes; this checker reports them.
#include <fmt/format.h>

#include "sim/checkers/flag_before_data.h"
#include "sim/checkers/nvidia/nvidia_checker.h"
#include "models/nvidia/mem_order.h"
#include "models/nvidia/nvidia_system.h"

namespace symsim {

namespace {

std::string at_site(const char* file, int line) { return file ? " at " + nv::site_text(file, line) : ""; }

class NvidiaFlagBeforeDataChecker : public NvidiaChecker {
 public:
  using NvidiaChecker::NvidiaChecker;
  void on_flag_data_read(const nv::FlagDataRead& r) override {
    Hazard h;
    h.id = kFlagBeforeData.name;
    h.pe = r.gpu;
    h.addr = r.begin ? nv::addr_text(r.begin) : "";
    h.time_ps = r.t;
    h.observed = !r.landed;
    const std::string reader = fmt::format("GPU {} CTA {} thread {}{}", r.reader.gpu, r.reader.cta, r.reader.thread,
                                           at_site(r.reader.file, r.reader.line));
    const bool by_nic = r.flag_writer.kind == nv::WriterKind::Nic;
    if (!r.landed && r.data_visible_ps == nv::kNotSentPs) {
      h.detail = fmt::format(
          "{} read {} B at {} after the flag at {} was observed (by it or a thread it synchronised with), but bytes "
          "[{}, +{}) posted before it on another QP of the NIC of GPU {} were not even sent yet (their WQE not "
          "executed); flag written by {}",
          reader, r.end - r.begin, nv::addr_text(r.begin), nv::addr_text(r.flag), nv::addr_text(r.data_begin),
          r.data_end - r.data_begin, r.data_writer.gpu, r.flag_writer.describe());
    } else if (!r.landed) {
      h.detail = fmt::format(
          "{} read {} B at {} after the flag at {} was observed (by it or a thread it synchronised with), but bytes "
          "[{}, +{}) the flag's writer had ordered before it land only at {:.3f} us; flag written by {}, data written "
          "by {}",
          reader, r.end - r.begin, nv::addr_text(r.begin), nv::addr_text(r.flag), nv::addr_text(r.data_begin),
          r.data_end - r.data_begin, ps_to_us(r.data_visible_ps), r.flag_writer.describe(), r.data_writer.describe());
    } else {
      h.detail = fmt::format(
          "{} read {} B at {} after the flag at {} was observed (by it or a thread it synchronised with); bytes "
          "[{}, +{}) had landed (at {:.3f} us) only by timing: no fence.acq_rel.{} between the {}{} and the {}{} "
          "orders them before the flag; flag written by {}, data written by {}",
          reader, r.end - r.begin, nv::addr_text(r.begin), nv::addr_text(r.flag), nv::addr_text(r.data_begin),
          r.data_end - r.data_begin, ps_to_us(r.data_visible_ps), r.data_remote || by_nic ? "sys" : "gpu",
          r.data_remote ? "NVLink store" : "store", at_site(r.data_writer.file, r.data_writer.line),
          by_nic ? "RDMA signal" : "flag write", at_site(r.flag_writer.file, r.flag_writer.line),
          r.flag_writer.describe(), r.data_writer.describe());
    }
    m_ctx.log.report(std::move(h));
  }
};

}  // namespace

SYMSIM_NVIDIA_CHECKER(NvidiaFlagBeforeDataChecker, "nvidia/flag_before_data", 120,
                      "a thread read data its flag's writer had not ordered before the flag", kFlagBeforeData);

}  // namespace symsim
