// The brick-morphology override (ProcessOverrides.h).
//
// Before it finds text, Tesseract looks for ruled lines (LineFinder::FindAndRemoveLines, run
// on every page in Tesseract 5.3): it closes and opens the page's 1-bit image with bricks a
// twentieth of an inch square, then opens it with bars a quarter of an inch long, one across
// and one down (75 pixels at 300 dpi). Leptonica's pixOpenBrick and friends do that one
// rasterop over the whole image per pixel of the brick: 360 passes over a 300-dpi page. A
// `perf --call-graph dwarf` profile of the held-out set as a batch (2026-12-05) found them at
// 4–6 % of all CPU, under rasteropLow.
//
// This file defines the four brick functions libtesseract imports (`objdump -T`:
// pixErodeBrick, pixDilateBrick, pixOpenBrick, pixCloseBrick) and computes what Leptonica's
// own definitions compute, bit for bit, in a number of passes that grows with the logarithm
// of the brick's size. Leptonica's rasterop morphology, with its default asymmetric boundary
// condition (every pixel outside the image is OFF, for erosion and dilation alike), is, for a
// brick w wide with its origin at w/2:
//
//     erode(x)  = AND of src(x - w/2 + j)   for j = 0 … w-1
//     dilate(x) = OR  of src(x + w/2 - j)   for j = 0 … w-1
//
// both windows of w consecutive pixels. A window of 2k pixels is two windows of k, k apart;
// a window of w is two overlapping windows of the largest power of two p ≤ w, w - p apart
// (AND and OR do not count twice). So each direction takes log2(p) doublings and one last
// combination, each a pass of word-wide shifts. Two-dimensional bricks are done across, then
// down, as Leptonica does them (it erodes across then down, and dilates across then down,
// in each of the four functions).
//
// Leptonica's results also leave the bits past the image's width in each row's last word in
// a definite state (ON after an erosion, which starts from an image set to all ON; OFF after
// a dilation), and those are reproduced too, so the results are the same words, not only the
// same pixels (`BrickMorphologyTests` compares them with Leptonica's, word for word).
//
// Any call this file does not handle goes on to Leptonica's definition (dlsym(RTLD_NEXT)):
// results into an existing Pix, images of other depths, the symmetric boundary condition,
// bricks of 1×1 (a copy), a brick longer than 4096 pixels, and any allocation that fails.
#include "OverrideState.h"

#include <cstdint>
#include <cstring>
#include <dlfcn.h>
#include <new>
#include <vector>

extern "C" {
/// Leptonica's boundary condition for rasterop morphology (morph.c).
extern l_int32 MORPH_BC;
}

namespace {

using Word = std::uint32_t;
using BrickFunction = PIX *(*)(PIX *, PIX *, l_int32, l_int32);

enum class Operation { erode, dilate };
enum class Direction { across, down };

/// The longest brick side computed here; longer ones go to Leptonica. The working copy has a
/// side's length of rows above the image, so this bounds it. Tesseract's longest brick is a
/// quarter inch: 600 pixels at 2400 dpi, the most it believes of an image's own resolution
/// (a `user_defined_dpi` past 16 384 would make longer ones, which Leptonica then does).
constexpr l_int32 longestSide = 4096;

inline Word combine(Operation operation, Word a, Word b) noexcept {
    return operation == Operation::erode ? (a & b) : (a | b);
}

/// The 32 pixels of `row` that start at pixel `bit` (pixel 0 is the most significant bit of
/// word 0, as Leptonica stores 1-bit images); `row` must hold the word after them too.
inline Word wordAt(const Word *row, std::size_t bit) noexcept {
    const std::size_t index = bit >> 5;
    const unsigned shift = bit & 31;
    if (shift == 0) return row[index];
    return (row[index] << shift) | (row[index + 1] >> (32 - shift));
}

/// The largest power of two not above `length` (≥ 1).
inline l_int32 largestPowerOfTwo(l_int32 length) noexcept {
    l_int32 power = 1;
    while (power <= length / 2) power *= 2;
    return power;
}

/// Where a window of `length` pixels whose result lands at pixel 0 begins, relative to 0:
/// for an erosion -length/2, for a dilation length/2 - (length - 1).
inline long windowStart(Operation operation, l_int32 length) noexcept {
    const long origin = length / 2;
    return operation == Operation::erode ? -origin : origin - (length - 1);
}

/// A 1-bit image being worked on: `wordsPerLine` words a row, the bits past `width` OFF.
struct Bitmap {
    l_int32 width = 0;
    l_int32 height = 0;
    l_int32 wordsPerLine = 0;
    std::vector<Word> words;

