import Foundation

/// The box structure of a HEIF file (HEIC, AVIF), read without decoding any pixels: its
/// brands, and what its primary image is: the coding (`hvc1`, `av01`, a `grid` of tiles…),
/// its stored size (`ispe`), and the turns and mirrorings (`irot`, `imir`) that libheif
/// applies when it decodes it.
///
/// snap-poem uses it to recognise the format from the first bytes (Leptonica knows no HEIF)
/// and to report the orientation in `ImageFacts` as for a JPEG's EXIF tag: libheif applies
/// `irot` and `imir` itself and says nothing about them in libheif 1.15's API. Every length is
/// bounds-checked and each step moves forward, so malformed data yields nil or fewer facts,
/// never a trap or a loop; at most `maximumBoxes` boxes are looked at on each level.
struct HEIFStructure: Equatable {
    /// The `ftyp` box's major brand, e.g. `heic`, `avif`, `mif1`.
    let majorBrand: String
    /// Its compatible brands.
    let compatibleBrands: [String]
    /// The primary item's type, e.g. `hvc1`, `av01`, `grid`; nil when the file has no `meta`
    /// box (an image sequence only) or the item is not listed.
    let primaryItemType: String?
    /// The primary item's `ispe` (stored) size, when it has one.
    let storedSize: (width: Int, height: Int)?
    /// The primary item's transformations in the order they apply, as the turn that results.
    let orientation: ExifOrientation

    /// Brands of image sequences (a burst, a live photo's moving part).
    static let sequenceBrands: Set<String> = ["msf1", "hevc", "hevx", "hevm", "hevs", "avis"]

    /// The most boxes read on one level.
    static let maximumBoxes = 4096

    /// Brands of HEIF files coded with HEVC (HEIC) or of HEIF in general.
    static let hevcBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    /// Brands of AVIF files.
    static let avifBrands: Set<String> = ["avif", "avis"]
    /// Brands of HEIF files of any coding.
    static let genericBrands: Set<String> = ["mif1", "msf1", "mif2", "miaf"]

    static func == (lhs: HEIFStructure, rhs: HEIFStructure) -> Bool {
        lhs.majorBrand == rhs.majorBrand && lhs.compatibleBrands == rhs.compatibleBrands && lhs.primaryItemType == rhs.primaryItemType
            && lhs.storedSize?.width == rhs.storedSize?.width && lhs.storedSize?.height == rhs.storedSize?.height
            && lhs.orientation == rhs.orientation
    }

    /// The format the brands name: `.avif` for an AVIF brand (major, or compatible with a
    /// generic major brand), `.heic` for the HEVC brands and other generic HEIF; nil for data
    /// that does not start with a HEIF `ftyp` box.
    static func format(of data: Data) -> ImageFormat? {
        data.withUnsafeBytes { raw in
            guard let brands = ftyp(Reader(raw.bindMemory(to: UInt8.self))) else { return nil }
            return format(major: brands.major, compatible: brands.compatible)
        }
    }

    /// The format of a file with these brands, or nil for brands of no HEIF image.
    static func format(major: String, compatible: [String]) -> ImageFormat? {
        if avifBrands.contains(major) { return .avif }
        if hevcBrands.contains(major) { return .heic }
        guard genericBrands.contains(major) else { return nil }
        if compatible.contains(where: avifBrands.contains) && !compatible.contains(where: hevcBrands.contains) { return .avif }
        return .heic
    }

    /// The coding the primary image needs a decoder for: `av01` for AV1, `hvc1` for HEVC;
    /// for a derived image (`grid`, `iden`, `iovl`) or an unknown item, the coding the brands
    /// name.
    var coding: String {
        if let primaryItemType, ["hvc1", "av01", "jpeg", "j2k1", "vvc1", "evc1"].contains(primaryItemType) {
            return primaryItemType
        }
        return HEIFStructure.format(major: majorBrand, compatible: compatibleBrands) == .avif ? "av01" : "hvc1"
    }

    /// Reads the structure; nil for data that does not start with a HEIF `ftyp` box.
    init?(_ data: Data) {
        guard let found = data.withUnsafeBytes({ raw in Self.read(Reader(raw.bindMemory(to: UInt8.self))) }) else { return nil }
        self = found
    }

    private init(
        majorBrand: String, compatibleBrands: [String], primaryItemType: String?, storedSize: (width: Int, height: Int)?,
        orientation: ExifOrientation
    ) {
        self.majorBrand = majorBrand
        self.compatibleBrands = compatibleBrands
        self.primaryItemType = primaryItemType
        self.storedSize = storedSize
        self.orientation = orientation
    }

