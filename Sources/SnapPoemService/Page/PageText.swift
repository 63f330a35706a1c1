/// Every word the page says, in one language (`PageLanguage`): the form, the note, the
/// problems it explains, and the lines its script shows. The exporters' own words (the
/// downloads, the annotated photo's legend) are the library's, in English.
struct PageText: Sendable {
    // The form.
    var title: String
    var lede: String
    var photoLabel: String
    var otherPhotoLabel: String
    var previewAlt: String
    var keptPreviewAlt: String
    var findLabel: String
    var replaceWithLabel: String
    var namesHint: String
    var showReading: String
    var submit: String
    var reading: String
    var footer: String
    /// The photo kept with the form after a mistake: its name and size.
    var keptPhoto: @Sendable (_ name: String, _ size: String) -> String
    /// The photo could not be kept (too large to send back): its size.
    var photoNotKept: @Sendable (_ size: String) -> String

    // Problems with the form.
    var replaceWithMissing: String
    var findMissing: String
    var missingImage: String
    var unsupportedImage: @Sendable (_ detail: String) -> String
    var damagedImage: String
    var imageTooLarge: @Sendable (_ detail: String) -> String
    /// The page holds far more specks than a page of text (`too_many_marks`).
    var tooManyMarks: String
    var busy: String
    /// The page's script: the chosen file is over the server's limit.
    var fileTooLarge: @Sendable (_ limit: String) -> String
    /// The page's script: the chosen file is no image.
    var fileNotImage: String

    // The note.
    var untitled: String
    var unmatched: @Sendable (_ find: String) -> String
    var closest: @Sendable (_ find: String, _ word: String, _ line: Int) -> String
    var noText: String
    var timedOut: String
    var readingFailed: @Sendable (_ reason: String) -> String
    var noTextInNote: String
    var readingLabel: String
    var readingHeading: String
    var editorHeading: String
    var editorHintDoubts: String
    var editorHint: String
    var doubtsLabel: String
    var doubtTitle: @Sendable (_ confidence: Int) -> String
    var line: @Sendable (_ number: Int) -> String
    var editorLabel: String
    var update: String
    var actionsLabel: String
    var share: String
    var copy: String
    var email: String
    var downloadText: String
    var downloadHTML: String
    var downloadEmail: String
    var another: String
    /// `/note` without text.
    var noTextSent: String
    var textTooLong: @Sendable (_ limit: String) -> String

    // The page's script.
    var copied: String
    var copyRefused: String
    var shared: String
    var shareFailed: String
    var updating: String
    var updateFailed: String

    /// The strings the page's script shows, by the key it looks them up with.
    var scriptStrings: [(String, String)] {
        [
            ("replaceWithMissing", replaceWithMissing), ("findMissing", findMissing), ("fileNotImage", fileNotImage),
            ("reading", reading), ("copied", copied), ("copyRefused", copyRefused), ("shared", shared),
            ("shareFailed", shareFailed), ("updating", updating), ("updateFailed", updateFailed),
        ]
    }
}

