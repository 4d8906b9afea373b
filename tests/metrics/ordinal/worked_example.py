"""The worked example of docs/metrics.md (synthetic, 100 cases), as a confusion matrix.

docs/metrics.md gives the summary figures, not the matrix. This matrix was constructed by hand to be
consistent with ALL of them (rows = reference level 1..5, columns = predicted level 1..5)::

    ref\\pred   1   2   3   4   5    n
        1      2   2   1   0   0    5
        2      1   6   3   0   0   10
        3      0   1  68   1   0   70
        4      0   0   2   4   4   10
        5      0   0   1   2   2    5

Derivation (hand computation):
- class sizes 5, 10, 70, 10, 5 and diagonal 2, 6, 68, 4, 2 are given, so rows 1..5 hold
  3, 4, 2, 6, 3 errors (18 in all; accuracy 82/100).
- level-1 errors can only be under-triage (3). Levels 1-2 under-triage 6/15 forces 3 of level
  2's 4 errors to be under-triage and 1 over-triage (cell 2->1).
- level-5 errors can only be over-triage (3). Over-triage 7 leaves 7 - 1 - 3 = 3 for rows 3-4;
  under-triage 11 leaves 11 - 3 - 3 = 5 for rows 3-4. Row 3 has 2 errors, row 4 has 6:
  row 3 = 1 under (3->4) + 1 over (3->2); row 4 = 4 under (4->5) + 2 over (4->3).
- MAE 20/100 with 18 errors and exactly 2 errors two or more levels away means those 2 are at
  distance exactly 2 and the other 16 at distance 1 (16 + 2*2 = 20). They are put at 1->3 (a far
  under-triage) and 5->3 (a far over-triage); every other error is adjacent.
Hence: under-triage 11/100 (cells 1->2: 2, 1->3: 1, 2->3: 3, 3->4: 1, 4->5: 4), over-triage
7/100 (2->1: 1, 3->2: 1, 4->3: 2, 5->4: 2, 5->3: 1), far under-triage 1/100, recalls
2/5, 6/10, 68/70, 4/10, 2/5, balanced accuracy (0.4 + 0.6 + 68/70 + 0.4 + 0.4) / 5 = 0.55429.
The matrix is not unique (docs/metrics.md does not fix where the two far errors sit); any matrix with
these properties reproduces every figure docs/metrics.md states.
"""

from __future__ import annotations

WORKED_MATRIX = (
    (2, 2, 1, 0, 0),
    (1, 6, 3, 0, 0),
    (0, 1, 68, 1, 0),
    (0, 0, 2, 4, 4),
    (0, 0, 1, 2, 2),
)
LEVELS = (1, 2, 3, 4, 5)


def expand(matrix: tuple[tuple[int, ...], ...] = WORKED_MATRIX) -> tuple[list[int], list[int]]:
    """(y_true, y_pred) with one case per count of ``matrix`` (levels 1..K)."""
    y_true: list[int] = []
    y_pred: list[int] = []
    for i, row in enumerate(matrix):
        for j, count in enumerate(row):
            y_true += [i + 1] * count
            y_pred += [j + 1] * count
    return y_true, y_pred
