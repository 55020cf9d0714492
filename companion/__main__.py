import sys

from companion.app.cli import main

sys.exit(main())
