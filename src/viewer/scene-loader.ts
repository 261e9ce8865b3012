// Parses a scene once and prepares its first frame for the page. The parse count is kept so the
// tests can check that edits re-render without re-parsing.
import { chainResolvers, createFetchResolver, createMemoryResolver, fetchPictures, type Frame, memoryTextureStorage, parseRib, type RibResolver, runTextureRequests, type Scene, TextureRegistry, texturesBetween } from '../index.ts';
import { fetchSceneShaders } from './fetch-shaders.ts';
import { shaderSources } from './scene-sources.ts';

export interface LoadedScene {
  name: string;
  scene: Scene;
  /** The first frame, with one attributes object per primitive (edits touch only that object). */
  frame: Frame | undefined;
  /** The frame as parsed (for resetting edits). */
  original: Frame | undefined;
  shaders: Map<string, { source: string; file: string }>;
  /** Texture maps: the opened files and what the Make* requests before the first frame made of
   * them, in memory. */
  textures: TextureRegistry;
}

export const loaderCounters = { parses: 0 };

export async function loadSceneFromUrl(url: string): Promise<LoadedScene> {
  const absolute = new URL(url, location.href);
  const response = await fetch(absolute);
  if (!response.ok) throw new Error(`cannot fetch ${absolute.pathname}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const name = decodeURIComponent(absolute.pathname.split('/').pop() ?? 'scene.rib');
  // Shaders named by the scene may sit next to it or on its shader search path; the standard ones are built in.
  const resolver = createFetchResolver(absolute);
  const loaded = await load(name, bytes, resolver, new Map(), new Map());
  if (loaded.original) for (const [shader, found] of await fetchSceneShaders(loaded.original, resolver)) loaded.shaders.set(shader, found);
  return loaded;
}

export async function loadSceneFromFiles(name: string, bytes: Uint8Array, files: Map<string, Uint8Array>): Promise<LoadedScene> {
  // Archive paths are relative to the scene's folder; dropped files are named relative to it too.
  const folder = name.includes('/') ? name.slice(0, name.lastIndexOf('/') + 1) : '';
  const relative = new Map([...files].map(([n, b]) => [n.startsWith(folder) ? n.slice(folder.length) : n, b] as const));
  return load(name.slice(folder.length), bytes, chainResolvers(createMemoryResolver(relative)), shaderSources(files), relative);
}

async function load(name: string, bytes: Uint8Array, resolver: RibResolver, shaders: LoadedScene['shaders'], files: Map<string, Uint8Array>): Promise<LoadedScene> {
  loaderCounters.parses++;
  // The page's camera orbits away from the RIB's, so no DelayedReadArchive may be judged off screen.
  const scene = await parseRib(bytes, { fileName: name, resolver, skipOffScreenArchives: false });
  const original = scene.frames[0];
  // The Make* requests before the first frame run on the files in memory (fetched pictures added).
  const requests = texturesBetween(scene, 0, 0);
  const storage = memoryTextureStorage(new Map([...files, ...await fetchPictures(requests, resolver)]));
  scene.warnings.push(...runTextureRequests(requests, storage).warnings);
  return { name, scene, frame: original && prepareFrame(original), original, shaders, textures: new TextureRegistry(storage) };
}

/** A copy of the frame whose primitives own their attributes (and colour arrays) and lights their parameter lists. */
export function prepareFrame(frame: Frame): Frame {
  return {
    ...frame,
    options: { ...frame.options },
    camera: { ...frame.camera },
    lights: frame.lights.map((l) => ({ ...l, params: [...l.params] })),
    primitives: frame.primitives.map((p) => ({
      ...p,
      attributes: { ...p.attributes, color: [...p.attributes.color], opacity: [...p.attributes.opacity] },
    })),
  };
}
