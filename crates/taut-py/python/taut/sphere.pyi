from ._taut import Raster as Raster, SeaRoute as SeaRoute

__all__ = ["Raster", "SeaRoute"]
