"""Counting by joining quarters, compiled (issue 41): kernel/join.c held to its
twin part by part and to the published totals, small N through the same code
path as large N (plan, parts, processes, checkpoint), the memory said before
the work, and refusals in one line."""

from __future__ import annotations

import json
import platform
import random
import re
from pathlib import Path

import pytest

import nqueens_cp as nq
from conftest import cpu_flags
from test_quarters import table_sizes
from nqueens_cp import FUNDAMENTAL, TOTAL, kernel
from nqueens_cp.counting import join, quarters
from nqueens_cp.errors import InvalidInputError, NQueensError
from nqueens_cp.kernel import twin_join

needs_c = pytest.mark.skipif(not kernel.compiled(), reason="the compiled kernel was not built here")


def all_middles(n: int) -> list[tuple[int, int]]:
    """Every placement of the middle queens (no symmetry used)."""
    if n % 2 == 0:
        return [(-1, -1)]
    return [(x, y) for x in range(n) for y in range(n) if twin_join.middle(n, x, y)]


@needs_c
@pytest.mark.parametrize("n", range(2, 12))
def test_the_compiled_join_is_its_twin_part_by_part(n: int) -> None:
    """Boards, row sets, halves and pair tests, for every placement of the middle
    queens (N <= 9; one of each class beyond), with the join cut every way (at once; buckets down to one each;
    mixed) and halves listed in pieces or whole: the pieces and buckets that
    large N needs are gone through at small N."""
    table = twin_join.table(n // 2)
    # every placement of the middle queens up to 9; beyond, one of each class (as a count takes them)
    middles = [(x, y, 1) for x, y in all_middles(n)] if n <= 9 else join.middles(n)
    for cuts in ((0, 0, 1), (0, 4, 2), (100, 50, 8), (twin_join.DIRECT, twin_join.SMALL, twin_join.BUCKET)):
        total = 0
        for x, y, weight in middles:
            ranks = kernel.join_row_sets(n, x, y)
            for cap in (1, 1 << 16):  # (cap 1: pieces of the largest bucket's size)
                compiled = kernel.join_count(n, x, y, 0, ranks, cap, *cuts)
                assert compiled[:4] == twin_join.join_count(table, n, x, y, 0, ranks, cap, *cuts), (x, y, cap, cuts)
            total += compiled.boards * weight
        assert total == TOTAL[n]


@needs_c
def test_calls_in_threads_at_once_count_what_they_count_one_by_one() -> None:
    """join.c keeps a call's arrays (the lists, their buckets, an odd N's filtered quarters) for the
    process's next call; calls running at once in other threads each make their own.  Every middle of
    15, in pieces of three sizes (so that the arrays kept grow between calls), counted by four threads
    at once, three times over, counts what each counts alone."""
    from concurrent.futures import ThreadPoolExecutor

    n = 15
    tasks = [(x, y, 0, kernel.join_row_sets(n, x, y), (1, 1 << 12, 1 << 16)[i % 3])
             for i, (x, y, _) in enumerate(join.middles(n))]
    alone = [kernel.join_count(n, *task)[:4] for task in tasks]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda task: kernel.join_count(n, *task)[:4], tasks * 3))
    assert together == alone * 3
    assert sum(found[0] * weight for found, (*_, weight) in zip(alone, join.middles(n))) == TOTAL[n]


