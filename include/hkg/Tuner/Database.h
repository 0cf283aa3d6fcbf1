//===- Database.h - the tuning database (SQLite) ----------------*- C++ -*-===//
//
// Every measurement the tuner makes is one record, keyed by op signature,
// target and schedule, with its time, spread, correctness, static stats, the
// hkg version and the date. Records are written one transaction each, so a
// killed tuning run loses nothing. The file is one SQLite database; records
// also travel as JSON lines (one record per line).
//
// Schema (see docs/Tuning.md):
//   meta(key TEXT PRIMARY KEY, value TEXT)   -- 'schema_version' = '1'
//   records(id INTEGER PRIMARY KEY, op, signature, target, schedule,
//           status, median_us, spread, max_rel_err, stats, hkg_version, date)
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_DATABASE_H
#define HKG_TUNER_DATABASE_H

#include "hkg/Tuner/Measurer.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <vector>

struct sqlite3;

namespace mlir::hkg::tuner {

/// The version of hkg written into records.
inline constexpr const char *kHkgVersion = "0.1";

struct TuningRecord {
  std::string op;
  std::string signature;
  std::string target;
  KnobMap schedule;
  Measurement measurement;
  std::string hkgVersion = kHkgVersion;
  /// ISO 8601 UTC, e.g. 2026-11-29T20:00:00Z.
  std::string date;
};

/// The current UTC time as ISO 8601.
std::string getCurrentDate();

llvm::json::Value recordToJson(const TuningRecord &record);
llvm::Expected<TuningRecord> recordFromJson(const llvm::json::Value &value);
/// Parses JSON lines (blank lines ignored); errors name the line.
llvm::Expected<std::vector<TuningRecord>>
parseRecordsJsonl(llvm::StringRef text,
                  std::vector<unsigned> *lineNumbers = nullptr);
/// One record per line.
std::string printRecordsJsonl(llvm::ArrayRef<TuningRecord> records);

class TuningDatabase {
public:
  /// Opens `path`. With `create`, a missing file becomes an empty database;
  /// without, a missing file is an error. An existing file that is not an
  /// hkg tuning database (an empty file, another program's SQLite tables, not
  /// SQLite at all) is an error naming it. Reading a row hkg cannot decode
  /// (bad JSON, unknown status) is an error naming its rowid and the reason.
  static llvm::Expected<std::unique_ptr<TuningDatabase>>
  open(llvm::StringRef path, bool create);
  ~TuningDatabase();

  /// Inserts one record in its own transaction.
  llvm::Error insert(const TuningRecord &record);
  /// Inserts all records in one transaction.
  llvm::Error insertAll(llvm::ArrayRef<TuningRecord> records);

  /// The latest record of (signature, target, schedule), if any.
  llvm::Expected<std::optional<TuningRecord>> lookup(llvm::StringRef signature,
                                                     llvm::StringRef target,
                                                     const KnobMap &schedule);
  /// Ok records of (signature, target), fastest first (ties: oldest first).
  llvm::Expected<std::vector<TuningRecord>>
  getOkRecordsByTime(llvm::StringRef signature, llvm::StringRef target);
  /// Records of (signature, target), in insertion order.
  llvm::Expected<std::vector<TuningRecord>>
  getRecords(llvm::StringRef signature, llvm::StringRef target);
  /// Every record, in insertion order.
  llvm::Expected<std::vector<TuningRecord>> getAllRecords();

  llvm::StringRef getPath() const { return path; }

private:
  TuningDatabase(sqlite3 *db, std::string path)
      : db(db), path(std::move(path)) {}
  llvm::Expected<std::vector<TuningRecord>>
  query(llvm::StringRef sql, llvm::ArrayRef<std::string> args);
  llvm::Error insertOne(const TuningRecord &record);
  llvm::Error exec(llvm::StringRef sql);
  llvm::Error makeError(llvm::StringRef what) const;
  /// An error unless the open file holds hkg's tables and columns.
  llvm::Error checkSchema();

  sqlite3 *db;
  std::string path;
};

/// A measurer that answers from the database when the candidate was measured
/// before (so a killed run resumes where it stopped) and otherwise asks
/// `inner` and stores the result at once.
class RecordingMeasurer final : public Measurer {
public:
  RecordingMeasurer(Measurer &inner, TuningDatabase &db)
      : inner(inner), db(db) {}
  Measurement measure(const MeasureRequest &request) override;
  /// Forwards the requests the database cannot answer.
  void prefetch(llvm::ArrayRef<MeasureRequest> requests) override;
  llvm::StringRef getName() const override { return inner.getName(); }
  /// Candidates answered from the database / measured by `inner`.
  unsigned getNumReused() const { return numReused; }
  unsigned getNumMeasured() const { return numMeasured; }
  /// The first database error, if any (the search goes on without storing).
  const std::string &getError() const { return error; }

private:
  Measurer &inner;
  TuningDatabase &db;
  unsigned numReused = 0, numMeasured = 0;
  std::string error;
};

} // namespace mlir::hkg::tuner

#endif // HKG_TUNER_DATABASE_H
