#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT and SQLITE_STATIC are macros that cast integers to function pointers,
/// which Swift cannot import. These helpers hand them to Swift as values.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/// sqlite3_config is variadic, which Swift cannot call: SQLITE_CONFIG_MEMSTATUS's form.
static inline int csqlite_config_memstatus(int enabled) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled); }

#endif
