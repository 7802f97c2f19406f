"""Counting at scale: the symmetry classes (classes), the executors that
run tasks on a local pool or a Dask cluster (parallel), checkpoints, and
sampling estimates.  Below run.py, which decides; above kernel/, which searches."""
