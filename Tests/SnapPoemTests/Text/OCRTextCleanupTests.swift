import SnapPoem
import Testing

/// One line of the clean-up table.
struct CleanupCase: CustomTestStringConvertible, Sendable {
    let input: String
    let expected: String
    let why: String

    var testDescription: String { why }
}

@Suite("OCR clean-up before replacing")
struct OCRTextCleanupTests {
    @Test(
        "Clean-up table",
        arguments: [
            CleanupCase(input: "| wept, and | cried\n", expected: "I wept, and I cried\n", why: "a standalone | is I"),
            CleanupCase(input: "|'ll weep\n|’m here\n", expected: "I'll weep\nI’m here\n", why: "| before an apostrophe is I"),
            CleanupCase(input: "a|b || c\n", expected: "a|b || c\n", why: "| inside a word, or doubled, stays"),
            CleanupCase(
                input: "the spirit ﬂown\nﬁne eﬀort, oﬃce, baﬄe\n", expected: "the spirit flown\nfine effort, office, baffle\n",
                why: "ligatures expanded"),
            CleanupCase(input: "a Pæan\nmon cœur\n", expected: "a Pæan\nmon cœur\n", why: "æ and œ are letters, not ligatures"),
            CleanupCase(
                input: "The sweet Len-\nore hath gone\n", expected: "The sweet Lenore\nhath gone\n",
                why: "hyphenated word joined on its first line"),
            CleanupCase(
                input: "thy love, Len-\nore!\nCome!\n", expected: "thy love, Lenore!\nCome!\n",
                why: "the punctuation moves up; the emptied line goes"),
            CleanupCase(input: "the fu-\nneral song be sung!\n", expected: "the funeral\nsong be sung!\n", why: "any word"),
            CleanupCase(
                input: "my heart to-night\nAvaunt! to-\nnight my heart\n", expected: "my heart to-night\nAvaunt! to-\nnight my heart\n",
                why: "a compound the poem hyphenates stays"),
            CleanupCase(input: "so young—\nA dirge\n", expected: "so young—\nA dirge\n", why: "an em dash at a line end is never joined"),
            CleanupCase(input: "so young–\nand more\n", expected: "so young–\nand more\n", why: "an en dash is not a hyphen"),
            CleanupCase(
                input: "Jean-\nPaul said\n", expected: "Jean-\nPaul said\n", why: "the next line starts with a capital: not joined"),
            CleanupCase(input: "a self -\nless love\n", expected: "a self -\nless love\n", why: "a spaced hyphen is a dash"),
            CleanupCase(input: "the Len-\n\nore stanza\n", expected: "the Len-\n\nore stanza\n", why: "never across a stanza break"),
            CleanupCase(input: "Ah,  broken   is the  bowl\n", expected: "Ah, broken is the bowl\n", why: "runs of spaces become one"),
            CleanupCase(input: "   Ah,  broken\n", expected: "   Ah, broken\n", why: "indentation stays"),
            CleanupCase(
                input: "the evil eye , by yours .\n", expected: "the evil eye, by yours.\n", why: "no space before a comma or full stop"),
            CleanupCase(input: "and yet ...\n", expected: "and yet ...\n", why: "a spaced ellipsis is a style"),
            CleanupCase(
                input: "“ Wretches! ye loved her ”\n( aside )\n", expected: "“Wretches! ye loved her”\n(aside)\n",
                why: "no space inside quotes or brackets"),
            CleanupCase(
                input: "Let the bell toll! —a soul\nbe read—the song be sung! —\nby yours, the evil eye, —by yours\n",
                expected: "Let the bell toll!—a soul\nbe read—the song be sung!—\nby yours, the evil eye,—by yours\n",
                why: "stray spaces at em dashes go when the poem closes them up"),
            CleanupCase(
                input: "He said — and then — nothing —\n— Who goes?\n",
                expected: "He said — and then — nothing —\n— Who goes?\n",
                why: "spaced em dashes stay when the poem spaces them"),
            CleanupCase(
                input: "He said—and then—nothing\n— Who goes?\n",
                expected: "He said—and then—nothing\n— Who goes?\n",
                why: "a dash opening a line (dialogue) keeps its space"),
            CleanupCase(
                input:
                    "Les sanglots longs\nDes violons\nDe l'automne\nBlessent mon cœur\n\nEt je pleure ;\nQui m'emporte !\n« Deçà, delà »\n",
                expected:
                    "Les sanglots longs\nDes violons\nDe l'automne\nBlessent mon cœur\n\nEt je pleure ;\nQui m'emporte !\n« Deçà, delà »\n",
                why: "French text intact: spaces before ; ! and inside « »"),
            CleanupCase(
                input: "\n\nLenore\n\n\n\nAh, broken\n  \nLet the bell\n\n", expected: "Lenore\n\nAh, broken\n\nLet the bell\n",
                why: "stanza breaks kept, one blank line each"),
            CleanupCase(input: "Lenore\r\nAh\r\n", expected: "Lenore\nAh\n", why: "CRLF line ends"),
            CleanupCase(input: "", expected: "", why: "an empty page stays empty"),
        ])
    func table(_ example: CleanupCase) {
        #expect(OCRTextCleanup.clean(example.input) == example.expected)
    }

    @Test(
        "Cleaning is idempotent",
        arguments: [
            "| wept\nﬂown\nThe sweet Len-\nore-\nhath\n", "a Len-\nore-\nbrave-\nly\n", "toll! —a\nsung! —\n",
            "  x  ,  y  .  \n\n\n z \n", "    indented  line\n", "Avaunt! to-\nnight\nto-night\n",
        ])
    func idempotent(text: String) {
        let once = OCRTextCleanup.clean(text)
        #expect(OCRTextCleanup.clean(once) == once)
    }

    @Test("layoutOnly keeps the text as read, tidying only line ends and blank lines")
    func layoutOnly() {
        let text = "  | wept ,  ﬂown Len-\nore! —a\n\n\n\nnext  \n"
        #expect(OCRTextCleanup.layoutOnly.clean(text) == "  | wept ,  ﬂown Len-\nore! —a\n\nnext\n")
    }

    @Test("Each repair can be switched off on its own")
    func separateSwitches() {
        let text = "| ﬂown , Len-\nore!\n"
        #expect(OCRTextCleanup.standard.clean(text) == "I flown, Lenore!\n")
        #expect(OCRTextCleanup(fixesStandalonePipes: false).clean(text) == "| flown, Lenore!\n")
        #expect(OCRTextCleanup(expandsLigatures: false).clean(text) == "I ﬂown, Lenore!\n")
        #expect(OCRTextCleanup(joinsHyphenatedWords: false).clean(text) == "I flown, Len-\nore!\n")
        #expect(OCRTextCleanup(tidiesSpaces: false).clean(text) == "I flown , Lenore!\n")
    }
}
