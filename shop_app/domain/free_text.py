"""The one sanitiser for free text people type: names, addresses, notes, messages.

Every service that stores such text passes it through :func:`one_line` or :func:`multiline` first
(docs/security.md, "Input"), so the rules are the same on SQLite and PostgreSQL (which refuses NUL
in text, where SQLite would store it) and the same for every form:

- the text is put in Unicode's composed form (NFC), so "é" typed two ways is one value;
- control characters (category Cc: NUL, escape, backspace …) are removed; a multi-line text keeps
  its line breaks (``\\r\\n`` and ``\\r`` become ``\\n``) and tabs;
- bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) are
  removed: they let a text display differently from what it is (an order note or address that
  reads backwards in the back office, a name that hides its end);
- lone surrogates (which cannot be stored as UTF-8) and the byte order mark are removed;
- a one-line text has its runs of whitespace, line breaks included, turned into one space;
- surrounding whitespace is trimmed.

Length limits stay with each form's validation (a clear message naming the field); nothing here
truncates. HTML is not touched: it is stored as typed and escaped wherever it is shown.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

BIDI_CONTROLS: Final = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
)
"""Arabic letter mark, LRM, RLM, the embeddings and overrides (LRE … RLO) and the isolates."""
_INVISIBLE: Final = BIDI_CONTROLS | {"\ufeff"}  # and the byte order mark (zero-width no-break space)
_DROPPED_CATEGORIES: Final = frozenset({"Cc", "Cs"})  # control characters, lone surrogates
_LINE_BREAKS: Final = re.compile(r"\r\n?")


def one_line(text: object) -> str:
    """A one-line field as stored (see the module docstring).

    Examples:
        >>> one_line("  Ana\\x00 \\n Silva ")
        'Ana Silva'
        >>> one_line("Invoice \\u202egnp.exe")
        'Invoice gnp.exe'
    """
    spaced = "".join(" " if char.isspace() else char for char in _text(text))  # line breaks too
    return unicodedata.normalize("NFC", " ".join(_visible(spaced).split()))


def multiline(text: object) -> str:
    """A multi-line field (a note, a message) as stored: line breaks and tabs kept.

    Examples:
        >>> multiline(" Leave it at the door.\\r\\nThanks\\x07 ")
        'Leave it at the door.\\nThanks'
    """
    kept = _visible(_LINE_BREAKS.sub("\n", _text(text)), keep="\n\t")
    return unicodedata.normalize("NFC", kept).strip()


def _text(value: object) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _visible(text: str, keep: str = "") -> str:
    """Without control characters (but ``keep``), bidi controls, the BOM and lone surrogates."""
    return "".join(
        char
        for char in text
        if char in keep or (char not in _INVISIBLE and unicodedata.category(char) not in _DROPPED_CATEGORIES)
    )
