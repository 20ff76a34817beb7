"""Every user-visible text of the storefront rules, in one place (docs/architecture.md#messages).

The strings marked *seed* are copied verbatim from the shop's specification (``docs/spec/``:
the checks and messages of account.md, cart.md, checkout.md, orders.md and storefront.md) and
must not be reworded. Strings marked *ours* fill gaps the specification leaves open; they follow
its tone.

Templates use :meth:`str.format` placeholders with the names given in each comment; prefer the
helper functions of the rule modules (for example
:func:`shop_app.domain.validation.insufficient_stock_message`) over formatting them by hand.

Each group is a :class:`~enum.StrEnum`, so a member *is* its text: it can be compared with, stored
as, or rendered like a plain ``str``.
"""

from __future__ import annotations

from enum import StrEnum


class AuthMessage(StrEnum):
    """Sign-in, registration and profile texts (docs/spec/account.md#auth-states, #validation, #messages)."""

    REQUIRED_FIELDS = "Please fill in all required fields"  # seed: dialog
    ALL_FIELDS = "Please fill in all fields"  # seed: /auth page
    AGREE_TO_TERMS = "Please agree to the terms and conditions"  # seed
    PASSWORDS_DO_NOT_MATCH = "Passwords do not match"  # seed
    PASSWORD_TOO_SHORT = "Password must be at least 6 characters long"  # seed
    INVALID_EMAIL = "Please enter a valid email address"  # seed
    # ours: bcrypt only reads the first 72 bytes of a password (docs/architecture.md#sessions).
    PASSWORD_TOO_LONG = (
        "Password must be at most 72 bytes long "
        "(accented and non-Latin characters count as 2 to 4 bytes each)"
    )
    # ours: administrators need longer passwords (docs/architecture.md#sessions).
    ADMIN_PASSWORD_TOO_SHORT = "Password must be at least 12 characters long"
    LOGIN_FAILED = "Login failed"  # seed
    UNEXPECTED_ERROR = "An unexpected error occurred"  # seed: dialog
    LOGIN_ERROR = "An error occurred during login"  # seed: page, provider fallback
    SIGNUP_ERROR = "An error occurred during signup"  # seed: provider fallback
    REGISTRATION_FAILED = "Registration failed"  # seed
    REGISTRATION_ERROR = "An error occurred during registration"  # seed: page
    WELCOME_BACK = "Welcome back!"  # seed
    ACCOUNT_CREATED = (  # seed
        "Account created successfully! Please check your email to verify your account."
    )
    PROFILE_UPDATED = "Profile updated successfully!"  # seed
    SIGNING_IN = "Signing In..."  # seed: submit button while busy
    CREATING_ACCOUNT = "Creating Account..."  # seed: submit button while busy
    # ours: the same answer for an unknown e-mail and a wrong password (no account enumeration).
    INVALID_CREDENTIALS = "Invalid email or password"
    # ours: the same answer whether or not the e-mail is registered.
    RESET_LINK_SENT = "If an account exists for that email, we have sent a link to reset your password."
    RESET_LINK_INVALID = "This password reset link is invalid or has expired. Please request a new one."
    PASSWORD_CHANGED = "Your password has been changed. Please sign in with your new password."
    EMAIL_VERIFIED = "Thank you! Your email address is verified."
    VERIFICATION_LINK_INVALID = "This verification link is invalid or has expired."
    VERIFICATION_SENT = "We have sent you a new verification email."
    SIGNED_OUT = "You have been signed out."
    SIGN_IN_REQUIRED = "Please sign in to continue."


