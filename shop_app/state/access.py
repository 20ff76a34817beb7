"""Who may call each event handler: the reviewed list of the app's event channel.

Reflex 0.10 turns every public method of a state class into an event that any browser may send,
with any JSON arguments. The websocket is therefore a public API, and this module is its one
reviewed description: every handler the app registers, by ``module.State.handler``, and who may
call it. Two things hold the app to it (docs/security.md, "The event channel"):

- ``tests/unit/state/test_event_access.py`` fails when the app's handlers and this list differ, when a
  handler takes an argument type the event guard cannot check (a dataclass or model the client
  could forge), or when a state has a public method that is not on the list;
- ``state/event_guard.py`` (run by ``ShopMiddleware`` before every handler) refuses an event that is
  not on the list, one whose caller does not have the access named here (checked against the
  database), and one whose arguments do not match the handler's signature.

The access levels:

- ``ANYONE``: any visitor. The handler itself decides what a visitor may see or do (a page guard
  redirects, a favourites heart asks a visitor to sign in, checkout takes guests).
- ``CUSTOMER``: a signed-in customer (or administrator) only; others are told to sign in.
- ``ADMIN``: an administrator only; others change nothing.
- ``FRAMEWORK``: Reflex's own plumbing (hydration, page loads, cookie values, error reports).
- ``REFUSED``: registered by Reflex but never sent by the shop's pages, so nobody may call it:
  the generic ``setvar`` of every state (it reaches any ``set_*`` method by name).

To add a handler: write it (``@rx.event``, validate every argument, re-check the caller: an
administrator's handler with ``@admin_event`` of ``state/admin/guard.py``), add it
here with the narrowest access that works, and say why in a comment when it is not obvious.
Helpers that are not events start with ``_``: Reflex never registers those.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final


class Access(StrEnum):
    """Who may send an event (see the module docstring)."""

    ANYONE = "anyone"
    CUSTOMER = "customer"
    ADMIN = "admin"
    FRAMEWORK = "framework"
    REFUSED = "refused"


ANYONE, CUSTOMER, ADMIN, FRAMEWORK, REFUSED = Access

SETVAR: Final = "setvar"
"""Reflex gives every state a generic ``setvar(var_name, value)`` handler: refused everywhere."""

HANDLERS: Final[Mapping[str, Access]] = {
    # reflex.state
    "reflex.state.FrontendEventExceptionState.handle_frontend_exception": FRAMEWORK,
    "reflex.state.OnLoadInternalState.on_load_internal": FRAMEWORK,
    "reflex.state.OnLoadInternalState.set_is_hydrated": FRAMEWORK,
    "reflex.state.State.hydrate": FRAMEWORK,
    "reflex.state.State.hydrate_and_load": FRAMEWORK,
    "reflex.state.State.set_is_hydrated": FRAMEWORK,
    "reflex.state.UpdateVarsInternalState.update_vars_internal": FRAMEWORK,
    # shop_app.state.account
    "shop_app.state.account.AccountState.cancel": CUSTOMER,
    "shop_app.state.account.AccountState.edit": CUSTOMER,
    "shop_app.state.account.AccountState.load": ANYONE,
    "shop_app.state.account.AccountState.resend_verification": CUSTOMER,
    "shop_app.state.account.AccountState.save": CUSTOMER,
    # shop_app.state.admin.admins
    "shop_app.state.admin.admins.ManageAdminsState.ask_remove": ADMIN,
    "shop_app.state.admin.admins.ManageAdminsState.confirm_remove": ADMIN,
    "shop_app.state.admin.admins.ManageAdminsState.load": ADMIN,
    "shop_app.state.admin.admins.ManageAdminsState.open_add": ADMIN,
    "shop_app.state.admin.admins.ManageAdminsState.save_add": ADMIN,
    "shop_app.state.admin.admins.ManageAdminsState.set_add_open": ADMIN,
    "shop_app.state.admin.admins.ManageAdminsState.set_add_role": ADMIN,
    "shop_app.state.admin.admins.ManageAdminsState.set_remove_open": ADMIN,
    "shop_app.state.admin.admins.ManageAdminsState.set_search": ADMIN,
    # shop_app.state.admin.categories
    "shop_app.state.admin.categories.CategoriesState.ask_delete": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.confirm_delete": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.load": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.open_add_main": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.open_add_subcategory": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.open_edit": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.save": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.set_delete_open": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.set_description": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.set_dialog_open": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.set_is_active": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.set_name": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.set_parent": ADMIN,
    "shop_app.state.admin.categories.CategoriesState.set_sort_order": ADMIN,
    # shop_app.state.admin.csv_tools
    "shop_app.state.admin.csv_tools.CsvToolsState.clear_issues": ADMIN,
    "shop_app.state.admin.csv_tools.CsvToolsState.import_csv": ADMIN,
    "shop_app.state.admin.csv_tools.CsvToolsState.rejected": ADMIN,
    # shop_app.state.admin.dashboard
    "shop_app.state.admin.dashboard.AdminDashboardState.load": ADMIN,
    "shop_app.state.admin.dashboard.AdminDashboardState.set_tab": ADMIN,
    "shop_app.state.admin.dashboard.DashboardProductsState.ask_delete": ADMIN,
    "shop_app.state.admin.dashboard.DashboardProductsState.confirm_archive": ADMIN,
    "shop_app.state.admin.dashboard.DashboardProductsState.confirm_delete": ADMIN,
    "shop_app.state.admin.dashboard.DashboardProductsState.load": ADMIN,
    "shop_app.state.admin.dashboard.DashboardProductsState.set_archive_open": ADMIN,
    "shop_app.state.admin.dashboard.DashboardProductsState.set_category": ADMIN,
    "shop_app.state.admin.dashboard.DashboardProductsState.set_delete_open": ADMIN,
    "shop_app.state.admin.dashboard.DashboardProductsState.set_search": ADMIN,
    "shop_app.state.admin.dashboard.DashboardProductsState.set_sort": ADMIN,
    "shop_app.state.admin.dashboard.DashboardProductsState.turn_page": ADMIN,
    # shop_app.state.admin.discounts
    "shop_app.state.admin.discounts.DiscountsState.add_product": ADMIN,  # only a product its search offered
    "shop_app.state.admin.discounts.DiscountsState.load": ADMIN,
    "shop_app.state.admin.discounts.DiscountsState.open_edit": ADMIN,
    "shop_app.state.admin.discounts.DiscountsState.open_new": ADMIN,
    "shop_app.state.admin.discounts.DiscountsState.remove_product": ADMIN,
    "shop_app.state.admin.discounts.DiscountsState.save": ADMIN,
    "shop_app.state.admin.discounts.DiscountsState.search_products": ADMIN,
    "shop_app.state.admin.discounts.DiscountsState.set_active": ADMIN,  # sets the value sent, never toggles
    "shop_app.state.admin.discounts.DiscountsState.set_category": ADMIN,  # only a category it offers
    "shop_app.state.admin.discounts.DiscountsState.set_dialog_open": ADMIN,
    "shop_app.state.admin.discounts.DiscountsState.set_is_active": ADMIN,
    "shop_app.state.admin.discounts.DiscountsState.set_kind": ADMIN,
    # shop_app.state.admin.guard
    "shop_app.state.admin.guard.AdminGuardState.check": ANYONE,
    "shop_app.state.admin.guard.AdminGuardState.check_dashboard": ANYONE,
    # shop_app.state.admin.images
    "shop_app.state.admin.images.WebsiteImagesState.load": ADMIN,
    "shop_app.state.admin.images.WebsiteImagesState.remove": ADMIN,
    "shop_app.state.admin.images.WebsiteImagesState.save": ADMIN,
    "shop_app.state.admin.images.WebsiteImagesState.upload": ADMIN,
    "shop_app.state.admin.images.WebsiteImagesState.upload_rejected": ADMIN,
    # shop_app.state.admin.inbox
    "shop_app.state.admin.inbox.InboxState.load": ADMIN,
    "shop_app.state.admin.inbox.InboxState.mark_unread": ADMIN,
    "shop_app.state.admin.inbox.InboxState.next_page": ADMIN,
    "shop_app.state.admin.inbox.InboxState.open_entry": ADMIN,
    "shop_app.state.admin.inbox.InboxState.previous_page": ADMIN,
    "shop_app.state.admin.inbox.InboxState.set_detail_open": ADMIN,
    "shop_app.state.admin.inbox.InboxState.set_kind": ADMIN,
    "shop_app.state.admin.inbox.InboxState.set_unread_only": ADMIN,
    # shop_app.state.admin.login
    "shop_app.state.admin.login.AdminLoginState.load": ANYONE,
    # shop_app.state.admin.order_detail
    "shop_app.state.admin.order_detail.AdminOrderState.confirm": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.confirm_refund": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.load": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.mark": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.open_confirm": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.open_refund": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.open_ship": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.save_ship": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.set_confirm_note": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.set_confirm_open": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.set_refund_amount": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.set_refund_mode": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.set_refund_note": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.set_refund_open": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.set_refund_quantity": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.set_refund_restock": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.set_ship_field": ADMIN,
    "shop_app.state.admin.order_detail.AdminOrderState.set_ship_open": ADMIN,
    # shop_app.state.admin.orders
    "shop_app.state.admin.orders.AdminOrdersState.go_to_page": ADMIN,
    "shop_app.state.admin.orders.AdminOrdersState.toggle_selected": ADMIN,
    "shop_app.state.admin.orders.AdminOrdersState.clear_selected": ADMIN,
    "shop_app.state.admin.orders.AdminOrdersState.load": ADMIN,
    "shop_app.state.admin.orders.AdminOrdersState.set_search": ADMIN,
    "shop_app.state.admin.orders.AdminOrdersState.set_status": ADMIN,
    # shop_app.state.admin.product_form
    "shop_app.state.admin.product_form.ProductFormState.add_scent_note": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.load": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.move_image": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.refuse_images": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.remove_image": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.remove_scent_note": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.save": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.set_category": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.set_featured": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.set_field": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.set_new_arrival": ADMIN,
    "shop_app.state.admin.product_form.ProductFormState.upload_images": ADMIN,
    # shop_app.state.admin.products
    "shop_app.state.admin.products.ManageProductsState.clear_filters": ADMIN,
    "shop_app.state.admin.products.ManageProductsState.go_to_page": ADMIN,
    "shop_app.state.admin.products.ManageProductsState.load": ADMIN,
    "shop_app.state.admin.products.ManageProductsState.set_category": ADMIN,
    "shop_app.state.admin.products.ManageProductsState.set_search": ADMIN,
    "shop_app.state.admin.products.ManageProductsState.set_subcategory": ADMIN,
    "shop_app.state.admin.products.ManageProductsState.sync_square": ADMIN,
    "shop_app.state.admin.products.ManageProductsState.toggle_active": ADMIN,
    "shop_app.state.admin.products.ProductConvertState.open_convert": ADMIN,
    "shop_app.state.admin.products.ProductConvertState.save_convert": ADMIN,
    "shop_app.state.admin.products.ProductConvertState.set_convert_field": ADMIN,
    "shop_app.state.admin.products.ProductConvertState.set_convert_open": ADMIN,
    "shop_app.state.admin.products.ProductDeleteState.ask_delete": ADMIN,
    "shop_app.state.admin.products.ProductDeleteState.confirm_archive": ADMIN,
    "shop_app.state.admin.products.ProductDeleteState.confirm_delete": ADMIN,
    "shop_app.state.admin.products.ProductDeleteState.set_archive_open": ADMIN,
    "shop_app.state.admin.products.ProductDeleteState.set_delete_open": ADMIN,
    "shop_app.state.admin.products.ProductEditState.open_edit": ADMIN,
    "shop_app.state.admin.products.ProductEditState.save_edit": ADMIN,
    "shop_app.state.admin.products.ProductEditState.set_edit_category": ADMIN,
    "shop_app.state.admin.products.ProductEditState.set_edit_field": ADMIN,
    "shop_app.state.admin.products.ProductEditState.set_edit_flag": ADMIN,
    "shop_app.state.admin.products.ProductEditState.set_edit_open": ADMIN,
    "shop_app.state.admin.products.ProductEditState.set_edit_subcategory": ADMIN,
    # shop_app.state.admin.products_grouped
    "shop_app.state.admin.products_grouped.GroupedProductsState.activate": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.confirm_delete": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.confirm_single": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.deactivate": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.go_to_page": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.load": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.open_add_scent": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.open_delete": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.open_single": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.reload_soon": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.save_scent": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.set_delete_open": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.set_scent_field": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.set_scent_open": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.set_search": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.set_single_open": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.show_more": ADMIN,
    "shop_app.state.admin.products_grouped.GroupedProductsState.toggle_group": ADMIN,
    # shop_app.state.admin.sales
    "shop_app.state.admin.sales.SalesOverviewState.load": ADMIN,
    # shop_app.state.admin.square_reconcile
    "shop_app.state.admin.square_reconcile.SquareReconcileState.check_again": ADMIN,
    "shop_app.state.admin.square_reconcile.SquareReconcileState.load": ADMIN,
    "shop_app.state.admin.square_reconcile.SquareReconcileState.send_now": ADMIN,
    "shop_app.state.admin.square_reconcile.SquareReconcileState.use_shops": ADMIN,  # a key it was shown
    "shop_app.state.admin.square_reconcile.SquareReconcileState.use_shops_for_all": ADMIN,
    "shop_app.state.admin.square_reconcile.SquareReconcileState.use_squares": ADMIN,  # a key it was shown
    "shop_app.state.admin.square_reconcile.SquareReconcileState.use_squares_for_all": ADMIN,
    # shop_app.state.admin.store_settings
    "shop_app.state.admin.store_settings.StoreSettingsState.hide_banner": ADMIN,
    "shop_app.state.admin.store_settings.StoreSettingsState.load": ADMIN,
    "shop_app.state.admin.store_settings.StoreSettingsState.save": ADMIN,
    # shop_app.state.admin.users
    "shop_app.state.admin.users.ViewUsersState.load": ADMIN,
    "shop_app.state.admin.users.ViewUsersState.open_details": ADMIN,
    "shop_app.state.admin.users.ViewUsersState.open_guest_details": ADMIN,  # a guest, by e-mail
    "shop_app.state.admin.users.ViewUsersState.set_details_open": ADMIN,
    "shop_app.state.admin.users.ViewUsersState.set_search": ADMIN,
    "shop_app.state.admin.users.ViewUsersState.set_status": ADMIN,
    "shop_app.state.admin.users.ViewUsersState.turn_page": ADMIN,
    # shop_app.state.admin.wizard
    "shop_app.state.admin.wizard.ProductWizardState.go_to_step": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.load": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.move_image": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.next_step": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.previous_step": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.publish": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.refuse_images": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.remove_image": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.set_category": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.set_featured": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.set_field": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.set_new_arrival": ADMIN,
    "shop_app.state.admin.wizard.ProductWizardState.upload_images": ADMIN,
    # shop_app.state.auth
    "shop_app.state.auth.AuthState.load": ANYONE,
    # shop_app.state.auth_dialog
    "shop_app.state.auth_dialog.AuthDialogState.close": ANYONE,
    "shop_app.state.auth_dialog.AuthDialogState.open_for_wishlist": ANYONE,
    "shop_app.state.auth_dialog.AuthDialogState.open_register": ANYONE,
    "shop_app.state.auth_dialog.AuthDialogState.open_sign_in": ANYONE,
    "shop_app.state.auth_dialog.AuthDialogState.set_open": ANYONE,
    "shop_app.state.auth_dialog.AuthDialogState.set_tab": ANYONE,
    "shop_app.state.auth_dialog.AuthDialogState.submit_forgot": ANYONE,
    "shop_app.state.auth_dialog.AuthDialogState.submit_login": ANYONE,
    "shop_app.state.auth_dialog.AuthDialogState.submit_register": ANYONE,
    "shop_app.state.auth_dialog.AuthDialogState.toggle_password": ANYONE,
    # shop_app.state.auth_page
    "shop_app.state.auth_page.AuthPageState.load": ANYONE,
    "shop_app.state.auth_page.AuthPageState.set_tab": ANYONE,
    "shop_app.state.auth_page.AuthPageState.submit_login": ANYONE,
    "shop_app.state.auth_page.AuthPageState.submit_register": ANYONE,
    "shop_app.state.auth_page.AuthPageState.toggle_password": ANYONE,
    # shop_app.state.cart
    "shop_app.state.discount_code.DiscountCodeState.apply": ANYONE,
    "shop_app.state.discount_code.DiscountCodeState.remove": ANYONE,
    "shop_app.state.cart.CartState.add": ANYONE,
    "shop_app.state.cart.CartState.close_drawer_from_another_page": ANYONE,
    "shop_app.state.cart.CartState.load": ANYONE,
    "shop_app.state.cart.CartState.remove": ANYONE,
    "shop_app.state.cart.CartState.set_drawer_open": ANYONE,
    "shop_app.state.cart.CartState.set_quantity": ANYONE,
    # shop_app.state.checkout
    "shop_app.state.checkout.CheckoutState.cart_changed": ANYONE,
    "shop_app.state.checkout.CheckoutState.choose_country": ANYONE,  # a str, length-checked
    "shop_app.state.checkout.CheckoutState.choose_region": ANYONE,  # a str, length-checked
    "shop_app.state.checkout.CheckoutState.forget_visit": ANYONE,
    "shop_app.state.checkout.CheckoutState.load": ANYONE,
    "shop_app.state.checkout.CheckoutState.place_order": ANYONE,
    "shop_app.state.checkout.CheckoutState.set_guest_checkout": ANYONE,
    "shop_app.state.checkout.CheckoutState.set_payment_method": ANYONE,
    # shop_app.state.contact
    "shop_app.state.contact.ContactState.submit": ANYONE,
    # shop_app.state.custom_creator
    "shop_app.state.custom_creator.CustomCreatorState.add_to_cart": ANYONE,
    "shop_app.state.custom_creator.CustomCreatorState.back": ANYONE,
    "shop_app.state.custom_creator.CustomCreatorState.change_quantity": ANYONE,
    "shop_app.state.custom_creator.CustomCreatorState.choose_vessel": ANYONE,
    "shop_app.state.custom_creator.CustomCreatorState.load": ANYONE,
    "shop_app.state.custom_creator.CustomCreatorState.next_step": ANYONE,
    "shop_app.state.custom_creator.CustomCreatorState.set_instructions": ANYONE,
    "shop_app.state.custom_creator.CustomCreatorState.set_intensity": ANYONE,
    "shop_app.state.custom_creator.CustomCreatorState.set_scents": ANYONE,
    # shop_app.state.custom_orders
    "shop_app.state.custom_orders.CustomOrdersState.add_product": ANYONE,
    "shop_app.state.custom_orders.CustomOrdersState.back_to_types": ANYONE,
    "shop_app.state.custom_orders.CustomOrdersState.choose_type": ANYONE,
    "shop_app.state.custom_orders.CustomOrdersState.load": ANYONE,
    "shop_app.state.custom_orders.CustomOrdersState.remove_product": ANYONE,
    "shop_app.state.custom_orders.CustomOrdersState.return_to_types": ANYONE,
    "shop_app.state.custom_orders.CustomOrdersState.search_products": ANYONE,
    "shop_app.state.custom_orders.CustomOrdersState.set_field": ANYONE,
    "shop_app.state.custom_orders.CustomOrdersState.set_product_quantity": ANYONE,
    "shop_app.state.custom_orders.CustomOrdersState.submit": ANYONE,
    # shop_app.state.home
    "shop_app.state.home.HomeState.choose_scent": ANYONE,
    "shop_app.state.home.HomeState.load": ANYONE,
    # shop_app.state.info
    "shop_app.state.info.AboutState.load": ANYONE,
    # shop_app.state.newsletter
    "shop_app.state.newsletter.NewsletterState.subscribe": ANYONE,
    # shop_app.state.newsletter_unsubscribe
    "shop_app.state.newsletter_unsubscribe.UnsubscribeState.confirm": ANYONE,
    "shop_app.state.newsletter_unsubscribe.UnsubscribeState.load": ANYONE,
    # shop_app.state.notify
    "shop_app.state.notify.NotificationState.dismiss": ANYONE,
    "shop_app.state.notify.NotificationState.expire": ANYONE,
    "shop_app.state.notify.NotificationState.show": ANYONE,
    # shop_app.state.order_lookup: a guest's order, by the link's secret in the address or by
    # e-mail + number (same answer for both misses, limited per client address)
    "shop_app.state.order_lookup.OrderLookupState.load": ANYONE,
    "shop_app.state.order_lookup.OrderLookupState.submit": ANYONE,
    "shop_app.state.order_lookup.OrderStatusState.load": ANYONE,
    # shop_app.state.order_success
    "shop_app.state.order_success.OrderSuccessState.load": ANYONE,
    # shop_app.state.orders
    "shop_app.state.orders.OrdersState.load": ANYONE,
    "shop_app.state.orders.OrdersState.load_one": ANYONE,
    "shop_app.state.orders.OrdersState.reorder": CUSTOMER,
    # shop_app.state.product
    "shop_app.state.product.ProductState.add_to_cart": ANYONE,
    "shop_app.state.product.ProductState.change_quantity": ANYONE,
    "shop_app.state.product.ProductState.choose_scent": ANYONE,
    "shop_app.state.product.ProductState.load": ANYONE,
    "shop_app.state.product.ProductState.show_image": ANYONE,
    "shop_app.state.product.ProductState.show_all_scents": ANYONE,
    # shop_app.state.reset_password
    "shop_app.state.reset_password.ResetPasswordState.load": ANYONE,
    "shop_app.state.reset_password.ResetPasswordState.submit": ANYONE,
    "shop_app.state.reset_password.ResetPasswordState.toggle_password": ANYONE,
    # shop_app.state.search
    "shop_app.state.search.HeaderSearchState.submit": ANYONE,
    # shop_app.state.shop
    "shop_app.state.shop.ShopState.apply_search": ANYONE,
    "shop_app.state.shop.ShopState.choose_scent": ANYONE,
    "shop_app.state.shop.ShopState.load": ANYONE,
    "shop_app.state.shop.ShopState.load_more": ANYONE,
    "shop_app.state.shop.ShopState.set_grouped": ANYONE,
    "shop_app.state.shop.ShopState.set_searching": ANYONE,
    # shop_app.state.site
    "shop_app.state.site.SiteState.load": ANYONE,
    # shop_app.state.wishlist
    "shop_app.state.wishlist.WishlistState.load": ANYONE,
    "shop_app.state.wishlist.WishlistState.remove": CUSTOMER,
    "shop_app.state.wishlist.WishlistState.toggle": ANYONE,
}
