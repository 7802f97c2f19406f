"""The model, as data: boards and their symmetries, pre-placed queens and
blocked squares, the CNF encodings and DIMACS files, the CP-SAT model, the
prob079 instances and proofs.  Pure functions of their inputs: nothing here
runs a search (engines/ does)."""
