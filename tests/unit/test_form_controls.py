"""Every control a form of the shop submits has a ``name``.

Reflex 0.10.1 deprecates submitting a control by its ``id`` alone (0.11 will drop such values from
the form data) and says so in the build log, once per control. This builds every page of the app
and fails on any such warning.
"""

from __future__ import annotations

import pytest
import reflex_components_core.el.elements.forms as reflex_forms

from shop_app.shop_app import app


def test_no_form_control_is_submitted_by_its_id_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    warned: list[str] = []
    monkeypatch.setattr(reflex_forms.console, "deprecate", lambda **kw: warned.append(kw["feature_name"]))
    assert len(app._unevaluated_pages) > 40
    for page in app._unevaluated_pages.values():
        component = page.component() if callable(page.component) else page.component
        assert component is not None
    assert warned == []
