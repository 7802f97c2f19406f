"""The README is true: its commands are CI's, its Python examples run."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from nqueens_cp import names

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def fenced_after(marker: str) -> str:
    match = re.search(rf"<!-- {marker} -->\s*```sh\n(.*?)\n```", README, re.S)
    assert match, f"README has no fenced command after <!-- {marker} -->"
    return match.group(1).strip()


def test_ci_runs_exactly_the_readme_commands() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    install, test = fenced_after("install"), fenced_after("test")
    assert "python -m nqueens_cp enumerate 8" in install
    assert "pytest" in test
    ci_lines = [line.strip() for line in ci.splitlines()]
    assert install in ci_lines and test in ci_lines
    assert ci_lines.index(install) < ci_lines.index(test)
    assert "set -euo pipefail" in ci


def test_readme_python_examples_run(tmp_path: Path, monkeypatch) -> None:
    """In a scratch directory, as a reader at the repo root would run them
    (the files they write land there, not in the checkout)."""
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks
    (tmp_path / "tests").symlink_to(ROOT / "tests", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    namespace: dict = {"__name__": "__main__"}  # as a script: its guarded blocks run
    with contextlib.redirect_stdout(out):
        for block in blocks:  # later blocks build on earlier ones, as a reader would
            exec(compile(block, "README.md", "exec"), namespace)
    text = out.getvalue()
    assert "724 4 1787" in text and "\n352\n" in text
    assert text.count("True") == 6 and "solved (3," in text and "\n40320 37851\n" in text
    import nqueens_cp as nq

    takers = " and ".join(nq.names(option="solver"))
    assert f"option 'solver' (--solver) applies to the {takers} engines, not bitmask" in text
    assert f"{nq.names(enumerates=False)} {nq.names(declarative=True)}" in text  # (the registry's, as it grows)
    assert "\n92 92\n" in text
    assert "\n2 (1, 0) the queens at 0:1 and 1:0 attack each other along an anti-diagonal (c + r)\n" in text
    assert "[724, 2680, 14200, 73712]" in text  # counted from four threads at once
    assert (tmp_path / "none.drat").is_file() and not (ROOT / "none.drat").exists()


def test_readme_is_a_newcomers_page_and_its_links_resolve() -> None:
    assert len(README.splitlines()) <= 250
    for link in re.findall(r"\]\((docs/[^)#]+)\)", README):
        assert (ROOT / link).exists(), link


def test_models_readme_exists() -> None:
    assert (ROOT / "models" / "README.md").is_file()


# A path the docs name: under one of the repository's top-level folders, with a file suffix.
_NAMED_PATH = re.compile(r"\b(?:nqueens_cp|tests|benchmarks|models|docs)/[A-Za-z0-9_./-]+\.(?:py|c|h|cu|md|cnf|param|tsv|toml)\b")


def test_every_path_the_docs_name_exists() -> None:
    """The README, docs/ and the other READMEs name files for a reader to
    open: each must be there (docs/counting.md named nqueens_cp/classes.py
    long after it moved)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "models" / "README.md",
             ROOT / "benchmarks" / "README.md"]
    named = {(page.relative_to(ROOT).as_posix(), path) for page in pages for path in _NAMED_PATH.findall(page.read_text())}
    assert len(named) > 20  # the pattern finds the paths the docs do name
    missing = sorted(f"{page} names {path}" for page, path in named if not (ROOT / path).exists())
    assert not missing, missing


def test_the_files_the_help_examples_read_exist(cli) -> None:
    """Every instance, answers file or data folder a --help example reads is in
    the checkout (run from its root), unless an earlier example writes it (-o)."""
    import glob

    from nqueens_cp.cli.main import COMMANDS

    for command in COMMANDS:
        code, out, _ = cli(command, "--help")
        assert code == 0
        words = out.replace("'", " ").split()
        written = {words[i + 1] for i, word in enumerate(words[:-1]) if word in ("-o", "--output")}
        for word in words:
            word = word.strip("(),;")
            if re.search(r"\.(param|tsv)$|^tests/data", word) and not word.startswith("*") and word not in written:
                assert glob.glob(str(ROOT / word)), f"{command} --help reads {word}, which is not in the checkout"


