import CMicroHTTPD
import Foundation
import SnapPoemService

// libmicrohttpd's callbacks: plain functions (never closures in main.swift, which would be
// inferred @MainActor and trap on libmicrohttpd's thread). All of them run on libmicrohttpd's
// polling thread, one at a time.

/// The access handler: called once when a request's headers are in, once per chunk of its
/// body, once when the body is complete, and once more after the connection is resumed with
/// the service's answer.
func accessHandler(
    _ serverContext: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let serverContext, let connection, let requestSlot, let uploadDataSize else { return .NO }
    let server = Unmanaged<ServerCore>.fromOpaque(serverContext).takeUnretainedValue()

    guard let slot = requestSlot.pointee else {
        // First call: the headers are in.
        let context = beginRequest(server: server, connection: connection, url: url, method: method)
        requestSlot.pointee = Unmanaged.passRetained(context).toOpaque()
        server.active.add(1, ordering: .relaxed)
        if server.isDraining {
            return queue(
                server.service.refusal(
                    .shuttingDown, method: context.method, path: context.path, requestID: context.id, uploadedBytes: 0),
                on: connection, context: context, closing: true)
        }
        // The route's own bound when it is smaller (the page's note editor takes text only).
        context.bodyLimit = min(server.configuration.maxUploadBytes, server.service.maximumBodyBytes(path: context.path) ?? .max)
        if let length = header(connection, "Content-Length").flatMap({ UInt64($0) }), length > UInt64(context.bodyLimit) {
            // Refused before any of the body is read: with `Expect: 100-continue` the client
            // never sends it; otherwise libmicrohttpd closes the connection after the answer.
            context.overLimit = true
            return queue(
                server.service.refusal(
                    .payloadTooLarge(limitBytes: context.bodyLimit), method: context.method, path: context.path,
                    requestID: context.id, uploadedBytes: 0),
                on: connection, context: context, closing: true)
        }
        if let type = header(connection, "Content-Type")?.lowercased(), type.hasPrefix("multipart/form-data") {
            context.form = []
            context.postProcessor = MHD_create_post_processor(connection, 64 << 10, formField, slot(of: context))
            if context.postProcessor == nil { context.formBroken = true }
        }
        return .YES
    }

    let context = Unmanaged<RequestContext>.fromOpaque(slot).takeUnretainedValue()
    let size = uploadDataSize.pointee
    if size > 0 {
        // A chunk of the body.
        uploadDataSize.pointee = 0
        context.receivedBytes += size
        let elapsed = ContinuousClock.now - context.start
        if elapsed > .seconds(server.configuration.requestTimeoutSeconds) {
            // libmicrohttpd cannot answer in the middle of a body; the connection is closed.
            context.closedBecause = "request-timeout"
            return .NO
        }
        if context.overLimit { return .YES }
        if context.receivedBytes > context.bodyLimit {
            // A body without Content-Length (chunked) passed the limit: what came is dropped
            // at once and the rest is read and dropped as it comes; libmicrohttpd accepts an
            // answer only before the body or after it, so the 413 follows its end.
            context.overLimit = true
            context.body = Data()
            context.form = nil
            if let processor = context.postProcessor {
                MHD_destroy_post_processor(processor)
                context.postProcessor = nil
            }
            return .YES
        }
        guard let uploadData else { return .YES }
        if let processor = context.postProcessor {
            if !context.formBroken, MHD_post_process(processor, uploadData, size) == .NO {
                context.formBroken = true
            }
        } else if !context.formBroken {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                context.body.append($0, count: size)
            }
        }
        return .YES
    }

    if let answer = context.answer.withLock({ $0 }), context.status == nil {
        // Resumed with the service's answer.
        return queue(answer, on: connection, context: context, closing: server.isDraining)
    }
    guard !context.dispatched else { return .YES }
    // The body is complete.
    context.dispatched = true
    if let processor = context.postProcessor {
        MHD_destroy_post_processor(processor)
        context.postProcessor = nil
    }
    if context.overLimit {
        return queue(
            server.service.refusal(
                .payloadTooLarge(limitBytes: context.bodyLimit), method: context.method, path: context.path,
                requestID: context.id, uploadedBytes: context.receivedBytes),
            on: connection, context: context, closing: true)
    }
    if context.formBroken {
        return queue(
            server.service.refusal(
                ServiceError(
                    .badForm, message: "the multipart/form-data body could not be parsed (a missing boundary, or a part cut short)"),
                method: context.method, path: context.path, requestID: context.id, uploadedBytes: context.receivedBytes),
            on: connection, context: context, closing: true)
    }
    MHD_suspend_connection(connection)
    server.dispatch(context, connection: ConnectionHandle(pointer: connection))
    return .YES
}

