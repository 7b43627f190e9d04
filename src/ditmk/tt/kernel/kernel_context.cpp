#include "ditmk/tt/kernel/kernel_context.hpp"

namespace ditmk::tt::kernel {

using namespace emu;

uint32_t named(const char* name) { return get_named_compile_time_arg_val(name); }

Ctx::Ctx() : proc(current_processor()) {
  onehub = named("k4_onehub") != 0;
  compute = named("is_compute") != 0;
  // K4 sets is_hub on both hubs; the per-core group word tells them apart. The simplified protocol
  // leaves the second hub idle.
  if (named("is_hub") != 0) {
    hub_index = get_arg_val(4);
    hub = seed() || hub_index == 0;
  }
  if (compute) {
    c = get_arg_val(0);
    row = c / kRowTiles, col = c % kRowTiles;
    head = get_arg_val(3), group = get_arg_val(4);
    quarter = 2 * row + col % 2, pair = col / 2;
  }
  nt = named("k4_nt_a");
  compute_noc_base = named("k4_compute_noc_base");
  dims = arena_dims(named);
  schedule = block_schedule(named);
  hub_x = {named("hub_noc_x"), named("hub1_noc_x")};
  hub_y = {named("hub_noc_y"), named("hub1_noc_y")};
  cb_x = named("cb_x"), cb_a = named("cb_a"), cb_w = named("cb_w"), cb_mm0 = named("cb_mm0");
  cb_q = named("cb_q"), cb_o = named("cb_o"), cb_bias0 = named("cb_bias0"), cb_bias1 = named("cb_bias1");
  cb_adaln = named("cb_adaln_raw"), cb_mask = named("cb_mask"), cb_k = named("cb_k"), cb_v = named("cb_v"), cb_kt = named("cb_kt");
  cb_scores = named("cb_scores"), cb_tw = named("cb_tw"), cb_tconst = named("cb_tconst"), cb_h = named("cb_h");
  cb_part = named("cb_part"), cb_stat = named("cb_stat"), cb_stat32 = named("cb_stat32");
  cb_const = named("cb_const"), cb_s = named("cb_s"), cb_oacc = named("cb_oacc");
  cb_m0 = named("cb_m0"), cb_m1 = named("cb_m1"), cb_l0 = named("cb_l0"), cb_l1 = named("cb_l1");
  cb_alpha = named("cb_alpha"), cb_ones = named("cb_ones");
  cb_act = named("k4_cb_act"), cb_vel = named("k4_cb_vel"), cb_xin = named("k4_cb_xin");
  cb_hconst = named("k4_cb_hconst"), cb_land = named("k4_cb_land"), cb_xbf = named("k4_cb_xbf");
  // every launch starts with the CB pointers at the base: remote writers of cb_k / cb_v need it
  if (compute) cb_k_base = get_write_ptr(cb_k), cb_v_base = get_write_ptr(cb_v);
  if (hub) land[hub_index] = get_write_ptr(cb_land);
  // Direct mode leaves the reader semaphores free: sem_credit grants exchange credits and
  // sem_gather_noc1 counts exchange arrivals; sem_sync carries hub 0's landing-ring base.
  sem_credit = get_semaphore(named("sem_credit"));
  sem_arrival = get_semaphore(named("sem_gather_noc1"));
  sem_gather = get_semaphore(named("sem_gather_noc0"));
  sem_kv = get_semaphore(named("sem_kv"));
  sem_hub_done = get_semaphore(named("sem_hub_done"));
  sem_ready = {get_semaphore(named("sem_mcast_sender")), get_semaphore(named("sem_ready_odd"))};
  sem_round = {get_semaphore(named("sem_mcast_receiver")), get_semaphore(named("sem_mcast_receiver1"))};
  sem_land = {get_semaphore(named("sem_sync")), get_semaphore(named("sem_land1"))};
}

uint32_t Ctx::op_offset(uint32_t op_index) const {
  return get_common_arg_val(named("offsets_table_base") + op_index);
}

uint64_t Ctx::compute_noc(uint32_t compute_idx, uint32_t address) const {
  const uint32_t xy = get_common_arg_val(compute_noc_base + compute_idx / 2) >> (16 * (compute_idx % 2)) & 0xFFFF;
  return get_noc_addr(packed_x(xy), packed_y(xy), address);
}

}  // namespace ditmk::tt::kernel
