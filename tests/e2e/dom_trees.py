"""Comparing what the server sent with what React drew, in Chromium (the first-view tests).

A node as the comparison sees it: ``[tag, attributes, the select's value, children]``; text as
text. Left out: ``selected`` (the server marks the chosen scent's <option>, React sets the value)
and ``disabled`` / ``data-disabled`` (the server's controls are disabled until React's take over:
api/first_view.py; checked on their own).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import ConsoleMessage

WALK_JS = """
const ignored = new Set(["selected", "disabled", "data-disabled"]);
const walk = (node) => {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const attributes = Object.fromEntries(
    [...node.attributes].filter((a) => !ignored.has(a.name)).map((a) => [a.name, a.value]).sort());
  const value = node.tagName === "SELECT" ? node.querySelector("option[selected]")?.value ?? null : null;
  const children = [...node.childNodes].map(walk).filter((c) => c !== null);
  return [node.tagName.toLowerCase(), attributes, value, children];
};
"""
TREE_JS = f"""(element) => {{ {WALK_JS}
  const copy = element.cloneNode(true);
  copy.normalize();
  return walk(copy);
}}"""
SENT_TREE_JS = f"""(html) => {{ {WALK_JS}
  const template = document.createElement("template");
  template.innerHTML = html;
  return walk(template.content.firstElementChild);
}}"""
LAYOUT_SHIFT_JS = """
() => new Promise((resolve) => {
  let total = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
  }).observe({type: "layout-shift", buffered: true});
  requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
})
"""


def record_error(errors: list[str], message: ConsoleMessage) -> None:
    """Keep a console error's text."""
    if message.type == "error":
        errors.append(message.text)


def first_difference(react: Any, server: Any, where: str = "grid") -> str:
    """Where two trees first differ, and how (an assertion message a person can act on)."""
    if isinstance(react, str) or isinstance(server, str) or react[0] != server[0]:
        return f"{where}: React {str(react)[:200]!r} != server {str(server)[:200]!r}"
    tag, react_attrs, react_value, react_children = react
    _, server_attrs, server_value, server_children = server
    if react_attrs != server_attrs or react_value != server_value:
        return (
            f"{where} <{tag}>: React {react_attrs} {react_value!r} != server {server_attrs} {server_value!r}"
        )
    for index, (a, b) in enumerate(zip(react_children, server_children, strict=False)):
        if a != b:
            return first_difference(a, b, f"{where} > {tag}[{index}]")
    return f"{where} <{tag}>: React has {len(react_children)} children, the server {len(server_children)}"
