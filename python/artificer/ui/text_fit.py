"""Labels fitted to their boxes, in every language (issue 12: nothing a player reads is cut).

This module owns laying a translated label out in a box of a given width
(and, optionally, height): `fit_lines` shrinks the font a little, then
wraps the label onto the lines allowed — breaking at spaces, or between
Chinese and Japanese characters with the kinsoku rules (no closing mark or
small kana at a line's start, no opening bracket at its end), preferring a
break where the script changes and an even pair of lines — then shrinks
down to `FIT_FLOOR` of the design size, and only then cuts with '…',
flagging the cut (`Fitted.cut`) so tests/ui/test_text_fit.py can catch it.
`draw_fitted` and `draw_fitted_in` draw a fitted label by an anchor or
inside a rect, `blit_lines` draws an already fitted one, and `wrap` is the
older greedy wrap for long texts (tooltips) in a given face.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import pygame

from artificer.ui.fonts import font
from artificer.ui.i18n import catalog

#: The smallest a fitted label may shrink to, as a share of its design size: below three
#: quarters a name stops reading as the same label as its neighbours'.
FIT_FLOOR = 0.75
#: A label that may wrap shrinks only to this share of its size on one line before it wraps, so
#: labels side by side (chips, offers) mostly keep one size.
SHRINK_BEFORE_WRAP = 0.9
#: Never shrink a label below this many pixels, whatever its design size (CJK glyphs blur below it).
MIN_TEXT_PX = 8
ELLIPSIS = "…"
#: The lines of a wrapped label step by this many times the font size: the fonts' own line
#: (1.36× for Noto Sans, 1.45× for the CJK faces) leaves a gap that makes a two-line name read
#: as two labels; 1.2× still clears a descender above an accent or a full-width glyph.
LINE_STEP = 1.2
#: Characters a line may not start with (closing punctuation, small kana, the long-vowel mark):
#: a break before one of them moves the character before it down too (CJK line breaking, kinsoku).
NO_LINE_START = frozenset("、。，．,.）)」』】〕〉》!！?？:：;；ーｰ・…ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ%％")
#: Of those, the ones loose line breaking lets start a line (CSS `line-break: normal` does, for
#: Japanese): small kana and the long-vowel mark. Used only when a name fits no other way.
LOOSE_LINE_START = frozenset("ーｰぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
#: The extra cost of a break the loose rules allow and the strict ones do not.
LOOSE_BREAK_COST = 2.0
#: Characters a line may not end with (opening brackets): they move down with the character after them.
NO_LINE_END = frozenset("（(「『【〔〈《")


#: Layouts by (language, text, size, bold, width, lines, floor, height): a screen redraws its
#: labels every frame, and breaking CJK names into two lines measures every break point. The
#: sizes and lines are kept, not the fonts (a font dies with pygame.quit(); `font` re-makes it).
_layouts: dict[tuple[str, str, int, bool, int, int, float, int | None], tuple[int, list[str], bool]] = {}
#: Past this many layouts the cache starts over (a few screens' labels at a few window sizes).
LAYOUT_CACHE_SIZE = 8192


def line_step(face: pygame.font.Font) -> int:
    """The line step of a wrapped label in `face`: `LINE_STEP` × its size, or the font's own line if tighter."""
    return min(face.get_linesize(), math.ceil(face.point_size * LINE_STEP))


class Fitted(NamedTuple):
    """A label laid out in a box: the font it is drawn in, its lines, and whether it had to be cut
    (`cut`: even at the floor size and the allowed lines it did not fit, so a line ends in '…')."""

    face: pygame.font.Font
    lines: list[str]
    cut: bool

    @property
    def width(self) -> int:
        return max((self.face.size(line)[0] for line in self.lines), default=0)

    @property
    def step(self) -> int:
        """From one line's top to the next one's (`LINE_STEP`, never wider than the font's own line)."""
        return line_step(self.face)

    @property
    def height(self) -> int:
        return self.step * (len(self.lines) - 1) + self.face.get_height()


def _breaks_anywhere(char: str) -> bool:
    """Chinese and Japanese text may break between any two characters (Korean breaks at spaces)."""
    code = ord(char)
    return 0x2E80 <= code < 0xA000 or 0xF900 <= code < 0xFB00 or 0xFF00 <= code < 0xFFF0


def _segments(text: str, loose: bool = False) -> list[str]:
    """`text` cut where a line may break: after a space (kept on the piece before it) and
    around each Chinese or Japanese character, never before a no-line-start mark or after an opening one."""
    pieces: list[str] = []
    open_after = False  # may the next character start a new piece?
    for char in text:
        if not pieces:
            pieces.append(char)
        elif (
            char == " "
            or (char in NO_LINE_START and not (loose and char in LOOSE_LINE_START))
            or pieces[-1][-1] in NO_LINE_END
        ):
            pieces[-1] += char
        elif open_after or _breaks_anywhere(char):
            pieces.append(char)
        else:
            pieces[-1] += char
        open_after = char == " " or _breaks_anywhere(char)
    return pieces


