//===- Database.cpp - the SQLite tuning database --------------------------===//

#include "hkg/Tuner/Database.h"

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/Support/InputLimits.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"

#include <sqlite3.h>

#include <cmath>
#include <ctime>

using namespace mlir;
using namespace mlir::hkg;
using namespace mlir::hkg::tuner;
using llvm::Error;
using llvm::Expected;

static constexpr const char *kSchemaVersion = "1";

std::string mlir::hkg::tuner::getCurrentDate() {
  std::time_t now = std::time(nullptr);
  std::tm utc;
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static llvm::json::Value numberOrNull(double v) {
  if (std::isnan(v))
    return nullptr;
  return v;
}

static double numberOrNaN(const llvm::json::Object &o, StringRef key) {
  if (std::optional<double> v = o.getNumber(key))
    return *v;
  return std::numeric_limits<double>::quiet_NaN();
}

static std::string statsToJsonText(const StatMap &stats) {
  llvm::json::Object object;
  for (const auto &[name, value] : stats)
    object[name] = value;
  return llvm::formatv("{0}", llvm::json::Value(std::move(object))).str();
}

static Expected<StatMap> statsFromJson(const llvm::json::Value *value) {
  StatMap stats;
  if (!value || value->kind() == llvm::json::Value::Null)
    return stats;
  const llvm::json::Object *object = value->getAsObject();
  if (!object)
    return llvm::createStringError("expected 'stats' to be an object");
  for (const auto &entry : *object) {
    std::optional<double> v = entry.second.getAsNumber();
    if (!v)
      return llvm::createStringError("expected stat '" + entry.first.str() +
                                     "' to be a number");
    // 1e999 parses to infinity, which JSON cannot print back.
    if (!std::isfinite(*v))
      return llvm::createStringError("expected stat '" + entry.first.str() +
                                     "' to be finite");
    stats[entry.first.str()] = *v;
  }
  return stats;
}

llvm::json::Value mlir::hkg::tuner::recordToJson(const TuningRecord &r) {
  llvm::json::Object stats;
  for (const auto &[name, value] : r.measurement.stats)
    stats[name] = value;
  return llvm::json::Object{
      {"op", r.op},
      {"signature", r.signature},
      {"target", r.target},
      {"schedule", knobsToJson(r.schedule)},
      {"status", stringifyMeasureStatus(r.measurement.status)},
      {"median_us", numberOrNull(r.measurement.medianUs)},
      {"spread", numberOrNull(r.measurement.spread)},
      {"max_rel_err", numberOrNull(r.measurement.maxRelErr)},
      {"stats", std::move(stats)},
      {"hkg_version", r.hkgVersion},
      {"date", r.date},
  };
}

/// What a record must hold to be stored (or used to train): a signature,
/// a chip hkg knows, an op that agrees with the signature, knobs that are
/// non-negative integers or keywords, times and errors that are finite and
/// not negative (a positive median), an ISO 8601 UTC date.
static Error validateRecord(const TuningRecord &r) {
  if (r.signature.empty())
    return llvm::createStringError("empty 'signature'");
  if (!lookupTarget(r.target))
    return llvm::createStringError("unknown target '" + r.target + "'");
  size_t pos = r.signature.find("\"hkg.");
  if (pos == std::string::npos)
    return llvm::createStringError(
        "'signature' names no hkg op (expected \"hkg.<op>\" in it)");
  std::string sigOp =
      r.signature.substr(pos + 1, r.signature.find('"', pos + 1) - pos - 1);
  if (r.op != sigOp)
    return llvm::createStringError("'op' is '" + r.op +
                                   "' but the signature's op is '" + sigOp +
                                   "'");
  for (const auto &[name, value] : r.schedule)
    if (const int64_t *i = std::get_if<int64_t>(&value); i && *i < 0)
      return llvm::createStringError(
          llvm::formatv("knob '{0}' = {1}: expected a non-negative integer",
                        name, *i)
              .str());
  const Measurement &m = r.measurement;
  for (auto [name, v, strict] :
       {std::tuple<StringRef, double, bool>{"median_us", m.medianUs, true},
        {"spread", m.spread, false},
        {"max_rel_err", m.maxRelErr, false}}) {
    if (std::isnan(v))
      continue; // absent
    if (!std::isfinite(v) || v < 0 || (strict && v == 0))
      return llvm::createStringError(
          llvm::formatv("'{0}' = {1}: expected a finite {2} number", name, v,
                        strict ? "positive" : "non-negative")
              .str());
  }
  static const llvm::Regex iso(
      "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$");
  if (!r.date.empty() && !iso.match(r.date))
    return llvm::createStringError("'date' = '" + r.date +
                                   "': expected ISO 8601 UTC "
                                   "(2026-11-29T20:00:00Z)");
  return Error::success();
}

Expected<TuningRecord>
mlir::hkg::tuner::recordFromJson(const llvm::json::Value &value) {
  const llvm::json::Object *o = value.getAsObject();
  if (!o)
    return llvm::createStringError("expected a JSON object");
  TuningRecord r;
  auto getString = [&](StringRef key, std::string &out,
                       bool required) -> Error {
    if (std::optional<StringRef> s = o->getString(key)) {
      out = s->str();
      return Error::success();
    }
    if (!required)
      return Error::success();
    return llvm::createStringError("expected string field '" + key.str() + "'");
  };
  if (Error e = getString("signature", r.signature, true))
    return std::move(e);
  if (Error e = getString("target", r.target, true))
    return std::move(e);
  if (Error e = getString("op", r.op, false))
    return std::move(e);
  if (r.op.empty()) {
    // The op name follows the first `"` of the signature's op.
    size_t pos = r.signature.find("\"hkg.");
    if (pos != std::string::npos)
      r.op =
          r.signature.substr(pos + 1, r.signature.find('"', pos + 1) - pos - 1);
  }
  std::string status;
  if (Error e = getString("status", status, true))
    return std::move(e);
  std::optional<MeasureStatus> parsed = parseMeasureStatus(status);
  if (!parsed)
    return llvm::createStringError(
        "unknown status '" + status +
        "'; expected one of: ok, wrong, compile_error, fault, timeout");
  r.measurement.status = *parsed;
  const llvm::json::Value *schedule = o->get("schedule");
  if (!schedule)
    return llvm::createStringError("expected object field 'schedule'");
  Expected<KnobMap> knobs = knobsFromJson(*schedule);
  if (!knobs)
    return knobs.takeError();
  r.schedule = std::move(*knobs);
  r.measurement.medianUs = numberOrNaN(*o, "median_us");
  r.measurement.spread = numberOrNaN(*o, "spread");
  r.measurement.maxRelErr = numberOrNaN(*o, "max_rel_err");
  if (r.measurement.isOk() && std::isnan(r.measurement.medianUs))
    return llvm::createStringError("an ok record needs 'median_us'");
  Expected<StatMap> stats = statsFromJson(o->get("stats"));
  if (!stats)
    return stats.takeError();
  r.measurement.stats = std::move(*stats);
  if (Error e = getString("hkg_version", r.hkgVersion, false))
    return std::move(e);
  if (Error e = getString("date", r.date, false))
    return std::move(e);
  if (Error e = validateRecord(r))
    return std::move(e);
  return r;
}

Expected<std::vector<TuningRecord>>
mlir::hkg::tuner::parseRecordsJsonl(StringRef text,
                                    std::vector<unsigned> *lineNumbers) {
  std::vector<TuningRecord> records;
  unsigned lineNo = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    ++lineNo;
    if (line.trim().empty())
      continue;
    Expected<llvm::json::Value> value = ::hkg::parseJSON(line);
    if (!value)
      return llvm::createStringError(
          llvm::formatv("line {0}: {1}", lineNo,
                        llvm::toString(value.takeError()))
              .str());
    Expected<TuningRecord> record = recordFromJson(*value);
    if (!record)
      return llvm::createStringError(
          llvm::formatv("line {0}: {1}", lineNo,
                        llvm::toString(record.takeError()))
              .str());
    records.push_back(std::move(*record));
    if (lineNumbers)
      lineNumbers->push_back(lineNo);
  }
  return records;
}

