"""Sign-in and public-form throttling, counted in the database so the limit holds across every
backend worker.

Each failed sign-in is one ``SignInAttempt`` row (lower-cased e-mail, client address, time). A
sign-in is refused while, in the sliding window of the last ``WINDOW`` before now, there are

- ``MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS`` (10) or more failures for the e-mail *from this client
  address*: one client guessing one account;
- ``MAX_FAILURES_PER_ADDRESS`` (50) or more failures from the client address (any e-mail): one
  client guessing many accounts;
- ``MAX_FAILURES_PER_ACCOUNT`` (100) or more failures for the e-mail from anywhere: many clients
  guessing one account.

A *known browser*, one that has signed in to the account before (``known_browsers``, by the hash
of its binding cookie), is held back only by its own failures (``MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS``
for the e-mail from that browser), never by other clients' (which may share its address behind a
NAT, a carrier's gateway or a proxy).

So an attacker elsewhere cannot keep a customer out: their failures stop their own address (and,
past a hundred, unknown browsers), never the owner's usual browser or another client address
with no failures of its own, and a password reset clears the account's count. ASVS 4.0.3 2.2.1
asks for at most 100 failures per hour per account: an unknown browser gets at most 100 per 15
minutes from everywhere together, one address 40 per hour; it also bounds the bcrypt work an
attacker can make one server do. A successful sign-in clears the account's failures
(``clear_failures``) but not the address's, so one attacker's own account cannot reset the
counter for guessing everyone else's. An empty ``ip_address`` (unknown client) is never one
shared address for the address limit.

Usage in the sign-in use-case::

    throttle = rate_limit.check(session, email=email, ip_address=ip, known_browser=browser_hash_if_known)
    if throttle: refuse with throttle.message (do not even check the password)
    wrong password → rate_limit.record_failure(...); right → rate_limit.clear_failures(...)

``prune`` deletes rows older than the window (a periodic job may call it; ``record_failure``
prunes the rows of the same account as it goes).

Public forms (contact, newsletter …) use the same sliding window on their accepted submissions,
one ``FormSubmission`` row each, counted per form and client address::

    throttle = rate_limit.check_submissions(session, form="contact", client=ip, limit=5)
    if throttle: refuse with throttle.message (nothing stored, no mail)
    else: store it, then rate_limit.record_submission(session, form="contact", client=ip)

An unknown client (empty address) is not limited, as for sign-ins: one shared counter for every
such visitor would let one of them lock all the others out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from shop_app.models import FormSubmission, SignInAttempt
from shop_app.models.base import utcnow

WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS = 10
MAX_FAILURES_PER_ADDRESS = 50
MAX_FAILURES_PER_ACCOUNT = 100

TOO_MANY_ATTEMPTS = "Too many sign-in attempts. Please wait {wait} and try again."
"""User-facing text of a refused sign-in; ``{wait}`` is e.g. "1 minute" or "14 minutes"."""
TOO_MANY_SUBMISSIONS = (
    "You have sent this form several times in a short while. Please wait {wait} and try again."
)
"""User-facing text of a refused form submission (placeholder as above)."""

_MAX_EMAIL_CHARS = 254  # column lengths
_MAX_ADDRESS_CHARS = 64
_MAX_FORM_CHARS = 32
_CLEARED = ""  # the e-mail of failures that no longer count for any account


@dataclass(frozen=True)
class Throttle:
    """A refused sign-in or form submission: how long to wait, and the message to show."""

    retry_after_seconds: int
    scope: str  # "pair", "browser", "account", "address" or a form's name (which limit, for logs)
    template: str = TOO_MANY_ATTEMPTS  # the message, with a {wait} placeholder

    @property
    def retry_after_minutes(self) -> int:
        """The wait rounded up to whole minutes (at least 1)."""
        return max(1, math.ceil(self.retry_after_seconds / 60))

    @property
    def message(self) -> str:
        """The text for the person refused."""
        minutes = self.retry_after_minutes
        return self.template.format(wait=f"{minutes} minute{'s' if minutes != 1 else ''}")


def record_failure(
    session: Session, *, email: str, ip_address: str, browser_hash: str = "", now: datetime | None = None
) -> None:
    """Count one failed sign-in for this e-mail, client address (and browser, by its hash)."""
    now = _aware(now)
    key, address = _email_key(email), ip_address[:_MAX_ADDRESS_CHARS]
    session.add(
        SignInAttempt(email=key, ip_address=address, browser_hash=browser_hash or None, attempted_at=now)
    )
    # Keep both counters' rows bounded (indexed deletes): rows that left the window no longer count.
    expired = col(SignInAttempt.attempted_at) <= now - WINDOW
    session.exec(sa.delete(SignInAttempt).where(col(SignInAttempt.email) == key, expired))
    if address:
        session.exec(sa.delete(SignInAttempt).where(col(SignInAttempt.ip_address) == address, expired))
    session.flush()


def clear_failures(session: Session, *, email: str) -> None:
    """Forget the account's failures (after a successful sign-in or password reset).

    The rows are detached from the account (e-mail emptied), not deleted, so they still count for
    the client address they came from.
    """
    key = _email_key(email)
    if not key:
        return
    session.exec(sa.update(SignInAttempt).where(col(SignInAttempt.email) == key).values(email=_CLEARED))
    session.flush()


def check(
    session: Session,
    *,
    email: str,
    ip_address: str,
    known_browser: str = "",
    now: datetime | None = None,
) -> Throttle | None:
    """``None`` when a sign-in may be tried now, else the ``Throttle`` that refuses it.

    ``known_browser``: the hash of the browser's binding cookie when it has signed in to this
    account before: then only its own failures count (see the module docstring).
    """
    now = _aware(now)
    key, address = _email_key(email), ip_address[:_MAX_ADDRESS_CHARS]
    emails, addresses = col(SignInAttempt.email), col(SignInAttempt.ip_address)
    limits: list[tuple[sa.ColumnElement[bool], int, str]] = []
    if key and known_browser:
        own = sa.and_(emails == key, col(SignInAttempt.browser_hash) == known_browser)
        limits.append((own, MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS, "browser"))
    elif key:
        pair = sa.and_(emails == key, addresses == address)
        limits.append((pair, MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS, "pair"))
        limits.append((emails == key, MAX_FAILURES_PER_ACCOUNT, "account"))
    if address and not known_browser:
        limits.append((addresses == address, MAX_FAILURES_PER_ADDRESS, "address"))
    throttles = [
        _limit(
            session, moment=SignInAttempt.attempted_at, condition=condition, limit=limit, now=now, scope=scope
        )
        for condition, limit, scope in limits
    ]
    found = [throttle for throttle in throttles if throttle is not None]
    return max(found, key=lambda throttle: throttle.retry_after_seconds) if found else None


def record_submission(session: Session, *, form: str, client: str, now: datetime | None = None) -> None:
    """Count one accepted submission of ``form`` by ``client`` (nothing for an unknown client)."""
    if not client:
        return
    now = _aware(now)
    key = (form[:_MAX_FORM_CHARS], client[:_MAX_ADDRESS_CHARS])
    session.add(FormSubmission(form=key[0], client=key[1], submitted_at=now))
    session.exec(
        sa.delete(FormSubmission).where(
            col(FormSubmission.form) == key[0],
            col(FormSubmission.client) == key[1],
            col(FormSubmission.submitted_at) <= now - WINDOW,
        )
    )
    session.flush()


def check_submissions(
    session: Session, *, form: str, client: str, limit: int, now: datetime | None = None
) -> Throttle | None:
    """``None`` when ``client`` may submit ``form`` now (fewer than ``limit`` in the window)."""
    if not client:
        return None
    condition = sa.and_(
        col(FormSubmission.form) == form[:_MAX_FORM_CHARS],
        col(FormSubmission.client) == client[:_MAX_ADDRESS_CHARS],
    )
    throttle = _limit(
        session,
        moment=FormSubmission.submitted_at,
        condition=condition,
        limit=limit,
        now=_aware(now),
        scope=form,
    )
    return None if throttle is None else replace(throttle, template=TOO_MANY_SUBMISSIONS)


def prune(session: Session, *, older_than: timedelta = WINDOW, now: datetime | None = None) -> int:
    """Delete failures and form submissions older than ``older_than``; return how many went."""
    cutoff = _aware(now) - older_than
    result = session.exec(sa.delete(SignInAttempt).where(col(SignInAttempt.attempted_at) <= cutoff))
    forms = session.exec(sa.delete(FormSubmission).where(col(FormSubmission.submitted_at) <= cutoff))
    session.flush()
    return (result.rowcount or 0) + (forms.rowcount or 0)


def _limit(
    session: Session,
    *,
    moment: Any,
    condition: sa.ColumnElement[bool],
    limit: int,
    now: datetime,
    scope: str,
) -> Throttle | None:
    """The throttle for one counter: refused while ``limit`` events lie inside the window.

    ``moment`` is the time column of the counted rows. The ``limit``-th newest event in the window
    is the one whose expiry brings the count back under the limit, so the wait is its time +
    WINDOW − now. One indexed query per counter.
    """
    oldest_that_counts = session.exec(
        select(moment)
        .where(condition, col(moment) > now - WINDOW)
        .order_by(col(moment).desc())
        .offset(limit - 1)
        .limit(1)
    ).first()
    if oldest_that_counts is None:
        return None
    wait = _aware(oldest_that_counts) + WINDOW - now
    return Throttle(retry_after_seconds=max(1, math.ceil(wait.total_seconds())), scope=scope)


def _email_key(email: str) -> str:
    return email.strip().lower()[:_MAX_EMAIL_CHARS]


def _aware(moment: datetime | None) -> datetime:
    """``moment`` (default: now) as an aware UTC datetime; naive values are taken as UTC."""
    if moment is None:
        return utcnow()
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