@needs_c
def test_the_join_keeps_its_arrays_for_the_next_call_and_a_count_here_frees_them() -> None:
    """A worker's next part reuses the arrays of its last (no new pages to fault and zero); a count whose
    parts ran in this process frees them as it ends."""
    n = 15
    x, y, _ = join.middles(n)[0]
    kernel.join_release()
    assert kernel.join_kept() == 0
    first = kernel.join_count(n, x, y, 0, 5, 1 << 16)
    kept = kernel.join_kept()
    placements, _ = join.TABLES[n // 2]
    assert kept >= 4 * placements * 8 + 2 * ((1 << 16) + 8) * 8  # the four filtered quarters, the two lists
    assert kernel.join_count(n, x, y, 0, 5, 1 << 16)[:4] == first[:4]  # (boards, row sets, halves, pair tests)
    assert kernel.join_kept() == kept  # the same arrays again, none made anew
    assert nq.count(n, method="quarters", jobs=1) == TOTAL[n]
    assert kernel.join_kept() == 0


@needs_c
def test_the_twin_cuts_the_join_where_the_c_code_does() -> None:
    from nqueens_cp.kernel import _search

    assert (_search.JOIN_DIRECT, _search.JOIN_SMALL, _search.JOIN_BUCKET, _search.JOIN_MAX_ID_BITS,
            _search.JOIN_DENSE_LIST, _search.JOIN_ID_BITS) == \
        (twin_join.DIRECT, twin_join.SMALL, twin_join.BUCKET, twin_join.MAX_ID_BITS, twin_join.DENSE_LIST,
         twin_join.ID_BITS)
    assert _search.JOIN_MAX_N == kernel.JOIN_MAX_N == join.MAX_N


@needs_c
def test_a_part_is_its_range_of_row_sets() -> None:
    """Ranges of ranks add up to the whole, wherever they are cut."""
    n, x, y = 11, 5, 5
    ranks = kernel.join_row_sets(n, x, y)
    whole = kernel.join_count(n, x, y, 0, ranks, 1 << 16)
    cuts = [0, 1, 7, ranks // 2, ranks - 1, ranks]
    pieces = [kernel.join_count(n, x, y, a, b, 1 << 16) for a, b in zip(cuts, cuts[1:])]
    assert [sum(p[i] for p in pieces) for i in range(4)] == list(whole[:4])
    assert kernel.join_count(n, x, y, ranks, ranks + 5, 1 << 16)[:4] == (0, 0, 0, 0)


@needs_c
def test_keys_past_32_bits_are_made_whole_where_the_longer_list_kept_their_first_32_alone() -> None:
    """Where the others fit in 32 bits the longer list's keys are written as their first 32 bits
    alone, and a test of more than 32 bits makes the whole keys from them (dense.c's keys_of).  At
    N = 21 (a 38-bit window), tested pair by pair at the id's top level (`small` past every list's
    pairs, where a join with dense buckets is otherwise split on to single buckets: the others and
    the id's bits, more than 32), the join counts what the default cuts count and
    what testing every pair of the listed keys counts (`direct` past every list, no buckets).  The
    keys made without their ids fail it."""
    n = 21
    for x, y, first in ((0, 5, 67844), (0, 8, 67844), (0, 8, 16961)):
        cut = kernel.join_count(n, x, y, first, first + 4, join.CAP)
        whole = kernel.join_count(n, x, y, first, first + 4, join.CAP, small=1 << 40)
        listed = kernel.join_count(n, x, y, first, first + 4, join.CAP, direct=1 << 62)
        assert cut.boards == whole.boards == listed.boards > 0 and whole.tests == listed.tests, (x, y, first)


@needs_c
def test_every_size_of_dense_bucket_counts_what_testing_every_pair_counts() -> None:
    """dense.c joins a dense bucket's whole batches two at a time, an odd last one with the half batch
    after it or with the next bucket's, a half batch (256 keys or fewer) alone: which of them runs is
    the bucket's size.  Buckets of about 150 to 2,600 keys at N = 21
    (`bucket`) go through all of them, and each count is what testing every pair of the listed keys
    counts (`direct` past every list, no buckets)."""
    n, x, y, first = 21, 0, 8, 67844
    listed = kernel.join_count(n, x, y, first, first + 4, join.CAP, direct=1 << 62)
    assert listed.boards > 0
    for bucket in (150, 300, 600, 1100, 1700, 2600):
        assert kernel.join_count(n, x, y, first, first + 4, join.CAP, bucket=bucket).boards == listed.boards, bucket


@pytest.mark.parametrize("n", range(2, 14))
def test_counting_by_quarters_gives_the_published_numbers(n: int) -> None:
    """Total (A000170) and one per class (A002562, by Burnside from S180 and S90),
    through the library's whole path: the plan, the parts, the processes."""
    assert nq.count(n, method="quarters") == TOTAL[n] == (quarters.count(n) if n <= 11 else TOTAL[n])
    assert nq.count(n, method="quarters", unique=True) == FUNDAMENTAL[n]


def test_the_middles_stand_for_every_placement_of_the_middle_queens() -> None:
    """One placement of each class of the 8 symmetries, weighted by the class's size."""
    for n in (5, 7, 9, 11, 13, 21):
        m, found, covered = n // 2, join.middles(n), []
        assert sum(weight for *_, weight in found) == len(all_middles(n))
        assert sorted(weight for *_, weight in found) == [1] + [8] * (len(found) - 1)  # the centre alone is its own
        for x, y, weight in found:
            # the class: mirrored left to right (x to n-1-x), top to bottom (y to n-1-y), transposed (x, y swap)
            images = {(a, b) for p, q in ((x, y), (y, x)) for a in (p, n - 1 - p) for b in (q, n - 1 - q)}
            assert len(images) == weight
            covered += images
            # counted through the image whose middle row's queen is nearest the middle column (the fewer halves)
            assert abs(x - m) == min(abs(column - m) for column, _ in images), (n, x, y)
        assert sorted(covered) == sorted(all_middles(n))  # each placement in one class, and one only
    assert join.middles(12) == [(-1, -1, 1)]


def test_the_parts_cover_every_row_set_once() -> None:
    for n in (12, 13):
        found = join.parts(n, 40)
        for x, y, _ in join.middles(n):
            ranges = sorted((p.first, p.last) for p in found if (p.x, p.y) == (x, y))
            assert ranges[0][0] == 0 and ranges[-1][1] == kernel.join_row_sets(n, x, y)
            assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))


