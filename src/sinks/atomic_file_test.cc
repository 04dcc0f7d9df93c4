#include "sinks/atomic_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <random>

#include "sinks/sink_test_util.h"
#include "util/sha256.h"

namespace griffin {
namespace {

using testing::ListDir;
using testing::ReadFileBytes;
using testing::TempDir;

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

TEST(AtomicFileTest, TempNameIsHiddenBesideTheFinalPath) {
  EXPECT_EQ(AtomicFileTempPrefix("out/clean.csv"), "out/.clean.csv.tmp-");
  EXPECT_EQ(AtomicFileTempPrefix("clean.csv"), "./.clean.csv.tmp-");
  EXPECT_EQ(AtomicFileTempPrefix("/clean.csv"), "/.clean.csv.tmp-");
  TempDir dir;
  auto file = AtomicFile::Create(dir.Path("a.csv"));
  ASSERT_TRUE(file.ok()) << file.status().message();
  const std::string expected = dir.Path(".a.csv.tmp-") + std::to_string(::getpid()) + "-";
  EXPECT_EQ((*file)->temp_path().substr(0, expected.size()), expected);
  EXPECT_EQ((*file)->temp_path().size(), expected.size() + 12);
}

TEST(AtomicFileTest, CommitRenamesCompleteFileWithItsHash) {
  TempDir dir;
  const std::string path = dir.Path("out.bin");
  auto file = AtomicFile::Create(path);
  ASSERT_TRUE(file.ok());
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    std::string piece = "line " + std::to_string(i) + "\n";
    expected += piece;
    ASSERT_TRUE((*file)->Append(piece).ok());
  }
  std::string big(3 << 20, 'x');  // larger than the buffer: written directly
  big[12345] = 'y';
  expected += big;
  ASSERT_TRUE((*file)->Append(big).ok());
  ASSERT_TRUE((*file)->Append("tail").ok());
  expected += "tail";
  EXPECT_EQ((*file)->bytes_written(), static_cast<int64_t>(expected.size()));
  EXPECT_FALSE(Exists(path));
  EXPECT_TRUE(Exists((*file)->temp_path()));
  const std::string temp = (*file)->temp_path();

  auto done = (*file)->Commit();
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_EQ(done->bytes, static_cast<int64_t>(expected.size()));
  EXPECT_EQ(done->sha256, Sha256Hex(expected));
  EXPECT_EQ(ReadFileBytes(path), expected);
  EXPECT_FALSE(Exists(temp));
  EXPECT_EQ(ListDir(dir.path()), std::vector<std::string>{"out.bin"});
  // Closed after commit: appends fail, Abort is a no-op.
  EXPECT_FALSE((*file)->Append("more").ok());
  (*file)->Abort();
  EXPECT_EQ(ReadFileBytes(path), expected);
}

TEST(AtomicFileTest, EmptyFileHashesTheEmptyString) {
  TempDir dir;
  auto file = AtomicFile::Create(dir.Path("empty"));
  ASSERT_TRUE(file.ok());
  auto done = (*file)->Commit();
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->bytes, 0);
  EXPECT_EQ(done->sha256, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(ReadFileBytes(dir.Path("empty")), "");
}

TEST(AtomicFileTest, AbortAndDestructionRemoveTheTempAndKeepTheOldFile) {
  TempDir dir;
  const std::string path = dir.Path("out.csv");
  dir.Write("out.csv", "old");
  {
    auto file = AtomicFile::Create(path);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Append("new").ok());
    (*file)->Abort();
    (*file)->Abort();  // idempotent
    EXPECT_FALSE((*file)->Commit().ok());
  }
  EXPECT_EQ(ListDir(dir.path()), std::vector<std::string>{"out.csv"});
  {
    auto file = AtomicFile::Create(path);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Append("new").ok());
    EXPECT_EQ(ListDir(dir.path()).size(), 2u);
  }  // destroyed without Commit
  EXPECT_EQ(ListDir(dir.path()), std::vector<std::string>{"out.csv"});
  EXPECT_EQ(ReadFileBytes(path), "old");
}

TEST(AtomicFileTest, CommitReplacesAnExistingFile) {
  TempDir dir;
  const std::string path = dir.Path("out.csv");
  dir.Write("out.csv", "old contents that are longer");
  auto file = AtomicFile::Create(path);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->Append("new").ok());
  EXPECT_EQ(ReadFileBytes(path), "old contents that are longer");
  ASSERT_TRUE((*file)->Commit().ok());
  EXPECT_EQ(ReadFileBytes(path), "new");
  EXPECT_EQ(ListDir(dir.path()), std::vector<std::string>{"out.csv"});
}

