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

from http.cookies import CookieError, SimpleCookie
from typing import Final

CART_COOKIE: Final = "cart"
CART_COOKIE_MAX_AGE_S: Final = 60 * 60 * 24 * 90  # 90 days
TOKEN_BYTES: Final = 32  # 256 random bits (secrets.token_urlsafe: 43 characters)
MAX_TOKEN_CHARS: Final = 128  # a longer value (the browser may send anything) counts as none


def cart_token_from_header(header: str | None) -> str:
    """The cart token in a ``Cookie`` header ("" when absent, empty, malformed or too long).

    Examples:
        >>> cart_token_from_header("theme=light; cart=abc"), cart_token_from_header("mycart=abc")
        ('abc', '')
    """
    try:
        morsel = SimpleCookie(header or "").get(CART_COOKIE)
    except CookieError:
        return ""
    value = morsel.value if morsel else ""
    return value if len(value) <= MAX_TOKEN_CHARS else ""


def set_cart_cookie(token: str, *, secure: bool) -> str:
    """The ``Set-Cookie`` value for a new token, with the attributes ``CartState.cart_token`` has
    (readable by the page's scripts: Reflex reads the token from ``document.cookie``).

    Examples:
        >>> set_cart_cookie("abc", secure=True)
        'cart=abc; Path=/; Max-Age=7776000; SameSite=Lax; Secure'
    """
    attributes = f"{CART_COOKIE}={token}; Path=/; Max-Age={CART_COOKIE_MAX_AGE_S}; SameSite=Lax"
    return attributes + ("; Secure" if secure else "")