class DiscountMessage(StrEnum):
    """Discount codes in the cart and at checkout (issue 19: all ours). Placeholders: amount, code."""

    UNKNOWN = "This code is not valid. Please check it and try again."
    INACTIVE = "This code is no longer available."  # the owner switched it off
    NOT_STARTED = "This code is not active yet."
    EXPIRED = "This code has expired."
    USED_UP = "This code has been used up."
    ALREADY_USED = "You have already used this code."
    NOT_FOR_ITEMS = "This code does not apply to the items in your cart."
    MINIMUM = "This code needs a subtotal of {amount} or more."
    APPLIED = "Code {code} applied."
    REMOVED = "Code removed."
    # place_order: the code the page showed no longer applies (it was used up meanwhile…)
    NO_LONGER_APPLIES = (
        "{reason} Your total is now without the discount: please check it and place your order again."
    )


class CheckoutMessage(StrEnum):
    """Checkout form texts (docs/spec/checkout.md#validation)."""

    REQUIRED_FIELDS = "Please fill in all required fields"  # seed
    INVALID_EMAIL = "Please enter a valid email address"  # seed
    UNKNOWN_COUNTRY = "Please select a country from the list"  # ours
    # ours: "Check out as a guest" unticked by a shopper who has not signed in
    SIGN_IN_OR_GUEST = "Please sign in or create an account, or tick “Check out as a guest”."
    # ours: a field longer than its database column (placeholders: field, limit)
    FIELD_TOO_LONG = "{field} can be at most {limit} characters long"
    # ours: the cart changed (another tab, the cart drawer, a new price) since this page showed it
    CART_CHANGED = (
        "Your cart has changed since this page showed it. Please check your order and place it again."
    )
    # ours: Place Order with an address whose taxes the summary did not show yet (autofill)
    TAXES_UPDATED = (
        "Your taxes were updated for your shipping address. "
        "Please check your total and place your order again."
    )
    # ours: Place Order pressed with a total the page had not shown yet (a province typed just before)
    TOTAL_UPDATED = "Your total was updated. Please check it and place your order again."
    # ours (issue 19): a discount that leaves nothing to pay (no card can be charged $0.00)
    NOTHING_TO_PAY = (
        "Your discount covers the whole order, and an order of $0.00 cannot be paid online. "
        "Please remove the code, or contact us and we will send it to you."
    )


class AddressMessage(StrEnum):
    """Shipping address and phone texts (all ours: the seed only requires the fields).

    Each names the field it is about. Placeholders: countries, country, postal_code, province.
    """

    # ours: a listed country the store settings do not ship to (a forged form, or a saved address)
    COUNTRY_NOT_SHIPPED = "Country: we ship to {countries} only. Please choose one of them."
    # ours: a signed-in customer's saved address is in a country no longer shipped to
    SAVED_ADDRESS_NOT_SHIPPED = (
        "Your saved address is in {country}, where we no longer ship. Please enter an address in {countries}."
    )
    PROVINCE_INVALID = (
        "Province: please enter a Canadian province or territory, for example BC or British Columbia"
    )
    STATE_INVALID = "State: please enter a US state or DC, for example WA or Washington"
    POSTAL_CODE_INVALID = "Postal code: please enter a Canadian postal code like V5K 0A1"
    POSTAL_CODE_NOT_IN_PROVINCE = (
        "Postal code: {postal_code} is not in {province}. Please check the postal code and the province"
    )
    ZIP_CODE_INVALID = "ZIP code: please enter 5 digits like 98101, or ZIP+4 like 98101-1234"
    OTHER_POSTAL_CODE_INVALID = "Postal code: please enter 2 to 10 letters, digits, spaces or hyphens"
    PHONE_INVALID = (
        "Phone: please enter a phone number of 7 to 15 digits, for example 604-555-0123 "
        "(spaces, +, -, brackets, dots and an extension like x12 are fine)"
    )


class CartMessage(StrEnum):
    """Cart and add-to-cart texts (docs/spec/layout.md#cart-drawer; docs/spec/cart.md#pricing, #messages)."""

    # seed; placeholders: quantity, product_name. The option values follow in parentheses.
    ADDED = "Added {quantity} {product_name} to your cart"
    SELECT_A_SCENT = "Select a Scent"  # seed: Add to Cart disabled until a scent is chosen
    EMPTY_DRAWER = "Your cart is empty"  # seed
    EMPTY_CHECKOUT = "Your Cart is Empty"  # seed
    # ours: a product archived or deleted since the shopper saw it
    PRODUCT_UNAVAILABLE = "This product is no longer available"
    # ours: an option value the product does not offer (e.g. a forged request)
    INVALID_OPTION = "Please choose one of the offered options"


