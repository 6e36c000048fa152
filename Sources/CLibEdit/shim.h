#ifndef SNM_CLIBEDIT_SHIM_H
#define SNM_CLIBEDIT_SHIM_H
// libedit's readline-compatible interface. Never GNU readline/readline.h.
#include <stdio.h>
#include <editline/readline.h>
#include <histedit.h>
#include <wchar.h>
#include <wctype.h>
#include <fcntl.h>
#include <unistd.h>

// Swift cannot call C variadic functions: one fixed-signature wrapper per el_set/el_get/history use.

typedef char *(*snm_prompt_fn)(EditLine *);
typedef unsigned char (*snm_editor_fn)(EditLine *, int);
typedef int (*snm_read_fn)(EditLine *, wchar_t *);

static inline int snm_el_set_prompt(EditLine *el, snm_prompt_fn fn, char escape) {
  return el_set(el, EL_PROMPT_ESC, fn, escape);
}
static inline int snm_el_set_editor(EditLine *el, const char *mode) {
  return el_set(el, EL_EDITOR, mode);
}
static inline int snm_el_set_signal(EditLine *el, int on) { return el_set(el, EL_SIGNAL, on); }
static inline int snm_el_bind(EditLine *el, const char *key, const char *command) {
  return el_set(el, EL_BIND, key, command, (const char *)NULL);
}
static inline int snm_el_setty(EditLine *el, const char *mode, const char *flag) {
  return el_set(el, EL_SETTY, mode, flag, (const char *)NULL);
}
static inline int snm_el_addfn(EditLine *el, const char *name, const char *help, snm_editor_fn fn) {
  return el_set(el, EL_ADDFN, name, help, fn);
}
static inline int snm_el_set_history(EditLine *el, History *h) {
  return el_set(el, EL_HIST, history, h);
}
static inline int snm_el_set_clientdata(EditLine *el, void *data) {
  return el_set(el, EL_CLIENTDATA, data);
}
static inline void *snm_el_get_clientdata(EditLine *el) {
  void *data = NULL;
  if (el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
  return data;
}
static inline int snm_el_refresh(EditLine *el) { return el_set(el, EL_REFRESH); }
// The function libedit reads each character with (EL_GETCFN): 1 and the character, 0 at the end
// of input, -1 on an error.
static inline int snm_el_set_read(EditLine *el, snm_read_fn fn) { return el_set(el, EL_GETCFN, fn); }
// The width libedit lays the line out in (its "co" capability, read again as each line starts
// and by el_resize).
static inline int snm_el_columns(EditLine *el) {
  int columns = 0;
  if (el_get(el, EL_GETTC, "co", &columns, (void *)NULL) != 0) return 0;
  return columns;
}
static inline int snm_el_prep_term(EditLine *el, int on) { return el_set(el, EL_PREP_TERM, on); }

static inline int snm_history_set_size(History *h, int size) {
  HistEvent ev;
  return history(h, &ev, H_SETSIZE, size);
}
static inline int snm_history_set_unique(History *h, int on) {
  HistEvent ev;
  return history(h, &ev, H_SETUNIQUE, on);
}
static inline int snm_history_enter(History *h, const char *line) {
  HistEvent ev;
  return history(h, &ev, H_ENTER, line);
}
static inline int snm_history_load(History *h, const char *path) {
  HistEvent ev;
  return history(h, &ev, H_LOAD, path);
}
static inline int snm_history_save(History *h, const char *path) {
  HistEvent ev;
  return history(h, &ev, H_SAVE, path);
}
static inline int snm_history_count(History *h) {
  HistEvent ev;
  if (history(h, &ev, H_GETSIZE) != 0) return 0;
  return ev.num;
}

// How many columns libedit gives a character, and whether it prints it as itself (else as ^X or
// \U+XXXX): glibc declares wcwidth only under _XOPEN_SOURCE, which Swift's Glibc module lacks.
int wcwidth(wchar_t c);
static inline int snm_wcwidth(wchar_t c) { return wcwidth(c); }
static inline int snm_iswprint(wchar_t c) { return iswprint((wint_t)c); }

// The pipe that wakes the editor's read: both ends non-blocking and closed on exec.
static inline int snm_wake_pipe(int ends[2]) {
  if (pipe(ends) != 0) return -1;
  for (int i = 0; i < 2; i++) {
    if (fcntl(ends[i], F_SETFL, O_NONBLOCK) != 0 || fcntl(ends[i], F_SETFD, FD_CLOEXEC) != 0) {
      close(ends[0]);
      close(ends[1]);
      return -1;
    }
  }
  return 0;
}

// stdin/stdout/stderr are mutable globals in glibc, which Swift 6 refuses to read.
static inline FILE *snm_stdin(void) { return stdin; }
static inline FILE *snm_stdout(void) { return stdout; }
static inline FILE *snm_stderr(void) { return stderr; }
#endif
