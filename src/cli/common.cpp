#include "cli/common.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

namespace visakit::cli {

bool readFile(const std::string& path, std::string& out, std::string& err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = fmt::format("cannot open '{}': {}", path, std::strerror(errno));
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    err = fmt::format("cannot read '{}'", path);
    return false;
  }
  out = ss.str();
  return true;
}

bool writeFileAtomic(const std::string& path, std::string_view data, std::string& err) {
  std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    err = fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    return false;
  }
  bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  ok = (std::fflush(f) == 0) && ok;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

std::optional<Loaded> loadAndVerify(const std::string& path, const Options& opts, bool verifyIt) {
  Loaded l;
  std::string err;
  std::string data;
  if (!readFile(path, data, err)) {
    std::cerr << "visakit: error: " << err << "\n";
    return std::nullopt;
  }
  Diagnostics diags;
  std::optional<Module> m;
  if (looksBinary(data)) {
    m = readBinary(data, diags);
  } else {
    l.source = std::move(data);
    Module partial;
    m = parseText(l.source, diags, opts, &partial);
    // Report the rest of the file's errors too, from what did parse.
    if (!m && verifyIt) verify(partial, diags, opts);
  }
  if (m && verifyIt) verify(*m, diags, opts);
  std::cerr << diags.render(path, l.source);
  if (diags.hasErrors()) {
    std::cerr << fmt::format("{} error{} generated.\n", diags.errorCount(), diags.errorCount() == 1 ? "" : "s");
    return std::nullopt;
  }
  l.module = std::move(*m);
  return l;
}

}  // namespace visakit::cli
