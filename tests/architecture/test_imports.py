"""The house rules of docs/architecture.md, checked on the source: the scanner and the corrector never
import each other, nothing imports the command line, no import circle between files, and the
library never starts the project's own CLI as a child process."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("arbiter", "corrector", "scanner", "rules", "templates")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(REPO).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    found["cli"] = REPO / "cli.py"
    found["exitcodes"] = REPO / "exitcodes.py"
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """Project modules imported by one file, at any depth (lazy imports inside functions count)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _top(name: str) -> str:
    return name.split(".")[0]


@pytest.mark.parametrize("importer, forbidden", [("scanner", "corrector"), ("scanner", "arbiter"),
                                                 ("corrector", "scanner"), ("corrector", "arbiter")])
def test_package_boundaries(importer: str, forbidden: str) -> None:
    offenders = sorted(f"{m} imports {t}" for m, targets in GRAPH.items() if _top(m) == importer
                       for t in targets if _top(t) == forbidden)
    assert not offenders, offenders


def test_nothing_imports_the_command_line() -> None:
    assert not sorted(m for m, targets in GRAPH.items() if "cli" in targets)


def test_no_import_circle_between_files() -> None:
    """Package `__init__` files that only gather their submodules are not files of logic: an edge
    into a package's own `__init__` from inside it is left out."""
    def edges(m: str) -> set[str]:
        return {t for t in GRAPH[m] if not (MODULES[t].name == "__init__.py" and m.startswith(t + "."))}

    state: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(edges(m)):
            if state.get(t) == 1:
                circles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(GRAPH):
        if m not in state:
            visit(m)
    assert not circles, "\n".join(" -> ".join(c) for c in circles)


def test_no_child_process_of_the_own_command_line() -> None:
    offenders = []
    for name, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if "subprocess" in text and ("cli.py" in text or "\"fluturas\"" in text):
            offenders.append(name)
    assert not offenders, offenders


# The arbiter's folders in the order a game goes through them (arbiter/README.md, "Where things
# are"): a file imports only from its own folder and the folders before it, so no two folders import
# each other. `words` (the arbiter's wording) and `errors` stand under everything; the command line and
# the web app on top may use any folder and each other. The anticipation folder holds the second game
# type, one file per step, so each of its files is checked at its step.
LAYERS = (("arbiter", "arbiter.errors", "arbiter.words"), ("arbiter.store",), ("arbiter.slips",),
          ("arbiter.review",), ("arbiter.round",), ("arbiter.results",), ("arbiter.demo",),
          ("arbiter.commands", "arbiter.web"))
ANTICIPATION_STEPS = {"arbiter.anticipation": "arbiter", "arbiter.anticipation.slips": "arbiter.slips",
                      "arbiter.anticipation.letters": "arbiter.round",
                      "arbiter.anticipation.correction": "arbiter.round",
                      "arbiter.anticipation.sheet": "arbiter.results"}


def _layer(module: str) -> int:
    folder = ANTICIPATION_STEPS.get(module) or ".".join(module.split(".")[:2])
    found = [i for i, layer in enumerate(LAYERS) if folder in layer]
    assert found, f"{module}: not in a folder of arbiter/ listed in LAYERS (tests/architecture/test_imports.py)"
    return found[0]


def test_every_arbiter_file_is_in_a_folder_of_the_workflow() -> None:
    """Only `__init__` (the default store name) and `errors` sit at the top of arbiter/."""
    loose = sorted(m for m in MODULES if m.startswith("arbiter.") and m.count(".") == 1
                   and MODULES[m].name != "__init__.py" and m not in LAYERS[0])
    assert not loose, loose
    for module in MODULES:
        if module == "arbiter" or module.startswith("arbiter."):
            _layer(module)


def test_arbiter_folders_import_only_the_folders_before_them() -> None:
    offenders = sorted(f"{m} imports {t}" for m, targets in GRAPH.items() if m.split(".")[0] == "arbiter"
                       for t in targets if t.split(".")[0] == "arbiter" and _layer(t) > _layer(m))
    assert not offenders, "\n".join(offenders)
