// coopviz export TRACE (--perfetto OUT.json | --json OUT.json | --cbor OUT.cvt): converts a saved
// trace for standard viewers (Perfetto, chrome://tracing) or between coopviz's two encodings.
#include <iostream>

#include "app/cli/commands.hpp"
#include "device/trace/perfetto.hpp"
#include "device/trace/trace_file.hpp"

namespace coop::app {

void register_export(CLI::App& app, CliState& state) {
  struct Options {
    std::string input, perfetto, json, cbor;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("export", "Convert a saved trace (Perfetto/Chrome JSON, coopviz "
                                           "JSON or CBOR)");
  cmd->add_option("trace", o->input, "A trace saved by coopviz (run --trace)")->required();
  cmd->add_option("--perfetto", o->perfetto, "Write Chrome trace-event JSON for Perfetto");
  cmd->add_option("--json", o->json, "Write coopviz's JSON encoding");
  cmd->add_option("--cbor", o->cbor, "Write coopviz's compact CBOR encoding");
  cmd->callback([o, &state] {
    if (o->perfetto.empty() && o->json.empty() && o->cbor.empty()) {
      state.exit_code = usage_error("export needs at least one of --perfetto, --json, --cbor");
      return;
    }
    auto traces = load_traces(o->input);
    if (!traces) {
      state.exit_code = usage_error(traces.message());
      return;
    }
    Status s;
    if (!o->perfetto.empty() && s) s = write_file_atomically(o->perfetto, to_perfetto_json(*traces));
    if (!o->json.empty() && s)
      s = write_file_atomically(o->json, encode_traces(*traces, TraceEncoding::Json));
    if (!o->cbor.empty() && s)
      s = write_file_atomically(o->cbor, encode_traces(*traces, TraceEncoding::Cbor));
    if (!s) {
      std::cerr << "coopviz: error: " << s.message() << "\n";
      state.exit_code = 1;
      return;
    }
    state.exit_code = 0;
  });
}

}  // namespace coop::app