extension PageText {
    static let english = PageText(
        title: "A poem for your love",
        lede: "Photograph a poem, put your love\u{2019}s name in it, and send it.",
        photoLabel: "Take a photo of the poem, or choose one",
        otherPhotoLabel: "Or choose another photo",
        previewAlt: "The photo you chose",
        keptPreviewAlt: "Your photo, kept with the form",
        findLabel: "The name in the poem",
        replaceWithLabel: "Your love\u{2019}s name",
        namesHint: "The name is found even where the photo made it hard to read. Leave both empty to just read the poem.",
        showReading: "Show the photo with what was read marked on it",
        submit: "Make it theirs \u{2665}",
        reading: "Reading the poem\u{2026} this takes a few seconds.",
        footer: "Photos and names are read in memory and never stored.",
        keptPhoto: { name, size in
            "Your photo \u{201C}\(name)\u{201D} (\(size)) is still here: correct the names and send it again, or choose another."
        },
        photoNotKept: { size in "Choose the photo again: at \(size) it is too large to keep with the form." },
        replaceWithMissing: "Type your love\u{2019}s name too, or leave both names empty.",
        findMissing: "Type the name that is in the poem too, or leave both names empty.",
        missingImage: "Choose or take a photo of the poem first.",
        unsupportedImage: { detail in "That file is not a photo this page can read (\(detail)). Try a JPEG or PNG." },
        damagedImage: "That photo could not be read; it may be damaged or cut short. Try another.",
        imageTooLarge: { detail in "That photo is too large for this server (\(detail)). Try a smaller one." },
        tooManyMarks:
            "That photo holds far more specks and dots than a page of text, so it was not read. Take it closer, with only the poem in view.",
        busy: "So many poems are being read right now. Please try again in a moment.",
        fileTooLarge: { limit in "That photo is too large for this server (\(limit) at most). Try a smaller one." },
        fileNotImage: "That file is not a photo. Choose a JPEG or PNG.",
        untitled: "A poem for you",
        unmatched: { find in "\u{201C}\(find)\u{201D} is not in the poem, so nothing was replaced." },
        closest: { find, word, line in
            "\u{201C}\(find)\u{201D} is not in the poem; the closest word is \u{201C}\(word)\u{201D} on line \(line)."
        },
        noText: "No text was found in the photo. Try a sharper photo, straight on, in good light.",
        timedOut: "Reading took too long and was stopped: the poem below is only what was read by then.",
        readingFailed: { reason in "The photo with what was read could not be drawn (\(reason))." },
        noTextInNote: "(no text was found in the photo)",
        readingLabel: "What was read in the photo",
        readingHeading: "What was read",
        editorHeading: "Fix a word",
        editorHintDoubts:
            "The marked words are the ones Tesseract was least sure of: compare them with the photo. What you change here is what you share, copy, e-mail and download.",
        editorHint: "Change anything before you send it: what you change here is what you share, copy, e-mail and download.",
        doubtsLabel: "Words to check",
        doubtTitle: { confidence in "Tesseract was unsure of this word (confidence \(confidence))" },
        line: { number in "line \(number)" },
        editorLabel: "The poem",
        update: "Update the note and downloads",
        actionsLabel: "Send or keep the poem",
        share: "Share\u{2026}",
        copy: "Copy the text",
        email: "E-mail it",
        downloadText: "Download .txt",
        downloadHTML: "Download .html",
        downloadEmail: "Download .eml",
        another: "Another poem",
        noTextSent: "There is no poem to update: the text was empty.",
        textTooLong: { limit in "The poem is too long to update here (\(limit) at most)." },
        copied: "Copied.",
        copyRefused: "The browser did not allow copying; select the poem instead.",
        shared: "Shared.",
        shareFailed: "The poem could not be shared; copy it or e-mail it instead.",
        updating: "Updating the note\u{2026}",
        updateFailed: "The downloads could not be updated: use \u{201C}Update the note and downloads\u{201D}.")

