#ifndef SNM_CEPOLL_SHIM_H
#define SNM_CEPOLL_SHIM_H
// epoll and eventfd from glibc (libc6-dev), which the Glibc module does not export: Realtime's
// WebSocket loop watches every upgraded socket with one epoll set and is woken by an eventfd.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
