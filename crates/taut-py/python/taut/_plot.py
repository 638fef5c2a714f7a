"""Drawing grids and paths with matplotlib (the ``plot`` extra: ``pip install "taut[plot]"``).

``Grid.plot`` and ``PathResult.plot`` call these; matplotlib is imported only when one is
called, so taut itself does not need it.
"""

from typing import Any, Optional


def _axes(ax: Optional[Any]) -> Any:
    if ax is not None:
        return ax
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "drawing needs matplotlib: pip install matplotlib (or taut[plot])"
        ) from e
    _, ax = plt.subplots()
    return ax


def path(result: Any, ax: Optional[Any] = None, **style: Any) -> Any:
    """Draw a ``PathResult``'s waypoints as a line, with the start and goal marked.

    Map units: x east, y south (the y axis is inverted, as on the map). ``style`` goes to
    ``Axes.plot`` (default: a teal line 2 points wide). Returns the axes. An unreachable
    result draws nothing.
    """
    ax = _axes(ax)
    w = result.waypoints
    if len(w) == 0:
        return ax
    kw = {"color": "#009e9a", "linewidth": 2}
    kw.update(style)
    ax.plot(w[:, 0], w[:, 1], **kw)
    ax.plot([w[0, 0]], [w[0, 1]], "o", color="#2e9e3e")
    ax.plot([w[-1, 0]], [w[-1, 1]], "o", color="#d73027")
    if not ax.yaxis_inverted():
        ax.invert_yaxis()
    ax.set_aspect("equal")
    return ax


def grid(g: Any, ax: Optional[Any] = None, path_result: Optional[Any] = None) -> Any:
    """Draw a ``Grid``: free cells light, blocked cells dark, cell ``(x, y)`` the unit square
    from ``(x, y)`` to ``(x + 1, y + 1)``; and a path over it when one is given. Returns the
    axes."""
    ax = _axes(ax)
    cells = g.to_numpy()
    ax.imshow(
        ~cells,
        cmap="Greys",
        vmin=0,
        vmax=1.4,
        extent=(0, g.width, g.height, 0),
        interpolation="nearest",
    )
    ax.set_xlim(0, g.width)
    ax.set_ylim(g.height, 0)
    ax.set_aspect("equal")
    if path_result is not None:
        path(path_result, ax)
    return ax
