// A click on a picture in the conversation (a screen entry's, or a tool card's screen after its
// action) asks the host to open it full size in an editor tab. One listener for the whole log:
// the entries are re-rendered often, and the picture only says which one it is (data-open-picture)
// while its entry element carries the index (data-index).
import type { WebviewMessage } from '../shared/protocol';

export function listenForPictureLinks(log: HTMLElement, post: (message: WebviewMessage) => void): void {
  log.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-open-picture]') : null;
    const entry = target?.closest<HTMLElement>('[data-index]');
    if (!target || !entry) return;
    const index = Number(entry.dataset.index);
    if (!Number.isInteger(index) || index < 0) return;
    post(target.dataset.openPicture === 'after' ? { type: 'openPicture', index, after: true } : { type: 'openPicture', index });
  });
}
