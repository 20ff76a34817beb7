"""SQLModel tables, one module per aggregate. Importing this package registers every table."""

from shop_app.models.accounts import (
    AdminRole,
    AuthToken,
    KnownBrowser,
    SignInAttempt,
    TokenPurpose,
    User,
    UserSession,
)
from shop_app.models.catalog import Category, Product, ProductImage, ProductVesselGroup
from shop_app.models.content import (
    ContactMessage,
    FormSubmission,
    OrderInquiry,
    StoreSettings,
    Subscriber,
    UnsubscribeToken,
    WebsiteImage,
)
from shop_app.models.discounts import DiscountCode, DiscountRedemption
from shop_app.models.mail import MailStatus, OutgoingMail
from shop_app.models.orders import (
    Order,
    OrderAccessToken,
    OrderAddress,
    OrderItem,
    OrderStatusChange,
    Payment,
    Refund,
    RefundLine,
    WebhookEvent,
)
from shop_app.models.shopping import Cart, CartLine, WishlistItem
from shop_app.models.square_outbox import SquareChange, SquareChangeKind

__all__ = [
    "AdminRole",
    "AuthToken",
    "Cart",
    "CartLine",
    "Category",
    "ContactMessage",
    "DiscountCode",
    "DiscountRedemption",
    "FormSubmission",
    "KnownBrowser",
    "MailStatus",
    "Order",
    "OrderAccessToken",
    "OrderAddress",
    "OrderInquiry",
    "OrderItem",
    "OrderStatusChange",
    "OutgoingMail",
    "Payment",
    "Product",
    "ProductImage",
    "ProductVesselGroup",
    "Refund",
    "RefundLine",
    "SignInAttempt",
    "SquareChange",
    "SquareChangeKind",
    "StoreSettings",
    "Subscriber",
    "TokenPurpose",
    "UnsubscribeToken",
    "User",
    "UserSession",
    "WebhookEvent",
    "WebsiteImage",
    "WishlistItem",
]
