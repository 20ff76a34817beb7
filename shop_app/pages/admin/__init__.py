"""The back office's pages (docs/spec/admin.md#routes), each wrapped in the admin layout.

Several paths answer with the same screen: the seed's current routes, the nested
``/admin/dashboard/...`` routes and the short links (``/admin/products`` …). Every admin page first
runs ``AdminGuardState.check`` (non-admins go home); each screen's own ``load`` handlers (the
dashboard has two: its figures, then the sales overview) re-check the role before they read anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import reflex as rx

from shop_app import routes
from shop_app.components.admin.layout import Section, admin_layout
from shop_app.pages.admin.admins import manage_admins
from shop_app.pages.admin.categories import manage_categories
from shop_app.pages.admin.dashboard import dashboard
from shop_app.pages.admin.discounts import discount_codes
from shop_app.pages.admin.images import website_images
from shop_app.pages.admin.inbox import inbox
from shop_app.pages.admin.order_detail import admin_order
from shop_app.pages.admin.orders import admin_orders
from shop_app.pages.admin.product_form import product_form
from shop_app.pages.admin.products import manage_products
from shop_app.pages.admin.products_grouped import manage_products_grouped
from shop_app.pages.admin.square_reconcile import square_reconcile
from shop_app.pages.admin.store_settings import store_settings
from shop_app.pages.admin.users import view_users
from shop_app.pages.admin.wizard import product_wizard
from shop_app.state.admin.admins import ManageAdminsState
from shop_app.state.admin.categories import CategoriesState
from shop_app.state.admin.dashboard import AdminDashboardState
from shop_app.state.admin.discounts import DiscountsState
from shop_app.state.admin.guard import AdminGuardState
from shop_app.state.admin.images import WebsiteImagesState
from shop_app.state.admin.inbox import InboxState
from shop_app.state.admin.order_detail import AdminOrderState
from shop_app.state.admin.orders import AdminOrdersState
from shop_app.state.admin.product_form import ProductFormState
from shop_app.state.admin.products import ManageProductsState
from shop_app.state.admin.products_grouped import GroupedProductsState
from shop_app.state.admin.sales import SalesOverviewState
from shop_app.state.admin.square_reconcile import SquareReconcileState
from shop_app.state.admin.store_settings import StoreSettingsState
from shop_app.state.admin.users import ViewUsersState
from shop_app.state.admin.wizard import ProductWizardState
from shop_app.state.auth import AuthState
from shop_app.state.notify import NotificationState
from shop_app.state.site import SiteState


class AdminScreen:
    """One back-office screen and every path it answers on."""

    def __init__(
        self,
        paths: tuple[str, ...],
        content: Callable[[], rx.Component],
        title: str,
        section: Section,
        load: Any | Sequence[Any],
        *,
        dashboard_guard: bool = False,
    ) -> None:
        self.paths = paths
        self.component = admin_layout(content, active=section)
        self.title = title
        check = AdminGuardState.check_dashboard if dashboard_guard else AdminGuardState.check
        loads = list(load) if isinstance(load, (list, tuple)) else [load]  # the screen's own, in order
        self.on_load = [SiteState.load, AuthState.load, NotificationState.expire, check, *loads]


ADMIN_SCREENS: tuple[AdminScreen, ...] = (
    AdminScreen(
        (routes.ADMIN, routes.ADMIN_DASHBOARD),
        dashboard,
        "Admin Dashboard",
        Section.DASHBOARD,
        (AdminDashboardState.load, SalesOverviewState.load),
        dashboard_guard=True,
    ),
    AdminScreen(
        (routes.ADMIN_PRODUCTS, routes.ADMIN_DASHBOARD_PRODUCTS),
        dashboard,
        "Products",
        Section.PRODUCTS,
        (AdminDashboardState.load, SalesOverviewState.load),
        dashboard_guard=True,
    ),
    AdminScreen(
        (routes.ADMIN_PRODUCT_NEW, routes.ADMIN_DASHBOARD_PRODUCT_NEW),
        product_form,
        "Add Product",
        Section.PRODUCTS,
        ProductFormState.load,
    ),
    AdminScreen(
        (routes.ADMIN_PRODUCT_EDIT, routes.ADMIN_DASHBOARD_PRODUCT_EDIT),
        product_form,
        "Edit Product",
        Section.PRODUCTS,
        ProductFormState.load,
    ),
    AdminScreen(
        (routes.ADMIN_PRODUCT_CREATION,),
        product_wizard,
        "Create Product",
        Section.PRODUCTS,
        ProductWizardState.load,
    ),
    AdminScreen(
        (routes.ADMIN_MANAGE_PRODUCTS,),
        manage_products,
        "Manage Products",
        Section.PRODUCTS,
        ManageProductsState.load,
    ),
    AdminScreen(
        (routes.ADMIN_MANAGE_PRODUCTS_GROUPED,),
        manage_products_grouped,
        "Manage Products (Grouped)",
        Section.PRODUCTS,
        GroupedProductsState.load,
    ),
    AdminScreen(
        (routes.ADMIN_SQUARE_RECONCILE,),
        square_reconcile,
        "Reconcile with Square",
        Section.PRODUCTS,
        SquareReconcileState.load,
    ),
    AdminScreen(
        (routes.ADMIN_MANAGE_CATEGORIES,),
        manage_categories,
        "Manage Categories",
        Section.CATEGORIES,
        CategoriesState.load,
    ),
    AdminScreen(
        (routes.ADMIN_DISCOUNTS,), discount_codes, "Discount Codes", Section.DISCOUNTS, DiscountsState.load
    ),
    AdminScreen(
        (routes.ADMIN_MANAGE_IMAGES, routes.ADMIN_IMAGES, routes.ADMIN_DASHBOARD_IMAGES),
        website_images,
        "Website Images",
        Section.IMAGES,
        WebsiteImagesState.load,
    ),
    AdminScreen(
        (routes.ADMIN_SETTINGS, routes.ADMIN_DASHBOARD_SETTINGS),
        store_settings,
        "Store Settings",
        Section.SETTINGS,
        StoreSettingsState.load,
    ),
    AdminScreen((routes.ADMIN_ORDERS,), admin_orders, "Orders", Section.ORDERS, AdminOrdersState.load),
    AdminScreen((routes.ADMIN_ORDER,), admin_order, "Order", Section.ORDERS, AdminOrderState.load),
    AdminScreen((routes.ADMIN_INBOX,), inbox, "Inbox", Section.INBOX, InboxState.load),
    AdminScreen(
        (routes.ADMIN_MANAGE_ADMINS,), manage_admins, "Manage Admins", Section.ADMINS, ManageAdminsState.load
    ),
    AdminScreen((routes.ADMIN_VIEW_USERS,), view_users, "Customers", Section.CUSTOMERS, ViewUsersState.load),
)
