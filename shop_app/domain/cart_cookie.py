"""The guest cart's cookie: its name, lifetime and token size, and the browser's script that makes it.

A guest's cart is found by a random token in the ``cart`` cookie (the database keeps only its
SHA-256). A tab keeps the token it read from the browser when it connected, so a token made by
the server at the first "Add to Cart" would miss every tab opened before it (a second tab, a
product opened in a new tab): such a tab read no token, made a cart of its own at its own first
add and overwrote the cookie, and the first tab's cart was gone at the next page load. Every page
therefore makes the token in the browser, synchronously in its ``<head>``, when the browser has
none: the first page to load makes it, every later tab reads the same one, and the server uses it
as it is (``state.cart.CartState``; it still makes one when a browser sent none).
"""

from __future__ import annotations

from typing import Final

CART_COOKIE: Final = "cart"
CART_COOKIE_MAX_AGE_S: Final = 60 * 60 * 24 * 90  # 90 days
TOKEN_BYTES: Final = 32  # 256 random bits; the token is their base64url form without padding

_SCRIPT: Final = (
    "(function(){try{"
    "if(/(?:^|;\\s*)NAME=[^;]/.test(document.cookie))return;"
    "var b=new Uint8Array(SIZE);crypto.getRandomValues(b);"
    'var t=btoa(String.fromCharCode.apply(null,b)).replace(/\\+/g,"-").replace(/\\//g,"_").replace(/=+$/,"");'
    'document.cookie="NAME="+t+"; Path=/; Max-Age=MAX_AGE; SameSite=Lax"'
    '+(location.protocol=="https:"?"; Secure":"");'
    "}catch(e){}})();"
)


def cart_cookie_script() -> str:
    """The inline script (no ``<``, ``>`` or ``&``) that sets the cart cookie when the browser has
    none: a token of the server's form (``secrets.token_urlsafe(TOKEN_BYTES)``) with the
    attributes ``CartState.cart_token`` writes (``Secure`` on an https page)."""
    script = _SCRIPT.replace("NAME", CART_COOKIE).replace("SIZE", str(TOKEN_BYTES))
    return script.replace("MAX_AGE", str(CART_COOKIE_MAX_AGE_S))
