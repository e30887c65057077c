// The picture panel's page: one screen picture full size, with zoom (buttons, + - 0 1 keys,
// Ctrl+wheel) and pan (drag, wheel, arrow keys). The host posts the picture when the page says it
// is ready, and again whenever the tab is reused for another one.
import type { PictureMessage, PicturePanelReady } from '../../shared/pictureProtocol';
import { byId } from '../dom';
import { buildPictureModel, type PictureModel } from '../render/pictureModel';
import { pictureSvg } from '../render/pictureSvg';
import { vscodeApi } from '../vscodeApi';
import { actualSize, fitViewport, panBy, viewBoxOf, zoomAt, ZOOM_STEP, type Size, type Viewport } from './viewport';

const ARROW_STEP_PX = 60;

const api = vscodeApi<PicturePanelReady>();
const stage = byId('stage');
const scaleLabel = byId('scale');
let model: PictureModel | undefined;
let svg: SVGSVGElement | undefined;
let view: Viewport = { scale: 1, x: 0, y: 0 };

function stageSize(): Size {
  return { width: Math.max(1, stage.clientWidth), height: Math.max(1, stage.clientHeight) };
}

function apply(next: Viewport): void {
  view = next;
  if (!svg) return;
  svg.setAttribute('viewBox', viewBoxOf(view, stageSize()));
  // For the browser test and screen readers: the scale in numbers.
  svg.dataset.scale = String(view.scale);
  scaleLabel.textContent = `${Math.round(view.scale * 100)}%`;
  stage.classList.toggle('pannable', view.scale * (model?.width ?? 0) > stage.clientWidth || view.scale * (model?.height ?? 0) > stage.clientHeight);
}

function show(message: PictureMessage): void {
  byId('title').textContent = message.title;
  const caption = byId('caption');
  caption.textContent = message.caption ?? '';
  caption.hidden = !message.caption;
  model = buildPictureModel(message.picture);
  stage.replaceChildren();
  svg = undefined;
  if (!model) {
    stage.textContent = 'This picture has no size to show.';
    return;
  }
  svg = pictureSvg(model);
  svg.classList.add('full');
  // The viewBox is fitted to the stage exactly, so nothing is letterboxed by the SVG itself.
  svg.setAttribute('preserveAspectRatio', 'xMinYMin meet');
  stage.append(svg);
  apply(fitViewport(model, stageSize()));
}

function zoom(factor: number, px = stage.clientWidth / 2, py = stage.clientHeight / 2): void {
  if (model) apply(zoomAt(view, factor, px, py, model, stageSize()));
}

function pan(dx: number, dy: number): void {
  if (model) apply(panBy(view, dx, dy, model, stageSize()));
}

byId('zoom-in').addEventListener('click', () => zoom(ZOOM_STEP));
byId('zoom-out').addEventListener('click', () => zoom(1 / ZOOM_STEP));
byId('fit').addEventListener('click', () => model && apply(fitViewport(model, stageSize())));
byId('actual').addEventListener('click', () => model && apply(actualSize(view, model, stageSize())));

stage.addEventListener(
  'wheel',
  (event) => {
    event.preventDefault();
    const box = stage.getBoundingClientRect();
    // Ctrl+wheel (and a trackpad pinch, which arrives as one) zooms about the pointer; a plain wheel pans.
    if (event.ctrlKey || event.metaKey) zoom(Math.exp(-event.deltaY / 300), event.clientX - box.left, event.clientY - box.top);
    else pan(-(event.shiftKey ? event.deltaY : event.deltaX), event.shiftKey ? 0 : -event.deltaY);
  },
  { passive: false },
);

let drag: { id: number; x: number; y: number } | undefined;
stage.addEventListener('pointerdown', (event) => {
  if (event.button !== 0) return;
  drag = { id: event.pointerId, x: event.clientX, y: event.clientY };
  stage.setPointerCapture(event.pointerId);
  stage.classList.add('dragging');
});
stage.addEventListener('pointermove', (event) => {
  if (!drag || event.pointerId !== drag.id) return;
  pan(event.clientX - drag.x, event.clientY - drag.y);
  drag = { ...drag, x: event.clientX, y: event.clientY };
});
const endDrag = (event: PointerEvent): void => {
  if (!drag || event.pointerId !== drag.id) return;
  drag = undefined;
  stage.classList.remove('dragging');
};
stage.addEventListener('pointerup', endDrag);
stage.addEventListener('pointercancel', endDrag);

window.addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const keys: Record<string, () => void> = {
    '+': () => zoom(ZOOM_STEP),
    '=': () => zoom(ZOOM_STEP),
    '-': () => zoom(1 / ZOOM_STEP),
    '0': () => model && apply(fitViewport(model, stageSize())),
    '1': () => model && apply(actualSize(view, model, stageSize())),
    ArrowLeft: () => pan(ARROW_STEP_PX, 0),
    ArrowRight: () => pan(-ARROW_STEP_PX, 0),
    ArrowUp: () => pan(0, ARROW_STEP_PX),
    ArrowDown: () => pan(0, -ARROW_STEP_PX),
  };
  const action = keys[event.key];
  if (!action) return;
  event.preventDefault();
  action();
});

// A resized tab keeps the same picture pixel at its top-left, and the picture in view.
new ResizeObserver(() => model && apply(panBy(view, 0, 0, model, stageSize()))).observe(stage);

window.addEventListener('message', (event: MessageEvent<PictureMessage>) => {
  const message = event.data;
  if (typeof message !== 'object' || message === null || message.type !== 'picture' || typeof message.picture !== 'object') return;
  show(message);
});

api.postMessage({ type: 'ready' });
