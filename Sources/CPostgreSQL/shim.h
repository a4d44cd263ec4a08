// libpq from Debian's libpq-dev: its headers live in /usr/include/postgresql.
#include <postgresql/libpq-fe.h>
