// Source lowering for the emulator: lesson kernels and user programs, line for line.
#include <gtest/gtest.h>

#include <string>

#include "device/lowering/lowering.hpp"

namespace coop {
namespace {

std::string lowered(const std::string& text) {
  Result<std::string> r = lower_source(text, "p.cu", SourceKind::Program);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : "";
}

std::string lowering_error(const std::string& text) {
  Result<std::string> r = lower_source(text, "p.cu", SourceKind::Program);
  return r.ok() ? "" : r.status().message();
}

TEST(Lowering, KeepsEveryLineWhereItWas) {
  const std::string out = lowered("a\n  __shared__ float t[32];\nk<<<1, 2>>>(x,\n  y);\n");
  EXPECT_EQ(out.rfind("#line 1 \"p.cu\"\n", 0), 0u);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 5);
}

TEST(Lowering, LaunchesNameTheirKernel) {
  EXPECT_NE(lowered("k<<<g, b>>>(x);").find("::coop::byo::launcher(\"k\", k, g, b)(x);"),
            std::string::npos);
  EXPECT_NE(lowered("  ns::k<float, 4><<<dim3(2, 2), 64, smem, s>>>(a, b);")
                .find("::coop::byo::launcher(\"ns::k<float, 4>\", ns::k<float, 4>, dim3(2, 2), "
                      "64, smem, s)(a, b);"),
            std::string::npos);
  // Two launches on one line, and none inside a string or a comment.
  const std::string two = lowered("a<<<1, 1>>>(); b<<<1, 1>>>(); // c<<<1,1>>>()");
  EXPECT_NE(two.find("launcher(\"a\", a, 1, 1)()"), std::string::npos) << two;
  EXPECT_NE(two.find("launcher(\"b\", b, 1, 1)()"), std::string::npos) << two;
  EXPECT_NE(two.find("// c<<<1,1>>>()"), std::string::npos) << two;
  EXPECT_NE(lowered("printf(\"<<<\");").find("printf(\"<<<\");"), std::string::npos);
  EXPECT_NE(lowering_error("k<<<1,\n 2>>>(x);").find("p.cu:1: error: a launch's <<< and >>>"),
            std::string::npos);
}

// An editor's `k << <g, b >> > (x)` is nvcc's `k<<<g, b>>>(x)`; the same characters elsewhere are
// no launch (nested template arguments, an operator<< <T>, a string), and no line moves.
TEST(Lowering, LaunchChevronsWrittenApartAreJoined) {
  EXPECT_EQ(join_launch_chevrons("k << <g, b >> > (x);\nk<<<1, 2 >> >(y);\n"),
            "k <<<g, b >>> (x);\nk<<<1, 2 >>>(y);\n");
  EXPECT_EQ(join_launch_chevrons("m<t> << <n/2, 64, 0, s>> >(a, b >> 1);"),
            "m<t> <<<n/2, 64, 0, s>>>(a, b >> 1);");
  for (const char* kept : {"std::vector<std::vector<std::vector<int>> > v;",
                           "friend std::ostream& operator<< <>(std::ostream&, const B<T>&);",
                           "printf(\"<< <a>> >\");", "a << b;\nc >> d;"})
    EXPECT_EQ(join_launch_chevrons(kept), kept) << kept;
}

TEST(Lowering, CooperativeAndExLaunchesGetTheTypedKernel) {
  EXPECT_NE(lowered("cudaLaunchCooperativeKernel((void*)reduce, g, b, args, 0, 0);")
                .find("::coop::byo::launch_cooperative(\"reduce\", reduce, g, b, args, 0, 0);"),
            std::string::npos);
  EXPECT_NE(lowered("cudaLaunchCooperativeKernel(reinterpret_cast<void*>(&k), g, b, a);")
                .find("launch_cooperative(\"k\", k, g, b, a);"),
            std::string::npos);
  EXPECT_NE(lowered("e = cudaLaunchKernelEx(&cfg, k, x, y);")
                .find("e = ::coop::byo::launch_ex(\"k\", &cfg, k, x, y);"),
            std::string::npos);
  // The plain array form, and the Ex form on the same line left to its own rewrite.
  EXPECT_NE(lowered("cudaLaunchKernel((const void*)scale, g, b, args, 0, s);")
                .find("::coop::byo::launch_kernel(\"scale\", scale, g, b, args, 0, s);"),
            std::string::npos);
  const std::string both =
      lowered("cudaLaunchKernelEx(&c, k, x); cudaLaunchKernel((void*)k, g, b, a);");
  EXPECT_NE(both.find("launch_ex(\"k\", &c, k, x);"), std::string::npos) << both;
  EXPECT_NE(both.find("launch_kernel(\"k\", k, g, b, a);"), std::string::npos) << both;
}

TEST(Lowering, AllocationsAreNamedByTheirVariable) {
  EXPECT_NE(
      lowered("cudaMalloc((void**)&d_in, n);").find("::coop::byo::malloc_as(\"d_in\", &d_in, n);"),
      std::string::npos);
  EXPECT_NE(lowered("cudaMallocManaged(&data, n);")
                .find("::coop::byo::malloc_managed_as(\"data\", &data, n);"),
            std::string::npos);
  // Not the &variable form: the plain runtime call stays.
  EXPECT_NE(lowered("cudaMalloc(ptrs[i], n);").find("cudaMalloc(ptrs[i], n);"), std::string::npos);
}

TEST(Lowering, BuiltInVariablesButNotFieldsOfTheSameName) {
  const std::string out = lowered(
      "int i = blockIdx.x * blockDim.x + threadIdx.x; c.gridDim = g;"
      " p->blockDim = b; int w = prop.warpSize; h = c ? x : blockDim.x;");
  EXPECT_NE(out.find("(::coop::byo::block_idx()).x"), std::string::npos) << out;
  EXPECT_NE(out.find("(::coop::byo::thread_idx()).x"), std::string::npos) << out;
  EXPECT_NE(out.find("c.gridDim = g"), std::string::npos) << out;
  EXPECT_NE(out.find("p->blockDim = b"), std::string::npos) << out;
  EXPECT_NE(out.find("prop.warpSize"), std::string::npos) << out;
  EXPECT_NE(out.find("x : (::coop::byo::block_dim()).x"), std::string::npos) << out;
}

// A kernel's clock reads run in the emulator's modelled time: clock() (not std::clock(), not a
// member named clock) and the timer registers inline PTX reads, which the host cannot assemble.
TEST(Lowering, ClockReadsAndTimerRegistersBecomeModelledTime) {
  EXPECT_EQ(lowered("t = clock() - s;\n").substr(15), "t = ::coop::byo::device_clock() - s;\n");
  EXPECT_EQ(lowered("t = ::clock();\n").substr(15), "t = ::coop::byo::device_clock();\n");
  for (const char* kept : {"t = std::clock();\n", "t = c.clock();\n", "t = p->clock ();\n",
                           "puts(\"clock()\");\n", "long clock_count = 2;\n"})
    EXPECT_EQ(lowered(kept).substr(15), kept);
  EXPECT_EQ(lowered("  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));\n").substr(15),
            "  (t) = ::coop::byo::globaltimer();\n");
  EXPECT_EQ(
      lowered("asm(\"mov.u64 %0, %%clock64;\" : \"=l\"(c[i]) :: \"memory\"); x();\n").substr(15),
      "(c[i]) = ::coop::byo::clock64_register(); x();\n");
  EXPECT_EQ(lowered("asm(\"mov.u32 %0, %%smid;\" : \"=r\"(sm));\n").substr(15),
            "(sm) = ::coop::emu::this_thread().sm;\n");
  // Other inline PTX is left for the compiler to refuse.
  const std::string other = "asm(\"add.u32 %0, %1, 1;\" : \"=r\"(a) : \"r\"(b));\n";
  EXPECT_EQ(lowered(other).substr(15), other);
}

// A kernel cast to void* is named for the runtime, which a graph's kernel node knows only by
// that address; a cast of anything else keeps its value (kernel_pointer returns it).
TEST(Lowering, KernelsCastToVoidPointersAreNamed) {
  EXPECT_EQ(lowered("p.func = (void *)reduce;\n").substr(15),
            "p.func = (void *)::coop::byo::kernel_pointer(\"reduce\", reduce);\n");
  EXPECT_EQ(lowered("f((const void*)&ns::k<float, 2>, (void*)&d_in, n);\n").substr(15),
            "f((const void*)::coop::byo::kernel_pointer(\"ns::k<float, 2>\", &ns::k<float, 2>), "
            "(void*)::coop::byo::kernel_pointer(\"d_in\", &d_in), n);\n");
  EXPECT_EQ(lowered("p.func = reinterpret_cast<void*>(&k);\n").substr(15),
            "p.func = reinterpret_cast<void*>(::coop::byo::kernel_pointer(\"k\", &k));\n");
  for (const char* kept : {"q = (void*)p[3];\n", "q = (void*)f(x);\n", "q = (void*)s.ptr;\n",
                           "q = (void*)nullptr;\n", "cudaMalloc((void**)&d, n);\n"})
    EXPECT_EQ(lowered(kept).substr(15).find("kernel_pointer"), std::string::npos) << kept;
  // A launch through cudaLaunchKernel names its kernel as before.
  EXPECT_EQ(lowered("cudaLaunchKernel((void*)k, g, b, args);\n").substr(15),
            "::coop::byo::launch_kernel(\"k\", k, g, b, args);\n");
}

TEST(Lowering, SharedDeclarationsInEitherOrder) {
  EXPECT_NE(
      lowered("  extern __shared__ float dyn[];")
          .find("  float* dyn = reinterpret_cast<float*>(::coop::emu::dynamic_shared(\"dyn\", "
                "sizeof(float)));"),
      std::string::npos);
  EXPECT_NE(lowered("  extern double __shared__ x[];")
                .find("double* x = reinterpret_cast<double*>(::coop::emu::dynamic_shared(\"x\", "
                      "sizeof(double)));"),
            std::string::npos);
  EXPECT_NE(lowered("  __shared__ Pair<int, float> p[4];").find("shared_decl<Pair<int, float>[4]>"),
            std::string::npos);
  EXPECT_NE(lowering_error("__shared__ int x[];").find("must be declared extern"),
            std::string::npos);
  EXPECT_NE(lowering_error("__shared__ int x = 1;").find("cannot have an initializer"),
            std::string::npos);
}

// CUB's idiom: one __shared__ union of the TempStorage of every primitive a kernel uses.
TEST(Lowering, SharedUnionsKeepTheirMembersAndLines) {
  const std::string out = lowered(
      "  __shared__ union TempStorage {  // { in a comment\n"
      "    typename Load::TempStorage load;\n"
      "  } temp[2];\n"
      "  __shared__ union { A a; B b; } u;\n"
      "  __shared__ struct {\n    int n;\n  } counts;\n");
  EXPECT_NE(
      out.find("  union TempStorage {  // { in a comment\n"
               "    typename Load::TempStorage load;\n"
               "  }; static const ::coop::emu::SharedSlot coop_slot_temp_3{\"temp\", __LINE__};"
               " auto& temp = ::coop::emu::shared_decl<TempStorage[2]>(coop_slot_temp_3);\n"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("  union coop_shared_type_4 { A a; B b; }; static const"), std::string::npos)
      << out;
  EXPECT_NE(out.find("auto& u = ::coop::emu::shared_decl<coop_shared_type_4>"), std::string::npos);
  EXPECT_NE(out.find("auto& counts = ::coop::emu::shared_decl<coop_shared_type_5>"),
            std::string::npos);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 8);  // #line, then the seven as written
  EXPECT_NE(lowering_error("__shared__ union U {\n int a;\n").find("is never closed"),
            std::string::npos);
}

TEST(Lowering, GpuProgramsGetTracedAtomicsAndKeepTheirSharedMemory) {
  Result<std::string> r = lower_source(
      "  __shared__ float t[32];\n  atomicAdd(&x, 1); __syncthreads(); ns::atomicAdd(p, 2);\n"
      "  k<<<1, 32>>>(x);\n  cudaDeviceReset();\n",
      "g.cu", SourceKind::GpuProgram);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->find("  __shared__ float t[32];"), std::string::npos) << *r;
  EXPECT_NE(r->find("::coop::atomicAdd(&x, 1); ::coop::__syncthreads(); ns::atomicAdd(p, 2);"),
            std::string::npos)
      << *r;
  EXPECT_NE(r->find("::coop::byo::launcher(\"k\", k, 1, 32)(x);"), std::string::npos) << *r;
  EXPECT_NE(r->find("::coop::byo::device_reset();"), std::string::npos) << *r;
  // The emulator's runtime writes the trace in its own cudaDeviceReset.
  EXPECT_NE(lowered("cudaDeviceReset();").find("\ncudaDeviceReset();"), std::string::npos);
  auto gpu = [](const char* source) {
    Result<std::string> lowered = lower_source(source, "g.cu", SourceKind::GpuProgram);
    return lowered.ok() ? *lowered : lowered.status().message();
  };
  // Warp intrinsics too, nested or globally qualified; members and other namespaces stay.
  EXPECT_NE(gpu("  v += __shfl_down_sync(m, v, 1); __syncwarp();\n"
                "  b = __any_sync(~0u, __ballot_sync(m, p)); ::__all_sync(m, p); w.__syncwarp(); "
                "ns::__shfl_sync(m, v, 0); p->__syncwarp(m);\n")
                .find("  v += ::coop::__shfl_down_sync(m, v, 1); ::coop::__syncwarp();\n"
                      "  b = ::coop::__any_sync(~0u, ::coop::__ballot_sync(m, p)); "
                      "::coop::__all_sync(m, p); w.__syncwarp(); ns::__shfl_sync(m, v, 0); "
                      "p->__syncwarp(m);\n"),
            std::string::npos);
  // Frees and stream-ordered allocation go through the runtime, which keeps a graph's memory the
  // graph's and captures them; the other frees and a longer name stay.
  EXPECT_NE(gpu("  cudaFree(a); check(cudaFreeAsync(b, s)); cudaMallocAsync(&c, n, s); "
                "cudaFreeHost(h); myCudaFree(d);\n")
                .find("  ::coop::byo::free_device(a); check(::coop::byo::free_device_async(b, s)); "
                      "::coop::byo::malloc_device_async(&c, n, s); cudaFreeHost(h); "
                      "myCudaFree(d);\n"),
            std::string::npos)
      << gpu("  cudaFree(a);\n");
  // Globally qualified, the call is CUDA's and is renamed whole; another namespace's stays.
  EXPECT_NE(gpu("  ::cudaFree(a); ::cudaMalloc(&b, n); ns::cudaFree(c);\n")
                .find("  ::coop::byo::free_device(a); ::coop::byo::malloc_as(\"b\", &b, n); "
                      "ns::cudaFree(c);\n"),
            std::string::npos)
      << gpu("  ::cudaFree(a); ::cudaMalloc(&b, n); ns::cudaFree(c);\n");
  EXPECT_NE(lowered("cudaFree(a);").find("\ncudaFree(a);"), std::string::npos);
  // The block- and system-scope atomics too; a longer name that only starts like one stays.
  EXPECT_NE(gpu("  atomicAdd_block(p, 1); atomicCAS_system(q, 0, 1); atomicOr_blocks(r, 2);\n")
                .find("  ::coop::atomicAdd_block(p, 1); ::coop::atomicCAS_system(q, 0, 1); "
                      "atomicOr_blocks(r, 2);\n"),
            std::string::npos);
  // cuda::atomic_ref is coop's traced one; libcu++'s other names stay.
  EXPECT_NE(gpu("  cuda::atomic_ref<int, cuda::thread_scope_block> a(x); "
                "::cuda::std::atomic_ref<int> b(y); ns::cuda::atomic_ref<int> c(z); "
                "cuda::atomic<int> d;\n")
                .find("  ::coop::cuda::atomic_ref<int, cuda::thread_scope_block> a(x); "
                      "::coop::cuda::std::atomic_ref<int> b(y); ns::cuda::atomic_ref<int> c(z); "
                      "cuda::atomic<int> d;\n"),
            std::string::npos);
  // So are libcu++'s barrier, pipeline and memcpy_async, and the <cuda_pipeline.h> primitives;
  // scopes, aligned_size_t and pipeline_role stay libcu++'s.
  EXPECT_NE(
      gpu("  __shared__ cuda::barrier<cuda::thread_scope_block> bar; "
          "cuda::memcpy_async(g, d, s, cuda::aligned_size_t<16>(n), bar);\n"
          "  cuda::pipeline<cuda::thread_scope_block> p = cuda::make_pipeline(g, &st, "
          "cuda::pipeline_role::producer); cuda::pipeline_consumer_wait_prior<0>(q);\n"
          "  __pipeline_memcpy_async(d, s, 4); __pipeline_commit(); __pipeline_wait_prior(0); "
          "cuda::std::barrier<> sb; x.cuda::pipeline_shared_state;\n")
          .find("  __shared__ ::coop::cuda::barrier<cuda::thread_scope_block> bar; "
                "::coop::cuda::memcpy_async(g, d, s, cuda::aligned_size_t<16>(n), bar);\n"
                "  ::coop::cuda::pipeline<cuda::thread_scope_block> p = "
                "::coop::cuda::make_pipeline(g, &st, cuda::pipeline_role::producer); "
                "::coop::cuda::pipeline_consumer_wait_prior<0>(q);\n"
                "  ::coop::__pipeline_memcpy_async(d, s, 4); ::coop::__pipeline_commit(); "
                "::coop::__pipeline_wait_prior(0); ::coop::cuda::std::barrier<> sb; "
                "x.cuda::pipeline_shared_state;\n"),
      std::string::npos);
}

