from ._taut import Raster as Raster, SeaRoute as SeaRoute, port as port

__all__ = ["Raster", "SeaRoute", "port"]