def break_lines(text: str, face: pygame.font.Font, width: int) -> list[str]:
    """Greedy line breaking of `text` into lines of at most `width` px in `face`, never cutting:
    a single word wider than `width` stays on its own (too wide) line."""
    out: list[str] = []
    line = ""
    for piece in _segments(text):
        trial = line + piece
        if face.size(trial.rstrip())[0] <= width or not line:
            line = trial
        else:
            out.append(line.rstrip())
            line = piece
    out.append(line.rstrip())
    return out


def _script(char: str) -> str:
    """A character's script, as line breaking cares: kana and kanji apart, everything else one class."""
    code = ord(char)
    if 0x30A0 <= code < 0x3100 or 0xFF66 <= code < 0xFFA0 or char == "ー":
        return "katakana"
    if 0x3040 <= code < 0x30A0:
        return "hiragana"
    if 0x4E00 <= code < 0xA000 or 0x3400 <= code < 0x4DC0:
        return "han"
    return "other"


#: The cost of breaking a line between two characters of one script: a katakana word cut in two
#: reads worst; between kanji or kana less so (Chinese words are short); at a space or a change
#: of script (kanji → kana, a particle's edge) nothing.
BREAK_COST = {"katakana": 4.0, "han": 1.0, "hiragana": 1.0}


def _two_lines(text: str, face: pygame.font.Font, width: int, clean: bool) -> list[str] | None:
    """The best break of `text` into two lines that fit `width`: the cheapest break point
    (`BREAK_COST`, plus `LOOSE_BREAK_COST` before a small kana), then the most even pair of
    lines; only a free break if `clean`; None if none fits."""
    pieces = _segments(text, loose=not clean)
    best: tuple[float, list[str]] | None = None
    for at in range(1, len(pieces)):
        head = "".join(pieces[:at])
        first, second = head.rstrip(), "".join(pieces[at:]).strip()
        a, b = face.size(first)[0], face.size(second)[0]
        if not first or not second or a > width or b > width:
            continue
        at_space = first != head
        same_script = _script(first[-1]) == _script(second[0])
        cost = BREAK_COST.get(_script(first[-1]), 0.0) if same_script and not at_space else 0.0
        cost += LOOSE_BREAK_COST if second[0] in LOOSE_LINE_START else 0.0
        if clean and cost > 0:
            continue
        score = cost + abs(a - b) / max(1, width)
        if best is None or score < best[0]:
            best = (score, [first, second])
    return best[1] if best is not None else None


def _fits(lines: list[str], face: pygame.font.Font, width: int, max_lines: int, height: int | None) -> bool:
    if len(lines) > max_lines or any(face.size(line)[0] > width for line in lines):
        return False
    return height is None or Fitted(face, lines, False).height <= height


def _ellipsize(line: str, face: pygame.font.Font, width: int) -> str:
    while line and face.size(line + ELLIPSIS)[0] > width:
        line = line[:-1]
    return line.rstrip() + ELLIPSIS


def _cut(lines: list[str], face: pygame.font.Font, width: int, max_lines: int) -> list[str]:
    """The first `max_lines` lines; when more were laid out, the last kept one runs on with the
    rest of the text and is cut with '…' (so as much of the label shows as fits); a single too
    wide line is cut too."""
    if len(lines) > max_lines:
        joiner = "" if all(_breaks_anywhere(line[-1:] or " ") for line in lines[:-1]) else " "
        lines = lines[: max_lines - 1] + [joiner.join(lines[max_lines - 1 :])]
    return [line if face.size(line)[0] <= width else _ellipsize(line, face, width) for line in lines]


