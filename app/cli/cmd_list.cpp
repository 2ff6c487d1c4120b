// coopviz list [--json]: the lessons in teaching order.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli/commands.hpp"
#include "lessons/lesson.hpp"

namespace coop::app {

void register_list(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand("list", "List the lessons in teaching order");
  auto json_out = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json_out, "Print JSON");
  cmd->callback([json_out, &state] {
    using lessons::registry;
    if (*json_out) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& l : registry())
        list.push_back({{"id", l.id},
                        {"order", l.order},
                        {"title", l.title},
                        {"level", lessons::to_string(l.level)},
                        {"concepts", l.concepts},
                        {"min_cc", l.min_cc},
                        {"gpu", l.runs_on_gpu},
                        {"emulator", true},
                        {"steps", l.steps.size()},
                        {"records_memory", l.records_memory}});
      std::cout << list.dump(2) << "\n";
    } else {
      for (const auto& l : registry()) {
        std::cout << l.id << "  [" << lessons::to_string(l.level) << "]  " << l.title << "\n   ";
        for (size_t i = 0; i < l.concepts.size(); ++i)
          std::cout << (i ? ", " : " ") << l.concepts[i];
        if (!l.runs_on_gpu) std::cout << "  (emulator only)";
        std::cout << "\n";
      }
    }
    state.exit_code = 0;
  });
}

}  // namespace coop::app