TEST(Lowering, HostHalfKeepsKernelStubsAndDropsDeviceCode) {
  const std::string source =
      "#include <cstdio>\n"
      "__device__ int counter;\n"
      "__constant__ float coef[4] = {1, 2, 3, 4};\n"
      "template <class G> __device__ float sum(G g, float v) {\n"
      "  return cg::reduce(g, v, cg::plus<float>()); }\n"
      "__device__ float helper(cg::thread_group g);\n"
      "__host__ __device__ int square(int x) { return x * x; }\n"
      "struct V { float x; __device__ V& operator+=(const V& o) { x += o.x; return *this; } };\n"
      "template <int N> __global__ void __launch_bounds__(128) k(float* out) {\n"
      "  __shared__ float t[N]; // a } in a comment\n"
      "  out[0] = sum(cg::this_thread_block(), t[0]); printf(\"}\");\n"
      "}\n"
      "int main() { k<4><<<1, 128>>>(nullptr); return square(2); }\n";
  Result<std::string> r = lower_source(source, "h.cu", SourceKind::GpuHost);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const std::string& out = *r;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'),
            std::count(source.begin(), source.end(), '\n') + 1)
      << "every line keeps its number";
  for (const char* kept :
       {"__device__ int counter;", "__constant__ float coef[4] = {1, 2, 3, 4};",
        "__host__ __device__ int square(int x) { return x * x; }",
        "template <int N> __global__ void __launch_bounds__(128) k(float* out) {",
        "::coop::byo::launcher(\"k<4>\", k<4>, 1, 128)(nullptr)", "struct V { float x;"})
    EXPECT_NE(out.find(kept), std::string::npos) << kept << " in\n" << out;
  for (const char* gone : {"cg::reduce", "helper", "__shared__", "printf(\"}\")", "operator+="})
    EXPECT_EQ(out.find(gone), std::string::npos) << gone << " in\n" << out;
}

