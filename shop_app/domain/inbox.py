"""The back office inbox's rules: its filters, the reply link, the one-line previews.

The inbox lists contact messages and order inquiries (custom, bulk, wholesale) together. Visitors
typed every text in it, so nothing here produces markup: the reply link is a ``mailto:`` URL with
each part percent-encoded (an address or subject cannot add headers such as ``cc`` or ``body``),
and the previews are plain text for the page to show as text.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final
from urllib.parse import quote

from shop_app.domain.inquiries import OrderType

MESSAGE: Final = "message"
"""The kind of a contact message (an inquiry's kind is its order type)."""
MESSAGE_LABEL: Final = "Message"
PREVIEW_CHARS: Final = 120


class InboxFilter(StrEnum):
    """The inbox's type filter: every entry, contact messages, or one type of inquiry."""

    ALL = "all"
    MESSAGES = MESSAGE
    CUSTOM = OrderType.CUSTOM.value
    BULK = OrderType.BULK.value
    WHOLESALE = OrderType.WHOLESALE.value

    @property
    def label(self) -> str:
        """The filter's name on the screen."""
        return _FILTER_LABELS[self]

    @classmethod
    def parse(cls, value: str) -> InboxFilter:
        """The filter named ``value``; anything unknown shows everything."""
        try:
            return cls(value)
        except ValueError:
            return cls.ALL


_FILTER_LABELS: Final = {
    InboxFilter.ALL: "All",
    InboxFilter.MESSAGES: "Messages",
    InboxFilter.CUSTOM: "Custom",
    InboxFilter.BULK: "Bulk",
    InboxFilter.WHOLESALE: "Wholesale",
}


class InboxMessage(StrEnum):
    """The inbox's notifications (ours: the seed has no inbox)."""

    LOAD_FAILED = "Could not load the inbox. Please try again."
    NOT_FOUND = "This message is no longer in the inbox."
    MARKED_UNREAD = "Marked as unread"
    UPDATE_FAILED = "Could not update the message. Please try again."


def kind_label(kind: str) -> str:
    """The type badge of an entry: "Message", or the inquiry's order type ("Custom Order" …)."""
    if kind == MESSAGE:
        return MESSAGE_LABEL
    try:
        return OrderType(kind).label
    except ValueError:
        return kind


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (line breaks included) as one space."""
    return " ".join(text.split())


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """The start of ``text`` on one line, cut at a word with "…" when longer than ``limit``."""
    line = one_line(text)
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]
    space = cut.rfind(" ")
    if line[limit - 1] != " " and space > limit // 2:  # the cut falls inside a word: drop it
        cut = cut[:space]
    return cut.rstrip() + "…"


def reply_subject(kind: str, subject: str = "") -> str:
    """The subject of a reply: "Re: " and the message's subject, or the inquiry's type.

    Examples:
        >>> reply_subject("message", "Wedding favours")
        'Re: Wedding favours'
        >>> reply_subject("message", "RE: Wedding favours")
        'RE: Wedding favours'
        >>> reply_subject("wholesale")
        'Re: your wholesale inquiry'
    """
    if kind == MESSAGE:
        line = one_line(subject)
        return line if line.lower().startswith("re:") else f"Re: {line}".rstrip()
    return f"Re: your {kind_label(kind).lower()} inquiry"


def mailto_link(address: str, subject: str) -> str:
    """A ``mailto:`` link to ``address`` with ``subject`` prefilled, both percent-encoded.

    Examples:
        >>> mailto_link("ana@example.com", "Re: Tea & candles?")
        'mailto:ana@example.com?subject=Re%3A%20Tea%20%26%20candles%3F'
    """
    return f"mailto:{quote(address.strip(), safe='@')}?subject={quote(one_line(subject), safe='')}"
