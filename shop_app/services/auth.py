"""Customer account use-cases: register, sign in, verify the e-mail, reset the password, profile.

Answers never reveal whether an e-mail is registered: registering an existing address and asking
a reset for an unknown one look exactly like the ordinary cases to the person asking.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlencode

from sqlmodel import Session, col, select

from shop_app.domain import free_text, validation
from shop_app.domain.addresses import normalize_phone
from shop_app.domain.messages import AddressMessage, AuthMessage, CheckoutMessage
from shop_app.models import AuthToken, TokenPurpose, User
from shop_app.models.base import saved_id, utcnow
from shop_app.services import mail, rate_limit, sessions
from shop_app.services.ordering.forms import FIELD_LIMITS, CheckoutForm
from shop_app.services.passwords import hash_password, verify_password
from shop_app.settings import get_settings

VERIFY_TTL = timedelta(days=2)
RESET_TTL = timedelta(hours=1)
VERIFY_PATH = "/api/auth/verify"
RESET_PATH = "/reset-password"
MAILS_PER_ADDRESS = 3
"""Account mails (reset links, "you already have an account", verification) one address gets
within rate_limit.WINDOW: nobody can flood someone's inbox through the shop."""


class AuthError(ValueError):
    """A request was refused; the message is for the person who made it."""


@dataclass(frozen=True, slots=True)
class Links:
    """Where mailed links point (the shop's public origin) and the brand that signs the mails."""

    site_url: str
    brand: str


def register(
    session: Session,
    *,
    first_name: str,
    last_name: str,
    email: str,
    password: str,
    confirm_password: str,
    agree_to_terms: bool | None,
    links: Links,
    phone: str = "",
    client: str = "",
) -> None:
    """Create an account and mail a verification link (the dialog's rules; ``agree_to_terms``
    None means the /auth page's rules).

    An address that already has an account gets a mail saying so instead, and the caller sees
    the same success either way.
    """
    if agree_to_terms is None:
        problem = validation.validate_registration_page(
            first_name=first_name,
            last_name=last_name,
            email=email,
            password=password,
            confirm_password=confirm_password,
        )
    else:
        problem = validation.validate_registration_dialog(
            first_name=first_name,
            last_name=last_name,
            email=email,
            password=password,
            confirm_password=confirm_password,
            agree_to_terms=agree_to_terms,
        )
    if problem:
        raise AuthError(problem)
    first_name, last_name, phone = (
        free_text.one_line(first_name),
        free_text.one_line(last_name),
        free_text.one_line(phone),
    )
    problem = _profile_problem(first_name=first_name, last_name=last_name, phone=phone)
    if problem:
        raise AuthError(problem)
    phone = _phone(phone)
    _count_request(session, form="register", client=client)
    address = validation.normalize_email(email)
    password_hash = hash_password(password)  # spend the same time whether or not it is used
    existing = session.exec(select(User).where(User.email == address)).first()
    if existing is not None:
        if _may_mail(session, existing.email):
            _mail_already_registered(session, existing, links)
        return
    user = User(
        email=address, password_hash=password_hash, first_name=first_name, last_name=last_name, phone=phone
    )
    session.add(user)
    session.flush()
    _mail_verification(session, user, links)


def authenticate(
    session: Session, *, email: str, password: str, ip_address: str, browser_binding: str = ""
) -> User:
    """The account for these credentials; raises AuthError (throttled or invalid).

    ``browser_binding`` is the signing-in browser's binding cookie: a browser that signed in to
    the account before is held back only by its own failures (``services.rate_limit``).
    """
    address = validation.normalize_email(email)
    user = session.exec(select(User).where(User.email == address)).first()
    browser = sessions.hash_secret(browser_binding) if browser_binding else ""
    known = user is not None and sessions.is_known_browser(
        session, user_id=saved_id(user), browser_binding=browser_binding
    )
    throttle = rate_limit.check(
        session, email=address, ip_address=ip_address, known_browser=browser if known else ""
    )
    if throttle is not None:
        raise AuthError(throttle.message)
    password_ok = verify_password(password, user.password_hash if user else None)  # hashes even without user
    if user is None or not password_ok or not user.is_active:
        rate_limit.record_failure(session, email=address, ip_address=ip_address, browser_hash=browser)
        raise AuthError(AuthMessage.INVALID_CREDENTIALS)
    rate_limit.clear_failures(session, email=address)
    sessions.remember_browser(session, user_id=saved_id(user), browser_binding=browser_binding)
    user.last_sign_in_at = utcnow()
    session.add(user)
    session.flush()
    return user