class StockText(StrEnum):
    """Stock display (docs/spec/storefront.md#stock). Placeholder: n."""

    OUT_OF_STOCK = "Out of Stock"  # seed
    ONLY_N_LEFT = "Only {n} left"  # seed: "Only N left"
    N_IN_STOCK = "{n} in stock"  # seed: "N in stock"
    IN_STOCK = "In Stock"  # docs/spec/admin-products.md#grouped: the variant badge
    SOLD_OUT_MARK = "(sold out)"  # ours: after a scent in a card's or product page's list


class WishlistMessage(StrEnum):
    """Favourites texts (docs/spec/account.md#wishlist-messages)."""

    ADDED = "Added to wishlist"
    REMOVED = "Removed from wishlist"
    LOAD_FAILED = "Failed to load wishlist"
    ADD_FAILED = "Failed to add to wishlist"
    REMOVE_FAILED = "Failed to remove from wishlist"
    SIGN_IN_REQUIRED = "Please sign in to add items to your wishlist"
    ALREADY_IN_WISHLIST = "Item is already in your wishlist"  # shown as info, not error


class OrderMessage(StrEnum):
    """Order creation and retrieval errors (docs/spec/orders.md#stock-check, #messages;
    docs/spec/limits.md#storefront)."""

    STOCK_CHECK_FAILED = "Failed to check stock for product"
    # seed: 'Insufficient stock for "{product}". Available: {n}, Requested: {n}'
    INSUFFICIENT_STOCK = 'Insufficient stock for "{product}". Available: {available}, Requested: {requested}'
    ORDER_NUMBER_FAILED = "Failed to generate order number"
    CREATE_FAILED = "Failed to create order"
    ITEMS_FAILED = "Failed to create order items"
    ADDRESS_FAILED = "Failed to create shipping address"
    FETCH_ORDER_FAILED = "Failed to fetch order"  # seed writes "Failed to fetch order(s)"
    FETCH_ORDERS_FAILED = "Failed to fetch orders"
    UPDATE_STATUS_FAILED = "Failed to update order status"
    NOT_AUTHENTICATED = "User not authenticated"
    UNKNOWN_PRODUCT = "Unknown Product"  # docs/spec/limits.md#storefront: name fallback
    # ours: SQLite's write lock stayed taken longer than the busy timeout; nothing was written
    BUSY = "We could not place your order because the shop is very busy. Please try again in a moment."
    # ours: the same cart is being paid for in another tab, window or device (one checkout per cart)
    ALREADY_PAYING = (
        "This cart is already being paid for in another tab or window. "
        "Please wait a moment and check your email for a confirmation before trying again."
    )


class OrderLookupMessage(StrEnum):
    """Finding an order without an account: the signed link of its mails, or e-mail + number (ours)."""

    # ours: the same answer for a number that does not exist and an e-mail that is not the order's
    NOT_FOUND = (
        "We could not find an order with that email address and order number. "
        "Please check both (the order number is in your confirmation email) and try again."
    )
    REQUIRED = "Please enter your email address and your order number."
    # ours: the signed link is wrong, cut short, revoked, or its order was never paid
    LINK_INVALID = (
        "This order link is not valid. Please copy the whole link from your email, "
        "or look your order up with your email address and order number."
    )
    # ours: under the order number on the thank-you page and in the confirmation mail
    HOW_TO_FIND = (
        "Keep your order number: with it and your email address you can check this order's status "
        "at any time."
    )


