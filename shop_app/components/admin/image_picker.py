"""The product images picker of the wizard and the local form: drop zone, file picker, thumbnails.

``state`` is a ``state.admin.image_picker.ImagePickerMixin`` state. Files dropped or picked are
uploaded at once (``rx.upload`` with ``on_drop``) and staged by the server, which checks every
byte; the browser's own type and 5 MB checks only spare a useless upload. Thumbnails keep the
gallery order: the first is labelled Main, each can be moved or removed.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from shop_app.components.image import safe_image
from shop_app.domain.admin_messages import ProductDraftText
from shop_app.services.media import MAX_IMAGE_BYTES

ACCEPTED_TYPES = {
    "image/jpeg": [".jpg", ".jpeg"],
    "image/png": [".png"],
    "image/webp": [".webp"],
    "image/gif": [".gif"],
}


def _rejections(rejected: rx.Var) -> rx.Var:
    """The browser's refusals as ``[{name, code}]``: the File itself must not travel (socket.io
    would send its bytes along, defeating the size check)."""
    return rx.Var(
        _js_expr=(
            f"({rejected}).map((r) => ({{name: (r.file && r.file.name) || '', "
            "code: ((r.errors || [])[0] || {}).code || ''}))"
        ),
        _var_type=list[dict[str, str]],
    )


def _thumbnail(state: Any, image: Any, index: rx.Var[int]) -> rx.Component:
    number = (index + 1).to_string()
    return rx.box(
        safe_image(
            image.src,
            "Product image " + number,
            width="100%",
            height="8rem",
            object_fit="cover",
            border_radius="var(--radius-2)",
        ),
        rx.cond(
            index == 0,
            rx.badge("Main", color_scheme="green", position="absolute", top="0.4rem", left="0.4rem"),
            rx.fragment(),
        ),
        rx.hstack(
            rx.icon_button(
                rx.icon("arrow-left", size=14),
                type="button",
                size="1",
                variant="soft",
                color_scheme="gray",
                disabled=index == 0,
                aria_label="Move image " + number + " earlier",
                on_click=state.move_image(index, -1),
            ),
            rx.icon_button(
                rx.icon("arrow-right", size=14),
                type="button",
                size="1",
                variant="soft",
                color_scheme="gray",
                disabled=index == state.images.length() - 1,
                aria_label="Move image " + number + " later",
                on_click=state.move_image(index, 1),
            ),
            rx.spacer(),
            rx.icon_button(
                rx.icon("x", size=14),
                type="button",
                size="1",
                variant="soft",
                color_scheme="red",
                aria_label="Remove image " + number,
                on_click=state.remove_image(index),
            ),
            width="100%",
            padding_top="0.4rem",
        ),
        position="relative",
    )


def image_picker(state: Any, *, upload_id: str, error: rx.Component | None = None) -> rx.Component:
    """Drag-and-drop zone and file picker (several files), then the thumbnails."""
    return rx.vstack(
        rx.upload(
            rx.vstack(
                rx.icon("image-plus", size=28, color=rx.color("gray", 10)),
                rx.text("Drag and drop images here, or click to choose files", size="2", weight="medium"),
                rx.text(ProductDraftText.IMAGE_HINT.value, size="1", color_scheme="gray"),
                rx.button("Choose Images", type="button", variant="soft", size="2"),
                align="center",
                spacing="2",
            ),
            id=upload_id,
            accept=ACCEPTED_TYPES,
            multiple=True,
            max_size=MAX_IMAGE_BYTES,
            # Reflex drops a second upload to the same zone while one is in flight (a console line,
            # nothing on screen), so the zone is shut until the first one has been answered.
            disabled=state.uploading,
            on_drop=state.upload_images(rx.upload_files(upload_id=upload_id)),
            on_drop_rejected=lambda rejected: state.refuse_images(_rejections(rejected)),
            border=f"2px dashed {rx.color('gray', 7)}",
            border_radius="var(--radius-3)",
            padding="1.5rem",
            width="100%",
            cursor="pointer",
            drag_active_style={"border_color": rx.color("accent", 9), "background": rx.color("accent", 2)},
            custom_attrs={"aria-label": "Upload product images"},
        ),
        rx.cond(
            state.uploading,
            rx.hstack(rx.spinner(size="2"), rx.text("Uploading...", size="2"), align="center"),
            rx.fragment(),
        ),
        error or rx.fragment(),
        rx.grid(
            rx.foreach(state.images, lambda image, index: _thumbnail(state, image, index)),
            columns=rx.breakpoints(initial="2", sm="3", md="4"),
            spacing="3",
            width="100%",
        ),
        spacing="3",
        width="100%",
    )
