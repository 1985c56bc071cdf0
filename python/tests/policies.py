"""Policies in Python for the tests and the example: exact LRU and FIFO
as a cache keeps them, and two broken ones."""
import collections

import pagelab


class LRU(pagelab.Policy):
    """Least recently used on a plain dict, which keeps insertion order:
    a hit deletes and re-inserts, the victim is the first key (the
    example's LRU is an OrderedDict: two ways, the same misses)."""
    name = "pylru"
    summary = "exact LRU in Python"

    def init(self, frames):
        self.order = {}

    def insert(self, frame):
        self.order[frame] = True

    def access(self, frame, write):
        del self.order[frame]
        self.order[frame] = True

    def evict(self):
        victim = next(iter(self.order))
        del self.order[victim]
        return victim

    def remove(self, frame):
        self.order.pop(frame, None)


class FIFO(LRU):
    """First in, first out: LRU's order without access() (a class without
    it is not told of hits)."""
    name = "pyfifo"
    access = None


class Raises(LRU):
    """evict() raises on its 3rd call."""
    name = "pyraises"

    def init(self, frames):
        super().init(frames)
        self.calls = 0

    def evict(self):
        self.calls += 1
        if self.calls == 3:
            raise KeyError("no victim")
        return super().evict()


class Stranger(LRU):
    """evict() names a frame it does not hold."""
    name = "pystranger"

    def evict(self):
        return -1


class Interrupted(LRU):
    """access() sees Ctrl-C on its 100th call."""
    name = "pyinterrupted"

    def init(self, frames):
        super().init(frames)
        self.calls = 0

    def access(self, frame, write):
        self.calls += 1
        if self.calls == 100:
            raise KeyboardInterrupt
        super().access(frame, write)
