// The texture maps a renderer's shaders name: each name (with the texture search path in force) is
// looked up once, decoded and given a slot; the frame's atlas (texture-atlas.ts) holds every map
// with a slot. A name that finds no readable map is warned about once and gets no slot (-1): its
// lookups return the fill value. After Make* requests rewrite files, `forget` drops what was read.
// The atlas is one storage binding: past the binding limit the finest levels of the largest maps
// are left out (with a warning), so those maps are read at a coarser resolution.
import type { mat4 } from 'gl-matrix';
import { ATLAS, packAtlas } from './texture-atlas.ts';
import { decodeTextureFile } from './texture-file.ts';
import { findTexture, type TextureStorage } from './texture-storage.ts';
import type { TextureMap } from './texture-map.ts';

export class TextureRegistry {
  private readonly slots = new Map<string, number>();
  private maps: TextureMap[] = [];
  private names: string[] = [];

  constructor(private readonly storage: TextureStorage) {}

  /** The slot of the map `name` names, or -1 (with a warning the first time) when there is none. */
  slot(name: string, searchPath: string | undefined, warn: (message: string) => void): number {
    const key = `${searchPath ?? ''}\u0001${name}`;
    const known = this.slots.get(key);
    if (known !== undefined) return known;
    let slot = -1;
    const found = findTexture(this.storage, name, searchPath);
    if ('problem' in found) warn(`texture ${found.problem}; its lookups return the fill value`);
    else {
      try {
        this.maps.push(decodeTextureFile(found.bytes));
        this.names.push(found.path);
        slot = this.maps.length - 1;
      } catch (error) {
        warn(`texture "${found.path}" cannot be read (${(error as Error).message}); its lookups return the fill value`);
      }
    }
    this.slots.set(key, slot);
    return slot;
  }

  /** The atlas of every map with a slot, at most `maxBytes` long, or undefined when no shader has
   * named a map. */
  atlas(cameraToWorld: mat4, maxBytes = Infinity, warn: (message: string) => void = () => {}): Uint32Array | undefined {
    if (this.maps.length === 0) return undefined;
    const maps = this.maps.map((map) => ({ ...map, levels: map.levels.slice(0, ATLAS.maxLevels) }));
    const bytes = (): number => 4 * (ATLAS.header + maps.length * ATLAS.mapWords + maps.reduce((n, m) => n + m.levels.reduce((k, l) => k + l.data.length, 0), 0));
    const dropped = new Set<number>();
    while (bytes() > maxBytes) {
      let largest = -1;
      maps.forEach((m, k) => {
        if (m.levels.length > 1 && (largest < 0 || m.levels[0]!.data.length > maps[largest]!.levels[0]!.data.length)) largest = k;
      });
      if (largest < 0) throw new Error(`the texture maps need ${bytes()} bytes even at 1×1, more than one storage binding holds (${maxBytes})`);
      maps[largest]!.levels = maps[largest]!.levels.slice(1);
      dropped.add(largest);
    }
    for (const k of dropped) {
      const [full, kept] = [this.maps[k]!.levels[0]!, maps[k]!.levels[0]!];
      warn(`texture "${this.names[k]}": read at ${kept.width}×${kept.height} instead of ${full.width}×${full.height}, so that every map fits one storage binding (${maxBytes} bytes)`);
    }
    return packAtlas(maps, cameraToWorld);
  }

  /** The map in `slot` (for textureinfo-style questions on the host). */
  map(slot: number): TextureMap | undefined {
    return this.maps[slot];
  }

  forget(): void {
    this.slots.clear();
    this.maps = [];
    this.names = [];
  }
}
