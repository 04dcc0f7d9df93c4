#include "connectors/sql/adbc_driver.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace griffin::sql {
namespace {

// Sets an environment variable for the scope of a test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(AdbcDriverTest, TheSqliteDriverFromThePinnedWheelLoads) {
  auto library = AdbcDriverLibrary::Load(SqlEngine::kSqlite);
  ASSERT_TRUE(library.ok()) << library.status().message();
  EXPECT_NE((*library)->driver()->DatabaseNew, nullptr);
  auto again = AdbcDriverLibrary::Load(SqlEngine::kSqlite);  // loaded once per process
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), library->get());
}

TEST(AdbcDriverTest, AMissingLibraryNamesTheFileAndTheVariable) {
  ScopedEnv missing("GRIFFIN_ADBC_POSTGRESQL_DRIVER", "/nonexistent/libadbc_driver_postgresql.so");
  EXPECT_EQ(FindDriverLibrary(SqlEngine::kPostgresql), "/nonexistent/libadbc_driver_postgresql.so");
  auto library = AdbcDriverLibrary::Load(SqlEngine::kPostgresql);
  ASSERT_FALSE(library.ok());
  EXPECT_EQ(library.status().code(), StatusCode::kInputError);
  const std::string& message = library.status().message();
  EXPECT_NE(message.find("cannot load /nonexistent/libadbc_driver_postgresql.so"), std::string::npos) << message;
  EXPECT_NE(message.find("GRIFFIN_ADBC_POSTGRESQL_DRIVER"), std::string::npos) << message;
}

TEST(AdbcDriverTest, ALibraryThatIsNoDriverIsRefused) {
  ScopedEnv not_a_driver("GRIFFIN_ADBC_POSTGRESQL_DRIVER", "libz.so.1");
  auto library = AdbcDriverLibrary::Load(SqlEngine::kPostgresql);
  ASSERT_FALSE(library.ok());
  EXPECT_NE(library.status().message().find("libz.so.1: not an ADBC driver (no AdbcDriverInit)"), std::string::npos)
      << library.status().message();
}

TEST(AdbcDriverTest, ErrorsAreOneLine) {
  auto library = AdbcDriverLibrary::Load(SqlEngine::kSqlite);
  ASSERT_TRUE(library.ok()) << library.status().message();
  auto database = AdbcDatabaseHandle::Open(*library, {{"no.such.option", "1"}}, "ctx");
  ASSERT_FALSE(database.ok());
  EXPECT_EQ(database.status().message().find('\n'), std::string::npos);
  EXPECT_EQ(database.status().message().rfind("ctx: option no.such.option: ", 0), 0u) << database.status().message();
}

}  // namespace
}  // namespace griffin::sql
