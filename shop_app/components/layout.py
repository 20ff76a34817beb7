"""The public layout: header, main content and footer (plus the dialogs every page can open)."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx

from shop_app.components.account_menu import session_cookie_fetcher
from shop_app.components.auth_dialog import auth_dialog
from shop_app.components.footer import footer
from shop_app.components.header import header
from shop_app.components.notification import notification
from shop_app.components.skip_link import skip_link


def public_layout(
    content: Callable[[], rx.Component] | None = None, *, overlay_header: bool = False
) -> Callable:
    """Wrap a page function in the public layout.

    Use as ``@public_layout`` or ``@public_layout(overlay_header=True)`` (the home page, whose
    hero carries the header).
    """

    def wrap(page_content: Callable[[], rx.Component]) -> Callable[[], rx.Component]:
        def page() -> rx.Component:
            main = page_content()
            if not overlay_header:
                main = rx.box(
                    main,
                    max_width="1200px",
                    margin_x="auto",
                    padding_x="1rem",
                    padding_y="2rem",
                    width="100%",
                )
            return rx.box(
                skip_link(),
                header(overlay=overlay_header),
                # At least a screen tall: the footer starts below the fold, so content that
                # arrives with the page's state never pushes a visible footer down (layout shift).
                rx.el.main(
                    main, id="main", tab_index=-1, min_height="calc(100vh - var(--shop-header-height))"
                ),
                footer(),
                auth_dialog(),
                notification(),
                session_cookie_fetcher(),
                min_height="100vh",
            )

        page.__name__ = page_content.__name__
        return page

    return wrap(content) if content is not None else wrap
