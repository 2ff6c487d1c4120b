// nvcc's spellings of relocatable device code that a program's Makefile passes
// (`-rdc=true`, `-rdc true`, `--relocatable-device-code=true`, `-dc`, `-lcudadevrt`), taken by
// `coopviz run FILE.cu` as its own `--rdc` (CLI11 reads no multi-letter option after one dash).
#pragma once

#include <string>
#include <vector>

namespace coop::app {

// `own` (coopviz's arguments, before any `--`) with those spellings made `--rdc`, once.
std::vector<std::string> with_nvcc_rdc_flags(const std::vector<std::string>& own);

}  // namespace coop::app
