"""The demo artwork cache: a shop that finds an image already drawn stores the same files without
drawing it; what cannot be read is drawn again; a cache that cannot be written costs only time."""

from __future__ import annotations

from pathlib import Path

import pytest

from shop_app.demo.artwork import DemoImageSpec, render
from shop_app.services import artwork_cache
from shop_app.services.artwork_cache import encoded_artwork, entry_name
from shop_app.services.media import encode_pil_image, store_encoded

JAR = DemoImageSpec("jar", "#2a2a2d", "#b07c3e", "Cedar")
SIZE = (400, 400)  # small: the original and one rendition (320 px)


def _refuse_to_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    def render_refused(*_args: object) -> None:
        raise AssertionError("drawn although the cache holds it")

    monkeypatch.setattr(artwork_cache, "render", render_refused)


def test_without_a_cache_the_image_is_drawn_and_encoded_as_the_media_module_stores_it() -> None:
    assert encoded_artwork(JAR, SIZE, None) == encode_pil_image(render(JAR, SIZE))


def test_the_second_shop_stores_the_same_files_without_drawing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    first = encoded_artwork(JAR, SIZE, cache)
    assert [p.name for p in cache.iterdir()] == [entry_name(JAR, SIZE)]

    _refuse_to_draw(monkeypatch)
    second = encoded_artwork(JAR, SIZE, cache)

    assert second == first
    one = store_encoded(first, media_dir=tmp_path / "a", folder="products")
    two = store_encoded(second, media_dir=tmp_path / "b", folder="products")
    assert one.url != two.url  # each shop's own random name
    assert (one.width, one.height) == (two.width, two.height) == SIZE
    a = sorted(p.read_bytes() for p in (tmp_path / "a" / "products").iterdir())
    b = sorted(p.read_bytes() for p in (tmp_path / "b" / "products").iterdir())
    assert a == b and len(a) == len(first.files) == 2


def test_an_entry_is_named_by_what_it_draws() -> None:
    names = {
        entry_name(JAR, SIZE),
        entry_name(JAR, (640, 640)),
        entry_name(DemoImageSpec("jar", "#2a2a2d", "#b07c3e", "Cedar "), SIZE),
        entry_name(DemoImageSpec("tin", "#2a2a2d", "#b07c3e", "Cedar"), SIZE),
    }
    assert len(names) == 4
    assert entry_name(JAR, SIZE) == entry_name(DemoImageSpec("jar", "#2a2a2d", "#b07c3e", "Cedar"), SIZE)


@pytest.mark.parametrize("damage", ["garbage meta", "missing file", "no meta"])
def test_an_entry_that_cannot_be_read_is_drawn_and_kept_again(tmp_path: Path, damage: str) -> None:
    expected = encoded_artwork(JAR, SIZE, tmp_path)
    entry = tmp_path / entry_name(JAR, SIZE)
    if damage == "garbage meta":
        (entry / "meta.json").write_text("{not json", encoding="utf-8")
    elif damage == "missing file":
        (entry / "1.webp").unlink()
    else:
        (entry / "meta.json").unlink()

    assert encoded_artwork(JAR, SIZE, tmp_path) == expected
    assert sorted(p.name for p in entry.iterdir()) == ["0.webp", "1.webp", "meta.json"]


def test_a_cache_that_cannot_be_written_still_gives_the_image(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")

    assert encoded_artwork(JAR, SIZE, blocked / "cache") == encode_pil_image(render(JAR, SIZE))
