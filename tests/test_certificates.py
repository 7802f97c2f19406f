"""Certificates of counts (nqueens_cp.certificates): made, checked, and
refused with their reason in every way a certificate can be wrong."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from nqueens_cp import certificates
from nqueens_cp.certificates import BOARDS, FORMULA, MANIFEST, PROOF, QUESTION, certify, verify
from nqueens_cp.cli.main import main
from nqueens_cp.errors import InvalidInputError, TimeLimitReached
from nqueens_cp.execution.cluster import LOCAL_HTTP
from nqueens_cp.known import FUNDAMENTAL, TOTAL
from nqueens_cp.model.variants import Variant

pytestmark = pytest.mark.skipif(shutil.which("drat-trim") is None,
                                reason="drat-trim is not installed (Debian package drat-trim; .ci/run installs it)")


@pytest.fixture(scope="module")
def eight(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One certificate of N = 8, copied by each tampering test."""
    path = tmp_path_factory.mktemp("made") / "c8"
    assert certify(8, path).count == 92
    return path


def _copy(eight: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "c"
    shutil.copytree(eight, copy)
    return copy


def _resign(root: Path, count: int | None = None) -> None:
    """Recompute the manifest's sizes and hashes (and count): the tampering
    then has to be caught by what the files say, not by the manifest."""
    manifest = json.loads((root / MANIFEST).read_text())
    for name in manifest["files"]:
        data = (root / name).read_bytes()
        manifest["files"][name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    if count is not None:
        manifest["count"] = count
    (root / MANIFEST).write_text(json.dumps(manifest))


def _lines(root: Path) -> list[str]:
    return (root / BOARDS).read_text().splitlines(keepends=True)


@pytest.mark.parametrize("n", range(1, 11))
def test_certified_counts_and_classes_are_the_published_ones(n: int, tmp_path: Path) -> None:
    made = certify(n, tmp_path / "c")
    found = verify(tmp_path / "c")
    assert found.certified, found.reason
    assert made.count == found.count == TOTAL[n] and found.classes == FUNDAMENTAL[n]


@pytest.mark.parametrize("variant, n, encoding, fixed, blocked", [
    ("toroidal", 7, "seqcounter", None, None),
    ("superqueens", 10, "ladder", None, None),
    ("rooks", 5, "commander", None, None),
    ("semiqueens", 5, "binary", None, None),
    ("queens", 9, "product", {0: 2}, [(4, 4), (5, 1)]),
])
def test_every_variant_encoding_and_position_certifies(variant, n, encoding, fixed, blocked, tmp_path: Path) -> None:
    from nqueens_cp import count

    made = certify(n, tmp_path / "c", variant=variant, encoding=encoding, fixed=fixed, blocked=blocked)
    found = verify(tmp_path / "c")
    assert found.certified, found.reason
    assert found.count == made.count == count(n, "backtrack", fixed, variant=variant, blocked=blocked)
    assert (found.classes is None) == bool(fixed or variant in ("semiqueens",))


def test_a_certificate_appears_whole_or_not_at_all(tmp_path: Path) -> None:
    def interrupt(board: tuple[int, ...]) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        certify(8, tmp_path / "c", on_board=interrupt)
    with pytest.raises(TimeLimitReached):
        certify(13, tmp_path / "c", time_limit=0.05)
    assert list(tmp_path.iterdir()) == [], "nothing left behind, not even the partial directory"
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("x")
    with pytest.raises(InvalidInputError, match="exists"):
        certify(5, tmp_path / "taken")
    with pytest.raises(InvalidInputError, match="optimum --certificate"):
        certify(5, tmp_path / "d", variant="domination")


def _refused(root: Path, reason: str) -> None:
    found = verify(root)
    assert not found.certified and reason in found.reason, found.reason


def test_a_board_dropped_is_refused(eight: Path, tmp_path: Path) -> None:
    root = _copy(eight, tmp_path)
    (root / BOARDS).write_text("".join(_lines(root)[1:]))
    _refused(root, f"{BOARDS} is not the file the manifest describes")
    _resign(root)
    _refused(root, "holds 91 boards, the manifest says 92")
    _resign(root, 91)  # the count lowered to match: only the proof can tell
    _refused(root, "does not refute the CNF with the boards blocked")


def test_a_board_duplicated_invalid_or_moved_is_refused(eight: Path, tmp_path: Path) -> None:
    root = _copy(eight, tmp_path)
    lines = _lines(root)
    (root / BOARDS).write_text("".join(lines + lines[:1]))
    _resign(root, 93)
    _refused(root, f"{BOARDS} line 93: a board listed twice")
    (root / BOARDS).write_text("".join(["0 1 2 3 4 5 6 7\n", *lines[1:]]))
    _resign(root)
    _refused(root, f"{BOARDS} line 1: not a board of plain N-queens")
    (root / BOARDS).write_text("".join(["0 4 7 5 2 6 x 3\n", *lines[1:]]))
    _resign(root)
    _refused(root, f"{BOARDS} line 1: not a board")


@pytest.mark.parametrize("encoding", ["pairwise", "seqcounter"])
def test_a_board_that_is_not_a_model_of_the_cnf_is_refused(encoding: str, tmp_path: Path, monkeypatch) -> None:
    """The model check stands on its own: with the validator made to accept
    anything, a board that breaks a clause is still caught (the cells alone
    for pairwise; with auxiliary variables, no completion exists)."""
    root = tmp_path / "c"
    certify(8, root, encoding=encoding)
    (root / BOARDS).write_text("".join(["0 1 2 3 4 5 6 7\n", *_lines(root)[1:]]))
    _resign(root)
    monkeypatch.setattr(Variant, "is_solution", lambda self, board, n: True)
    _refused(root, f"{BOARDS} line 1: not a model of {FORMULA}")


def test_a_proof_emptied_replaced_or_of_another_formula_is_refused(eight: Path, tmp_path: Path) -> None:
    """Proofs that do not refute the formula.  (A proof cut short or with a
    lemma changed may still be a proof: drat-trim checks only the lemmas
    the refutation needs, and a prefix with the blocking clauses may
    already refute it.  verify then rightly accepts it.)"""
    root = _copy(eight, tmp_path)
    certify(7, tmp_path / "c7")
    for tampered in (b"", b"a\x00", (tmp_path / "c7" / PROOF).read_bytes()):  # nothing; "the empty clause"; N = 7's
        (root / PROOF).write_bytes(tampered)
        _refused(root, f"{PROOF} is not the file the manifest describes")
        _resign(root)
        _refused(root, f"{PROOF} does not refute the CNF with the boards blocked")


def test_the_cnf_or_the_question_edited_is_refused(eight: Path, tmp_path: Path) -> None:
    root = _copy(eight, tmp_path)
    cnf = (root / FORMULA).read_text().splitlines(keepends=True)
    (root / FORMULA).write_text("".join(cnf[:-1]))  # the last clause dropped: a weaker formula
    _resign(root)
    _refused(root, f"{FORMULA} is not the CNF of the question")
    shutil.copy(eight / FORMULA, root / FORMULA)
    for change, reason in ((lambda q: q.update(n=9), f"{BOARDS} line 1: 8 columns, the question's N is 9"),
                           (lambda q: q.update(variant="toroidal", family="0,-1w,1w"), FORMULA),
                           (lambda q: q.update(encoding="nosuch"), "cannot be encoded"),
                           (lambda q: q.update(placed=[[0, 9]]), "not a question"),
                           (lambda q: q.pop("n"), "not a question")):
        question = json.loads((eight / QUESTION).read_text())
        change(question)
        (root / QUESTION).write_text(json.dumps(question))
        _resign(root)
        _refused(root, reason)


@pytest.mark.parametrize("name", [QUESTION, FORMULA, BOARDS, PROOF, MANIFEST])
def test_a_file_missing_unreadable_or_empty_is_refused(name: str, eight: Path, tmp_path: Path) -> None:
    root = _copy(eight, tmp_path)
    (root / name).unlink()
    _refused(root, f"{name} is missing")
    (root / name).mkdir()  # a directory in its place: no file to read
    _refused(root, name)
    (root / name).rmdir()
    (root / name).write_text("")
    if name != MANIFEST:
        _resign(root)
    _refused(root, "cannot be read as JSON" if name in (MANIFEST, QUESTION) else name)


def test_the_command_line_certifies_and_refuses(tmp_path: Path, capsys) -> None:
    where = str(tmp_path / "c10")
    assert main(["count", "10", "--certificate", where]) == 0
    assert capsys.readouterr().out == "724\n"
    assert main(["verify", where]) == 0
    assert capsys.readouterr().out.startswith("certified: 724 solutions of N = 10 (92 classes;")
    (Path(where) / BOARDS).write_text("")
    assert main(["verify", where]) == 1
    out, _ = capsys.readouterr()
    assert out.startswith("not certified: boards.txt is not the file the manifest describes")
    assert main(["enumerate", "6", "-f", "line", "--certificate", str(tmp_path / "e6")]) == 0
    out, _ = capsys.readouterr()
    assert sorted(out.splitlines()) == ["1 3 5 0 2 4", "2 5 1 4 0 3", "3 0 4 1 5 2", "4 2 0 5 3 1"]
    assert main(["verify", str(tmp_path / "e6"), "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 4
    for extra, reason in ((["-e", "cpsat"], "engine sat"), (["--unique"], "--unique"),
                          (["--solver", "minisat22"], "cadical195")):
        assert main(["count", "6", "--certificate", str(tmp_path / "x"), *extra]) == 2
        _, err = capsys.readouterr()
        assert reason in err and err.count("\n") == 1, err
    assert main(["verify", str(tmp_path / "nowhere")]) == 1
    assert "is not a directory" in capsys.readouterr().out


def test_the_enumerations_proof_holds_with_the_clause_restoring_inprocessing_off(tmp_path: Path) -> None:
    """N = 12 is where the enumerating solver's proof failed drat-trim with
    CaDiCaL's defaults (clauses it had eliminated came back as lemmas that
    do not follow); with PROOF_SAFE it passes."""
    certify(12, tmp_path / "c", split=False)
    found = verify(tmp_path / "c")
    assert found.certified and (found.count, found.classes) == (14200, 1787), found.reason
    assert certificates.PROOF_SAFE["elim"] == 0


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A certificate of N = 11 split on row 0 over two processes, one blocked square in row 0."""
    path = tmp_path_factory.mktemp("split") / "s11"
    made = certify(11, path, jobs=2, blocked=[(0, 4)])
    assert made.stats["parts"] == 10
    return path


def test_a_split_certificate_is_the_sum_of_its_parts(split: Path, tmp_path: Path) -> None:
    from nqueens_cp import count

    found = verify(split)
    assert found.certified, found.reason
    assert found.count == count(11, "backtrack", blocked=[(0, 4)]) and found.details["parts"] == 10
    assert found.classes is None  # (a blocked square: the symmetries move it)
    one = certify(11, tmp_path / "one", jobs=1)  # split, in this process
    assert one.stats["parts"] == 11 and (verify(one.directory).count, verify(one.directory).classes) == (2680, 341)


def test_verify_reads_each_boards_file_once(eight: Path, tmp_path: Path, monkeypatch) -> None:
    """The boards were read three times (checked, then again for the classes); now once, the classes counted as
    each board is checked, over a split certificate's parts too.  (Its first line is read again before any work:
    how many columns a board has bounds the question, evidence.bounded.)"""
    from nqueens_cp.certificates import check

    read = []
    real = check.read_boards
    monkeypatch.setattr(check, "read_boards", lambda path, n: read.append(path) or real(path, n))
    found = verify(eight)
    assert (found.certified, found.count, found.classes) == (True, 92, 12) and read == [eight / BOARDS]
    read.clear()
    one = certify(11, tmp_path / "one", jobs=1)
    found = verify(one.directory)
    assert (found.count, found.classes) == (2680, 341) and len(read) == len(set(read)) == 11


def test_a_split_certificate_with_a_part_missing_or_wrong_is_refused(split: Path, tmp_path: Path) -> None:
    root = tmp_path / "s"
    shutil.copytree(split, root)
    shutil.rmtree(root / "part-03")
    _refused(root, "part part-03 (column 3) is missing")
    shutil.copytree(split / "part-03", root / "part-03")
    manifest = json.loads((root / MANIFEST).read_text())
    manifest["parts"].pop("part-03")
    (root / MANIFEST).write_text(json.dumps(manifest))
    _refused(root, "the parts are not each column of row 0 once (missing [3]")
    shutil.copy(split / MANIFEST, root / MANIFEST)
    shutil.copy(split / "part-05" / BOARDS, root / "part-03" / BOARDS)  # another part's boards
    _refused(root, "part-03: boards.txt is not the file the manifest describes")
    shutil.rmtree(root / "part-03")
    shutil.copytree(split / "part-05", root / "part-03")  # a whole other part, self-consistent
    manifest = json.loads((root / MANIFEST).read_text())
    manifest["parts"]["part-03"]["manifest_sha256"] = manifest["parts"]["part-05"]["manifest_sha256"]
    manifest["parts"]["part-03"]["count"] = manifest["parts"]["part-05"]["count"]
    (root / MANIFEST).write_text(json.dumps(manifest))
    _refused(root, "part-03: not the question with row 0's queen on column 3")


def test_a_board_that_moves_a_placement_or_takes_a_blocked_square_is_refused(tmp_path: Path) -> None:
    corner = "0 4 7 5 2 6 1 3\n"  # a board of 8 with a queen on 0:0
    other = "1 3 5 7 2 0 6 4\n"  # one without
    root = tmp_path / "placed"
    certify(8, root, fixed={0: 0})
    (root / BOARDS).write_text("".join([other, *_lines(root)[1:]]))
    _resign(root)
    _refused(root, f"{BOARDS} line 1: the pre-placed queen at 0:0 is not there")
    root = tmp_path / "blocked"
    certify(8, root, blocked=[(0, 0)])
    (root / BOARDS).write_text("".join([corner, *_lines(root)[1:]]))
    _resign(root)
    _refused(root, f"{BOARDS} line 1: a queen on the blocked square 0:0")


# --- optima ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["domination", "independent"])
def test_certified_optima_are_the_published_ones(variant: str, tmp_path: Path) -> None:
    from nqueens_cp.certificates import certify_optimum
    from nqueens_cp.model.variants import get

    for n in range(1, 10):
        made = certify_optimum(n, tmp_path / f"{n}", variant)
        found = verify(tmp_path / f"{n}")
        assert found.certified, found.reason
        assert found.optimum == made.optimum.size == get(variant).known[n], n


def test_a_tampered_certificate_of_an_optimum_is_refused(tmp_path: Path) -> None:
    from nqueens_cp.certificates import WITNESS, certify_optimum

    made = tmp_path / "o8"
    certify_optimum(8, made, "domination")
    root = tmp_path / "o"
    shutil.copytree(made, root)
    witness = (root / WITNESS).read_text().splitlines(keepends=True)
    (root / WITNESS).write_text("".join(witness[1:]))
    _refused(root, f"{WITNESS} is not the file the manifest describes")
    _resign(root)
    _refused(root, f"{WITNESS}: not 5 distinct squares whose queens answer")
    (root / WITNESS).write_text("".join(["0 0\n", *witness[1:]]) if witness[0] != "0 0\n" else "".join(
        ["1 1\n", *witness[1:]]))
    _resign(root)
    _refused(root, f"{WITNESS}: not 5 distinct squares whose queens answer")
    shutil.copy(made / WITNESS, root / WITNESS)
    (root / PROOF).write_bytes(b"a\x00")  # "the empty clause", at once
    _resign(root)
    _refused(root, f"{PROOF} does not refute 4 queens")
    shutil.copy(made / PROOF, root / PROOF)
    question = json.loads((made / QUESTION).read_text())
    question["optimum"] = 4
    (root / QUESTION).write_text(json.dumps(question))
    _resign(root)
    _refused(root, "not the manifest's optimum")
    shutil.copy(made / QUESTION, root / QUESTION)
    (root / FORMULA).write_text((made / FORMULA).read_text().replace("p cnf", "c edited\np cnf"))
    _resign(root)
    _refused(root, f"{FORMULA} is not the CNF of 4 queens")


def test_the_command_line_certifies_an_optimum(tmp_path: Path, capsys) -> None:
    where = str(tmp_path / "i9")
    assert main(["optimum", "9", "--variant", "independent", "--certificate", where]) == 0
    assert capsys.readouterr().out.startswith("5\n")
    assert main(["verify", where]) == 0
    assert capsys.readouterr().out.startswith("certified: 5 queens for independent of N = 9")


def test_lrat_is_kept_when_asked_and_checked_by_lrat_check(tmp_path: Path, capsys) -> None:
    from nqueens_cp.certificates import LRAT, certify_optimum

    if shutil.which("lrat-check") is None:
        pytest.skip("lrat-check is not installed (Debian package drat-trim)")
    made = certify(11, tmp_path / "c", lrat=True, jobs=1)
    assert all((part / LRAT).stat().st_size for part in (tmp_path / "c").glob("part-*"))
    assert verify(made.directory).certified
    root = tmp_path / "c" / "part-02"
    lines = (root / LRAT).read_text().splitlines(keepends=True)
    (root / LRAT).write_text("".join(lines[:-3]))  # the last steps, the empty clause's among them, cut
    _resign(root)
    manifest = json.loads((tmp_path / "c" / MANIFEST).read_text())
    manifest["parts"]["part-02"]["manifest_sha256"] = hashlib.sha256((root / MANIFEST).read_bytes()).hexdigest()
    (tmp_path / "c" / MANIFEST).write_text(json.dumps(manifest))
    _refused(tmp_path / "c", f"part-02: {LRAT} does not refute the CNF with the boards blocked: it never derives "
             "the empty clause")
    optimum = certify_optimum(7, tmp_path / "o", "domination", lrat=True)
    assert (tmp_path / "o" / LRAT).stat().st_size and verify(optimum.directory).optimum == 4
    assert main(["count", "6", "--lrat"]) == 2
    assert "--lrat keeps a certificate's proof as LRAT: it needs --certificate DIR" in capsys.readouterr().err



def test_a_certificate_split_over_a_local_dask_cluster(tmp_path: Path) -> None:
    """The parts as Dask tasks: each certified where it runs, its files sent back."""
    pytest.importorskip("distributed", reason="Dask distributed is not installed (the test extra has it)")
    made = certify(11, tmp_path / "c", executor="local:2", lrat=True)
    found = verify(made.directory)
    assert found.certified and (found.count, found.classes, found.details["parts"]) == (2680, 341, 11), found.reason
    with pytest.raises(InvalidInputError, match="row 0 holds a pre-placed queen"):
        certify(9, tmp_path / "d", fixed={0: 1}, executor="local:2")


def test_a_worker_killed_during_a_certificate_has_its_part_made_again(tmp_path: Path) -> None:
    import os
    import signal

    pytest.importorskip("distributed", reason="Dask distributed is not installed (the test extra has it)")
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"temporary-directory": str(tmp_path / "dask")}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True, **LOCAL_HTTP) as cluster, \
            Client(cluster) as client:
        victim = next(iter(client.run(os.getpid).values()))
        killed: list[int] = []

        def kill_one(board: tuple[int, ...]) -> None:
            if not killed:  # the first part is back: the others are under way on both workers
                os.kill(victim, signal.SIGKILL)
                killed.append(1)

        made = certify(11, tmp_path / "c", executor=client.get_executor(), on_board=kill_one)
    assert killed and made.count == 2680
    found = verify(made.directory)
    assert found.certified and found.count == 2680, found.reason


def test_an_lrat_proof_that_derives_nothing_is_refused_though_lrat_check_says_verified(tmp_path: Path) -> None:
    """Debian's lrat-check prints 'c VERIFIED' for the one line '1 0 0': what it proved is read here."""
    from nqueens_cp.certificates import LRAT

    if shutil.which("lrat-check") is None:
        pytest.skip("lrat-check is not installed (Debian package drat-trim)")
    made = certify(8, tmp_path / "c", lrat=True)
    found = verify(made.directory)
    assert found.certified and "lrat-check, which derives the empty clause" in str(found), found
    assert found.details["checkers"] == ["drat-trim", "lrat-check"]
    assert "lrat-check" not in verify(certify(6, tmp_path / "plain").directory).details["checkers"]
    root = tmp_path / "c"
    (root / LRAT).write_text("1 0 0\n")
    _resign(root)
    _refused(root, f"{LRAT} does not refute the CNF with the boards blocked: line 1 does not add a new clause")
    clauses = int(next(line for line in (root / FORMULA).read_text().splitlines() if line.startswith("p cnf"))
                  .split()[3]) + 92
    (root / LRAT).write_text(f"{clauses + 1} 0 0\n")  # an empty clause with no hints: nothing follows from
    _resign(root)
    _refused(root, "it never derives the empty clause")


def test_the_manifests_proof_kind_must_match_its_files(eight: Path, tmp_path: Path) -> None:
    root = _copy(eight, tmp_path)
    manifest = json.loads((root / MANIFEST).read_text())
    assert manifest["proof"] == "DRAT"
    manifest["proof"] = "DRAT+LRAT"
    (root / MANIFEST).write_text(json.dumps(manifest))
    _refused(root, "the proof is said to be 'DRAT+LRAT', and the files hold 'DRAT'")


def test_a_file_or_folder_the_manifest_does_not_list_is_refused_by_name(eight: Path, split: Path,
                                                                      tmp_path: Path) -> None:
    root = _copy(eight, tmp_path)
    (root / "notes.txt").write_text("mine\n")
    _refused(root, "c/notes.txt: not listed in manifest.json")
    copy = tmp_path / "s"
    shutil.copytree(split, copy)
    shutil.copytree(copy / "part-03", copy / "part-11")  # a part beside the real ones
    _refused(copy, "s/part-11: not listed in manifest.json")


@pytest.mark.parametrize("n", [3000, 1_000_000])
def test_a_question_larger_than_its_files_is_refused_before_any_work(n: int, eight: Path, tmp_path: Path) -> None:
    """The question re-signed to a huge N: its CNF was made again (5.9 GB for N = 1,000,000)."""
    root = _copy(eight, tmp_path)
    question = json.loads((root / QUESTION).read_text())
    question["n"] = n
    (root / QUESTION).write_text(json.dumps(question))
    _resign(root)
    found = verify(root)
    assert not found.certified and found.reason == f"{QUESTION}: N = {n:,} has {n * n:,} cells, more than " \
        f"{FORMULA}'s {(root / FORMULA).stat().st_size:,} bytes can state" and found.seconds < 5, found
    question["n"] = 9  # a size its files could state: the first board's columns say otherwise
    (root / QUESTION).write_text(json.dumps(question))
    _resign(root)
    _refused(root, f"{BOARDS} line 1: 8 columns, the question's N is 9")


def test_the_cnf_is_compared_as_it_is_made_and_nothing_is_written(eight: Path, tmp_path: Path) -> None:
    root = _copy(eight, tmp_path)
    data = bytearray((root / FORMULA).read_bytes())
    at = data.index(b"\np cnf") + 200
    data[at:at + 1] = b"9" if data[at:at + 1] != b"9" else b"8"
    (root / FORMULA).write_bytes(bytes(data))
    _resign(root)
    before = set(os.listdir(tempfile.gettempdir()))
    _refused(root, f"{FORMULA} is not the CNF of the question (made again here, it differs at byte {at:,})")
    assert set(os.listdir(tempfile.gettempdir())) == before


def test_a_deeply_nested_question_is_a_refusal_not_a_traceback(eight: Path, tmp_path: Path) -> None:
    root = _copy(eight, tmp_path)
    (root / QUESTION).write_text("[" * 100_000 + "]" * 100_000)
    _resign(root)
    _refused(root, f"{QUESTION} cannot be read as JSON (nested too deep)")


def test_verify_help_names_both_kinds_of_certificate(cli) -> None:
    """'verify --help' spoke of counts only, though it checks optimum certificates too."""
    text = " ".join(cli("verify", "--help")[1].split())
    assert "Or one written by 'optimum N --variant domination|independent --certificate DIR'" in text
    assert "verify g8" in text and "a count or an optimum" in " ".join(cli("--help")[1].split())
