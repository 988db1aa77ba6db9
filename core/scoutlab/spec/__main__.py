"""`python -m scoutlab.spec FILE_OR_NAME...`: validate spec files, every problem reported at once."""

import sys

from scoutlab.spec.variant import main

sys.exit(main())
