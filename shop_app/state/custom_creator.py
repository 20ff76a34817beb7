"""/custom-creator: the custom candle builder (vessel → scents → review, docs/spec/content.md#custom-creator,
#custom-creator-messages).

The vessels and their prices come from the database on every page load; the order summary's
live price is the vessel's price times the quantity. Add to Cart sends only the design (vessel
id, scent ids, intensities, quantity, instructions) to ``services.custom_candles``, which adds a
cart line priced from the database like any product.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import reflex as rx

from shop_app.db import session_scope
from shop_app.domain import custom_candle as rules
from shop_app.domain import validation
from shop_app.domain.custom_candle import Design, ScentChoice
from shop_app.domain.money import format_cents
from shop_app.domain.pricing import MAX_QUANTITY
from shop_app.services import cart as carts
from shop_app.services import custom_candles
from shop_app.services.cart import CartError, CartOwner
from shop_app.state import notify
from shop_app.state.auth import AuthState
from shop_app.state.cart import CartState

log = logging.getLogger(__name__)

ADD_FAILED = "Sorry, your candle could not be added to the cart. Please try again."  # ours


@dataclass
class VesselRow:
    """A vessel of step 1."""

    id: int = 0
    name: str = ""
    size: str = ""
    burn_time: str = ""
    price: str = ""
    price_cents: int = 0
    in_stock: bool = True


@dataclass
class ChosenScentRow:
    """A scent of the blend and its intensity (1 to 5)."""

    id: str = ""
    name: str = ""
    intensity: int = rules.DEFAULT_INTENSITY


class CustomCreatorState(rx.State):
    """The builder's steps, the design so far and the live price."""

    step: int = 1
    vessels: list[VesselRow] = []
    vessel_id: int = 0  # 0: none chosen yet
    chosen: list[ChosenScentRow] = []
    quantity: int = 1
    instructions: str = ""
    error: str = ""
    adding: bool = False
    loaded: bool = False

    @rx.var
    def vessel(self) -> VesselRow:
        """The chosen vessel (an empty row when none)."""
        return next((v for v in self.vessels if v.id == self.vessel_id), VesselRow())

    @rx.var
    def vessel_value(self) -> str:
        """The chosen vessel as the radio cards' value."""
        return str(self.vessel_id) if self.vessel_id else ""

    @rx.var
    def chosen_ids(self) -> list[str]:
        """The chosen scents as the checkbox cards' value."""
        return [scent.id for scent in self.chosen]

    @rx.var
    def total(self) -> str:
        """The live price: the vessel's price times the quantity."""
        return format_cents(rules.design_total_cents(self.vessel.price_cents, self.quantity))

    def _choices(self) -> tuple[ScentChoice, ...]:
        return tuple(ScentChoice(scent.id, scent.intensity) for scent in self.chosen)

    def _show(self, choices: tuple[ScentChoice, ...]) -> None:
        self.chosen = [
            ChosenScentRow(c.scent_id, rules.SCENTS_BY_ID[c.scent_id].name, c.intensity) for c in choices
        ]

    @rx.event
    def load(self) -> None:
        """Read the vessels and their prices (a vessel no longer offered is unselected)."""
        with session_scope() as session:
            choices = custom_candles.vessel_choices(session)
        self.vessels = [
            VesselRow(
                v.id, v.name, v.size, v.burn_time, format_cents(v.price_cents), v.price_cents, v.in_stock
            )
            for v in choices
        ]
        if not any(v.id == self.vessel_id for v in self.vessels):
            self.vessel_id = 0
            self.step = 1
        self.loaded = True

    @rx.event
    def choose_vessel(self, value: str) -> None:
        """Step 1: pick a vessel."""
        vessel_id = validation.parse_id(value) or 0
        if any(v.id == vessel_id for v in self.vessels):
            self.vessel_id, self.error = vessel_id, ""

    @rx.event
    def set_scents(self, values: list[str]):
        """Step 2: the checkbox cards' new value; a fourth scent is refused with the seed's text.

        The refusal is a notification: it shows wherever the shopper has scrolled to.
        """
        wanted = [str(v) for v in values]
        choices, problem = self._choices(), None
        for scent_id in [c.scent_id for c in choices if c.scent_id not in wanted] + [
            v for v in wanted if v not in self.chosen_ids
        ]:
            choices, problem = rules.toggle_scent(choices, scent_id)
            if problem is not None:
                break
        self._show(choices)
        self.error = ""
        return notify.error(problem) if problem else None

    @rx.event
    def set_intensity(self, scent_id: str, value: str) -> None:
        """Step 2: how strong one scent of the blend is (1 to 5)."""
        level = validation.parse_whole_number(value, maximum=99)
        level = rules.DEFAULT_INTENSITY if level is None else level
        self._show(rules.set_intensity(self._choices(), str(scent_id), level))

    @rx.event
    def change_quantity(self, delta: int) -> None:
        """Step 3: one more or one fewer (at least 1, at most 99)."""
        self.quantity = max(rules.MIN_QUANTITY, min(MAX_QUANTITY, self.quantity + int(delta)))

    @rx.event
    def set_instructions(self, text: str) -> None:
        """Step 3: special instructions (kept one character past the limit, for the message)."""
        self.instructions = str(text)[: rules.MAX_INSTRUCTIONS_LENGTH + 1]

    @rx.event
    def next_step(self) -> None:
        """Next: step 1 needs a vessel, step 2 at least one scent."""
        problem = rules.step_problem(self.step, vessel_id=self.vessel_id or None, scents=self._choices())
        if problem is not None:
            self.error = problem
            return
        self.error = ""
        self.step = min(rules.STEPS, self.step + 1)

    @rx.event
    def back(self) -> None:
        """Back one step."""
        self.error = ""
        self.step = max(1, self.step - 1)

    @rx.event
    async def add_to_cart(self):
        """Put the design in the cart (priced on the server) and start a new one."""
        design = Design(self.vessel_id or None, self._choices(), self.quantity, self.instructions)
        problem = rules.validate_design(design)
        if problem is not None:
            self.error = problem
            return
        self.adding, self.error = True, ""
        yield
        cart = await self.get_state(CartState)
        if not cart._durable_token():
            cart.cart_token = carts.new_token()
        auth = await self.get_state(AuthState)
        try:
            with session_scope() as session:
                current = auth._user(session)  # a signed-in customer's cart is theirs
                owner = CartOwner(token=cart.cart_token, user_id=current.user_id if current else None)
                _, message = custom_candles.add_design(session, owner, design)
        except CartError as error:
            self.adding, self.error = False, str(error)
            return
        except Exception:
            log.exception("a custom candle could not be added to the cart")
            self.adding, self.error = False, ADD_FAILED
            return
        self.adding, self.step, self.vessel_id, self.chosen = False, 1, 0, []
        self.quantity, self.instructions = 1, ""
        yield [CartState.load, notify.success(message)]
