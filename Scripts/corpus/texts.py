"""The texts of the corpus (Scripts/corpus/make_corpus.py): poems, muse names, epigraphs, notes.

The poems of Scripts/benchset/poems.py, SampleImages/make_samples.py,
SampleImages/make_book_samples.py and shared/poems/lenore.txt are imported, not copied; the
poems below are added here. Every author died before 1900; each text is the poem as printed
in the edition named in its comment (public domain). What is drawn is the ground truth, so
the scores never depend on an edition being the right one.

Each poem is held by one part only: a poem of the held-out part never appears in a tuning
image (`poem_part`), so that the held-out figures also measure texts the pipeline was never
tuned on. The poems of SampleImages/ (which the pipeline was tuned on) are all in the tuning
part; the others are split by a stable hash of their key.
"""

import hashlib
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "benchset"))
sys.path.insert(0, str(HERE.parent.parent / "SampleImages"))
import make_book_samples as book_samples  # noqa: E402
import make_samples as samples  # noqa: E402
import poems  # noqa: E402

# ---- English, added -----------------------------------------------------------

# Edgar Allan Poe, "To Helen", 1845 text (The Raven and Other Poems, Wiley and Putnam 1845).
TO_HELEN = """To Helen

Helen, thy beauty is to me
    Like those Nicéan barks of yore,
That gently, o'er a perfumed sea,
    The weary, way-worn wanderer bore
    To his own native shore.

On desperate seas long wont to roam,
    Thy hyacinth hair, thy classic face,
Thy Naiad airs have brought me home
    To the glory that was Greece,
And the grandeur that was Rome.

Lo! in yon brilliant window-niche
    How statue-like I see thee stand,
    The agate lamp within thy hand!
Ah, Psyche, from the regions which
    Are Holy Land!
"""

# Edgar Allan Poe, "Eldorado" (The Flag of Our Union, 21 April 1849).
ELDORADO = """Eldorado

Gaily bedight,
A gallant knight,
In sunshine and in shadow,
Had journeyed long,
Singing a song,
In search of Eldorado.

But he grew old—
This knight so bold—
And o'er his heart a shadow—
Fell as he found
No spot of ground
That looked like Eldorado.

And, as his strength
Failed him at length,
He met a pilgrim shadow—
'Shadow,' said he,
'Where can it be—
This land of Eldorado?'

'Over the Mountains
Of the Moon,
Down the Valley of the Shadow,
Ride, boldly ride,'
The shade replied,—
'If you seek for Eldorado!'
"""

# William Wordsworth, "She dwelt among the untrodden ways", Lyrical Ballads (1800).
LUCY = """She dwelt among the untrodden ways

She dwelt among the untrodden ways
Beside the springs of Dove,
A Maid whom there were none to praise
And very few to love:

A violet by a mossy stone
Half hidden from the eye!
—Fair as a star, when only one
Is shining in the sky.

She lived unknown, and few could know
When Lucy ceased to be;
But she is in her grave, and, oh,
The difference to me!
"""

# Ben Jonson, "Song. To Celia", The Forest (1616), stanza 1, modern spelling.
CELIA = """Song. To Celia

Drink to me only with thine eyes,
And I will pledge with mine;
Or leave a kiss but in the cup,
And I'll not look for wine.
The thirst that from the soul doth rise
Doth ask a drink divine;
But might I of Jove's nectar sup,
I would not change for thine.
"""

# John Keats, "Bright star", as printed in The Plymouth and Devonport Weekly Journal (1838).
BRIGHT_STAR = """Bright Star

Bright star, would I were stedfast as thou art—
Not in lone splendour hung aloft the night
And watching, with eternal lids apart,
Like nature's patient, sleepless Eremite,
The moving waters at their priestlike task
Of pure ablution round earth's human shores,
Or gazing on the new soft-fallen mask
Of snow upon the mountains and the moors—
No—yet still stedfast, still unchangeable,
Pillow'd upon my fair love's ripening breast,
To feel for ever its soft fall and swell,
Awake for ever in a sweet unrest,
Still, still to hear her tender-taken breath,
And so live ever—or else swoon to death.
"""

# William Shakespeare, Sonnet 116, Shake-speares Sonnets (1609), modern spelling.
SONNET116 = """Sonnet CXVI

Let me not to the marriage of true minds
Admit impediments. Love is not love
Which alters when it alteration finds,
Or bends with the remover to remove:
O no! it is an ever-fixed mark
That looks on tempests and is never shaken;
It is the star to every wandering bark,
Whose worth's unknown, although his height be taken.
Love's not Time's fool, though rosy lips and cheeks
Within his bending sickle's compass come:
Love alters not with his brief hours and weeks,
But bears it out even to the edge of doom.
If this be error and upon me proved,
I never writ, nor no man ever loved.
"""