std::string
mlir::hkg::tuner::printRecordsJsonl(llvm::ArrayRef<TuningRecord> records) {
  std::string out;
  llvm::raw_string_ostream os(out);
  for (const TuningRecord &r : records)
    os << recordToJson(r) << "\n";
  return out;
}

//===----------------------------------------------------------------------===//
// SQLite
//===----------------------------------------------------------------------===//

namespace {
/// Finalizes a prepared statement when it goes out of scope.
struct Statement {
  sqlite3_stmt *stmt = nullptr;
  ~Statement() { sqlite3_finalize(stmt); }
};
} // namespace

static std::string columnText(sqlite3_stmt *stmt, int col) {
  const unsigned char *text = sqlite3_column_text(stmt, col);
  return text ? reinterpret_cast<const char *>(text) : "";
}

Error TuningDatabase::makeError(StringRef what) const {
  return llvm::createStringError("tuning database '" + path + "': " + what +
                                 ": " + sqlite3_errmsg(db));
}

Error TuningDatabase::exec(StringRef sql) {
  char *message = nullptr;
  if (sqlite3_exec(db, sql.str().c_str(), nullptr, nullptr, &message) ==
      SQLITE_OK)
    return Error::success();
  std::string text = message ? message : "unknown error";
  sqlite3_free(message);
  return llvm::createStringError("tuning database '" + path + "': " + text);
}

