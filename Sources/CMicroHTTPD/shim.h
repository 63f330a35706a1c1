// libmicrohttpd for Swift. microhttpd.h expects the socket types to be declared before it.
#ifndef SNAP_POEM_CMICROHTTPD_SHIM_H
#define SNAP_POEM_CMICROHTTPD_SHIM_H

#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

#endif
