"""Nothing blocks the event loop (issue 18, acceptance 3; docs/architecture.md#adding-state): a
state handler never calls bcrypt, smtplib, Pillow, the CSV import or the Square SDK's synchronous
client, directly or through the services it calls, other than through the project's off-loop
wrapper, ``asyncio.to_thread`` (``run_in_threadpool``, ``loop.run_in_executor`` and
``services.passwords.run_password_work``, the password threads, count too).

A structural test: it reads the source of ``shop_app`` and runs nothing. It builds the call graph
of the package (imports, module functions, classes and their methods, ``self.`` calls along the
bases, nested functions, locals typed by a constructor, a factory's return annotation or a
parameter's annotation), marks every function that reaches one of those libraries as blocking,
then checks each function of ``shop_app/state`` that runs on the loop (every ``async def``, and
every public method of a state class: Reflex runs a sync handler on the loop) for a call to a
blocking function that is not the first argument of the wrapper. A function passed to the wrapper,
or a lambda given to it, runs in a worker thread and is not looked into from there.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "shop_app"

BLOCKING_LIBRARIES = ("bcrypt.", "smtplib.", "PIL.", "csv.reader", "csv.DictReader")
"""Calls into these block: password hashing and checking, SMTP, image decoding and encoding, CSV
parsing. ``square.Square`` (the SDK's synchronous client) is handled by ``SYNC_SQUARE``."""
SYNC_SQUARE = "square.Square"
"""A class of the shop that holds (or builds) the SDK's synchronous client blocks in every
method but its constructor: each one may go over HTTP to Square."""
KNOWN_BLOCKING = {
    # The CSV import parses and writes a whole catalogue.
    "shop_app.services.admin.catalog_csv:import_catalog_csv",
    # Sends through the transport it was given (``smtp_transport``'s closure): the graph cannot
    # follow a callable held in a variable.
    "shop_app.services.mail:deliver_pending",
}
WRAPPERS = {
    "asyncio.to_thread",
    "starlette.concurrency.run_in_threadpool",
    "run_in_executor",
    # The password threads (sign-in, registration, reset: bcrypt at a lower priority).
    "shop_app.services.passwords:run_password_work",
}


@dataclass
class Function:
    """A function or method of the package, with what it calls."""

    key: str  # "package.module:Class.method" or "package.module:function"
    module: str
    node: ast.FunctionDef | ast.AsyncFunctionDef
    cls: str | None  # the class key ("package.module:Class") of a method
    calls: list[tuple[str, int]] = field(default_factory=list)  # (resolved target, line)


@dataclass
class Module:
    name: str
    path: Path
    tree: ast.Module
    imports: dict[str, str] = field(default_factory=dict)
    top: set[str] = field(default_factory=set)  # names defined at module level (functions, classes)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _load() -> dict[str, Module]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        module = Module(name, path, ast.parse(path.read_text(encoding="utf-8")))
        for node in module.tree.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        module.imports[alias.asname] = alias.name
                    else:
                        module.imports[alias.name.split(".")[0]] = alias.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    module.imports[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                module.top.add(node.name)
        modules[name] = module
    return modules


def _dotted(node: ast.AST) -> list[str] | None:
    """``a.b.c`` → ["a", "b", "c"]; None for anything else (a call's result, a subscript…)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


class Graph:
    """The package's functions, classes and calls (see the module docstring)."""

    def __init__(self) -> None:
        self.modules = _load()
        self.functions: dict[str, Function] = {}
        self.classes: dict[str, tuple[Module, ast.ClassDef]] = {}
        self.bases: dict[str, list[str]] = {}
        for module in self.modules.values():
            for node in module.tree.body:
                if isinstance(node, ast.ClassDef):
                    key = f"{module.name}:{node.name}"
                    self.classes[key] = (module, node)
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                            self._add(module, item, f"{key}.{item.name}", key)
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    self._add(module, node, f"{module.name}:{node.name}", None)
        for key, (module, node) in self.classes.items():
            self.bases[key] = [b for b in (self._symbol(module, _dotted(base)) for base in node.bases) if b]
        for function in list(self.functions.values()):
            self._collect_calls(function)

    def _add(
        self, module: Module, node: ast.FunctionDef | ast.AsyncFunctionDef, key: str, cls: str | None
    ) -> None:
        self.functions[key] = Function(key, module.name, node, cls)
        for child in ast.walk(node):
            if child is not node and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                self.functions.setdefault(
                    f"{key}.{child.name}", Function(f"{key}.{child.name}", module.name, child, cls)
                )

    # -- resolving names --------------------------------------------------------------------------

    def _symbol(self, module: Module, parts: list[str] | None) -> str | None:
        """A dotted name as written in ``module`` → "pkg.mod:Name.attr" inside the package, or the
        external qualified name ("bcrypt.hashpw")."""
        if not parts or (parts[0] not in module.top and parts[0] not in module.imports):
            return None
        head, rest = parts[0], parts[1:]
        if head in module.top:
            return f"{module.name}:{'.'.join([head, *rest])}"
        pieces = ".".join([module.imports[head], *rest]).split(".")
        for cut in range(len(pieces), 0, -1):
            name, inside = ".".join(pieces[:cut]), pieces[cut:]
            if name not in self.modules:
                continue
            target = self.modules[name]
            if inside and inside[0] not in target.top and inside[0] in target.imports:
                return self._symbol(target, inside)  # re-exported (``shop_app.models``)
            return f"{name}:{'.'.join(inside)}" if inside else name
        return ".".join(pieces)

    def method(self, cls: str, name: str) -> str | None:
        """``cls.name`` along the bases (depth first)."""
        seen, todo = set(), [cls]
        while todo:
            current = todo.pop(0)
            if current in seen:
                continue
            seen.add(current)
            if f"{current}.{name}" in self.functions:
                return f"{current}.{name}"
            todo += self.bases.get(current, [])
        return None

    def _callable(self, target: str | None) -> str | None:
        """A class becomes its ``__init__`` (if it has one); a function stays itself."""
        if target in self.classes:
            return self.method(target, "__init__") or target
        return target

    def _returns(self, target: str | None) -> str | None:
        """The class a call of ``target`` returns, when the package says so."""
        if target in self.classes:
            return target
        function = self.functions.get(target or "")
        if function is None:
            return None
        return self.annotated_class(self.modules[function.module], function.node.returns)

    # -- the calls of a function ------------------------------------------------------------------

    def _collect_calls(self, function: Function) -> None:
        scope = _Scope(self, function)
        wrapped: set[int] = set()  # ids of nodes handed to the wrapper (not called here)
        for node in _own_nodes(function.node):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1:
                scope.assigned(node.targets[0], node.value)
            if isinstance(node, ast.Call) and _is_wrapper(resolve_raw(scope.module, node.func, self)):
                handed = node.args[1] if _name_of(node.func) == "run_in_executor" else node.args[0]
                wrapped.update(id(inner) for inner in ast.walk(handed))
        for node in _own_nodes(function.node):
            if not isinstance(node, ast.Call) or id(node) in wrapped:
                continue
            target = scope.resolve(node.func)
            if target and id(node.func) not in wrapped:
                function.calls.append((target, node.lineno))
            # A function handed to another one is taken to be called by it (``_ask(gateway.charge)``).
            for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
                if isinstance(argument, ast.Name | ast.Attribute) and id(argument) not in wrapped:
                    handed = scope.resolve(argument)
                    if handed in self.functions:
                        function.calls.append((handed, node.lineno))

    def annotated_class(self, module: Module, annotation: ast.expr | None) -> str | None:
        """The package's class an annotation names (quoted or not), if any."""
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            annotation = ast.parse(annotation.value, mode="eval").body
        found = self._symbol(module, _dotted(annotation)) if annotation is not None else None
        return found if found in self.classes else None


class _Scope:
    """The names a function's body can call: its class's methods, nested functions, typed locals."""

    def __init__(self, graph: Graph, function: Function) -> None:
        self.graph, self.function = graph, function
        self.module = graph.modules[function.module]
        self.nested = {
            child.name: f"{function.key}.{child.name}"
            for child in ast.walk(function.node)
            if child is not function.node and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        arguments = function.node.args
        self.types = {
            argument.arg: found
            for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            if (found := graph.annotated_class(self.module, argument.annotation))
        }

    def assigned(self, target: ast.expr, value: ast.Call) -> None:
        """``name = factory(...)``: the name holds what the factory returns."""
        returned = self.graph._returns(self.resolve(value.func))
        if isinstance(target, ast.Name) and returned:
            self.types[target.id] = returned

    def resolve(self, expression: ast.AST) -> str | None:
        graph, parts = self.graph, _dotted(expression)
        if parts is None:
            if isinstance(expression, ast.Attribute) and isinstance(expression.value, ast.Call):
                owner = graph._returns(self.resolve(expression.value.func))
                return graph.method(owner, expression.attr) if owner else None
            return None
        head = parts[0]
        owner = self.function.cls if head in ("self", "cls") else self.types.get(head)
        if owner and len(parts) == 2:
            return graph.method(owner, parts[1])
        if head in self.nested and len(parts) == 1:
            return self.nested[head]
        target = graph._symbol(self.module, parts)
        if target and ":" in target and len(parts) >= 2 and target not in graph.functions:
            owner, _, name = target.rpartition(".")
            if owner in graph.classes:
                return graph.method(owner, name) or target
        return graph._callable(target)


def resolve_raw(module: Module, expression: ast.AST, graph: Graph) -> str:
    return graph._symbol(module, _dotted(expression)) or _name_of(expression)


def _name_of(expression: ast.AST) -> str:
    if isinstance(expression, ast.Attribute):
        return expression.attr
    return expression.id if isinstance(expression, ast.Name) else ""


def _is_wrapper(target: str) -> bool:
    return target in WRAPPERS or target.endswith(".run_in_executor") or target == "run_in_executor"


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of the functions nested in it."""
    todo = list(ast.iter_child_nodes(function))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                todo.append(decorator)
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _blocking(graph: Graph) -> dict[str, str]:
    """Every blocking function → why (the blocking call it reaches, as a chain)."""
    why: dict[str, str] = dict.fromkeys(KNOWN_BLOCKING, "known to block")
    square_classes = {
        key
        for key, (module, node) in graph.classes.items()
        if any(
            graph._symbol(module, _dotted(child)) == SYNC_SQUARE
            for child in ast.walk(node)
            if isinstance(child, ast.Name | ast.Attribute)
        )
    }
    for function in graph.functions.values():
        if function.cls in square_classes and not function.node.name.startswith("__"):
            why.setdefault(function.key, "a method of a synchronous Square client")
        for target, _line in function.calls:
            if target.startswith(BLOCKING_LIBRARIES) or target == SYNC_SQUARE:
                why.setdefault(function.key, target)
    protocols = {
        key: _methods(node) for key, (module, node) in graph.classes.items() if _is_protocol(graph, key)
    }
    implementers = {
        key: [other for other, (_, node) in graph.classes.items() if other != key and names <= _methods(node)]
        for key, names in protocols.items()
    }
    changed = True
    while changed:
        changed = False
        for function in graph.functions.values():
            if function.key in why:
                continue
            for target, _line in function.calls:
                if target in why:
                    why[function.key] = f"{target} → {why[target]}"
                    changed = True
                    break
            if function.key not in why and function.cls in protocols:
                # A call through a Protocol blocks when one of its implementations does.
                for other in implementers[function.cls]:
                    implementation = f"{other}.{function.node.name}"
                    if implementation in why:
                        why[function.key] = f"{implementation} → {why[implementation]}"
                        changed = True
                        break
    return why


def _methods(node: ast.ClassDef) -> set[str]:
    return {item.name for item in node.body if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)}


def _is_protocol(graph: Graph, key: str) -> bool:
    module, node = graph.classes[key]
    return any(graph._symbol(module, _dotted(base)) == "typing.Protocol" for base in node.bases)


def _runs_on_the_loop(graph: Graph, function: Function) -> bool:
    if not function.module.startswith("shop_app.state"):
        return False
    if isinstance(function.node, ast.AsyncFunctionDef):
        return True
    name = function.node.name
    public_method = (
        function.cls is not None
        and not name.startswith("_")
        and function.key.count(".") == (function.cls.count(".") + 1)
    )
    return public_method


@pytest.fixture(scope="module")
def graph() -> Graph:
    return Graph()


def test_no_state_handler_blocks_the_event_loop(graph: Graph) -> None:
    blocking = _blocking(graph)
    problems = [
        f"{Path(graph.modules[f.module].path).relative_to(ROOT)}:{line} {f.key.split(':')[1]} calls "
        f"{target} ({blocking[target]}): run it with asyncio.to_thread"
        for f in graph.functions.values()
        if _runs_on_the_loop(graph, f)
        for target, line in f.calls
        if target in blocking or target.startswith(BLOCKING_LIBRARIES)
    ]
    assert problems == [], "\n".join(problems)


def test_the_rule_sees_what_blocks(graph: Graph) -> None:
    """The graph follows the shop's real paths to each library (so a refactor cannot blind it),
    and recording mail is not one of them: no handler or service waits on SMTP."""
    blocking = _blocking(graph)

    for key in (
        "shop_app.services.passwords:hash_password",
        "shop_app.services.auth:register",  # bcrypt, through hash_password
        "shop_app.services.auth:authenticate",  # bcrypt, through verify_password
        "shop_app.services.media:store_image",  # Pillow
        "shop_app.services.admin.catalog_csv:import_catalog_csv",
        "shop_app.services.square.gateway:SquareGateway.charge",  # the synchronous SDK
        "shop_app.services.ordering.pay:pay",  # a PaymentGateway's charge (SquareGateway)
        "shop_app.services.mail:deliver_pending",
        "shop_app.state.sign_in:_create_account",  # run by the wrapper, never called on the loop
    ):
        assert key in blocking, f"{key} is not seen to block"
    for key in (
        "shop_app.services.mail:send_mail",
        "shop_app.services.mail:send_shop_mail",
        "shop_app.services.auth:request_password_reset",
        "shop_app.services.ordering.receipt:send_confirmation",
        "shop_app.services.admin.order_mails:send_status_mail",
        "shop_app.services.contact:send_message",
        "shop_app.services.inquiries:submit_inquiry",
        "shop_app.services.newsletter:subscribe",
    ):
        assert key in graph.functions, f"{key} is not in the graph"
        assert key not in blocking, f"{key} blocks: {blocking[key]}"


def test_the_wrapper_is_what_makes_a_call_safe() -> None:
    """The checker tells a call on the loop from one handed to the wrapper."""
    source = """
import asyncio
import bcrypt

class S:
    async def bad(self):
        bcrypt.checkpw(b"a", b"b")

    async def good(self):
        await asyncio.to_thread(bcrypt.checkpw, b"a", b"b")
        await asyncio.to_thread(lambda: bcrypt.checkpw(b"a", b"b"))

    def sync_handler(self):
        self._helper()

    def _helper(self):
        bcrypt.hashpw(b"a", b"b")
"""
    graph = Graph.__new__(Graph)
    module = Module("shop_app.state.example", PACKAGE / "state" / "example.py", ast.parse(source))
    module.imports = {"asyncio": "asyncio", "bcrypt": "bcrypt"}
    module.top = {"S"}
    graph.modules = {module.name: module}
    graph.functions, graph.classes, graph.bases = {}, {}, {}
    cls = next(node for node in module.tree.body if isinstance(node, ast.ClassDef))
    graph.classes["shop_app.state.example:S"] = (module, cls)
    graph.bases["shop_app.state.example:S"] = []
    for item in cls.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            graph._add(module, item, f"shop_app.state.example:S.{item.name}", "shop_app.state.example:S")
    for function in graph.functions.values():
        graph._collect_calls(function)
    blocking = _blocking(graph)

    offenders = {
        f.key.rsplit(".", 1)[1]
        for f in graph.functions.values()
        if _runs_on_the_loop(graph, f)
        and any(target in blocking or target.startswith(BLOCKING_LIBRARIES) for target, _ in f.calls)
    }
    assert offenders == {"bad", "sync_handler"}
