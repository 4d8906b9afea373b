"""``python -m hybridjudge``: the same as the ``hybridjudge`` command."""

import sys

from hybridjudge.cli import main

sys.exit(main())
