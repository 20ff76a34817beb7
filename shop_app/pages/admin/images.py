"""Website images (/admin/manage-images, /admin/images, /admin/dashboard/images;
docs/spec/admin-site.md#website-images): six slots, each with a preview, Remove and Upload/Replace; nothing is
live until Save All Changes."""

from __future__ import annotations

import reflex as rx

from shop_app.components.admin.page_header import back_to_dashboard_link
from shop_app.components.admin.website_image_card import website_image_card
from shop_app.domain.admin_messages import WebsiteImageMessage
from shop_app.services.site_images import SLOTS
from shop_app.state.admin.images import WebsiteImagesState as S

TIPS = (
    "Use a hero image at least 1200px wide so it stays sharp on large screens.",
    "Keep files under 2MB so the pages load quickly.",
    'Click "Save All Changes" to update the website; uploads and removals are not live until then.',
)


def _tips() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("lightbulb")),
        rx.vstack(
            rx.text("Tips", weight="bold", size="2"),
            rx.el.ul(
                *(rx.el.li(rx.text(tip, size="2")) for tip in TIPS),
                padding_left="1.25rem",
                list_style_type="disc",
            ),
            spacing="1",
        ),
        color_scheme="blue",
        width="100%",
    )


def website_images() -> rx.Component:
    """The screen's content (inside the admin layout)."""
    return rx.vstack(
        back_to_dashboard_link(),
        rx.hstack(
            rx.vstack(
                rx.heading("Website Images", size="8", as_="h1"),
                rx.text(
                    "The pictures of the home and About pages. Upload, replace or remove them, then save.",
                    color_scheme="gray",
                ),
                spacing="1",
            ),
            rx.button(
                rx.icon("save", size=16),
                "Save All Changes",
                on_click=S.save,
                disabled=S.changes == 0,
                loading=S.saving,
                size="3",
            ),
            justify="between",
            align="center",
            width="100%",
            wrap="wrap",
        ),
        rx.cond(
            S.table_missing,
            rx.callout(
                WebsiteImageMessage.TABLE_MISSING.value,
                icon="triangle-alert",
                color_scheme="amber",
                role="alert",
                width="100%",
            ),
        ),
        rx.grid(
            *(website_image_card(index, slot) for index, slot in enumerate(SLOTS)),
            columns=rx.breakpoints(initial="1", sm="2", lg="3"),
            spacing="4",
            width="100%",
        ),
        _tips(),
        spacing="5",
        max_width="1200px",
        width="100%",
    )
