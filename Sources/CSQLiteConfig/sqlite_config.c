#include <sqlite3.h>
#include "sqlite_config.h"

int dashboard_sqlite_configure(void) {
    /* No memory statistics: with them every allocation SQLite makes takes a global mutex
       (7 % of an import's writing thread); the dashboard never reads them. */
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int dashboard_sqlite_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}

int dashboard_sqlite_enable_triggers(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, on, (int *)0);
}

int dashboard_sqlite_triggers_enabled(sqlite3 *db) {
    int on = 1;
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, -1, &on);
    return on;
}
