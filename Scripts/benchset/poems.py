"""Public-domain poem texts for the held-out benchmark set (Scripts/benchset/make_benchset.py).

None of these texts, and none of the fonts the set uses, appear in SampleImages/: the set is
held out from everything the pipeline was tuned on. Each text is the poem as printed in the
edition named (public domain: every author died before 1900); the rendered text is the
ground truth, so what is drawn is exactly what is scored.
"""

# ---- French ------------------------------------------------------------------

# Paul Verlaine, "Il pleure dans mon cœur", Romances sans paroles (1874).
IL_PLEURE = """Il pleure dans mon cœur

Il pleure dans mon cœur
Comme il pleut sur la ville ;
Quelle est cette langueur
Qui pénètre mon cœur ?

Ô bruit doux de la pluie
Par terre et sur les toits !
Pour un cœur qui s'ennuie,
Ô le chant de la pluie !

Il pleure sans raison
Dans ce cœur qui s'écœure.
Quoi ! nulle trahison ?
Ce deuil est sans raison.

C'est bien la pire peine
De ne savoir pourquoi
Sans amour et sans haine
Mon cœur a tant de peine !
"""

# Paul Verlaine, "Mon rêve familier", Poèmes saturniens (1866).
MON_REVE = """Mon rêve familier

Je fais souvent ce rêve étrange et pénétrant
D'une femme inconnue, et que j'aime, et qui m'aime,
Et qui n'est, chaque fois, ni tout à fait la même
Ni tout à fait une autre, et m'aime et me comprend.

Car elle me comprend, et mon cœur, transparent
Pour elle seule, hélas ! cesse d'être un problème
Pour elle seule, et les moiteurs de mon front blême,
Elle seule les sait rafraîchir, en pleurant.

Est-elle brune, blonde ou rousse ? Je l'ignore.
Son nom ? Je me souviens qu'il est doux et sonore
Comme ceux des aimés que la Vie exila.

Son regard est pareil au regard des statues,
Et, pour sa voix, lointaine, et calme, et grave, elle a
L'inflexion des voix chères qui se sont tues.
"""

# Charles Baudelaire, "L'Albatros", Les Fleurs du mal (1861).
ALBATROS = """L'Albatros

Souvent, pour s'amuser, les hommes d'équipage
Prennent des albatros, vastes oiseaux des mers,
Qui suivent, indolents compagnons de voyage,
Le navire glissant sur les gouffres amers.

À peine les ont-ils déposés sur les planches,
Que ces rois de l'azur, maladroits et honteux,
Laissent piteusement leurs grandes ailes blanches
Comme des avirons traîner à côté d'eux.

Ce voyageur ailé, comme il est gauche et veule !
Lui, naguère si beau, qu'il est comique et laid !
L'un agace son bec avec un brûle-gueule,
L'autre mime, en boitant, l'infirme qui volait !

Le Poète est semblable au prince des nuées
Qui hante la tempête et se rit de l'archer ;
Exilé sur le sol au milieu des huées,
Ses ailes de géant l'empêchent de marcher.
"""

# Arthur Rimbaud, "Le Dormeur du val" (1870).
DORMEUR = """Le Dormeur du val

C'est un trou de verdure où chante une rivière,
Accrochant follement aux herbes des haillons
D'argent ; où le soleil, de la montagne fière,
Luit : c'est un petit val qui mousse de rayons.

Un soldat jeune, bouche ouverte, tête nue,
Et la nuque baignant dans le frais cresson bleu,
Dort ; il est étendu dans l'herbe, sous la nue,
Pâle dans son lit vert où la lumière pleut.

Les pieds dans les glaïeuls, il dort. Souriant comme
Sourirait un enfant malade, il fait un somme :
Nature, berce-le chaudement : il a froid.

Les parfums ne font pas frissonner sa narine ;
Il dort dans le soleil, la main sur sa poitrine,
Tranquille. Il a deux trous rouges au côté droit.
"""

# Victor Hugo, "Saison des semailles. Le soir", Les Chansons des rues et des bois (1865).
SEMAILLES = """Saison des semailles. Le soir

C'est le moment crépusculaire.
J'admire, assis sous un portail,
Ce reste de jour dont s'éclaire
La dernière heure du travail.

Dans les terres, de nuit baignées,
Je contemple, ému, les haillons
D'un vieillard qui jette à poignées
La moisson future aux sillons.

Sa haute silhouette noire
Domine les profonds labours.
On sent à quel point il doit croire
À la fuite utile des jours.

Il marche dans la plaine immense,
Va, vient, lance la graine au loin,
Rouvre sa main, et recommence,
Et je médite, obscur témoin,
"""

# Alphonse de Lamartine, "Le Lac", Méditations poétiques (1820), stanzas 1-4.
LE_LAC = """Le Lac

Ainsi, toujours poussés vers de nouveaux rivages,
Dans la nuit éternelle emportés sans retour,
Ne pourrons-nous jamais sur l'océan des âges
Jeter l'ancre un seul jour ?

Ô lac ! l'année à peine a fini sa carrière,
Et près des flots chéris qu'elle devait revoir,
Regarde ! je viens seul m'asseoir sur cette pierre
Où tu la vis s'asseoir !

Tu mugissais ainsi sous ces roches profondes,
Ainsi tu te brisais sur leurs flancs déchirés,
Ainsi le vent jetait l'écume de tes ondes
Sur ses pieds adorés.
"""