@pytest.mark.parametrize("h", range(1, 8))
def test_the_kept_table_sizes_are_the_kernels_and_the_references(h: int) -> None:
    """join.TABLES (what the memory estimate reads) against the kernel's count
    and the reference's quarter table (quarters.py)."""
    assert join.TABLES[h] == kernel.join_table_size(h) == kernel.join_table_size(h, compiled=False)
    assert join.TABLES[h][0] == table_sizes(2 * h)["nw"]


@needs_c
def test_the_compiled_estimate_of_a_parts_cost_is_its_twins() -> None:
    for n in range(4, 14):
        parts = [(p.x, p.y, p.first, p.last) for p in join.parts(n)]
        for samples, a_half in ((0, 0.0), (16, 1000.0), (3, join.COST_A_HALF)):
            assert kernel.join_costs(n, parts, samples, a_half) == \
                kernel.join_costs(n, parts, samples, a_half, compiled=False), (n, samples)
    with pytest.raises(ValueError, match="no count by quarters"):
        kernel.join_costs(9, [(0, 0, 0, 5)], 4, 1.0)  # (two middle queens that attack each other)


@needs_c
def test_the_dense_words_said_are_the_kernels() -> None:
    from nqueens_cp.kernel import _search

    for n in (2, 3, 16, 20, 21, 22, 25):
        for cap in (1, 511, 512, 1 << 16, join.CAP):
            assert join.dense_words(n, cap) == _search.join_dense_words(n, cap), (n, cap)