    /// A box: its four-letter type and where its payload lies.
    private struct Box {
        let type: String
        let payload: Range<Int>
    }

    /// Bounds-checked big-endian reads.
    private struct Reader {
        let data: UnsafeBufferPointer<UInt8>

        init(_ data: UnsafeBufferPointer<UInt8>) { self.data = data }

        func u8(_ offset: Int) -> Int? {
            guard offset >= 0, offset < data.count else { return nil }
            return Int(data[offset])
        }

        func u16(_ offset: Int) -> Int? {
            guard let high = u8(offset), let low = u8(offset + 1) else { return nil }
            return high << 8 | low
        }

        func u32(_ offset: Int) -> Int? {
            guard let high = u16(offset), let low = u16(offset + 2) else { return nil }
            return high << 16 | low
        }

        func fourCC(_ offset: Int) -> String? {
            guard offset >= 0, offset + 4 <= data.count else { return nil }
            return String(decoding: data[offset..<offset + 4].map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
        }

        /// The boxes between `start` and `end`, in order; stops at the first that does not
        /// fit (damage), keeping those before it.
        func boxes(from start: Int, to end: Int) -> [Box] {
            var found: [Box] = []
            var position = start
            let end = min(end, data.count)
            while position + 8 <= end, found.count < HEIFStructure.maximumBoxes {
                guard let size32 = u32(position), let type = fourCC(position + 4) else { break }
                var header = 8
                var size = size32
                if size32 == 1 {
                    // A 64-bit size: high word first. Beyond Int's reach is beyond the data.
                    guard let high = u32(position + 8), let low = u32(position + 12), high < 1 << 30 else { break }
                    size = high << 32 | low
                    header = 16
                } else if size32 == 0 {
                    size = end - position
                }
                guard size >= header, size <= end - position else { break }
                found.append(Box(type: type, payload: position + header..<position + size))
                position += size
            }
            return found
        }
    }

    /// The `ftyp` box's brands, when the data starts with one.
    private static func ftyp(_ reader: Reader) -> (major: String, compatible: [String])? {
        guard reader.fourCC(4) == "ftyp", let first = reader.boxes(from: 0, to: min(reader.data.count, 4096)).first,
            first.type == "ftyp", first.payload.count >= 8, let major = reader.fourCC(first.payload.lowerBound)
        else { return nil }
        var compatible: [String] = []
        var offset = first.payload.lowerBound + 8
        while offset + 4 <= first.payload.upperBound, compatible.count < 64 {
            if let brand = reader.fourCC(offset) { compatible.append(brand) }
            offset += 4
        }
        guard format(major: major, compatible: compatible) != nil else { return nil }
        return (major, compatible)
    }

    /// The whole walk.
    private static func read(_ reader: Reader) -> HEIFStructure? {
        guard let brands = ftyp(reader) else { return nil }
        var structure = HEIFStructure(
            majorBrand: brands.major, compatibleBrands: brands.compatible, primaryItemType: nil, storedSize: nil, orientation: .up)
        guard let meta = reader.boxes(from: 0, to: reader.data.count).first(where: { $0.type == "meta" }),
            meta.payload.count >= 4
        else { return structure }
        // `meta` is a full box: a version and flags, then its children.
        let children = reader.boxes(from: meta.payload.lowerBound + 4, to: meta.payload.upperBound)
        guard let pitm = children.first(where: { $0.type == "pitm" }), let version = reader.u8(pitm.payload.lowerBound),
            let primary = version == 0 ? reader.u16(pitm.payload.lowerBound + 4) : reader.u32(pitm.payload.lowerBound + 4)
        else { return structure }
        if let iinf = children.first(where: { $0.type == "iinf" }) {
            structure = structure.with(primaryItemType: itemType(of: primary, in: iinf, reader))
        }
        guard let iprp = children.first(where: { $0.type == "iprp" }) else { return structure }
        let containers = reader.boxes(from: iprp.payload.lowerBound, to: iprp.payload.upperBound)
        guard let ipco = containers.first(where: { $0.type == "ipco" }) else { return structure }
        let properties = reader.boxes(from: ipco.payload.lowerBound, to: ipco.payload.upperBound)
        var size: (width: Int, height: Int)?
        var orientation = Transform.identity
        for ipma in containers where ipma.type == "ipma" {
            for index in associations(of: primary, in: ipma, reader) where index >= 1 && index <= properties.count {
                let property = properties[index - 1]
                let start = property.payload.lowerBound
                switch property.type {
                case "ispe":
                    if let width = reader.u32(start + 4), let height = reader.u32(start + 8), start + 12 <= property.payload.upperBound {
                        size = (width, height)
                    }
                case "irot":
                    // Quarter turns counter-clockwise.
                    if let angle = reader.u8(start), start < property.payload.upperBound {
                        orientation = orientation.then(Transform(mirrored: false, clockwiseTurns: (4 - (angle & 3)) % 4))
                    }
                case "imir":
                    // As libheif reads it (`heif_transform_mirror_direction`): axis 1 swaps left
                    // and right, axis 0 top and bottom (checked by decoding: SampleImages/formats/
                    // stanza-imir.heic).
                    if let axis = reader.u8(start), start < property.payload.upperBound {
                        orientation = orientation.then(Transform(mirrored: true, clockwiseTurns: axis & 1 == 1 ? 0 : 2))
                    }
                default:
                    break
                }
            }
        }
        return HEIFStructure(
            majorBrand: structure.majorBrand, compatibleBrands: structure.compatibleBrands,
            primaryItemType: structure.primaryItemType, storedSize: size, orientation: orientation.exifOrientation)
    }

