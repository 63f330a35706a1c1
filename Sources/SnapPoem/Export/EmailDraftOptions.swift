import Foundation

/// The headers of an e-mail draft. The date and the Message-ID are passed in, never read
/// from the clock or made up, so that the same poem and options give the same bytes.
public struct EmailDraftOptions: Sendable, Equatable {
    /// The recipients (`To`); may be empty, to be filled in in the mail client.
    public var to: [EmailAddress]
    /// The sender (`From`); nil leaves it out, so the mail client uses the user's own account.
    public var from: EmailAddress?
    /// The subject; nil uses the poem's title, or "A poem for you" when it has none.
    public var subject: String?
    /// The moment written in the `Date` header.
    public var date: Date
    /// The time zone whose offset the `Date` header shows. Default UTC.
    public var timeZone: TimeZone
    /// The `Message-ID` without angle brackets, `unique@domain`, e.g. a UUID at a host name.
    public var messageID: String
    /// Whether the draft carries an HTML alternative (the `HTMLExporter` page) beside the
    /// plain text. Default true.
    public var includesHTML: Bool

    /// Creates draft options.
    public init(
        to: [EmailAddress] = [],
        from: EmailAddress? = nil,
        subject: String? = nil,
        date: Date,
        timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!,
        messageID: String,
        includesHTML: Bool = true
    ) {
        self.to = to
        self.from = from
        self.subject = subject
        self.date = date
        self.timeZone = timeZone
        self.messageID = messageID
        self.includesHTML = includesHTML
    }

    /// Creates draft options dated and identified by `stamp`.
    public init(to: [EmailAddress] = [], subject: String? = nil, stamp: DraftStamp) {
        self.init(to: to, subject: subject, date: stamp.date, timeZone: stamp.timeZone, messageID: stamp.messageID)
    }

    /// Checks what the initialiser cannot: a subject without line breaks or control
    /// characters, a Message-ID of the form `left@right` (dot-atoms), and the addresses
    /// again as `EmailAddress.init(displayName:address:)` checks them (their properties may
    /// have been set, or decoded, since).
    ///
    /// - Throws: `SnapPoemError.invalidOption` naming `subject`, `messageID` or `to`.
    public func validate() throws(SnapPoemError) {
        for address in to + (from.map { [$0] } ?? []) {
            _ = try EmailAddress(displayName: address.displayName, address: address.address)
        }
        if let subject {
            try Self.validate(subject: subject)
        }
        guard EmailAddress.isPlainAddress(messageID) else {
            throw .invalidOption(option: "messageID", reason: "'\(messageID)' is not of the form unique@domain")
        }
    }

    /// Checks a subject: one line, no control characters.
    ///
    /// - Throws: `SnapPoemError.invalidOption` (option `subject`).
    public static func validate(subject: String) throws(SnapPoemError) {
        if subject.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidOption(option: "subject", reason: "the subject must be one line, without control characters")
        }
    }
}

/// What makes one e-mail draft unlike another made of the same poem: the moment in its
/// `Date` header and its `Message-ID`. Passed in, so that exporting stays a pure function;
/// `now()` is what the command line and the service use for each draft.
public struct DraftStamp: Sendable, Equatable {
    /// The moment written in the `Date` header.
    public var date: Date
    /// The time zone whose offset the `Date` header shows.
    public var timeZone: TimeZone
    /// The `Message-ID` without angle brackets, `unique@domain`.
    public var messageID: String

    /// Creates a stamp.
    public init(date: Date, timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!, messageID: String) {
        self.date = date
        self.timeZone = timeZone
        self.messageID = messageID
    }

    /// This moment, in the local time zone, with a new random Message-ID at
    /// `snap-poem.invalid` (a domain that cannot exist, RFC 2606).
    public static func now() -> DraftStamp {
        DraftStamp(date: Date(), timeZone: .current, messageID: "\(UUID().uuidString.lowercased())@snap-poem.invalid")
    }
}
