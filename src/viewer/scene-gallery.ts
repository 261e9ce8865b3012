// The scene gallery: a "Scenes…" button beside the scene picker opens a dialog showing the bundled
// scenes as cards (thumbnail and name), grouped by folder in the picker's order. A <select> cannot
// show pictures, so the gallery drives the select: choosing a card sets its value and fires its
// change event, so the scene opens exactly as when chosen there, and the two never disagree.
// Keyboard: the cards are buttons (Tab, Enter or Space opens), the arrow keys move between cards,
// Home and End go to the first and last, Esc closes. Thumbnails load lazily, when the dialog shows them.
import { element, h } from './dom.ts';
import { bundledScenes, groupedScenes } from './scene-sources.ts';
import { NO_THUMBNAIL, THUMBNAIL_WIDTH, thumbnailPath } from './scene-thumbnails.ts';

/** Height of a card's picture box: thumbnails keep their aspect ratio inside it (4:3, as most scenes). */
const THUMBNAIL_BOX_HEIGHT = Math.round((THUMBNAIL_WIDTH * 3) / 4);

/** The neutral stand-in for a scene without a thumbnail. */
function placeholder(why: string): HTMLElement {
  return h('span', { class: 'scene-thumbnail placeholder', title: why }, 'no preview');
}

function thumbnail(sceneName: string): HTMLElement {
  const path = thumbnailPath(sceneName);
  if (!path) return placeholder(NO_THUMBNAIL[sceneName] ?? 'no thumbnail');
  const img = h('img', {
    class: 'scene-thumbnail', src: `${import.meta.env.BASE_URL}${path}`, alt: '',
    width: THUMBNAIL_WIDTH, height: THUMBNAIL_BOX_HEIGHT, loading: 'lazy', decoding: 'async',
  });
  // A scene added since the thumbnails were made (`npm run thumbnails` makes them) has no file yet.
  img.addEventListener('error', () => img.replaceWith(placeholder('no thumbnail yet: run npm run thumbnails')), { once: true });
  return img;
}

/** Makes the gallery dialog that the "Scenes…" button (#open-scene-gallery) opens, for `picker`. */
export function attachSceneGallery(picker: HTMLSelectElement): void {
  const dialog = h('dialog', { id: 'scene-gallery', 'aria-labelledby': 'scene-gallery-title' });
  const groups = groupedScenes(bundledScenes()).map(([folder, scenes]) => {
    const cards = scenes.map((scene) => {
      const label = scene.name.slice(folder ? folder.length + 1 : 0).replace(/\.rib$/i, '');
      const card = h('button', { type: 'button', class: 'scene-card', 'data-url': scene.url, 'data-scene': scene.name, title: scene.name },
        thumbnail(scene.name), h('span', { class: 'scene-card-name' }, label));
      card.addEventListener('click', () => choose(scene.url));
      return h('li', {}, card);
    });
    const heading = `scene-gallery-${folder || 'top'}`;
    return h('section', { class: 'scene-group', 'data-folder': folder, 'aria-labelledby': heading },
      h('h3', { id: heading }, folder || 'scenes'), h('ul', { class: 'scene-cards' }, ...cards));
  });
  dialog.append(
    h('div', { class: 'scene-gallery-head' },
      h('h2', { id: 'scene-gallery-title' }, 'Bundled scenes'),
      h('form', { method: 'dialog' }, h('button', { type: 'submit', 'aria-label': 'Close the scene gallery' }, 'Close'))),
    ...groups,
  );
  document.body.append(dialog);

  const button = element<HTMLButtonElement>('open-scene-gallery');

  const cards = (): HTMLButtonElement[] => [...dialog.querySelectorAll<HTMLButtonElement>('.scene-card')];

  function choose(url: string): void {
    dialog.close();
    if (picker.value !== url) {
      picker.value = url;
      picker.dispatchEvent(new Event('change'));
    }
  }

  button.addEventListener('click', () => {
    for (const card of cards()) card.toggleAttribute('aria-current', card.dataset.url === picker.value && !!picker.value);
    dialog.showModal();
    (cards().find((c) => c.hasAttribute('aria-current')) ?? cards()[0])?.focus();
  });
  dialog.addEventListener('close', () => button.focus());
  // A click on the backdrop (outside the dialog's box) closes it.
  dialog.addEventListener('click', (event) => {
    if (event.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    if (event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom) dialog.close();
  });
  dialog.addEventListener('keydown', (event) => {
    // Keys pressed in the gallery are the gallery's: the page's shortcuts (Esc stops the render,
    // Home resets the camera, F and A frame) do not see them.
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      dialog.close();
      return;
    }
    const list = cards();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const next = neighbour(list, at, event.key);
    if (next === undefined) return;
    event.preventDefault();
    list[next]!.focus();
  });
}

/** The card the key moves to from card `at`: left/right the previous and next, up/down the nearest
 * card in the row above or below (across groups), Home/End the first and last. */
function neighbour(list: HTMLElement[], at: number, key: string): number | undefined {
  if (key === 'ArrowLeft') return Math.max(0, at - 1);
  if (key === 'ArrowRight') return Math.min(list.length - 1, at + 1);
  if (key === 'Home') return 0;
  if (key === 'End') return list.length - 1;
  if (key !== 'ArrowUp' && key !== 'ArrowDown') return undefined;
  const from = list[at]!.getBoundingClientRect();
  const down = key === 'ArrowDown';
  let best: number | undefined;
  let bestRow = Infinity;
  let bestDx = Infinity;
  list.forEach((card, k) => {
    const r = card.getBoundingClientRect();
    const dy = down ? r.top - from.bottom : from.top - r.bottom;
    if (dy < -1) return;
    const dx = Math.abs(r.left + r.width / 2 - (from.left + from.width / 2));
    // The nearest row first, then the card closest in x within it.
    if (dy < bestRow - 1 || (Math.abs(dy - bestRow) <= 1 && dx < bestDx)) {
      best = k;
      bestRow = dy;
      bestDx = dx;
    }
  });
  return best ?? at;
}
