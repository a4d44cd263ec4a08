#ifndef DASHBOARD_SQLITE_CONFIG_H
#define DASHBOARD_SQLITE_CONFIG_H

/// Process-wide SQLite settings that only the variadic sqlite3_config() can set (Swift cannot
/// call a C variadic function). Call once, before the first connection is opened; returns
/// SQLITE_OK, or SQLITE_MISUSE when SQLite was already initialized (the defaults then stay).
int dashboard_sqlite_configure(void);

#endif
