// The device ABI's faults, DPRINT and profiler zones.
#include <fmt/args.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <new>

#include "ditmk/tt/device_abi/device_abi.hpp"
#include "ditmk/tt/device_abi/device_abi_parts.hpp"
#include "ditmk/tt/device_abi/launch_access.hpp"
#include "ditmk/tt/emu/dataflow_api.hpp"
#include "ditmk/tt/emu/launch_state.hpp"
#include "ditmk/tt/emu/profiler_api.hpp"

namespace ditmk::tt::dialect {

namespace {

void print_to_stderr(std::string_view where, std::string_view line) { fmt::print(stderr, "DPRINT {}: {}\n", where, line); }

DprintSink& sink() {
  static DprintSink current = print_to_stderr;
  return current;
}

// Finished lines go to the sink with the running processor named; the rest waits for its newline.
void print(std::string_view text) {
  std::string& line = emu::current().dialect.print_line;
  for (char c : text) {
    if (c != '\n') {
      line += c;
      continue;
    }
    sink()(emu::current().where(), line);
    line.clear();
  }
}

float bf16_value(uint64_t bits) {
  const uint32_t word = uint32_t(bits & 0xffff) << 16;
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

template <typename T>
T bits_as(uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// An integer as iostream prints it: in the stream's base, negative values in hex or octal as the
// unsigned value of their own width.
std::string integer_text(uint64_t bits, bool is_signed, bool wide, uint32_t base) {
  if (base == 10) {
    if (is_signed) return wide ? fmt::format("{}", int64_t(bits)) : fmt::format("{}", int32_t(bits));
    return wide ? fmt::format("{}", bits) : fmt::format("{}", uint32_t(bits));
  }
  const uint64_t value = wide ? bits : uint64_t(uint32_t(bits));
  return base == 16 ? fmt::format("{:x}", value) : fmt::format("{:o}", value);
}

std::string float_text(double value, const emu::ProcessorRuntime::DialectState& s) {
  return s.print_fixed ? fmt::format("{:.{}f}", value, s.print_precision)
                       : fmt::format("{:.{}g}", value, s.print_precision);
}

std::string item_text(uint32_t item, uint64_t bits, const emu::ProcessorRuntime::DialectState& s) {
  switch (item) {
    case DITMK_DPRINT_I32: return integer_text(bits, true, false, s.print_base);
    case DITMK_DPRINT_U32: return integer_text(bits, false, false, s.print_base);
    case DITMK_DPRINT_I64: return integer_text(bits, true, true, s.print_base);
    case DITMK_DPRINT_U64: return integer_text(bits, false, true, s.print_base);
    case DITMK_DPRINT_F32: return float_text(bits_as<float>(bits), s);
    case DITMK_DPRINT_F64: return float_text(bits_as<double>(bits), s);
    case DITMK_DPRINT_BF16: return float_text(bf16_value(bits), s);
    case DITMK_DPRINT_CHAR: return std::string(1, char(bits));
    case DITMK_DPRINT_BOOL: return bits ? "1" : "0";
    case DITMK_DPRINT_POINTER: return fmt::format("{:#x}", bits);
  }
  emu::raise(emu::FaultKind::bad_call, "DPRINT: item kind {} is not one of device ABI {}", item,
             DITMK_DEVICE_ABI_VERSION);
}

// SETW pads the next item only, as iostream's setw.
void print_item(std::string text) {
  emu::ProcessorRuntime::DialectState& s = emu::current().dialect;
  if (s.print_width > text.size()) text.insert(0, s.print_width - text.size(), ' ');
  s.print_width = 0;
  print(text);
}

void push_arg(fmt::dynamic_format_arg_store<fmt::format_context>& store, const ditmk_dprint_arg& arg) {
  switch (arg.kind) {
    case DITMK_DPRINT_I32: store.push_back(int32_t(arg.bits)); return;
    case DITMK_DPRINT_U32: store.push_back(uint32_t(arg.bits)); return;
    case DITMK_DPRINT_I64: store.push_back(int64_t(arg.bits)); return;
    case DITMK_DPRINT_U64: store.push_back(arg.bits); return;
    case DITMK_DPRINT_F32: store.push_back(bits_as<float>(arg.bits)); return;
    case DITMK_DPRINT_F64: store.push_back(bits_as<double>(arg.bits)); return;
    case DITMK_DPRINT_BF16: store.push_back(bf16_value(arg.bits)); return;
    case DITMK_DPRINT_CHAR: store.push_back(char(arg.bits)); return;
    case DITMK_DPRINT_BOOL: store.push_back(arg.bits != 0); return;
    case DITMK_DPRINT_POINTER: store.push_back(reinterpret_cast<const void*>(uintptr_t(arg.bits))); return;
    case DITMK_DPRINT_TEXT: store.push_back(std::string(arg.text ? arg.text : "")); return;
  }
  emu::raise(emu::FaultKind::bad_call, "DPRINT: argument kind {} is not one of device ABI {}", arg.kind,
             DITMK_DEVICE_ABI_VERSION);
}

}  // namespace

void set_dprint_sink(DprintSink new_sink) { sink() = new_sink ? std::move(new_sink) : DprintSink(print_to_stderr); }

namespace abi {

void fault(uint32_t kind, const char* message) {
  switch (kind) {
    case DITMK_FAULT_MISSING_ARG: emu::raise(emu::FaultKind::missing_arg, "{}", message);
    case DITMK_FAULT_OUT_OF_BOUNDS: emu::raise(emu::FaultKind::out_of_bounds, "{}", message);
    default: emu::raise(emu::FaultKind::bad_call, "{}", message);
  }
}

void dprint(uint32_t item, uint64_t bits) {
  emu::ProcessorRuntime::DialectState& s = emu::current().dialect;
  switch (item) {
    case DITMK_DPRINT_ENDL: print("\n"); return;
    case DITMK_DPRINT_HEX: s.print_base = 16; return;
    case DITMK_DPRINT_DEC: s.print_base = 10; return;
    case DITMK_DPRINT_OCT: s.print_base = 8; return;
    case DITMK_DPRINT_SETW: s.print_width = uint32_t(bits); return;
    case DITMK_DPRINT_SETPRECISION: s.print_precision = uint32_t(bits); return;
    case DITMK_DPRINT_FIXED: s.print_fixed = true; return;
    case DITMK_DPRINT_DEFAULTFLOAT: s.print_fixed = false; return;
    case DITMK_DPRINT_FLUSH:
      if (!s.print_line.empty()) print("\n");
      return;
  }
  print_item(item_text(item, bits, s));
}

void dprint_text(const char* text, uint32_t size) { print_item(std::string(text, size)); }

void dprint_format(const char* format, const ditmk_dprint_arg* args, uint32_t count) {
  fmt::dynamic_format_arg_store<fmt::format_context> store;
  for (uint32_t i = 0; i < count; ++i) push_arg(store, args[i]);
  std::string text;
  try {
    text = fmt::vformat(format, store);
  } catch (const fmt::format_error& e) {
    emu::raise(emu::FaultKind::bad_call, "DPRINT(\"{}\"): {}", format, e.what());
  }
  print(text);
}

// The emulator's zone object lives in the storage the kernel's zone keeps in its frame.
static_assert(sizeof(emu::DeviceZone) <= DITMK_ZONE_STORAGE_BYTES && alignof(emu::DeviceZone) <= 8);

void zone_begin(void* storage, const char* name) { new (storage) emu::DeviceZone(name); }

void zone_end(void* storage) { std::launder(static_cast<emu::DeviceZone*>(storage))->~DeviceZone(); }

void zone_data(const char* name, uint64_t data) { emu::zone_data(name, data); }

void risc_l1_bytes(uint32_t bytes) { emu::risc_l1_bytes(bytes); }

}  // namespace abi
}  // namespace ditmk::tt::dialect
