"""The guest cart's cookie: its name, lifetime and token size, reading it from a ``Cookie`` header,
and the ``Set-Cookie`` value that gives a browser its token.

A guest's cart is found by a random token in the ``cart`` cookie (the database keeps only its
SHA-256). A tab keeps the token it read from the browser when it connected, so a token made at the
first "Add to Cart" missed every tab opened before it (a second tab, a product opened in a new
tab): such a tab had read no token, made a cart of its own at its own first add and overwrote the
cookie, and the first tab's cart was gone at the next page load. So the server gives a browser
its token with the first page it loads (``api.cart_cookie``): every tab opened after that reads
the same one, and the shop's state uses it as it is (``state.cart.CartState``, which still makes
one for a browser that has none).
"""

from __future__ import annotations

import re
from typing import Final

CART_COOKIE: Final = "cart"
CART_COOKIE_MAX_AGE_S: Final = 60 * 60 * 24 * 90  # 90 days
TOKEN_BYTES: Final = 32  # 256 random bits (secrets.token_urlsafe: 43 characters)
MAX_TOKEN_CHARS: Final = 128  # a longer value (the browser may send anything) counts as none
_TOKEN: Final = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_TOKEN_CHARS}}}")
"""What a token may be: base64url, as the shop makes them; anything else counts as none."""


def is_cart_token(value: object) -> bool:
    """Whether a value the browser sent can be a cart token (``_TOKEN``).

    Examples:
        >>> is_cart_token("Ab-9_z"), is_cart_token('"abc"'), is_cart_token(""), is_cart_token(None)
        (True, False, False, False)
    """
    return isinstance(value, str) and _TOKEN.fullmatch(value) is not None


def cookie_value(header: str | None, name: str) -> str:
    """The value of the cookie ``name`` in a ``Cookie`` header ("" when absent).

    Read pair by pair, as browsers send it (``name=value; name=value``): another cookie that
    Python's ``SimpleCookie`` refuses (JSON, a space, a non-ASCII letter, set by some other
    script of the page) would make it drop the whole header, and the shopper's cart with it.

    Examples:
        >>> cookie_value('consent={"ads": false}; cart=abc; pref=a b', "cart")
        'abc'
        >>> cookie_value("mycart=abc", "cart"), cookie_value(None, "cart")
        ('', '')
    """
    for pair in (header or "").split(";"):
        key, _, value = pair.partition("=")
        if key.strip() == name:
            return value.strip()
    return ""


def cart_token_from_header(header: str | None) -> str:
    """The cart token in a ``Cookie`` header ("" when absent, or not a token: see ``_TOKEN``).

    Examples:
        >>> cart_token_from_header("theme=light; cart=abc"), cart_token_from_header("mycart=abc")
        ('abc', '')
        >>> cart_token_from_header("cart=not a token")
        ''
    """
    value = cookie_value(header, CART_COOKIE)
    return value if is_cart_token(value) else ""


def set_cart_cookie(token: str, *, secure: bool) -> str:
    """The ``Set-Cookie`` value for a new token, with the attributes ``CartState.cart_token`` has
    (readable by the page's scripts: Reflex reads the token from ``document.cookie``).

    Examples:
        >>> set_cart_cookie("abc", secure=True)
        'cart=abc; Path=/; Max-Age=7776000; SameSite=Lax; Secure'
    """
    attributes = f"{CART_COOKIE}={token}; Path=/; Max-Age={CART_COOKIE_MAX_AGE_S}; SameSite=Lax"
    return attributes + ("; Secure" if secure else "")
