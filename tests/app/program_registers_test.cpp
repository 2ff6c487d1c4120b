// A program's GPU build is instrumented, which takes registers; for a program that asks for its
// kernels' resources, coopviz holds each kernel to the registers plain nvcc gives it
// (app/program/kernel_resource_table.hpp), so that cudaFuncGetAttributes and the occupancy API
// answer on the GPU as for the program as written, and as on the emulator. Checked here without
// a GPU: the cubin of the GPU build against the table of plain nvcc's registers.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "app/program/program.hpp"
#include "device/occupancy/program_resources.hpp"
#include "device/occupancy/resource_report.hpp"
#include "tests/app/run_coopviz.hpp"

namespace {

namespace fs = std::filesystem;

template <class T>
T read_at(const std::string& bytes, size_t at) {
  T v{};
  if (at + sizeof(T) <= bytes.size()) std::memcpy(&v, bytes.data() + at, sizeof(T));
  return v;
}

// Each kernel's registers in a cubin, as cuobjdump --dump-resource-usage reads them: the
// EIATTR_REGCOUNT records (attribute 0x2f: a symbol index, then the count) of its .nv.info
// section, the symbol named in .symtab. The toolkit here has no cuobjdump; the format is ELF.
std::map<std::string, int> cubin_registers(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string elf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::map<std::string, int> regs;
  if (elf.size() < 64 || elf.compare(0, 4, "\x7f" "ELF") != 0) return regs;
  struct Section {
    uint32_t name, type;
    uint64_t offset, size;
    uint32_t link;
  };
  const uint64_t table = read_at<uint64_t>(elf, 0x28);
  const uint16_t entry = read_at<uint16_t>(elf, 0x3a), count = read_at<uint16_t>(elf, 0x3c),
                 names = read_at<uint16_t>(elf, 0x3e);
  std::vector<Section> sections;
  for (uint16_t i = 0; i < count; ++i) {
    const size_t at = table + size_t(i) * entry;
    sections.push_back({read_at<uint32_t>(elf, at), read_at<uint32_t>(elf, at + 4),
                        read_at<uint64_t>(elf, at + 24), read_at<uint64_t>(elf, at + 32),
                        read_at<uint32_t>(elf, at + 40)});
  }
  auto string_at = [&](uint16_t strings, uint32_t offset) {
    if (strings >= sections.size()) return std::string();
    const size_t at = sections[strings].offset + offset;
    return at < elf.size() ? std::string(elf.c_str() + at) : std::string();
  };
  const Section* symbols = nullptr;
  for (const Section& s : sections)
    if (s.type == 2) symbols = &s;  // SHT_SYMTAB
  for (const Section& s : sections) {
    if (!symbols || string_at(names, s.name) != ".nv.info") continue;
    for (size_t at = s.offset; at + 4 <= s.offset + s.size;) {
      const uint8_t format = uint8_t(elf[at]), attribute = uint8_t(elf[at + 1]);
      const uint16_t size = read_at<uint16_t>(elf, at + 2);
      if (format == 0x04 && attribute == 0x2f && size == 8) {
        const uint32_t symbol = read_at<uint32_t>(elf, at + 4);
        const uint32_t name = read_at<uint32_t>(elf, symbols->offset + symbol * 24);
        regs[string_at(uint16_t(symbols->link), name)] = int(read_at<uint32_t>(elf, at + 8));
      }
      at += 4 + (format == 0x04 ? size : 0);  // EIFMT_SVAL carries `size` bytes
    }
  }
  return regs;
}

TEST(ProgramRegisters, EveryNamedEntryGetsTheTablesRegistersAndNoOther) {
  const std::string ptx =
      ".visible .entry _Z1aPf(\n\t.param .u64 _Z1aPf_param_0\n)\n{\n\tret;\n}\n"
      ".visible .entry _Z1bPf(\n\t.param .u64 _Z1bPf_param_0\n)\n.maxntid 128, 1, 1\n"
      ".minnctapersm 4\n{\n\tret;\n}\n"
      ".visible .entry _Z1cPf(\n\t.param .u64 _Z1cPf_param_0\n)\n.maxnreg 40\n{\n\tret;\n}\n"
      ".visible .entry _Z1dPf(\n\t.param .u64 _Z1dPf_param_0\n)\n.maxnreg 20\n{\n\tret;\n}\n"
      ".visible .entry _Z1ev()\n{\n\tret;\n}\n";
  std::vector<coop::ProgramKernelResources> rows;
  for (auto [name, regs] : {std::pair{"_Z1aPf", 29}, {"_Z1bPf", 32}, {"_Z1cPf", 30},
                            {"_Z1dPf", 30}})
    rows.push_back({name, 90, regs, 0, 0, 0});
  rows.push_back({"_Z1ev", 80, 16, 0, 0, 0});  // another architecture's row: not this build's
  int capped = -1;
  const std::string out = coop::cap_entry_registers(ptx, rows, 90, capped);
  EXPECT_EQ(capped, 4);
  EXPECT_NE(out.find("_Z1aPf_param_0\n)\n.maxnreg 29\n{"), std::string::npos) << out;
  // __launch_bounds__'s directives stay, and the cap comes after them.
  EXPECT_NE(out.find(".maxntid 128, 1, 1\n.minnctapersm 4\n.maxnreg 32\n{"), std::string::npos)
      << out;
  // The source's own __maxnreg__: the smaller of the two, once.
  EXPECT_NE(out.find("_Z1cPf_param_0\n)\n.maxnreg 30\n{"), std::string::npos) << out;
  EXPECT_NE(out.find("_Z1dPf_param_0\n)\n.maxnreg 20\n{"), std::string::npos) << out;
  EXPECT_NE(out.find(".entry _Z1ev()\n{"), std::string::npos) << out;
  EXPECT_EQ(out.size(), ptx.size() + 2 * std::strlen(".maxnreg 29\n"));
}

// nvcc names an unnamed namespace after the file and more of the translation unit; the
// instrumented copy of the program is another file, and its kernel there is still the table's.
TEST(ProgramRegisters, AKernelInAnUnnamedNamespaceIsFoundUnderTheCopysName) {
  const std::string ptx = ".visible .entry _ZN48_GLOBAL__N__0c1d2e3f_15_program_4242_cu_0123abcd8sum_gridEPKiPiS2_i(\n"
                          "\t.param .u64 p\n)\n{\n\tret;\n}\n";
  const std::vector<coop::ProgramKernelResources> rows = {
      {"_ZN46_GLOBAL__N__9feaffa7_17_anon_occupancy_cu_main8sum_gridEPKiPiS2_i", 90, 28, 0, 0, 0}};
  int capped = 0;
  const std::string out = coop::cap_entry_registers(ptx, rows, 90, capped);
  EXPECT_EQ(capped, 1);
  EXPECT_NE(out.find(")\n.maxnreg 28\n{"), std::string::npos) << out;
  // Its name in notes keeps the namespace, whose parenthesis is no parameter list.
  EXPECT_EQ(coop::demangled_name(rows[0].mangled),
            "(anonymous namespace)::sum_grid");
}

TEST(ProgramRegisters, NotesNameWhatStillDiffersAndTheSpills) {
  const std::vector<coop::ProgramKernelResources> rows = {
      {"_Z4samePf", 90, 40, 0, 0, 0}, {"_Z5smallPf", 90, 16, 0, 0, 0},
      {"_Z7spilledPf", 90, 32, 0, 0, 0}};
  const std::string report =
      "ptxas info    : Compiling entry function '_Z4samePf' for 'sm_90'\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function '_Z5smallPf' for 'sm_90'\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 24 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function '_Z7spilledPf' for 'sm_90'\n"
      "    24 bytes stack frame, 24 bytes spill stores, 20 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 1 barriers\n"
      "ptxas info    : Compiling entry function '_Z5addedPf' for 'sm_90'\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 30 registers, used 0 barriers\n";
  const std::vector<std::string> notes = coop::register_cap_notes(rows, report, 90);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_NE(notes[2].find("kernel added on the GPU: 30 registers a thread, the instrumented "
                          "build's: plain nvcc's build has no kernel of its symbol"),
            std::string::npos)
      << notes[2];
  EXPECT_NE(notes[0].find("kernel small on the GPU: 24 registers a thread, plain nvcc's build 16"),
            std::string::npos)
      << notes[0];
  EXPECT_NE(notes[1].find("24 bytes of stack a thread (localSizeBytes), plain nvcc's build 0"),
            std::string::npos)
      << notes[1];
  EXPECT_NE(notes[1].find("spills 24 bytes of stores and 20 of loads"), std::string::npos)
      << notes[1];
}

// Builds the two programs of tests/programs/styles/ that size their launches from the occupancy
// API as StylePrograms.BuildForTheGpuWithNvcc does (its build, from the same cache, when it ran
// first), and reads the registers of the cubin nvcc made.
TEST(ProgramRegisters, InstrumentedDeviceCodeHoldsPlainNvccsRegistersWithoutADevice) {
  const fs::path styles = fs::path(COOPVIZ_SOURCE_DIR) / "tests/programs/styles";
  setenv("XDG_CACHE_HOME",
         coop::testing::program_test_cache().c_str(), 1);
  for (const char* name : {"occupancy_launch.cu", "grid_sync_cooperative.cu"}) {
    SCOPED_TRACE(name);
    coop::app::ProgramOptions o;
    o.file = (styles / name).string();
    o.includes = {(styles / "common").string()};
    o.gpu_arch = "sm_90";
    auto build = coop::app::build_program(o);
    ASSERT_TRUE(build.ok()) << build.status().message();
    ASSERT_TRUE(build->halves) << build->whole_because;
    std::ifstream in(build->executable + ".resources");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto table = coop::parse_program_resources(text);
    ASSERT_TRUE(table.ok()) << table.message();
    ASSERT_TRUE(table->why_not.empty()) << table->why_not;
    const std::map<std::string, int> built = cubin_registers(build->executable + ".cubin");
    int compared = 0;
    for (const coop::ProgramKernelResources& plain : table->rows) {
      ASSERT_EQ(plain.arch, 90) << "the GPU's table holds its architecture alone";
      ASSERT_TRUE(built.count(plain.mangled)) << plain.mangled;
      // ptxas gives a kernel with a register cap no fewer than 24: below that the GPU build
      // may hold up to 24 (no residency limit comes from 32 or fewer on any architecture).
      if (plain.regs >= 24)
        EXPECT_EQ(built.at(plain.mangled), plain.regs) << plain.mangled;
      else
        EXPECT_LE(built.at(plain.mangled), 24) << plain.mangled;
      ++compared;
    }
    EXPECT_GE(compared, 1);
    for (const std::string& note : build->register_notes) std::printf("%s: %s\n", name, note.c_str());
  }
}

}  // namespace