# Alfred Tennyson, "Crossing the Bar", Demeter and Other Poems (1889).
CROSSING = """Crossing the Bar

Sunset and evening star,
And one clear call for me!
And may there be no moaning of the bar,
When I put out to sea,

But such a tide as moving seems asleep,
Too full for sound and foam,
When that which drew from out the boundless deep
Turns again home.

Twilight and evening bell,
And after that the dark!
And may there be no sadness of farewell,
When I embark;

For tho' from out our bourne of Time and Place
The flood may bear me far,
I hope to see my Pilot face to face
When I have crost the bar.
"""

# Percy Bysshe Shelley, "To —" ("Music, when soft voices die"), Posthumous Poems (1824).
MUSIC = """Music, when soft voices die

Music, when soft voices die,
Vibrates in the memory—
Odours, when sweet violets sicken,
Live within the sense they quicken.

Rose leaves, when the rose is dead,
Are heap'd for the belovèd's bed;
And so thy thoughts, when thou art gone,
Love itself shall slumber on.
"""

# Elizabeth Barrett Browning, Sonnet XLIII, Sonnets from the Portuguese (1850).
HOW_DO_I = """How do I love thee?

How do I love thee? Let me count the ways.
I love thee to the depth and breadth and height
My soul can reach, when feeling out of sight
For the ends of Being and ideal Grace.
I love thee to the level of every day's
Most quiet need, by sun and candle-light.
I love thee freely, as men strive for Right;
I love thee purely, as they turn from Praise.
I love thee with the passion put to use
In my old griefs, and with my childhood's faith.
I love thee with a love I seemed to lose
With my lost saints,—I love thee with the breath,
Smiles, tears, of all my life!—and, if God choose,
I shall but love thee better after death.
"""

# ---- French, added ------------------------------------------------------------

# Pierre de Ronsard, "Mignonne, allons voir si la rose" (Odes, 1553), modern spelling as in
# the Garnier edition of the Œuvres complètes.
MIGNONNE = """À Cassandre

Mignonne, allons voir si la rose
Qui ce matin avait déclose
Sa robe de pourpre au soleil,
A point perdu cette vesprée
Les plis de sa robe pourprée,
Et son teint au vôtre pareil.

Las ! voyez comme en peu d'espace,
Mignonne, elle a dessus la place,
Las ! las ! ses beautés laissé choir !
Ô vraiment marâtre Nature,
Puisqu'une telle fleur ne dure
Que du matin jusques au soir !

Donc, si vous me croyez, mignonne,
Tandis que votre âge fleuronne
En sa plus verte nouveauté,
Cueillez, cueillez votre jeunesse :
Comme à cette fleur la vieillesse
Fera ternir votre beauté.
"""

# Pierre de Ronsard, "Quand vous serez bien vieille", Sonnets pour Hélène II, 24 (1578),
# modern spelling.
VIEILLE = """Sonnet pour Hélène

Quand vous serez bien vieille, au soir, à la chandelle,
Assise auprès du feu, dévidant et filant,
Direz, chantant mes vers, en vous émerveillant :
« Ronsard me célébrait du temps que j'étais belle. »

Lors, vous n'aurez servante oyant telle nouvelle,
Déjà sous le labeur à demi sommeillant,
Qui au bruit de mon nom ne s'aille réveillant,
Bénissant votre nom de louange immortelle.

Je serai sous la terre et fantôme sans os :
Par les ombres myrteux je prendrai mon repos :
Vous serez au foyer une vieille accroupie,

Regrettant mon amour et votre fier dédain.
Vivez, si m'en croyez, n'attendez à demain :
Cueillez dès aujourd'hui les roses de la vie.
"""

# Charles Baudelaire, "À une passante", Les Fleurs du mal (2nd edition, 1861).
PASSANTE = """À une passante

La rue assourdissante autour de moi hurlait.
Longue, mince, en grand deuil, douleur majestueuse,
Une femme passa, d'une main fastueuse
Soulevant, balançant le feston et l'ourlet ;

Agile et noble, avec sa jambe de statue.
Moi, je buvais, crispé comme un extravagant,
Dans son œil, ciel livide où germe l'ouragan,
La douceur qui fascine et le plaisir qui tue.

Un éclair… puis la nuit ! — Fugitive beauté
Dont le regard m'a fait soudainement renaître,
Ne te verrai-je plus que dans l'éternité ?

Ailleurs, bien loin d'ici ! trop tard ! jamais peut-être !
Car j'ignore où tu fuis, tu ne sais où je vais,
Ô toi que j'eusse aimée, ô toi qui le savais !
"""

