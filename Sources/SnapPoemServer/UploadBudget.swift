/// The request bodies the server holds at once (arriving, waiting for an engine, or being
/// read), over all connections and per client address, and the places in the service each
/// address holds. A body is counted from its headers (its `Content-Length`) or as it grows
/// (a chunked one), and let go of when its request completes.
///
/// Touched only on the server's loop thread.
struct UploadBudget {
    /// The most body bytes held at once.
    let totalBytes: Int
    /// The most body bytes one address may hold at once.
    let bytesPerAddress: Int
    /// The most requests one address may have in the service at once (waiting or running).
    let placesPerAddress: Int
    private(set) var heldBytes = 0
    private var bytesByAddress: [String: Int] = [:]
    private var placesByAddress: [String: Int] = [:]

    init(totalBytes: Int, bytesPerAddress: Int, placesPerAddress: Int) {
        self.totalBytes = totalBytes
        self.bytesPerAddress = bytesPerAddress
        self.placesPerAddress = placesPerAddress
    }

    /// Why `bytes` more cannot be held for `address`, or nil after reserving them.
    enum Shortage {
        /// Every connection's bodies together would pass `totalBytes`.
        case total
        /// This address's bodies would pass `bytesPerAddress`.
        case address
    }

    /// The body bytes held for `address`.
    func heldBytes(for address: String) -> Int { bytesByAddress[address, default: 0] }

    /// Reserves `bytes` for `address`.
    mutating func reserve(_ bytes: Int, for address: String) -> Shortage? {
        guard bytes > 0 else { return nil }
        let mine = bytesByAddress[address, default: 0]
        if mine + bytes > bytesPerAddress { return .address }
        if heldBytes + bytes > totalBytes { return .total }
        bytesByAddress[address] = mine + bytes
        heldBytes += bytes
        return nil
    }

    /// Lets go of `bytes` reserved for `address`.
    mutating func release(_ bytes: Int, for address: String) {
        guard bytes > 0 else { return }
        heldBytes -= bytes
        let left = bytesByAddress[address, default: 0] - bytes
        bytesByAddress[address] = left > 0 ? left : nil
    }

    /// Takes one of `address`'s places in the service; false when it holds all of them.
    mutating func takePlace(for address: String) -> Bool {
        let held = placesByAddress[address, default: 0]
        guard held < placesPerAddress else { return false }
        placesByAddress[address] = held + 1
        return true
    }

    /// Gives back one of `address`'s places.
    mutating func returnPlace(for address: String) {
        let left = placesByAddress[address, default: 0] - 1
        placesByAddress[address] = left > 0 ? left : nil
    }
}