static constexpr const char *kColumns =
    "SELECT op, signature, target, schedule_json, status, median_us, spread,"
    " max_rel_err, stats, hkg_version, date, id FROM records ";

Error TuningDatabase::checkSchema() {
  auto notOurs = [&](const llvm::Twine &why) {
    return llvm::createStringError("tuning database '" + path +
                                   "': not an hkg tuning database (" + why +
                                   ")");
  };
  Statement tables;
  if (sqlite3_prepare_v2(db,
                         "SELECT name FROM sqlite_master WHERE type='table' "
                         "ORDER BY name",
                         -1, &tables.stmt, nullptr) != SQLITE_OK)
    return llvm::createStringError("tuning database '" + path + "': " +
                                   sqlite3_errmsg(db) +
                                   " (not an hkg tuning database)");
  std::vector<std::string> names;
  int rc;
  while ((rc = sqlite3_step(tables.stmt)) == SQLITE_ROW)
    names.push_back(columnText(tables.stmt, 0));
  if (rc != SQLITE_DONE)
    return llvm::createStringError("tuning database '" + path + "': " +
                                   sqlite3_errmsg(db) +
                                   " (not an hkg tuning database)");
  if (!llvm::is_contained(names, "meta") ||
      !llvm::is_contained(names, "records"))
    return notOurs(names.empty()
                       ? std::string("it has no tables")
                       : "it has tables " + llvm::join(names, ", ") +
                             " but not 'meta' and 'records'");
  // The columns hkg reads must all be there.
  Statement columns;
  if (sqlite3_prepare_v2(db, (std::string(kColumns) + "LIMIT 0").c_str(), -1,
                         &columns.stmt, nullptr) != SQLITE_OK)
    return notOurs(llvm::Twine("its 'records' table: ") + sqlite3_errmsg(db));
  return Error::success();
}