    /// The mask of the pixels inside the image in a row's word `index`.
    Word insideMask(l_int32 index) const noexcept {
        const long first = long(index) * 32;
        if (first + 32 <= width) return ~Word(0);
        if (first >= width) return 0;
        return ~Word(0) << (32 - (width - first));
    }
};

/// One row's windows across, in place: `row` holds the row's `count` words.
void applyAcross(Operation operation, l_int32 length, Word *row, l_int32 count, std::vector<Word> &buffer) {
    // lead zero words in front, the row, then zero words enough for every shift and the word
    // after it: OFF outside the image, as Leptonica's boundary condition has it.
    const std::size_t lead = std::size_t(length) / 32 + 2;
    const std::size_t trail = std::size_t(length) / 32 + 2;
    buffer.assign(lead + count + trail, 0);
    std::memcpy(buffer.data() + lead, row, sizeof(Word) * count);
    Word *data = buffer.data();
    const std::size_t used = lead + count;
    const l_int32 power = largestPowerOfTwo(length);
    // Each word w becomes the window of 2k pixels starting at its first pixel, read from the
    // window of k starting there and the one k further on; in ascending order, the words read
    // (w and after) still hold windows of k.
    for (l_int32 half = 1; half < power; half *= 2) {
        for (std::size_t w = 0; w < used; ++w) {
            data[w] = combine(operation, data[w], wordAt(data, w * 32 + std::size_t(half)));
        }
    }
    const long start = long(lead) * 32 + windowStart(operation, length);
    const std::size_t second = std::size_t(length - power);
    for (l_int32 w = 0; w < count; ++w) {
        const std::size_t bit = std::size_t(start + long(w) * 32);
        row[w] = combine(operation, wordAt(data, bit), wordAt(data, bit + second));
    }
}

/// The whole image's windows down, in place.
void applyDown(Operation operation, l_int32 length, Bitmap &image, std::vector<Word> &buffer) {
    const std::size_t line = std::size_t(image.wordsPerLine);
    const std::size_t lead = std::size_t(length);
    const std::size_t rows = lead + std::size_t(image.height);
    buffer.assign(rows * line, 0);
    std::memcpy(buffer.data() + lead * line, image.words.data(), sizeof(Word) * line * std::size_t(image.height));
    Word *data = buffer.data();
    const l_int32 power = largestPowerOfTwo(length);
    for (l_int32 half = 1; half < power; half *= 2) {
        for (std::size_t y = 0; y < rows; ++y) {
            Word *target = data + y * line;
            const std::size_t from = y + std::size_t(half);
            if (from < rows) {
                const Word *source = data + from * line;
                for (std::size_t w = 0; w < line; ++w) target[w] = combine(operation, target[w], source[w]);
            } else if (operation == Operation::erode) {
                std::memset(target, 0, sizeof(Word) * line);
            }
        }
    }
    const long start = long(lead) + windowStart(operation, length);
    const long second = long(length - power);
    for (l_int32 y = 0; y < image.height; ++y) {
        Word *target = image.words.data() + std::size_t(y) * line;
        const long first = start + y;
        const long other = first + second;
        const Word *a = (first >= 0 && first < long(rows)) ? data + std::size_t(first) * line : nullptr;
        const Word *b = (other >= 0 && other < long(rows)) ? data + std::size_t(other) * line : nullptr;
        for (std::size_t w = 0; w < line; ++w) {
            target[w] = combine(operation, a != nullptr ? a[w] : 0, b != nullptr ? b[w] : 0);
        }
    }
}

struct Step {
    Operation operation;
    Direction direction;
};

/// What Leptonica's brick function would return for `pixs`, or null where Leptonica's own
/// definition must answer (see the top of this file).
PIX *brickMorphology(PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize, const Step *steps, int stepCount) {
    if (pixd != nullptr || pixs == nullptr || pixGetDepth(pixs) != 1) return nullptr;
    if (MORPH_BC != ASYMMETRIC_MORPH_BC) return nullptr;
    if (hsize < 1 || vsize < 1 || (hsize == 1 && vsize == 1)) return nullptr;
    if (hsize > longestSide || vsize > longestSide) return nullptr;
    const Word *source = reinterpret_cast<const Word *>(pixGetData(pixs));
    if (source == nullptr) return nullptr;
    try {
        Bitmap image;
        image.width = pixGetWidth(pixs);
        image.height = pixGetHeight(pixs);
        image.wordsPerLine = pixGetWpl(pixs);
        if (image.width < 1 || image.height < 1 || long(image.wordsPerLine) * 32 < image.width) return nullptr;
        const std::size_t line = std::size_t(image.wordsPerLine);
        image.words.assign(source, source + line * std::size_t(image.height));
        std::vector<Word> masks(line);
        for (l_int32 w = 0; w < image.wordsPerLine; ++w) masks[w] = image.insideMask(w);
        for (l_int32 y = 0; y < image.height; ++y) {
            Word *row = image.words.data() + std::size_t(y) * line;
            for (std::size_t w = 0; w < line; ++w) row[w] &= masks[w];
        }
        std::vector<Word> buffer;
        Operation last = steps[0].operation;
        for (int index = 0; index < stepCount; ++index) {
            const Step step = steps[index];
            const l_int32 length = step.direction == Direction::across ? hsize : vsize;
            if (length == 1) continue;
            last = step.operation;
            if (step.direction == Direction::across) {
                for (l_int32 y = 0; y < image.height; ++y) {
                    applyAcross(step.operation, length, image.words.data() + std::size_t(y) * line, image.wordsPerLine, buffer);
                }
                // An erosion leaves the bits past the width OFF (each one's window holds that
                // bit itself); a dilation spreads the row's last pixels into them. Clear them,
                // so that they are outside the image for the next step and the result.
                if (step.operation == Operation::dilate) {
                    for (l_int32 y = 0; y < image.height; ++y) {
                        Word *row = image.words.data() + std::size_t(y) * line;
                        for (std::size_t w = 0; w < line; ++w) row[w] &= masks[w];
                    }
                }
            } else {
                applyDown(step.operation, length, image, buffer);
            }
        }
        PIX *result = pixCreateTemplateNoInit(pixs);
        if (result == nullptr) return nullptr;
        if (pixGetWpl(result) != image.wordsPerLine || pixGetHeight(result) != image.height) {
            pixDestroy(&result);
            return nullptr;
        }
        // Leptonica leaves the bits past the width as its last operation began them: all ON for
        // an erosion (pixSetAll), all OFF for a dilation (pixClearAll).
        Word *target = reinterpret_cast<Word *>(pixGetData(result));
        for (l_int32 y = 0; y < image.height; ++y) {
            const Word *row = image.words.data() + std::size_t(y) * line;
            Word *out = target + std::size_t(y) * line;
            for (std::size_t w = 0; w < line; ++w) {
                out[w] = last == Operation::erode ? (row[w] | ~masks[w]) : row[w];
            }
        }
        return result;
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

/// Leptonica's definition of `name`; null where the dynamic linker has none after this one.
BrickFunction leptonicaDefinition(const char *name) noexcept {
    return reinterpret_cast<BrickFunction>(dlsym(RTLD_NEXT, name));
}

constexpr Step erodeSteps[] = {{Operation::erode, Direction::across}, {Operation::erode, Direction::down}};
constexpr Step dilateSteps[] = {{Operation::dilate, Direction::across}, {Operation::dilate, Direction::down}};
constexpr Step openSteps[] = {
    {Operation::erode, Direction::across}, {Operation::erode, Direction::down},
    {Operation::dilate, Direction::across}, {Operation::dilate, Direction::down}};
constexpr Step closeSteps[] = {
    {Operation::dilate, Direction::across}, {Operation::dilate, Direction::down},
    {Operation::erode, Direction::across}, {Operation::erode, Direction::down}};

struct Brick {
    const char *name;
    const Step *steps;
    int count;
};

const Brick bricks[] = {
    {"pixErodeBrick", erodeSteps, 2},
    {"pixDilateBrick", dilateSteps, 2},
    {"pixOpenBrick", openSteps, 4},
    {"pixCloseBrick", closeSteps, 4},
};

/// Leptonica's definition of brick `kind`, or null.
BrickFunction leptonicaBrick(int kind) noexcept {
    static const BrickFunction definitions[] = {
        leptonicaDefinition(bricks[0].name), leptonicaDefinition(bricks[1].name),
        leptonicaDefinition(bricks[2].name), leptonicaDefinition(bricks[3].name)};
    return definitions[kind];
}

/// Brick `kind` computed here, or Leptonica's where this file hands the call on.
PIX *computedBrick(int kind, PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    if (PIX *result = brickMorphology(pixd, pixs, hsize, vsize, bricks[kind].steps, bricks[kind].count)) return result;
    BrickFunction leptonica = leptonicaBrick(kind);
    // No definition after this one: not bound by interposition (liblept is always loaded
    // with libtesseract); fail the way Leptonica fails a call it cannot do.
    if (leptonica == nullptr) return nullptr;
    return leptonica(pixd, pixs, hsize, vsize);
}

/// Brick `kind` as Tesseract's calls get it: computed here while the override is on.
PIX *brick(int kind, PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    if (snap_poem::isOn(SNAP_POEM_OVERRIDE_BRICK_MORPHOLOGY)) return computedBrick(kind, pixd, pixs, hsize, vsize);
    BrickFunction leptonica = leptonicaBrick(kind);
    return leptonica != nullptr ? leptonica(pixd, pixs, hsize, vsize) : nullptr;
}

}  // namespace

extern "C" {

PIX *snap_poem_brick_morphology(int kind, PIX *pixs, int hsize, int vsize) {
    if (kind < 0 || kind > 3) return nullptr;
    return computedBrick(kind, nullptr, pixs, hsize, vsize);
}

PIX *snap_poem_leptonica_brick(int kind, PIX *pixs, int hsize, int vsize) {
    if (kind < 0 || kind > 3) return nullptr;
    BrickFunction leptonica = leptonicaBrick(kind);
    return leptonica != nullptr ? leptonica(nullptr, pixs, hsize, vsize) : nullptr;
}

__attribute__((visibility("default"))) PIX *pixErodeBrick(PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    return brick(0, pixd, pixs, hsize, vsize);
}

__attribute__((visibility("default"))) PIX *pixDilateBrick(PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    return brick(1, pixd, pixs, hsize, vsize);
}

__attribute__((visibility("default"))) PIX *pixOpenBrick(PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    return brick(2, pixd, pixs, hsize, vsize);
}

__attribute__((visibility("default"))) PIX *pixCloseBrick(PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    return brick(3, pixd, pixs, hsize, vsize);
}

}  // extern "C"