def test_the_memory_is_said_before_the_work_and_refused_above_the_limit(cli) -> None:
    found = join.budget(20, 2, 8 << 30)
    assert found.cap == join.CAP and found.table == join.table_bytes(20) > 7_535_369 * 8
    assert found.total == 2 * (found.table + found.working) <= 8 << 30
    tight = join.budget(20, 2, found.total - 1)  # the lists of halves shrink first
    assert tight.cap < found.cap and tight.total <= found.total - 1
    with pytest.raises(InvalidInputError, match=r"needs .* more than the .* of --memory; .* processes would fit"):
        join.budget(24, 8, 16 << 30)
    code, out, err = cli("count", 16, "--memory", "1M")
    assert code == 2 and out == "" and err.count("\n") == 1 and "needs 8.6 MB (2 processes" in err
    # An option that does not apply is refused, as every other (it was silently ignored)
    for argv, why in ((["--method", "walk"], "--method walk walks the board"),
                      (["-e", "cpsat"], "engine cpsat does not count by quarters (bitmask and gpu do)"),
                      (["--place", "0:1"], "the count walks the board (pre-placed queens")):
        assert cli("count", 16, "--memory", "1M", *argv)[:2] == (2, "")
        assert cli("count", 16, "--memory", "1M", *argv)[2].startswith(
            f"nqueens-cp count: error: --memory bounds a count by joining quarters, and here {why}")
    assert "N=12 is counted by walking the board" in cli("count", 12, "--memory", "4G")[2]
    with pytest.raises(InvalidInputError, match="more than this machine's"):
        nq.count(16, memory=1 << 60)
    for size, expected in (("4G", 4 << 30), ("512m", 512 << 20), ("100KB", 100 << 10), ("1.5GiB", 3 << 29),
                           ("12345", 12345)):
        assert join.parse_memory(size) == expected
    for bad in ("banana", "-1G", "0", "nanM"):
        for method in ("quarters", "walk"):  # (a mistake even where the memory would not matter)
            code, out, err = cli("count", 16, "--memory", bad, "--method", method)
            assert code == 2 and out == "" and err.count("\n") == 1 and "memory" in err
    for bad in (-5, 2.5, True):
        with pytest.raises(InvalidInputError, match="memory takes"):
            nq.count(8, memory=bad)


def test_what_cannot_be_counted_by_quarters_is_refused_in_one_line(cli) -> None:
    for argv, why in ((("--place", "0:1"), "pre-placed queens"), (("--variant", "toroidal"), "toroidal"),
                      (("--engine", "backtrack"), "engine backtrack does not"),
                      (("--symmetry-breaking", "--engine", "cpsat"), "engine cpsat does not")):
        code, out, err = cli("count", 8, "--method", "quarters", *argv)
        assert code == 2 and out == "" and err.count("\n") == 1 and why in err, err
    code, _, err = cli("count", 1, "--method", "quarters")
    assert code == 2 and "N=1 is outside 2..25" in err
    with pytest.raises(InvalidInputError, match="method takes one of auto, walk, quarters"):
        nq.count(8, method="join")
    # With nothing asked, placements are counted by the walk, which says so.
    code, out, err = cli("count", 16, "--place", "0:1")
    assert code == 0 and "the count walks the board (joining quarters counts plain N only)" in err


def stats_said(err: str) -> dict[str, str]:
    """The name=value pairs of `count --stats`'s line on stderr."""
    return dict(pair.split("=", 1) for pair in err.split("stats: ", 1)[1].split())


def test_the_count_says_how_it_counted(cli) -> None:
    code, out, err = cli("count", 16, "--stats")  # (by default from join.FROM_N)
    assert code == 0 and out == f"{TOTAL[16]}\n"
    stats = stats_said(err)
    assert stats["method"] == "quarters" and int(stats["fundamental"]) == FUNDAMENTAL[16]
    assert int(stats["row_sets"]) > 0 and int(stats["halves"]) > 0 and int(stats["table_bytes"]) > 0
    assert int(stats["halves_cap"]) == join.CAP  # the CPU's lists, what --memory bounds
    code, out, err = cli("count", 14, "--stats", "--method", "quarters")
    assert code == 0 and out == f"{TOTAL[14]}\n" and "method=quarters" in err
    code, out, err = cli("count", 16, "--stats", "--method", "walk")
    assert code == 0 and out == f"{TOTAL[16]}\n" and "sub_boards=" in err and "method=" not in err
    code, out, err = cli("count", 15, "--stats")  # below join.FROM_N the walk counts
    assert code == 0 and out == f"{TOTAL[15]}\n" and "sub_boards=" in err


