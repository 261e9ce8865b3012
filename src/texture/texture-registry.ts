// The texture maps a renderer's shaders name: each name (with the texture search path in force) is
// looked up once, decoded and given a slot; the frame's tile pool (tile-pool.ts) pages every map
// with a slot. A name that finds no readable map is warned about once and gets no slot (-1): its
// lookups return the fill value. After Make* requests rewrite files, `forget` drops what was read.
// Maps made in memory ("auto" shadow maps, src/reyes/shadows) are `put` under a name no file has,
// with a signature of what they were made from, and outlive `forget`.
import type { mat4 } from 'gl-matrix';
import { tileTable, type TileTable } from './tile-table.ts';
import { decodeTextureFile } from './texture-file.ts';
import { findTexture, type TextureStorage } from './texture-storage.ts';
import type { TextureMap } from './texture-map.ts';

/** A frame's maps (slot = index) and their page table. */
export interface FrameTextures {
  maps: readonly TextureMap[];
  table: TileTable;
}

export class TextureRegistry {
  private readonly slots = new Map<string, number>();
  private maps: TextureMap[] = [];
  private readonly memory = new Map<string, { map: TextureMap; signature: string }>();

  constructor(private readonly storage: TextureStorage) {}

  /** The slot of the map `name` names, or -1 (with a warning the first time) when there is none. */
  slot(name: string, searchPath: string | undefined, warn: (message: string) => void): number {
    const made = this.memory.get(name);
    const key = made ? `\u0002${name}` : `${searchPath ?? ''}\u0001${name}`;
    const known = this.slots.get(key);
    if (known !== undefined) return known;
    if (made) {
      this.slots.set(key, this.maps.push(made.map) - 1);
      return this.maps.length - 1;
    }
    let slot = -1;
    const found = findTexture(this.storage, name, searchPath);
    if ('problem' in found) warn(`texture ${found.problem}; its lookups return the fill value`);
    else {
      try {
        this.maps.push(decodeTextureFile(found.bytes));
        slot = this.maps.length - 1;
      } catch (error) {
        warn(`texture "${found.path}" cannot be read (${(error as Error).message}); its lookups return the fill value`);
      }
    }
    this.slots.set(key, slot);
    return slot;
  }

  /** Every map with a slot and their page table (tile-table.ts), or undefined when no shader has
   * named a map. */
  textures(cameraToWorld: mat4): FrameTextures | undefined {
    if (this.maps.length === 0) return undefined;
    return { maps: [...this.maps], table: tileTable(this.maps, cameraToWorld) };
  }

  /** The map in `slot` (for textureinfo-style questions on the host). */
  map(slot: number): TextureMap | undefined {
    return this.maps[slot];
  }

  /** Puts a map made in memory under `name` (replacing the one there: its slot stays), with the
   * `signature` of what it was made from. */
  put(name: string, map: TextureMap, signature: string): void {
    this.memory.set(name, { map, signature });
    const slot = this.slots.get(`\u0002${name}`);
    if (slot !== undefined) this.maps[slot] = map;
  }

  /** The signature the map put under `name` was made from, or undefined when none was put. */
  signature(name: string): string | undefined {
    return this.memory.get(name)?.signature;
  }

  forget(): void {
    this.slots.clear();
    this.maps = [];
  }
}
