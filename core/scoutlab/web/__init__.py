"""The browser game: `scoutlab serve` (a FastAPI app, server-rendered pages, a little vanilla JS)."""
