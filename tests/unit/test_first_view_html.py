"""The first view's HTML (api/first_view.py): escaped, the card's variants, the region filled once.

That this markup is the card component's, node for node, is checked in Chromium by
tests/e2e/test_first_view.py; here, what the browser must never get wrong.
"""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st

from shop_app.api import first_view
from shop_app.services.catalog.card_views import CardView, ScentOption, VariationView


def _card(title: str = "Soy Candle", **current: object) -> CardView:
    view = VariationView(
        product_id=7,
        label="Cedar",
        description="Woody.",
        price="$30.00",
        image_url="/media/products/a.webp",
        stock_text="5 in stock",
        in_stock=True,
        url="/product/7",
    )
    for name, value in current.items():
        setattr(view, name, value)
    return CardView(key="k", title=title, current=view)


class _Texts(HTMLParser):
    """The text and the attribute values a browser would read from a piece of HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def _parse(html: str) -> _Texts:
    parser = _Texts()
    parser.feed(html)
    parser.close()
    return parser


@given(st.text(min_size=1, max_size=40))
def test_any_name_or_description_stays_text(text: str) -> None:
    card = _card(text, label=text, description=text, badge=text)

    parsed = _parse(first_view.card_html(card, eager=True))

    assert "script" not in parsed.tags
    assert parsed.texts.count(text) >= 3  # the title, the description, the badge: as written
    assert ("alt", text) in parsed.attrs and ("aria-label", f"Add {text} to favorites") in parsed.attrs


def test_a_card_on_sale_with_scents_shows_the_chosen_scent_and_the_old_price() -> None:
    card = _card(compare_at_price="$40.00", badge="On Sale", image_srcset="/a-320w.webp 320w, /a.webp 800w")
    card.has_variants = True
    card.scents = ["Cedar", "Amber"]
    card.scent_options = [ScentOption("Cedar", "Cedar"), ScentOption("Amber", "Amber (sold out)")]
    card.selected_scent = "Cedar"

    html = first_view.card_html(card, eager=False)

    assert (
        '<option value="Cedar" selected="">Cedar</option><option value="Amber">Amber (sold out)</option>'
        in html
    )
    assert 'aria-label="was $40.00"' in html and ">$40.00</span>" in html
    assert 'loading="lazy"' in html and 'srcset="/a-320w.webp 320w, /a.webp 800w"' in html
    assert 'aria-label="Customize Soy Candle"' in html and ">Customize</a>" in html


def test_a_sold_out_card_offers_no_button_but_says_so() -> None:
    html = first_view.card_html(_card(in_stock=False, stock_text="Out of Stock"), eager=True)

    assert 'disabled="">Out of Stock</button>' in html
    assert 'data-accent-color="red" class="rt-Text rt-r-size-1 product-card__stock">Out of Stock</p>' in html
    assert 'srcset=""' in html  # no renditions: the browser uses src (React writes it so too)


def test_the_buttons_wait_for_the_page_but_the_links_work_at_once() -> None:
    html = first_view.card_html(_card(), eager=True)

    assert 'product-card__action" disabled="" data-disabled="true">Add</button>' in html
    assert (
        'product-card__heart" data-accent-color="gray" data-radius="full" type="button" disabled=""' in html
    )
    assert html.count('href="/product/7"') == 2 and "disabled" not in html.split("<a", 1)[1].split(">", 1)[0]


def test_the_first_row_of_a_grid_loads_at_once_the_rest_when_near() -> None:
    html = first_view.grid_html([_card(f"Candle {n}") for n in range(6)])

    assert html.count('loading="eager"') == first_view.EAGER_CARDS
    assert html.count('loading="lazy"') == 2


def test_the_region_is_filled_once_whatever_the_order_of_its_attributes() -> None:
    page = (
        '<main><div class="first-view" id="first-view-shop-cards"></div>'
        '<div id="first-view-home"></div></main>'
    )

    filled = first_view.fill(page, "shop-cards", "<p>cards</p>")

    assert filled == (
        '<main><div class="first-view" id="first-view-shop-cards"><p>cards</p></div>'
        '<div id="first-view-home"></div></main>'
    )
    assert first_view.fill(page, "elsewhere", "<p>cards</p>") == page  # no such region: as built
    assert first_view.fill(filled, "shop-cards", "<p>again</p>") == filled  # a filled region is not empty
