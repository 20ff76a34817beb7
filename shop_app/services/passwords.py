"""Password hashing with bcrypt (cost 12, docs/architecture.md#sessions)."""

from __future__ import annotations

import bcrypt

from shop_app.domain.messages import AuthMessage
from shop_app.domain.validation import MAX_PASSWORD_BYTES, is_password_too_long

BCRYPT_ROUNDS = 12

# Verified against when an account does not exist, so a wrong e-mail costs the same time as a
# wrong password (no account enumeration by timing).
_DUMMY_HASH = bcrypt.hashpw(b"not-a-real-password", bcrypt.gensalt(BCRYPT_ROUNDS))


def hash_password(password: str, *, rounds: int = BCRYPT_ROUNDS) -> str:
    """Hash ``password``. Raises ValueError when it is longer than bcrypt's 72 bytes."""
    if is_password_too_long(password):
        raise ValueError(AuthMessage.PASSWORD_TOO_LONG)
    return bcrypt.hashpw(password.encode("utf-8"), bcrypt.gensalt(rounds)).decode("ascii")


def verify_password(password: str, password_hash: str | None) -> bool:
    """Whether ``password`` matches ``password_hash``; spends the same time when there is none.

    A password over 72 bytes never matches (we never hash one), but still costs a bcrypt check.
    """
    secret = password.encode("utf-8")
    if is_password_too_long(password):
        secret, password_hash = secret[:MAX_PASSWORD_BYTES], None
    if not password_hash:
        bcrypt.checkpw(secret, _DUMMY_HASH)
        return False
    try:
        return bcrypt.checkpw(secret, password_hash.encode("ascii"))
    except ValueError:
        return False
