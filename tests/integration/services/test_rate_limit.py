"""Sign-in throttling: per account and client address, per address, per account for unknown
browsers; a sliding window, shared by workers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import Session, func, select

from shop_app.db import create_db_engine
from shop_app.models import SignInAttempt
from shop_app.services import rate_limit
from shop_app.services.rate_limit import (
    MAX_FAILURES_PER_ACCOUNT,
    MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS,
    MAX_FAILURES_PER_ADDRESS,
    WINDOW,
    Throttle,
)

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
EMAIL = "ada@example.com"
IP = "203.0.113.7"
PAIR = MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS
OWNERS_BROWSER = "f" * 64  # the hash of a browser that signed in to the account before


def _fail(
    session: Session,
    count: int,
    *,
    email: str = EMAIL,
    ip: str = IP,
    start: datetime = T0,
    step: timedelta = timedelta(minutes=1),
) -> None:
    """Record ``count`` failures, ``step`` apart from ``start``."""
    for i in range(count):
        rate_limit.record_failure(session, email=email, ip_address=ip, now=start + i * step)


def test_under_the_limit_sign_in_is_allowed(session: Session) -> None:
    _fail(session, PAIR - 1)

    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=T0 + timedelta(minutes=9)) is None


def test_at_the_limit_one_address_is_refused_until_its_oldest_failure_leaves_the_window(
    session: Session,
) -> None:
    _fail(session, PAIR)  # at T0, T0+1 min, …, T0+9 min
    now = T0 + timedelta(minutes=9, seconds=30)

    throttle = rate_limit.check(session, email=EMAIL, ip_address=IP, now=now)

    assert throttle == Throttle(retry_after_seconds=330, scope="pair")  # T0 + 15 min − now
    assert throttle.retry_after_minutes == 6
    assert throttle.message == "Too many sign-in attempts. Please wait 6 minutes and try again."
    assert throttle.message == rate_limit.TOO_MANY_ATTEMPTS.format(wait="6 minutes")


def test_an_attacker_elsewhere_cannot_keep_the_owner_out(session: Session) -> None:
    """Ten wrong passwords from one address stop that address, not the owner's."""
    _fail(session, PAIR, ip="198.51.100.66", step=timedelta(seconds=1))
    now = T0 + timedelta(minutes=1)

    assert rate_limit.check(session, email=EMAIL, ip_address="198.51.100.66", now=now) is not None
    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=now) is None
    # The attacker keeps trying from address after address: every one is stopped at its own ten,
    # the owner's address with no failures of its own is not.
    for n in range(8):
        _fail(session, PAIR, ip=f"198.51.100.{n}", start=now, step=timedelta(seconds=1))
    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=now + timedelta(minutes=1)) is None


def test_many_addresses_together_stop_unknown_browsers_but_not_the_owners_known_one(session: Session) -> None:
    for n in range(MAX_FAILURES_PER_ACCOUNT // PAIR):  # a botnet: ten tries from each of ten addresses
        _fail(session, PAIR, ip=f"198.51.100.{n}", step=timedelta(seconds=1))
    now = T0 + timedelta(minutes=2)

    unknown = rate_limit.check(session, email=EMAIL, ip_address=IP, now=now)
    assert unknown is not None and unknown.scope == "account"
    assert (
        rate_limit.check(session, email=EMAIL, ip_address=IP, known_browser=OWNERS_BROWSER, now=now) is None
    )
    # A password reset clears the account's count (services.auth): unknown browsers may try again.
    rate_limit.clear_failures(session, email=EMAIL)
    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=now) is None


def test_a_known_browser_behind_the_attackers_address_is_held_back_only_by_its_own_failures(
    session: Session,
) -> None:
    """A shared address (a NAT, a carrier's gateway, a proxy): the stranger's report, F3."""
    _fail(session, MAX_FAILURES_PER_ADDRESS, step=timedelta(seconds=1))  # pair and address limits hit
    now = T0 + timedelta(minutes=2)
    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=now) is not None

    assert (
        rate_limit.check(session, email=EMAIL, ip_address=IP, known_browser=OWNERS_BROWSER, now=now) is None
    )
    for _ in range(PAIR):  # the owner mistypes ten times on their own browser
        rate_limit.record_failure(session, email=EMAIL, ip_address=IP, browser_hash=OWNERS_BROWSER, now=now)
    own = rate_limit.check(session, email=EMAIL, ip_address=IP, known_browser=OWNERS_BROWSER, now=now)
    assert own is not None and own.scope == "browser"