def test_the_suites_leftover_check_looks_only_at_what_the_suite_could_write(tmp_path: Path) -> None:
    """An editor's swap file or a benchmark's output beside the run failed the whole suite."""
    import time

    from conftest import written_by_the_suite

    names = ["q8.cnf", "docs/.notes.md.swp", "README.md~", ".#README.md", "benchmarks/out.csv", "old.cnf",
             "tests/4913"]
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    started = time.time()
    old = tmp_path / "old.cnf"
    os.utime(old, (started - 3600, started - 3600))  # there before the run began
    assert written_by_the_suite([f"?? {name}" for name in names], tmp_path, started) == ["?? q8.cnf"]


def test_the_ci_script_names_no_host() -> None:
    """.ci/run wrote a Debian source with a registry's host written out: the archive comes from the
    machine's own apt sources."""
    script = (ROOT / ".ci" / "run").read_text()
    assert "://" not in script and "URIs: $archive" in script


def engine_lists(source: str, names: Sequence[str] | None = None) -> list[tuple[int, list[str]]]:
    """The literal lists of engine names (or of ``names``: the members of the
    family) in Python source: a list, tuple, set or dict's keys, or a string
    of names joined by commas or 'and', naming three or more.  (Two name a
    role each: a reference and the engine under test.  A help text's example
    command is an example, and a docstring prose, not a list.)"""
    import ast

    from nqueens_cp import ENGINE_NAMES

    ENGINE_NAMES = tuple(names) if names is not None else ENGINE_NAMES  # noqa: N806
    word = "|".join(sorted(ENGINE_NAMES, key=len, reverse=True))
    joined = re.compile(rf"\b({word})\b(\s*(?:,|\band\b|,\s*and\b)\s*\b({word})\b)+")
    found = []
    tree = ast.parse(source)
    prose = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    for node in ast.walk(tree):
        if id(node) in prose:
            continue
        named: list[str] = []
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            named = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in ENGINE_NAMES]
        elif isinstance(node, ast.Dict):
            named = [k.value for k in node.keys if isinstance(k, ast.Constant) and k.value in ENGINE_NAMES]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "nqueens-cp " not in node.value:
            named = [name for match in joined.finditer(node.value) for name in re.findall(word, match.group(0))]
        if len(set(named)) >= 3:
            found.append((node.lineno, named))
    return found


def test_every_list_of_engines_is_derived_from_the_registry() -> None:
    """Issue 51: about ten places in the tests, the plan and the help texts named
    engines by hand, so a new engine meant ten files.  Each is now read from the
    engines' own data (nqueens_cp.names, presets)."""
    from nqueens_cp import ENGINE_NAMES

    a, b, c = ENGINE_NAMES[:3]
    assert engine_lists(f'X = [{a!r}, {b!r}, {c!r}]\nY = "a {a}, {b} and {c} list"\n"""{a}, {b}, {c}"""\n') == [
        (1, [a, b, c]), (2, [a, b, c])]
    assert engine_lists(f'X = ({a!r}, {b!r})\nY = "nqueens-cp batch --engines {a},{b},{c}"\n') == []
    # the registry, and the suite's question for each engine (test_engines holds its keys to the registry)
    exempt = {ROOT / "nqueens_cp" / "engines" / "registry.py", ROOT / "tests" / "hard_questions.py"}
    found = {f"{path.relative_to(ROOT)}:{line}": named
             for path in sorted([*(ROOT / "nqueens_cp").rglob("*.py"), *(ROOT / "tests").rglob("*.py")])
             if path not in exempt for line, named in engine_lists(path.read_text())}
    assert not found, found


def test_every_list_of_members_is_derived_from_the_family() -> None:
    """Issue 64: the members were listed by hand in studies/cost.py and
    tests/test_kernel.py (a new member missed both); they are read from
    VARIANTS (PLACE, OPTIMUM) as engine lists are read from the registry."""
    from nqueens_cp.model.variants import VARIANTS

    names = [name for name in VARIANTS]
    family = ROOT / "nqueens_cp" / "model" / "variants.py"
    found = {f"{path.relative_to(ROOT)}:{line}": named
             for path in sorted([*(ROOT / "nqueens_cp").rglob("*.py"), *(ROOT / "tests").rglob("*.py")])
             if path != family for line, named in engine_lists(path.read_text(), names)}
    assert not found, found