/// hkg's tables (CREATE ... IF NOT EXISTS: a no-op on an hkg database).
static constexpr const char *kSchema =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE IF NOT EXISTS records("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  op TEXT NOT NULL, signature TEXT NOT NULL, target TEXT NOT NULL,"
    "  schedule TEXT NOT NULL, schedule_json TEXT NOT NULL,"
    "  status TEXT NOT NULL, median_us REAL, spread REAL,"
    "  max_rel_err REAL, stats TEXT NOT NULL DEFAULT '{}',"
    "  hkg_version TEXT NOT NULL, date TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS records_key ON "
    "  records(signature, target, schedule);"
    "INSERT OR IGNORE INTO meta(key, value) VALUES "
    "  ('schema_version', '1');";

/// Creates an hkg database at `path` atomically: the schema is written to a
/// temporary file in the same directory, which is then hard-linked to
/// `path` (failing, harmlessly, if another process got there first). So no
/// process ever opens a half-created database, and an empty file at `path`
/// can only be a stray one, which open() refuses. (Two hkg-tune processes
/// sharing a new database used to race here: SQLite creates the file empty
/// and writes the schema later.)
static Error createDatabaseFile(StringRef path) {
  llvm::SmallString<256> temp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".new-%%%%%%%%", temp))
    return llvm::createStringError("cannot create tuning database '" +
                                   path.str() + "': " + ec.message());
  auto removeTemp = llvm::make_scope_exit([&] {
    llvm::sys::fs::remove(temp);
    llvm::sys::fs::remove(temp + "-journal");
  });
  sqlite3 *handle = nullptr;
  int rc = sqlite3_open_v2(temp.c_str(), &handle,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  char *message = nullptr;
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(handle, kSchema, nullptr, nullptr, &message);
  std::string why = message ? message
                    : handle ? sqlite3_errmsg(handle)
                             : "out of memory";
  sqlite3_free(message);
  sqlite3_close(handle);
  if (rc != SQLITE_OK)
    return llvm::createStringError("cannot create tuning database '" +
                                   path.str() + "': " + why);
  std::error_code ec = llvm::sys::fs::create_hard_link(temp, path);
  if (ec && ec != std::errc::file_exists)
    return llvm::createStringError("cannot create tuning database '" +
                                   path.str() + "': " + ec.message());
  return Error::success();
}

Expected<std::unique_ptr<TuningDatabase>> TuningDatabase::open(StringRef path,
                                                               bool create) {
  bool exists = llvm::sys::fs::exists(path);
  if (!create && !exists)
    return llvm::createStringError("tuning database '" + path.str() +
                                   "' does not exist");
  if (!exists) {
    if (Error e = createDatabaseFile(path))
      return std::move(e);
    exists = true;
  }
  // SQLite takes an empty file for an empty database and would write hkg's
  // schema into it: an existing file must already be an hkg database.
  uint64_t size = 0;
  if (exists && !llvm::sys::fs::file_size(path, size) && size == 0)
    return llvm::createStringError("tuning database '" + path.str() +
                                   "': not an hkg tuning database (an "
                                   "empty file)");
  sqlite3 *handle = nullptr;
  int flags = SQLITE_OPEN_READWRITE;
  if (sqlite3_open_v2(path.str().c_str(), &handle, flags, nullptr) !=
      SQLITE_OK) {
    std::string message = handle ? sqlite3_errmsg(handle) : "out of memory";
    sqlite3_close(handle);
    return llvm::createStringError("cannot open tuning database '" +
                                   path.str() + "': " + message);
  }
  std::unique_ptr<TuningDatabase> db(new TuningDatabase(handle, path.str()));
  sqlite3_busy_timeout(handle, 5000);
  if (Error e = db->checkSchema())
    return std::move(e);
  // Creating the schema also reads the file header: a file that is not a
  // database fails here.
  if (Error e = db->exec(kSchema))
    return std::move(e);
  // Check the schema version of an existing file.
  Statement s;
  if (sqlite3_prepare_v2(handle,
                         "SELECT value FROM meta WHERE key='schema_version'",
                         -1, &s.stmt, nullptr) != SQLITE_OK)
    return db->makeError("cannot read schema version");
  if (sqlite3_step(s.stmt) != SQLITE_ROW)
    return db->makeError("missing schema version");
  std::string version =
      reinterpret_cast<const char *>(sqlite3_column_text(s.stmt, 0));
  if (version != kSchemaVersion)
    return llvm::createStringError("tuning database '" + path.str() +
                                   "' has schema version " + version +
                                   "; expected " + kSchemaVersion);
  return db;
}

TuningDatabase::~TuningDatabase() { sqlite3_close(db); }

static void bindText(sqlite3_stmt *stmt, int index, const std::string &text) {
  sqlite3_bind_text(stmt, index, text.c_str(), static_cast<int>(text.size()),
                    SQLITE_TRANSIENT);
}