def test_the_window_slides(session: Session) -> None:
    _fail(session, PAIR)
    first_expires = T0 + WINDOW

    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=first_expires - timedelta(seconds=1))
    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=first_expires) is None

    # One more failure brings it back to the limit: now the second-oldest failure decides.
    rate_limit.record_failure(session, email=EMAIL, ip_address=IP, now=first_expires)
    throttle = rate_limit.check(session, email=EMAIL, ip_address=IP, now=first_expires)
    assert throttle is not None
    assert throttle.retry_after_seconds == 60  # the failure at T0 + 1 min expires at T0 + 16 min
    assert throttle.message == "Too many sign-in attempts. Please wait 1 minute and try again."

    # Long after the burst, nothing counts any more.
    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=T0 + timedelta(hours=1)) is None


def test_email_is_case_insensitive(session: Session) -> None:
    _fail(session, PAIR, email="  Ada@Example.COM ")

    assert rate_limit.check(session, email="ADA@example.com", ip_address=IP, now=T0 + timedelta(minutes=10))
    assert session.exec(select(SignInAttempt.email).distinct()).all() == [EMAIL]


def test_the_address_limit_counts_failures_across_accounts(session: Session) -> None:
    for i in range(MAX_FAILURES_PER_ADDRESS - 1):
        rate_limit.record_failure(session, email=f"user{i}@example.com", ip_address=IP, now=T0)
    later = T0 + timedelta(minutes=5)
    assert rate_limit.check(session, email="new@example.com", ip_address=IP, now=later) is None

    rate_limit.record_failure(session, email="user-last@example.com", ip_address=IP, now=T0)

    throttle = rate_limit.check(session, email="new@example.com", ip_address=IP, now=later)
    assert throttle == Throttle(retry_after_seconds=600, scope="address")
    assert rate_limit.check(session, email="new@example.com", ip_address="198.51.100.1", now=later) is None


def test_clearing_resets_the_account_counter_but_not_the_address_counter(session: Session) -> None:
    _fail(session, PAIR, step=timedelta(seconds=1))
    now = T0 + timedelta(minutes=1)
    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=now) is not None

    rate_limit.clear_failures(session, email="ADA@example.com")

    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=now) is None
    # The ten failures still count for the address: forty more from it reach its limit of fifty.
    for i in range(MAX_FAILURES_PER_ADDRESS - PAIR):
        rate_limit.record_failure(session, email=f"other{i}@example.com", ip_address=IP, now=now)
    throttle = rate_limit.check(session, email=EMAIL, ip_address=IP, now=now)
    assert throttle is not None
    assert throttle.scope == "address"


def test_an_unknown_client_address_is_not_one_shared_bucket(session: Session) -> None:
    for i in range(MAX_FAILURES_PER_ADDRESS + 5):
        rate_limit.record_failure(session, email=f"user{i}@example.com", ip_address="", now=T0)

    assert rate_limit.check(session, email="new@example.com", ip_address="", now=T0) is None


def test_the_worst_limit_wins(session: Session) -> None:
    _fail(session, PAIR, step=timedelta(seconds=0))  # the pair: free at T0 + 15 min
    for i in range(MAX_FAILURES_PER_ADDRESS - PAIR):
        rate_limit.record_failure(
            session, email=f"u{i}@example.com", ip_address=IP, now=T0 + timedelta(minutes=5)
        )

    throttle = rate_limit.check(session, email=EMAIL, ip_address=IP, now=T0 + timedelta(minutes=6))

    # The address's 50th-newest failure is at T0 → also T0 + 15 min; the pair's is the same.
    assert throttle is not None
    assert throttle.retry_after_seconds == 9 * 60


