#!/usr/bin/env python3
"""The structure of the project's own code, in figures: what each top-level package holds, the
biggest modules, the longest functions, the import cycles between modules, and every use of
another module's ``_private`` name. Tests, migrations and the virtualenv are left out.

    python3 scripts/structure.py            # this checkout
    python3 scripts/structure.py PATH       # another checkout (e.g. an older commit's worktree)
    python3 scripts/structure.py --check    # exit 1 also if a private name is used across

It exits 1 on any import cycle, between modules or between top-level packages (apps): the
layers of docs/DESIGN.md allow none (pyproject.toml's import-linter contracts say the order).

Standard library only; nothing of the project is imported or run.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

LEFT_OUT = {"tests", "migrations", ".venv", "var", "node_modules", ".git", "docs"}
LONG_FUNCTION = 80


def modules(root: Path) -> dict[str, Path]:
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if any(part in LEFT_OUT for part in parts):
            continue
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _base(name: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    package = package[: len(package) - node.level + 1]
    return ".".join(package + ([node.module] if node.module else []))


def imports_and_privates(name: str, path: Path, tree: ast.AST, known: set[str]):
    """(modules ``name`` imports, uses of other modules' private names)."""
    targets, privates, aliases = set(), [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _base(name, path, node)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                target = full if full in known else base
                if target in known and target != name:
                    targets.add(target)
                if full in known:
                    aliases[alias.asname or alias.name] = full
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and base in known and base != name:
                    privates.append(f"{path}:{node.lineno} from {base} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known and alias.name != name:
                    targets.add(alias.name)
                    aliases[alias.asname or alias.name.split(".")[0]] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module = aliases.get(node.value.id)
            private = node.attr.startswith("_") and not node.attr.startswith("__")
            if module and private and module != name:
                privates.append(f"{path}:{node.lineno} {module}.{node.attr}")
    return targets, privates


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def app_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph between top-level packages: ``a → b`` when a module of ``a`` imports one of
    ``b``."""
    apps: dict[str, set[str]] = defaultdict(set)
    for name, targets in graph.items():
        app = name.split(".")[0]
        apps[app] |= {t.split(".")[0] for t in targets} - {app}
    return dict(apps)


def app_edges(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """The module imports that make up an app-level cycle (``a.x -> b.y``)."""
    inside = set(component)
    return sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        for target in targets
        if name.split(".")[0] in inside
        and target.split(".")[0] in inside
        and target.split(".")[0] != name.split(".")[0]
    )


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    root = Path(args[0]).resolve() if args else Path(__file__).resolve().parents[1]
    found = modules(root)
    known = set(found)
    graph, privates, functions, sizes = {}, [], [], {}
    for name, path in found.items():
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        sizes[name] = source.count("\n")
        graph[name], uses = imports_and_privates(name, path.relative_to(root), tree, known)
        privates += uses
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                functions.append((length, f"{path.relative_to(root)}:{node.lineno} {node.name}"))
    packages = defaultdict(lambda: [0, 0])
    for name, lines in sizes.items():
        packages[name.split(".")[0]][0] += 1
        packages[name.split(".")[0]][1] += lines
    print(f"structure of {root}")
    print("\npackage            modules   lines")
    for package, (count, lines) in sorted(packages.items(), key=lambda kv: -kv[1][1]):
        if count > 1 or lines > 100:
            print(f"{package:<18} {count:>7} {lines:>7}")
    print("\nbiggest modules")
    for name, lines in sorted(sizes.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {lines:>5}  {found[name].relative_to(root)}")
    print("\nlongest functions")
    for length, where in sorted(functions, reverse=True)[:10]:
        print(f"  {length:>5}  {where}")
    found_cycles = cycles(graph)
    print(f"\nimport cycles: {len(found_cycles)}")
    for component in found_cycles:
        print("  " + " <-> ".join(component))
    found_app_cycles = cycles(app_graph(graph))
    print(f"app import cycles: {len(found_app_cycles)}")
    for component in found_app_cycles:
        print("  " + " <-> ".join(component))
        for edge in app_edges(graph, component):
            print("    " + edge)
    print(f"uses of another module's private names: {len(privates)}")
    for use in privates:
        print("  " + use)
    long = sum(1 for length, _ in functions if length > LONG_FUNCTION)
    big = sum(1 for lines in sizes.values() if lines > 800)
    print(
        f"\n{len(sizes)} modules, {sum(sizes.values())} lines; {big} modules over 800 lines; "
        f"{long} functions over {LONG_FUNCTION} lines; {len(found_cycles)} import cycles; "
        f"{len(found_app_cycles)} app import cycles; "
        f"{len(privates)} private names used across modules"
    )
    if found_cycles or found_app_cycles:
        return 1
    return 1 if "--check" in argv and privates else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
