"""Constant folding across modules, for the copy of the code compiled for the box.

MicroPython's `const()` folds a constant only inside its own module, and a public module-level
constant costs every box a globals-dict entry and an interned name (qstr) in RAM: with the
firmware's key codes, STATE offsets, view phases and notes that was about 130 names and 3 KB of
the box's 32 KB heap budget (docs/benchmarks.md). This pass writes every use of an integer
constant of the board's modules (`keys.OK`, `L.S_TURN`, `HEADER` after `from ... import HEADER`,
a module's own `MAX_BODY`) as its literal, and drops the definitions. The sources in the
repository stay as they are: CPython, the tablet and the tests use the names.

Only the bytes of the folded expressions change: every statement keeps its line, so a traceback
from the box points at the right line of the repository's source.

A constant is a module-level `NAME = expr` with an UPPER_CASE name, assigned once, whose value
is an int computed from literals and earlier constants of the same module (`from m import NAME`
of a constant, and `from m import *`, make it one of the importer's too). Folding is refused
(FoldError) when such a name is bound anywhere else in its module, or assigned through a module
alias, since a literal could then differ from what the name holds at run time. An import of a
board module left with no use once its constants are folded is dropped (so a module the box
needed only for constants is not loaded at all).
"""
import ast
import re

_CONST_NAME = re.compile(r"_?[A-Z][A-Z0-9_]*$")


class FoldError(ValueError):
    pass


def _assign_target(node):
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return None


def _int_value(expr, known):
    """The int an expression of literals and known constants evaluates to, else None."""
    def ev(n):
        if isinstance(n, ast.Constant) and type(n.value) is int:
            return n.value
        if isinstance(n, ast.Name) and n.id in known:
            return known[n.id]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd, ast.Invert)):
            v = ev(n.operand)
            return {ast.USub: -v, ast.UAdd: v, ast.Invert: ~v}[type(n.op)]
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                   ast.FloorDiv: lambda: a // b, ast.Mod: lambda: a % b, ast.LShift: lambda: a << b,
                   ast.RShift: lambda: a >> b, ast.BitOr: lambda: a | b, ast.BitAnd: lambda: a & b,
                   ast.BitXor: lambda: a ^ b}
            if type(n.op) in ops:
                return ops[type(n.op)]()
        raise LookupError

    try:
        return ev(expr)
    except (LookupError, ZeroDivisionError):
        return None


def _constants(order, trees):
    """{module: {name: int}}: each module's constants, its re-exported ones included (repeated
    until nothing changes, so the modules may come in any order)."""
    consts = {m: {} for m in order}
    for _ in range(len(order) + 1):
        before = {m: dict(c) for m, c in consts.items()}
        for mod in order:
            consts[mod] = _module_constants(trees[mod], consts)
        if consts == before:
            return consts
    raise FoldError("constants re-exported in a cycle")


def _module_constants(tree, consts):
    c = {}
    counts = {}
    for node in tree.body:
        name = _assign_target(node)
        if name:
            counts[name] = counts.get(name, 0) + 1
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module in consts:
            src = consts[node.module]
            for a in node.names:
                if a.name == "*":
                    c.update({k: v for k, v in src.items() if not k.startswith("_")})
                elif a.name in src:
                    c[a.asname or a.name] = src[a.name]
        name = _assign_target(node)
        if name and counts[name] == 1 and _CONST_NAME.match(name):
            v = _int_value(node.value, c)
            if v is not None:
                c[name] = v
    return c


