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
#include <string.h>
#include <netinet/tcp.h>
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

/// The status of the response queued on the connection (the server's, or libmicrohttpd's own
/// error page), or 0 when none is.
static inline unsigned int snap_poem_connection_status(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info == NULL ? 0 : info->http_status;
}

/// The bytes of the request line and headers, or 0 before they are in.
static inline size_t snap_poem_connection_head_bytes(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/// Rewrites the request's Content-Type, in place and at its own length, to
/// "multipart/form-data;" + spaces + "boundary=" + boundary, the one spelling that
/// libmicrohttpd 0.9.75's form parser reads: MHD_create_post_processor looks for a lower-case
/// "boundary=" and takes everything after it as the boundary, so "BOUNDARY=x" has none and
/// "boundary=x; charset=utf-8" has the wrong one. The parser keeps a pointer into this very
/// value, which is why it is rewritten rather than replaced. The value lives in the
/// connection's memory pool (writable, NUL-terminated, valid until the request completes);
/// only its bytes change, never its length. Returns 1, or 0 when there is no Content-Type or
/// it is too short to hold the rewrite (it cannot be, when it named this boundary).
static inline int snap_poem_set_form_boundary(struct MHD_Connection *connection, const char *boundary, size_t boundary_length) {
    static const char prefix[] = "multipart/form-data;";
    static const char name[] = "boundary=";
    const size_t prefix_length = sizeof(prefix) - 1, name_length = sizeof(name) - 1;
    const char *value = NULL;
    size_t length = 0;
    if (MHD_lookup_connection_value_n(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE,
                                      sizeof(MHD_HTTP_HEADER_CONTENT_TYPE) - 1, &value, &length) != MHD_YES ||
        value == NULL || strlen(value) != length || length < prefix_length + name_length + boundary_length)
        return 0;
    char *bytes = (char *)value;
    memcpy(bytes, prefix, prefix_length);
    memset(bytes + prefix_length, ' ', length - prefix_length - name_length - boundary_length);
    memcpy(bytes + length - name_length - boundary_length, name, name_length);
    memcpy(bytes + length - boundary_length, boundary, boundary_length);
    return 1;
}

/// The bytes the client has sent on `descriptor` since it connected (Linux's
/// `tcpi_bytes_received`, `getsockopt(TCP_INFO)`), or -1. libmicrohttpd reads a client's bytes
/// into the connection's memory as they arrive, so before its first request's headers are in
/// this is what the connection holds there. glibc's `struct tcp_info` stops before the field
/// (kernel 4.1), so the kernel's layout is read from a buffer: the field is at byte 128, and
/// the kernel says how many bytes it filled in.
static inline long long snap_poem_bytes_received(int descriptor) {
    unsigned char info[232];
    socklen_t length = sizeof(info);
    memset(info, 0, sizeof(info));
    if (getsockopt(descriptor, IPPROTO_TCP, TCP_INFO, info, &length) != 0 || length < 136)
        return -1;
    unsigned long long value;
    memcpy(&value, info + 128, sizeof(value));
    return (long long)value;
}

#endif
