// The page reads files asynchronously (fetched, or opened by the user); Make* requests run
// synchronously on files in memory. This gathers, ahead of the run, every picture the requests name
// at each place the texture search path would look.
import type { RibResolver } from '../rib/resolver.ts';
import type { TextureRequest } from '../rib/scene.ts';
import { textureCandidates } from './texture-storage.ts';

const PICTURE_ARGS = ['picture', 'px', 'nx', 'py', 'ny', 'pz', 'nz'];

async function bytesOf(file: Awaited<ReturnType<RibResolver['read']>>): Promise<Uint8Array | undefined> {
  if (file === undefined || file instanceof Uint8Array) return file;
  if (typeof file === 'string') return new TextEncoder().encode(file);
  const parts: Uint8Array[] = [];
  for await (const part of file) parts.push(part);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** The pictures `requests` read, by path (relative to the scene's folder), from `resolver`. */
export async function fetchPictures(requests: readonly TextureRequest[], resolver: RibResolver): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for (const request of requests) {
    for (const arg of PICTURE_ARGS) {
      const name = request.args[arg];
      if (typeof name !== 'string') continue;
      for (const path of textureCandidates(name, request.searchPath).paths) {
        if (files.has(path)) continue;
        const bytes = await bytesOf(await resolver.read(path, ['']));
        if (bytes) files.set(path, bytes);
      }
    }
  }
  return files;
}
