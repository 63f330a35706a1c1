import CTesseract

/// The Swift types of Leptonica's object pointers, as the installed headers declare them.
///
/// Leptonica 1.82 (Debian 12) defines its structs in its headers, so Swift imports a `PIX *`
/// as `PixPointer`; from 1.83 on (Debian 13 has 1.84) they are opaque and the
/// same pointer imports as `OpaquePointer`. snap-poem reaches Leptonica's objects only through
/// its accessor functions (`pixGetWidth`, `boxaGetBoxGeometry`, `ptaGetPt`…), which both
/// releases have, and names their pointers with the aliases below. Each alias is inferred
/// from the type of a Leptonica function (`Leptonica.Pix` from `pixCreate`'s result), so the
/// same source compiles against either release's headers.
package protocol LeptonicaPointerTypes {
    /// `PIX *`.
    associatedtype Pix
    /// `BOX *`.
    associatedtype Box
    /// `BOXA *`.
    associatedtype Boxa
    /// `PIXA *`.
    associatedtype Pixa
    /// `PTA *`.
    associatedtype Pta
    /// `PTAA *`.
    associatedtype Ptaa
    /// `NUMA *`.
    associatedtype Numa

    /// `pixCreate`, which gives `Pix` its type.
    static var pixCreator: (Int32, Int32, Int32) -> Pix? { get }
    /// `boxCreate`, which gives `Box` its type.
    static var boxCreator: (Int32, Int32, Int32, Int32) -> Box? { get }
    /// `boxaCreate`, which gives `Boxa` its type.
    static var boxaCreator: (Int32) -> Boxa? { get }
    /// `pixaCreate`, which gives `Pixa` its type.
    static var pixaCreator: (Int32) -> Pixa? { get }
    /// `ptaCreate`, which gives `Pta` its type.
    static var ptaCreator: (Int32) -> Pta? { get }
    /// `ptaaCreate`, which gives `Ptaa` its type.
    static var ptaaCreator: (Int32) -> Ptaa? { get }
    /// `numaCreate`, which gives `Numa` its type.
    static var numaCreator: (Int32) -> Numa? { get }
}

/// The installed Leptonica's pointer types (`LeptonicaPointerTypes`).
package enum Leptonica: LeptonicaPointerTypes {
    package static let pixCreator = pixCreate
    package static let boxCreator = boxCreate
    package static let boxaCreator = boxaCreate
    package static let pixaCreator = pixaCreate
    package static let ptaCreator = ptaCreate
    package static let ptaaCreator = ptaaCreate
    package static let numaCreator = numaCreate
}

/// A `PIX *` (`PixPointer` with Leptonica 1.82, `OpaquePointer` from 1.83 on).
package typealias PixPointer = Leptonica.Pix
/// A `BOX *`.
package typealias BoxPointer = Leptonica.Box
/// A `BOXA *`.
package typealias BoxaPointer = Leptonica.Boxa
/// A `PIXA *`.
package typealias PixaPointer = Leptonica.Pixa
/// A `PTA *`.
package typealias PtaPointer = Leptonica.Pta
/// A `PTAA *`.
package typealias PtaaPointer = Leptonica.Ptaa
/// A `NUMA *`.
package typealias NumaPointer = Leptonica.Numa
