// A screen analysis entry: the screenshot the agent saw as an inline SVG (image, OCR boxes,
// click points) with the analysis text beside it. Geometry goes in SVG attributes and looks in
// CSS classes: the CSP has no 'unsafe-inline', so no style attributes.
import type { ChatEntry } from '../../shared/protocol';
import { codicon, el } from '../dom';
import { setMarkdown } from './markdownView';
import { buildPictureModel, type PictureModel, type PicturePoint } from './pictureModel';

const SVG = 'http://www.w3.org/2000/svg';

type ScreenEntry = Extract<ChatEntry, { kind: 'screen' }>;

export function screenView(entry: ScreenEntry): HTMLElement {
  const section = el('section', 'screen');
  section.setAttribute('aria-label', `Screen analysis: ${entry.title}`);
  const header = el('header', 'screen-header');
  header.append(codicon('eye'), el('span', 'screen-title', entry.title));
  section.append(header);
  const body = el('div', 'screen-body');
  const model = entry.picture ? buildPictureModel(entry.picture) : undefined;
  if (model) body.append(pictureToggle(model, section));
  const text = el('div', 'screen-text markdown');
  setMarkdown(text, entry.text);
  body.append(text);
  section.append(body);
  return section;
}

/** The picture inside a button: a click (or Enter/Space) toggles the larger view. */
function pictureToggle(model: PictureModel, section: HTMLElement): HTMLButtonElement {
  const button = el('button', 'picture-toggle');
  button.type = 'button';
  button.title = 'Click to enlarge or shrink';
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-label', `${model.description}. Enlarge`);
  button.append(pictureSvg(model));
  button.addEventListener('click', () => {
    const expanded = section.classList.toggle('expanded');
    button.setAttribute('aria-expanded', String(expanded));
    button.setAttribute('aria-label', `${model.description}. ${expanded ? 'Shrink' : 'Enlarge'}`);
  });
  return button;
}

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
    const rect = svgElement('rect', { class: 'ocr-box', x: box.x, y: box.y, width: box.width, height: box.height });
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

/** A click is a ring with a crosshair; a candidate a numbered ring in another colour. */
function pointMarker(point: PicturePoint): SVGGElement {
  const group = svgElement('g', { class: `point point-${point.kind}` });
  const tip = svgElement('title', {});
  tip.textContent = point.kind === 'candidate' ? `Candidate ${point.number}: ${point.label}` : `Click: ${point.label}`;
  group.append(tip, svgElement('circle', { cx: point.cx, cy: point.cy, r: point.r }));
  const arm = point.r * 1.8;
  if (point.kind === 'click') {
    group.append(
      svgElement('line', { x1: point.cx - arm, y1: point.cy, x2: point.cx + arm, y2: point.cy }),
      svgElement('line', { x1: point.cx, y1: point.cy - arm, x2: point.cx, y2: point.cy + arm }),
    );
  } else {
    const number = svgElement('text', { x: point.labelX, y: point.labelY, 'font-size': point.fontSize });
    number.textContent = String(point.number);
    group.append(number);
  }
  return group;
}

function svgElement<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  // Strokes stay thin on screen whatever the picture's scale.
  if (tag !== 'svg' && tag !== 'g' && tag !== 'title' && tag !== 'image') element.setAttribute('vector-effect', 'non-scaling-stroke');
  return element;
}
