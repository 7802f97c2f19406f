"""grade: a class's folder graded, each model in its own sandbox; its records, resume, pages, autograder files.

The class holds one submission of each kind a teacher meets: right, wrong, one
that does not parse, one that exits, one that never returns, one that fills
memory, models in folders (a helper module beside one, one file a N), an
empty folder and one with two models.  Every verdict is known in advance.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp.checking.feedback import gradescope, prairielearn

ROOT = Path(__file__).resolve().parent.parent
SPEC = "1-6"
RIGHT = '''from ortools.sat.python import cp_model


def model(n):
    m = cp_model.CpModel()
    q = [m.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    m.add_all_different(q)
    m.add_all_different([q[r] + r for r in range(n)])
    m.add_all_different([q[r] - r for r in range(n)])
    return m, q
'''
# submission -> (its files, the verdict, the score, the first wrong N)
CLASS = {
    "ada.py": ({"": RIGHT}, "right", 1.0, None),
    "bob.py": ({"": RIGHT.replace("    m.add_all_different([q[r] + r for r in range(n)])\n", "")}, "wrong",
               1 / 6, 2),
    "cy.py": ({"": "def model(n)\n    return None\n"}, "error", 0.0, None),
    "dee.py": ({"": "import os\n\ndef model(n):\n    os._exit(0)\n"}, "error", 0.0, None),
    "eve.py": ({"": RIGHT.replace("def model(n):\n", "def model(n):\n    while n == 5:\n        pass\n")},
               "time limit", 4 / 6, None),
    "fay.py": ({"": RIGHT.replace("def model(n):\n", "def model(n):\n    hoard = bytearray(8 << 30)\n")},
               "memory", 0.0, None),
    "gus": ({"model.py": "from rows import columns\n" + RIGHT.replace("range(n)]\n    m.add_all_different(q)",
                                                                       "columns(n)]\n    m.add_all_different(q)"),
             "rows.py": "def columns(n):\n    return range(n)\n", "notes.txt": "mine"}, "right", 1.0, None),
    "hal": ({f"q-{n}.cnf": "" for n in range(1, 7)}, "right", 1.0, None),  # (the CNF files: copied below)
    "ivy": ({}, "error", 0.0, None),
    "jon": ({"a.py": RIGHT, "b.lp": "queen(1,1)."}, "error", 0.0, None),
}
TIME_LIMIT = "6"


def make_class(folder: Path) -> Path:
    folder.mkdir()
    for name, (files, *_) in CLASS.items():
        if name.endswith(".py"):
            (folder / name).write_text(files[""])
            continue
        (folder / name).mkdir()
        for file, text in files.items():
            (folder / name / file).write_text(text)
    for n in range(1, 7):  # the pairwise CNF, as the toolkit writes it
        from nqueens_cp.cli.main import main

        assert main(["dimacs", str(n), "-o", str(folder / "hal" / f"q-{n}.cnf")]) == 0
    return folder


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory):
    """The class graded once by the command, with its records, pages and results kept."""
    base = tmp_path_factory.mktemp("grade")
    folder = make_class(base / "class")
    results, pages = base / "grades.jsonl", base / "pages"
    done = subprocess.run([*_cli(), "grade", str(folder), SPEC, "--time-limit", TIME_LIMIT, "--memory", "512M",
                           "--results", str(results), "--feedback", str(pages), "--format", "jsonl"],
                          capture_output=True, text=True, timeout=300)
    return base, done, results, pages


def _cli() -> list[str]:
    import sys

    return [sys.executable, "-m", "nqueens_cp"]


def test_every_submission_gets_its_true_verdict_and_score(graded) -> None:
    _, done, _, _ = graded
    assert done.returncode == 0, done.stderr
    records = {r["submission"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert set(records) == set(CLASS)
    for name, (_, verdict, score, first_wrong) in CLASS.items():
        record = records[name]
        assert (record["verdict"], record["score"], record["first_wrong"]) == (verdict, round(score, 6), first_wrong), name
        assert [row["n"] for row in record["records"]] == (list(range(1, 7)) if verdict in ("right", "wrong") else
                                                           [1, 2, 3, 4] if verdict == "time limit" else [])
    assert "line 1" in records["cy.py"]["message"] and "expected ':'" in records["cy.py"]["message"]
    assert "exited with code 0" in records["dee.py"]["message"]
    assert "time limit of 6 s came at N=5" in records["eve.py"]["message"]
    assert "MemoryError" in records["fay.py"]["message"]
    assert "no model in it" in records["ivy"]["message"]
    assert "more than one model in it (a.py:model, b.lp)" in records["jon"]["message"]
    assert records["gus"]["form"] == "python" and records["hal"]["form"] == "dimacs"
    assert "10 submissions graded: 3 right, 1 wrong, 4 error, 1 time limit, 1 memory" in done.stderr


def test_the_results_file_resumes_and_takes_late_submissions(graded, tmp_path: Path) -> None:
    base, _, results, _ = graded
    folder = tmp_path / "class"
    shutil.copytree(base / "class", folder)
    kept = tmp_path / "grades.jsonl"
    shutil.copy(results, kept)
    with open(kept, "a") as handle:
        handle.write('{"submission": "cut sho')  # (a grade killed as it wrote its last line)
    (folder / "kim.py").write_text(RIGHT)  # late
    report = nq.grade(folder, SPEC, results=kept, time_limit=float(TIME_LIMIT))
    assert sorted(report.resumed) == sorted(CLASS)
    assert [r.submission for r in report.records] == sorted([*CLASS, "kim.py"])
    lines = kept.read_text().splitlines()
    assert json.loads(lines[-1])["submission"] == "kim.py" and json.loads(lines[-1])["verdict"] == "right"
    assert len([line for line in lines if line.startswith("{") and line.endswith("}")]) == len(CLASS) + 1


def test_the_formats_render_the_same_records(graded, cli) -> None:
    base, done, results, _ = graded
    code, out, err = cli("grade", base / "class", SPEC, "--results", results, "--format", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [row["submission"] for row in rows] == sorted(CLASS)
    assert {row["submission"]: row["verdict"] for row in rows} == {name: v for name, (_, v, *_) in CLASS.items()}
    code, out, _ = cli("grade", base / "class", SPEC, "--results", results, "--format", "json")
    assert [r["verdict"] for r in json.loads(out)] == [CLASS[name][1] for name in sorted(CLASS)]
    code, out, _ = cli("grade", base / "class", SPEC, "--results", results)
    assert out.splitlines()[0].split() == ["submission", "form", "verdict", "score", "first", "wrong", "seconds"]
    assert re.search(r"^bob\.py\s+python\s+wrong\s+0\.167\s+2\s", out, re.M)


@pytest.mark.parametrize(("argv", "said"), [
    (["grade", "nowhere", "1-4"], "cannot read the folder nowhere"),
    (["grade", ".", "1-4", "--entry", "not a name"], "not a Python function name"),
    (["grade", ".", "0"], "SPEC"),
    (["grade", ".", "4", "--memory", "lots"], "memory: a size such as 2G"),
])
def test_grade_usage_mistakes_exit_2_in_one_line(cli, argv: list[str], said: str) -> None:
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and said in err and len(err.splitlines()) == 1


def test_the_pages_show_each_verdict_and_link_from_the_index(graded) -> None:
    _, _, _, pages = graded
    index = (pages / "index.html").read_text()
    assert sorted(re.findall(r'href="([^"]+)"', index)) == sorted(f"{name}.html" for name in CLASS)
    bob = (pages / "bob.py.html").read_text()
    assert "wrong: 17% of the sizes" in bob and 'class="queen attacker"' in bob and 'class="attack-line"' in bob
    assert "along an anti-diagonal (c + r)" in bob
    assert "http" not in bob.replace('xmlns="http://www.w3.org/2000/svg"', ""), "a page fetches nothing"
    dee = (pages / "dee.py.html").read_text()
    assert "exited with code 0" in dee


def test_a_models_output_is_escaped_on_its_page(tmp_path: Path) -> None:
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "loud.py").write_text("print('<script>alert(1)</script>')\n" + RIGHT)
    nq.grade(tmp_path / "class", 4, feedback=tmp_path / "pages")
    text = (tmp_path / "pages" / "loud.py.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "<script" not in text


def test_gradescope_and_prairielearn_files_have_their_documented_fields(tmp_path: Path, cli) -> None:
    wrong = tmp_path / "bob.py"
    wrong.write_text(CLASS["bob.py"][0][""])
    code, out, _ = cli("check", f"{wrong}:model", "1-4", "--format", "gradescope", "--visibility", "after_due_date")
    assert code == 1
    result = json.loads(out)
    assert set(result) >= {"score", "tests", "output", "execution_time"} and result["score"] == 1.0
    assert [t["name"] for t in result["tests"]] == ["N = 1", "N = 2", "N = 3", "N = 4"]
    for test in result["tests"]:
        assert set(test) == {"name", "score", "max_score", "status", "output", "output_format", "visibility"}
        assert test["status"] in ("passed", "failed") and test["visibility"] == "after_due_date"
    assert [t["status"] for t in result["tests"]] == ["passed", "failed", "failed", "failed"]
    code, out, _ = cli("check", f"{wrong}:model", "1-4", "--format", "prairielearn")
    result = json.loads(out)
    assert result["gradable"] is True and result["score"] == 0.25
    assert all(set(t) == {"name", "points", "max_points", "message", "output"} for t in result["tests"])
    broken = tmp_path / "cy.py"
    broken.write_text("def model(n)\n")
    code, out, _ = cli("check", f"{broken}:model", "1-4", "--format", "prairielearn")
    result = json.loads(out)
    assert code == 4 and result["gradable"] is False and "line 1" in result["format_errors"][0]
    record = nq.checking.grade_model(f"{broken}:model", 4)
    assert gradescope(record)["score"] == 0 and prairielearn(record)["gradable"] is False


BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")

# Injected before the page's own markup: records every error (a script's, a resource that fails to load)
# and, once the page has loaded, what was laid out: each board's box and its queens.
PROBE = """<script>
window.__errors = [];
addEventListener("error", e => __errors.push(String(e.message || (e.target && e.target.outerHTML))), true);
addEventListener("load", () => {
  const boards = [...document.querySelectorAll("svg.board")].map(svg => {
    const box = svg.getBoundingClientRect();
    const queens = [...svg.querySelectorAll("circle.queen")].filter(q => q.getBoundingClientRect().width > 0);
    return {n: +svg.dataset.n, width: box.width, height: box.height, queens: queens.length,
            attackers: svg.querySelectorAll("circle.attacker").length};
  });
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({boards, errors: __errors});
  document.body.appendChild(out);
});
</script>"""


@pytest.mark.skipif(BROWSER is None, reason="Debian's chromium is not installed (.ci/run installs it)")
def test_the_pages_render_in_a_real_browser_with_no_console_error(graded, tmp_path: Path) -> None:
    _, _, _, pages = graded
    for name in ("bob.py", "ada.py", "dee.py", "index"):
        source = (pages / f"{name}.html").read_text()
        probed = tmp_path / f"{name}.html"
        probed.write_text(source.replace("<head>", "<head>" + PROBE, 1))
        done = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" +
                               str(tmp_path / "profile"), "--enable-logging=stderr", "--v=0",
                               "--virtual-time-budget=5000", "--dump-dom", probed.as_uri()],
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, "HOME": str(tmp_path)})
        assert done.returncode == 0, done.stderr[-2000:]
        found = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
        assert found, f"{name}: the page did not finish loading"
        probe = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
        assert probe["errors"] == [], name
        console = [line for line in done.stderr.splitlines() if "CONSOLE" in line]
        assert console == [], console
        if name == "bob.py":  # wrong from N = 2: the first three that differ drawn, each with its attacking pair
            assert [b["n"] for b in probe["boards"]] == [2, 3, 4]
            assert all(b["width"] == b["height"] == 28 * b["n"] and b["queens"] == b["n"] and b["attackers"] == 2
                       for b in probe["boards"]), probe
        else:
            assert probe["boards"] == []
    shutil.rmtree(tmp_path / "profile", ignore_errors=True)


def test_check_html_and_a_notebooks_display_are_the_same_page(tmp_path: Path, cli) -> None:
    wrong = tmp_path / "bob.py"
    wrong.write_text(CLASS["bob.py"][0][""])
    code, _, err = cli("check", f"{wrong}:model", "1-4", "--html", tmp_path / "page.html")
    assert code == 1, err
    page = (tmp_path / "page.html").read_text()
    assert "wrong: 25% of the sizes" in page and "N = 2: the model differs" in page
    assert page.count("<svg") == 1  # (it stops at the first N that differs)
    report = nq.check(f"{wrong}:model", "1-4")
    shown = report._repr_html_()
    assert "<svg" in shown and "the queens at 0:1 and 1:0 attack each other" in shown
    code, _, err = cli("check", f"{wrong}:model", "1-4", "--html", tmp_path / "no" / "page.html")
    assert code == 2 and "no directory" in err


def test_the_forms_are_data_every_list_of_them_derives_from(cli) -> None:
    import importlib

    from nqueens_cp.checking.reading import FORMS, form_of, patterns

    for form in FORMS:
        module, _, name = form.reader.partition(":")
        reader = getattr(importlib.import_module(module, "nqueens_cp.checking"), name)
        assert reader.tool == form.tool, form.name
        for suffix in form.suffixes:
            assert form_of(f"q-{{n}}{suffix}" if form.per_n else f"q{suffix}" + (":f" if suffix == ".py" else "")) \
                is form
    code, shown, _ = cli("check", "--help")
    assert code == 0 and all(form.pattern in shown for form in FORMS)
    code, _, err = cli("check", "model.txt", "4")
    assert code == 2 and patterns() in err


def test_ctrl_c_stops_a_grade_keeps_its_records_and_leaves_no_model_running(tmp_path: Path) -> None:
    import signal

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "a_quick.py").write_text(RIGHT)
    started = tmp_path / "started"
    os.mkfifo(started)
    (folder / "b_slow.py").write_text("import os, time\n\n\ndef model(n):\n"
                                      f"    with open({str(started)!r}, 'w') as said:\n"
                                      "        said.write(str(os.getpid()))\n"
                                      "    time.sleep(3600)\n")
    results = tmp_path / "grades.jsonl"
    grading = subprocess.Popen([*_cli(), "grade", str(folder), "1-5", "--jobs", "1", "--results", str(results),
                                "--format", "jsonl"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = json.loads(grading.stdout.readline())  # (a_quick is graded; b_slow is under way)
        assert first["submission"] == "a_quick.py" and first["verdict"] == "right"
        with open(started) as said:  # (the slow model's process runs, and says so)
            slow = int(said.read())
        grading.send_signal(signal.SIGINT)
        _, err = grading.communicate(timeout=60)
    finally:
        if grading.poll() is None:
            grading.kill()
            grading.communicate()
    assert grading.returncode == 130 and "Traceback" not in err
    assert [json.loads(line)["submission"] for line in results.read_text().splitlines()] == ["a_quick.py"]
    from conftest import still_running

    assert still_running([slow], 30) == []


def test_a_class_graded_on_a_dask_cluster(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="a Dask cluster needs the package 'distributed'")
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada.py").write_text(RIGHT)
    (folder / "bob.py").write_text(CLASS["bob.py"][0][""])
    report = nq.grade(folder, "1-5", executor="local:2")
    assert [(r.submission, r.verdict, r.first_wrong) for r in report.records] == [("ada.py", "right", None),
                                                                                 ("bob.py", "wrong", 2)]
