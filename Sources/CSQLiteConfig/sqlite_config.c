#include <sqlite3.h>
#include "sqlite_config.h"

int dashboard_sqlite_configure(void) {
    /* No memory statistics: with them every allocation SQLite makes takes a global mutex
       (7 % of an import's writing thread); the dashboard never reads them. */
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