def test_the_cost_table_in_the_docs_is_the_codes() -> None:
    """docs/variants.md's lines per question and paradigm had drifted from the code (the kernel's
    99 lines were 142): the table is the one nqueens_cp.studies.cost reads from the markers."""
    from nqueens_cp.studies.cost import cost_markdown, cost_rows

    assert cost_markdown(cost_rows()) in (ROOT / "docs" / "variants.md").read_text()


def test_the_claims_in_words_in_paradigms_agree_with_the_table_above_them() -> None:
    """docs/paradigms.md said in words what its own tables contradicted (issue 55): each ratio and
    winner it states is read back here from the compare table it was printed from."""
    text = (ROOT / "docs" / "paradigms.md").read_text()
    lines = text[text.index("| N | solutions |"):].splitlines()
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    times = {}
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip().replace(",", "") for cell in line.strip("|").split("|")]
        times[int(cells[0])] = dict(zip(header[2:], map(float, cells[2:])))
    words = " ".join(text.split())
    at12 = times[12]
    claims = {
        r"`bitmask` is (\d+)× faster than CaDiCaL": at12["sat"] / at12["bitmask"],
        r"CaDiCaL and (\d+)× faster than CP-SAT": at12["cpsat"] / at12["bitmask"],
        r"honest but slow\*\*: (\d+)× slower than `bitmask`": at12["backtrack"] / at12["bitmask"],
        r"cut CaDiCaL's decisions [\d.]+× and its time ([\d.]+)×": at12["sat"] / at12["sat+sb"],
        r"CP-SAT's time ([\d.]+)×": at12["cpsat"] / at12["cpsat+sb"],
    }
    for pattern, ratio in claims.items():
        said = re.search(pattern, words)
        assert said, f"docs/paradigms.md no longer says {pattern!r}"
        assert abs(float(said.group(1)) - ratio) <= 0.05 * ratio + 0.5, (pattern, said.group(1), round(ratio, 2))
    assert "Enumerating everything is the hand-written backtracker's home ground" in words
    assert all(min(row, key=row.get) == "bitmask" for n, row in times.items() if n >= 10)  # (who wins, where)