def _aliases(tree, consts):
    """{local name: module} for the modules a module imports whole."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in consts:
                    if a.asname is None and "." in a.name:
                        continue  # `import p.m` binds p: p.m.NAME is not folded
                    out[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                if node.module + "." + a.name in consts:
                    out[a.asname or a.name] = node.module + "." + a.name
    return out


def _bound_names(tree):
    """Every name bound anywhere in a module (stores, parameters, imports, defs, globals)."""
    out = {}

    def add(name, node):
        out.setdefault(name, []).append(node)

    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            add(n.id, n)
        elif isinstance(n, ast.arg):
            add(n.arg, n)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            add(n.name, n)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            for name in n.names:
                add(name, n)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            add(n.name, n)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                if a.name != "*":
                    add(a.asname or a.name.split(".")[0], n)
    return out


class _Edits:
    """Replacements of source spans, applied without moving any line."""

    def __init__(self, text):
        self.lines = text.splitlines(keepends=True)
        self.spans = []  # (line, col, end_line, end_col, new), cols in UTF-8 bytes as ast gives

    def replace(self, node, new):
        self.spans.append((node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, new))

    def apply(self):
        lines = [ln.encode() for ln in self.lines]
        for line, col, end_line, end_col, new in sorted(self.spans, reverse=True):
            first = lines[line - 1][:col] + new.encode()
            tail = lines[end_line - 1][end_col:]
            if end_line == line:
                lines[line - 1] = first + tail
            else:
                # a statement over several lines: its text on the first, the others kept as
                # blank lines so every later line keeps its number
                lines[line - 1] = first + tail
                for i in range(line, end_line):
                    lines[i] = b"\n"
        return b"".join(lines).decode()


def fold(sources):
    """sources: {module name ("keys", "protocol.layout"): source text}, every module the board
    image holds. Returns {module name: folded source text}."""
    order = list(sources)
    trees = {m: ast.parse(sources[m], filename=m) for m in order}
    consts = _constants(order, trees)
    return {mod: _fold_module(mod, sources[mod], trees[mod], consts) for mod in order}


def _fold_module(mod, text, tree, consts):
    own = consts[mod]
    aliases = _aliases(tree, consts)
    bound = _bound_names(tree)
    defs = [node for node in tree.body if _assign_target(node) in own]
    def_targets = {id(node.targets[0]) for node in defs}
    for name in list(own) + list(aliases):
        for n in bound.get(name, ()):
            if id(n) not in def_targets and not isinstance(n, (ast.Import, ast.ImportFrom)):
                raise FoldError(f"{mod}: {name} is a constant or module here, but line {n.lineno} "
                                "binds it too")
    edits = _Edits(text)
    uses = {a: 0 for a in aliases}   # loads of each module alias ...
    folded = {a: 0 for a in aliases}  # ... and how many of them were folded away
    for stmt in tree.body:
        if _assign_target(stmt) in own:
            edits.replace(stmt, "")  # the definition goes; its line stays, empty
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and node.id in aliases:
                uses[node.id] += 1
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases:
                target = consts[aliases[node.value.id]]
                if node.attr in target:
                    if not isinstance(node.ctx, ast.Load):
                        raise FoldError(f"{mod}: line {node.lineno} assigns the constant "
                                        f"{node.value.id}.{node.attr}")
                    edits.replace(node, repr(target[node.attr]))
                    folded[node.value.id] += 1
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in own:
                edits.replace(node, repr(own[node.id]))
    # an import of a board module whose every use was folded goes too (the board's modules do
    # nothing at import but define names), and with it the module, if nothing else imports it
    unused = {a for a in aliases if uses[a] == folded[a]}
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            keep = [a for a in stmt.names if (a.asname or a.name) not in unused]
            if len(keep) != len(stmt.names):
                edits.replace(stmt, "import " + _import_list(keep) if keep else "")
        elif isinstance(stmt, ast.ImportFrom) and not any(a.name == "*" for a in stmt.names):
            gone = consts.get(stmt.module, {})
            keep = [a for a in stmt.names if a.name not in gone and (a.asname or a.name) not in unused]
            if len(keep) != len(stmt.names):
                edits.replace(stmt, f"from {stmt.module} import {_import_list(keep)}" if keep else "")
    return edits.apply()


def _import_list(names):
    return ", ".join(a.name + (" as " + a.asname if a.asname else "") for a in names)
