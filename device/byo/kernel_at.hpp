// A kernel template launched inside a template with its arguments deduced (`k<<<g, b>>>(p, n)` in
// a `template <class T> void run(T* p)`): the front end (tools/frontend/launch_edits.cpp) declares
// beside each such kernel a deducer with the kernel's own template and function parameters,
// `coop_kernel_of_k`, whose return type holds the instance the same arguments would choose, and
// the launch names the kernel as `decltype(coop_kernel_of_k(p, n))::value`. C++ takes no address
// of a template without its arguments, and they are known only in each instantiation.
#pragma once

namespace coop::byo {

// The pointer's type spelled out, not `template <auto>`: nvcc's front end fails the deduction
// of a deducer whose return type takes a kernel's address through an `auto` parameter.
template <class Pointer, Pointer Function>
struct KernelAt {
  static constexpr Pointer value = Function;
};

}  // namespace coop::byo
