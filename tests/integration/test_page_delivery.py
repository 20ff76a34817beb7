"""How pages and images reach the browser fast: the hero at a fixed address, pages without a
redirect, built assets cached for a year (api/site_images.py, api/static_delivery.py)."""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image
from sqlmodel import Session
from starlette.applications import Starlette
from starlette.exceptions import StarletteDeprecationWarning
from starlette.responses import PlainTextResponse
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from shop_app import routes
from shop_app.api import create_api
from shop_app.api.site_images import DEFAULT_HERO_FILE
from shop_app.api.static_delivery import ASSET_CACHE_CONTROL, StaticDelivery
from shop_app.models import WebsiteImage
from shop_app.services.media import store_image
from shop_app.settings import get_settings

with warnings.catch_warnings():
    # Starlette 1.x prefers the httpx2 package for its TestClient; httpx (installed) works alike.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient


@pytest.fixture
def client(app_env: Callable[..., None]) -> Iterator[TestClient]:
    """The shop's API app on the test database."""
    with TestClient(create_api()) as test_client:
        yield test_client


def _png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "navy").save(buffer, format="PNG")
    return buffer.getvalue()


def test_the_hero_address_serves_the_default_until_one_is_stored(
    client: TestClient, session: Session
) -> None:
    default = client.get(routes.HERO_IMAGE)
    assert default.status_code == 200 and default.content == DEFAULT_HERO_FILE.read_bytes()
    assert default.headers["content-type"] == "image/webp"
    assert default.headers["cache-control"] == "public, max-age=300"

    media_dir = get_settings().media_dir
    stored = store_image(_png(1500, 640), media_dir=media_dir, folder="website-images")
    session.add(
        WebsiteImage(image_type="hero", image_url=stored.url, width=stored.width, height=stored.height)
    )
    session.commit()

    full = client.get(routes.hero_image_url())
    small = client.get(routes.hero_image_url(640))
    odd = client.get(f"{routes.HERO_IMAGE}?w=7")  # not a rendition width: the full image

    stem = stored.url.removeprefix("/media/").removesuffix(".webp")
    assert full.content == (media_dir / f"{stem}.webp").read_bytes()
    assert small.content == (media_dir / f"{stem}-640w.webp").read_bytes()
    assert Image.open(io.BytesIO(small.content)).width == 640
    assert odd.content == full.content


def test_a_stored_hero_whose_file_is_gone_falls_back_to_the_default(
    client: TestClient, session: Session
) -> None:
    session.add(WebsiteImage(image_type="hero", image_url="/media/website-images/" + "a" * 32 + ".webp"))
    session.commit()

    assert client.get(routes.HERO_IMAGE).content == DEFAULT_HERO_FILE.read_bytes()


@pytest.fixture
def built(tmp_path: Path) -> TestClient:
    """A fake production build served the way Reflex serves it (StaticFiles, html=True)."""
    pages = tmp_path / "client"
    (pages / "shop").mkdir(parents=True)
    (pages / "shop" / "index.html").write_text("<h1>shop</h1>", encoding="utf-8")
    (pages / "index.html").write_text("<h1>home</h1>", encoding="utf-8")
    (pages / "assets").mkdir()
    (pages / "assets" / "entry-abc123.js").write_text("console.log(1)", encoding="utf-8")

    api = PlainTextResponse("api")  # an ASGI app answering every request
    app = Starlette(routes=[Mount("/api", app=api), Mount("/", app=StaticFiles(directory=pages, html=True))])
    return TestClient(StaticDelivery(app, pages_dir=pages), follow_redirects=False)


def test_a_page_without_its_trailing_slash_is_served_in_place(built: TestClient) -> None:
    response = built.get("/shop?category=candles")

    assert response.status_code == 200 and response.text == "<h1>shop</h1>"
    assert built.get("/shop/").text == "<h1>shop</h1>"
    assert built.get("/").text == "<h1>home</h1>"
    assert built.get("/nowhere").status_code == 404
    assert built.get("/api/x").text == "api"  # not a page: untouched
    assert built.post("/shop").status_code == 405  # only GET and HEAD are rewritten


def test_built_assets_are_cached_for_a_year_and_pages_are_not(built: TestClient) -> None:
    asset = built.get("/assets/entry-abc123.js")

    assert asset.headers["cache-control"] == ASSET_CACHE_CONTROL.decode()
    assert "cache-control" not in built.get("/shop").headers
    assert "cache-control" not in built.get("/assets/missing.js").headers


def test_an_encoded_parent_folder_never_serves_another_page(built: TestClient) -> None:
    """``/x/%2F..%2F`` reached the static server as ``/x//../``: the home page's HTML at another
    address, which the app then hydrated as that address's page (a stranger's finding)."""
    for path in ("/x/%2F..%2F", "/product/%2F..%2Fshop%2F", "/shop/%2F..%2F"):
        assert built.get(path).status_code == 404, path
    assert built.get("/shop/").text == "<h1>shop</h1>"