def _lay_out(
    text: str,
    size: int,
    bold: bool,
    width: int,
    max_lines: int = 1,
    floor: float = FIT_FLOOR,
    height: int | None = None,
) -> tuple[int, list[str], bool]:
    """`fit_lines` without its cache: (the font size, the lines, whether they were cut)."""
    largest = max(MIN_TEXT_PX, size)
    smallest = min(largest, max(MIN_TEXT_PX, math.floor(size * floor)))
    sizes = range(largest, smallest - 1, -1)
    # Labels side by side (chips, offers) keep one size while they can: wrap before shrinking far.
    first_sizes = sizes if max_lines == 1 else range(largest, max(smallest, round(size * SHRINK_BEFORE_WRAP)) - 1, -1)
    layouts: list[tuple[range, Callable[[pygame.font.Font], list[str] | None]]] = [(first_sizes, lambda face: [text])]
    if max_lines > 1:
        # A word broken in two reads worse than a smaller font: one line down to the floor comes
        # before a break inside a word.
        layouts += [
            (sizes, lambda face: _two_lines(text, face, width, clean=True)),
            (sizes, lambda face: [text]),
            (sizes, lambda face: _two_lines(text, face, width, clean=False)),
            (sizes, lambda face: break_lines(text, face, width)),
        ]
    for candidates, lay in layouts:
        for pixels in candidates:
            face = font(pixels, bold)
            lines = lay(face)
            if lines is not None and _fits(lines, face, width, max_lines, height):
                return pixels, lines, False
    face = font(smallest, bold)
    allowed = (
        max_lines if height is None else max(1, min(max_lines, 1 + (height - face.get_height()) // line_step(face)))
    )
    return smallest, _cut(break_lines(text, face, width), face, width, allowed), True


def fit_lines(
    text: str,
    size: int,
    bold: bool,
    width: int,
    max_lines: int = 1,
    floor: float = FIT_FLOOR,
    height: int | None = None,
) -> Fitted:
    """Lay `text` out in a box `width` px wide (and, if given, `height` px tall), at most
    `max_lines` lines, starting from a `size` px font.

    In order: one line, the font shrunk from `size` a little (to `SHRINK_BEFORE_WRAP`, or all
    the way to `floor` × `size` when only one line is allowed); then two lines broken cleanly
    (at a space or a change of script); then one line down to the floor; then two lines broken
    inside a word; then up to `max_lines` lines — each from `size` down to the floor; only
    then, at the floor size, cut with '…' (`Fitted.cut` is set, so a test can catch it)."""
    key = (catalog().language, text, size, bold, width, max_lines, floor, height)
    laid = _layouts.get(key)
    if laid is None:
        if len(_layouts) >= LAYOUT_CACHE_SIZE:
            _layouts.clear()
        laid = _layouts[key] = _lay_out(text, size, bold, width, max_lines, floor, height)
    pixels, lines, cut = laid
    return Fitted(font(pixels, bold), list(lines), cut)


def draw_fitted(
    surface: pygame.Surface, text: str, size: int, bold: bool, colour: tuple[int, int, int], width: int,
    max_lines: int = 1, floor: float = FIT_FLOOR, height: int | None = None, **where: tuple[int, int],
) -> pygame.Rect:  # fmt: skip
    """Draws `text` fitted to `width` (and `height`, if given; `fit_lines`), the block of lines
    placed by one `get_rect` keyword (`midtop=…`, `center=…`, `midleft=…`, `topleft=…`); lines
    are centred in the block unless the anchor is a left or right one. Returns the block's rect."""
    fitted = fit_lines(text, size, bold, width, max_lines, floor, height)
    return blit_lines(surface, fitted, colour, **where)


def draw_fitted_in(
    surface: pygame.Surface, text: str, size: int, bold: bool, colour: tuple[int, int, int], box: pygame.Rect,
    max_lines: int = 2, align: str = "center",
) -> pygame.Rect:  # fmt: skip
    """Draws `text` fitted inside `box` (its width and height), centred in it vertically;
    `align` "center", "left" or "right" places the lines across it."""
    fitted = fit_lines(text, size, bold, box.width, max_lines, height=box.height)
    anchor = {"left": "midleft", "right": "midright"}.get(align, "center")
    return blit_lines(surface, fitted, colour, **{anchor: getattr(box, anchor)})


def blit_lines(
    surface: pygame.Surface, fitted: Fitted, colour: tuple[int, int, int], **where: tuple[int, int]
) -> pygame.Rect:
    """Draws the lines of a `Fitted` label as a block placed by one `get_rect` keyword (see `draw_fitted`)."""
    anchored = pygame.Rect(0, 0, fitted.width, fitted.height)
    for name, point in where.items():
        setattr(anchored, name, point)
    anchor = next(iter(where), "topleft")
    step = fitted.step
    for i, line in enumerate(fitted.lines):
        image = fitted.face.render(line, True, colour)
        y = anchored.y + i * step
        if "left" in anchor:
            x = anchored.x
        elif "right" in anchor:
            x = anchored.right - image.get_width()
        else:
            x = anchored.centerx - image.get_width() // 2
        surface.blit(image, (x, y))
    return anchored


def wrap(text: str, face: pygame.font.Font, width: int, lines: int) -> list[str]:
    """Greedy wrap by words (by characters for scripts without spaces) in a given `face`; past
    `lines` lines the last is cut with '…'. For a label that must never be cut, use `fit_lines`."""
    return _cut(break_lines(text, face, width), face, width, lines)
