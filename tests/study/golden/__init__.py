"""A small study pinned against the pre-refactor code (see ``test_golden_study.py``)."""