def _table(text: str, heading: str) -> list[list[str]]:
    """The cells of each row of the first table after ``heading``."""
    lines = text[text.index(heading):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def _markdown_rows(text: str, heading: str) -> dict[str, list[str]]:
    """The first table after ``heading``: its first column -> its cells."""
    return {cells[0]: cells[1:] for cells in _table(text, heading)}


def test_who_wins_where_in_the_declarative_field_is_what_its_tables_say() -> None:
    text = (ROOT / "docs" / "paradigms.md").read_text()
    words = " ".join(text.split())
    enumerate_12 = {engine: float(cells[-1]) for engine, cells in
                    _markdown_rows(text, "### Enumerate every board").items()}
    listers = {e: t for e, t in enumerate_12.items() if e != "modelcount"}  # (a counter lists nothing)
    declarative = {e: t for e, t in listers.items() if e != "bitmask"}
    assert "**Answer set programming** is the fastest declarative enumerator here" in words
    assert min(declarative, key=declarative.get) == "asp"
    assert "**SMT** is the slowest enumerator" in words and max(listers, key=listers.get) == "smt"
    assert "is as fast as ASP at N = 12" in words and enumerate_12["minizinc"] <= 1.05 * enumerate_12["asp"]
    sample = {engine: float(cells[-1]) for engine, cells in _markdown_rows(text, "### CSPLib prob079 sample").items()}
    assert "**Hand-written search** wins every question it was written for" in words
    assert min(sample, key=sample.get) == "bitmask" and "16 ms in all" in words and round(sample["bitmask"] * 1000) == 16


def _seconds(cell: str) -> float | None:
    """A time cell: seconds, inf for a run stopped at the cap ('> 10', '> cap'), None for not tried."""
    cell = cell.strip().replace(",", "")
    return None if not cell else float("inf") if cell.startswith(">") else float(cell)


def test_the_classic_searches_words_are_their_tables() -> None:
    """docs/paradigms.md's lessons of the tutorial backtrackers (issue 55), read back from the
    `compare 8 10 12 --engines classic` table they were written from."""
    text = (ROOT / "docs" / "paradigms.md").read_text()
    words = " ".join(text.split())
    rows = {re.match(r"`(\w+)`", name).group(1): cells  # type: ignore[union-attr]
            for name, cells in _markdown_rows(text, "## The classic searches").items()}
    at12 = {engine: float(cells[2]) for engine, cells in rows.items()}
    looked = {engine: float(cells[3].split()[0]) for engine, cells in rows.items() if cells[3].endswith(("rows", "squares"))}
    claims = {
        r"`scan`, ([\d.]+) s\) is [\d.]+× slower": at12["scan"],
        r"is ([\d.]+)× slower than Wirth's three look-ups": at12["scan"] / at12["backtrack"],
        r"\(`backtrack`, ([\d.]+) s\)": at12["backtrack"],
        r"\(`undo`, ([\d.]+) s\)": at12["undo"],
        r"looks at ([\d.]+)× as many squares": looked["undo"] / looked["scan"],
        r"and takes ([\d.]+)× its time": at12["undo"] / at12["scan"],
        r"`copy` takes (\d+)% longer than `undo`": 100 * (at12["copy"] / at12["undo"] - 1),
        r"\(`iterative`, ([\d.]+)×\)": at12["iterative"] / at12["scan"],
        r"nested `yield`s \(([\d.]+)×\)": at12["generator"] / at12["scan"],
        r"\(`nested`, ([\d.]+)×\)": at12["nested"] / at12["scan"],
        r"`bitmask` is (\d+)× faster than the best tutorial variant":
            min(at12[e] for e in names(group="classic")) / at12["bitmask"],
    }
    for pattern, value in claims.items():
        said = re.search(pattern, words)
        assert said, f"docs/paradigms.md no longer says {pattern!r}"
        assert abs(float(said.group(1)) - value) <= 0.05 * value + 0.05, (pattern, said.group(1), round(value, 3))
    assert "beat every tutorial backtracker at N = 12" in words
    tutorial = [at12[e] for e in names(group="classic")]  # (the tutorial backtrackers)
    assert max(at12["cpsat"], at12["sat"]) < min(tutorial)
    assert "slower than plain recursion" in words and min(tutorial) == at12["scan"]


def test_the_first_board_words_are_their_table() -> None:
    text = (ROOT / "docs" / "paradigms.md").read_text()
    words = " ".join(text.split())
    first = {engine: [_seconds(cell) for cell in cells[1:]]
             for engine, cells in _markdown_rows(text, "### The first board of plain N").items()}
    declarative = {e: times for e, times in first.items() if e != "bitmask"}
    assert "answers in a quarter of a second (all but SMT" in words
    assert all(times[0] <= 0.25 for e, times in declarative.items() if e != "smt")  # N = 50
    assert declarative["smt"][0] == float("inf")
    assert "the best declarative engine at the first board of N = 200" in words  # (Gecode, through MiniZinc)
    assert min(declarative, key=lambda e: declarative[e][2]) == "minizinc"
    assert "listing N = 12 takes it 0.06 s" in words
    enumerate_12 = {e: float(cells[-1]) for e, cells in _markdown_rows(text, "### Enumerate every board").items()}
    assert round(enumerate_12["bitmask"], 2) == 0.06


def test_what_the_numbers_teach_in_variants_is_what_its_tables_say() -> None:
    """docs/variants.md's lessons of the changed questions (issue 55): two had drifted from the
    tables (a per-node ratio from an earlier run; "none reaches N = 13" where the branch and bound
    proves i(13) and i(14))."""
    text = (ROOT / "docs" / "variants.md").read_text()
    words = " ".join(text.split())

    def table(heading: str) -> dict[tuple[str, str], list[float | None]]:
        return {key: [_seconds(cell) for cell in cells] for key, cells in _rows_of_two_keys(text, heading).items()}

    count = table("Seconds to count")  # N = 12, 14, 16
    optimum = table("Seconds to prove the optimum")  # N = 8 .. 20
    declarative = [e for e in names(declarative=True) if ("toroidal", e) in count]
    assert len(declarative) >= 5

    def within(times: list[float | None]) -> int:
        """The largest N proved within the cap (7: none)."""
        return max((8 + i for i, t in enumerate(times) if t is not None and t != float("inf")), default=7)

    assert "superqueens at N = 16 in 0.22 s and the torus at N = 16 in 0.05 s" in words
    assert round(count["superqueens", "bitmask"][2], 2) == 0.22 and round(count["toroidal", "bitmask"][2], 2) == 0.05
    torus16 = [count["toroidal", e][2] for e in declarative]
    assert "take 1.7 to 4.8 s, and none counts superqueens at N = 16 within it" in words
    assert min(t for t in torus16 if t not in (None, float("inf"))) == 1.67
    assert max(t for t in torus16 if t not in (None, float("inf"))) == 4.84
    assert all(count["superqueens", e][2] in (None, float("inf")) for e in declarative)
    nodes = _markdown_rows(text, "The kernel's time per node")
    ratios = [cells[-1] for cells in nodes.values()]
    assert "1.35× and 1.21× what plain `count` costs" in words and ratios == ["1.35×", "1.21×"]
    assert "superqueens stop at the cap at N = 12, the torus at N = 16" in words
    assert count["superqueens", "modelcount"][0] == float("inf") and count["toroidal", "modelcount"][2] == float("inf")
    engines = {engine for _, engine in optimum}
    assert "proves the independent optimum to N = 11 within 10 s" in words
    assert all(within(optimum["independent", e]) >= 11 for e in engines)
    assert "only the branch and bound reaches N = 12" in words
    assert [e for e in engines if within(optimum["independent", e]) >= 12] == ["bitmask"]
    assert "clingo reaches N = 10, RC2's cores N = 11, CP-SAT N = 12" in words
    reach = {e: within(optimum["domination", e]) for e in engines}
    assert reach["asp"] == 10 and reach["sat"] == 11 and reach["cpsat"] == 12
    assert "proves γ to N = 13 and i to N = 14" in words
    assert (within(optimum["domination", "bitmask"]), within(optimum["independent", "bitmask"])) == (13, 14)
    assert "Past N = 15 nothing here proves an optimum within 10 s" in words
    assert max(within(times) for times in optimum.values()) <= 15


def _rows_of_two_keys(text: str, heading: str) -> dict[tuple[str, str], list[str]]:
    """The first table after ``heading``, its rows starting with a variant and an engine:
    (variant, engine) -> the cells after them."""
    return {(cells[0], cells[1]): cells[2:] for cells in _table(text, heading)}


def test_every_benchmark_imports() -> None:
    """A benchmark is how a README figure is made again: benchmarks/task_size.py imported a module that no
    longer existed, and nothing noticed.  Each is imported (not run: its main() is behind __main__) in one
    process of its own."""
    scripts = sorted(path for path in (ROOT / "benchmarks").glob("*.py"))
    code = ("import importlib.util, sys\n"
            "sys.path.insert(0, sys.argv[1])\n"
            "for path in sys.argv[2:]:\n"
            "    spec = importlib.util.spec_from_file_location('bench_' + path.rsplit('/', 1)[1][:-3], path)\n"
            "    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)\n"
            "    spec.loader.exec_module(module)\n")
    run = subprocess.run([sys.executable, "-c", code, str(ROOT / "benchmarks"), *map(str, scripts)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    assert len(scripts) >= 20


def test_the_device_script_parses_and_its_tests_run_without_pytest_xdist() -> None:
    """benchmarks/gpu_machine.sh is run once on a lent GPU machine, whose minutes are few and
    which may lack pytest-xdist (pyproject's addopts ask for -n): a fault found there costs them."""
    script = ROOT / "benchmarks" / "gpu_machine.sh"
    parsed = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, timeout=60)
    assert parsed.returncode == 0, parsed.stderr
    line = next(line for line in script.read_text().splitlines() if "-m pytest" in line)
    assert " -o addopts= " in line


def test_the_soaks_are_left_out_of_the_suites_run_and_run_by_the_soak_command() -> None:
    """The tables marked soak wait for benchmarks/soak.py (pyproject's addopts leave them
    out), and the files whose draws grow with its factor are found in their text: a file
    that reads SOAK without the command knowing would soak nothing."""
    import importlib.util
    import shlex

    text = (ROOT / "pyproject.toml").read_text()  # (tomllib comes with Python 3.11; the package takes 3.10)
    words = shlex.split(re.search(r'^addopts = "(.*)"$', text, re.M).group(1))
    assert words[words.index("-m") + 1] == "not soak" and re.search(r'^markers = \["soak: ', text, re.M)
    spec = importlib.util.spec_from_file_location("bench_soak", ROOT / "benchmarks" / "soak.py")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    import ast

    reading = {f"tests/{path.name}" for path in (ROOT / "tests").glob("test_*.py")
               if any(isinstance(node, ast.ImportFrom) and node.module == "conftest"
                      and "SOAK" in {alias.name for alias in node.names} for node in ast.walk(ast.parse(path.read_text())))}
    assert set(module.factor_files()) == reading >= {"tests/test_members.py", "tests/test_blocked.py"}
    (_, marked), (_, drawn) = module.commands(3, "2", [])
    assert marked[-2:] == ["-m", "soak"] and drawn[-len(reading) - 2:] == ["-m", "not soak", *sorted(reading)]
    soaked = [path.name for path in (ROOT / "tests").glob("test_*.py") if re.search(r"\bsoak\b", path.read_text())]
    assert "test_variants.py" in soaked  # (a table marked soak, which only the command runs)


def _imports(path: Path, module: str, typing_only: bool = False) -> list[str]:
    """The nqueens_cp modules ``module`` (at ``path``) imports, at the top or inside a function; those
    imported for type checking only (``if TYPE_CHECKING:``) with ``typing_only``."""
    import ast

    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test) and not typing_only:
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.FunctionDef) and child.name == "_repr_html_":
                # A record's notebook hook: it imports the page that renders it, which sits above
                # the records and reads them (checking/records.py); it runs only when a notebook
                # shows the record, the one edge down-to-up the house allows.
                continue
            if isinstance(child, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - child.level + 1] if child.level else []
                target = ".".join(base + ([child.module] if child.module else []))
                found.extend([target] if child.module else [f"{target}.{alias.name}" for alias in child.names])
            elif isinstance(child, ast.Import):
                found.extend(alias.name for alias in child.names)
            visit(child)

    visit(ast.parse(path.read_text()))
    return [name for name in found if name == "nqueens_cp" or name.startswith("nqueens_cp.")]


