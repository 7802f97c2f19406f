"""The execution layer: every question goes through it.

:mod:`.plan` decides how a question is searched (split or whole, mirrored,
by symmetry classes, where) and writes it down as a frozen plan;
:mod:`.execute` carries a plan out, on this process, a local pool
(:mod:`.parallel`) or a Dask cluster, with checkpoints (:mod:`.checkpoint`);
:mod:`.run` is the public API that asks one and hands it to the other.
"""
