"""The event guard: what every event must pass before its handler runs.

``ShopMiddleware`` (state/diagnostics.py) asks :func:`screen` about each event the app is about to
handle, from a browser's websocket or from an upload. An event is refused, and its handler never
runs, when

1. its handler is not on the reviewed list (``state/access.py``) or is listed ``REFUSED``;
2. its arguments do not match the handler's signature: unknown or missing names, or a value that
   is not of the annotated type (an ``int`` must be a whole number within 32 bits, a ``str`` at
   most :data:`MAX_TEXT_CHARS` characters, a ``dict`` a form of plain values …);
3. the handler is for customers or administrators and the tab's session, read from the database
   now, is not (``AuthState._user``: identity only from the session's secrets).

Handlers still check their callers and arguments themselves; the guard is the second wall, the
one that stays when a new handler forgets. A refusal is logged as a warning (handler, reason,
the tab's short hash) and, unless the event is one of the page's own loads, the tab is told why in
a notification.
"""

from __future__ import annotations

import inspect
import logging
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from reflex_base.constants.state import FIELD_MARKER
from reflex_base.registry import RegistrationContext
from reflex_base.utils.form import FORM_DATA_ENTRIES_KEY, transform_form_data
from starlette.datastructures import UploadFile

from shop_app.db import session_scope
from shop_app.domain.messages import AuthMessage, ServiceMessage
from shop_app.domain.validation import parse_whole_number
from shop_app.state.access import HANDLERS, SETVAR, Access

log = logging.getLogger(__name__)

MAX_INT: Final = 2**31 - 1
"""Whole numbers from the browser fit a 32-bit column (ids, quantities, pages)."""
MAX_TEXT_CHARS: Final = 20_000
"""The longest text a handler takes (a product description is the longest field)."""
MAX_ITEMS: Final = 200
"""The most entries of a list or form the browser may send in one event."""
MAX_KEY_CHARS: Final = 200
MAX_DEPTH: Final = 3


@dataclass(frozen=True, slots=True)
class Param:
    """One argument of a handler."""

    name: str
    hint: Any
    required: bool


