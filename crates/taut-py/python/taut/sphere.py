"""Shortest sea routes on the sphere (Spherical Anya) over a sea/land raster.

>>> from taut.sphere import Raster                                       # doctest: +SKIP
>>> earth = Raster.from_map("earth_0.25deg_nav.map")                    # doctest: +SKIP
>>> r = earth.route((18.9, 72.8), (51.9, 4.4), avoid=["suez"])          # doctest: +SKIP
>>> round(r.km), r.passages                                             # doctest: +SKIP
(19774, ['dover'])
"""

from ._taut import Raster, SeaRoute, port

__all__ = ["Raster", "SeaRoute", "port"]
