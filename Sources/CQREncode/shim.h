#ifndef SNM_CQRENCODE_SHIM_H
#define SNM_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