@dataclass(frozen=True, slots=True)
class Rule:
    """What the guard knows of one registered handler."""

    key: str  # ``module.State.handler``, as in state/access.py
    access: Access | None  # None: not on the reviewed list
    params: tuple[Param, ...]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an event was refused, and what the tab is told (empty: nothing)."""

    reason: str
    message: str


def handler_key(state_cls: type, name: str) -> str:
    """The name of a handler in the reviewed list: ``module.State.handler``."""
    return f"{state_cls.__module__}.{state_cls.__name__}.{name}"


def handler_params(fn: Any) -> tuple[Param, ...]:
    """The arguments of a handler function (after ``self``), with their resolved annotations."""
    hints = typing.get_type_hints(fn)
    signature = inspect.signature(fn)
    return tuple(
        Param(name=name, hint=hints.get(name, Any), required=parameter.default is inspect.Parameter.empty)
        for name, parameter in list(signature.parameters.items())[1:]
        if parameter.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    )


def _rules() -> Mapping[str, Rule]:
    """Every registered event, by its full event name.

    Built once the app has registered its handlers, and again whenever more are registered (a
    test that imports only some states, then others).
    """
    registered = RegistrationContext.get().event_handlers
    if len(registered) != _CACHE.get("count"):
        _CACHE["rules"] = {full_name: _rule(full_name, entry) for full_name, entry in registered.items()}
        _CACHE["count"] = len(registered)
    return _CACHE["rules"]


def _rule(full_name: str, registered: Any) -> Rule:
    name = full_name.rsplit(".", 1)[-1]
    key = handler_key(registered.states[0], name)
    access = Access.REFUSED if name == SETVAR else HANDLERS.get(key)
    return Rule(key=key, access=access, params=handler_params(registered.handler.fn))


_CACHE: dict[str, Any] = {}


def rule_for(event_name: str) -> Rule | None:
    """The rule of an event name (None: Reflex has no such handler)."""
    return _rules().get(event_name)


async def screen(state: Any, event_name: str, payload: Any, *, page_load: bool) -> Refusal | None:
    """``None`` when the event may run, else why it may not (see the module docstring).

    ``page_load``: the event is one of the current page's own loads, whose refusal the visitor
    is not told about (an admin page's load for a customer, say: the page guard redirects).
    """
    rule = rule_for(event_name)
    bad = "" if page_load else ServiceMessage.BAD_REQUEST.value
    if rule is None or rule.access is None:
        return Refusal("not on the reviewed list of handlers (state/access.py)", bad)
    if rule.access == Access.REFUSED:
        return Refusal("refused for everyone", bad)
    problem = payload_problem(rule.params, payload) or _client_storage_problem(event_name, payload)
    if problem:
        return Refusal(problem, bad)
    if rule.access in (Access.CUSTOMER, Access.ADMIN):
        return await _identity_refusal(state, rule.access, page_load=page_load)
    return None


async def _identity_refusal(state: Any, access: Access, *, page_load: bool) -> Refusal | None:
    from shop_app.state.auth import AuthState  # noqa: PLC0415 - the guard is imported by AuthState's middleware

    auth = await state.get_state(AuthState)
    with session_scope() as session:
        current = auth._user(session)
    if current is None:
        return Refusal(
            f"needs {access} access: not signed in", "" if page_load else AuthMessage.SIGN_IN_REQUIRED
        )
    if access == Access.ADMIN and not current.is_admin:
        return Refusal("needs admin access", "" if page_load else ServiceMessage.NOT_ALLOWED.value)
    return None


CLIENT_STORAGE_EVENTS: Final = frozenset({"hydrate_and_load", "update_vars_internal"})
"""Reflex's handlers that set the browser's cookie and local-storage values by name (``vars``)."""


def _client_storage_problem(event_name: str, payload: dict[str, Any]) -> str:
    """A ``vars`` key that names no cookie or local-storage var of a state (Reflex would fail)."""
    if event_name.rsplit(".", 1)[-1] not in CLIENT_STORAGE_EVENTS:
        return ""
    names = client_storage_names()
    unknown = [key for key in payload.get("vars") or {} if key.removesuffix(FIELD_MARKER) not in names]
    return f"unknown client storage {sorted(unknown)[:5]}" if unknown else ""


def client_storage_names() -> frozenset[str]:
    """``state.var`` of every cookie and local-storage var of the app's states."""
    count = len(RegistrationContext.get().base_states)
    if _CACHE.get("storage_count") != count:
        _CACHE["storage"] = frozenset(
            f"{cls.get_full_name()}.{name}"
            for cls in RegistrationContext.get().base_states.values()
            for name in cls.get_fields()
            if cls._is_client_storage(name)
        )
        _CACHE["storage_count"] = count
    return _CACHE["storage"]


def payload_problem(params: tuple[Param, ...], payload: Any) -> str:
    """Why a payload does not fit the handler's arguments ("" when it does)."""
    if not isinstance(payload, dict):
        return "the arguments are not an object"
    known = {param.name for param in params}
    unknown = [str(name)[:MAX_KEY_CHARS] for name in payload if name not in known]
    if unknown:
        return f"unknown arguments {sorted(unknown)}"
    missing = [param.name for param in params if param.required and param.name not in payload]
    if missing:
        return f"missing arguments {missing}"
    for param in params:
        if param.name in payload and not _acceptable(payload[param.name], param.hint):
            return f"argument {param.name!r} is not a valid {_hint_name(param.hint)}"
    return ""


def _acceptable(value: Any, hint: Any) -> bool:
    """Whether the value fits, after Reflex's own unwrapping of a submitted form.

    A form arrives as ``{"<form data key>": [[name, value], …]}``, which Reflex turns into the
    ``dict`` the handler receives; the guard checks that dict (and, first, that the wrapped value
    is plain JSON of bounded size).
    """
    if isinstance(value, dict) and FORM_DATA_ENTRIES_KEY in value:
        if not _plain(value, 0):
            return False
        try:
            value = transform_form_data(value, hint)
        except (TypeError, ValueError):
            return False
    return conforms(value, hint)


def conforms(value: Any, hint: Any, depth: int = 0) -> bool:
    """Whether a value from the browser is acceptable for a parameter annotated ``hint``.

    Reflex converts a numeric string for an ``int`` or ``float`` parameter (form fields and
    inputs send text), so those are accepted when they convert within range. An annotation the
    guard does not know is never satisfied (tests/unit/state/test_event_access.py forbids them).
    """
    if depth > MAX_DEPTH:
        return False
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(conforms(value, arm, depth) for arm in args)
    if hint is dict or origin is dict:
        entries = args[1] if len(args) == 2 else Any
        # A form's fields: Reflex sends a checkbox as a boolean and an empty control as null even
        # where the handler says ``dict[str, str]``, so a form value is any plain scalar.
        return _mapping(value, _FORM_VALUE if entries is str else entries, depth)
    if hint is list or origin is list:
        return _sequence(value, args[0] if args else Any, depth)
    if isinstance(hint, type) and issubclass(hint, UploadFile):
        return isinstance(value, UploadFile)  # only Reflex's upload endpoint makes these
    scalar = _SCALARS.get(hint)
    return scalar(value, depth) if scalar is not None else False


def checkable(hint: Any) -> bool:
    """Whether :func:`conforms` knows the annotation (a forgeable dataclass or model is not)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (Any, object, bool, int, float, str, dict, list, None, type(None)):
        return True
    if origin in (typing.Union, types.UnionType, dict, list):
        return all(checkable(arm) for arm in args)
    return isinstance(hint, type) and issubclass(hint, UploadFile)


def _whole(value: Any) -> bool:
    if isinstance(value, str):
        text = value.strip()
        magnitude = parse_whole_number(text.removeprefix("-"), maximum=MAX_INT)  # ASCII digits only
        return magnitude is not None and text.count("-") <= 1
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT


def _number(value: Any) -> bool:
    if isinstance(value, str):
        try:
            value = float(value) if len(value) <= 32 else math.inf
        except ValueError:
            return False
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _mapping(value: Any, values: Any, depth: int) -> bool:
    return (
        isinstance(value, dict)
        and len(value) <= MAX_ITEMS
        and all(_text(key) and len(key) <= MAX_KEY_CHARS for key in value)
        and all(conforms(entry, values, depth + 1) for entry in value.values())
    )


def _text(value: Any) -> bool:
    """A text of at most MAX_TEXT_CHARS that is valid Unicode (no lone surrogate: echoed back in a
    state update it could not be encoded, and the tab's connection would drop)."""
    if not isinstance(value, str) or len(value) > MAX_TEXT_CHARS:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _sequence(value: Any, item: Any, depth: int) -> bool:
    return (
        isinstance(value, list)
        and len(value) <= MAX_ITEMS
        and all(conforms(entry, item, depth + 1) for entry in value)
    )


def _plain(value: Any, depth: int) -> bool:
    """A JSON value of bounded size: what a form or an untyped argument may hold."""
    if isinstance(value, list):
        return _sequence(value, Any, depth)
    if isinstance(value, dict):
        return _mapping(value, Any, depth)
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) <= 2**53
    return value is None or isinstance(value, bool) or _number(value) or _text(value)


_FORM_VALUE: Final = str | bool | int | float | None
_SCALARS: Final[dict[Any, Callable[[Any, int], bool]]] = {
    bool: lambda value, _: isinstance(value, bool),
    int: lambda value, _: _whole(value),
    float: lambda value, _: _number(value),
    str: lambda value, _: _text(value),
    None: lambda value, _: value is None,
    type(None): lambda value, _: value is None,
    Any: _plain,
    object: _plain,
}


def _hint_name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint)