def test_imports_go_down_the_layers_of_the_house_tour_and_never_round_in_a_circle() -> None:
    """Issue 64: counting/sample.py reached up into execution/plan.py, model/variants.py and model/symmetry.py
    imported each other, and so did engines/capabilities.py and the registry, checking/forms.py and its tools."""
    tour = (ROOT / "docs" / "house-tour.md").read_text()
    listed = tour.split("<!-- layers: top to bottom -->", 1)[1].split("<!-- end of the layers -->", 1)[0]
    layer = {room: depth for depth, line in enumerate(listed.strip().splitlines())
             for room in re.findall(r"`([\w.]+)`", line.split("(", 1)[0])}
    modules = {}
    for path in sorted((ROOT / "nqueens_cp").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    def known(name: str) -> str:  # (a name imported from a module, as from nqueens_cp import __version__)
        while name not in modules:
            name = name.rsplit(".", 1)[0]
        return name

    def room(module: str) -> str:
        return "__init__" if module == "nqueens_cp" else module.split(".")[1]

    unplaced = sorted({room(module) for module in modules} - set(layer))
    assert not unplaced, f"rooms no line of docs/house-tour.md's layers places: {unplaced}"
    graph = {module: {known(name) for name in _imports(path, module)} - {module} for module, path in modules.items()}
    upward = [f"{module} -> {target}" for module, targets in graph.items() for target in targets
              if layer[room(target)] < layer[room(module)]]
    assert not upward, upward
    # No circle: a module that reaches itself through its imports, those for type checking only
    # included (issue 79: engines/base.py -> capabilities.py -> registry.py -> base.py, the last for
    # its types; a reader follows those too).
    graph = {module: {known(name) for name in _imports(path, module, typing_only=True)} - {module}
             for module, path in modules.items()}
    circles = set()
    for start in graph:
        seen, frontier = set(), set(graph[start])
        while frontier:
            seen |= frontier
            frontier = {target for module in frontier for target in graph[module]} - seen
        if start in seen:
            circles.add(start)
    assert not circles, sorted(circles)


def test_no_module_of_the_package_is_over_400_lines() -> None:
    """Issue 64: one job a room, and a room a reader takes in whole (kernel/twin_join.py had grown to
    402 lines holding the count's twin and the cost's)."""
    long = {str(path.relative_to(ROOT)): lines for path in sorted((ROOT / "nqueens_cp").rglob("*.py"))
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 400}
    assert not long, long


def test_what_a_member_asks_is_read_through_its_properties_never_compared_by_name() -> None:
    """Issue 79: whether a question places pieces or asks for an optimum was compared as a string in 23
    places in 13 modules; it is data on the member (Variant.places, Variant.optimizes), and only
    model/variants.py, where the data lives, spells the kinds."""
    family = ROOT / "nqueens_cp" / "model" / "variants.py"
    compared = re.compile(r"""\.question\s*[!=]=\s*["']|["'](place|optimum)["']\s*[!=]=\s*\w+\.question""")
    found = [f"{path.relative_to(ROOT)}:{number}" for path in sorted((ROOT / "nqueens_cp").rglob("*.py"))
             if path != family for number, line in enumerate(path.read_text().splitlines(), 1)
             if compared.search(line)]
    assert not found, found
    import numpy as np
    import pytest

    from nqueens_cp import InvalidInputError
    from nqueens_cp.model.question import question

    assert question(4, variant="domination").optimum and not question(4).optimum
    with pytest.raises(InvalidInputError, match="asks for the fewest queens"):
        question(4, variant="domination").valid_rows(np.array([[1, 3, 0, 2]]))


def test_no_private_name_is_imported_across_modules() -> None:
    """Issue 79: 19 private names were imported from another module (dimacs's _clip, _lines and _literals,
    cnf's _amo, the minizinc engine's _kill for the checks...): a wall with a hole.  The one pair excepted
    is the join's twin, split in two rooms by the 400-line rule: twin_join_cost.py is twin_join.py's cost
    model, and the names it takes are the twin's own, private to the pair."""
    import ast

    excepted = {("nqueens_cp/kernel/twin_join_cost.py", "twin_join")}
    found = []
    for path in sorted((ROOT / "nqueens_cp").rglob("*.py")):
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("nqueens_cp")):
                private = [alias.name for alias in node.names if alias.name.startswith("_")
                           and not alias.name.startswith("__")]
                if private and (where, node.module) not in excepted:
                    found.append(f"{where}:{node.lineno} {node.module}: {', '.join(private)}")
    assert not found, found


def test_every_command_is_parse_one_call_render_and_their_handlers_stay_small() -> None:
    """Issue 79: the command line's handlers had grown where every command should be parse, one
    library call, render.  The code that runs a command is the command modules' functions that are
    not parser declarations (add_*): the handlers and their rendering helpers (the shared flags,
    options.py, and the terminal's exit codes, terminal.py, apart).  Under 700 lines in all, no
    handler over 40, and each command in the module named for it or for its group."""
    import ast

    shared = {"__init__.py", "main.py", "options.py", "terminal.py"}
    sizes, long = {}, {}
    for path in sorted((ROOT / "nqueens_cp" / "cli").glob("*.py")):
        if path.name in shared:
            continue
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("add"):
                lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                sizes[f"{path.name}:{node.name}"] = lines
                if node.name.startswith("_cmd_") and lines > 40:
                    long[f"{path.name}:{node.name}"] = lines
    assert sum(sizes.values()) < 700, sizes
    assert not long, long
    from nqueens_cp.cli.main import COMMANDS

    # export (writes the model for other systems; 'model' named three things) and verify (certificates)
    # each have a room of their own; model stays export's old name.
    assert (COMMANDS["export"], COMMANDS["model"], COMMANDS["verify"]) == ("export", "export", "verify")
