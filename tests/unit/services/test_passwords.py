"""Password hashing: bcrypt cost 12, the 72-byte limit, and no shortcut for unknown accounts."""

from __future__ import annotations

import pytest

from shop_app.services.passwords import BCRYPT_ROUNDS, hash_password, verify_password


def test_hash_uses_cost_12_and_verifies() -> None:
    hashed = hash_password("correct horse battery")

    assert hashed.startswith(f"$2b${BCRYPT_ROUNDS}$")
    assert BCRYPT_ROUNDS == 12
    assert verify_password("correct horse battery", hashed)
    assert not verify_password("correct horse batterY", hashed)


def test_same_password_hashes_differently_each_time() -> None:
    assert hash_password("lavender", rounds=4) != hash_password("lavender", rounds=4)


def test_password_over_72_bytes_is_refused_with_a_clear_message() -> None:
    # 24 three-byte characters = 72 bytes: accepted; one more ASCII byte: refused.
    at_limit = "€" * 24
    assert verify_password(at_limit, hash_password(at_limit, rounds=4))

    with pytest.raises(ValueError, match="at most 72 bytes"):
        hash_password(at_limit + "a", rounds=4)


def test_over_long_password_never_matches() -> None:
    hashed = hash_password("a" * 72, rounds=4)

    assert not verify_password("a" * 73, hashed)


@pytest.mark.parametrize("stored", [None, "", "not-a-bcrypt-hash"])
def test_missing_or_broken_hash_never_matches(stored: str | None) -> None:
    assert not verify_password("anything", stored)
