"""Board rules: what makes a core's board a valid set of programs (R-BOARD-1..3, R-CORE-2).

This module owns the graph checks of one explicit board: unique slot ids and
positions, edges between existing grid neighbours, at most two outgoing
edges a slot (a splitter point), entries naming slots, every slot reachable
from exactly one entry, no merging routes, no cycles, and adjacency bonuses
pointing at a slot. The checks return issues located relative to the board;
the loader turns them into `Problem`s with the core's JSON path.

A valid board is a forest: one tree of slots per entry, so the compiler can
walk each entry's program (and its splitter branches) without revisiting a
slot.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from artificer.content.cores import BoardLayout, EntryPoint
from artificer.content.models import did_you_mean

Location = tuple[str | int, ...]
BoardIssue = tuple[Location, str]

# A slot with this many outgoing edges is a splitter point (R-BOARD-3); more is an error.
MAX_OUTGOING_EDGES = 2


def board_issues(layout: BoardLayout) -> list[BoardIssue]:
    """Every rule the board breaks, as (location relative to the board, reason)."""
    issues: list[BoardIssue] = []
    index_of = _slot_indices(layout, issues)
    _check_positions(layout, issues)
    graph = _edge_graph(layout, index_of, issues)
    for slot_id, targets in graph.items():
        if len(targets) > MAX_OUTGOING_EDGES:
            reason = (
                f'"{slot_id}" has {len(targets)} outgoing edges; at most {MAX_OUTGOING_EDGES} '
                "(a splitter point: upper route first, lower second)"
            )
            issues.append((("slots", index_of[slot_id]), reason))
    for index, slot in enumerate(layout.slots):
        if slot.bonus is not None and layout.bonus_target(slot) is None:
            dx, dy = slot.bonus.dir.step
            reason = f"points {slot.bonus.dir} at ({slot.x + dx}, {slot.y + dy}), where there is no slot"
            issues.append((("slots", index, "bonus", "dir"), reason))
    walk = _Walk(graph, issues)
    for entry, start in _valid_entries(layout, index_of, issues):
        walk.from_entry(entry, start)
    _report_unreachable(layout, index_of, graph, walk, issues)
    return issues


def _report_unreachable(
    layout: BoardLayout,
    index_of: dict[str, int],
    graph: dict[str, list[tuple[str, int]]],
    walk: _Walk,
    issues: list[BoardIssue],
) -> None:
    """One issue per detached stretch of slots, at its head (a slot no edge leads to), not one per slot."""
    targets = {target for outgoing in graph.values() for target, _ in outgoing}
    unreachable = [slot.id for index, slot in enumerate(layout.slots) if index_of.get(slot.id) == index]
    unreachable = [slot_id for slot_id in unreachable if slot_id not in walk.owner]
    heads_first = [slot_id for slot_id in unreachable if slot_id not in targets]
    heads_first += [slot_id for slot_id in unreachable if slot_id in targets]
    for slot_id in heads_first:
        if slot_id in walk.owner:  # found from an earlier head
            continue
        at = len(issues)
        found_before = len(walk.owner)
        walk.detached(slot_id)
        after = len(walk.owner) - found_before - 1
        more = f" (nor are the {after} slot{'s' if after != 1 else ''} after it)" if after else ""
        issues.insert(at, (("slots", index_of[slot_id]), f'"{slot_id}" is not reachable from any entry{more}'))


def _slot_indices(layout: BoardLayout, issues: list[BoardIssue]) -> dict[str, int]:
    index_of: dict[str, int] = {}
    for index, slot in enumerate(layout.slots):
        if slot.id in index_of:
            reason = f'duplicate slot id "{slot.id}" (first used at slots[{index_of[slot.id]}])'
            issues.append((("slots", index, "id"), reason))
        else:
            index_of[slot.id] = index
    return index_of


def _check_positions(layout: BoardLayout, issues: list[BoardIssue]) -> None:
    taken: dict[tuple[int, int], str] = {}
    for index, slot in enumerate(layout.slots):
        if slot.position in taken:
            reason = f'position ({slot.x}, {slot.y}) is already taken by slot "{taken[slot.position]}"'
            issues.append((("slots", index), reason))
        else:
            taken[slot.position] = slot.id


def _edge_graph(
    layout: BoardLayout, index_of: dict[str, int], issues: list[BoardIssue]
) -> dict[str, list[tuple[str, int]]]:
    """Outgoing (target, edge index) lists of the well-formed edges, in listed order."""
    graph: dict[str, list[tuple[str, int]]] = {slot_id: [] for slot_id in index_of}
    first_listed: dict[tuple[str, str], int] = {}
    known = list(index_of)
    for number, (source, target) in enumerate(layout.edges):
        unknown = [(end, name) for end, name in enumerate((source, target)) if name not in index_of]
        for end, name in unknown:
            issues.append((("edges", number, end), f'unknown slot "{name}"{did_you_mean(name, known)}'))
        if unknown:
            continue
        here, there = layout.slots[index_of[source]], layout.slots[index_of[target]]
        if abs(here.x - there.x) + abs(here.y - there.y) != 1:
            reason = (
                f'joins "{source}" at ({here.x}, {here.y}) and "{target}" at ({there.x}, {there.y}), '
                "which are not grid neighbours"
            )
            issues.append((("edges", number), reason))
        elif (source, target) in first_listed:
            issues.append((("edges", number), f"repeats edges[{first_listed[source, target]}]"))
        else:
            first_listed[source, target] = number
            graph[source].append((target, number))
    return graph


def _valid_entries(
    layout: BoardLayout, index_of: dict[str, int], issues: list[BoardIssue]
) -> Iterator[tuple[EntryPoint, str]]:
    claimed: dict[str, EntryPoint] = {}
    for entry, slot_id in layout.entries.items():
        location: Location = ("entries", entry.value)
        if slot_id not in index_of:
            issues.append((location, f'unknown slot "{slot_id}"{did_you_mean(slot_id, list(index_of))}'))
        elif slot_id in claimed:
            issues.append((location, f'"{slot_id}" is already the {claimed[slot_id]} entry'))
        else:
            claimed[slot_id] = entry
            yield entry, slot_id


@dataclass
class _Walk:
    """Depth-first walks from each entry, classifying every edge they meet."""

    graph: dict[str, list[tuple[str, int]]]
    issues: list[BoardIssue]
    owner: dict[str, EntryPoint | None] = field(default_factory=dict)  # None: found only from a detached slot
    reached_by: dict[str, int] = field(default_factory=dict)  # the edge that first reached each slot

    def from_entry(self, entry: EntryPoint, start: str) -> None:
        if start in self.owner:  # another entry's program ran into this entry slot
            reason = f'leads into "{start}", the {entry} entry slot: each entry is its own program (R-CORE-2)'
            self.issues.append((("edges", self.reached_by[start]), reason))
            return
        self._walk(start, entry)

    def detached(self, start: str) -> None:
        """Walk from a slot no entry reaches, only to report the cycles it lies on."""
        if start not in self.owner:
            self._walk(start, None)

    def _walk(self, start: str, entry: EntryPoint | None) -> None:
        self.owner[start] = entry
        path = [start]
        pending = [iter(self.graph[start])]
        while pending:
            step = next(pending[-1], None)
            if step is None:
                pending.pop()
                path.pop()
                continue
            target, number = step
            if target in path:
                cycle = " → ".join([*path[path.index(target) :], target])
                self.issues.append((("edges", number), f"closes a cycle: {cycle}"))
            elif target in self.owner:
                if entry is not None:
                    self.issues.append((("edges", number), self._meeting_reason(entry, target)))
            else:
                self.owner[target] = entry
                self.reached_by[target] = number
                path.append(target)
                pending.append(iter(self.graph[target]))

    def _meeting_reason(self, entry: EntryPoint, target: str) -> str:
        other = self.owner[target]
        if other is not None and other != entry:
            return (
                f'joins the {entry} program to the {other} program at "{target}": '
                "each entry is its own program (R-CORE-2)"
            )
        return f'merges two routes at "{target}": routes never merge, a slot has one incoming edge (R-BOARD-3)'
