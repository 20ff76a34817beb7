"""Reading a submitted form's values (Reflex's ``on_submit`` sends every field as text; a browser,
or a raw websocket client, may send anything)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

_ON: Final = frozenset({"on", "true", "1", "yes"})


def text(form: Mapping[str, object], name: str) -> str:
    """The field's text without surrounding spaces; ``""`` when it is missing or not text.

    Examples:
        >>> text({"a": " x "}, "a"), text({"a": 3}, "a"), text({}, "a")
        ('x', '', '')
    """
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


def switch(form: Mapping[str, object], name: str) -> bool:
    """Whether a checkbox or switch is on (it sends ``"on"``; an unticked one sends nothing).

    Examples:
        >>> switch({"s": "on"}, "s"), switch({"s": True}, "s"), switch({"s": "off"}, "s"), switch({}, "s")
        (True, True, False, False)
    """
    value = form.get(name)
    return value is True or (isinstance(value, str) and value.strip().lower() in _ON)