# Paul Verlaine, "Green", Romances sans paroles (1874).
GREEN = """Green

Voici des fruits, des fleurs, des feuilles et des branches
Et puis voici mon cœur qui ne bat que pour vous.
Ne le déchirez pas avec vos deux mains blanches
Et qu'à vos yeux si beaux l'humble présent soit doux.

J'arrive tout couvert encore de rosée
Que le vent du matin vient glacer à mon front.
Souffrez que ma fatigue à vos pieds reposée
Rêve des chers instants qui la délasseront.

Sur votre jeune sein laissez rouler ma tête
Toute sonore encor de vos derniers baisers ;
Laissez-la s'apaiser de la bonne tempête,
Et que je dorme un peu puisque vous reposez.
"""

# Alfred de Musset, "Tristesse", Poésies nouvelles (1850).
TRISTESSE = """Tristesse

J'ai perdu ma force et ma vie,
Et mes amis et ma gaieté ;
J'ai perdu jusqu'à la fierté
Qui faisait croire à mon génie.

Quand j'ai connu la Vérité,
J'ai cru que c'était une amie ;
Quand je l'ai comprise et sentie,
J'en étais déjà dégoûté.

Et pourtant elle est éternelle,
Et ceux qui se sont passés d'elle
Ici-bas ont tout ignoré.

Dieu parle, il faut qu'on lui réponde.
Le seul bien qui me reste au monde
Est d'avoir quelquefois pleuré.
"""

# Victor Hugo, "Elle était déchaussée, elle était décoiffée…", Les Contemplations (1856), I, 21.
DECHAUSSEE = """Elle était déchaussée

Elle était déchaussée, elle était décoiffée,
Assise, les pieds nus, parmi les joncs penchants ;
Moi qui passais par là, je crus voir une fée,
Et je lui dis : Veux-tu t'en venir dans les champs ?

Elle me regarda de ce regard suprême
Qui reste à la beauté quand nous en triomphons,
Et je lui dis : Veux-tu, c'est le mois où l'on aime,
Veux-tu nous en aller sous les arbres profonds ?

Elle essuya ses pieds à l'herbe de la rive ;
Elle me regarda pour la seconde fois,
Et la belle folâtre alors devint pensive.
Oh ! comme les oiseaux chantaient au fond des bois !
"""

# Paul Verlaine, "Le ciel est, par-dessus le toit…", Sagesse (1881), III, 6.
LE_CIEL = """Le ciel est, par-dessus le toit

Le ciel est, par-dessus le toit,
Si bleu, si calme !
Un arbre, par-dessus le toit,
Berce sa palme.

La cloche, dans le ciel qu'on voit,
Doucement tinte.
Un oiseau sur l'arbre qu'on voit
Chante sa plainte.

Mon Dieu, mon Dieu, la vie est là,
Simple et tranquille.
Cette paisible rumeur-là
Vient de la ville.

Qu'as-tu fait, ô toi que voilà
Pleurant sans cesse,
Dis, qu'as-tu fait, toi que voilà,
De ta jeunesse ?
"""

# Arthur Rimbaud, "Ma Bohème (Fantaisie)" (1870), Poésies complètes (Vanier, 1895).
BOHEME = """Ma Bohème

Je m'en allais, les poings dans mes poches crevées ;
Mon paletot aussi devenait idéal ;
J'allais sous le ciel, Muse ! et j'étais ton féal ;
Oh ! là ! là ! que d'amours splendides j'ai rêvées !

Mon unique culotte avait un large trou.
— Petit-Poucet rêveur, j'égrenais dans ma course
Des rimes. Mon auberge était à la Grande-Ourse.
— Mes étoiles au ciel avaient un doux frou-frou

Et je les écoutais, assis au bord des routes,
Ces bons soirs de septembre où je sentais des gouttes
De rosée à mon front, comme un vin de vigueur ;

Où, rimant au milieu des ombres fantastiques,
Comme des lyres je tirais les élastiques
De mes souliers blessés, un pied près de mon cœur !
"""

# Marceline Desbordes-Valmore, "Les Roses de Saadi", Poésies inédites (1860).
SAADI = """Les Roses de Saadi

J'ai voulu ce matin te rapporter des roses ;
Mais j'en avais tant pris dans mes ceintures closes
Que les nœuds trop serrés n'ont pu les contenir.

Les nœuds ont éclaté. Les roses envolées
Dans le vent, à la mer s'en sont toutes allées.
Elles ont suivi l'eau pour ne plus revenir ;

La vague en a paru rouge et comme enflammée.
Ce soir, ma robe encore en est tout embaumée…
Respires-en sur moi l'odorant souvenir.
"""

