"""State of the website images screen (docs/spec/admin-site.md#website-images, #website-images-rules,
#website-images-messages). Every handler re-checks the admin role first.

Edits are held in this tab until Save All Changes: an upload is checked and stored at once and
becomes the slot's preview; a removal only marks the slot. Unsaved edits survive a page reload or
a reconnect of the same tab (they live in its server-side state); the files of uploads never
saved are swept later (``services.admin.website_images``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain.admin_messages import ProductFormMessage, WebsiteImageMessage
from shop_app.services.admin import website_images as service
from shop_app.services.media import MAX_IMAGE_BYTES, ImageError, StoredImage
from shop_app.services.site_images import DEFAULT_HERO, IMAGE_TYPES, SLOTS, Slot
from shop_app.settings import get_settings
from shop_app.state import notify
from shop_app.state.admin.guard import AdminGuardMixin, admin_event
from shop_app.state.auth import private_state
from shop_app.state.views import PLACEHOLDER_IMAGE, image_src

log = logging.getLogger(__name__)

UNSAVED_NEW, UNSAVED_REMOVED = "new", "removed"


@dataclass
class SlotView:
    """One card of the screen."""

    image_type: str = ""
    title: str = ""
    description: str = ""
    hint: str = ""
    src: str = PLACEHOLDER_IMAGE  # the preview: staged, saved, or the slot's default
    has_image: bool = False  # an image of its own (saved or staged), not the default
    unsaved: str = ""  # "" | "new" | "removed"


def default_src(image_type: str) -> str:
    """What a slot shows without an image of its own (docs/spec/admin-site.md#website-images-rules)."""
    return DEFAULT_HERO if image_type == "hero" else PLACEHOLDER_IMAGE


def _view(slot: Slot, *, url: str = "", unsaved: str = "") -> SlotView:
    return SlotView(
        image_type=slot.image_type,
        title=slot.title,
        description=slot.description,
        hint=slot.hint,
        src=image_src(url) if url else default_src(slot.image_type),
        has_image=bool(url),
        unsaved=unsaved,
    )


@private_state
class WebsiteImagesState(AdminGuardMixin, rx.State):
    """The six slots, the uploads held for them and the slots marked for removal."""

    slots: list[SlotView] = [_view(slot) for slot in SLOTS]
    changes: int = 0
    saving: bool = False
    table_missing: bool = False  # the website_images table is not in the database (seed: setup notice)
    _saved: dict[str, str] = {}  # image_type -> stored image_url
    _staged: dict[str, dict[str, Any]] = {}  # image_type -> {"url", "width", "height"}
    _removed: list[str] = []

    def _refresh(self) -> None:
        views = []
        for slot in SLOTS:
            kind = slot.image_type
            if kind in self._staged:
                views.append(_view(slot, url=self._staged[kind]["url"], unsaved=UNSAVED_NEW))
            elif kind in self._removed:
                views.append(_view(slot, unsaved=UNSAVED_REMOVED))
            else:
                views.append(_view(slot, url=self._saved.get(kind, "")))
        self.slots = views
        self.changes = len(self._staged) + len(self._removed)

    def _load_saved(self) -> None:
        with session_scope() as session:
            saved = service.load_images(session)
        self._saved = {kind: image.image_url for kind, image in saved.items()}
        self._removed = [kind for kind in self._removed if kind in self._saved]

    @admin_event
    async def load(self):
        """Load the stored images (admins only); edits not yet saved stay. Without the table, the
        slots show the static images and the screen says so (docs/spec/admin-site.md#website-images-rules,
        #website-images-messages)."""
        media_dir = get_settings().media_dir
        try:
            await asyncio.to_thread(service.sweep_stale_uploads, media_dir=media_dir)
            self._load_saved()
        except service.WebsiteImagesTableMissing:
            log.warning("the website_images table is missing: the screen shows the static images")
            self._saved, self._removed, self.table_missing = {}, [], True
            self._refresh()
            return notify.info(WebsiteImageMessage.STATIC_FALLBACK)
        self.table_missing = False
        self._refresh()
        return None

    @admin_event
    async def upload(self, files: list[rx.UploadFile], image_type: str):
        """Check and store the chosen image; it becomes the slot's preview until saved."""
        if image_type not in IMAGE_TYPES or not files:
            return notify.error(WebsiteImageMessage.UPLOAD_IMAGE_FAILED)
        upload = files[0]
        media_dir = get_settings().media_dir
        try:
            data = await upload.read(MAX_IMAGE_BYTES + 1)  # one byte more tells "too large"
            stored = await asyncio.to_thread(
                service.stage_upload, data, filename=upload.filename or "image", media_dir=media_dir
            )
        except ImageError as refused:
            return notify.error(str(refused))
        except Exception:
            log.exception("storing a website image failed")
            return notify.error(WebsiteImageMessage.UPLOAD_IMAGE_FAILED)
        self._discard_staged(image_type)
        held = {"url": stored.url, "width": stored.width, "height": stored.height}
        self._staged = {**self._staged, image_type: held}
        self._removed = [kind for kind in self._removed if kind != image_type]
        self._refresh()
        return notify.success(WebsiteImageMessage.UPLOADED)

    @admin_event
    async def upload_rejected(self, image_type: str, rejected: list[dict[str, Any]]):
        """The browser refused the file before sending it (not an image type)."""
        names = [str((entry.get("file") or {}).get("path") or "") for entry in rejected or []]
        name = next((n.lstrip("./") for n in names if n), "")
        if not name or image_type not in IMAGE_TYPES:
            return notify.error(WebsiteImageMessage.UPLOAD_IMAGE_FAILED)
        return notify.error(ProductFormMessage.NOT_AN_IMAGE.format(file=name))

    @admin_event
    async def remove(self, image_type: str):
        """Mark the slot for removal (and drop an upload held for it)."""
        if image_type not in IMAGE_TYPES:
            return None
        self._discard_staged(image_type)
        if image_type in self._saved and image_type not in self._removed:
            self._removed = [*self._removed, image_type]
        self._refresh()
        return notify.info(WebsiteImageMessage.REMOVED)

    @admin_event
    async def save(self):
        """Save All Changes: removals first, then the uploads, in one transaction; then reload."""
        if self.saving:
            return None
        if not self._staged and not self._removed:
            return None
        self.saving = True
        staged = {
            kind: StoredImage(url=image["url"], width=image["width"], height=image["height"])
            for kind, image in self._staged.items()
        }
        try:
            await asyncio.to_thread(
                service.save_changes,
                staged=staged,
                removed=list(self._removed),
                media_dir=get_settings().media_dir,
            )
        except service.WebsiteImageError as refused:
            self.table_missing = isinstance(refused, service.WebsiteImagesTableMissing)
            return notify.error(str(refused))
        except Exception:
            log.exception("saving website images failed")
            return notify.error(WebsiteImageMessage.SAVE_FAILED)
        finally:
            self.saving = False
        self._staged, self._removed = {}, []
        self._load_saved()
        self._refresh()
        return notify.success(WebsiteImageMessage.ALL_SAVED)

    def _discard_staged(self, image_type: str) -> None:
        held = self._staged.get(image_type)
        if held is None:
            return
        self._staged = {kind: image for kind, image in self._staged.items() if kind != image_type}
        try:
            service.discard_upload(held["url"], media_dir=get_settings().media_dir)
        except Exception:  # the sweep deletes it later
            log.exception("discarding a staged website image failed")
