"""A background task that polls: the scheduler's and the notifications' delivery's shared loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod

LOG = logging.getLogger("parlour.server")


class Poller(ABC):
    """Calls ``tick`` every ``poll`` seconds in the running event loop until stopped; one tick's failure
    is logged (as ``what``'s) and the next one tries again."""

    poll: float
    what = "a poll"

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    @abstractmethod
    async def tick(self) -> int:
        """One poll (each subclass's own); returns how many things it did."""

    def start(self) -> None:
        """Starts polling in the background (in the running event loop)."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stops polling; a tick under way is cancelled (its claims lapse after their lease)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                LOG.exception("%s failed", self.what)
            await asyncio.sleep(self.poll)
