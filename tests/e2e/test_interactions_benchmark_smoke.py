"""``benchmarks/interactions.py`` walks every interaction of its list on the running shop, so its
selectors cannot rot unseen (no time is asserted: a test is not a benchmark)."""

from __future__ import annotations

from playwright.sync_api import Page

from benchmarks import interactions


def test_one_visitor_goes_through_every_interaction(
    shop_url: str, shop_database_url: str, page: Page
) -> None:
    watch = interactions.Stopwatch()

    interactions.visitor(page, shop_url, interactions.catalogue(shop_database_url), watch)

    admin_screens = {f"admin: open {heading}" for _link, heading in interactions.ADMIN_SCREENS}
    assert set(watch.samples) == {
        "open a product from a card",
        "filter the shop by a category",
        "search the shop",
        "change the scent",
        "increase the quantity",
        "add to cart",
        "open the cart",
        "go to checkout from the cart",
        "… checkout: Place Order shown",
        "open the sign-in dialog",
        "sign in",
        "… sign in: dialog closed, account menu shown",
        "open the back office",
        *admin_screens,
    }
    assert all(samples.first and all(ms > 0 for ms in samples.first) for samples in watch.samples.values())
    assert all(
        samples.repeated
        for name, samples in watch.samples.items()
        if not name.startswith(("sign in", "… sign in", "open the back office"))
    )
    block = interactions._block(watch, runs=1, command="smoke", shop="the e2e shop")
    assert f"of {len(watch.samples)} interactions." in block
