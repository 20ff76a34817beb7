"""Artwork rendering: sizes, determinism, WebP output and speed."""

from __future__ import annotations

import hashlib
import io
import pathlib

import pytest
from PIL import Image

from shop_app.demo.artwork import (
    CARD_IMAGE_SIZE,
    HERO_IMAGE_SIZE,
    KINDS,
    PRODUCT_IMAGE_SIZE,
    DemoImageSpec,
    render,
    save_webp,
)
from shop_app.demo.demo_catalog import PRODUCTS, WEBSITE_IMAGES

ONE_OF_EACH_KIND = {p.image.kind: p.image for p in PRODUCTS}


def test_every_product_kind_is_covered() -> None:
    assert set(ONE_OF_EACH_KIND) == set(KINDS) - {"banner"}


@pytest.mark.parametrize("kind", sorted(ONE_OF_EACH_KIND))
def test_product_image_size_and_determinism(kind: str) -> None:
    spec = ONE_OF_EACH_KIND[kind]
    a = render(spec, PRODUCT_IMAGE_SIZE)
    b = render(spec, PRODUCT_IMAGE_SIZE)
    assert a.size == (800, 800)
    assert a.mode == "RGB"
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("website_image", WEBSITE_IMAGES, ids=lambda w: w.image_type)
def test_banner_sizes_and_determinism(website_image) -> None:
    a = render(website_image.spec, website_image.size)
    assert a.size == website_image.size
    assert a.tobytes() == render(website_image.spec, website_image.size).tobytes()


def test_hero_is_21_by_9_and_cards_4_by_3() -> None:
    assert HERO_IMAGE_SIZE[0] * 9 == HERO_IMAGE_SIZE[1] * 21
    assert CARD_IMAGE_SIZE[0] * 3 == CARD_IMAGE_SIZE[1] * 4


def test_images_are_not_blank_and_differ_by_spec() -> None:
    a = render(PRODUCTS[0].image, (200, 200))
    b = render(PRODUCTS[1].image, (200, 200))
    assert a.tobytes() != b.tobytes()
    lo, hi = a.convert("L").getextrema()
    assert hi - lo > 100  # real contrast, not a flat fill


def test_odd_sizes_are_exact() -> None:
    spec = ONE_OF_EACH_KIND["jar"]
    assert render(spec, (333, 251)).size == (333, 251)
    banner = WEBSITE_IMAGES[0].spec
    assert render(banner, (701, 299)).size == (701, 299)


def test_long_labels_still_render() -> None:
    spec = DemoImageSpec("jar", "#2a2a2d", "#b07c3e", "Black Pepper & Vetiver With A Very Long Name Indeed")
    assert render(spec, (400, 400)).size == (400, 400)
    spec = DemoImageSpec(
        "banner", "#efe6da", "#b0733a", "A Very Long Heading That Has To Wrap Onto Two Lines"
    )
    assert render(spec, (1200, 900)).size == (1200, 900)


def test_save_webp_reopens_as_webp_and_is_deterministic(tmp_path: pathlib.Path) -> None:
    image = render(PRODUCTS[0].image, PRODUCT_IMAGE_SIZE)
    first = tmp_path / "a" / "product.webp"
    second = tmp_path / "b.webp"
    save_webp(image, first)
    save_webp(render(PRODUCTS[0].image, PRODUCT_IMAGE_SIZE), second)
    with Image.open(first) as reopened:
        assert reopened.format == "WEBP"
        assert reopened.size == (800, 800)
    assert hashlib.sha256(first.read_bytes()).digest() == hashlib.sha256(second.read_bytes()).digest()
    assert first.stat().st_size < 200_000


def test_save_webp_quality_changes_output(tmp_path: pathlib.Path) -> None:
    image = render(WEBSITE_IMAGES[0].spec, (420, 180))
    save_webp(image, tmp_path / "low.webp", quality=30)
    save_webp(image, tmp_path / "high.webp", quality=95)
    assert (tmp_path / "low.webp").stat().st_size < (tmp_path / "high.webp").stat().st_size
    with Image.open(io.BytesIO((tmp_path / "low.webp").read_bytes())) as im:
        assert im.format == "WEBP"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kind": "vase", "colour": "#ffffff", "accent": "#000000", "label": "x"},
        {"kind": "jar", "colour": "white", "accent": "#000000", "label": "x"},
        {"kind": "jar", "colour": "#ffffff", "accent": "#00000", "label": "x"},
        {"kind": "banner", "colour": "#ffffff", "accent": "#000000", "label": "x", "props": ("banner",)},
    ],
)
def test_invalid_specs_are_rejected(kwargs) -> None:
    with pytest.raises(ValueError):
        DemoImageSpec(**kwargs)


def test_bad_size_is_rejected() -> None:
    with pytest.raises(ValueError):
        render(PRODUCTS[0].image, (0, 100))
