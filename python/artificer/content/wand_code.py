"""Wand codes: a board (its core and the card in each slot) as a short text to share, e.g.
`AW1-AQMFBwcH9Qg`. The lab copies one to the clipboard and pastes one back; `artificer wand --code`
and builds.json take them.

The bytes: the core's and every slot's index among the content's ids, sorted (a slot: 0 empty,
k + 1 the k-th spell), each as a LEB128 number, then two bytes of CRC-32 over the board written out
by id. Trailing empty slots are left out. Indices keep a code short; the check catches a typo and a
code made with other content (whose indices name other cards) in one clear line.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from dataclasses import dataclass

from artificer.content import Content
from artificer.errors import ArtificerError

PREFIX = "AW1-"
#: More slots than any core holds (the content's capacity range); a code claiming more is not one.
MAX_SLOTS = 256


class WandCodeError(ArtificerError):
    """A text that is not a wand code of this content: the message is one line for the player."""


@dataclass(frozen=True)
class WandCode:
    core: str
    #: The core's slots in order (None: empty), as many as the core holds.
    cards: tuple[str | None, ...]


def _ids(content: Content) -> tuple[list[str], list[str]]:
    return sorted(core.id for core in content.cores), sorted(spell.id for spell in content.spells)


def _check(core: str, cards: tuple[str | None, ...]) -> bytes:
    text = core + ":" + ",".join(card or "" for card in cards)
    return (zlib.crc32(text.encode("utf-8")) & 0xFFFF).to_bytes(2, "little")


def _trimmed(cards: tuple[str | None, ...]) -> tuple[str | None, ...]:
    end = len(cards)
    while end and cards[end - 1] is None:
        end -= 1
    return cards[:end]


def _leb128(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def encode(content: Content, core: str, cards: list[str | None] | tuple[str | None, ...]) -> str:
    """The code of `core` with `cards` in its slots. A KeyError names an id the content lacks."""
    cores, spells = _ids(content)
    if core not in cores:
        raise KeyError(f"no core {core!r}")
    kept = _trimmed(tuple(cards))
    spell_index = {spell: i for i, spell in enumerate(spells)}
    body = bytearray(_leb128(cores.index(core)) + _leb128(len(kept)))
    for card in kept:
        if card is not None and card not in spell_index:
            raise KeyError(f"no spell {card!r}")
        body += _leb128(0 if card is None else spell_index[card] + 1)
    body += _check(core, kept)
    return PREFIX + base64.urlsafe_b64encode(bytes(body)).decode("ascii").rstrip("=")


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def number(self) -> int:
        value, shift = 0, 0
        while True:
            if self.at >= len(self.data) or shift > 28:
                raise WandCodeError("the wand code is cut short: copy all of it")
            byte = self.data[self.at]
            self.at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value


def decode(content: Content, text: str) -> WandCode:
    """The board a code names, its cards padded to the core's slots; `WandCodeError` (one line)
    for anything that is not a code of this content."""
    code = text.strip()
    if not code.upper().startswith(PREFIX):
        raise WandCodeError(f"not a wand code: wand codes begin with {PREFIX}")
    body = code[len(PREFIX) :]
    if not body or len(body) > 4 * MAX_SLOTS or not all(c.isascii() and (c.isalnum() or c in "-_") for c in body):
        raise WandCodeError(f"not a wand code: after {PREFIX} come only letters, digits, - and _")
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise WandCodeError("the wand code is cut short: copy all of it") from None
    cores, spells = _ids(content)
    reader = _Reader(data)
    core_index, count = reader.number(), reader.number()
    if count > MAX_SLOTS:
        raise WandCodeError("not a wand code: it claims more slots than any core has")
    slots = [reader.number() for _ in range(count)]
    if len(data) - reader.at != 2:
        raise WandCodeError(
            "the wand code is cut short: copy all of it"
            if len(data) - reader.at < 2
            else "not a wand code: it runs on past its end"
        )
    if core_index >= len(cores) or any(slot > len(spells) for slot in slots):
        raise WandCodeError("the wand code names a core or card this game does not have (made for another version?)")
    core = cores[core_index]
    cards = tuple(None if slot == 0 else spells[slot - 1] for slot in slots)
    if data[reader.at :] != _check(core, cards):
        raise WandCodeError("the wand code does not check out: a typo, or made for another version of the game")
    capacity = content.core(core).capacity
    if len(cards) > capacity:
        raise WandCodeError(f"the wand code puts {len(cards)} cards on {core}, which has {capacity} slots")
    return WandCode(core, cards + (None,) * (capacity - len(cards)))
