#include "ditmk/tt/device_abi/launch_access.hpp"

#include "ditmk/tt/formats.hpp"

namespace ditmk::tt::dialect {

using emu::FaultKind;

emu::ProcessorRuntime::DialectState& dialect_state() { return emu::current().dialect; }

const std::vector<uint32_t>& core_args() {
  static const std::vector<uint32_t> none;
  const std::vector<uint32_t>* args = emu::current().args;
  return args ? *args : none;
}

const std::vector<uint32_t>& common_args() { return emu::current().kernel->common_args; }

emu::CbRuntime& running_cb(uint32_t id, std::string_view call) {
  emu::CoreRuntime& core = *emu::current().core;
  emu::CbRuntime* cb = id < emu::kMaxCbId ? core.cbs[id] : nullptr;
  if (!cb) emu::raise(FaultKind::bad_call, "{}: core {} has no CB #{}", call, emu::core_name(core.coord), id);
  return *cb;
}

void read_front_tile(uint32_t id, uint32_t tile, float* out, std::string_view call) {
  const emu::CbRuntime& cb = running_cb(id, call);
  const emu::CbConfig& config = *cb.config;
  emu::require_float_tiles(cb, call);
  if (config.page_bytes != tile_bytes(config.format)) {
    emu::raise(FaultKind::bad_call, "{}: CB {} pages are {} B, not one {} tile", call, cb.name(), config.page_bytes,
               tile_format_name(config.format));
  }
  if (tile >= cb.occupied()) {
    emu::raise(FaultKind::cb_underflow, "{}: reads tile {} of cb {}, which has {} pages at the front", call, tile,
               cb.name(), cb.occupied());
  }
  if (cb.rd_page + tile >= cb.pages) {
    emu::raise(FaultKind::cb_overflow, "{}: tile {} from front page {} of cb {} lies past its {}-page end", call, tile,
               cb.rd_page, cb.name(), cb.pages);
  }
  const uint32_t address = config.address + (cb.rd_page + tile) * config.page_bytes;
  const uint32_t core = emu::core_index(emu::current().core->coord);
  emu::require_written_l1(core, address, config.page_bytes, call);
  float ordered[kTileElems];
  unpack_tile(config.format, emu::l1_bytes(core, address), ordered);
  untilize_tile(ordered, out, kTile);
}

float* dst_tile(uint32_t dst) { return emu::current().dst.data() + std::size_t(dst) * kTileElems; }

}  // namespace ditmk::tt::dialect
