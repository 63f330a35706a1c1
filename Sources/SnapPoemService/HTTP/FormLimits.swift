/// The bounds of what a request may carry besides its image, checked by the server while
/// the request streams in (the part past a bound is refused at once) and by the service
/// again for requests built without a socket.
public enum FormLimits {
    /// The most text fields a form may have, and the most query parameters a request may
    /// have: 100.
    public static let maxFields = 100
    /// The longest value of one text field, in bytes: 64 KiB.
    public static let maxFieldBytes = 64 << 10
    /// The fields that carry a photo (`image`, and the page's kept photo, `keptImage`): one
    /// each at most, bounded by the upload limit rather than by `maxFieldBytes`, and not
    /// counted among the text fields.
    public static let photoFields: Set<String> = ["image", KeptPhoto.field]
}