class PaymentMessage(StrEnum):
    """Payment texts (docs/spec/checkout.md#payment-messages). Placeholder of ``SQUARE_API_ERROR``: detail."""

    PAYPAL_FAILED = "PayPal payment failed. Please try again."
    CARD_FAILED = "Payment failed. Please try again."
    PROCESSING_FAILED = "Payment processing failed"
    SQUARE_API_ERROR = "Square API Error: {detail}"
    FAILED = "Payment failed"
    NO_PAYMENT_OBJECT = "Payment processing failed - no payment object returned"
    INVALID_APPLICATION_ID = "The Payment applicationId option is not in the correct format"
    SDK_LOAD_FAILED = "Square.js failed to load properly."
    # ours: the provider did not answer; the outcome is reconciled before anything final is said
    BEING_CONFIRMED = (
        "We are confirming your payment. Please do not pay again; we will email you the result shortly."
    )


class DeclineMessage(StrEnum):
    """What a shopper is told when a card payment does not go through (all ours).

    One plain sentence per kind of refusal, chosen from Square's error code by
    :func:`shop_app.domain.payment_errors.decline_message`; a code it does not know gets the seed's
    ``PaymentMessage.CARD_FAILED``. No sentence names a code or the payment provider: the code is
    kept in the log and in the payment row for the shop.
    """

    DECLINED = (
        "Your card was declined and nothing was charged. "
        "Please try another card, or contact your bank to find out why."
    )
    CALL_BANK = (
        "Your bank wants to speak with you before it approves this payment. Nothing was charged. "
        "Please call the number on the back of your card, or use another card."
    )
    SECURITY_CODE = (
        "The security code (CVV) does not match this card. "
        "Please check the 3 or 4 digits on your card and try again."
    )
    POSTAL_CODE = (
        "The postal or ZIP code does not match this card's billing address. Please check it and try again."
    )
    EXPIRATION = (
        "The expiration date does not match this card. Please check the month and year and try again."
    )
    EXPIRED = "This card has expired. Please use another card."
    CARD_NUMBER = "The card number is not valid. Please check it and try again."
    CARD_DETAILS = (
        "We could not read your card details. Please check the card number, "
        "expiration date and security code and try again."
    )
    FUNDS = (
        "There are not enough funds on this card for this order. Nothing was charged. "
        "Please use another card."
    )
    GIFT_CARD_BALANCE = (
        "The gift card's balance does not cover this order. Nothing was charged. "
        "Please pay with another card."
    )
    CARD_LIMIT = (
        "This order is over the limit your bank allows on this card. Nothing was charged. "
        "Please use another card, or contact your bank."
    )
    SHOP_LIMIT = (
        "We cannot take a card payment of this size online. Nothing was charged. "
        "Please contact us and we will help you complete your order."
    )
    VERIFICATION = (
        "Your bank needs to verify this payment. Nothing was charged. "
        "Please try again and complete your bank's check, or use another card."
    )
    NOT_ACCEPTED = "This card cannot be used for online payments here. Please use another card."
    RESTRICTED = "Your card's issuer does not allow it to be used for this purchase. Please use another card."
    ACCOUNT = (
        "Your bank could not find the account behind this card. "
        "Please use another card, or contact your bank."
    )
    PIN = "Your bank did not accept this card's PIN. Please use another card, or contact your bank."
    ENTER_CARD_AGAIN = (
        "Your card details expired before the payment went through. Nothing was charged. "
        "Please enter your card again and place your order."
    )
    EMAIL = "Your email address was not accepted for this payment. Please check it and try again."
    PHONE = "Your phone number was not accepted for this payment. Please check it and try again."
    TEMPORARY = (
        "The payment could not be processed because of a temporary problem. Nothing was charged. "
        "Please try again in a moment."
    )
    SHOP_PROBLEM = (
        "We could not take your payment because of a problem on our side. Nothing was charged. "
        "Please try again later, or contact us and we will help you complete your order."
    )