def test_prune_deletes_old_rows_and_recording_keeps_the_account_bounded(session: Session) -> None:
    _fail(session, 5, start=T0 - timedelta(hours=2))
    rate_limit.record_failure(session, email="bo@example.com", ip_address="198.51.100.9", now=T0)
    rate_limit.record_failure(session, email=EMAIL, ip_address="198.51.100.2", now=T0)

    # Recording for ada removed ada's own expired rows.
    assert session.exec(select(func.count()).select_from(SignInAttempt)).one() == 2

    _fail(session, 3, email="cy@example.com", ip="", start=T0 - timedelta(hours=1))
    assert rate_limit.prune(session, now=T0) == 3  # cy's three are an hour old
    assert rate_limit.prune(session, now=T0) == 0
    assert rate_limit.prune(session, older_than=timedelta(0), now=T0 + timedelta(seconds=1)) == 2


def test_a_second_worker_sees_the_first_workers_failures(session: Session, database_url: str) -> None:
    """Two engines (two processes' connection pools) on one database share the counters."""
    other_engine = create_db_engine(database_url)
    try:
        _fail(session, PAIR - 1)
        session.commit()  # worker 1's failures are committed

        with Session(other_engine) as worker2:
            now = T0 + timedelta(minutes=10)
            assert rate_limit.check(worker2, email=EMAIL, ip_address=IP, now=now) is None
            rate_limit.record_failure(worker2, email=EMAIL, ip_address=IP, now=now)
            worker2.commit()

        # Worker 1 sees worker 2's failure: ten from this address in the window now.
        throttle = rate_limit.check(session, email=EMAIL, ip_address=IP, now=T0 + timedelta(minutes=10))
        assert throttle is not None
        assert throttle.scope == "pair"

        with Session(other_engine) as worker2:
            rate_limit.clear_failures(worker2, email=EMAIL)
            worker2.commit()
        session.rollback()  # end worker 1's read transaction, as a new request would
        assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=T0 + timedelta(minutes=10)) is None
    finally:
        other_engine.dispose()


# --- public forms ------------------------------------------------------------------------------


def _submit(session: Session, count: int, *, form: str = "contact", client: str = IP) -> None:
    for i in range(count):
        rate_limit.record_submission(session, form=form, client=client, now=T0 + i * timedelta(minutes=1))


def test_a_form_is_refused_at_its_limit_per_client_until_the_oldest_submission_leaves_the_window(
    session: Session,
) -> None:
    _submit(session, 5)  # T0 … T0+4 min
    now = T0 + timedelta(minutes=4, seconds=30)

    throttle = rate_limit.check_submissions(session, form="contact", client=IP, limit=5, now=now)

    assert throttle == Throttle(
        retry_after_seconds=630, scope="contact", template=rate_limit.TOO_MANY_SUBMISSIONS
    )  # T0 + 15 min − now
    assert throttle.message == (
        "You have sent this form several times in a short while. Please wait 11 minutes and try again."
    )
    assert rate_limit.check_submissions(session, form="contact", client=IP, limit=6, now=now) is None
    assert rate_limit.check_submissions(session, form="contact", client=IP, limit=5, now=T0 + WINDOW) is None


def test_forms_and_clients_are_counted_apart_and_an_unknown_client_is_not_limited(session: Session) -> None:
    _submit(session, 5)
    _submit(session, 5, client="")
    now = T0 + timedelta(minutes=5)

    assert rate_limit.check_submissions(session, form="newsletter", client=IP, limit=5, now=now) is None
    assert (
        rate_limit.check_submissions(session, form="contact", client="198.51.100.1", limit=5, now=now) is None
    )
    assert rate_limit.check_submissions(session, form="contact", client="", limit=1, now=now) is None
    assert rate_limit.check(session, email=EMAIL, ip_address=IP, now=now) is None  # sign-ins unaffected


def test_prune_also_forgets_old_form_submissions(session: Session) -> None:
    _submit(session, 2)

    assert rate_limit.prune(session, now=T0 + timedelta(hours=1)) == 2
