"""The reading room's state, kept apart from the MCP wiring: which shelves a visitor may read."""

from pathlib import Path


class Keeper:
    def __init__(self) -> None:
        self.shelves: list[Path] | None = None  # filled in by the server on the first call

    def _on_shelf(self, target: Path) -> bool:
        return any(target.is_relative_to(shelf) for shelf in self.shelves or [])

    def fetch(self, path: str) -> str:
        target = Path(path).resolve()
        if not self._on_shelf(target):
            return "refused"
        return target.read_text()
