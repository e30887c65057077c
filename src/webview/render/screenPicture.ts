// The screen analysis entry: the picture, then the summary the screen reader produced under it.
// A picture is a button that asks the host to open it full size in an editor tab
// (data-open-picture; see pictureLinks.ts).
import type { ChatEntry } from '../../shared/protocol';
import { codicon, el } from '../dom';
import { setMarkdown } from './markdownView';
import { buildPictureModel, type PictureModel } from './pictureModel';
import { pictureSvg } from './pictureSvg';

type ScreenEntry = Extract<ChatEntry, { kind: 'screen' }>;

export function screenView(entry: ScreenEntry): HTMLElement {
  const section = el('section', 'screen');
  section.setAttribute('aria-label', `Screen analysis: ${entry.title}`);
  const header = el('header', 'screen-header');
  header.append(codicon('eye'), el('span', 'screen-title', entry.title));
  section.append(header);
  const body = el('div', 'screen-body');
  const model = entry.picture ? buildPictureModel(entry.picture) : undefined;
  if (model) body.append(pictureButton(model, 'screen'));
  const text = el('div', 'screen-text markdown');
  setMarkdown(text, entry.text);
  body.append(text);
  section.append(body);
  return section;
}

/** `screen`: the entry's own picture; `after`: a tool card's screen after its action. */
export function pictureButton(model: PictureModel, which: 'screen' | 'after'): HTMLButtonElement {
  const button = el('button', 'picture-open');
  button.type = 'button';
  button.dataset.openPicture = which;
  button.title = 'Open full size in an editor tab (zoom and pan there)';
  button.setAttribute('aria-label', `${model.description}. Open full size`);
  button.append(pictureSvg(model));
  return button;
}
