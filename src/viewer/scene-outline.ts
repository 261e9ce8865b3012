// The scene's outline: its objects (by type and the RIB request that made them), lights and named
// coordinate systems. Choosing an object selects it, as clicking it in the picture does.
import type { Frame } from '../index.ts';
import { h } from './dom.ts';

/** Objects listed; a scene with more says how many more (select those in the picture). */
const MAX_LISTED = 500;

export function buildSceneOutline(container: HTMLElement, frame: Frame, selected: number | undefined, select: (index: number) => void): void {
  const listed = frame.primitives.slice(0, MAX_LISTED);
  const objects = h('ul', { class: 'outline-list', 'aria-label': 'Objects' }, ...listed.map((p, k) => {
    const item = h('button', { type: 'button', 'data-primitive': k, 'aria-pressed': String(k === selected) },
      `${p.geometry.type} #${k}`, h('span', { class: 'note' }, ` ${p.source.file}:${p.source.line}`));
    item.addEventListener('click', () => select(k));
    return h('li', {}, item);
  }));
  if (frame.primitives.length > listed.length) objects.append(h('li', { class: 'note' }, `… and ${frame.primitives.length - listed.length} more: click them in the picture`));
  const lights = h('ul', { class: 'outline-list', 'aria-label': 'Lights' },
    ...frame.lights.map((l) => h('li', { 'data-light-outline': l.id }, `${l.shader}`, h('span', { class: 'note' }, ` ${l.source.file}:${l.source.line}`))));
  const systems = Object.keys(frame.coordinateSystems);
  container.replaceChildren(
    h('h3', {}, `Objects (${frame.primitives.length})`), objects,
    h('h3', {}, `Lights (${frame.lights.length})`), lights,
    h('h3', {}, `Coordinate systems (${systems.length})`),
    h('ul', { class: 'outline-list', 'aria-label': 'Coordinate systems' }, ...systems.map((name) => h('li', {}, h('code', {}, name)))),
  );
}
