"""The shop's message catalogue, and which of its texts are the seeds' own (copied verbatim).

Two tests read it: the verbatim check (tests/unit/domain/test_messages_and_purity.py) and the
check that every seed message has a browser journey (tests/unit/test_message_journeys.py).
"""

from __future__ import annotations

from enum import StrEnum

from shop_app.domain import admin_messages, messages

# Texts that are ours (the seed has no wording for them) or that the seed abbreviates.
NOT_VERBATIM_IN_SEED = {
    messages.AuthMessage.PASSWORD_TOO_LONG: "ours: bcrypt 72-byte limit",
    admin_messages.ProductAdminMessage.SYNC_KEPT: "ours: a sync never undoes an edit made in the shop",
    admin_messages.ProductAdminMessage.CHANGED_ELSEWHERE: "ours: an editor never undoes another's save",
    messages.AuthMessage.ADMIN_PASSWORD_TOO_SHORT: "ours: docs/architecture.md#sessions admin minimum",
    messages.CheckoutMessage.UNKNOWN_COUNTRY: "ours: the seed only uses a dropdown",
    messages.CheckoutMessage.FIELD_TOO_LONG: "ours: input longer than its column",
    messages.PaymentMessage.BEING_CONFIRMED: "ours: unknown payment outcome, reconciled later",
    messages.OrderMessage.BUSY: "ours: SQLite write lock busy, retry later",
    messages.ServiceMessage.TRY_AGAIN: "ours: an event handler failed (database or Redis restarting)",
    messages.ServiceMessage.RECONNECTED: "ours: the page state was lost and is reloaded from the browser",
    messages.DisplayText.SHOWING_ONE_PRODUCT: "ours: the seed's count in the singular",
    messages.DisplayText.LOADING_ACCOUNT: "ours: the account pages' placeholder until their data arrives",
    messages.DisplayText.LOADING_CHECKOUT: "ours: the checkout's placeholder until its cart arrives",
    messages.DisplayText.EMPTY_CHECKOUT_HINT: "ours: the empty checkout's line under its heading",
    messages.DisplayText.CART_ESTIMATE_HINT: "ours: the cart drawer's totals assume the shop's province",
    messages.DisplayText.FREE_SHIPPING_AWAY: "ours (issue 19): the cart's distance to free shipping",
    messages.DisplayText.FREE_SHIPPING_REACHED: "ours: the cart ships free in its zone",
    messages.DisplayText.LOADING_PRODUCT: "ours: the product page's placeholder (a link inside the app)",
    messages.CheckoutMessage.SIGN_IN_OR_GUEST: "ours: guest checkout unticked while signed out",
    messages.CheckoutMessage.CART_CHANGED: "ours: a stale checkout page; nothing charged, summary refreshed",
    messages.CheckoutMessage.TAXES_UPDATED: "ours: the summary's taxes were not the address's",
    messages.CheckoutMessage.NOTHING_TO_PAY: "ours (issue 19): a code that covers the whole order",
    **dict.fromkeys(messages.DiscountMessage, "ours (issue 19): discount codes"),
    messages.CheckoutMessage.TOTAL_UPDATED: "ours: Place Order with a total not shown yet",
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
        "ours: category rules the spec states without wording (docs/spec/admin-categories.md#rules)",
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
        "ours: admin rules the seed states without wording (docs/spec/admin-people.md#admin-rules)",
    ),
    admin_messages.AdminLabel.STATUS_GUEST: "ours: View Users lists guests who ordered (issue 17)",
    admin_messages.AdminUserMessage.GUEST_NOT_FOUND: "ours: a guest's details asked by an unknown e-mail",
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
    **dict.fromkeys(
        (
            admin_messages.ProductDraftText.CATEGORY_REQUIRED,
            admin_messages.ProductDraftText.COLLECTION_REQUIRED,
        ),
        "ours: the product editors' one rule set files every product (issue 17, acceptance 4)",
    ),
    **dict.fromkeys(admin_messages.OrderAdminMessage, "ours: the seed has the status call, not the screen"),
    **dict.fromkeys(admin_messages.DiscountAdminMessage, "ours (issue 19): the Discount Codes screen"),
    **dict.fromkeys(admin_messages.DiscountLabel, "ours (issue 19): the Discount Codes list"),
}


def catalogue() -> list[StrEnum]:
    """Every message and label of domain/messages.py and domain/admin_messages.py."""
    members: list[StrEnum] = []
    for module in (messages, admin_messages):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, StrEnum) and value is not StrEnum:
                members.extend(value)
    return members


def seed_messages() -> list[StrEnum]:
    """The messages whose text is the seeds' own: every one is shown in a browser journey."""
    return [member for member in catalogue() if member not in NOT_VERBATIM_IN_SEED]
