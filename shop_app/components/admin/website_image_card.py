"""A card of the website images screen: one slot with its preview, Remove and Upload/Replace."""

from __future__ import annotations

import reflex as rx

from shop_app.components.image import safe_image
from shop_app.services.site_images import Slot
from shop_app.state.admin.images import UNSAVED_NEW, UNSAVED_REMOVED
from shop_app.state.admin.images import WebsiteImagesState as S

# docs/spec/admin-site.md#website-images: any image type; the server sniffs the bytes
ACCEPTED = {"image/*": []}


def upload_id(image_type: str) -> str:
    """The upload zone of a slot (also the test hook: ``#website-image-upload-hero``)."""
    return f"website-image-upload-{image_type}"


def _unsaved_badge(unsaved: rx.Var[str]) -> rx.Component:
    return rx.match(
        unsaved,
        (UNSAVED_NEW, rx.badge("New image, not saved yet", color_scheme="amber")),
        (UNSAVED_REMOVED, rx.badge("Removed, not saved yet", color_scheme="red")),
        rx.fragment(),
    )


def website_image_card(index: int, slot: Slot) -> rx.Component:
    """The card of ``slot`` (``index``: its place in ``WebsiteImagesState.slots``)."""
    view = S.slots[index]
    zone = upload_id(slot.image_type)
    return rx.card(
        rx.vstack(
            rx.heading(slot.title, size="4", as_="h2"),
            rx.text(slot.description, size="2", color_scheme="gray"),
            rx.box(
                safe_image(
                    view.src,
                    f"{slot.title} preview",
                    width="100%",
                    aspect_ratio="16 / 9",
                    object_fit="cover",
                    border_radius="var(--radius-3)",
                    loading="lazy",
                ),
                rx.cond(
                    view.has_image,
                    rx.icon_button(
                        rx.icon("trash-2", size=16),
                        color_scheme="red",
                        size="2",
                        position="absolute",
                        top="0.5rem",
                        right="0.5rem",
                        on_click=S.remove(slot.image_type),
                        aria_label=f"Remove {slot.title} image",
                    ),
                ),
                position="relative",
                width="100%",
            ),
            _unsaved_badge(view.unsaved),
            rx.cond(~view.has_image, rx.text(slot.hint, size="1", color_scheme="gray")),
            rx.upload.root(
                rx.vstack(
                    rx.button(
                        rx.icon("upload", size=16),
                        rx.cond(view.has_image, "Replace Image", "Upload Image"),
                        type="button",
                        variant="soft",
                    ),
                    rx.text("or drop an image here", size="1", color_scheme="gray"),
                    align="center",
                    spacing="1",
                ),
                id=zone,
                accept=ACCEPTED,
                multiple=False,
                max_files=1,
                on_drop=S.upload(rx.upload_files(upload_id=zone), slot.image_type),
                on_drop_rejected=S.upload_rejected(slot.image_type),
                width="100%",
                padding="0.75rem",
                border=f"1px dashed {rx.color('gray', 7)}",
                border_radius="var(--radius-3)",
                cursor="pointer",
                custom_attrs={"data-testid": zone},
            ),
            spacing="3",
            width="100%",
        ),
        class_name="website-image-card",
    )