# Charles Baudelaire, "L'Invitation au voyage", Les Fleurs du mal (1857), stanza 1.
INVITATION = """L'Invitation au voyage

Mon enfant, ma sœur,
Songe à la douceur
D'aller là-bas vivre ensemble !
Aimer à loisir,
Aimer et mourir
Au pays qui te ressemble !
Les soleils mouillés
De ces ciels brouillés
Pour mon esprit ont les charmes
Si mystérieux
De tes traîtres yeux,
Brillant à travers leurs larmes.

Là, tout n'est qu'ordre et beauté,
Luxe, calme et volupté.
"""

LENORE = (HERE.parent.parent / "SampleImages" / "poems" / "lenore.txt").read_text(encoding="utf-8")

# key: (text, language, author, name already in the text or None)
POEMS = {
    # English
    "lenore": (LENORE, "en", "Edgar Allan Poe", "Lenore"),
    "raven": (poems.RAVEN, "en", "Edgar Allan Poe", "Lenore"),
    "annabel": (poems.ANNABEL, "en", "Edgar Allan Poe", "Annabel"),
    "to-helen": (TO_HELEN, "en", "Edgar Allan Poe", "Helen"),
    "lucy": (LUCY, "en", "William Wordsworth", "Lucy"),
    "celia": (CELIA, "en", "Ben Jonson", "Celia"),
    "dream": (poems.DREAM, "en", "Edgar Allan Poe", None),
    "eldorado": (ELDORADO, "en", "Edgar Allan Poe", None),
    "london": (poems.LONDON, "en", "William Blake", None),
    "lamb": (poems.LAMB, "en", "William Blake", None),
    "tyger": (samples.TYGER, "en", "William Blake", None),
    "ozymandias": (poems.OZYMANDIAS, "en", "Percy Bysshe Shelley", None),
    "music": (MUSIC, "en", "Percy Bysshe Shelley", None),
    "daffodils": (poems.DAFFODILS, "en", "William Wordsworth", None),
    "beauty": (poems.BEAUTY, "en", "Lord Byron", None),
    "sonnet18": (poems.SONNET18, "en", "William Shakespeare", None),
    "sonnet116": (SONNET116, "en", "William Shakespeare", None),
    "remember": (poems.REMEMBER, "en", "Christina Rossetti", None),
    "autumn": (poems.AUTUMN, "en", "John Keats", None),
    "bright-star": (BRIGHT_STAR, "en", "John Keats", None),
    "crossing": (CROSSING, "en", "Alfred Tennyson", None),
    "how-do-i": (HOW_DO_I, "en", "Elizabeth Barrett Browning", None),
    # French
    "mignonne": (MIGNONNE, "fr", "Pierre de Ronsard", "Cassandre"),
    "vieille": (VIEILLE, "fr", "Pierre de Ronsard", "Hélène"),
    "il-pleure": (poems.IL_PLEURE, "fr", "Paul Verlaine", None),
    "mon-reve": (poems.MON_REVE, "fr", "Paul Verlaine", None),
    "chanson": (samples.CHANSON, "fr", "Paul Verlaine", None),
    "green": (GREEN, "fr", "Paul Verlaine", None),
    "le-ciel": (LE_CIEL, "fr", "Paul Verlaine", None),
    "albatros": (poems.ALBATROS, "fr", "Charles Baudelaire", None),
    "harmonie": (book_samples.HARMONIE, "fr", "Charles Baudelaire", None),
    "passante": (PASSANTE, "fr", "Charles Baudelaire", None),
    "invitation": (INVITATION, "fr", "Charles Baudelaire", None),
    "dormeur": (poems.DORMEUR, "fr", "Arthur Rimbaud", None),
    "boheme": (BOHEME, "fr", "Arthur Rimbaud", None),
    "semailles": (poems.SEMAILLES, "fr", "Victor Hugo", None),
    "demain": (book_samples.DEMAIN, "fr", "Victor Hugo", None),
    "dechaussee": (DECHAUSSEE, "fr", "Victor Hugo", None),
    "le-lac": (poems.LE_LAC, "fr", "Alphonse de Lamartine", None),
    "tristesse": (TRISTESSE, "fr", "Alfred de Musset", None),
    "saadi": (SAADI, "fr", "Marceline Desbordes-Valmore", None),
}

