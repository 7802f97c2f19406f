"""The CP-SAT N-queens model everyone copies from the OR-Tools samples.

One integer variable per row, the three AllDifferent constraints, default
search, enumerate_all_solutions, one worker, and a callback that records
each solution.  Prints every solution as a line of columns, like
`nqueens-cp enumerate N --format line`.
"""

import sys

from ortools.sat.python import cp_model


class Recorder(cp_model.CpSolverSolutionCallback):
    def __init__(self, queens):
        super().__init__()
        self.queens = queens
        self.solutions = []

    def on_solution_callback(self):
        self.solutions.append([self.value(q) for q in self.queens])


def main(n: int) -> None:
    model = cp_model.CpModel()
    queens = [model.new_int_var(0, n - 1, f"x_{i}") for i in range(n)]
    model.add_all_different(queens)
    model.add_all_different(queens[i] + i for i in range(n))
    model.add_all_different(queens[i] - i for i in range(n))
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    recorder = Recorder(queens)
    solver.solve(model, recorder)
    sys.stdout.write("".join(" ".join(map(str, s)) + "\n" for s in recorder.solutions))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 12)