# ---- English -----------------------------------------------------------------

# Edgar Allan Poe, "Annabel Lee" (1849), stanzas 1-3.
ANNABEL = """Annabel Lee

It was many and many a year ago,
In a kingdom by the sea,
That a maiden there lived whom you may know
By the name of Annabel Lee;
And this maiden she lived with no other thought
Than to love and be loved by me.

I was a child and she was a child,
In this kingdom by the sea,
But we loved with a love that was more than love,
I and my Annabel Lee;
With a love that the winged seraphs of Heaven
Coveted her and me.

And this was the reason that, long ago,
In this kingdom by the sea,
A wind blew out of a cloud, chilling
My beautiful Annabel Lee;
So that her highborn kinsmen came
And bore her away from me,
To shut her up in a sepulchre
In this kingdom by the sea.
"""

# Edgar Allan Poe, "A Dream Within a Dream" (1849).
DREAM = """A Dream Within a Dream

Take this kiss upon the brow!
And, in parting from you now,
Thus much let me avow,
You are not wrong, who deem
That my days have been a dream;
Yet if hope has flown away
In a night, or in a day,
In a vision, or in none,
Is it therefore the less gone?
All that we see or seem
Is but a dream within a dream.

I stand amid the roar
Of a surf-tormented shore,
And I hold within my hand
Grains of the golden sand,
How few! yet how they creep
Through my fingers to the deep,
While I weep, while I weep!
"""

# Edgar Allan Poe, "The Raven" (1845), stanzas 1-3.
RAVEN = """The Raven

Once upon a midnight dreary, while I pondered, weak and weary,
Over many a quaint and curious volume of forgotten lore,
While I nodded, nearly napping, suddenly there came a tapping,
As of some one gently rapping, rapping at my chamber door.
"'Tis some visitor," I muttered, "tapping at my chamber door;
Only this, and nothing more."

Ah, distinctly I remember it was in the bleak December,
And each separate dying ember wrought its ghost upon the floor.
Eagerly I wished the morrow; vainly I had sought to borrow
From my books surcease of sorrow, sorrow for the lost Lenore,
For the rare and radiant maiden whom the angels name Lenore,
Nameless here for evermore.

And the silken sad uncertain rustling of each purple curtain
Thrilled me, filled me with fantastic terrors never felt before;
So that now, to still the beating of my heart, I stood repeating
"'Tis some visitor entreating entrance at my chamber door,
Some late visitor entreating entrance at my chamber door;
This it is, and nothing more."
"""

# William Blake, "London", Songs of Experience (1794).
LONDON = """London

I wander thro' each charter'd street,
Near where the charter'd Thames does flow,
And mark in every face I meet
Marks of weakness, marks of woe.

In every cry of every Man,
In every Infant's cry of fear,
In every voice, in every ban,
The mind-forg'd manacles I hear.

How the Chimney-sweeper's cry
Every black'ning Church appalls,
And the hapless Soldier's sigh
Runs in blood down Palace walls.

But most thro' midnight streets I hear
How the youthful Harlot's curse
Blasts the new-born Infant's tear,
And blights with plagues the Marriage hearse.
"""

# William Blake, "The Lamb", Songs of Innocence (1789).
LAMB = """The Lamb

Little Lamb, who made thee?
Dost thou know who made thee?
Gave thee life, and bid thee feed
By the stream and o'er the mead;
Gave thee clothing of delight,
Softest clothing, woolly, bright;
Gave thee such a tender voice,
Making all the vales rejoice?
Little Lamb, who made thee?
Dost thou know who made thee?

Little Lamb, I'll tell thee,
Little Lamb, I'll tell thee:
He is called by thy name,
For he calls himself a Lamb.
He is meek, and he is mild;
He became a little child.
I a child, and thou a lamb,
We are called by his name.
Little Lamb, God bless thee!
Little Lamb, God bless thee!
"""

# Percy Bysshe Shelley, "Ozymandias" (1818).
OZYMANDIAS = """Ozymandias

I met a traveller from an antique land
Who said: Two vast and trunkless legs of stone
Stand in the desert. Near them, on the sand,
Half sunk, a shattered visage lies, whose frown,
And wrinkled lip, and sneer of cold command,
Tell that its sculptor well those passions read
Which yet survive, stamped on these lifeless things,
The hand that mocked them and the heart that fed:
And on the pedestal these words appear:
"My name is Ozymandias, king of kings:
Look on my works, ye Mighty, and despair!"
Nothing beside remains. Round the decay
Of that colossal wreck, boundless and bare
The lone and level sands stretch far away.
"""

