// The live view's page: GAI's own desktop as the host sends it (a frame only when it changed),
// the points where GAI acted marked for a moment, and Take over / Hand back. After Take over the
// person's clicks, wheel and keys on the picture go to GAI's desktop; before it they do nothing.
// The picture is an SVG whose viewBox is the desktop, so a point maps back through its matrix.
import type { LiveHostMessage, LiveViewMessage } from '../../shared/liveViewProtocol';
import { byId } from '../dom';
import { vscodeApi } from '../vscodeApi';
import { keyMessage, wheelSteps } from './liveKeys';

const SVG = 'http://www.w3.org/2000/svg';
const MARK_MS = 2500;
const MOVE_EVERY_MS = 40;
const BUTTONS = ['left', 'middle', 'right'] as const;

const api = vscodeApi<LiveViewMessage>();
const stage = byId('stage');
const takeOver = byId<HTMLButtonElement>('take-over');
const handBack = byId<HTMLButtonElement>('hand-back');
const note = byId('note');
let svg: SVGSVGElement | undefined;
let picture: SVGImageElement | undefined;
let marks: SVGGElement | undefined;
let size = { width: 0, height: 0 };
let takenOver = false;
let lastMove = 0;

function surface(width: number, height: number): void {
  if (svg && size.width === width && size.height === height) return;
  size = { width, height };
  svg = document.createElementNS(SVG, 'svg');
  svg.classList.add('desktop');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', "GAI's desktop");
  picture = document.createElementNS(SVG, 'image');
  picture.setAttribute('width', String(width));
  picture.setAttribute('height', String(height));
  marks = document.createElementNS(SVG, 'g');
  svg.append(picture, marks);
  stage.replaceChildren(svg);
}

function showFrame(message: Extract<LiveHostMessage, { type: 'frame' }>): void {
  // Decoded off screen first: the picture is swapped whole, never drawn half-loaded.
  const loading = new Image();
  loading.onload = () => {
    surface(message.width, message.height);
    picture?.setAttribute('href', message.image);
    svg?.setAttribute('data-seq', String(message.seq));
    api.postMessage({ type: 'frameShown', seq: message.seq });
  };
  loading.src = message.image;
}

function showMark(message: Extract<LiveHostMessage, { type: 'mark' }>): void {
  if (!marks) return;
  // Sized in the tab's pixels, not the desktop's: readable however small the desktop is shown.
  const unit = 1 / (svg?.getScreenCTM()?.a || 1);
  const mark = document.createElementNS(SVG, 'g');
  mark.classList.add('mark');
  const ring = document.createElementNS(SVG, 'circle');
  ring.setAttribute('cx', String(message.x));
  ring.setAttribute('cy', String(message.y));
  ring.setAttribute('r', String(12 * unit));
  ring.setAttribute('stroke-width', String(3 * unit));
  const dot = document.createElementNS(SVG, 'circle');
  dot.setAttribute('cx', String(message.x));
  dot.setAttribute('cy', String(message.y));
  dot.setAttribute('r', String(3 * unit));
  const label = document.createElementNS(SVG, 'text');
  label.setAttribute('x', String(message.x + 16 * unit));
  label.setAttribute('y', String(message.y - 10 * unit));
  label.setAttribute('font-size', String(13 * unit));
  label.setAttribute('stroke-width', String(3 * unit));
  label.textContent = message.label;
  mark.append(ring, dot, label);
  marks.append(mark);
  setTimeout(() => mark.classList.add('fading'), MARK_MS - 500);
  setTimeout(() => mark.remove(), MARK_MS);
}

function showState(message: Extract<LiveHostMessage, { type: 'state' }>): void {
  byId('title').textContent = message.title;
  byId('agent').textContent = `GAI: ${message.agent}`;
  takenOver = message.takenOver;
  takeOver.hidden = takenOver;
  handBack.hidden = !takenOver;
  stage.classList.toggle('taken-over', takenOver);
  stage.setAttribute('aria-label', takenOver ? "GAI's desktop: your clicks and keys go to it" : "GAI's desktop (watching; Take over to use it)");
  note.textContent = message.note ?? '';
  note.hidden = !message.note;
  if (takenOver) stage.focus();
}

/** The desktop point under a pointer event, or undefined off the picture. */
function desktopPoint(event: MouseEvent): { x: number; y: number } | undefined {
  const matrix = svg?.getScreenCTM();
  if (!svg || !matrix) return undefined;
  const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  const x = Math.round(p.x);
  const y = Math.round(p.y);
  return x >= 0 && y >= 0 && x < size.width && y < size.height ? { x, y } : undefined;
}

function pointer(event: PointerEvent, action: 'down' | 'up' | 'move'): void {
  if (!takenOver) return;
  const at = desktopPoint(event);
  if (!at) return;
  event.preventDefault();
  const button = BUTTONS[event.button] ?? 'left';
  api.postMessage({ type: 'pointer', action, x: at.x, y: at.y, button });
}

stage.addEventListener('pointerdown', (event) => {
  if (!takenOver) return;
  stage.setPointerCapture(event.pointerId);
  stage.focus();
  pointer(event, 'down');
});
stage.addEventListener('pointerup', (event) => pointer(event, 'up'));
stage.addEventListener('pointermove', (event) => {
  const now = performance.now();
  if (now - lastMove < MOVE_EVERY_MS) return;
  lastMove = now;
  pointer(event, 'move');
});
stage.addEventListener('contextmenu', (event) => {
  if (takenOver) event.preventDefault();
});
stage.addEventListener(
  'wheel',
  (event) => {
    if (!takenOver) return;
    const at = desktopPoint(event);
    if (!at) return;
    event.preventDefault();
    const sideways = Math.abs(event.deltaX) > Math.abs(event.deltaY);
    const delta = sideways ? event.deltaX : event.deltaY;
    if (delta === 0) return;
    const direction = sideways ? (delta > 0 ? 'right' : 'left') : delta > 0 ? 'down' : 'up';
    api.postMessage({ type: 'wheel', x: at.x, y: at.y, direction, amount: wheelSteps(delta, event.deltaMode) });
  },
  { passive: false },
);
stage.addEventListener('keydown', (event) => {
  if (!takenOver) return;
  const message = keyMessage(event);
  // Every key goes to GAI's desktop while the person has it, none to the editor around the view.
  event.preventDefault();
  event.stopPropagation();
  if (message) api.postMessage(message);
});

takeOver.addEventListener('click', () => api.postMessage({ type: 'takeOver' }));
handBack.addEventListener('click', () => api.postMessage({ type: 'handBack' }));

window.addEventListener('message', (event: MessageEvent<LiveHostMessage>) => {
  const message = event.data;
  if (message.type === 'frame') showFrame(message);
  else if (message.type === 'mark') showMark(message);
  else if (message.type === 'state') showState(message);
});

api.postMessage({ type: 'ready' });