# Muses for the poems that name nobody: a dedication under the title carries the name.
MUSES = {
    "en": ["Helen", "Mary", "Eliza", "Ellen", "Annie", "Frances", "Virginia", "Margaret", "Julia", "Clara", "Rosalind"],
    "fr": ["Hélène", "Élise", "Marie", "Jeanne", "Juliette", "Léonie", "Céline", "Zoé", "Adèle", "Éléonore", "Louise"],
}
DEDICATIONS = {"en": ["To {}", "For {}", "To {}, with love", "for my dear {}"],
               "fr": ["À {}", "Pour {}", "À ma chère {}", "À {}, pour toujours"]}

# Epigraphs: (lines, attribution), set small, italic and right-aligned above a poem.
EPIGRAPHS = {
    "en": [
        (["A thing of beauty is a joy for ever:", "Its loveliness increases."], "— John Keats"),
        (["Quoth the Raven, “Nevermore.”"], "— Edgar Allan Poe"),
        (["“Hope” is the thing with feathers—"], "— Emily Dickinson"),
        (["To be, or not to be: that is the question."], "— Hamlet, III. i."),
        (["Heard melodies are sweet, but those unheard", "Are sweeter."], "— Keats"),
        (["O Rose, thou art sick!"], "— William Blake"),
    ],
    "fr": [
        (["Ô temps ! suspends ton vol, et vous, heures propices !", "Suspendez votre cours !"], "— Lamartine"),
        (["« Il faut cultiver notre jardin. »"], "— Voltaire, Candide"),
        (["Le cœur a ses raisons que la raison", "ne connaît point."], "— Pascal"),
        (["De la musique avant toute chose…"], "— Verlaine"),
        (["« Ô saisons, ô châteaux ! »"], "— Rimbaud"),
        (["L'homme n'est qu'un roseau, le plus faible de la nature ;", "mais c'est un roseau pensant."], "— Pascal, Pensées"),
    ],
}

# Footnotes, set small under a rule at the foot of the page.
FOOTNOTES = {
    "en": [
        ["Text of the first edition, {year}."],
        ["* First printed in {year}; the spelling is the author's."],
        ["Copied out for a friend’s album, {year}."],
        ["1. The poem appeared in a newspaper before the book.", "2. Stanza breaks as in the {year} edition."],
    ],
    "fr": [
        ["Texte de l’édition originale, {year}."],
        ["* Publié pour la première fois en {year} ; l’orthographe est celle de l’auteur."],
        ["Recopié pour l’album d’une amie, {year}."],
        ["1. Le poème parut d’abord dans une revue.", "2. Strophes comme dans l’édition de {year}."],
    ],
}

# Running heads of book pages.
RUNNING_HEADS = {"en": ["POEMS", "SELECTED VERSE", "LYRICS", "THE GOLDEN TREASURY"],
                 "fr": ["POÉSIES", "LES CONTEMPLATIONS", "ŒUVRES CHOISIES", "POÈMES"]}

SPLIT_SALT = "snap-poem-corpus/1"  # the images' split (make_corpus.part_of)


def stable_share(key, salt=SPLIT_SALT):
    """A number in [0, 1) from a hash of `key`: the same on every machine and every run."""
    digest = hashlib.sha256(f"{salt}:{key}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


# The poems' salt was chosen once, among the first 39, for a balanced split: 8 of the 20
# English and 6 of the 16 French poems not in SampleImages/ are held out, each language with
# short-line poems (for two poems side by side) and poems that name their muse.
POEM_SALT = "snap-poem-corpus/25/poem"
SAMPLE_IMAGES_POEMS = {"lenore", "tyger", "chanson", "demain", "harmonie"}


def poem_part(key):
    """The part ('tune' or 'holdout') that may use this poem."""
    if key in SAMPLE_IMAGES_POEMS:
        return "tune"
    return "holdout" if stable_share(key, POEM_SALT) < 0.4 else "tune"


def lines_of(text):
    return [line.rstrip() for line in text.rstrip("\n").split("\n")]


def count_name(text, name):
    """Whole-word occurrences of `name` in `text` (what --replace NAME=… must replace)."""
    return len(re.findall(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text))


def typographic(lines, language):
    """Straight apostrophes (and English double quotes) as a typesetter sets them."""
    out = []
    for line in lines:
        line = re.sub(r"(?<=\w)'|'(?=\w)", "’", line)
        if language == "en":
            line = re.sub(r'"(?=\w|’)', "“", line).replace('"', "”")
        out.append(line)
    return out


def pool(part, language=None, short_lines=False):
    keys = [k for k, v in POEMS.items() if poem_part(k) == part and (language is None or v[1] == language)]
    if short_lines:
        keys = [k for k in keys if max(len(l.strip()) for l in lines_of(POEMS[k][0])) <= 42]
    return sorted(keys)