/// Creates the request's context from its headers and query.
private func beginRequest(
    server: ServerCore, connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?
) -> RequestContext {
    let id = HTTPRequest.acceptedID(header(connection, "X-Request-Id")) ?? HTTPRequest.newID()
    let context = RequestContext(
        id: id, method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "/")
    context.headers = values(of: connection, kind: .HEADER_KIND)
    context.query = values(of: connection, kind: .GET_ARGUMENT_KIND)
    return context
}

/// Sends `response` (copied into libmicrohttpd's own buffer) and notes it for the log line.
private func queue(_ response: HTTPResponse, on connection: OpaquePointer, context: RequestContext, closing: Bool) -> MHD_Result {
    let created = response.body.withUnsafeBytes { raw in
        MHD_create_response_from_buffer(
            raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let created else {
        context.closedBecause = "no-memory"
        return .NO
    }
    defer { MHD_destroy_response(created) }
    for field in response.headers {
        // A header with a line break would split the response; the service never makes one.
        guard !field.value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
        _ = MHD_add_response_header(created, field.name, field.value)
    }
    if closing { _ = MHD_add_response_header(created, "Connection", "close") }
    context.status = response.status
    context.sentBytes = response.body.count
    return MHD_queue_response(connection, UInt32(response.status), created)
}

/// Called by libmicrohttpd when a request is over, answered or not: writes its log line and
/// frees its context.
func requestCompleted(
    _ serverContext: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ termination: MHD_RequestTerminationCode
) {
    guard let serverContext, let requestSlot, let slot = requestSlot.pointee else { return }
    requestSlot.pointee = nil
    let server = Unmanaged<ServerCore>.fromOpaque(serverContext).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.fromOpaque(slot).takeRetainedValue()
    // The task holds the context until it ends; the context lets go of the task and the
    // answer here, so that nothing keeps the other alive once the request is done.
    context.task = nil
    context.answer.withLock { $0 = nil }
    if let processor = context.postProcessor {
        MHD_destroy_post_processor(processor)
        context.postProcessor = nil
    }
    server.log(RequestLogLine(context: context, termination: termination).text)
    server.active.subtract(1, ordering: .relaxed)
}

/// libmicrohttpd's form parser hands each field here in chunks.
private func formField(
    _ requestContext: UnsafeMutableRawPointer?,
    _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?,
    _ filename: UnsafePointer<CChar>?,
    _ contentType: UnsafePointer<CChar>?,
    _ transferEncoding: UnsafePointer<CChar>?,
    _ data: UnsafePointer<CChar>?,
    _ offset: UInt64,
    _ size: Int
) -> MHD_Result {
    guard let requestContext, let key else { return .NO }
    let context = Unmanaged<RequestContext>.fromOpaque(requestContext).takeUnretainedValue()
    let bytes = data.map { UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: size) }
    context.appendFormData(
        name: String(cString: key), filename: filename.map { String(cString: $0) }, contentType: contentType.map { String(cString: $0) },
        offset: offset, bytes: bytes ?? UnsafeBufferPointer(start: nil, count: 0))
    return .YES
}

/// libmicrohttpd's own messages (kept while it starts, to explain a failure).
func libmicrohttpdMessage(_ serverContext: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let serverContext, let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let message = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    Unmanaged<ServerCore>.fromOpaque(serverContext).takeUnretainedValue().note(message)
}

/// The retained-elsewhere pointer of a context, for the form parser's callback.
private func slot(of context: RequestContext) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(context).toOpaque()
}

/// The first value of a request header.
private func header(_ connection: OpaquePointer, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
}

/// Every header or query parameter of the request, in order.
private func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [HTTPField] {
    final class Collected {
        var fields: [HTTPField] = []
    }
    let collected = Collected()
    let iterator: MHD_KeyValueIterator = { cls, _, key, value in
        guard let cls, let key else { return .YES }
        let collected = Unmanaged<Collected>.fromOpaque(cls).takeUnretainedValue()
        collected.fields.append(HTTPField(name: String(cString: key), value: value.map { String(cString: $0) } ?? ""))
        return .YES
    }
    withExtendedLifetime(collected) {
        _ = MHD_get_connection_values(connection, kind, iterator, Unmanaged.passUnretained(collected).toOpaque())
    }
    return collected.fields
}
