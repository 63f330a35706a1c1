import CMicroHTTPD
import Foundation
import SnapPoemService

// libmicrohttpd's callbacks: plain functions (never closures in main.swift, which would be
// inferred @MainActor and trap on libmicrohttpd's thread). All of them run on the server's
// loop thread (the one calling `MHD_run_wait`), one at a time.

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

    // The slot holds the context made when the request line arrived (`requestLineArrived`).
    guard let slot = requestSlot.pointee else { return .NO }
    let context = Unmanaged<RequestContext>.fromOpaque(slot).takeUnretainedValue()
    if !context.headersIn {
        // First call: the headers are in.
        beginRequest(context, server: server, connection: connection, url: url, method: method)
        context.acceptsInterimResponse = version.map { String(cString: $0) != "HTTP/1.0" } ?? false
        return headersArrived(context, on: connection, server: server)
    }

    let size = uploadDataSize.pointee
    if size > 0 {
        // A chunk of the body: always taken whole; kept only while the request is within
        // its limits.
        uploadDataSize.pointee = 0
        context.receivedBytes += size
        context.lastArrival = .now
        if context.refusal != nil { return .YES }
        if context.receivedBytes > context.bodyLimit {
            // A body without Content-Length (chunked) passed the limit: what came is dropped
            // at once and the rest is read and dropped as it comes; libmicrohttpd accepts an
            // answer only before the body or after it, so the 413 follows its end (or the
            // request timeout cuts the connection first).
            refuse(context, .payloadTooLarge(limitBytes: context.bodyLimit), server: server)
            return .YES
        }
        if context.receivedBytes > context.reservedBytes {
            // Counted as it grows, when the length was not declared.
            let more = context.receivedBytes - context.reservedBytes
            if let shortage = server.loop.budget.reserve(more, for: context.address) {
                refuse(context, server.shortageError(shortage, address: context.address, bytes: more), server: server)
                return .YES
            }
            context.reservedBytes += more
            server.noteBufferedBytes()
        }
        guard let uploadData else { return .YES }
        if let processor = context.postProcessor {
            // The parser stops at the first part over a limit (the field callback answers
            // no, having noted why), or at a malformed body.
            if MHD_post_process(processor, uploadData, size) == .NO || context.refusal != nil {
                refuse(context, context.refusal ?? .unreadableForm, server: server)
            }
        } else {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                context.body.append($0, count: size)
            }
        }
        return .YES
    }

    if let answer = context.answer.withLock({ $0 }), context.status == nil {
        // Resumed with the service's answer; a client that went away gets nothing.
        if context.clientGone {
            context.closedBecause = "client-gone"
            return .NO
        }
        return queue(answer, on: connection, context: context, closing: server.isDraining)
    }
    guard !context.dispatched, context.status == nil else { return .YES }
    // The body is complete.
    if let processor = context.postProcessor {
        // A form must end with its closing boundary: one cut short would otherwise lose the
        // end of its last field without a word.
        let complete = MHD_destroy_post_processor(processor) == .YES
        context.postProcessor = nil
        if !complete { refuse(context, .unreadableForm, server: server) }
    }
    if let refusal = context.refusal {
        return queue(refusal: refusal, on: connection, context: context, server: server)
    }
    guard server.loop.budget.takePlace(for: context.address) else {
        context.dropBody()
        return queue(
            refusal: .tooManyRequests(places: server.loop.budget.placesPerAddress, retryAfterSeconds: server.service.retryAfterSeconds),
            on: connection, context: context, server: server)
    }
    context.holdsPlace = true
    context.dispatched = true
    MHD_suspend_connection(connection)
    server.dispatch(context, connection: ConnectionHandle(pointer: connection))
    return .YES
}

