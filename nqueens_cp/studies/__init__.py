"""What users run the engines for: cross-checks, comparisons, completion
benchmarks, batches of instances, search traces, and their rendering
(reporting)."""