TEST(AtomicFileTest, UnwritablePlacesAreInputErrorsNamingThePath) {
  TempDir dir;
  auto missing = AtomicFile::Create(dir.Path("no/such/dir/out.csv"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kInputError);
  EXPECT_EQ(missing.status().message(), dir.Path("no/such/dir/out.csv") + ": cannot create a file in " +
                                            dir.Path("no/such/dir") + ": No such file or directory");
  auto is_dir = AtomicFile::Create(dir.path());
  ASSERT_FALSE(is_dir.ok());
  EXPECT_EQ(is_dir.status().code(), StatusCode::kInputError);
  EXPECT_EQ(is_dir.status().message(), dir.path() + ": output path is a directory");
  auto trailing = AtomicFile::Create(dir.path() + "/");
  ASSERT_FALSE(trailing.ok());
  EXPECT_EQ(trailing.status().code(), StatusCode::kInputError);
  if (::geteuid() != 0) {  // root writes anywhere
    ASSERT_EQ(::chmod(dir.path().c_str(), 0500), 0);
    auto read_only = AtomicFile::Create(dir.Path("out.csv"));
    ::chmod(dir.path().c_str(), 0700);
    ASSERT_FALSE(read_only.ok());
    EXPECT_EQ(read_only.status().code(), StatusCode::kInputError);
    EXPECT_NE(read_only.status().message().find("Permission denied"), std::string::npos);
  }
}

TEST(AtomicFileTest, WriteFileAtomicallyWritesTheWholeFile) {
  TempDir dir;
  ASSERT_TRUE(WriteFileAtomically(dir.Path("p.json"), "{}\n").ok());
  EXPECT_EQ(ReadFileBytes(dir.Path("p.json")), "{}\n");
  EXPECT_FALSE(WriteFileAtomically(dir.Path("missing/p.json"), "x").ok());
}

// Pieces of every size, some larger than the 1 MiB buffer, many buffers handed
// to the writer thread, the tail not a whole page: the same bytes and hash
// with O_DIRECT and without, and without hashing the same bytes, no hash.
TEST(AtomicFileTest, ManyBuffersReachTheFileInOrderWithOrWithoutDirectIoAndHash) {
  std::mt19937 random(7);
  std::string expected;
  std::vector<std::string> pieces;
  while (expected.size() < (9u << 20) + 777) {
    const size_t size = random() % 4 == 0 ? random() % (3 << 20) : random() % 5000;
    std::string piece(size, '\0');
    for (char& c : piece) c = static_cast<char>('a' + random() % 26);
    expected += piece;
    pieces.push_back(std::move(piece));
  }
  TempDir dir;
  for (const AtomicFileOptions options : {AtomicFileOptions{}, AtomicFileOptions{.direct_io = false},
                                          AtomicFileOptions{.hash = false}}) {
    const std::string path = dir.Path("out.bin");
    auto file = AtomicFile::Create(path, options);
    ASSERT_TRUE(file.ok()) << file.status().message();
    for (const std::string& piece : pieces) ASSERT_TRUE((*file)->Append(piece).ok());
    auto done = (*file)->Commit();
    ASSERT_TRUE(done.ok()) << done.status().message();
    EXPECT_EQ(done->bytes, static_cast<int64_t>(expected.size()));
    EXPECT_EQ(done->sha256, options.hash ? Sha256Hex(expected) : "");
    EXPECT_TRUE(ReadFileBytes(path) == expected) << "direct_io " << options.direct_io << " hash " << options.hash;
  }
}

// Aborted with buffers still queued for the writer thread: nothing is left and
// the old file stays.
TEST(AtomicFileTest, AbortWithQueuedBuffersLeavesOnlyTheOldFile) {
  TempDir dir;
  const std::string path = dir.Path("out.bin");
  dir.Write("out.bin", "old");
  auto file = AtomicFile::Create(path);
  ASSERT_TRUE(file.ok());
  const std::string piece(3 << 20, 'q');
  for (int i = 0; i < 4; ++i) ASSERT_TRUE((*file)->Append(piece).ok());
  (*file)->Abort();
  EXPECT_FALSE((*file)->Commit().ok());
  EXPECT_EQ(ListDir(dir.path()), std::vector<std::string>{"out.bin"});
  EXPECT_EQ(ReadFileBytes(path), "old");
}

// A write that fails on the writer thread (here: past RLIMIT_FSIZE, EFBIG) is
// an InputError naming the file from a later Append or from Commit, and
// nothing is left behind.
TEST(AtomicFileTest, AFailedBackgroundWriteIsTheAppendsOrTheCommitsError) {
  TempDir dir;
  const std::string path = dir.Path("big.bin");
  struct rlimit before;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &before), 0);
  void (*old_handler)(int) = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = before;
  small.rlim_cur = 3 << 20;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  Status failed;
  {
    auto file = AtomicFile::Create(path);
    ASSERT_TRUE(file.ok());
    const std::string piece(100000, 'z');
    for (int i = 0; i < 200 && failed.ok(); ++i) failed = (*file)->Append(piece);
    if (failed.ok()) failed = (*file)->Commit().status();
  }
  ::setrlimit(RLIMIT_FSIZE, &before);
  ::signal(SIGXFSZ, old_handler);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.code(), StatusCode::kInputError);
  EXPECT_EQ(failed.message().rfind(path + ": write failed: ", 0), 0u) << failed.message();
  EXPECT_TRUE(ListDir(dir.path()).empty());
}

}  // namespace
}  // namespace griffin
