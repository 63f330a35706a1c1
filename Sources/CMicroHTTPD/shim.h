// libmicrohttpd for Swift. microhttpd.h expects the socket types to be declared before it.
#ifndef SNAP_POEM_CMICROHTTPD_SHIM_H
#define SNAP_POEM_CMICROHTTPD_SHIM_H

#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>
#include <microhttpd.h>

// MHD_get_connection_info is variadic, which Swift cannot call: one small wrapper per field.

/// The connection's socket, or -1.
static inline int snap_poem_connection_descriptor(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The client's address (IPv4 or IPv6), or NULL.
static inline const struct sockaddr *snap_poem_connection_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// What the connection-notification callback stored for the connection, or NULL.
static inline void *snap_poem_connection_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

#endif