def verify_email(session: Session, *, token: str) -> bool:
    """Confirm the address a verification link was sent to."""
    row = _spend(session, token, TokenPurpose.VERIFY_EMAIL)
    if row is None:
        return False
    user = session.get(User, row.user_id)
    if user is None:
        return False
    user.email_confirmed_at = user.email_confirmed_at or utcnow()
    session.add(user)
    session.flush()
    return True


def resend_verification(session: Session, *, user_id: int, links: Links) -> None:
    """Send a fresh verification link (older ones stop working)."""
    user = session.get(User, user_id)
    if user is not None and user.email_confirmed_at is None and _may_mail(session, user.email):
        _mail_verification(session, user, links)


def request_password_reset(session: Session, *, email: str, links: Links, client: str = "") -> str:
    """Mail a single-use reset link when the address has an account; answer the same either way.

    Raises AuthError when ``client`` (its address) asked too often; an address that has had
    ``MAILS_PER_ADDRESS`` account mails lately gets no more for a while (the answer is the same).
    """
    _count_request(session, form="password_reset", client=client)
    if validation.is_valid_email(email):
        user = session.exec(select(User).where(User.email == validation.normalize_email(email))).first()
        if user is not None and user.is_active and _may_mail(session, user.email):
            secret = _issue(session, user, TokenPurpose.RESET_PASSWORD, RESET_TTL)
            url = f"{links.site_url}{RESET_PATH}?{urlencode({'token': secret})}"
            _send(
                session,
                user,
                links,
                kind="password_reset",
                subject="Reset your password",
                paragraphs=[
                    "Someone asked to reset the password of your account. If it was you, "
                    "choose a new password with the link below. It works once, for one hour.",
                    "If you did not ask for this, you can ignore this email.",
                ],
                action=("Choose a new password", url),
            )
    return AuthMessage.RESET_LINK_SENT.value


def reset_password(session: Session, *, token: str, password: str, confirm_password: str) -> User:
    """Set a new password with a reset link; every session of the account ends."""
    problem = _new_password_problem(password, confirm_password)
    if problem:
        raise AuthError(problem)
    row = _spend(session, token, TokenPurpose.RESET_PASSWORD)
    user = session.get(User, row.user_id) if row else None
    if user is None:
        raise AuthError(AuthMessage.RESET_LINK_INVALID)
    user.password_hash = hash_password(password)
    user.email_confirmed_at = user.email_confirmed_at or utcnow()  # the link proved the address
    user.updated_at = utcnow()
    session.add(user)
    sessions.end_all(session, user_id=saved_id(user))
    rate_limit.clear_failures(session, email=user.email)
    session.flush()
    return user


def reset_token_is_valid(session: Session, token: str) -> bool:
    """Whether a reset link can still be used (without spending it)."""
    row = _find(session, token, TokenPurpose.RESET_PASSWORD)
    return row is not None and row.used_at is None and row.expires_at > utcnow()


def update_profile(session: Session, *, user_id: int, first_name: str, last_name: str, phone: str) -> User:
    """Save the editable profile fields (the e-mail cannot be changed)."""
    first_name, last_name, phone = (
        free_text.one_line(first_name),
        free_text.one_line(last_name),
        free_text.one_line(phone),
    )
    if not first_name or not last_name:
        raise AuthError(AuthMessage.REQUIRED_FIELDS)
    problem = _profile_problem(first_name=first_name, last_name=last_name, phone=phone)
    if problem:
        raise AuthError(problem)
    phone = _phone(phone)
    user = session.get(User, user_id)
    if user is None:
        raise AuthError(AuthMessage.SIGN_IN_REQUIRED)
    user.first_name, user.last_name, user.phone = first_name, last_name, phone
    user.updated_at = utcnow()
    session.add(user)
    session.flush()
    return user


def _profile_problem(**values: str) -> str | None:
    """A profile field longer than its column (the checkout form's labels and limits)."""
    for name, value in values.items():
        label, limit = FIELD_LIMITS[name]
        if len(value) > limit:
            return CheckoutMessage.FIELD_TOO_LONG.format(field=label, limit=limit)
    return None


def _phone(typed: str) -> str:
    """The phone as stored everywhere (``domain.addresses.normalize_phone``); refused when it is
    not a phone number. Empty stays empty (the phone is optional)."""
    phone = normalize_phone(typed)
    if phone is None:
        raise AuthError(AddressMessage.PHONE_INVALID)
    return phone


def _new_password_problem(password: str, confirm_password: str) -> str | None:
    if not password.strip() or not confirm_password.strip():
        return AuthMessage.ALL_FIELDS.value
    if password != confirm_password:
        return AuthMessage.PASSWORDS_DO_NOT_MATCH.value
    if len(password) < validation.MIN_PASSWORD_LENGTH:
        return AuthMessage.PASSWORD_TOO_SHORT.value
    if validation.is_password_too_long(password):
        return AuthMessage.PASSWORD_TOO_LONG.value
    return None


