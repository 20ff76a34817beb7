"""Route constants and URL builders: the one place that knows the site's paths."""

from __future__ import annotations

from urllib.parse import urlencode

HOME = "/"
SHOP = "/shop"
PRODUCT = "/product/[product_id]"
CHECKOUT = "/checkout"
ORDER_SUCCESS = "/order-success"
ORDER_STATUS = "/order-status"  # ?token=… : a signed order link from a guest's mail
ORDER_LOOKUP = "/order-lookup"  # find an order by e-mail address and order number
ABOUT = "/about"
FAQ = "/faq"
SHIPPING_AND_RETURNS = "/faq#shipping"  # the FAQ's shipping and returns answers
REVIEWS = "/reviews"
CONTACT = "/contact"
CUSTOM_ORDERS = "/custom-orders"
CUSTOM_CREATOR = "/custom-creator"
NEWSLETTER_UNSUBSCRIBE = "/newsletter/unsubscribe"  # ?token=… from a mail to a subscriber
ACCOUNT = "/account"
ACCOUNT_ORDERS = "/account/orders"
ACCOUNT_WISHLIST = "/account/wishlist"
ACCOUNT_ORDER = "/account/orders/[order_id]"
RESET_PASSWORD = "/reset-password"
TERMS = "/terms"
PRIVACY = "/privacy"
AUTH = "/auth"
ADMIN = "/admin"
# The back office (docs/spec/admin.md#routes). Old and nested paths answer with the same screens.
ADMIN_LOGIN = "/admin/login"
ADMIN_PRODUCT_CREATION = "/admin/product-creation"
ADMIN_MANAGE_PRODUCTS = "/admin/manage-products"
ADMIN_MANAGE_PRODUCTS_GROUPED = "/admin/manage-products-grouped"
ADMIN_SQUARE_RECONCILE = "/admin/square-reconcile"
ADMIN_PRODUCT_EDIT = "/admin/products/edit/[product_id]"
ADMIN_MANAGE_CATEGORIES = "/admin/manage-categories"
ADMIN_MANAGE_IMAGES = "/admin/manage-images"
ADMIN_PRODUCTS = "/admin/products"
ADMIN_IMAGES = "/admin/images"
ADMIN_SETTINGS = "/admin/settings"
ADMIN_DASHBOARD = "/admin/dashboard"
ADMIN_DASHBOARD_PRODUCTS = "/admin/dashboard/products"
ADMIN_DASHBOARD_PRODUCT_NEW = "/admin/dashboard/products/new"
ADMIN_DASHBOARD_PRODUCT_EDIT = "/admin/dashboard/products/edit/[product_id]"
ADMIN_DASHBOARD_IMAGES = "/admin/dashboard/images"
ADMIN_DASHBOARD_SETTINGS = "/admin/dashboard/settings"
ADMIN_PRODUCT_NEW = "/admin/products/new"
ADMIN_ORDERS = "/admin/orders"
ADMIN_ORDER = "/admin/orders/[order_id]"
ADMIN_INBOX = "/admin/inbox"
ADMIN_MANAGE_ADMINS = "/admin/manage-admins"
ADMIN_VIEW_USERS = "/admin/view-users"
ADMIN_DISCOUNTS = "/admin/discounts"  # issue 19: discount codes

# HTTP routes (not pages) that pages link to.
ADMIN_PRODUCTS_CSV = "/api/admin/products.csv"  # the catalogue export, a download
ADMIN_ORDERS_CSV = "/api/admin/orders.csv"  # ?search=&status=: the orders for the accountant, a download
HERO_IMAGE = "/api/site-images/hero"  # the home page's hero, whichever image is current
ORDER_INVOICE = "/orders/{order_id}/invoice"  # printable; the order's customer, a signed link or an admin
ORDER_PACKING_SLIP = "/orders/{order_id}/packing-slip"  # printable; admins only
ADMIN_ORDERS_PRINT = "/admin/orders/print"  # ?ids=1,2,3&doc=invoice|packing-slip; admins only


def hero_image_url(width: int | None = None) -> str:
    """The hero image, or its rendition at least ``width`` pixels wide."""
    return f"{HERO_IMAGE}?{urlencode({'w': width})}" if width else HERO_IMAGE


def product_url(product_id: int) -> str:
    """The product page of ``product_id``."""
    return f"/product/{product_id}"


def admin_product_edit_url(product_id: int) -> str:
    """The back office's form for one product."""
    return f"/admin/products/edit/{product_id}"


def admin_order_url(order_id: int) -> str:
    """The back office's page of one order."""
    return f"/admin/orders/{order_id}"


def order_url(order_id: int) -> str:
    """The customer's page of one order."""
    return f"/account/orders/{order_id}"


def invoice_url(order_id: int, *, token: str = "") -> str:
    """The printable invoice of an order (``token``: a signed order link's secret, for a guest)."""
    path = ORDER_INVOICE.format(order_id=order_id)
    return f"{path}?{urlencode({'token': token})}" if token else path


def packing_slip_url(order_id: int) -> str:
    """The printable packing slip of an order (admins only)."""
    return ORDER_PACKING_SLIP.format(order_id=order_id)


def admin_orders_print_url(order_ids: list[int], doc: str) -> str:
    """Several orders' invoices or packing slips (``doc``: "invoice", "packing-slip") on one page."""
    return f"{ADMIN_ORDERS_PRINT}?{urlencode({'ids': ','.join(map(str, order_ids)), 'doc': doc})}"


def admin_orders_csv_url(search: str, status: str) -> str:
    """The orders export of the Orders screen's search and status filter (every page)."""
    query = {key: value for key, value in (("search", search), ("status", status)) if value}
    return f"{ADMIN_ORDERS_CSV}?{urlencode(query)}" if query else ADMIN_ORDERS_CSV


def order_success_url(order_id: int, order_number: str) -> str:
    """The thank-you page of an order (the number must match the id)."""
    return f"{ORDER_SUCCESS}?{urlencode({'order': order_id, 'number': order_number})}"


def order_status_url(token: str) -> str:
    """The page a signed order link opens (``token`` is the link's secret)."""
    return f"{ORDER_STATUS}?{urlencode({'token': token})}"


def shop_url(
    *, category: str | None = None, subcategory: str | None = None, search: str | None = None
) -> str:
    """The shop listing with the given filters as query parameters."""
    params = {
        k: v for k, v in (("category", category), ("subcategory", subcategory), ("search", search)) if v
    }
    return f"{SHOP}?{urlencode(params)}" if params else SHOP
