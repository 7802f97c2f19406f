"""docs/tour.ipynb, the comparison a class runs, runs top to bottom on a clean
kernel: a notebook that stops working fails the suite.  Its outputs are not
stored in the repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TOUR = Path(__file__).resolve().parent.parent / "docs" / "tour.ipynb"


def test_the_tour_is_stored_without_outputs() -> None:
    cells = json.loads(TOUR.read_text())["cells"]
    assert cells and all(not cell.get("outputs") and cell.get("execution_count") is None
                         for cell in cells if cell["cell_type"] == "code")
    # every cell has its id (nbformat 4.5: without them nbformat warns MissingIDFieldWarning on each read)
    ids = [cell.get("id") for cell in cells]
    assert all(ids) and len(set(ids)) == len(ids)


def test_the_tour_runs_top_to_bottom_on_a_clean_kernel(tmp_path: Path) -> None:
    """Run by nbclient in a process of its own (nbclient sets the Ctrl-C handler of the
    process that runs it), the kernel a child of that; the executed copy is read back."""
    pytest.importorskip("matplotlib", reason="the tour draws its figures with matplotlib (the plot extra)")
    pytest.importorskip("nbclient", reason="nbclient runs the notebook (the test extra)")
    executed, kept = tmp_path / "tour.ipynb", tmp_path / "figures"
    run = subprocess.run(  # (the figures kept, as for slides: the notebook's switch)
        [sys.executable, "-c", RUN, str(TOUR), str(executed), str(tmp_path)], capture_output=True, text=True,
        timeout=900, env={**os.environ, "NQUEENS_TOUR_FIGURES": str(kept)})
    assert run.returncode == 0, run.stderr[-3000:]
    notebook = json.loads(executed.read_text())
    shown = [output for cell in notebook["cells"] if cell["cell_type"] == "code" for output in cell["outputs"]]
    assert not [o for o in shown if o["output_type"] == "error"]
    assert sum("image/png" in o.get("data", {}) for o in shown) == 5  # every figure was drawn
    assert sorted(path.name for path in kept.glob("*.png")) == ["completion.png", "cost.png", "domination.png",
                                                                  "enumerate.png", "first.png"]  # and kept
    boards = [o["data"]["image/svg+xml"] for o in shown if "image/svg+xml" in o.get("data", {})]
    assert len(boards) == 1 and "".join(boards[0]).count('class="queen"') == 8  # a solution shown as a board
    said = " ".join("".join(o.get("data", {}).get("text/markdown", "")) for o in shown)
    assert "the fastest to list every board is" in said and "verify: **certified" in said
    import tempfile

    assert not [name for name in os.listdir(tempfile.gettempdir()) if name.startswith("nqueens-tour-")]  # none made


RUN = """
import sys
import nbformat
from nbclient import NotebookClient

notebook = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": sys.argv[3]}}).execute()
nbformat.write(notebook, sys.argv[2])
"""
