#ifndef SNM_CLIBPQ_SHIM_H
#define SNM_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
