"""View data of the information pages: the About page's founder image."""

from __future__ import annotations

import reflex as rx

from shop_app.db import session_scope
from shop_app.services.site_images import site_images
from shop_app.state.views import PLACEHOLDER_IMAGE, image_src, image_srcset

# docs/spec/admin-site.md#website-images-rules: the default alt text of the about image
ABOUT_ALT = "About us"


class AboutState(rx.State):
    """The stored website image of type 'about' (the placeholder when there is none)."""

    image_src: str = PLACEHOLDER_IMAGE
    image_srcset: str = ""
    image_alt: str = ABOUT_ALT

    @rx.event
    def load(self) -> None:
        """Read the image once per page load."""
        with session_scope() as session:
            image = site_images(session).get("about")
        url = image.image_url if image else ""
        self.image_src = image_src(url)
        self.image_srcset = image_srcset(url, image.width if image else None)
        self.image_alt = (image.alt_text if image else "") or ABOUT_ALT
