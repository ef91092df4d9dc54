"""python3 -m cunumpy: prints show_config()."""

import cunumpy

cunumpy.show_config()