/// What happens once the headers are in: an answer at once for everything that needs no
/// engine (health, readiness, metrics, the page, errors), or the checks before any of the
/// body is read (size, the body budget, the query's size), then the form parser.
private func headersArrived(_ context: RequestContext, on connection: OpaquePointer, server: ServerCore) -> MHD_Result {
    if server.isDraining {
        return queue(refusal: .shuttingDown, on: connection, context: context, server: server)
    }
    // The request's size, on every path: answered here in the service's shape while
    // libmicrohttpd's memory for the connection still holds the answer.
    if context.targetBytes > ServerConfiguration.maximumTargetBytes {
        return queue(
            refusal: .targetTooLong(limitBytes: ServerConfiguration.maximumTargetBytes), on: connection, context: context, server: server)
    }
    if snap_poem_connection_head_bytes(connection) > ServerConfiguration.maximumHeadBytes {
        return queue(
            refusal: .headersTooLarge(limitBytes: ServerConfiguration.maximumHeadBytes), on: connection, context: context, server: server)
    }
    if let count = context.queryOverLimit {
        return queue(refusal: .tooManyQueryParameters(count, limit: FormLimits.maxFields), on: connection, context: context, server: server)
    }
    let request = HTTPRequest(
        method: context.method, path: context.path, query: context.query, headers: context.headers, id: context.id,
        queryProblem: context.queryProblem)
    if !HTTPServer.healthPaths.contains(context.path), let state = connectionState(connection), server.isFull(state) {
        // Its address holds its share of connections, each with a request under way: the
        // health routes are answered, everything else is told when to come back.
        return queue(
            refusal: .tooManyConnections(
                server.configuration.connectionLimitPerAddress, retryAfterSeconds: server.service.retryAfterSeconds),
            on: connection, context: context, server: server)
    }
    if !HTTPServer.healthPaths.contains(context.path), server.loop.overConnectionBudget {
        // The connections hold all the memory they may and none can be closed: only the
        // health routes are answered until they hold less.
        return queue(
            refusal: .connectionsFull(limitBytes: server.configuration.connectionBudgetBytes, retryAfterSeconds: 1), on: connection,
            context: context, server: server)
    }
    if let immediate = server.service.immediateResponse(to: request) {
        // Answered here, on the loop thread: no scan, queue or task can hold it up.
        return queue(immediate, on: connection, context: context, closing: false)
    }
    if context.query.count > FormLimits.maxFields {
        return queue(refusal: .tooManyFields(limit: FormLimits.maxFields), on: connection, context: context, server: server)
    }
    // The route's own bound when it is smaller (the page's note editor takes text only).
    context.bodyLimit = min(server.configuration.maxUploadBytes, server.service.maximumBodyBytes(path: context.path) ?? .max)
    let declared = header(connection, "Content-Length").flatMap { Int($0) }
    if let declared, declared > context.bodyLimit {
        // Refused before any of the body is read: with `Expect: 100-continue` the client
        // never sends it; otherwise libmicrohttpd reads and drops it after the answer.
        return queue(refusal: .payloadTooLarge(limitBytes: context.bodyLimit), on: connection, context: context, server: server)
    }
    if let declared, declared > 0 {
        if let shortage = server.loop.budget.reserve(declared, for: context.address) {
            return queue(
                refusal: server.shortageError(shortage, address: context.address, bytes: declared), on: connection, context: context,
                server: server)
        }
        context.reservedBytes = declared
        server.noteBufferedBytes()
    }
    if let declared = header(connection, "Content-Type"), declared.lowercased().hasPrefix("multipart/form-data") {
        context.form = []
        // Parameters in any order and letter case, others ignored (RFC 9110): the boundary is
        // read here and handed to libmicrohttpd's parser in the one spelling it reads.
        guard let boundary = MediaType(parsing: declared)?.formBoundary,
            snap_poem_set_form_boundary(connection, boundary, boundary.utf8.count) == 1
        else {
            refuse(context, .formWithoutBoundary, server: server)
            return .YES
        }
        context.postProcessor = MHD_create_post_processor(connection, 64 << 10, formField, Unmanaged.passUnretained(context).toOpaque())
        if context.postProcessor == nil { context.refusal = .unreadableForm }
    }
    return .YES
}

/// Records why `context` is refused while its body arrives, and lets go of what it holds.
private func refuse(_ context: RequestContext, _ error: ServiceError, server: ServerCore) {
    if context.refusal == nil { context.refusal = error }
    if let processor = context.postProcessor {
        MHD_destroy_post_processor(processor)
        context.postProcessor = nil
    }
    context.dropBody()
    server.loop.budget.release(context.reservedBytes, for: context.address)
    context.reservedBytes = 0
    server.noteBufferedBytes()
}

