// A scene opened by URL names shaders that sit beside it or on its Option "searchpath" "shader"
// (e.g. ["shaders:&"]). The renderer looks shaders up synchronously, so the page fetches, ahead of
// the render, every non-standard shader the frame names from the places the command line searches:
// each search path entry relative to the scene's folder, "&" and "@" standing for the folder itself.
// Standard shaders are built in and not fetched (a scene folder's own copy of one is not used).
import { type Frame, type RibResolver, standardShaderSource } from '../index.ts';

/** Names of the shaders `frame` asks for that are not standard. */
export function namedShaders(frame: Frame): string[] {
  const names = new Set<string>();
  for (const p of frame.primitives) {
    const { surface, displacement, atmosphere } = p.attributes;
    for (const ref of [surface, displacement, atmosphere]) if (ref) names.add(ref.name);
  }
  for (const light of frame.lights) names.add(light.shader);
  if (frame.options.imager) names.add(frame.options.imager.name);
  names.delete('defaultsurface');
  return [...names].filter((name) => standardShaderSource(name) === undefined);
}

/** The folders (relative to the scene's, "" the folder itself) the frame's shader search path names, in order. */
export function shaderFolders(frame: Frame): string[] {
  const value = frame.options.user['searchpath']?.find((p) => p.name === 'shader')?.values[0];
  const entries = typeof value === 'string' ? value.split(':').filter(Boolean) : ['&'];
  const folders = entries.map((entry) => (entry === '&' || entry === '@' ? '' : entry.replace(/\/+$/, '')));
  return [...new Set(folders)];
}

/** The non-standard shaders `frame` names, fetched through `resolver` (the scene's folder) from the
 * first folder on its search path that has each, by shader name; the file is named as the path. */
export async function fetchSceneShaders(frame: Frame, resolver: RibResolver): Promise<Map<string, { source: string; file: string }>> {
  const found = new Map<string, { source: string; file: string }>();
  const decoder = new TextDecoder();
  for (const name of namedShaders(frame)) {
    for (const folder of shaderFolders(frame)) {
      const file = folder ? `${folder}/${name}.sl` : `${name}.sl`;
      const text = await textOf(await resolver.read(file, ['']), decoder);
      if (text === undefined) continue;
      found.set(name, { source: text, file });
      break;
    }
  }
  return found;
}

async function textOf(file: Awaited<ReturnType<RibResolver['read']>>, decoder: TextDecoder): Promise<string | undefined> {
  if (file === undefined || typeof file === 'string') return file;
  if (file instanceof Uint8Array) return decoder.decode(file);
  let text = '';
  for await (const part of file) text += decoder.decode(part, { stream: true });
  return text + decoder.decode();
}
