#ifndef DASHBOARD_SQLITE_CONFIG_H
#define DASHBOARD_SQLITE_CONFIG_H

/// Process-wide SQLite settings that only the variadic sqlite3_config() can set (Swift cannot
/// call a C variadic function). Call once, before the first connection is opened; returns
/// SQLITE_OK, or SQLITE_MISUSE when SQLite was already initialized (the defaults then stay).
int dashboard_sqlite_configure(void);

typedef struct sqlite3 sqlite3;

/// Turns SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE on (1) or off (0) for one connection: while it is on,
/// closing the last connection leaves the `-wal` file as it is instead of copying it into the
/// database file. Returns SQLITE_OK or SQLite's error.
int dashboard_sqlite_no_checkpoint_on_close(sqlite3 *db, int on);

/// Turns SQLITE_DBCONFIG_ENABLE_TRIGGER on (1) or off (0) for one connection: while it is off,
/// no trigger fires for this connection's writes (other connections keep theirs). Returns
/// SQLITE_OK or SQLite's error.
int dashboard_sqlite_enable_triggers(sqlite3 *db, int on);

/// 1 when triggers fire for this connection's writes, 0 when they are off
/// (SQLITE_DBCONFIG_ENABLE_TRIGGER queried, not changed).
int dashboard_sqlite_triggers_enabled(sqlite3 *db);

#endif
