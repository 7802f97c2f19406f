"""The count by symmetry classes: its sub-boards and tallies (classes), its
tasks on a GPU (gpu), and sampling estimates (sample).  Pure method: above
kernel/, which searches; below engines/, whose tasks these are, and
execution/, which runs them."""
