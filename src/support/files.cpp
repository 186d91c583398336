#include "support/files.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace visakit {

bool readFileLimited(const std::string& path, uint64_t maxBytes, std::string& out, std::string& err, const char* limit) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    err = fmt::format("cannot open '{}': {}", path, std::strerror(errno));
    return false;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    err = fmt::format("'{}' is a directory", path);
    return false;
  }
  std::string data;
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) <= maxBytes) data.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      err = fmt::format("cannot read '{}': {}", path, std::strerror(errno));
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    if (data.size() + static_cast<uint64_t>(n) > maxBytes) {
      err = fmt::format("'{}' has more than {} bytes ({})", path, maxBytes, limit);
      ::close(fd);
      return false;
    }
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  out = std::move(data);
  return true;
}

}  // namespace visakit