class ServiceMessage(StrEnum):
    """The shop itself failing (all ours): a database or Redis restart, a bug."""

    # ours: an event handler raised; nothing was half-written (each write is one transaction)
    TRY_AGAIN = "Something went wrong on our side. Please try again in a moment."
    # ours: the server lost this tab's page state (Redis restarted, an hour idle) and reloaded it
    RECONNECTED = "We reconnected this page. Please try that again."
    # ours: the event guard refused a request no page of the shop sends (state/event_guard.py)
    BAD_REQUEST = "That request could not be handled. Please reload the page and try again."
    # ours: a back-office action from someone who is not (or no longer) an administrator
    NOT_ALLOWED = "You don't have permission to do that."


class MoneyMessage(StrEnum):
    """Errors of :func:`shop_app.domain.money.parse_dollars` (all ours)."""

    EMPTY = "Please enter an amount"
    INVALID = "Please enter a valid amount, for example 12.50"
    NEGATIVE = "The amount cannot be negative"
    TOO_MANY_DECIMALS = "The amount can have at most 2 decimal places"


class DisplayText(StrEnum):
    """Small derived texts of the storefront and back office lists."""

    MORE_SCENTS = "+{n} more"  # docs/spec/product.md#page: scent list overflow
    SHOWING_PRODUCTS = "Showing {n} products"  # docs/spec/storefront.md#shop: the shop's count
    SHOWING_ONE_PRODUCT = "Showing 1 product"  # ours: the seed's count, in the singular
    JUST_NOW = "Just now"  # docs/spec/limits.md#back-office: last seen
    HOURS_AGO = "{n}h ago"  # docs/spec/limits.md#back-office: "Nh ago"
    DAYS_AGO = "{n}d ago"  # docs/spec/limits.md#back-office: "Nd ago"
    NEVER = "Never"  # docs/spec/limits.md#back-office
    LOADING_ACCOUNT = "Loading your account"  # ours: the account pages' placeholder (screen readers)
    LOADING_CHECKOUT = "Loading your order"  # ours: the checkout's placeholder (screen readers)
    EMPTY_CHECKOUT_HINT = "Add something you love, then come back to check out."  # ours: empty checkout
    # ours: the cart drawer's estimate, before an address is known (docs/tax.md)
    CART_ESTIMATE_HINT = (
        "Estimated for a British Columbia address: checkout shows the shipping and taxes of yours."
    )
    FREE_SHIPPING_AWAY = "{amount} away from free shipping"  # issue 19: the cart, the checkout summary
    FREE_SHIPPING_REACHED = "Your order ships free."  # ours: the same place once the threshold is met
    LOADING_PRODUCT = "Loading the product"  # ours: the product page's placeholder (screen readers)


class NewsletterMessage(StrEnum):
    """Mailing-list texts (the seed shows no result; these are ours)."""

    SUBSCRIBED = "Thank you for subscribing! Watch your inbox for new scents and small-batch releases."
    # ours: the unsubscribe page (/newsletter/unsubscribe) and the mails to subscribers
    CONFIRM_UNSUBSCRIBE = "Unsubscribe {email} from our mailing list?"
    UNSUBSCRIBED = "You have been unsubscribed. You will not receive our newsletter any more."
    UNSUBSCRIBE_LINK_INVALID = (
        "This unsubscribe link is not valid. Please use the link in one of our emails, "
        "or write to us and we will take you off the list."
    )


class ContactText(StrEnum):
    """Contact form texts. The spec (docs/spec/content.md#contact) only says that all four fields are
    required; the wording is ours. The e-mail format uses ``AuthMessage.INVALID_EMAIL`` and the length limits
    ``CheckoutMessage.FIELD_TOO_LONG`` (seed and ours)."""

    NAME_REQUIRED = "Please enter your name"
    EMAIL_REQUIRED = "Please enter your email address"
    SUBJECT_REQUIRED = "Please enter a subject"
    MESSAGE_REQUIRED = "Please enter your message"
    SEND = "Send Message"
    SENDING = "Sending..."
    SENT = "Thank you for your message! We will get back to you within one to two business days."
    CHECK_FIELDS = "Please check the highlighted fields"
    SEND_FAILED = "Your message could not be sent. Please try again in a moment."
