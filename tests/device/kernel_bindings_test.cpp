// Kernel bindings generated from a kernel file: what is read from the __global__ definitions and
// what the generated files say.
#include <gtest/gtest.h>

#include <string>

#include "device/lowering/kernel_bindings.hpp"

namespace coop {
namespace {

KernelFile kernels_of(const std::string& text) {
  Result<KernelFile> r = read_kernels(text, "k.cuh");
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? *r : KernelFile{};
}

std::string bindings_error(const std::string& text) {
  Result<KernelFile> r = read_kernels(text, "k.cuh");
  return r.ok() ? "" : r.message();
}

std::string in_lesson(const std::string& body) {
  return "#pragma once\nnamespace coop::lessons::demo {\n" + body + "\n}\n";
}

TEST(KernelBindings, ReadsEachDefinitionWithItsTypesAndNames) {
  const KernelFile f = kernels_of(
      in_lesson("__device__ int helper(int x) { return x; }\n"
                "__global__ void first(const float* input, float *sums, float* total) {}\n"
                "// __global__ void commented_out(int a) {}\n"
                "__global__ void second(unsigned long long* start,\n"
                "                       unsigned sm_slots, size_t n, int* /*unused*/) {\n}\n"));
  EXPECT_EQ(f.name_space, "coop::lessons::demo");
  ASSERT_EQ(f.kernels.size(), 2u);
  EXPECT_EQ(f.kernels[0].name, "first");
  EXPECT_EQ(f.kernels[0].line, 4);
  ASSERT_EQ(f.kernels[0].params.size(), 3u);
  EXPECT_EQ(f.kernels[0].params[1].type, "float*");
  EXPECT_EQ(f.kernels[0].params[1].name, "sums");
  const KernelSignature& second = f.kernels[1];
  EXPECT_EQ(second.line, 6);
  ASSERT_EQ(second.params.size(), 4u);
  EXPECT_EQ(second.params[0].type, "unsigned long long*");
  EXPECT_EQ(second.params[1].type, "unsigned");
  EXPECT_EQ(second.params[1].name, "sm_slots");
  EXPECT_EQ(second.params[2].type, "size_t");
  EXPECT_EQ(second.params[3].type, "int*");
  EXPECT_EQ(second.params[3].name, "");
}

TEST(KernelBindings, TypesWithoutNamesKeepEveryWord) {
  const KernelFile f =
      kernels_of(in_lesson("__global__ void k(unsigned, long long, const int, uint32_t, const "
                           "float* __restrict__ in) {}"));
  ASSERT_EQ(f.kernels.size(), 1u);
  const std::vector<KernelParam>& p = f.kernels[0].params;
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p[0].type, "unsigned");
  EXPECT_EQ(p[1].type, "long long");
  EXPECT_EQ(p[2].type, "const int");
  EXPECT_EQ(p[3].type, "uint32_t");
  EXPECT_EQ(p[4].type, "const float*");  // __restrict__ is not part of the function's type
  EXPECT_EQ(p[4].name, "in");
}

TEST(KernelBindings, NoParametersAndLaunchBounds) {
  const KernelFile f = kernels_of(in_lesson(
      "__global__ void none() {}\n__global__ void __launch_bounds__(256) bounded(void) {}\n"
      "__global__ void declared_only(int x);\n"));
  ASSERT_EQ(f.kernels.size(), 2u);
  EXPECT_EQ(f.kernels[0].name, "none");
  EXPECT_TRUE(f.kernels[0].params.empty());
  EXPECT_EQ(f.kernels[1].name, "bounded");
  EXPECT_TRUE(f.kernels[1].params.empty());
}

TEST(KernelBindings, WhatABindingCannotSayIsAnErrorWithItsLine) {
  EXPECT_EQ(bindings_error("__global__ void k(int* x) {}"),
            "k.cuh:1: error: kernels must be defined in a namespace coop::lessons::<name> { ... }");
  EXPECT_EQ(bindings_error(in_lesson("__device__ int f() { return 1; }")),
            "k.cuh:1: error: no __global__ kernel is defined here");
  EXPECT_EQ(bindings_error(in_lesson("template <int N>\n__global__ void k(int* x) {}")),
            "k.cuh:4: error: a template kernel cannot be bound; instantiate it in a plain one");
  EXPECT_NE(bindings_error(in_lesson("__global__ void k(int& x) {}"))
                .find("k.cuh:3: error: kernel "
                      "parameter 'int& x' is a "
                      "reference"),
            std::string::npos);
  EXPECT_NE(bindings_error(in_lesson("__global__ void k(int x[4]) {}")).find("is an array"),
            std::string::npos);
  // A type only the kernel file knows: the message names it and says what is allowed.
  const std::string custom =
      bindings_error(in_lesson("__global__ void k(int a,\n  const Quad* q) {}"));
  EXPECT_NE(custom.find("k.cuh:4: error: kernel parameter type 'const Quad*' names 'Quad'"),
            std::string::npos)
      << custom;
  EXPECT_NE(custom.find("<cstdint>"), std::string::npos) << custom;
  EXPECT_NE(bindings_error(in_lesson("__global__ int k() {}")).find("cannot read this kernel"),
            std::string::npos);
}

TEST(KernelBindings, GeneratedFilesBindEveryKernelOnBothBackends) {
  const KernelFile f = kernels_of(in_lesson(
      "__global__ void first(const float* in, float* out) {}\n__global__ void second() {}"));
  const KernelBindingFiles out = write_kernel_bindings(f, "lessons/demo", "demo.cuh");
  auto has = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  EXPECT_TRUE(has(out.header, "namespace coop::lessons::demo {")) << out.header;
  EXPECT_TRUE(has(out.header, "  Kernel<const float*, float*> first{\"first\", {}, nullptr};"))
      << out.header;
  EXPECT_TRUE(has(out.header, "  Kernel<> second{\"second\", {}, nullptr};")) << out.header;
  EXPECT_TRUE(has(out.header, "// first(const float* in, float* out)\n")) << out.header;
  EXPECT_TRUE(has(out.header, "const Kernels& kernels();")) << out.header;
  EXPECT_TRUE(has(out.gpu_source, "#include \"lessons/demo/demo.cuh\"")) << out.gpu_source;
  EXPECT_TRUE(has(out.gpu_source, "k.first.gpu = COOP_GPU_ENTRY(first);")) << out.gpu_source;
  EXPECT_TRUE(has(out.gpu_source, "k.second.gpu = COOP_GPU_ENTRY(second);")) << out.gpu_source;
  EXPECT_TRUE(has(out.emu_source, "#include \"demo.emu.cuh\"")) << out.emu_source;
  EXPECT_TRUE(has(out.emu_source, "k.second.emu = &::coop::lessons::emulated::demo::second;"))
      << out.emu_source;
  EXPECT_TRUE(has(out.emu_source, "return bound_kernels(bind_gpu, bind_emu);")) << out.emu_source;
  for (const std::string* file : {&out.header, &out.gpu_source, &out.emu_source})
    EXPECT_EQ(file->rfind("// Generated by coopviz-lower from lessons/demo/demo.cuh.", 0), 0u);
}

}  // namespace
}  // namespace coop
