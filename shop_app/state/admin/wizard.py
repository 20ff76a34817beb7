"""State of the 6-step product creation wizard (/admin/product-creation, docs/spec/admin-products.md#wizard).

Next and Previous move freely (the seed does not say Next checks anything); Publish is enabled
once name, description, base price, stock quantity and category are set. Publish hands the draft
(``domain.product_editing.ProductDraft``) to the all-or-nothing
``services.admin.product_creation.create_product``, run in a worker thread (image files, the
database and Square's SDK block), which holds it to the editors' one rule set: when a field is
wrong the wizard goes back to the step of the first one, with its message beside it. The success
text depends on Square's answer, and the admin is then sent to /admin with the draft cleared. A
failure keeps the whole draft, uploads included, so Publish can be pressed again.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import reflex as rx

from shop_app import routes
from shop_app.domain.admin_messages import BackendMessage, ProductAdminMessage
from shop_app.domain.money import format_cents
from shop_app.domain.product_draft import (
    STEP_COUNT,
    DraftError,
    DraftField,
    clamp_step,
    parse_price,
    percent_complete,
    price_preview,
    product_type_for,
    publish_ready,
    step_of,
)
from shop_app.domain.product_editing import DraftInvalid
from shop_app.services.admin.product_creation import ProductCreationError
from shop_app.state import notify
from shop_app.state.admin.guard import admin_event
from shop_app.state.admin.product_draft import ProductDraftMixin, create_with_square
from shop_app.state.auth import private_state

log = logging.getLogger(__name__)

F = DraftField
WIZARD_FIELDS: tuple[str, ...] = tuple(
    f.value for f in DraftField if f not in (F.IMAGES, F.SCENT_NOTES, F.SIZE, F.BURN_TIME)
)
# docs/spec/admin-products.md#product-record: product_type defaults to candles, category to core
DEFAULT_CATEGORY_SLUG = "candles"


@dataclass
class PricingPreview:
    """The pricing step's preview, ready to show."""

    shown: bool = False
    discount: str = ""  # "25% off"
    margin: str = ""  # "$9.00 (60%)" or "" without a cost price


def money_text(text: str) -> str:
    """A typed amount as money ("24" → "$24.00"); as typed when it is not one; "" when empty."""
    try:
        cents = parse_price(text, F.BASE_PRICE)
    except DraftError:
        return text.strip()
    return "" if cents is None else format_cents(cents)


@private_state
class ProductWizardState(ProductDraftMixin, rx.State):
    """The draft product, its step and whether it is being published."""

    step: int = 1
    publishing: bool = False

    @rx.var
    def percent(self) -> int:
        """Percent complete: step N of 6."""
        return percent_complete(self.step)

    @rx.var
    def step_label(self) -> str:
        """The "Step N of 6" readout."""
        return f"Step {clamp_step(self.step)} of {STEP_COUNT}"

    @rx.var
    def can_publish(self) -> bool:
        """Name, description, base price, stock quantity and category set, and not publishing."""
        form = self.form
        return not self.publishing and publish_ready(
            name=form.get("name", ""),
            description=form.get("description", ""),
            base_price=form.get("base_price", ""),
            stock_quantity=form.get("stock_quantity", ""),
            category=form.get("category", ""),
        )

    @rx.var
    def pricing_preview(self) -> PricingPreview:
        """The percent discount while the sale price is below the regular one, and the margin."""
        form = self.form
        preview = price_preview(
            form.get("base_price", ""), form.get("sale_price", ""), form.get("cost_price", "")
        )
        if preview is None:
            return PricingPreview()
        margin = ""
        if preview.margin_cents is not None:
            margin = f"{format_cents(preview.margin_cents)} ({preview.margin_percent}%)"
        return PricingPreview(True, f"{preview.discount_percent}% off", margin)

    @rx.var
    def review_prices(self) -> list[str]:
        """Regular, sale and cost price as the review shows them ("$24.00"; "" when empty)."""
        return [
            money_text(self.form.get(name, ""))
            for name in (F.BASE_PRICE.value, F.SALE_PRICE.value, F.COST_PRICE.value)
        ]

    @rx.var
    def product_type(self) -> str:
        """The seed's product type of the chosen main category (review step)."""
        chosen = self.form.get("category", "")
        slug = next((c.slug for c in self.categories if c.value == chosen), None)
        return product_type_for(slug) or ""

    @admin_event
    async def load(self) -> None:
        """Offer the categories (admins only); a draft in progress is kept."""
        self.form = {**dict.fromkeys(WIZARD_FIELDS, ""), **self.form}
        await self._load_categories()
        if not self.form["category"] and self.categories:
            default = next(
                (c for c in self.categories if c.slug == DEFAULT_CATEGORY_SLUG), self.categories[0]
            )
            self.form["category"] = default.value
            self.form["subcategory"] = default.collections[0].value if default.collections else ""

    @admin_event
    async def next_step(self) -> None:
        """The next step (no checks: Publish checks everything)."""
        self.step = clamp_step(self.step + 1)

    @admin_event
    async def previous_step(self) -> None:
        """The previous step (disabled on step 1)."""
        self.step = clamp_step(self.step - 1)

    @admin_event
    async def go_to_step(self, step: int) -> None:
        """Jump to a step (the review step's Edit links)."""
        self.step = clamp_step(step)

    @admin_event
    async def publish(self):
        """Create the product (all or nothing), then Square; success → /admin."""
        if not self.can_publish:
            return
        self.publishing = True
        yield
        try:
            created = await asyncio.to_thread(create_with_square, self._draft(), self._image_refs())
        except DraftInvalid as invalid:  # the first problem, on its step
            field, message = invalid.problems[0]
            self.publishing = False
            self._show_problems(invalid.problems[:1])
            self.step = step_of(field)
            yield notify.error(message)
            return
        except ProductCreationError as error:
            self.publishing = False
            yield notify.error(str(error))
            return
        except Exception:  # a bug: the draft stays, the admin learns it did not work
            log.exception("publishing a product failed")
            self.publishing = False
            yield notify.error(ProductAdminMessage.CREATE_FAILED.format(message=BackendMessage.UNKNOWN_ERROR))
            return
        self.reset()
        yield [notify.success(created.message), rx.redirect(routes.ADMIN)]
