#pragma once
// A set of an enum's bit flags (tensor_accessor::ArgsConfig is one).
#include <type_traits>

template <typename E>
class Flags {
 public:
  static_assert(std::is_enum_v<E>, "Flags<E>: E must be an enum of bit flags");
  using Underlying = std::underlying_type_t<E>;

  constexpr Flags() noexcept : bits_(0) {}
  constexpr Flags(E value) noexcept : bits_(bits_of(value)) {}
  constexpr Flags(E a, E b) noexcept : bits_(Underlying(bits_of(a) | bits_of(b))) {}
  constexpr explicit Flags(Underlying bits) noexcept : bits_(bits) {}

  constexpr Flags operator|(E other) const noexcept { return Flags(Underlying(bits_ | bits_of(other))); }
  constexpr Flags operator|(Flags other) const noexcept { return Flags(Underlying(bits_ | other.bits_)); }
  constexpr Flags operator&(E other) const noexcept { return Flags(Underlying(bits_ & bits_of(other))); }
  // Every bit of `single` is set.
  constexpr bool test(E single) const noexcept { return (bits_ & bits_of(single)) == bits_of(single); }
  void set(E single, bool value = true) noexcept {
    bits_ = value ? Underlying(bits_ | bits_of(single)) : Underlying(bits_ & ~bits_of(single));
  }
  constexpr Underlying raw() const noexcept { return bits_; }

 private:
  static constexpr Underlying bits_of(E value) { return static_cast<Underlying>(value); }
  Underlying bits_ = 0;
};