@needs_c
def test_a_small_odd_count_is_cut_so_that_its_filtered_tables_are_a_small_share(cli) -> None:
    """An odd N's part makes four filtered copies of the quarters' table, however few
    halves it lists (join.c's table_filtered): count 17 cut into 270 parts made 1.3
    times as many placements as it listed halves (28 % of its processor time)."""
    code, out, err = cli("count", 17, "--stats")
    assert code == 0 and out == f"{TOTAL[17]}\n"
    stats = stats_said(err)
    made = 4 * join.TABLES[17 // 2][0] * int(stats["parts"])
    assert made <= int(stats["halves"]) / 2, stats
    assert join.part_count(21) == join.part_count(20) == join.PARTS  # (above, a part's own work dwarfs them)


def test_the_parts_go_out_longest_first_and_a_resumed_count_checks_cheap_records(tmp_path: Path,
                                                                                monkeypatch) -> None:
    """Issue 65: the parts of a count by quarters are started in the order of
    their estimated cost, the largest first (the tail is short: both cores
    busy to the end), the progress told the share of the estimated work
    done; a resumed count counts again RECOUNTED records drawn among the
    cheaper half of those restored (a check, not a second count of the
    largest parts)."""
    from nqueens_cp.execution import tasks as tasks_room

    monkeypatch.setattr(join, "SMALL_ODD_PARTS", join.PARTS)  # (cut as a large count is: 275 parts, not 68)
    n, parts = 15, join.parts(15)  # (in this process: a count of 15 on one job runs here)
    cost = join.part_costs(n, parts)
    assert len(set(cost)) > len(parts) // 2 and max(cost) > 10 * min(c for c in cost if c > 0)
    counted: list[join.Part] = []
    real = join.count_part
    monkeypatch.setattr(join, "count_part", lambda n, part, cap=join.CAP: counted.append(part) or real(n, part, cap))
    shares: list[float] = []
    path = tmp_path / "q15.jsonl"

    def stop(finished: int, total: int, share: float) -> None:
        shares.append(share)
        if finished == 150:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        nq.count(n, jobs=1, checkpoint=str(path), progress=stop, method="quarters")
    order = [cost[parts.index(part)] for part in counted]
    assert len(order) >= 150 and order == sorted(order, reverse=True)  # (and the few in flight at the stop)
    assert shares[0] == 0 and shares == sorted(shares) and 0.5 < shares[-1] < 1
    counted.clear()
    assert nq.count(n, jobs=1, checkpoint=str(path), method="quarters") == TOTAL[n]
    recorded = [json.loads(line)["task"] for line in path.read_text().splitlines()[1:]]
    first_leg = set(recorded[:150])
    again = [part for part in counted if parts.index(part) in first_leg]
    assert len(again) == tasks_room.RECOUNTED
    cheaper_half = sorted(sorted(first_leg), key=lambda i: cost[i])[:75]
    assert all(parts.index(part) in cheaper_half for part in again)
    fresh = [cost[parts.index(part)] for part in counted if parts.index(part) not in first_leg]
    # (those in flight at the stop, a few, finish in an order of their own: which of them were recorded varies)
    assert len(fresh) == len(parts) - 150 and max(fresh) <= order[150 - 16]


def test_a_checkpoint_of_a_count_by_quarters_resumes_and_knows_its_method(tmp_path: Path, cli) -> None:
    path = tmp_path / "q14.jsonl"
    done: list[int] = []

    def crash(finished: int, total: int) -> None:
        done.append(finished)
        if finished == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        nq.count(14, jobs=1, checkpoint=str(path), progress=crash, method="quarters")
    header = json.loads(path.read_text().splitlines()[0])
    assert header["method"] == join.METHOD and header["tasks"] == len(join.parts(14))
    kept = len(path.read_text().splitlines()) - 1
    assert kept >= 5
    seen: list[int] = []
    assert nq.count(14, jobs=2, checkpoint=str(path), progress=lambda finished, total: seen.append(finished),
                    method="quarters") == TOTAL[14]
    assert seen[:2] == [kept, kept + 1]  # the parts recorded, said first, were not counted again
    tasks = [json.loads(line)["task"] for line in path.read_text().splitlines()[1:]]
    assert sorted(tasks) == list(range(header["tasks"]))
    code, out, err = cli("count", 14, "--method", "walk", "--checkpoint", path)  # another method's record
    assert code == 1 and out == "" and err.count("\n") == 1 and "method" in err and "resuming" not in err


def test_a_checkpoint_of_another_method_is_refused_and_the_note_before_it_claims_nothing_of_it(tmp_path: Path,
                                                                                              cli) -> None:
    """Count 23's note comes before the file is read: it said "what FILE records is not counted again" and
    the next line refused FILE (a record of quarter-join-2, the middle queens' other image)."""
    path = tmp_path / "c23.jsonl"
    path.write_text(json.dumps({"nqueens_cp_checkpoint": 2, "n": 23, "method": "quarter-join-2",
                                "tasks": len(join.parts(23))}) + "\n")
    code, out, err = cli("count", 23, "--unique", "--checkpoint", path)
    note, refusal = err.splitlines()
    assert code == 1 and out == "" and note.endswith("to count them all from nothing"), err
    assert refusal == f"nqueens-cp count: checkpoint {path} is for method=quarter-join-2, not method={join.METHOD}: " \
        "refused (use another file)"


def test_a_resumed_count_says_what_its_checkpoint_held_before_the_work(tmp_path: Path, cli) -> None:
    """On a pipe too (the terminal's progress line is not there): a count that resumes says how much
    of it the file held, by the parts' number and by their estimated work, once, before the rest."""
    path = tmp_path / "q14.jsonl"

    def crash(finished: int, total: int) -> None:
        if finished == 7:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        nq.count(14, jobs=1, checkpoint=str(path), progress=crash, method="quarters")
    tasks, kept = len(join.parts(14)), len(path.read_text().splitlines()) - 1
    costs = join.part_costs(14, join.parts(14))
    share = sum(costs[json.loads(line)["task"]] for line in path.read_text().splitlines()[1:]) / sum(costs)
    code, out, err = cli("count", 14, "--method", "quarters", "--checkpoint", path)
    assert code == 0 and out == f"{TOTAL[14]}\n"
    said = re.fullmatch(rf"nqueens-cp: note: resuming from {re.escape(str(path))}: {kept} of the count's {tasks} "
                        rf"sub-problems are recorded there, about (\d+)% of the work by their estimated costs; "
                        rf"counting the other {tasks - kept}\n", err)
    assert said and abs(int(said[1]) - 100 * share) <= 1, err
    assert cli("count", 14, "--method", "quarters", "--checkpoint", tmp_path / "new.jsonl") == (0, f"{TOTAL[14]}\n", "")


def test_a_total_that_does_not_fit_the_symmetric_boards_is_a_counting_error(monkeypatch) -> None:
    """The check can fail: one board too many in a part."""
    real = join.count_part

    def off_by_one(n: int, part: join.Part, cap: int = join.CAP) -> join.Values:
        values = real(n, part, cap)
        return (values[0] + (part.first == 0 and part.x == -1), *values[1:])  # type: ignore[return-value]

    monkeypatch.setattr(join, "count_part", off_by_one)
    with pytest.raises(NQueensError, match="does not fit the symmetric boards"):
        nq.count(12, method="quarters", jobs=1)


def test_a_parts_numbers_belong_to_the_method_its_checkpoints_name() -> None:
    """A checkpoint keeps each part's boards and trusts them on a resume only
    under the same join.METHOD: a change that moves boards from one part to
    another (the longest diagonals did: only the sum is the same) must name a
    new method, or a count resumed across it adds numbers of two kinds."""
    parts = {  # N = 14 cut in 6, N = 15 in 30 (45 parts: its classes' rows cut in two)
        "quarter-join-3": {14: [115470, 184978, 65148, 0, 0, 0],
                           15: [169088, 23144, 177008, 19432, 106776, 20264, 129120, 20832, 90272, 17616, 85224,
                                16176, 105136, 12512, 107632, 17600, 84576, 11944, 88768, 14312, 81968, 17056, 63536,
                                10792, 66944, 8968, 77688, 13280, 76760, 16760, 76008, 13232, 76368, 14152, 57960,
                                12368, 60776, 11512, 48072, 9608, 31816, 5952, 100286, 9890, 0]}}
    # (quarter-join-2 had the same 14, and at 15 157440, 34792, 159008, ...: its middle queens' other image)
    assert join.METHOD in parts, "a new method: record its parts' boards here"
    for n, cut in ((14, 6), (15, 30)):
        assert [join.count_part(n, p)[0] for p in join.parts(n, cut)] == parts[join.METHOD][n]
        assert sum(parts[join.METHOD][n]) == TOTAL[n]


def test_a_time_of_one_unit_is_said_in_the_singular() -> None:
    """The note before count 22 said "about 1 hours" once the join got faster."""
    import math

    from nqueens_cp.estimates import duration

    assert [duration(math.log10(seconds)) for seconds in (1, 30, 3600, 86400, 365.25 * 86400)] == [
        "about 1 second", "about 30 seconds", "about 1 hour", "about 1 day", "about 1 year"]


def test_a_time_is_said_in_the_unit_a_person_reads_it_in() -> None:
    """Issue 79: the note before count 22 had hours or seconds only ("about 1 hour" for 26 minutes)."""
    import math

    from nqueens_cp.estimates import duration

    assert [duration(math.log10(seconds)) for seconds in (89, 140, 1547.3, 5400, 13_900, 1.2 * 86400, 400 * 86400,
                                                          1e20)] == [
        "about 89 seconds", "about 2 minutes", "about 26 minutes", "about 1.5 hours", "about 3.9 hours",
        "about 1.2 days", "about 1.1 years", "about 3.2e+12 years"]


def test_the_note_before_a_long_count_estimates_the_join_it_runs(monkeypatch) -> None:
    """Issue 79: count 22 said "bitmask would need about 1 hour" and finished in 26 minutes: the note
    took a rate from before the dense buckets, said hours only, and was kept for an hour or more.  Now
    it names the count by quarters, says the measured day's 26 minutes on two cores, points to
    --checkpoint where none is given, and comes before any count of over a minute."""
    from nqueens_cp.execution import advice

    monkeypatch.setattr(advice, "default_jobs", lambda: 2)
    monkeypatch.setattr(kernel, "join_loops", lambda: "avx512")  # (the loops the times were measured with)
    [note] = advice.advice(22, "bitmask", counting=True, jobs=2, quarters=True)
    assert "count by joining quarters would need about 26 minutes" in note and "--checkpoint FILE" in note
    [note] = advice.advice(22, "bitmask", counting=True, jobs=2, quarters=True, checkpointed=True)
    assert "--checkpoint" not in note
    assert advice.advice(20, "bitmask", counting=True, jobs=2, quarters=True) == []  # (28 s measured)
    [note] = advice.advice(21, "bitmask", counting=True, jobs=2, quarters=True)
    assert "about 3 minutes" in note and "--checkpoint" not in note  # (198.8 s measured)
    # Issue 80: count 23 said "about 8.2 hours" (21's boards a second), then 2.4 (a sample of its parts),
    # then 2.8 (the legs of its count by quarter-join-2); the two legs of quarter-join-3's say 2.1
    [note] = advice.advice(23, "bitmask", counting=True, jobs=2, quarters=True)
    assert "would need about 2.1 hours to count them;" in note
    # resumed, the same time is the whole count's, and says so (it said "would need about 2.8 hours" on a
    # checkpoint that held every part; the resume's own note then says how much is recorded).  It claims
    # nothing of the file, which is read after it: "what FILE records is not counted again" came before
    # the refusal of a file of another method
    [note] = advice.advice(23, "bitmask", counting=True, jobs=2, quarters=True, checkpointed=True, resuming="c.jsonl")
    assert note.endswith("would need about 2.1 hours to count them all from nothing"), note
    # one core: twice the time; N past the table: the growth of its parity, an odd N's slower than the boards'
    [note] = advice.advice(23, "bitmask", counting=True, jobs=1, quarters=True)
    assert "would need about 4.2 hours" in note
    from nqueens_cp.counting import join

    assert join.count_seconds(25) / join.count_seconds(23) == pytest.approx(7_593 / 198.8)
    [note] = advice.advice(16, "cpsat", counting=True, jobs=2)  # (a count no checkpoint keeps: not pointed to one)
    assert "cpsat would need about" in note and "--checkpoint" not in note
    # A CPU without AVX-512 joins with other loops, and the note says their time: on a Zen 3 with AVX2's,
    # count 23 "about 2.1 hours" would have been 5.2 (2.5 times, two whole parts of 23 said), 4.6 once its
    # dense words were made half a batch at a time (2.2 times), 3.8 once its dense loops counted carry-save
    # and its bucketing placed keys by rank (1.82 times)
    monkeypatch.setattr(kernel, "join_loops", lambda: "avx2")
    [note] = advice.advice(23, "bitmask", counting=True, jobs=2, quarters=True)
    assert "would need about 3.8 hours to count them;" in note, note
    monkeypatch.setattr(kernel, "join_loops", lambda: "portable")
    [note] = advice.advice(23, "bitmask", counting=True, jobs=2, quarters=True)
    assert "would need about 18 hours to count them;" in note, note


def test_the_join_names_the_loops_this_cpu_takes() -> None:
    """kernel.join_loops says which loops dense.c joins with here, as the
    note before a count reads it: AVX-512's where the CPU has AVX-512 with
    its popcount (avx512f, avx512vl, avx512vpopcntdq), else AVX2's where it
    has AVX2 and BMI2, else the compiler's; the twin's join is 'portable'."""
    assert kernel.join_loops(compiled=False) == "portable"
    if not kernel.compiled():
        pytest.skip("no compiled kernel here: the twin joins")
    flags = cpu_flags()
    if flags is None:
        pytest.skip("Linux's /proc/cpuinfo cannot be read here, to say what the CPU has")
    if platform.machine() not in ("x86_64", "AMD64"):
        expected = "portable"
    elif {"avx512f", "avx512vl", "avx512_vpopcntdq"} <= flags:
        expected = "avx512"
    else:
        expected = "avx2" if {"avx2", "bmi2"} <= flags else "portable"
    assert kernel.join_loops() == expected


@needs_c
def test_the_compiled_telling_bits_are_the_twins_over_every_bit_of_the_widest_window() -> None:
    """join.c counts its sample's bits seven a key at a time, in byte-wide
    counters emptied every 255 keys (bits_counted): over windows as wide as
    N = 25's (46 bits), each bit taken with its own odds, lists shorter and
    longer than the sample's 512 keys and the counters' 255, with and
    without forced bits, it chooses the twin's bits in the twin's order.
    (The joins above reach windows of 22 bits only.)"""
    rng = random.Random(65)
    for width in (6, 22, 38, 46):
        for long_p, long_q in ((1, 3), (200, 700), (255, 256), (300, 5_000), (1_000, 1_000)):
            odds = [rng.random() for _ in range(width)]
            p, q = ([sum(1 << b for b in range(width) if rng.random() < odds[b] * rng.random()) for _ in range(size)]
                    for size in (long_p, long_q))
            if long_p == 255:  # a bit in every key: its counter fills to the brim before each emptying
                p, q = [x | 1 << (width // 2) for x in p], [x | 1 << (width // 2) for x in q]
            for forced in ([], [width - 1, 0]):
                k = min(8, width - len(forced))
                compiled = kernel.join_telling_bits(p, q, width, forced, k)
                assert compiled == kernel.join_telling_bits(p, q, width, forced, k, compiled=False), (width, long_p, long_q)
                assert compiled[:len(forced)] == forced and len(compiled) == len(set(compiled))
    with pytest.raises(ValueError, match="bad arguments"):
        kernel.join_telling_bits([1], [1], 47, [], 1)  # wider than any window
    with pytest.raises(ValueError, match="bad arguments"):
        kernel.join_telling_bits([1], [1], 8, [8], 1)  # a forced bit outside the window