/// Fills in the request's context from its headers and query.
private func beginRequest(
    _ context: RequestContext, server: ServerCore, connection: OpaquePointer, url: UnsafePointer<CChar>?,
    method: UnsafePointer<CChar>?
) {
    context.headersIn = true
    context.start = .now
    context.lastArrival = context.start
    context.id = HTTPRequest.acceptedID(header(connection, "X-Request-Id")) ?? HTTPRequest.newID()
    context.method = method.map { String(cString: $0) } ?? ""
    context.path = url.map { String(cString: $0) } ?? "/"
    context.headers = values(of: connection, kind: .HEADER_KIND)
    (context.query, context.queryProblem) = arguments(of: connection)
    connectionState(connection)?.request = context
}

/// Called by libmicrohttpd once a request line is in, before it reads the query and the
/// headers (`.URI_LOG_CALLBACK`; `uri` is the request target as sent, in the connection's
/// memory). Makes the request's context, which libmicrohttpd keeps in the request's slot
/// and hands to the completion callback however the request ends, so that one refused by
/// libmicrohttpd itself later (headers past its memory) still has a log line.
///
/// A query of more than `FormLimits.maxFields` parameters is cut off here, in place, at its
/// `?`, so that libmicrohttpd never reads it: each parameter takes a record in the
/// connection's 128 KiB, and about 2 000 of them left no room for any answer (the client's
/// connection was dropped without a word). The request is answered 400 once its headers are
/// in.
func requestLineArrived(
    _ serverContext: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    guard let serverContext, let connection else { return nil }
    let server = Unmanaged<ServerCore>.fromOpaque(serverContext).takeUnretainedValue()
    let context = RequestContext(address: connectionState(connection)?.address ?? "-")
    if let uri {
        context.targetBytes = strlen(uri)
        if let question = strchr(uri, Int32(UInt8(ascii: "?"))) {
            // Parameters as libmicrohttpd counts them: every piece between two '&', empty
            // ones too, but a trailing one.
            var pieces = 1
            var cursor = question + 1
            while cursor.pointee != 0 {
                if cursor.pointee == CChar(UInt8(ascii: "&")), cursor[1] != 0 { pieces += 1 }
                cursor += 1
            }
            if question[1] != 0, pieces > FormLimits.maxFields {
                context.queryOverLimit = pieces
                // libmicrohttpd ends the path at the '?' and reads the parameters after it:
                // an empty string now. The bytes are the connection's own read buffer.
                UnsafeMutablePointer(mutating: question + 1).pointee = 0
            }
        }
    }
    server.active.add(1, ordering: .relaxed)
    return Unmanaged.passRetained(context).toOpaque()
}

/// Refuses the request with `error`, in the service's shape, and closes the connection (the
/// rest of a body is not wanted).
private func queue(refusal error: ServiceError, on connection: OpaquePointer, context: RequestContext, server: ServerCore)
    -> MHD_Result
{
    let response = server.service.refusal(
        error, method: context.method, path: context.path, requestID: context.id, uploadedBytes: context.receivedBytes)
    return queue(response, on: connection, context: context, closing: true)
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
    var headerBytes = 0
    for field in response.headers {
        // A header with a line break would split the response; the service never makes one,
        // nor headers that together pass `HTTPResponse.maximumHeaderBytes` (libmicrohttpd
        // builds them in the connection's memory pool, and one that does not fit there is
        // no answer at all).
        guard !field.value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
        headerBytes += field.name.utf8.count + field.value.utf8.count + 4
        guard headerBytes <= HTTPResponse.maximumHeaderBytes else { break }
        _ = MHD_add_response_header(created, field.name, field.value)
    }
    if closing { _ = MHD_add_response_header(created, "Connection", "close") }
    context.status = response.status
    context.sentBytes = response.body.count
    return MHD_queue_response(connection, UInt32(response.status), created)
}

/// Called by libmicrohttpd when a request is over, answered or not: gives back what it held,
/// writes its log line and frees its context.
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
    context.dropBody()
    server.loop.budget.release(context.reservedBytes, for: context.address)
    context.reservedBytes = 0
    if context.holdsPlace {
        server.loop.budget.returnPlace(for: context.address)
        context.holdsPlace = false
    }
    server.noteBufferedBytes()
    let state = connection.flatMap { connectionState($0) }
    if let state, context.closedBecause == nil { context.closedBecause = state.cutBecause }
    if context.headersIn {
        server.log(RequestLogLine(context: context, termination: termination).text)
    } else {
        // Ended before its headers were in: cut off, closed by the client, or refused by
        // libmicrohttpd itself (headers past its memory), whose status is logged.
        let status = connection.map { Int(snap_poem_connection_status($0)) } ?? 0
        server.log(
            RequestLogLine(
                headersNeverIn: ContinuousClock.now - (state?.phaseStart ?? context.start), status: status == 0 ? nil : status,
                reason: context.closedBecause ?? (status == 0 ? RequestLogLine.reason(termination) : "libmicrohttpd")
            ).text)
    }
    if let state {
        state.request = nil
        state.completedRequests += 1
        state.phaseStart = .now
    }
    server.active.subtract(1, ordering: .relaxed)
}

