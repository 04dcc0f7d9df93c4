#include "cli/standard_streams.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace griffin {
namespace {

bool stdout_was_closed = false;

bool IsOpen(int fd) { return ::fcntl(fd, F_GETFD) != -1 || errno != EBADF; }

}  // namespace

void GuardStandardStreams() {
  ::signal(SIGPIPE, SIG_IGN);
  for (int fd = 0; fd <= 2; ++fd) {
    if (IsOpen(fd)) continue;
    if (fd == STDOUT_FILENO) stdout_was_closed = true;
    // open() returns the lowest free number: this one, since the lower ones are open.
    const int null_fd = ::open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
    if (null_fd >= 0 && null_fd != fd) {
      ::dup2(null_fd, fd);
      ::close(null_fd);
    }
  }
}

bool StdoutWasClosed() { return stdout_was_closed; }

Status WriteWhole(std::FILE* out, std::string_view text, const char* name) {
  auto failed = [name](int error) {
    return Status::InputError(std::string(name) + ": cannot write the report: " + std::strerror(error));
  };
  if (out == stdout && stdout_was_closed) return failed(EBADF);
  errno = 0;
  const size_t written = std::fwrite(text.data(), 1, text.size(), out);
  if (written != text.size() || std::fflush(out) != 0 || std::ferror(out)) return failed(errno ? errno : EIO);
  return Status::OK();
}

}  // namespace griffin