    static let french = PageText(
        title: "Un poème pour votre amour",
        lede: "Photographiez un poème, mettez-y le prénom de votre amour, et envoyez-le.",
        photoLabel: "Prenez le poème en photo, ou choisissez une photo",
        otherPhotoLabel: "Ou choisissez une autre photo",
        previewAlt: "La photo choisie",
        keptPreviewAlt: "Votre photo, gardée avec le formulaire",
        findLabel: "Le prénom dans le poème",
        replaceWithLabel: "Le prénom de votre amour",
        namesHint:
            "Le prénom est retrouvé même là où la photo le rend difficile à lire. Laissez les deux vides pour simplement lire le poème.",
        showReading: "Montrer la photo avec ce qui a été lu",
        submit: "Dédier le poème \u{2665}",
        reading: "Lecture du poème\u{2026} cela prend quelques secondes.",
        footer: "Les photos et les prénoms sont lus en mémoire et jamais conservés.",
        keptPhoto: { name, size in
            "Votre photo «\u{A0}\(name)\u{A0}» (\(size)) est toujours là\u{A0}: corrigez les prénoms et renvoyez-la, ou choisissez-en une autre."
        },
        photoNotKept: { size in
            "Choisissez de nouveau la photo\u{A0}: avec \(size), elle est trop grande pour être gardée avec le formulaire."
        },
        replaceWithMissing: "Tapez aussi le prénom de votre amour, ou laissez les deux prénoms vides.",
        findMissing: "Tapez aussi le prénom qui est dans le poème, ou laissez les deux prénoms vides.",
        missingImage: "Choisissez ou prenez d\u{2019}abord une photo du poème.",
        unsupportedImage: { detail in
            "Ce fichier n\u{2019}est pas une photo que cette page sait lire (\(detail)). Essayez un JPEG ou un PNG."
        },
        damagedImage: "Cette photo n\u{2019}a pas pu être lue\u{A0}; elle est peut-être abîmée ou incomplète. Essayez-en une autre.",
        imageTooLarge: { detail in "Cette photo est trop grande pour ce serveur (\(detail)). Essayez-en une plus petite." },
        tooManyMarks:
            "Cette photo contient bien plus de points et de taches qu\u{2019}une page de texte\u{A0}: elle n\u{2019}a pas été lue. Prenez-la de plus près, avec le poème seul.",
        busy: "Beaucoup de poèmes sont en cours de lecture. Réessayez dans un instant.",
        fileTooLarge: { limit in "Cette photo est trop grande pour ce serveur (\(limit) au plus). Essayez-en une plus petite." },
        fileNotImage: "Ce fichier n\u{2019}est pas une photo. Choisissez un JPEG ou un PNG.",
        untitled: "Un poème pour vous",
        unmatched: { find in "«\u{A0}\(find)\u{A0}» n\u{2019}est pas dans le poème\u{A0}: rien n\u{2019}a été remplacé." },
        closest: { find, word, line in
            "«\u{A0}\(find)\u{A0}» n\u{2019}est pas dans le poème\u{A0}; le mot le plus proche est «\u{A0}\(word)\u{A0}», ligne \(line)."
        },
        noText:
            "Aucun texte n\u{2019}a été trouvé sur la photo. Essayez une photo plus nette, prise de face, bien éclairée.",
        timedOut:
            "La lecture a pris trop de temps et a été arrêtée\u{A0}: le poème ci-dessous n\u{2019}est que ce qui a été lu jusque-là.",
        readingFailed: { reason in "La photo avec ce qui a été lu n\u{2019}a pas pu être dessinée (\(reason))." },
        noTextInNote: "(aucun texte n\u{2019}a été trouvé sur la photo)",
        readingLabel: "Ce qui a été lu sur la photo",
        readingHeading: "Ce qui a été lu",
        editorHeading: "Corriger un mot",
        editorHintDoubts:
            "Les mots marqués sont ceux dont Tesseract était le moins sûr\u{A0}: comparez-les avec la photo. Ce que vous changez ici est ce que vous partagez, copiez, envoyez et téléchargez.",
        editorHint:
            "Changez ce que vous voulez avant d\u{2019}envoyer\u{A0}: ce que vous changez ici est ce que vous partagez, copiez, envoyez et téléchargez.",
        doubtsLabel: "Mots à vérifier",
        doubtTitle: { confidence in "Tesseract n\u{2019}était pas sûr de ce mot (confiance \(confidence))" },
        line: { number in "ligne \(number)" },
        editorLabel: "Le poème",
        update: "Mettre à jour le poème et les téléchargements",
        actionsLabel: "Envoyer ou garder le poème",
        share: "Partager\u{2026}",
        copy: "Copier le texte",
        email: "L\u{2019}envoyer par e-mail",
        downloadText: "Télécharger .txt",
        downloadHTML: "Télécharger .html",
        downloadEmail: "Télécharger .eml",
        another: "Un autre poème",
        noTextSent: "Il n\u{2019}y a pas de poème à mettre à jour\u{A0}: le texte était vide.",
        textTooLong: { limit in "Le poème est trop long pour être mis à jour ici (\(limit) au plus)." },
        copied: "Copié.",
        copyRefused: "Le navigateur n\u{2019}a pas permis la copie\u{A0}; sélectionnez le poème.",
        shared: "Partagé.",
        shareFailed: "Le poème n\u{2019}a pas pu être partagé\u{A0}; copiez-le ou envoyez-le par e-mail.",
        updating: "Mise à jour du poème\u{2026}",
        updateFailed:
            "Les téléchargements n\u{2019}ont pas pu être mis à jour\u{A0}: utilisez «\u{A0}Mettre à jour le poème et les téléchargements\u{A0}»."
    )
}
