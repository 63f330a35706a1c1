import SnapPoemService
import Testing

/// `Content-Type` values read by RFC 9110's rules, without a socket.
@Suite("MediaType: a Content-Type by RFC 9110")
struct MediaTypeTests {
    @Test(
        "A form's boundary, whatever the parameters' case and order",
        arguments: [
            ("multipart/form-data; boundary=abc", "abc"),
            ("multipart/form-data; BOUNDARY=abc", "abc"),
            ("MULTIPART/FORM-DATA;Boundary=abc", "abc"),
            ("multipart/form-data; charset=utf-8; boundary=abc", "abc"),
            ("multipart/form-data; boundary=abc; charset=utf-8", "abc"),
            ("multipart/form-data ;\tboundary=\"a b:c\" ; x=y", "a b:c"),
            ("multipart/form-data; note=\"boundary=no; really\"; boundary=abc", "abc"),
            ("multipart/form-data;; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW;", "----WebKitFormBoundary7MA4YWxkTrZu0gW"),
        ])
    func boundary(_ text: String, _ expected: String) throws {
        let type = try #require(MediaType(parsing: text))
        #expect(type.isForm)
        #expect(type.formBoundary == expected)
    }

    @Test(
        "No boundary, two, one RFC 2046 does not allow, or a value that cannot be read",
        arguments: [
            "multipart/form-data", "multipart/form-data; charset=utf-8", "multipart/form-data; boundary=",
            "multipart/form-data; boundary=a; boundary=b", "multipart/form-data; boundary=\"ends with space \"",
            "multipart/form-data; boundary=\"a\\\"b\"", "multipart/form-data; boundary=\"unclosed", "multipart/form-data; =x",
            "image/png; boundary=abc",
        ])
    func noBoundary(_ text: String) {
        #expect(MediaType(parsing: text)?.formBoundary == nil)
    }

    @Test("The essence is lower case; a value that is not type/subtype is nil")
    func essence() {
        #expect(MediaType(parsing: " Image/PNG ")?.essence == "image/png")
        #expect(MediaType(parsing: "text/plain; charset=\"UTF-8\"")?.parameter("CHARSET") == "UTF-8")
        #expect(MediaType(parsing: "png") == nil)
        #expect(MediaType(parsing: "image/") == nil)
        #expect(MediaType(parsing: "image/png garbage") == nil)
    }
}
