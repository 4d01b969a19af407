"""python -m rooflab_record: see rooflab_record.command."""
import sys

from .command import main

sys.exit(main())
