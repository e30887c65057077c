// The text half of the bridge's walk (bridgeAtspiWalkScript.ts): what a long text element shows
// (an editor's or a document's text is read where it is drawn, not from its start), and where
// the toolkit draws a word of it. A word of a paragraph or an editor has no element of its own:
// its box comes from the Text interface (range extents), so the tree answers for it, as it does
// for a button, without reading pixels.
export const BRIDGE_ATSPI_TEXT_SCRIPT = String.raw`
import re

def refresh_texts(Atspi, walk, nodes):
    """Writes into a cached walk the text now held by those of its text elements that said
    their text changed (nodes: path -> node): a calculator's display or a field typed into need
    no walk of the whole window. False when one cannot be written in place (gone, or too long to
    read whole): the window is walked again."""
    for path, node in nodes.items():
        index = walk['paths'].get(path)
        if index is None:
            continue
        try:
            count = Atspi.Text.get_character_count(node)
            if count > MAX_TEXT:
                return False
            text = Atspi.Text.get_text(node, 0, count) if count > 0 else ''
        except Exception:
            return False
        item = walk['elements'][index]
        if text != item['name']:
            item['text'] = text
        else:
            item.pop('text', None)
        item.pop('textCut', None)
        for entry in walk.get('textNodes', []):
            if entry['node'].path == path:
                entry['text'], entry['base'] = text, 0
    return True

# Longest stretch of text read from what an element shows (a full screen of small text is less).
MAX_VISIBLE_TEXT = 20000
# Boxes asked of the toolkit per element for one query: more occurrences than that are ambiguous anyway.
MAX_TEXT_BOXES = 8

def visible_text(Atspi, node, view, count):
    """(text, offset of its first character) of the lines drawn in view (the element's box as
    the toolkit reports it, clipped to what shows), or None when the toolkit cannot say."""
    SCREEN, LINE = Atspi.CoordType.SCREEN, Atspi.TextGranularity.LINE
    x, y, w, h = view
    if w < 4 or h < 4:
        return None
    first = Atspi.Text.get_offset_at_point(node, x + 1, y + 1, SCREEN)
    last = Atspi.Text.get_offset_at_point(node, x + w - 2, y + h - 2, SCREEN)
    if first < 0 or last < 0 or last < first:
        return None
    # Whole lines: the first and the last may show in part, and a line's end lies past its last character.
    start = Atspi.Text.get_string_at_offset(node, first, LINE).start_offset
    end = Atspi.Text.get_string_at_offset(node, last, LINE).end_offset
    if start < 0 or end <= start:
        return None
    end = min(count, end)
    if end - start > MAX_VISIBLE_TEXT:
        return None
    return Atspi.Text.get_text(node, start, end), start

def text_matches(text, query):
    """(start, end) of each whole-word, case-insensitive occurrence of query in text; runs of
    spaces match any run of white space (a line break included)."""
    words = query.split()
    if not words:
        return []
    pattern = r'\s+'.join(re.escape(w) for w in words)
    if re.match(r'\w', words[0][0]):
        pattern = r'(?<!\w)' + pattern
    if re.match(r'\w', words[-1][-1]):
        pattern += r'(?!\w)'
    return [(m.start(), m.end()) for m in re.finditer(pattern, text, re.IGNORECASE)]

def inside(box, bound):
    # The part of box inside bound when that is most of it; None when it is mostly cut off.
    part = clip(box, bound)
    return part if part is not None and part[2] >= 0.6 * box[2] and part[3] >= 0.6 * box[3] else None

def text_boxes(Atspi, entry, query):
    """(screen box, text) of each occurrence of query drawn in a text element read by the walk
    (entry: its node, the text read and where it starts, the box it shows in, the shift of its
    boxes to the screen). A match wrapped over two lines or mostly cut off is left to OCR."""
    SCREEN = Atspi.CoordType.SCREEN
    dx, dy = entry['shift']
    out = []
    for start, end in text_matches(entry['text'], query)[:MAX_TEXT_BOXES]:
        at = entry['base'] + start
        try:
            r = Atspi.Text.get_range_extents(entry['node'], at, entry['base'] + end, SCREEN)
            c = Atspi.Text.get_character_extents(entry['node'], at, SCREEN)
        except Exception:
            continue
        if r.width <= 0 or r.height <= 0 or c.height <= 0 or r.height > 1.8 * c.height:
            continue
        # LibreOffice reports a range at times where it is drawn, while its paragraph's own box
        # needs the shift: the range is taken where it lies inside the paragraph, and left to
        # OCR when it could lie at either place (a paragraph taller than the shift).
        places = [inside((r.x + dx, r.y + dy, r.width, r.height), entry['box'])]
        if (dx, dy) != (0, 0):
            places.append(inside((r.x, r.y, r.width, r.height), entry['box']))
        fits = [p for p in places if p is not None]
        if len(fits) == 1:
            out.append((fits[0], entry['text'][start:end]))
    return out
`;

