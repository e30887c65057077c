// A screen picture as an inline SVG: the image, the OCR boxes' outlines, the click points. Used by
// the chat (thumbnails) and the picture panel (full size). Geometry goes in SVG attributes and
// looks in CSS classes: the CSP has no 'unsafe-inline', so no style attributes.
import type { PictureModel, PicturePoint } from './pictureModel';

const SVG = 'http://www.w3.org/2000/svg';

export function pictureSvg(model: PictureModel): SVGSVGElement {
  const svg = svgElement('svg', { viewBox: model.viewBox, class: 'picture', role: 'img', 'aria-label': model.description });
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  const title = svgElement('title', {});
  title.textContent = model.description;
  svg.append(title);
  if (model.src) {
    svg.append(svgElement('image', { href: model.src, x: 0, y: 0, width: model.width, height: model.height }));
  } else {
    svg.append(svgElement('rect', { class: 'picture-missing', x: 0, y: 0, width: model.width, height: model.height }));
  }
  const boxes = svgElement('g', { class: 'ocr-boxes' });
  for (const box of model.boxes) {
    // The outline lies outside the text box (no fill): the words under it stay readable.
    const rect = svgElement('rect', { class: box.target ? 'ocr-box target-box' : 'ocr-box', ...box.outline });
    const tip = svgElement('title', {});
    tip.textContent = box.text;
    rect.append(tip);
    boxes.append(rect);
  }
  const points = svgElement('g', { class: 'click-points' });
  for (const point of model.points) points.append(pointMarker(point));
  svg.append(boxes, points);
  return svg;
}

/**
 * A click is a ring with a crosshair whose arms stop short of the centre (the pixel itself stays
 * visible); a candidate a ring with a numbered badge. Every stroke is drawn twice, a wide light
 * halo under a narrow dark-coloured core, so markers show on light and dark screenshots alike.
 */
function pointMarker(point: PicturePoint): SVGGElement {
  const group = svgElement('g', { class: `point point-${point.kind}` });
  const tip = svgElement('title', {});
  tip.textContent = point.kind === 'candidate' ? `Candidate ${point.number}: ${point.label}` : point.kind === 'target' ? point.label : `Click: ${point.label}`;
  group.append(tip);
  const { cx, cy, r } = point;
  // A target is a dot a third of a click's ring: the label it sits on stays readable.
  const shapes: Array<[keyof SVGElementTagNameMap, Record<string, number>]> = [['circle', { cx, cy, r: point.kind === 'target' ? Math.max(1.5, r / 3) : r }]];
  if (point.kind === 'click') {
    const inner = r * 0.35;
    const outer = r * 1.8;
    shapes.push(
      ['line', { x1: cx - outer, y1: cy, x2: cx - inner, y2: cy }],
      ['line', { x1: cx + inner, y1: cy, x2: cx + outer, y2: cy }],
      ['line', { x1: cx, y1: cy - outer, x2: cx, y2: cy - inner }],
      ['line', { x1: cx, y1: cy + inner, x2: cx, y2: cy + outer }],
    );
  }
  for (const layer of ['halo', 'core']) {
    const g = svgElement('g', { class: layer });
    for (const [tag, attributes] of shapes) g.append(svgElement(tag, attributes));
    group.append(g);
  }
  if (point.kind === 'candidate') {
    const badge = svgElement('g', { class: 'badge' });
    badge.append(svgElement('circle', { cx: point.labelX, cy: point.labelY, r: point.badgeR }));
    const number = svgElement('text', { x: point.labelX, y: point.labelY, 'font-size': point.fontSize, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
    number.textContent = String(point.number);
    badge.append(number);
    group.append(badge);
  }
  return group;
}

function svgElement<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag) as SVGElementTagNameMap[K];
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  // Strokes stay thin on screen whatever the picture's scale.
  if (tag !== 'svg' && tag !== 'g' && tag !== 'title' && tag !== 'image' && tag !== 'text') element.setAttribute('vector-effect', 'non-scaling-stroke');
  return element;
}
