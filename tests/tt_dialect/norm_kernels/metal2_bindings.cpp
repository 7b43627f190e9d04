// A Metal 2.0 kernel's bindings, each read back into the uint32 tensor bound as tensor::dst (two
// 64-byte rows): row 0 is row 0 of the tensor bound as tensor::src, copied through the dataflow
// buffer bound as dfb::row (the NoC endpoints of both accessors); row 1 holds the common named arg
// (args::scale), the first common vararg (past the two tensor address words the host put between),
// positional compile-time arg 0 (before the tensors' accessor words), dfb::row's entry size and id,
// the value of the semaphore bound as sem::ready, and the positional compile-time args read as the
// kernel's compile-time varargs: their count, vararg 0 by index and by template. Row 0 is copied to
// the destination through the sequence tensor::both (src, dst) as make_tensor_accessors opens it.
#include <stdint.h>

#include <tuple>
#include <type_traits>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/noc.h"
#include "api/semaphore.h"
#include "experimental/kernel_args.h"

using both_t = std::remove_cv_t<decltype(tensor::both)>;
static_assert(std::tuple_size_v<both_t> == 2, "the sequence's members");
static_assert(std::is_same_v<std::tuple_element_t<0, both_t>, tensor::src_t>, "in the sequence's order");
static_assert(std::is_same_v<std::tuple_element_t<1, both_t>, tensor::dst_t>, "in the sequence's order");

void kernel_main() {
  const Noc noc;
  DataflowBuffer row_buffer(dfb::row);
  const auto src = TensorAccessor(tensor::src);
  const auto dst = std::get<1>(make_tensor_accessors(tensor::both));
  const uint32_t page = row_buffer.get_entry_size();

  row_buffer.reserve_back(1);
  noc.async_read(src, row_buffer, page, {.page_id = 0}, {});
  noc.async_read_barrier();
  noc.async_write(row_buffer, dst, page, {}, {.page_id = 0});
  noc.async_write_barrier();

  volatile tt_l1_ptr uint32_t* row = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(row_buffer.get_write_ptr());
  for (uint32_t i = 0; i < 16; ++i) row[i] = 0;
  row[0] = get_arg(args::scale);
  row[1] = get_common_vararg(0);
  row[2] = get_compile_time_arg_val(0);
  row[3] = page;
  constexpr uint32_t row_id = dfb::row;  // a token is a CB index in constant expressions
  row[4] = row_id;
  row[5] = Semaphore(sem::ready).value();
  static_assert(get_compile_time_vararg<0>() == get_compile_time_arg_val(0), "vararg 0 leads the args");
  row[6] = get_num_compile_time_varargs();
  row[7] = get_compile_time_vararg(0);
  row[8] = get_compile_time_vararg<0>();
  noc.async_write(row_buffer, dst, page, {}, {.page_id = 1});
  noc.async_write_barrier();
}
