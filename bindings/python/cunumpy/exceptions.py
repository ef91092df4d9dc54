"""cunumpy.exceptions: the exception classes NumPy keeps in numpy.exceptions.

AxisError is the class the engine's CN_ERR_AXIS raises (numpy.exceptions'
own AxisError, so ``except numpy.exceptions.AxisError`` catches cunumpy's
axis errors too); the warnings are NumPy's."""

from numpy.exceptions import (ComplexWarning, DTypePromotionError,  # noqa: F401
                              RankWarning, TooHardError, VisibleDeprecationWarning)

from ._cnlib import AxisError  # noqa: F401

__all__ = ["AxisError", "ComplexWarning", "DTypePromotionError",
           "RankWarning", "TooHardError", "VisibleDeprecationWarning"]
