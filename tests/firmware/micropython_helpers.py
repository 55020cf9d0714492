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
from collections.abc import Iterable
from pathlib import Path

from companion.hw.rfid.firmware_source import FIRMWARE_DIR

#: MicroPython's own modules on the rp2 port (the Pico and Pico W) the firmware may import;
#: CPython's typing, dataclasses, enum, abc, pathlib… are not on a Pico. The firmware
#: folder's own modules and packages are added by listing it (``firmware_modules``).
MICROPYTHON_MODULES = frozenset({
    "_thread", "array", "asyncio", "binascii", "collections", "errno", "framebuf", "gc",
    "hashlib", "io", "json", "machine", "math", "micropython", "neopixel", "network", "os",
    "random", "re", "rp2", "select", "struct", "sys", "time", "uasyncio", "ubinascii",
    "uctypes", "uerrno", "uhashlib", "uio", "ujson", "uos", "urandom", "ure", "uselect",
    "ustruct", "usys", "utime",
})


def firmware_modules(folder: Path = FIRMWARE_DIR) -> frozenset[str]:
    """The names the firmware folder's own files import as: each top-level ``x.py`` and
    each folder holding .py files (a package, jrtray)."""
    return frozenset(p.relative_to(folder).parts[0].removesuffix(".py")
                     for p in firmware_files(folder))


def refusals(source: str, name: str = "<firmware>",
             modules: frozenset[str] | None = None) -> list[str]:
    """Each construct in ``source`` MicroPython cannot compile or import, as
    ``name:line: what``; [] for none. Source CPython cannot parse is one refusal.
    ``modules`` is what may be imported: MicroPython's and the firmware folder's."""
    try:
        tree = ast.parse(source, name)
    except SyntaxError as exc:
        return [f"{name}:{exc.lineno}: not Python at all: {exc.msg}"]
    allowed = (MICROPYTHON_MODULES | firmware_modules()) if modules is None else modules
    found = [f"{name}:{line}: {what}" for line, what in _nodes(tree, source, allowed)]
    found += [f"{name}:{line}: {what}" for line, what in _strings(source)]
    return sorted(found, key=lambda said: int(said.split(":")[1]))


def _nodes(tree: ast.AST, source: str, modules: frozenset[str]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    lines = source.splitlines()
    guarded = _guarded_imports(tree)
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
        elif isinstance(node, ast.FormattedValue):
            if node.conversion != -1:
                found.append((line, "an f-string conversion (!r, !s, !a or the = that "
                                    "means !r); use repr(x) or str(x) in the braces"))
            # mpy-cross 1.19 refuses an f-string in another's braces (its format spec, as
            # in {x:{w}}, is one it takes).
            if any(isinstance(inner, ast.JoinedStr) for inner in ast.walk(node.value)):
                found.append((line, "an f-string inside an f-string's braces; build the "
                                    "inner text first"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in guarded:
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) \
                else [node.module or ""] if not node.level else []
            found += [(line, f"an import of {module}, not in the firmware's list of modules "
                             "(add it to MICROPYTHON_MODULES in "
                             "tests/firmware/micropython_helpers.py if MicroPython on the "
                             "Pico has it)")
                      for module in names if module.split(".")[0] not in modules]
    return found


def _guarded_imports(tree: ast.AST) -> set[int]:
    """The imports in a ``try`` body whose handler catches ImportError (``try: import
    typing`` / ``except ImportError: pass``): a Pico without the module goes on."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(_catches_import_error(h.type)
                                             for h in node.handlers):
            guarded |= {id(inner) for stmt in node.body for inner in ast.walk(stmt)
                        if isinstance(inner, (ast.Import, ast.ImportFrom))}
    return guarded


def _catches_import_error(caught: ast.expr | None) -> bool:
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(isinstance(n, ast.Name) and n.id == "ImportError" for n in names)


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
    """Raw f-strings (rf"…"), which MicroPython 1.19 refuses, and two f-strings in one
    run of strings side by side (``f'{a}' f'{b}'``, across lines in brackets too, or
    ``f'{a}' 'b' f'{c}'``), which mpy-cross 1.19 calls "invalid syntax"; one f-string
    beside plain strings it takes."""
    return _string_refusals(tokenize.generate_tokens(io.StringIO(source).readline))


def _string_refusals(tokens: Iterable[tokenize.TokenInfo]) -> list[tuple[int, str]]:
    """``_strings`` over tokens. Python 3.12 (PEP 701) gives an f-string as
    FSTRING_START (its prefix and quote), the parts and FSTRING_END, not one STRING;
    3.11 has no such tokens, hence the getattr."""
    start = getattr(tokenize, "FSTRING_START", None)
    end = getattr(tokenize, "FSTRING_END", None)
    found: list[tuple[int, str]] = []
    depth = 0  # f-strings open around this token (3.12)
    run = 0  # f-strings in the run of strings side by side so far
    for token in tokens:
        if start is not None and token.type == start:
            depth += 1
            if depth == 1:
                run = _one_string(token, token.string.rstrip("'\""), run, found)
        elif end is not None and token.type == end:
            depth -= 1
        elif depth:
            continue  # inside an f-string: its parts and braces
        elif token.type == tokenize.STRING:
            quote = token.string[-1]
            run = _one_string(token, token.string[:token.string.index(quote)], run, found)
        elif token.type not in (tokenize.NL, tokenize.COMMENT):
            run = -1
    return found


def _one_string(token: tokenize.TokenInfo, prefix: str, run: int,
                found: list[tuple[int, str]]) -> int:
    """Checks one string of a run (``run`` f-strings before it, -1 for none: not in a
    run) and gives the run's f-strings with it."""
    prefix = prefix.lower()
    if "f" not in prefix:
        return max(run, 0)
    if "r" in prefix:
        found.append((token.start[0], "a raw f-string (rf'…')"))
    if run >= 1:
        found.append((token.start[0], "two f-strings in one run of strings side by side "
                                      "(f'{a}' f'{b}'); join them into one f-string"))
    return max(run, 0) + 1


def firmware_files(folder: Path) -> list[Path]:
    """Every .py file copied to the Pico: the firmware folder's, __pycache__ aside."""
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)