static void bindNumber(sqlite3_stmt *stmt, int index, double v) {
  if (std::isnan(v))
    sqlite3_bind_null(stmt, index);
  else
    sqlite3_bind_double(stmt, index, v);
}

Error TuningDatabase::insertOne(const TuningRecord &r) {
  Statement s;
  if (sqlite3_prepare_v2(
          db,
          "INSERT INTO records(op, signature, target, schedule, schedule_json,"
          " status, median_us, spread, max_rel_err, stats, hkg_version, date)"
          " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
          -1, &s.stmt, nullptr) != SQLITE_OK)
    return makeError("cannot prepare insert");
  bindText(s.stmt, 1, r.op);
  bindText(s.stmt, 2, r.signature);
  bindText(s.stmt, 3, r.target);
  bindText(s.stmt, 4, formatKnobs(r.schedule));
  bindText(
      s.stmt, 5,
      llvm::formatv("{0}", llvm::json::Value(knobsToJson(r.schedule))).str());
  bindText(s.stmt, 6, stringifyMeasureStatus(r.measurement.status).str());
  bindNumber(s.stmt, 7, r.measurement.medianUs);
  bindNumber(s.stmt, 8, r.measurement.spread);
  bindNumber(s.stmt, 9, r.measurement.maxRelErr);
  bindText(s.stmt, 10, statsToJsonText(r.measurement.stats));
  bindText(s.stmt, 11, r.hkgVersion);
  bindText(s.stmt, 12, r.date.empty() ? getCurrentDate() : r.date);
  if (sqlite3_step(s.stmt) != SQLITE_DONE)
    return makeError("cannot insert record");
  return Error::success();
}

Error TuningDatabase::insertAll(llvm::ArrayRef<TuningRecord> records) {
  if (Error e = exec("BEGIN IMMEDIATE"))
    return e;
  for (const TuningRecord &r : records) {
    if (Error e = insertOne(r)) {
      llvm::consumeError(exec("ROLLBACK"));
      return e;
    }
  }
  return exec("COMMIT");
}

Error TuningDatabase::insert(const TuningRecord &record) {
  return insertAll(record);
}

static double columnNumber(sqlite3_stmt *stmt, int col) {
  if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
    return std::numeric_limits<double>::quiet_NaN();
  return sqlite3_column_double(stmt, col);
}


Expected<std::vector<TuningRecord>>
TuningDatabase::query(StringRef sql, llvm::ArrayRef<std::string> args) {
  Statement s;
  if (sqlite3_prepare_v2(db, sql.str().c_str(), -1, &s.stmt, nullptr) !=
      SQLITE_OK)
    return makeError("cannot prepare query");
  for (auto [i, arg] : llvm::enumerate(args))
    bindText(s.stmt, static_cast<int>(i) + 1, arg);
  std::vector<TuningRecord> records;
  bool recordColumns = sqlite3_column_count(s.stmt) >= 12;
  while (true) {
    int rc = sqlite3_step(s.stmt);
    if (rc == SQLITE_DONE)
      break;
    if (rc != SQLITE_ROW)
      return makeError("cannot read records");
    if (!recordColumns)
      continue;
    // A row hkg did not write (or a damaged one) is an error naming it.
    auto badRow = [&](const llvm::Twine &why) {
      return llvm::createStringError(
          llvm::formatv("tuning database '{0}': row {1}: {2}", path,
                        sqlite3_column_int64(s.stmt, 11), why.str())
              .str());
    };
    TuningRecord r;
    r.op = columnText(s.stmt, 0);
    r.signature = columnText(s.stmt, 1);
    r.target = columnText(s.stmt, 2);
    Expected<llvm::json::Value> knobs = ::hkg::parseJSON(columnText(s.stmt, 3));
    if (!knobs)
      return badRow("bad schedule_json: " + llvm::toString(knobs.takeError()));
    Expected<KnobMap> schedule = knobsFromJson(*knobs);
    if (!schedule)
      return badRow("bad schedule_json: " +
                    llvm::toString(schedule.takeError()));
    r.schedule = std::move(*schedule);
    std::optional<MeasureStatus> status =
        parseMeasureStatus(columnText(s.stmt, 4));
    if (!status)
      return badRow("bad status '" + columnText(s.stmt, 4) + "'");
    r.measurement.status = *status;
    r.measurement.medianUs = columnNumber(s.stmt, 5);
    r.measurement.spread = columnNumber(s.stmt, 6);
    r.measurement.maxRelErr = columnNumber(s.stmt, 7);
    Expected<llvm::json::Value> stats = ::hkg::parseJSON(columnText(s.stmt, 8));
    if (!stats)
      return badRow("bad stats: " + llvm::toString(stats.takeError()));
    Expected<StatMap> statMap = statsFromJson(&*stats);
    if (!statMap)
      return badRow("bad stats: " + llvm::toString(statMap.takeError()));
    r.measurement.stats = std::move(*statMap);
    r.hkgVersion = columnText(s.stmt, 9);
    r.date = columnText(s.stmt, 10);
    records.push_back(std::move(r));
  }
  return records;
}


