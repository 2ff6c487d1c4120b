// Raw-bit encoding of the values an Event carries (Event::a / Event::b), shared by both backends.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "device/trace/event.hpp"

namespace coop {

// The ValueType tag for a C++ value type recorded in an event.
template <class T>
COOP_HD constexpr ValueType value_type_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) return ValueType::Bool;
  else if constexpr (std::is_same_v<U, float>) return ValueType::F32;
  else if constexpr (std::is_same_v<U, double>) return ValueType::F64;
  // Nested, so that no sizeof is formed for a type without one (cudaMalloc on a void**).
  else if constexpr (std::is_integral_v<U>) {
    if constexpr (sizeof(U) <= 4) return std::is_signed_v<U> ? ValueType::I32 : ValueType::U32;
    else return std::is_signed_v<U> ? ValueType::I64 : ValueType::U64;
  } else return ValueType::None;
}

// A value wider than 8 bytes (a uint4, a struct: collectives take up to 32) is recorded as the
// 64-bit FNV-1a hash of its bytes, padding included. Both backends hash alike, so traces of wide
// shuffles still compare equal exactly when the values are; the value itself is not recorded.
template <class T>
COOP_HD inline uint64_t hash_bytes(const T& value) {
  unsigned char bytes[sizeof(T)];
  memcpy(bytes, &value, sizeof(T));
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned i = 0; i < sizeof(T); ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
  return h;
}

// Value -> 64 raw bits (zero-extended; floats keep their IEEE bits; other trivially copyable
// values of up to 8 bytes as their bytes, wider ones hashed).
template <class T>
COOP_HD inline uint64_t to_bits(T value) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, float>) {
    uint32_t bits;
    memcpy(&bits, &value, 4);
    return bits;
  } else if constexpr (std::is_same_v<U, double>) {
    uint64_t bits;
    memcpy(&bits, &value, 8);
    return bits;
  } else if constexpr (std::is_integral_v<U> && sizeof(U) <= 4) {
    return static_cast<uint32_t>(value);
  } else if constexpr (std::is_integral_v<U>) {
    return static_cast<uint64_t>(value);
  } else if constexpr (std::is_trivially_copyable_v<U> && sizeof(U) <= 8) {
    uint64_t bits = 0;
    memcpy(&bits, &value, sizeof(U));
    return bits;
  } else if constexpr (std::is_trivially_copyable_v<U>) {
    return hash_bytes(value);
  } else {
    return 0;
  }
}

// 64 raw bits -> value.
template <class T>
COOP_HD inline T from_bits(uint64_t bits) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t low = static_cast<uint32_t>(bits);
    T value;
    memcpy(&value, &low, 4);
    return value;
  } else if constexpr (std::is_same_v<T, double>) {
    T value;
    memcpy(&value, &bits, 8);
    return value;
  } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_pointer_v<T>) {
    return (T)(bits);
  } else {
    static_assert(sizeof(T) <= 8, "values wider than 8 bytes travel by address, not as bits");
    T value;
    memcpy(&value, &bits, sizeof(T));
    return value;
  }
}

}  // namespace coop
