// Ways to open a scene: the bundled-scene picker (and its gallery of thumbnails), ?scene=URL, the
// file dialog and drag and drop.
import { element } from './dom.ts';
import { attachSceneGallery } from './scene-gallery.ts';
import { loadSceneFromFiles, loadSceneFromUrl, type LoadedScene } from './scene-loader.ts';
import { bundledScenes, groupedScenes, readOpenedFiles } from './scene-sources.ts';

export interface SceneTarget {
  show(loaded: LoadedScene): void;
  loadFailed(name: string, message: string): void;
}

/** Counts the scenes asked for: a load that finishes after a later request (the first scene still
 * fetching when the user opens files) is dropped, so the scene shown is the one asked for last. */
let requestedLoads = 0;

/** Starts a load; what it returns tells whether that load is still the one asked for last. */
function startLoad(): () => boolean {
  const request = ++requestedLoads;
  return () => request === requestedLoads;
}

export async function openUrl(target: SceneTarget, url: string): Promise<void> {
  const latest = startLoad();
  try {
    const loaded = await loadSceneFromUrl(url);
    if (latest()) target.show(loaded);
  } catch (error) {
    if (latest()) target.loadFailed(url, (error as Error).message);
  }
}

async function openFiles(target: SceneTarget, list: Iterable<File>): Promise<void> {
  // The picker no longer names what is shown (and choosing its entry again must reload it).
  element<HTMLSelectElement>('scene-picker').value = '';
  const url = new URL(location.href);
  url.searchParams.delete('scene');
  history.replaceState(null, '', url);
  const latest = startLoad();
  const opened = await readOpenedFiles(list);
  if (!latest()) return;
  if (!opened.scene) {
    target.loadFailed([...opened.files.keys()].join(', ') || 'the files', 'no .rib file among them');
    return;
  }
  try {
    const loaded = await loadSceneFromFiles(opened.scene.name, opened.scene.bytes, opened.files);
    if (latest()) target.show(loaded);
  } catch (error) {
    if (latest()) target.loadFailed(opened.scene.name, (error as Error).message);
  }
}

export function attachScenePicker(target: SceneTarget): void {
  const picker = element<HTMLSelectElement>('scene-picker');
  for (const [folder, scenes] of groupedScenes(bundledScenes())) {
    const group = document.createElement('optgroup');
    group.label = folder;
    group.append(...scenes.map((scene) => new Option(scene.name.slice(folder.length + 1), scene.url)));
    picker.append(group);
  }
  picker.addEventListener('change', () => {
    if (!picker.value) return;
    const url = new URL(location.href);
    url.searchParams.set('scene', picker.value);
    history.replaceState(null, '', url);
    void openUrl(target, picker.value);
  });
  attachSceneGallery(picker);
  const input = element<HTMLInputElement>('open-files');
  input.addEventListener('change', () => {
    if (input.files?.length) void openFiles(target, [...input.files]);
    input.value = '';
  });
  const zone = element('viewport');
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dropping');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dropping'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dropping');
    const files = event.dataTransfer?.files;
    if (files?.length) void openFiles(target, [...files]);
  });
}

/** The scene to open first: ?scene=URL, else the first bundled viewer scene. */
export function initialScene(): string | undefined {
  const asked = new URLSearchParams(location.search).get('scene');
  if (asked) {
    const picker = element<HTMLSelectElement>('scene-picker');
    if ([...picker.options].some((o) => o.value === asked)) picker.value = asked;
    return asked;
  }
  const first = bundledScenes().find((s) => s.name === 'viewer/showcase.rib');
  if (first) element<HTMLSelectElement>('scene-picker').value = first.url;
  return first?.url;
}
