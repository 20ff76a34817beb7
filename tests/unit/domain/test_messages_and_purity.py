"""The message catalogue matches the seeds verbatim; the domain package stays pure.

The seed check reads the specification files next to the repository (``../shared/seeds`` or
``$SHOP_SEEDS_DIR``) and is skipped where they are not available.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import os
import re
import sys
from enum import StrEnum
from pathlib import Path

import pytest

import shop_app.domain
from shop_app.domain import admin_messages, messages

DOMAIN_DIR = Path(shop_app.domain.__file__).parent
DOMAIN_MODULES = sorted(p.stem for p in DOMAIN_DIR.glob("*.py") if p.stem != "__init__")
# shared/ sits beside the repository (locally and in CI).
SEEDS_DIR = Path(os.environ.get("SHOP_SEEDS_DIR", Path(__file__).resolve().parents[4] / "shared" / "seeds"))

# Texts that are ours (the seed has no wording for them) or that the seed abbreviates.
NOT_VERBATIM_IN_SEED = {
    messages.AuthMessage.PASSWORD_TOO_LONG: "ours: bcrypt 72-byte limit",
    messages.AuthMessage.ADMIN_PASSWORD_TOO_SHORT: "ours: DESIGN.md §4 admin minimum",
    messages.CheckoutMessage.UNKNOWN_COUNTRY: "ours: the seed only uses a dropdown",
    messages.CheckoutMessage.FIELD_TOO_LONG: "ours: input longer than its column",
    messages.PaymentMessage.BEING_CONFIRMED: "ours: unknown payment outcome, reconciled later",
    messages.OrderMessage.BUSY: "ours: SQLite write lock busy, retry later",
    messages.ServiceMessage.TRY_AGAIN: "ours: an event handler failed (database or Redis restarting)",
    messages.ServiceMessage.RECONNECTED: "ours: the page state was lost and is reloaded from the browser",
    messages.DisplayText.SHOWING_ONE_PRODUCT: "ours: the seed's count in the singular",
    messages.CheckoutMessage.SIGN_IN_OR_GUEST: "ours: guest checkout unticked while signed out",
    messages.StockText.SOLD_OUT_MARK: "ours: a sold-out scent in a list stays choosable, marked",
    messages.ServiceMessage.BAD_REQUEST: "ours: the event guard refused a request no page sends",
    messages.ServiceMessage.NOT_ALLOWED: "ours: a back-office action from a non-administrator",
    messages.OrderMessage.ALREADY_PAYING: "ours: one checkout per cart; another tab is paying it",
    **dict.fromkeys(messages.DeclineMessage, "ours: the seed shows the provider's raw decline text"),
    **dict.fromkeys(messages.OrderLookupMessage, "ours: the seed has no way for a guest to find an order"),
    **dict.fromkeys(
        (
            messages.AuthMessage.INVALID_CREDENTIALS,
            messages.AuthMessage.RESET_LINK_SENT,
            messages.AuthMessage.RESET_LINK_INVALID,
            messages.AuthMessage.PASSWORD_CHANGED,
            messages.AuthMessage.EMAIL_VERIFIED,
            messages.AuthMessage.VERIFICATION_LINK_INVALID,
            messages.AuthMessage.VERIFICATION_SENT,
            messages.AuthMessage.SIGNED_OUT,
            messages.AuthMessage.SIGN_IN_REQUIRED,
        ),
        "ours: account flows the seed leaves to its auth provider",
    ),
    messages.NewsletterMessage.SUBSCRIBED: "ours: the seed shows no result",
    messages.NewsletterMessage.CONFIRM_UNSUBSCRIBE: "ours: the seed has no unsubscribe page",
    messages.NewsletterMessage.UNSUBSCRIBED: "ours: the seed has no unsubscribe page",
    messages.NewsletterMessage.UNSUBSCRIBE_LINK_INVALID: "ours: the seed has no unsubscribe page",
    **dict.fromkeys(messages.ContactText, "ours: the seed's contact form only says the fields are required"),
    messages.CartMessage.PRODUCT_UNAVAILABLE: "ours: archived since it was shown",
    messages.CartMessage.INVALID_OPTION: "ours: option the product does not offer",
    messages.OrderMessage.FETCH_ORDER_FAILED: "seed: 'Failed to fetch order(s)'",
    messages.OrderMessage.FETCH_ORDERS_FAILED: "seed: 'Failed to fetch order(s)'",
    admin_messages.CategoryMessage.UPDATED: "seed: 'created successfully' / 'updated'",
    admin_messages.CategoryMessage.DELETED: "seed: 'created successfully' / 'deleted'",
    admin_messages.CategoryMessage.UPDATE_FAILED: "seed: 'Failed to create/update/delete'",
    admin_messages.CategoryMessage.DELETE_FAILED: "seed: 'Failed to create/update/delete'",
    admin_messages.CategoryMessage.CREATE_FAILED: "seed: 'Failed to create/update/delete'",
    **dict.fromkeys(
        (
            admin_messages.CategoryMessage.NAME_REQUIRED,
            admin_messages.CategoryMessage.NAME_TOO_LONG,
            admin_messages.CategoryMessage.NAME_WITHOUT_SLUG,
            admin_messages.CategoryMessage.SLUG_TAKEN,
            admin_messages.CategoryMessage.SORT_ORDER_INVALID,
            admin_messages.CategoryMessage.NOT_FOUND,
            admin_messages.CategoryMessage.PARENT_NOT_FOUND,
            admin_messages.CategoryMessage.OWN_PARENT,
            admin_messages.CategoryMessage.PARENT_NOT_MAIN,
            admin_messages.CategoryMessage.HAS_SUBCATEGORIES,
            admin_messages.CategoryMessage.DELETE_HAS_SUBCATEGORIES,
            admin_messages.CategoryMessage.DELETE_HAS_PRODUCTS,
        ),
        "ours: category rules the seed states without wording (§3, §5)",
    ),
    **dict.fromkeys(messages.MoneyMessage, "ours: money input errors"),
    **dict.fromkeys(
        messages.AddressMessage,
        "ours: where the shop ships and address/phone formats; the seed only requires the fields",
    ),
    **dict.fromkeys(admin_messages.StoreSettingsMessage, "ours: the seed's settings form has no texts"),
    **dict.fromkeys(
        (
            admin_messages.AdminUserMessage.ROLE_NOT_OFFERED,
            admin_messages.AdminUserMessage.ADMIN_GONE,
            admin_messages.AdminUserMessage.CANNOT_REMOVE_SELF,
            admin_messages.AdminUserMessage.LAST_ADMIN,
        ),
        "ours: admin rules the seed states without wording (001 §5, §6)",
    ),
    **dict.fromkeys(
        (
            admin_messages.ProductDraftText.STOCK_INVALID,
            admin_messages.ProductDraftText.WEIGHT_INVALID,
            admin_messages.ProductDraftText.AMOUNT_TOO_LARGE,
            admin_messages.ProductDraftText.TOO_LONG,
            admin_messages.ProductDraftText.SKU_TAKEN,
            admin_messages.ProductDraftText.CATEGORY_NOT_FOUND,
            admin_messages.ProductDraftText.COLLECTION_NOT_IN_CATEGORY,
            admin_messages.ProductDraftText.IMAGE_GONE,
            admin_messages.ProductDraftText.PRODUCT_NOT_FOUND,
        ),
        "ours: product wizard and form input the seed leaves to the browser or the database",
    ),
    **dict.fromkeys(admin_messages.OrderAdminMessage, "ours: the seed has the status call, not the screen"),
}

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _catalogue() -> list[StrEnum]:
    members: list[StrEnum] = []
    for module in (messages, admin_messages):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, StrEnum) and value is not StrEnum:
                members.extend(value)
    return members


def _seed_text() -> str:
    files = sorted(SEEDS_DIR.glob("*.txt")) if SEEDS_DIR.is_dir() else []
    if not files:
        pytest.skip(f"seed files not available in {SEEDS_DIR}")
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


@pytest.mark.parametrize(
    "member",
    [member for member in _catalogue() if member not in NOT_VERBATIM_IN_SEED],
    ids=lambda m: f"{type(m).__name__}.{m.name}",
)
def test_message_is_copied_verbatim_from_the_seed(member: StrEnum) -> None:
    seed = _seed_text()
    text = member.value
    # Placeholder names may differ ({n} vs {product name}); the seed also writes "N" for {n}.
    same_with_placeholders = _PLACEHOLDER.sub("{}", text) in _PLACEHOLDER.sub("{}", seed)
    same_with_n = text.replace("{n}", "N") in seed
    assert same_with_placeholders or same_with_n, f"not in the seeds: {text!r}"


def test_exemptions_are_catalogue_members() -> None:
    assert set(NOT_VERBATIM_IN_SEED) <= set(_catalogue())


def test_catalogue_has_no_duplicate_members_within_a_group() -> None:
    for module in (messages, admin_messages):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, StrEnum) and value is not StrEnum:
                # A repeated value would silently become an alias of the first member.
                assert len(value.__members__) == len(list(value)), value.__name__


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", DOMAIN_MODULES)
def test_domain_imports_only_the_standard_library_and_itself(module: str) -> None:
    for name in _imported_modules(DOMAIN_DIR / f"{module}.py"):
        top = name.split(".")[0]
        assert top in sys.stdlib_module_names or name.startswith("shop_app.domain"), name
        assert top not in {"reflex", "sqlmodel", "sqlalchemy", "pydantic"}


@pytest.mark.parametrize("module", DOMAIN_MODULES)
def test_domain_module_uses_postponed_annotations(module: str) -> None:
    source = (DOMAIN_DIR / f"{module}.py").read_text(encoding="utf-8")
    assert "from __future__ import annotations" in source


@pytest.mark.parametrize("module", DOMAIN_MODULES)
def test_docstring_examples_hold(module: str) -> None:
    imported = importlib.import_module(f"shop_app.domain.{module}")
    result = doctest.testmod(imported, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