# William Wordsworth, "I wandered lonely as a cloud" (1807 text), stanzas 1-2.
DAFFODILS = """Daffodils

I wandered lonely as a cloud
That floats on high o'er vales and hills,
When all at once I saw a crowd,
A host, of golden daffodils;
Beside the lake, beneath the trees,
Fluttering and dancing in the breeze.

Continuous as the stars that shine
And twinkle on the milky way,
They stretched in never-ending line
Along the margin of a bay:
Ten thousand saw I at a glance,
Tossing their heads in sprightly dance.
"""

# Lord Byron, "She Walks in Beauty", Hebrew Melodies (1815).
BEAUTY = """She Walks in Beauty

She walks in beauty, like the night
Of cloudless climes and starry skies;
And all that's best of dark and bright
Meet in her aspect and her eyes:
Thus mellowed to that tender light
Which heaven to gaudy day denies.

One shade the more, one ray the less,
Had half impaired the nameless grace
Which waves in every raven tress,
Or softly lightens o'er her face;
Where thoughts serenely sweet express
How pure, how dear their dwelling place.

And on that cheek, and o'er that brow,
So soft, so calm, yet eloquent,
The smiles that win, the tints that glow,
But tell of days in goodness spent,
A mind at peace with all below,
A heart whose love is innocent!
"""

# William Shakespeare, Sonnet 18 (1609).
SONNET18 = """Sonnet XVIII

Shall I compare thee to a summer's day?
Thou art more lovely and more temperate:
Rough winds do shake the darling buds of May,
And summer's lease hath all too short a date;
Sometime too hot the eye of heaven shines,
And often is his gold complexion dimmed;
And every fair from fair sometime declines,
By chance or nature's changing course untrimmed;
But thy eternal summer shall not fade,
Nor lose possession of that fair thou ow'st;
Nor shall Death brag thou wand'rest in his shade,
When in eternal lines to time thou grow'st:
So long as men can read or eyes can see,
So long lives this, and this gives life to thee.
"""

# Christina Rossetti, "Remember" (1862).
REMEMBER = """Remember

Remember me when I am gone away,
Gone far away into the silent land;
When you can no more hold me by the hand,
Nor I half turn to go yet turning stay.
Remember me when no more day by day
You tell me of our future that you planned:
Only remember me; you understand
It will be late to counsel then or pray.
Yet if you should forget me for a while
And afterwards remember, do not grieve:
For if the darkness and corruption leave
A vestige of the thoughts that once I had,
Better by far you should forget and smile
Than that you should remember and be sad.
"""

# John Keats, "To Autumn" (1820), stanza 1.
AUTUMN = """To Autumn

Season of mists and mellow fruitfulness,
Close bosom-friend of the maturing sun;
Conspiring with him how to load and bless
With fruit the vines that round the thatch-eves run;
To bend with apples the moss'd cottage-trees,
And fill all fruit with ripeness to the core;
To swell the gourd, and plump the hazel shells
With a sweet kernel; to set budding more,
And still more, later flowers for the bees,
Until they think warm days will never cease,
For Summer has o'er-brimm'd their clammy cells.
"""

# Prose for the magazine pages: Edgar Allan Poe, "The Tell-Tale Heart" (1843), opening,
# and "The Oval Portrait" (1845), opening; Nathaniel Hawthorne, "The Minister's Black
# Veil" (1836), opening.
PROSE_TELL_TALE = (
    "True! nervous, very, very dreadfully nervous I had been and am; but why will you say "
    "that I am mad? The disease had sharpened my senses, not destroyed, not dulled them. "
    "Above all was the sense of hearing acute. I heard all things in the heaven and in the "
    "earth. I heard many things in hell. How, then, am I mad? Hearken! and observe how "
    "healthily, how calmly I can tell you the whole story. It is impossible to say how first "
    "the idea entered my brain; but once conceived, it haunted me day and night. Object "
    "there was none. Passion there was none. I loved the old man. He had never wronged me. "
    "He had never given me insult. For his gold I had no desire. I think it was his eye! "
    "yes, it was this! He had the eye of a vulture, a pale blue eye, with a film over it."
)
PROSE_OVAL = (
    "The chateau into which my valet had ventured to make forcible entrance, rather than "
    "permit me, in my desperately wounded condition, to pass a night in the open air, was "
    "one of those piles of commingled gloom and grandeur which have so long frowned among "
    "the Apennines, not less in fact than in the fancy of Mrs. Radcliffe. To all appearance "
    "it had been temporarily and very lately abandoned. We established ourselves in one of "
    "the smallest and least sumptuously furnished apartments. It lay in a remote turret of "
    "the building. Its decorations were rich, yet tattered and antique."
)
PROSE_VEIL = (
    "The sexton stood in the porch of Milford meeting-house, pulling busily at the bell-rope. "
    "The old people of the village came stooping along the street. Children, with bright "
    "faces, tript merrily beside their parents, or mimicked a graver gait, in the conscious "
    "dignity of their Sunday clothes. Spruce bachelors looked sidelong at the pretty maidens, "
    "and fancied that the Sabbath sunshine made them prettier than on week days. When the "
    "throng had mostly streamed into the porch, the sexton began to toll the bell, keeping "
    "his eye on the Reverend Mr. Hooper's door."
)