/// Called by libmicrohttpd when a connection opens and when it closes: keeps its
/// `ConnectionState`, which the housekeeping looks at for deadlines and clients gone.
func connectionNotified(
    _ serverContext: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ event: MHD_ConnectionNotificationCode
) {
    guard let serverContext, let connection, let socketContext else { return }
    let server = Unmanaged<ServerCore>.fromOpaque(serverContext).takeUnretainedValue()
    switch event {
    case .CONNECTION_NOTIFY_STARTED:
        let state = ConnectionState(
            connection: connection, descriptor: snap_poem_connection_descriptor(connection),
            address: ConnectionState.numeric(snap_poem_connection_address(connection)))
        socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
        server.loop.connections[ObjectIdentifier(state)] = state
        server.metrics.connectionsOpen.add(1, ordering: .relaxed)
        server.admit(state)
    default:
        guard let opaque = socketContext.pointee else { return }
        socketContext.pointee = nil
        let state = Unmanaged<ConnectionState>.fromOpaque(opaque).takeRetainedValue()
        server.loop.connections[ObjectIdentifier(state)] = nil
        server.release(state)
        server.metrics.connectionsOpen.subtract(1, ordering: .relaxed)
        if let reason = state.cutBecause, state.request == nil, state.completedRequests == 0 {
            // Cut off before its headers were in: no request to log, so a line of its own.
            server.log(RequestLogLine(cutConnectionAfter: ContinuousClock.now - state.phaseStart, reason: reason).text)
        }
    }
}

/// The connection's `ConnectionState`.
private func connectionState(_ connection: OpaquePointer) -> ConnectionState? {
    snap_poem_connection_context(connection).map { Unmanaged<ConnectionState>.fromOpaque($0).takeUnretainedValue() }
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
    if let refusal = context.appendFormData(
        name: String(cString: key), filename: filename.map { String(cString: $0) }, contentType: contentType.map { String(cString: $0) },
        offset: offset, bytes: bytes ?? UnsafeBufferPointer(start: nil, count: 0))
    {
        // Refused at the first part over a limit: the parser stops here.
        context.refusal = refusal
        return .NO
    }
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

/// The first value of a request header.
private func header(_ connection: OpaquePointer, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
}

/// Every header or query parameter of the request, in order.
/// The query's parameters, decoded by libmicrohttpd, read with their lengths: a `%00` in a
/// value would cut a C string short, and bytes that are not UTF-8 would become U+FFFD, so
/// either is reported (`HTTPRequest.queryProblem`) instead of taken.
private func arguments(of connection: OpaquePointer) -> ([HTTPField], String?) {
    final class Collected {
        var fields: [HTTPField] = []
        var problem: String?
    }
    let collected = Collected()
    let iterator: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let collected = Unmanaged<Collected>.fromOpaque(cls).takeUnretainedValue()
        func bytes(_ pointer: UnsafePointer<CChar>, _ count: Int) -> [UInt8] {
            pointer.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
        }
        let nameBytes = bytes(key, keySize)
        let valueBytes = value.map { bytes($0, valueSize) } ?? []
        let name = String(decoding: nameBytes, as: UTF8.self)
        if collected.problem == nil {
            if nameBytes.contains(0) || valueBytes.contains(0) {
                collected.problem = HTTPRequest.queryProblem(name: name, notUTF8: false)
            } else if String(validating: nameBytes, as: UTF8.self) == nil || String(validating: valueBytes, as: UTF8.self) == nil {
                collected.problem = HTTPRequest.queryProblem(name: name, notUTF8: true)
            }
        }
        collected.fields.append(HTTPField(name: name, value: String(decoding: valueBytes, as: UTF8.self)))
        return .YES
    }
    withExtendedLifetime(collected) {
        _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, iterator, Unmanaged.passUnretained(collected).toOpaque())
    }
    return (collected.fields, collected.problem)
}

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
