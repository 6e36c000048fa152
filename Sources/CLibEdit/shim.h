#ifndef SNM_CLIBEDIT_SHIM_H
#define SNM_CLIBEDIT_SHIM_H
// libedit's readline-compatible interface. Never GNU readline/readline.h.
#include <stdio.h>
#include <editline/readline.h>
#include <histedit.h>
#endif
