from ._taut import Raster as Raster, SeaRoute as SeaRoute
