"""A case and its subtree as plain text or as the JSON of ``referee rules show``.

The JSON shape is a public contract (docs/cli.md).
"""

from __future__ import annotations

from collections.abc import Callable

from validator.cases import CaseNumber
from validator.rulebook.model import ITEM, TABLE, Block, Rulebook


def case_json(book: Rulebook, number: CaseNumber, index_title: Callable[[CaseNumber], str]) -> dict:
    """A case as JSON; its title is the one ``rules list`` gives, the plugin's where the book prints none."""
    case = book.cases[number]
    return {
        "case": str(case.number),
        "label": case.label,
        "title": case.title or index_title(number),
        "kind": case.kind,
        "parent": str(case.parent) if case.parent else None,
        "breadcrumb": [str(ancestor.number) for ancestor in book.breadcrumb(number)],
        "notes": case.notes,
        "blocks": [_block_json(book, block, index_title) for block in case.blocks],
        "children": [
            case_json(book, child.number, index_title) for child in book.children(number) if child.kind != "item"
        ],
        "cited_by": [str(citing.number) for citing in book.cited_by(number)],
    }


def _block_json(book: Rulebook, block: Block, index_title: Callable[[CaseNumber], str]) -> dict:
    data: dict = {"kind": block.kind, "text": block.text}
    if block.references:
        data["references"] = [
            {
                "start": reference.start,
                "end": reference.end,
                "to": str(reference.target),
                "resolved": reference.resolved,
            }
            for reference in block.references
        ]
    if block.kind == ITEM and block.item is not None:
        data["item"] = case_json(book, block.item, index_title)
    if block.kind == TABLE:
        data["table"] = [
            {
                "title": part.title,
                "groups": list(part.groups),
                "header": list(part.header),
                "rows": [list(row) for row in part.rows],
            }
            for part in block.table
        ]
    return data


def case_text(book: Rulebook, number: CaseNumber, index_title: Callable[[CaseNumber], str], indent: str = "") -> str:
    """A case and everything below it as plain text; references read [7.52], unresolved ones [7.24?]."""
    case = book.cases[number]
    title = case.title or index_title(number)
    lines = [f"{indent}{case.number}  {title}".rstrip()]
    for note in case.notes:
        lines.append(f"{indent}  NOTE: {note}")
    for block in case.blocks:
        if block.kind == ITEM and block.item is not None:
            lines.append(case_text(book, block.item, index_title, indent + "  "))
        elif block.kind == TABLE:
            lines.extend(_table_text(block, indent + "  "))
        else:
            marker = "- " if block.kind == "bullet" else ""
            lines.append(f"{indent}  {'  ' * block.depth}{marker}{_marked_text(block)}")
    for child in book.children(number):
        if child.kind != "item":
            lines.append(case_text(book, child.number, index_title, indent + "  "))
    return "\n".join(lines)


def _marked_text(block: Block) -> str:
    return "".join(
        text if reference is None else f"[{text}{'' if reference.resolved else '?'}]"
        for text, reference in block.segments()
    )


def _table_text(block: Block, indent: str) -> list[str]:
    lines = [f"{indent}{block.text}"] if block.text else []
    for part in block.table:
        if part.title:
            lines.append(f"{indent}{part.title}")
        for row in ([part.groups] if part.groups else []) + ([part.header] if part.header else []) + list(part.rows):
            lines.append(indent + " | ".join(row))
    return lines
