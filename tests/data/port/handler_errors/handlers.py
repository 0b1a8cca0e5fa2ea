"""The notebook's operations, one class each (the shape of a server whose tools delegate to
handler objects of another module: what they raise is not visible from the tools' module)."""

from pathlib import Path


class ReadNote:
    def run(self, path: str) -> str:
        try:
            if not Path(path).is_absolute():
                raise RuntimeError(f"Note path must be absolute: {path}")
            return Path(path).read_text()
        except OSError as exc:
            raise RuntimeError(f"Cannot read note: {exc.strerror}") from exc


class AddNote:
    async def run(self, path: str, text: str) -> str:
        if Path(path).exists():
            raise ValueError(f"Note already exists: {path}")
        Path(path).write_text(text)
        return f"added {Path(path).name}"
