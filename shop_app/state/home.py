"""The home page's state: featured products and the stored site images."""

from __future__ import annotations

import reflex as rx

from shop_app.db import session_scope
from shop_app.services import catalog
from shop_app.services.site_images import DEFAULT_HERO, default_alt, site_images
from shop_app.state.shop import CardsMixin
from shop_app.state.views import image_src

__all__ = ["DEFAULT_HERO", "HomeState"]


class HomeState(CardsMixin, rx.State):
    """Featured cards, the hero's alt text, the category and mission images."""

    hero_alt: str = default_alt("hero")  # the image itself: routes.HERO_IMAGE (api/site_images)
    candles_src: str = ""
    bodycare_src: str = ""
    fragrance_src: str = ""
    mission_src: str = ""

    @rx.event
    def load(self) -> None:
        """Load up to 12 featured variations (grouped) and the site images."""
        with session_scope() as session:
            self._set_cards(catalog.featured_cards(session))
            images = site_images(session)
        hero = images.get("hero")
        self.hero_alt = hero.alt_text if hero and hero.alt_text else default_alt("hero")

        def src(image_type: str) -> str:
            image = images.get(image_type)
            return image_src(image.image_url if image else "")

        self.candles_src = src("category_candles")
        self.bodycare_src = src("category_bodycare")
        self.fragrance_src = src("category_fragrance")
        self.mission_src = src("mission")
        self.loaded = True
