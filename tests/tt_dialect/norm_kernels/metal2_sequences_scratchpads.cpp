// A Metal 2.0 kernel's tensor binding sequence and scratchpads, read back into the uint32 tensor
// bound as tensor::dst (three 64-byte rows): rows 0 and 1 are row 0 of each tensor of the sequence
// tensor::inputs, in sequence order, each read through the scratchpad scratch::pad (a NoC endpoint);
// row 2 holds the sequence's length, both scratchpads' sizes, whether scratch::spare lies past the
// end of scratch::pad, and the first common vararg (past the named common arg and the three tensor
// and two scratchpad address words the host put between).
#include <stdint.h>

#include <tuple>
#include <utility>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/scratchpad.h"
#include "experimental/kernel_args.h"

template <uint32_t... I>
void copy_rows(const Noc& noc, const Scratchpad<uint32_t>& pad, std::integer_sequence<uint32_t, I...>) {
  const auto dst = TensorAccessor(tensor::dst);
  (
      [&] {
        const auto input = TensorAccessor(std::get<I>(tensor::inputs));
        noc.async_read(input, pad, 64, {.page_id = 0}, {.offset_bytes = 0});
        noc.async_read_barrier();
        noc.async_write(pad, dst, 64, {.offset_bytes = 0}, {.page_id = I});
        noc.async_write_barrier();
      }(),
      ...);
}

void kernel_main() {
  const Noc noc;
  const Scratchpad<uint32_t> pad(scratch::pad);
  const Scratchpad<uint8_t> spare(scratch::spare);
  constexpr uint32_t inputs = std::tuple_size_v<decltype(tensor::inputs)>;
  copy_rows(noc, pad, std::make_integer_sequence<uint32_t, inputs>());

  for (uint32_t i = 0; i < pad.size(); ++i) pad[i] = 0;
  pad[0] = inputs;
  pad[1] = pad.size_in_bytes();
  pad[2] = spare.size();
  pad[3] = spare.get_base_address() >= pad.get_base_address() + pad.size_in_bytes() ? 1 : 0;
  pad[4] = get_common_vararg(0);
  noc.async_write(pad, TensorAccessor(tensor::dst), 64, {}, {.page_id = inputs});
  noc.async_write_barrier();
}
