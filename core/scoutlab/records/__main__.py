"""`python -m scoutlab.records regenerate-playthroughs [DIR]`: rewrite the playthrough files on purpose."""

import sys

from scoutlab.records.game import main

sys.exit(main())