    private func with(primaryItemType: String?) -> HEIFStructure {
        HEIFStructure(
            majorBrand: majorBrand, compatibleBrands: compatibleBrands, primaryItemType: primaryItemType, storedSize: storedSize,
            orientation: orientation)
    }

    /// The type of item `item` in an `iinf` box (its `infe` entries of version 2 or 3).
    private static func itemType(of item: Int, in iinf: Box, _ reader: Reader) -> String? {
        guard let version = reader.u8(iinf.payload.lowerBound) else { return nil }
        let entriesStart = iinf.payload.lowerBound + 4 + (version == 0 ? 2 : 4)
        for infe in reader.boxes(from: entriesStart, to: iinf.payload.upperBound) where infe.type == "infe" {
            let start = infe.payload.lowerBound
            guard let entryVersion = reader.u8(start), entryVersion >= 2 else { continue }
            let idSize = entryVersion == 2 ? 2 : 4
            guard let id = idSize == 2 ? reader.u16(start + 4) : reader.u32(start + 4), id == item,
                start + 4 + idSize + 2 + 4 <= infe.payload.upperBound
            else { continue }
            return reader.fourCC(start + 4 + idSize + 2)
        }
        return nil
    }

    /// The 1-based property indices associated with `item` in an `ipma` box, in order.
    private static func associations(of item: Int, in ipma: Box, _ reader: Reader) -> [Int] {
        let start = ipma.payload.lowerBound
        guard let version = reader.u8(start), let flags = reader.u8(start + 3), let count = reader.u32(start + 4) else { return [] }
        var offset = start + 8
        let end = ipma.payload.upperBound
        for _ in 0..<min(count, maximumBoxes) {
            guard let id = version < 1 ? reader.u16(offset) : reader.u32(offset) else { return [] }
            offset += version < 1 ? 2 : 4
            guard let associationCount = reader.u8(offset) else { return [] }
            offset += 1
            let wide = flags & 1 == 1
            var indices: [Int] = []
            for _ in 0..<associationCount {
                guard offset + (wide ? 2 : 1) <= end, let value = wide ? reader.u16(offset) : reader.u8(offset) else { return [] }
                indices.append(wide ? value & 0x7FFF : value & 0x7F)
                offset += wide ? 2 : 1
            }
            if id == item { return indices }
        }
        return []
    }

    /// A turn and mirroring of the plane: first mirror left–right (when `mirrored`), then
    /// turn clockwise by `clockwiseTurns` quarter turns.
    struct Transform: Equatable {
        var mirrored: Bool
        var clockwiseTurns: Int

        static let identity = Transform(mirrored: false, clockwiseTurns: 0)

        /// This transform followed by `next`.
        func then(_ next: Transform) -> Transform {
            // A mirror reverses the sense of the turns before it.
            let turns = next.mirrored ? next.clockwiseTurns - clockwiseTurns : next.clockwiseTurns + clockwiseTurns
            return Transform(mirrored: mirrored != next.mirrored, clockwiseTurns: ((turns % 4) + 4) % 4)
        }

        /// The EXIF orientation that asks for the same transform.
        var exifOrientation: ExifOrientation {
            switch (mirrored, clockwiseTurns) {
            case (false, 0): .up
            case (false, 1): .right
            case (false, 2): .down
            case (false, _): .left
            case (true, 0): .upMirrored
            case (true, 1): .rightMirrored
            case (true, 2): .downMirrored
            default: .leftMirrored
            }
        }
    }
}