TEST(Lowering, HostHalfObstaclesAreNamed) {
  EXPECT_EQ(host_half_obstacle("__device__ int x;\n__global__ void k() {}\n"), "");
  EXPECT_EQ(host_half_obstacle("__managed__ int x;"), "a __managed__ variable");
  EXPECT_EQ(host_half_obstacle("static __device__ int x;"),
            "a static __device__ or __constant__ variable");
  EXPECT_EQ(host_half_obstacle("namespace { __global__ void k() {} }"), "an anonymous namespace");
  EXPECT_EQ(host_half_obstacle("auto f = [=] __device__ (int i) { return i; };"),
            "a lambda with device code");
  EXPECT_EQ(host_half_obstacle("cudaLaunchKernelEx(&c, k, x);"), "a cluster launch");
  EXPECT_EQ(host_half_obstacle("#include <cuda_pipeline.h>\n"), "CUDA's pipeline header");
  EXPECT_EQ(host_half_obstacle("#include <cstdio>\n#include <thrust/sort.h>\n"), "Thrust or CUB");
  EXPECT_EQ(host_half_obstacle("  #include <cub/cub.cuh>\n"), "Thrust or CUB");
  // Words in comments and strings are not code.
  EXPECT_EQ(host_half_obstacle("// __managed__ int x;\nconst char* s = \"__managed__\";"), "");
}

// A program of several files names each kernel's file by the kernels each defines.
TEST(Lowering, DefinedKernelsAreThoseWithABody) {
  const std::string text =
      "__global__ void declared(float* x);\n"
      "extern \"C\" __global__ void plain(int n) { if (n) return; }\n"
      "template <class T, unsigned B>\n__global__ void __launch_bounds__(256, 2)\n"
      "  tree(const T* in, T* out) {\n}\n"
      "// __global__ void in_a_comment() {}\n"
      "namespace ns { __global__ void qualified(int (*f)(int)) {} }\n"
      "__device__ int helper() { return 1; }\n";
  EXPECT_EQ(defined_kernels(text), (std::vector<std::string>{"plain", "tree", "qualified"}));
}

TEST(Lowering, LessonNamespacesMoveAside) {
  Result<std::string> r =
      lower_source("namespace coop::lessons::demo {\n}\n", "d.cuh", SourceKind::Lesson);
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->find("namespace coop::lessons::emulated::demo {"), std::string::npos);
}

}  // namespace
}  // namespace coop
