// The huge tables of the bridge's walk (bridgeAtspiWalkScript.ts): a table that makes its cells on
// demand (Calc's 2^31 cells) is not walked child by child; the filled cells showing are read
// through its Table interface, from the one at its top left.
export const BRIDGE_ATSPI_CELLS_SCRIPT = String.raw`
def huge_managed(Atspi, states, count):
    # A node that makes its descendants on demand and has more than a list's worth (Calc's sheet
    # has 2^31 cells) is not walked child by child: each one asked for is built by the app.
    return count > MAX_CHILDREN and states.contains(Atspi.StateType.MANAGES_DESCENDANTS)

# Cells of a huge table read from the one showing at its top left, row by row: a row ends after
# CELL_GAP empty cells, the table after CELL_GAP empty rows, or at MAX_CELLS.
CELL_GAP = 3
MAX_CELLS = 300

def visible_cells(Atspi, node, bound, shift, text_of_cell):
    """(box, text) of the filled cells showing in a huge managed table, in the app's own
    coordinates moved by shift (see vcl_shift)."""
    SCREEN = Atspi.CoordType.SCREEN
    if bound is None or 'Table' not in node.get_interfaces():
        return []
    first = Atspi.Component.get_accessible_at_point(node, bound[0] - shift[0] + 2, bound[1] - shift[1] + 2, SCREEN)
    if first is None:
        return []
    index = first.get_index_in_parent()
    row0, col0 = Atspi.Table.get_row_at_index(node, index), Atspi.Table.get_column_at_index(node, index)
    out, asked, empty_rows, row = [], 0, 0, row0
    while empty_rows < CELL_GAP and asked < MAX_CELLS:
        filled, gap, col = False, 0, col0
        while gap < CELL_GAP and asked < MAX_CELLS:
            cell = Atspi.Table.get_accessible_at(node, row, col)
            asked += 1
            col += 1
            e = cell.get_extents(SCREEN) if cell is not None else None
            if e is None or e.width <= 0 or e.height <= 0:
                break
            box = (e.x + shift[0], e.y + shift[1], e.width, e.height)
            if box[0] >= bound[0] + bound[2] or box[1] >= bound[1] + bound[3]:
                break  # past the right or bottom edge of what shows
            text = text_of_cell(cell)
            if text:
                out.append((box, text))
                filled, gap = True, 0
            else:
                gap += 1
        if e is not None and e.height > 0 and e.y + shift[1] >= bound[1] + bound[3]:
            break
        empty_rows = 0 if filled else empty_rows + 1
        row += 1
    return out
`;
