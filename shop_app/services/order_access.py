"""Seeing an order without an account: signed order links, and the order lookup.

**Signed order links** (``/order-status?token=…``, in a guest's order mails). The token is 256 bits
from :mod:`secrets` (``token_urlsafe(32)``, 43 characters), drawn when a mail carries a link and
unrelated to anything about the order, so neither its id nor its number helps to guess it. The
database keeps only the token's SHA-256 (``order_access_tokens.token_hash``, unique), one row per
link: a copy of the database opens no order; a link can be revoked by deleting its row; the
lookup is one indexed equality on the hash (a guess costs a query and finds nothing, and
256 bits are not guessable, so the page needs no rate limit). Compared with an HMAC of the order
id under a server key, there is no key to keep secret, share between workers or rotate, and a
link never opens any order but its own. A link shows its order only once paid, like the
customer's order history (``order_history``).

**The lookup** (``/order-lookup``): the order's e-mail address and order number together. Each
attempt counts against the client address (``rate_limit.check_submissions`` /
``record_submission``, :data:`MAX_LOOKUPS_PER_WINDOW` per 15 minutes) whether or not it finds
an order, so addresses and numbers cannot be tried in bulk. A number that does not exist, an
e-mail that is not the order's and an unpaid order get the same answer
(``OrderLookupMessage.NOT_FOUND``). The e-mail is compared without case or surrounding spaces, as
typed at checkout; the number as ``normalize_order_number`` writes it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from sqlmodel import Session, select

from shop_app import routes
from shop_app.domain.free_text import one_line
from shop_app.domain.messages import OrderLookupMessage
from shop_app.domain.order_numbers import normalize_order_number
from shop_app.domain.validation import MAX_EMAIL_LENGTH, normalize_email
from shop_app.models import Order, OrderAccessToken
from shop_app.services import order_history, rate_limit
from shop_app.services.order_history import OrderSummary
from shop_app.settings import get_settings

TOKEN_BYTES: Final = 32
"""Random bytes of a link's secret (256 bits)."""
_TOKEN_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{43}")
LOOKUP_FORM: Final = "order_lookup"
"""The rate limiter's name for the lookup form."""
MAX_LOOKUPS_PER_WINDOW: Final = 10
"""Lookups one client address may make within ``rate_limit.WINDOW`` (15 minutes)."""
_MAX_NUMBER_CHARS: Final = 32  # orders.order_number


def token_hash(token: str) -> str:
    """What the database keeps of a link's secret: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_link(session: Session, *, order_id: int) -> str:
    """Mint a signed link to the order: its absolute URL (the secret is in it, and nowhere else).

    The row is flushed into the caller's transaction: the link works once that commits.
    """
    token = secrets.token_urlsafe(TOKEN_BYTES)
    session.add(OrderAccessToken(order_id=order_id, token_hash=token_hash(token)))
    session.flush()
    return f"{get_settings().site_url}{routes.order_status_url(token)}"


def order_by_token(session: Session, token: str) -> OrderSummary | None:
    """The paid order a link's secret opens, else None (malformed, unknown, revoked, unpaid)."""
    if not isinstance(token, str) or _TOKEN_SHAPE.fullmatch(token) is None:
        return None
    order_id = session.exec(
        select(OrderAccessToken.order_id).where(OrderAccessToken.token_hash == token_hash(token))
    ).first()
    return None if order_id is None else order_history.order_with_access_proven(session, order_id=order_id)


@dataclass(frozen=True, slots=True)
class LookupResult:
    """The order found, or the message for the visitor (not found, refused, fields missing)."""

    order: OrderSummary | None = None
    message: str = ""


def lookup(
    session: Session, *, email: str, order_number: str, client: str, now: datetime | None = None
) -> LookupResult:
    """Find a paid order by its e-mail address **and** number, rate-limited per client address.

    ``client`` is the visitor's network address ("" when unknown: not limited, as for every public
    form). Writes the attempt into the caller's transaction, which must commit, found or not.
    """
    typed_email, typed_number = one_line(email), one_line(order_number)
    if not typed_email or not typed_number:
        return LookupResult(message=OrderLookupMessage.REQUIRED.value)
    throttle = rate_limit.check_submissions(
        session, form=LOOKUP_FORM, client=client, limit=MAX_LOOKUPS_PER_WINDOW, now=now
    )
    if throttle is not None:
        return LookupResult(message=throttle.message)
    rate_limit.record_submission(session, form=LOOKUP_FORM, client=client, now=now)
    found = _matching_order(session, normalize_email(typed_email), normalize_order_number(typed_number))
    if found is None:
        return LookupResult(message=OrderLookupMessage.NOT_FOUND.value)
    return LookupResult(order=found)


def _matching_order(session: Session, email: str, number: str) -> OrderSummary | None:
    if len(email) > MAX_EMAIL_LENGTH or len(number) > _MAX_NUMBER_CHARS:
        return None
    row = session.exec(select(Order.id, Order.email).where(Order.order_number == number)).first()
    # No order and another order's e-mail take the same path to the same answer.
    order_id, stored = row if row is not None else (None, "")
    if not hmac.compare_digest(normalize_email(stored).encode("utf-8"), email.encode("utf-8")):
        return None
    return None if order_id is None else order_history.order_with_access_proven(session, order_id=order_id)