def _issue(session: Session, user: User, purpose: TokenPurpose, ttl: timedelta) -> str:
    """A new single-use token; unused older ones of the same purpose stop working."""
    now = utcnow()
    for old in session.exec(
        select(AuthToken).where(
            col(AuthToken.user_id) == user.id,
            col(AuthToken.purpose) == purpose,
            col(AuthToken.used_at).is_(None),
        )
    ):
        old.used_at = now
        session.add(old)
    secret = sessions.new_secret()
    session.add(
        AuthToken(
            user_id=saved_id(user),
            purpose=purpose,
            token_hash=sessions.hash_secret(secret),
            expires_at=now + ttl,
        )
    )
    session.flush()
    return secret


def _find(session: Session, token: str, purpose: TokenPurpose) -> AuthToken | None:
    if not token:
        return None
    return session.exec(
        select(AuthToken).where(
            AuthToken.token_hash == sessions.hash_secret(token), AuthToken.purpose == purpose
        )
    ).first()


def _spend(session: Session, token: str, purpose: TokenPurpose) -> AuthToken | None:
    row = _find(session, token, purpose)
    if row is None or row.used_at is not None or row.expires_at <= utcnow():
        return None
    row.used_at = utcnow()
    session.add(row)
    session.flush()
    return row


def _mail_verification(session: Session, user: User, links: Links) -> None:
    secret = _issue(session, user, TokenPurpose.VERIFY_EMAIL, VERIFY_TTL)
    url = f"{links.site_url}{VERIFY_PATH}?{urlencode({'token': secret})}"
    _send(
        session,
        user,
        links,
        kind="verify_email",
        subject="Please verify your email address",
        paragraphs=[
            "Thank you for creating an account. Please confirm your email address with the "
            "link below (it works for two days)."
        ],
        action=("Verify my email", url),
    )


def _count_request(session: Session, *, form: str, client: str) -> None:
    """Refuse (AuthError) a client address that made ``account_requests_per_client`` requests (a
    setting) within rate_limit.WINDOW: the shop must not send mail for a script to anyone."""
    limit = get_settings().account_requests_per_client  # ACCOUNT_REQUESTS_PER_CLIENT, 10 by default
    throttle = rate_limit.check_submissions(session, form=form, client=client, limit=limit)
    if throttle is not None:
        raise AuthError(throttle.message)
    rate_limit.record_submission(session, form=form, client=client)


def _may_mail(session: Session, email: str) -> bool:
    """Whether an account mail may go to this address now (and count it)."""
    recipient = sessions.hash_secret(email.strip().lower())  # counted by hash, not by address
    if rate_limit.check_submissions(session, form="account_mail", client=recipient, limit=MAILS_PER_ADDRESS):
        return False
    rate_limit.record_submission(session, form="account_mail", client=recipient)
    return True


def _mail_already_registered(session: Session, user: User, links: Links) -> None:
    _send(
        session,
        user,
        links,
        kind="already_registered",
        subject="You already have an account",
        paragraphs=[
            "Someone tried to create an account with this email address, which already has one. "
            "If it was you, sign in, or reset your password if you have forgotten it.",
            "If it was not you, you can ignore this email.",
        ],
        action=("Sign in", f"{links.site_url}/auth"),
    )


def _send(
    session: Session,
    user: User,
    links: Links,
    *,
    kind: str,
    subject: str,
    paragraphs: list[str],
    action: tuple[str, str],
) -> None:
    mail.send_shop_mail(
        session,
        to=user.email,
        subject=f"{subject} | {links.brand}",
        kind=kind,
        brand=links.brand,
        greeting=f"Hello {user.first_name or 'there'},",
        paragraphs=paragraphs,
        action_label=action[0],
        action_url=action[1],
    )


def save_default_address(session: Session, *, user_id: int, form: CheckoutForm) -> None:
    """Remember a checkout's shipping address (and phone) as the customer's default.

    Called after the order was placed, so the form passed validation: the fields are stored as
    the order stored them (``CheckoutForm.cleaned``: province code, postal code, phone).
    """
    user = session.get(User, user_id)
    if user is None:
        return
    clean = form.cleaned()
    user.address, user.address_line2 = clean.address, clean.address_line2
    user.city, user.state, user.zip_code, user.country = (
        clean.city,
        clean.state,
        clean.zip_code,
        clean.country,
    )
    if clean.phone:
        user.phone = clean.phone
    user.updated_at = utcnow()
    session.add(user)
    session.flush()