Expected<std::optional<TuningRecord>>
TuningDatabase::lookup(StringRef signature, StringRef target,
                       const KnobMap &schedule) {
  Expected<std::vector<TuningRecord>> records =
      query(std::string(kColumns) +
                "WHERE signature = ?1 AND target = ?2 AND schedule = ?3 "
                "ORDER BY id DESC LIMIT 1",
            {signature.str(), target.str(), formatKnobs(schedule)});
  if (!records)
    return records.takeError();
  if (records->empty())
    return std::nullopt;
  return std::move(records->front());
}

Expected<std::vector<TuningRecord>>
TuningDatabase::getOkRecordsByTime(StringRef signature, StringRef target) {
  return query(std::string(kColumns) +
                   "WHERE signature = ?1 AND target = ?2 AND status = 'ok' "
                   "ORDER BY median_us ASC, id ASC",
               {signature.str(), target.str()});
}

Expected<std::vector<TuningRecord>>
TuningDatabase::getRecords(StringRef signature, StringRef target) {
  return query(std::string(kColumns) +
                   "WHERE signature = ?1 AND target = ?2 ORDER BY id ASC",
               {signature.str(), target.str()});
}

Expected<std::vector<TuningRecord>> TuningDatabase::getAllRecords() {
  return query(std::string(kColumns) + "ORDER BY id ASC", {});
}

//===----------------------------------------------------------------------===//
// RecordingMeasurer
//===----------------------------------------------------------------------===//

void RecordingMeasurer::prefetch(ArrayRef<MeasureRequest> requests) {
  std::vector<MeasureRequest> unrecorded;
  for (const MeasureRequest &request : requests) {
    Expected<std::optional<TuningRecord>> found =
        db.lookup(request.signature, request.target->chip, *request.schedule);
    if (!found)
      llvm::consumeError(found.takeError());
    else if (*found)
      continue;
    unrecorded.push_back(request);
  }
  if (!unrecorded.empty())
    inner.prefetch(unrecorded);
}

Measurement RecordingMeasurer::measure(const MeasureRequest &request) {
  StringRef chip = request.target->chip;
  Expected<std::optional<TuningRecord>> found =
      db.lookup(request.signature, chip, *request.schedule);
  if (found && *found) {
    ++numReused;
    return (*found)->measurement;
  }
  if (!found && error.empty())
    error = llvm::toString(found.takeError());
  else if (!found)
    llvm::consumeError(found.takeError());
  Measurement m = inner.measure(request);
  ++numMeasured;
  TuningRecord r;
  r.op = request.op ? request.op->getName().getStringRef().str() : "";
  r.signature = request.signature.str();
  r.target = chip.str();
  r.schedule = *request.schedule;
  r.measurement = m;
  r.date = getCurrentDate();
  if (Error e = db.insert(r)) {
    if (error.empty())
      error = llvm::toString(std::move(e));
    else
      llvm::consumeError(std::move(e));
  }
  return m;
}
