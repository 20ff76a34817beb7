"""Opens and closes the sign-in dialog (its forms arrive with the accounts capability)."""

from __future__ import annotations

import reflex as rx


class AuthDialogState(rx.State):
    """Whether the sign-in dialog is open, and on which tab."""

    is_open: bool = False
    tab: str = "login"

    @rx.event
    def open_sign_in(self) -> None:
        """Open the dialog on the Sign In tab."""
        self.tab, self.is_open = "login", True

    @rx.event
    def set_open(self, is_open: bool) -> None:
        """Open or close the dialog (Escape, the close button, Continue as Guest)."""
        self.is_open = bool(is_open)
